#!/usr/bin/env python3
"""wenc's Python binding against CPython's built-in codecs, on the same bytes.

    make python
    /usr/bin/python3 bench/python/bench.py [--quick] [--rows TEXT]

Each row times `wenc.decode(data, label)` against `data.decode(codec)` (or
`wenc.encode(text, label)` against `text.encode(codec)`) in turns, best of
ROUNDS rounds of about 100 ms each, and prints MB/s of the bytes side and
the ratio wenc / CPython. Large rows convert a whole corpus file in one
call; small rows convert pieces of about 40 bytes, one call each. Legacy
inputs are the corpus text encoded with wenc (html mode). "same" says
whether both gave the same output (CPython's tables differ from the
Standard's in places; such rows still time the same work).
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))

import wenc  # noqa: E402

CORPUS = next((d for d in (os.path.join(ROOT, "..", "shared", "corpus", "wikipedia"),
                           "/work/shared/corpus/wikipedia") if os.path.isdir(d)), None)

# (file, wenc label, CPython codec)
DECODE_ROWS = [
    ("en.html", "utf-8", "utf-8"), ("fr.txt", "utf-8", "utf-8"),
    ("ru.txt", "utf-8", "utf-8"), ("ja.txt", "utf-8", "utf-8"),
    ("zh_cn.txt", "utf-8", "utf-8"), ("th.html", "utf-8", "utf-8"),
    ("en.txt:ascii", "utf-8", "utf-8"),
    ("en.txt", "utf-16le", "utf-16-le"), ("ja.txt", "utf-16le", "utf-16-le"),
    ("ja.txt", "shift_jis", "shift_jis"), ("ja.txt", "euc-jp", "euc_jp"),
    ("ja.txt", "iso-2022-jp", "iso2022_jp"), ("zh_cn.txt", "gb18030", "gb18030"),
    ("zh_cn.html", "gbk", "gbk"), ("zh_tw.txt", "big5", "big5"),
    ("ko.txt", "euc-kr", "euc_kr"), ("ru.txt", "windows-1251", "cp1251"),
    ("ru.txt", "koi8-r", "koi8_r"), ("fr.txt", "windows-1252", "cp1252"),
    ("cs.txt", "iso-8859-2", "iso8859_2"), ("el.txt", "windows-1253", "cp1253"),
    ("ar.txt", "windows-1256", "cp1256"), ("th.txt", "windows-874", "cp874"),
]
ENCODE_ROWS = [
    ("en.html", "utf-8", "utf-8"), ("fr.txt", "utf-8", "utf-8"),
    ("ru.txt", "utf-8", "utf-8"), ("ja.txt", "utf-8", "utf-8"),
    ("ja.txt", "shift_jis", "shift_jis"), ("ja.txt", "euc-jp", "euc_jp"),
    ("zh_cn.txt", "gb18030", "gb18030"), ("zh_tw.txt", "big5", "big5"),
    ("ko.txt", "euc-kr", "euc_kr"), ("ru.txt", "windows-1251", "cp1251"),
    ("fr.txt", "windows-1252", "cp1252"),
]


def read_text(spec):
    name, _, variant = spec.partition(":")
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        text = f.read()
    if variant == "ascii":
        text = "".join(ch for ch in text if ch < "\x80")
    return text


def pieces(text, size=40):
    return [text[i:i + size] for i in range(0, min(len(text), 400_000), size)]


def best_rate(function, nbytes, rounds, budget):
    """MB/s of the best of `rounds` runs of about `budget` seconds."""
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            function()
        elapsed = time.perf_counter() - start
        if elapsed >= budget / 4:
            break
        calls *= 2
    calls = max(1, int(calls * budget / elapsed))
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - start) / calls)
    return nbytes / best / 1e6


def run_row(kind, spec, label, codec, small, rounds, budget):
    text = read_text(spec)
    if kind == "decode":
        if small:
            inputs = [wenc.encode(p, label) if label != "utf-16le" else p.encode("utf-16-le")
                      for p in pieces(text)]
        else:
            inputs = [wenc.encode(text, label) if label != "utf-16le"
                      else text.encode("utf-16-le")]
        decode = wenc.decode
        ours = lambda: [decode(b, label) for b in inputs]  # noqa: E731
        theirs = lambda: [b.decode(codec, "replace") for b in inputs]  # noqa: E731
        nbytes = sum(len(b) for b in inputs)
    else:
        inputs = pieces(text) if small else [text]
        encode = wenc.encode
        ours = lambda: [encode(t, label) for t in inputs]  # noqa: E731
        theirs = lambda: [t.encode(codec, "xmlcharrefreplace") for t in inputs]  # noqa: E731
        nbytes = sum(len(b) for b in ours())
    same = ours() == theirs()
    rates = [0.0, 0.0]
    for _ in range(2):  # interleave: each side twice, half the rounds each
        rates[0] = max(rates[0], best_rate(ours, nbytes, (rounds + 1) // 2, budget))
        rates[1] = max(rates[1], best_rate(theirs, nbytes, (rounds + 1) // 2, budget))
    size = f"small, {nbytes // len(inputs)} B avg" if small else f"{nbytes // 1024} KiB"
    return (f"| {kind} {label} | {spec.replace(':ascii', ' ASCII only')} | {size} | "
            f"{rates[0]:.0f} | {rates[1]:.0f} | {rates[0] / rates[1]:.2f} | "
            f"{'yes' if same else 'no'} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds of 30 ms")
    parser.add_argument("--rows", help="only rows whose text holds this")
    args = parser.parse_args()
    if not CORPUS:
        print("SKIPPED: no corpus at ../shared/corpus/wikipedia", file=sys.stderr)
        return 77
    rounds, budget = (3, 0.03) if args.quick else (6, 0.1)
    print(f"Python {sys.version.split()[0]}, libwenc {wenc.LIBRARY_VERSION}; "
          f"best of {rounds} rounds of {budget * 1000:.0f} ms; MB/s of the bytes side\n")
    print("| operation | input | size | wenc MB/s | CPython MB/s | wenc/CPython | same output |")
    print("|---|---|---|---:|---:|---:|---|")
    for kind, rows in (("decode", DECODE_ROWS), ("encode", ENCODE_ROWS)):
        for spec, label, codec in rows:
            for small in (False, True):
                name = f"{kind} {label} {spec}"
                if args.rows and args.rows not in name:
                    continue
                print(run_row(kind, spec, label, codec, small, rounds, budget), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
