#!/usr/bin/env bash
# bench/memory.sh — peak resident memory of the wenc CLI on a 1 GiB input.
#
# Usage: bench/memory.sh         (from anywhere; builds with make if needed)
#   WENC_CORPUS=DIR     corpus (default ../shared/corpus/wikipedia)
#
# Generates a 1 GiB windows-1252 file in $TMPDIR (French Wikipedia text
# encoded with `wenc encode -t windows-1252`, repeated), runs the CLI over it
# under /usr/bin/time -v and prints the "Maximum resident set size" of each
# run. Target: under 8 MiB whatever the input size. The input is deleted at
# exit. Skips (loudly, exit 0) when $TMPDIR has under 3 GiB free. Not part of
# the test suite.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
corpus=${WENC_CORPUS:-$root/../shared/corpus/wikipedia}
tmp=${TMPDIR:-/tmp}
size=$((1024 * 1024 * 1024))
limit_kib=$((8 * 1024))

[ -d "$corpus" ] || { echo "corpus not found: $corpus" >&2; exit 1; }
if [ ! -x /usr/bin/time ]; then
    echo "/usr/bin/time is missing: apt-get install -y time" >&2
    exit 1
fi
[ -x build/wenc ] || make >/dev/null

free_kib=$(df -Pk "$tmp" | awk 'NR == 2 { print $4 }')
if [ "$free_kib" -lt $((3 * 1024 * 1024)) ]; then
    echo "SKIPPED: only $((free_kib / 1024)) MiB free in $tmp; need 3 GiB" >&2
    echo "SKIPPED: memory benchmark not run"
    exit 0
fi

work=$(mktemp -d "$tmp/wenc-mem.XXXXXX")
trap 'rm -rf "$work"' EXIT
in="$work/input.windows-1252"

# A ~1 MB chunk of windows-1252 text, then 1 GiB of it cut to exact size.
build/wenc encode -t windows-1252 "$corpus/fr.txt" >"$work/unit"
: >"$work/chunk"
while [ "$(stat -c %s "$work/chunk")" -lt 1000000 ]; do
    cat "$work/unit" >>"$work/chunk"
done
n=$((size / $(stat -c %s "$work/chunk") + 1))
args=()
for ((i = 0; i < n; i++)); do args+=("$work/chunk"); done
cat "${args[@]}" | head -c "$size" >"$in" || true
rm -f "$work/unit" "$work/chunk"
[ "$(stat -c %s "$in")" -eq "$size" ] || { echo "short input" >&2; exit 1; }

echo "wenc CLI peak RSS over a 1 GiB windows-1252 input (/usr/bin/time -v)"
echo "target: under $limit_kib KiB (8 MiB); IN is the 1 GiB file"
echo
printf '%-52s %10s %8s %9s %s\n' command "max RSS" seconds "MB/s" verdict

# measure STDIN ARGS...: runs ARGS (no shell in between, so that the RSS is
# the tool's own) with standard input from STDIN and output to /dev/null.
measure() {
    local stdin=$1 log="$work/time.log" rss wall secs shown
    shift
    /usr/bin/time -v -o "$log" "$@" <"$stdin" >/dev/null 2>&1 || true
    rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$log")
    wall=$(awk '/Elapsed \(wall clock\) time/ { print $NF }' "$log")
    # wall is [h:]m:ss.xx
    secs=$(awk -v w="$wall" 'BEGIN {
        n = split(w, p, ":"); s = 0
        for (i = 1; i <= n; i++) s = s * 60 + p[i]
        print s }')
    shown="$*"
    shown=${shown//$in/IN}
    [ "$stdin" = /dev/null ] || shown="$shown < ${stdin//$in/IN}"
    awk -v c="$shown" -v r="$rss" -v s="$secs" -v sz="$size" -v lim="$limit_kib" 'BEGIN {
        printf "%-52s %6d KiB %8.2f %9.0f %s\n", c, r, s,
            (s > 0 ? sz / s / 1e6 : 0), (r < lim ? "ok" : "OVER TARGET")
    }'
}

cat "$in" >/dev/null # into the page cache
measure /dev/null build/wenc decode -f windows-1252 "$in"
measure "$in" build/wenc decode -f windows-1252
measure /dev/null build/wenc convert -f windows-1252 -t utf-8 "$in"
measure /dev/null build/wenc convert -f windows-1252 -t gb18030 "$in"
measure /dev/null build/wenc decode -f windows-1252 /dev/null
measure /dev/null /bin/true
echo
echo "wenc on /dev/null (empty input) is the tool's own footprint (binary, libc,"
echo "buffers) with nothing to convert; /bin/true is the floor of any process."
echo "MB/s here is wall time to /dev/null, process start included."
