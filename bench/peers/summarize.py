#!/usr/bin/env python3
"""bench/peers/summarize.py — the summary tables of docs/PERFORMANCE.md from
the Markdown table `make bench` (bench/peers/peers) prints.

    python3 bench/peers/summarize.py BENCH_OUTPUT.md

Prints two Markdown tables: one row per job (the rows of the UTF jobs, the
small calls, and the legacy decoders and encoders by kind), with wenc's median
speed, the median over the job's rows of wenc's speed over each peer's and over
the best peer's, and the worst row; then each legacy encoding's four rows as
"× best peer · wenc GB/s". A ratio is wenc's speed over the other's, in the
same row of the same run; memcpy is never a peer. When the run had simdutf (a
limit, not a peer), a third table gives wenc over simdutf per UTF job.
"""

import re
import statistics
import sys

MULTI_BYTE = {"Shift_JIS", "EUC-JP", "gb18030", "GBK", "Big5", "EUC-KR"}


def parse(path):
    header, rows = None, []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "row":
            header = cells
            continue
        if header is None:
            continue
        rows.append(dict(zip(header, cells)))
    if header is None:
        sys.exit(f"{path}: no table of peers' output")
    return header, rows


def job_of(name):
    """(job, encoding or None) for a row's name."""
    if "bytes of" in name:
        return "small calls, 10-512 bytes (ns per call)", None
    m = re.match(r"(decode -> UTF-(?:8|16)|encode UTF-(?:8|16) ->) ([^,]+), ", name)
    if not m:
        return None, None
    op, label = m.groups()
    if label == "UTF-8":
        return {"decode -> UTF-8": "UTF-8 validation (UTF-8 → UTF-8, errors to U+FFFD)",
                "decode -> UTF-16": "UTF-8 → UTF-16",
                "encode UTF-16 ->": "UTF-16 → UTF-8 (encode)"}.get(op), None
    if label == "UTF-16LE":
        return {"decode -> UTF-8": "UTF-16LE → UTF-8 (decode)",
                "decode -> UTF-16": "UTF-16LE → UTF-16 (decode)"}.get(op), None
    kind = ("Shift_JIS, EUC-JP, gb18030, GBK, Big5, EUC-KR" if label in MULTI_BYTE
            else "ISO-2022-JP" if label == "ISO-2022-JP"
            else "single-byte (12 encodings)")
    return f"{kind} {'decode' if op.startswith('decode') else 'encode'}", label


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def speed(row, column, small):
    """Calls per second for small rows (ns per call), MB/s otherwise."""
    v = number(row.get(column, ""))
    if not v:
        return None
    return 1e9 / v if small else v


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    header, rows = parse(sys.argv[1])
    impls = header[2:header.index("wenc / best peer")]
    peers = [c for c in impls if c not in ("wenc", "memcpy") and "(limit)" not in c]
    limit = next((c for c in impls if "(limit)" in c), None)
    jobs, legacy = {}, {}
    for row in rows:
        job, label = job_of(row["row"])
        if job is None:
            continue
        small = "bytes of" in row["row"]
        wenc = speed(row, "wenc", small)
        if wenc is None:
            continue
        entry = {"name": row["row"], "wenc": wenc, "small": small,
                 "vs": {p: wenc / s for p in peers if (s := speed(row, p, small))},
                 "limit": (wenc / s if limit and (s := speed(row, limit, small)) else None)}
        best = [s for p in peers if (s := speed(row, p, small))]
        entry["best"] = wenc / max(best) if best else None
        jobs.setdefault(job, []).append(entry)
        if label:
            legacy.setdefault((label, row["row"].split(", ")[-1]), {})[row["row"].split(" " + label)[0]] = entry

    def med(values):
        values = [v for v in values if v is not None]
        return f"{statistics.median(values):.2f}" if values else "–"

    print("| job | rows | wenc, GB/s (median) | " + " | ".join(f"× {p}" for p in peers) +
          " | × best peer (median) | worst row × best peer |")
    print("|---|---:|---:|" + "---:|" * len(peers) + "---:|---|")
    for job, entries in jobs.items():
        if entries[0]["small"]:
            ns = sorted(1e9 / e["wenc"] for e in entries)
            gbs = f"{ns[0]:.0f}–{ns[-1]:.0f} ns"
        else:
            gbs = f"{statistics.median(e['wenc'] for e in entries) / 1000:.1f}"
        worst = min((e for e in entries if e["best"] is not None), key=lambda e: e["best"])
        where = worst["name"].split(", ")[-1]
        mark = "**" if worst["best"] < 1 else ""
        print(f"| {job} | {len(entries)} | {gbs} | " +
              " | ".join(med(e["vs"].get(p) for e in entries) for p in peers) +
              f" | {med(e['best'] for e in entries)} | {mark}{worst['best']:.2f}{mark} {where} |")

    print()
    ops = ["decode -> UTF-8", "decode -> UTF-16", "encode UTF-8 ->", "encode UTF-16 ->"]
    print("| encoding | text | decode to UTF-8 | decode to UTF-16 | encode from UTF-8 | encode from UTF-16 |")
    print("|---|---|---:|---:|---:|---:|")
    for (label, text), by_op in legacy.items():
        cells = []
        for op in ops:
            e = by_op.get(op)
            if not e or e["best"] is None:
                cells.append("–")
                continue
            mark = "**" if e["best"] < 1 else ""
            cells.append(f"{mark}{e['best']:.2f}{mark} · {e['wenc'] / 1000:.2f}")
        print(f"| {label} | {text} | " + " | ".join(cells) + " |")

    if limit:
        print()
        print(f"| job | rows | × {limit}, median | worst row |")
        print("|---|---:|---:|---|")
        for job, entries in jobs.items():
            mine = [e for e in entries if e["limit"] is not None]
            if not mine:
                continue
            worst = min(mine, key=lambda e: e["limit"])
            mark = "**" if worst["limit"] < 0.9 else ""
            print(f"| {job} | {len(mine)} | {med(e['limit'] for e in mine)} | "
                  f"{mark}{worst['limit']:.2f}{mark} {worst['name'].split(', ')[-1]} |")


if __name__ == "__main__":
    main()
