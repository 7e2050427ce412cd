#!/usr/bin/env python3
"""wenc's Python binding against CPython's own codecs, on the same inputs.

    make python
    /usr/bin/python3 bench/python/bench.py            # everything: about 6-7 minutes
    /usr/bin/python3 bench/python/bench.py --quick    # 6 texts, 5 sizes: about 40 s
    options: --sizes 16,64,1K,64K,1M,16M,64M  --families utf-8,single-byte,shift_jis,...
             --rows TEXT (repeatable)  --paths api,codec,codec-replace
             --rounds N  --round-ms MS  --json FILE  --system-malloc  --wall-clock

What it answers, row by row: is wenc at least as fast as CPython's codec of
the same encoding (UTF-8 and UTF-16LE rows: ratio >= 1), at least twice as
fast for the legacy encodings from 1 KiB up (ratio >= 2) and faster for them
in small calls of 16 and 64 bytes (ratio > 1), and does no row fall with size
(from 1 MiB to 16 and 64 MiB). A row that misses its target is marked MISS,
one whose ratio or wenc MB/s is more than 25% below its 1 MiB row FALLS.

Rows. Each encoding is timed on Wikipedia text of a language it can write
(../shared/corpus/wikipedia, read in place): UTF-8 and UTF-16LE (decode
only: the Standard has no UTF-16 encoder) on a few languages, seven
single-byte encodings, Shift_JIS, EUC-JP, ISO-2022-JP, gb18030, GBK, Big5 and
EUC-KR (ENTRIES below, each with the CPython codec it is timed against). A
character is dropped from the text unless wenc encodes it and decodes it back
to itself, and CPython's codec both encodes it and decodes wenc's bytes for
it without error, so that every path below, strict ones included, runs
without an exception on the same input. wenc's encoder makes the bytes.

Sizes count the bytes side (decode's input, encode's output). 16 B, 64 B and
1 KiB rows are many pieces of at most that many bytes (up to 2048, 2048 and
64 pieces, in text order, never repeated), cut at character boundaries of the
text and each encoded on its own, converted one call per piece; 64 KiB and
more is one input, the text repeated and cut at a character boundary.

Paths (what each side calls; x is one input, label wenc's label, codec
CPython's codec name, whatwg "whatwg:" + label after wenc.register()):

    decode api            wenc.decode(x, label)        x.decode(codec, "replace")
    decode codec          x.decode(whatwg)             x.decode(codec)
    decode codec-replace  x.decode(whatwg, "replace")  x.decode(codec, "replace")
    encode api            wenc.encode(x, label)        x.encode(codec, "xmlcharrefreplace")
    encode codec          x.encode(whatwg)             x.encode(codec)

codec-replace runs at 64 B only (once per text), unless --paths names it.

Timing. In each round wenc and CPython take turns (which goes first
alternates), each running its loop over the row's inputs as many times as
fill about --round-ms, after a first loop to warm up and calibrate; a side's
figure is its best round. Rows up to 1 MiB: --rounds rounds (5 of 50 ms;
--quick 3 of 20 ms); 16 MiB: at most 5 and 64 MiB at most 3, of one call
each. The clock is the process's CPU time (user + system: page faults count,
other processes on a shared machine do not); --wall-clock uses the wall
clock. MB/s is 10^6 bytes of the bytes side per second; ratio is wenc /
CPython. At 1 KiB the outputs of both sides are compared and a row whose
outputs differ is marked "differs" (CPython's tables differ from the
Standard's in places: euc_jp, big5, gb18030, ...); it still times the same
work. From 1 MiB up, a row where wenc took 16 or more minor page faults a
call says how many (both sides' counts are in --json).

Memory. On virtual machines a page fault can cost tens of microseconds, and
glibc's malloc maps a block above its mmap threshold (128 KiB, rising to at
most 32 MiB as such blocks are freed) anew for each call and gives it back
at free(), so that the large rows would time page faults (about 20 us a
page here) rather than codecs. So the script runs itself again with glibc told to keep freed
memory (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_,
each unless already set), as bench/node does for its large rows;
--system-malloc leaves malloc as it is. Inputs are freed between sizes.

The table goes to standard output, notes (characters dropped) to standard
error; --json FILE writes the rows too.
"""
import argparse
import collections
import gc
import json
import math
import os
import platform
import sys
import time

try:
    import resource
except ImportError:  # not on Unix: no page fault counts
    resource = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))


def import_wenc():
    """wenc, waiting a little if the extension is being rebuilt meanwhile."""
    for attempt in range(10):
        try:
            import wenc
            return wenc
        except (ImportError, OSError):
            if attempt == 9:
                raise
            time.sleep(1)


wenc = import_wenc()

CORPUS = next((d for d in (os.path.join(ROOT, "..", "shared", "corpus", "wikipedia"),
                           "/work/shared/corpus/wikipedia") if os.path.isdir(d)), None)

# (wenc label, CPython codec, corpus file); the family of a single-byte
# encoding is "single-byte", of the others the label.
ENTRIES = [
    ("utf-8", "utf-8", "en.html"), ("utf-8", "utf-8", "fr.txt"),
    ("utf-8", "utf-8", "ru.txt"), ("utf-8", "utf-8", "ja.txt"),
    ("utf-16le", "utf-16-le", "en.txt"), ("utf-16le", "utf-16-le", "ja.txt"),
    ("windows-1252", "cp1252", "fr.txt"), ("iso-8859-2", "iso8859_2", "cs.txt"),
    ("windows-1251", "cp1251", "ru.txt"), ("koi8-r", "koi8_r", "ru.txt"),
    ("windows-1253", "cp1253", "el.txt"), ("windows-1256", "cp1256", "ar.txt"),
    ("windows-874", "cp874", "th.txt"),
    ("shift_jis", "shift_jis", "ja.txt"), ("euc-jp", "euc_jp", "ja.txt"),
    ("iso-2022-jp", "iso2022_jp", "ja.txt"), ("gb18030", "gb18030", "zh_cn.txt"),
    ("gbk", "gbk", "zh_cn.txt"), ("big5", "big5", "zh_tw.txt"),
    ("euc-kr", "euc_kr", "ko.txt"),
]
QUICK_ENTRIES = [("utf-8", "en.html"), ("utf-8", "ja.txt"), ("utf-16le", "ja.txt"),
                 ("windows-1252", "fr.txt"), ("shift_jis", "ja.txt"),
                 ("gb18030", "zh_cn.txt")]
UTF = ("utf-8", "utf-16le")
MULTI_BYTE = ("shift_jis", "euc-jp", "iso-2022-jp", "gb18030", "gbk", "big5", "euc-kr")
NO_ENCODER = ("utf-16le",)

KIB, MIB = 1 << 10, 1 << 20
SIZES = [16, 64, KIB, 64 * KIB, MIB, 16 * MIB, 64 * MIB]
QUICK_SIZES = [16, 64, KIB, MIB, 64 * MIB]
# Pieces per row (in text order, never repeated) for the sizes converted in
# pieces; larger sizes are one input.
MAX_PIECES = {16: 2048, 64: 2048, KIB: 64}
# At most this many rounds for large sizes: one call a round is long enough.
BIG_ROUNDS = {16 * MIB: 5, 64 * MIB: 3}
REPLACE_SIZES = (64,)  # codec-replace's sizes unless --paths names it
FALL_FROM, FALL_LIMIT = MIB, 0.75

# What each path times: (direction, path) -> (wenc's call, CPython's call).
CALLS = {
    ("decode", "api"): ("decode(x, label)", "x.decode(codec, 'replace')"),
    ("decode", "codec"): ("x.decode(whatwg)", "x.decode(codec)"),
    ("decode", "codec-replace"): ("x.decode(whatwg, 'replace')", "x.decode(codec, 'replace')"),
    ("encode", "api"): ("encode(x, label)", "x.encode(codec, 'xmlcharrefreplace')"),
    ("encode", "codec"): ("x.encode(whatwg)", "x.encode(codec)"),
}
PATHS = ("api", "codec", "codec-replace")

MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(256 * MIB),
              "MALLOC_TRIM_THRESHOLD_": str(1024 * MIB),
              "MALLOC_TOP_PAD_": str(64 * MIB)}


def family(label):
    return label if label in UTF or label in MULTI_BYTE else "single-byte"


def size_name(size):
    for unit, name in ((MIB, "MiB"), (KIB, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} B"


def parse_size(text):
    text = text.strip().upper().replace("IB", "").rstrip("B").strip()
    scale = {"K": KIB, "M": MIB}.get(text[-1:], 1)
    return int(text.rstrip("KM")) * scale


def compile_calls(expression, label, codec):
    """(run(inputs), one(x)) for one side of a path: run makes the call on
    every input, in a plain loop with the names as locals; one returns one
    call's result (for the output check)."""
    names = "decode=decode, encode=encode, label=label, codec=codec, whatwg=whatwg"
    source = (f"def run(inputs, {names}):\n"
              f"    for x in inputs:\n"
              f"        {expression}\n"
              f"def one(x, {names}):\n"
              f"    return {expression}\n")
    namespace = {"decode": wenc.decode, "encode": wenc.encode, "label": label,
                 "codec": codec, "whatwg": wenc.CODEC_PREFIX + label}
    exec(source, namespace)  # noqa: S102 - the expressions are CALLS above
    return namespace["run"], namespace["one"]


class Text:
    """The corpus text of one entry, without the characters some path cannot
    take (see the docstring), and its bytes encoder."""

    def __init__(self, label, codec, name):
        self.label, self.codec, self.name = label, codec, name
        if label in NO_ENCODER:
            self.encode = lambda s: s.encode(codec)
        else:
            self.encode = lambda s: wenc.encode(s, label, errors="fatal")
        with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
            raw = f.read()
        verdict = {ch: self.keeps(ch) for ch in set(raw)}
        self.text = "".join(ch for ch in raw if verdict[ch])
        self.dropped = len(raw) - len(self.text)
        self.raw_length = len(raw)

    def keeps(self, ch):
        if ch == "\ufeff":  # a BOM at the start of a piece would be sniffed
            return False
        try:
            data = self.encode(ch)
            ch.encode(self.codec)
            data.decode(self.codec)
            return wenc.decode(data, self.label, errors="fatal") == ch
        except (UnicodeError, ValueError):
            return False

    def longest_prefix(self, text, start, most_bytes):
        """The largest end such that text[start:end] encodes to at most
        most_bytes bytes (the encoded length grows with end)."""
        low, high = start, min(len(text), start + most_bytes)
        while low < high:
            middle = (low + high + 1) // 2
            if len(self.encode(text[start:middle])) <= most_bytes:
                low = middle
            else:
                high = middle - 1
        return low

    def pieces(self, size, most):
        """Up to `most` (text piece, bytes) pairs of at most size bytes each,
        in text order."""
        source, result, start = self.text, [], 0
        if len(self.encode(source)) < 2 * size:
            source *= 2 * size // max(1, len(self.encode(source))) + 2
        while len(result) < most:
            end = self.longest_prefix(source, start, size)
            if end == start or end == len(source):
                break
            piece = source[start:end]
            result.append((piece, self.encode(piece)))
            start = end
        return result

    def repeated(self, size):
        """(text, bytes): the text repeated and cut to at most size bytes."""
        copies, rest = divmod(size, len(self.encode(self.text)))
        text = self.text * copies + self.text[:self.longest_prefix(self.text, 0, rest)]
        return text, self.encode(text)


def minor_faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource else 0


def timed_rounds(run_wenc, run_cpython, inputs, rounds, budget, clock):
    """([seconds per loop over inputs, best round], [minor page faults a
    loop]) of each side, the two sides taking turns within each round;
    clock() gives the seconds."""
    sides = []
    for run in (run_wenc, run_cpython):  # warm up, then calls a round
        calls = 1
        while True:
            start = clock()
            for _ in range(calls):
                run(inputs)
            elapsed = clock() - start
            if elapsed >= budget / 4:
                break
            calls *= 4
        sides.append((run, max(1, round(calls * budget / elapsed)) if budget else 1))
    best, faults = [math.inf, math.inf], [0, 0]
    for r in range(rounds):
        for side in ((0, 1) if r % 2 == 0 else (1, 0)):
            run, calls = sides[side]
            faulted = minor_faults()
            start = clock()
            for _ in range(calls):
                run(inputs)
            best[side] = min(best[side], (clock() - start) / calls)
            faults[side] += (minor_faults() - faulted) / calls / rounds
    return best, faults


def target(label, size):
    """(least ratio, whether the ratio must be above it rather than at least it)."""
    if label in UTF:
        return 1.0, False
    return (1.0, True) if size < KIB else (2.0, False)


class Table:
    HEADER = (f"{'encoding':<13} {'text':<9} {'dir':<6} {'path':<13} {'size':>6} "
              f"{'wenc MB/s':>9} {'CPython MB/s':>12} {'ratio':>6}  mark")

    def __init__(self):
        self.rows = []
        self.at_1mib = {}

    def add(self, row):
        key = (row["encoding"], row["text"], row["direction"], row["path"])
        marks = []
        if "error" in row:
            marks.append("ERROR " + row["error"])
        else:
            least, above = row["target"]
            ratio = round(row["ratio"], 2)
            if ratio < least or (above and ratio <= least):
                marks.append(f"MISS({'>' if above else '>='}{least:g}x)")
            base = self.at_1mib.get(key)
            if row["size"] == FALL_FROM:
                self.at_1mib[key] = row
            elif row["size"] > FALL_FROM and base and "error" not in base:
                ratio_kept = row["ratio"] / base["ratio"]
                speed_kept = row["wenc_mbs"] / base["wenc_mbs"]
                row["falls"] = min(ratio_kept, speed_kept) < FALL_LIMIT
                if row["falls"]:
                    marks.append(f"FALLS(ratio {ratio_kept - 1:+.0%}, "
                                 f"MB/s {speed_kept - 1:+.0%} from 1 MiB)")
            if row["size"] >= FALL_FROM and row["wenc_faults"] >= 16:
                marks.append(f"[{row['wenc_faults']} page faults a call, "
                             f"CPython {row['cpython_faults']}]")
            if row.get("same") is False:
                marks.append("differs")
        row["mark"] = " ".join(marks)
        self.rows.append(row)
        if "error" in row:
            numbers = f"{'-':>9} {'-':>12} {'-':>6}"
        else:
            numbers = f"{row['wenc_mbs']:>9.0f} {row['cpython_mbs']:>12.0f} {row['ratio']:>6.2f}"
        print(f"{row['encoding']:<13} {row['text']:<9} {row['direction']:<6} "
              f"{row['path']:<13} {size_name(row['size']):>6} {numbers}  {row['mark']}",
              flush=True)

    def summary(self):
        """Counts of the marked rows, by path and size (the rows are marked in
        the table above)."""
        timed = [r for r in self.rows if "error" not in r]
        lines = [f"\n{len(timed)} rows timed"]
        for word, test in (("MISS", lambda r: "MISS" in r["mark"]),
                           ("FALLS", lambda r: r.get("falls")),
                           ("differs", lambda r: r.get("same") is False),
                           ("ERROR", lambda r: "error" in r)):
            hits = [r for r in self.rows if test(r)]
            line = f"{word}: {len(hits)}"
            if hits:
                paths = [" ".join(job) for job in CALLS]
                counts = collections.Counter(f"{r['direction']} {r['path']}" for r in hits)
                line += "; by path: " + ", ".join(
                    f"{path} {counts[path]}" for path in paths if counts[path])
                counts = collections.Counter(r["size"] for r in hits)
                line += "; by size: " + ", ".join(
                    f"{size_name(size)} {n}" for size, n in sorted(counts.items()))
            lines.append(line)
        return "\n".join(lines)


def run_size(table, text, size, jobs, rounds, budget, clock):
    """Times the jobs ((direction, path) pairs) of one text at one size."""
    if size in MAX_PIECES:
        pairs = text.pieces(size, MAX_PIECES[size])
        strings = [p[0] for p in pairs]
        data = [p[1] for p in pairs]
        del pairs
    else:
        big_text, big_bytes = text.repeated(size)
        strings, data = [big_text], [big_bytes]
        del big_text, big_bytes
        if size in BIG_ROUNDS:  # one call a round
            rounds, budget = min(rounds, BIG_ROUNDS[size]), 0
    nbytes = sum(map(len, data))
    for direction, path in jobs:
        row = {"encoding": text.label, "codec": text.codec, "text": text.name,
               "direction": direction, "path": path, "size": size,
               "calls": len(data), "bytes": nbytes, "target": target(text.label, size)}
        inputs = data if direction == "decode" else strings
        (run_w, one_w), (run_c, one_c) = (compile_calls(expression, text.label, text.codec)
                                          for expression in CALLS[direction, path])
        gc.collect()
        gc.disable()
        try:
            if size == KIB:
                row["same"] = [one_w(x) for x in inputs] == [one_c(x) for x in inputs]
            seconds, faults = timed_rounds(run_w, run_c, inputs, rounds, budget, clock)
            row["wenc_faults"], row["cpython_faults"] = (round(f) for f in faults)
            row["wenc_mbs"], row["cpython_mbs"] = (nbytes / s / 1e6 for s in seconds)
            row["ratio"] = seconds[1] / seconds[0]
        except Exception as error:  # noqa: BLE001 - reported in the row
            row["error"] = f"{type(error).__name__}: {error}"[:120]
        finally:
            gc.enable()
        table.add(row)
    del strings, data
    gc.collect()


def tune_malloc(args):
    """Runs this script again with glibc's malloc keeping freed memory
    (see the docstring), unless told not to or already done."""
    missing = {k: v for k, v in MALLOC_ENV.items() if k not in os.environ}
    if args.system_malloc or not missing or platform.system() != "Linux":
        return
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:],
              dict(os.environ, **missing))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Paths:\n" + "\n".join(f"  {d} {p}: {w}  vs  {c}"
                                      for (d, p), (w, c) in CALLS.items()))
    parser.add_argument("--quick", action="store_true",
                        help="6 texts, sizes 16,64,1K,1M,64M, 3 rounds of 20 ms")
    parser.add_argument("--sizes", help="comma-separated sizes of the bytes side: "
                        "16,64,1K,64K,1M,16M,64M (the default)")
    parser.add_argument("--families", help="comma-separated families or labels: "
                        "utf-8, utf-16le, single-byte, windows-1251, shift_jis, ...")
    parser.add_argument("--rows", action="append", default=[], metavar="TEXT",
                        help="only rows whose name ('shift_jis ja.txt decode codec') "
                        "holds TEXT; repeatable, all must match")
    parser.add_argument("--paths", help="comma-separated: api, codec, codec-replace "
                        "(default all; codec-replace at 64 B only unless named)")
    parser.add_argument("--rounds", type=int, help="rounds up to 1 MiB (default 5; quick 3)")
    parser.add_argument("--round-ms", type=float, help="ms a side a round (default 50; quick 20)")
    parser.add_argument("--wall-clock", action="store_true",
                        help="time with the wall clock, not the process's CPU time")
    parser.add_argument("--json", metavar="FILE", help="also write the rows to FILE")
    parser.add_argument("--system-malloc", action="store_true",
                        help="do not rerun with glibc's malloc keeping freed memory")
    args = parser.parse_args()
    if not CORPUS:
        print("SKIPPED: no corpus at ../shared/corpus/wikipedia", file=sys.stderr)
        return 77
    tune_malloc(args)

    try:
        sizes = ([parse_size(s) for s in args.sizes.split(",")] if args.sizes
                 else QUICK_SIZES if args.quick else SIZES)
    except ValueError:
        parser.error(f"--sizes {args.sizes}: give sizes like 16,64,1K,64K,1M,16M,64M")
    paths = args.paths.split(",") if args.paths else list(PATHS)
    unknown = set(paths) - set(PATHS)
    if unknown:
        parser.error(f"unknown paths {sorted(unknown)}; choose from {', '.join(PATHS)}")
    replace_sizes = sizes if args.paths and "codec-replace" in paths else REPLACE_SIZES
    rounds = args.rounds or (3 if args.quick else 5)
    budget = (args.round_ms or (20 if args.quick else 50)) / 1000
    entries = ENTRIES
    if args.quick and not args.families:
        entries = [e for e in ENTRIES if (e[0], e[2]) in QUICK_ENTRIES]
    if args.families:
        wanted = {f.strip().lower() for f in args.families.split(",")}
        entries = [e for e in ENTRIES if family(e[0]) in wanted or e[0] in wanted]
        if not entries:
            single = [e[0] for e in ENTRIES if family(e[0]) == "single-byte"]
            parser.error(f"--families {args.families}: choose from "
                         f"{', '.join(UTF + ('single-byte',) + MULTI_BYTE)} or a "
                         f"single-byte label ({', '.join(single)})")
    clock = time.perf_counter if args.wall_clock else time.process_time
    wenc.register()

    extension = wenc._wenc.__file__
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(extension)))
    print(f"Python {sys.version.split()[0]} ({platform.machine()}), libwenc "
          f"{wenc.LIBRARY_VERSION}, {os.path.relpath(extension, ROOT)} built {built}")
    print(f"best of {min(rounds, BIG_ROUNDS[16 * MIB])} rounds at 16 MiB, "
          f"{min(rounds, BIG_ROUNDS[64 * MIB])} at 64 MiB (one call each), "
          f"{rounds} of {budget * 1000:.0f} ms a side below, "
          f"{'wall-clock' if args.wall_clock else 'CPU'} time; malloc "
          f"{'as the system has it' if args.system_malloc else 'keeping freed memory'}; "
          f"MB/s of the bytes side; ratio = wenc / CPython")
    print("targets: UTF rows >= 1x; legacy >= 2x from 1 KiB, > 1x at 16 and 64 B; "
          f"FALLS = ratio or MB/s more than {1 - FALL_LIMIT:.0%} below the 1 MiB row\n")
    print(Table.HEADER)
    table = Table()
    started = time.perf_counter()
    for label, codec, name in entries:
        jobs_of = {}
        for size in sizes:
            jobs_of[size] = [
                (direction, path) for (direction, path) in CALLS
                if path in paths and (path != "codec-replace" or size in replace_sizes)
                and not (direction == "encode" and label in NO_ENCODER)
                and all(t in f"{label} {name} {direction} {path}" for t in args.rows)]
        if not any(jobs_of.values()):
            continue
        text = Text(label, codec, name)
        if text.dropped:
            print(f"note: {label} {name}: {text.dropped} of {text.raw_length} characters "
                  f"dropped (not round-tripped by both)", file=sys.stderr)
        for size in sizes:
            if jobs_of[size]:
                run_size(table, text, size, jobs_of[size], rounds, budget, clock)
        del text
    print(table.summary())
    peak = f", peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10} MiB" \
        if resource else ""
    print(f"{time.perf_counter() - started:.0f} s{peak}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "libwenc": wenc.LIBRARY_VERSION,
                       "rounds": rounds, "round_ms": budget * 1000,
                       "clock": "wall" if args.wall_clock else "process CPU time",
                       "malloc": "system" if args.system_malloc else MALLOC_ENV,
                       "rows": table.rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
