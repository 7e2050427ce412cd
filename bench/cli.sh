#!/usr/bin/env bash
# bench/cli.sh — decode throughput of the wenc CLI against glibc iconv(1), and
# of the CLI against the library itself (bench/decode_speed.c).
#
# Usage: bench/cli.sh            (from anywhere; builds with make if needed)
#   WENC_BENCH_MB=160   size of each input in MB (default 160)
#   WENC_BENCH_RUNS=3   timed runs per tool; the best one counts
#   WENC_CORPUS=DIR     corpus (default ../shared/corpus/wikipedia)
#
# For each encoding family it builds one large input in $TMPDIR by encoding a
# corpus file with `wenc encode -t LABEL` and repeating it, then times, in the
# same run, `wenc decode -f LABEL FILE >/dev/null` and
# `iconv -c -f NAME -t UTF-8 FILE >/dev/null`. iconv's tables are not the
# Standard's, so -c drops what it rejects: this is a speed comparison, never a
# correctness check. Inputs are deleted at exit. Not part of the test suite.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
corpus=${WENC_CORPUS:-$root/../shared/corpus/wikipedia}
target_mb=${WENC_BENCH_MB:-160}
runs=${WENC_BENCH_RUNS:-3}

[ -d "$corpus" ] || { echo "corpus not found: $corpus" >&2; exit 1; }
command -v iconv >/dev/null || { echo "iconv(1) not found" >&2; exit 1; }
if [ ! -x build/wenc ] || [ ! -f build/libwenc.a ]; then make >/dev/null; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/wenc-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

cc -O2 -std=c11 -Iinclude bench/decode_speed.c build/libwenc.a \
    -o "$work/decode_speed"

# family  wenc-label  iconv-name  corpus-file
families=(
    "Shift_JIS     shift_jis     SHIFT_JIS    ja.txt"
    "EUC-JP        euc-jp        EUC-JP       ja.txt"
    "gb18030       gb18030       GB18030      zh_cn.txt"
    "Big5          big5          BIG5         zh_tw.txt"
    "EUC-KR        euc-kr        EUC-KR       ko.txt"
    "windows-1252  windows-1252  CP1252       fr.txt"
    "windows-1251  windows-1251  CP1251       ru.txt"
    "KOI8-R        koi8-r        KOI8-R       ru.txt"
    "UTF-8         utf-8         UTF-8        en.html"
)

# Seconds (float) of the best of $runs runs of "$@" with stdout to /dev/null.
best_time() {
    local best="" t0 t1 t i
    for ((i = 0; i < runs; i++)); do
        # $EPOCHREALTIME (bash 5) forks nothing, so only "$@" is timed.
        t0=$EPOCHREALTIME
        "$@" >/dev/null 2>&1 || true
        t1=$EPOCHREALTIME
        t=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
            best=$t
        fi
    done
    echo "$best"
}

command -v bc >/dev/null || { echo "bc not found (apt-get install bc)" >&2; exit 1; }

# Build the input for one family: the corpus file encoded, repeated to size.
make_input() {
    local label=$1 src=$2 out=$3 unit="$work/unit" chunk="$work/chunk"
    if [ "$label" = utf-8 ]; then
        cp "$corpus/$src" "$unit"
    else
        build/wenc encode -t "$label" "$corpus/$src" >"$unit"
    fi
    # Repeat the unit into a chunk of about 1 MB.
    cp "$unit" "$chunk"
    while [ "$(stat -c %s "$chunk")" -lt 1000000 ]; do
        cat "$unit" >>"$chunk"
    done
    # One cat of the chunk named n times: the target size, one process.
    local n=$(( target_mb * 1000000 / $(stat -c %s "$chunk") ))
    [ "$n" -ge 1 ] || n=1
    local args=() i
    for ((i = 0; i < n; i++)); do args+=("$chunk"); done
    cat "${args[@]}" >"$out"
    rm -f "$unit" "$chunk"
}

echo "wenc CLI vs glibc iconv(1) and the library, decode to UTF-8"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "best of $runs runs; MB = 10^6 input bytes; iconv run with -c (drops what"
echo "its tables reject: a speed comparison, not a correctness check)"
echo

printf '%-13s %5s %9s %9s %9s %8s %9s %8s %9s %9s %9s %7s\n' \
    encoding "size" "cli MB/s" "conv MB/s" "iconv(1)" "cnv/icv" "lib MB/s" "cnv/lib" \
    "lib 64K" "iconv(3)" "memcpy" "lib/mcp"
for row in "${families[@]}"; do
    read -r fam label iname src <<<"$row"
    in="$work/input.$label"
    make_input "$label" "$src" "$in"
    size=$(stat -c %s "$in")
    cat "$in" >/dev/null # into the page cache before timing

    t_wenc=$(best_time build/wenc decode -f "$label" "$in")
    t_conv=$(best_time build/wenc -f "$label" -t utf-8 "$in")
    t_iconv=$(best_time iconv -c -f "$iname" -t UTF-8 "$in")
    lib=$("$work/decode_speed" "$label" "$in" 5 "$iname")
    lib_mbs=$(awk '$1 == "wenc" { print $2 }' <<<"$lib")
    mcp_mbs=$(awk '$1 == "memcpy" { print $2 }' <<<"$lib")
    chk_mbs=$(awk '$1 == "chunked" { print $2 }' <<<"$lib")
    ic3_mbs=$(awk '$1 == "iconv" { print $2 }' <<<"$lib")
    [ -n "$ic3_mbs" ] && [ "$ic3_mbs" != n/a ] || ic3_mbs=0

    awk -v fam="$fam" -v size="$size" -v tw="$t_wenc" -v tc="$t_conv" -v ti="$t_iconv" \
        -v lib="$lib_mbs" -v mcp="$mcp_mbs" -v ic3="$ic3_mbs" -v chk="$chk_mbs" 'BEGIN {
        w = size / tw / 1e6; c = size / tc / 1e6; i = size / ti / 1e6
        printf "%-13s %4.0fM %9.1f %9.1f %9.1f %8.2f %9.1f %7.0f%% %9.1f %9.1f %9.0f %6.1f%%\n",
            fam, size / 1e6, w, c, i, c / i, lib, 100 * c / lib, chk, ic3, mcp,
            100 * lib / mcp
    }'
    rm -f "$in"
done
echo
echo "cli MB/s   wenc decode -f LABEL FILE >/dev/null (wall time, process start included)"
echo "conv MB/s  wenc -f LABEL -t utf-8 FILE >/dev/null, the iconv-style command"
echo "iconv(1)   iconv -c -f NAME -t UTF-8 FILE >/dev/null"
echo "cnv/icv    ratio wenc -f LABEL -t utf-8 / iconv(1); above 1 means wenc is faster"
echo "lib MB/s   wenc_decode_to_utf8 in one call into a preallocated buffer (in memory)"
echo "cnv/lib    the conv column as a share of the library's throughput (target: at least 90%)"
echo "lib 64K    the same in 64 KiB calls into one small reused buffer, as the CLI does"
echo "iconv(3)   glibc iconv(3) in the same process, same bytes, invalid bytes skipped"
echo "memcpy     memcpy of the input buffer; lib/mcp is the library as a share of it"
