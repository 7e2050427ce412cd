#!/bin/sh
# tools/insn-count/run.sh — instructions per byte of wenc and of encoding_rs
# (newest, simd-accel) on aarch64, counted under qemu-user: the x86 machine
# here cannot time the NEON code, so this counts what it executes.
#
#   tools/insn-count/run.sh [--runs K] [--max BYTES] [--rows TEXT]
#
# It builds, under build-insn/ in the tree:
#   - insn_count_plugin.so (host cc): a QEMU 7.2 TCG plugin counting the
#     guest's instructions;
#   - libwenc.a for aarch64 (cmake with cmake/toolchains/aarch64-linux-gnu.cmake,
#     Release, library only) and insn_driver linked with it;
#   - encoding_rs for aarch64 behind bench/peers/ers (build-ers-aarch64.sh;
#     without it, a loud banner and a table of wenc alone).
# Then, for each row (the jobs of bench/peers/peers.c on the corpus: UTF-8
# and UTF-16, single-byte and CJK decode and encode), it runs the driver
# once with 1 call and once with 1 + K calls (default K = 8) for each
# implementation; (count(1 + K) - count(1)) / K / bytes is the figure, so
# loading, start-up and making the input cancel. Inputs are the first
# BYTES (default 262144) of each corpus file. It prints a Markdown table:
# instructions per input byte for each, and their ratio (ers / wenc above 1:
# wenc executes fewer). Rows whose outputs differ are marked.
#
# A count of instructions is not a time: it weighs a NEON instruction and a
# scalar one alike and sees no cache, branch or dependency cost. Compare
# rows where both run the same kind of code.
#
# Exit status: 0; 1 a build or a run failed, or outputs differ; 77
# qemu-aarch64, the cross compiler or cmake is missing (nothing was run).
#
# Environment: WENC_CORPUS (default ../shared/corpus/wikipedia), QEMU_CPU
# (default neoverse-n1: ARMv8.2 with NEON, no SVE), INSN_BUILD_DIR (default
# build-insn), CC (the host's compiler, for the plugin), ENCODING_RS_HEAD
# (see build-ers-aarch64.sh).
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tools/insn-count
build=${INSN_BUILD_DIR:-$root/build-insn}
corpus=${WENC_CORPUS:-$root/../shared/corpus/wikipedia}
cpu=${QEMU_CPU:-neoverse-n1}
qemu=qemu-aarch64 cross=aarch64-linux-gnu-gcc sysroot=/usr/aarch64-linux-gnu
runs=8 max=262144 only=

loud() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! $1"
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
}

while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --max) max=$2; shift 2 ;;
        --rows) only=$2; shift 2 ;;
        *) runs=bad; break ;;
    esac
done
case $runs$max in
    *[!0-9]*|'') echo "usage: tools/insn-count/run.sh [--runs K] [--max BYTES] [--rows TEXT]" >&2; exit 2 ;;
esac
if [ "$runs" -eq 0 ] || [ "$max" -eq 0 ]; then
    echo "run.sh: --runs and --max must be above 0" >&2
    exit 2
fi

for tool in "$qemu:qemu-user" "$cross:gcc-aarch64-linux-gnu" "cmake:cmake"; do
    if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
        loud "SKIPPED: ${tool%%:*} not found (apt-get install ${tool#*:}); nothing was counted"
        exit 77
    fi
done
if [ ! -e "$sysroot/lib/ld-linux-aarch64.so.1" ]; then
    loud "SKIPPED: no aarch64 C library in $sysroot (apt-get install libc6-dev-arm64-cross); nothing was counted"
    exit 77
fi
[ -d "$corpus" ] || { loud "SKIPPED: the corpus is not at $corpus (set WENC_CORPUS)"; exit 77; }

mkdir -p "$build"
tmp=$(mktemp -d /tmp/insn-count.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
warn="-std=c11 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror"

echo "== building the plugin, libwenc.a for aarch64 and the driver" >&2
plugin=$build/insn_count_plugin.so driver=$build/insn_driver
# shellcheck disable=SC2086 # $warn is a list of flags
"${CC:-cc}" $warn -shared -fPIC -fvisibility=hidden "$here/insn_count_plugin.c" -o "$plugin" ||
    { loud "building the plugin failed"; exit 1; }
lib=$build/wenc-aarch64
if ! { cmake -S "$root" -B "$lib" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
           -DCMAKE_BUILD_TYPE=Release -DWENC_BUILD_TESTS=OFF -DWENC_BUILD_CLI=OFF \
           -DWENC_INSTALL=OFF >"$build/wenc-aarch64.log" 2>&1 &&
       cmake --build "$lib" --target wenc_static -j "$(nproc 2>/dev/null || echo 2)" \
           >>"$build/wenc-aarch64.log" 2>&1; }; then
    cat "$build/wenc-aarch64.log"
    loud "building libwenc for aarch64 failed"
    exit 1
fi
# shellcheck disable=SC2086
"$cross" $warn -I"$root/include" "$here/insn_driver.c" "$lib/libwenc.a" -ldl -o "$driver" ||
    { loud "building the driver failed"; exit 1; }

ers=
ers_lib=$("$here/build-ers-aarch64.sh" "$build")
case $? in
    0) ers=$ers_lib ;;
    77) loud "encoding_rs NOT counted: no Rust for aarch64 (see above); the table has wenc alone" ;;
    *) loud "building encoding_rs for aarch64 failed"; exit 1 ;;
esac

# count RUNS ARGS...: the instructions of the driver making RUNS calls;
# leaves its output line in $tmp/line.
count() {
    n=$1
    shift
    "$qemu" -cpu "$cpu" -L "$sysroot" -plugin "$plugin,out=$tmp/count" \
        "$driver" --max "$max" "$@" "$n" >"$tmp/line" || return 1
    sed -n 's/^insns //p' "$tmp/count"
}

# per_byte ARGS...: instructions per input byte of one call; leaves the
# driver's output line in $tmp/line.
per_byte() {
    one=$(count 1 "$@") && more=$(count $((runs + 1)) "$@") || return 1
    bytes=$(sed -n 's/^bytes \([0-9]*\) .*/\1/p' "$tmp/line")
    awk -v a="$one" -v b="$more" -v k="$runs" -v n="$bytes" \
        'BEGIN { printf "%.3f", (b - a) / k / n }'
}

# shellcheck source=tools/insn-count/rows.sh
. "$here/rows.sh"

# impl_name [--ers LIB]: what the driver says it runs
impl_name() {
    "$qemu" -cpu "$cpu" -L "$sysroot" "$driver" "$@" --max 64 decode-utf8 UTF-8 \
        "$corpus/en.txt" 1 | sed -n 's/.* impl //p'
}

echo "Counted $(date -u '+%Y-%m-%d %H:%M UTC') under $("$qemu" --version | sed -n 1p), -cpu $cpu."
echo "wenc $(impl_name) ($(git -C "$root" describe --always --dirty 2>/dev/null || echo 'no git')), $("$cross" --version | sed -n 1p), Release (-O3), generic armv8-a."
if [ -n "$ers" ]; then
    echo "ers: $(impl_name --ers "$ers"), $(/usr/bin/rustc -V), opt-level 3, LTO, generic aarch64 (bench/peers/ers)."
fi
echo "Instructions per input byte = (count(1 + $runs calls) - count(1 call)) / $runs / bytes; inputs: the first $max bytes of each file."
echo
echo "| row | input | bytes | wenc insn/byte | ers insn/byte | ers / wenc |"
echo "|---|---|---:|---:|---:|---:|"
insn_rows | while IFS='|' read -r name job label file; do
    case "$name $file" in *"$only"*) ;; *) continue ;; esac
    input=$file
    [ "$(wc -c <"$corpus/$file")" -gt "$max" ] && input="$file (first $max B)"
    if ! w=$(per_byte "$job" "$label" "$corpus/$file"); then
        echo "| $name | $input | wenc FAILED | | | |"
        echo "$name $file" >>"$tmp/failed"
        continue
    fi
    wline=$(cut -d' ' -f1-6 "$tmp/line")
    bytes=$(cut -d' ' -f2 "$tmp/line")
    e=n/a ratio=n/a note=
    if [ -n "$ers" ] && ! e=$(per_byte --ers "$ers" "$job" "$label" "$corpus/$file"); then
        e=FAILED
        echo "$name $file" >>"$tmp/failed"
    elif [ -n "$ers" ]; then
        ratio=$(awk -v e="$e" -v w="$w" 'BEGIN { printf "%.2f", e / w }')
        echo "$ratio $name, $file" >>"$tmp/ratios"
        if [ "$(cut -d' ' -f1-6 "$tmp/line")" != "$wline" ]; then
            if [ "$label" = gb18030 ]; then
                note=" (outputs differ: GB18030-2022, a known difference)"
            else
                note=" **(outputs differ)**"
                echo "$name $file" >>"$tmp/failed"
            fi
        fi
    fi
    echo "| $name$note | $input | $bytes | $w | $e | $ratio |"
done
if [ -f "$tmp/ratios" ]; then
    echo
    sort -n "$tmp/ratios" | awk '
        { r[NR] = $1; if (NR == 1) worst = $0; if ($1 < 1) behind++ }
        END {
            m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
            printf "ers / wenc over %d rows: median %.2f, lowest %s; %d rows where wenc executes more\n",
                NR, m, worst, behind
        }'
fi
if [ -f "$tmp/failed" ]; then
    loud "FAILED rows: $(tr '\n' ';' <"$tmp/failed")"
    exit 1
fi
