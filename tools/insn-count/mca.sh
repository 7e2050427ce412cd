#!/bin/sh
# tools/insn-count/mca.sh — the hottest translation blocks of a few rows of
# run.sh on aarch64, and llvm-mca's cycles per iteration for each on
# Neoverse N1 and V2 (V1 where the llvm-mca found has no V2).
#
#   tools/insn-count/mca.sh [--rows TEXT] [--hot N] [--runs K] [--max BYTES]
#
# Needs run.sh's build: run tools/insn-count/run.sh first (any --rows), so
# that build-insn/ holds wenc-aarch64/libwenc.a; that library is used as it
# is (not rebuilt), so run run.sh again after changing src/. This script builds, under
# build-insn/mca/, the plugin (from its source, so with hot=N) and a second
# driver, linked -no-pie so that its code runs at the addresses of its ELF
# file (run.sh's driver is a PIE, placed wherever qemu puts it).
#
# For each row (default: UTF-8 -> UTF-16 of ru.txt and fr.txt, UTF-8
# validation of ja.txt, UTF-16 -> UTF-8 of ru.txt, UTF-16LE -> UTF-16 of
# ja.txt, windows-1251 -> UTF-16 of ru.txt; --rows TEXT takes every row of
# run.sh whose "name file" contains TEXT), it runs the driver under
# qemu-user with 1 + K calls (default K = 8) and with 1 call, the plugin
# listing every block (hot= a large count), and takes the difference per
# block, as run.sh does for the total, so start-up, making the input and
# hashing the output cancel. The N blocks (--hot, default 5) with the most
# instructions in that difference are disassembled from the driver
# (objdump) and given to llvm-mca as loop bodies. It prints a Markdown
# table per row:
#   - block: the block's first address and the function it is in;
#   - share: its part of the calls' instructions;
#   - insns, bytes: its length;
#   - B/exec: input bytes per run of the block (the call's input bytes
#     over its runs in one call): for the loop body, how far one
#     iteration gets;
#   - for each CPU, llvm-mca's cycles per iteration over 1000 iterations
#     (Total Cycles / Iterations) and, in brackets, the Block RThroughput
#     (the bound from the ports alone).
#
# A block is what QEMU translates as one unit: straight-line code up to a
# branch. A loop whose body branches is several blocks, and llvm-mca sees
# each one alone, as if it looped on itself: it assumes every load hits L1,
# every branch is predicted, and nothing carries over from the other
# blocks of the loop. Read the figures as the throughput bound of that
# code, not as a time. A block outside the driver (in libc or the
# loader, e.g. memcpy) is listed without figures.
#
# Exit status: 0; 1 a build or a run failed; 77 a tool or run.sh's build is
# missing (nothing was run).
#
# Environment: WENC_CORPUS, QEMU_CPU, INSN_BUILD_DIR, CC as for run.sh;
# LLVM_MCA to name the llvm-mca to use (default: the newest found).
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tools/insn-count
build=${INSN_BUILD_DIR:-$root/build-insn}
corpus=${WENC_CORPUS:-$root/../shared/corpus/wikipedia}
cpu=${QEMU_CPU:-neoverse-n1}
qemu=qemu-aarch64 cross=aarch64-linux-gnu-gcc sysroot=/usr/aarch64-linux-gnu
objdump=aarch64-linux-gnu-objdump
runs=8 max=262144 hot=5 only=
iterations=1000

loud() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! $1"
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
}

while [ $# -gt 0 ]; do
    case $1 in
        --rows) only=$2; shift 2 ;;
        --hot) hot=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --max) max=$2; shift 2 ;;
        *) runs=bad; break ;;
    esac
done
case $runs$max$hot in
    *[!0-9]*|'')
        echo "usage: tools/insn-count/mca.sh [--rows TEXT] [--hot N] [--runs K] [--max BYTES]" >&2
        exit 2 ;;
esac
if [ "$runs" -eq 0 ] || [ "$max" -eq 0 ] || [ "$hot" -eq 0 ]; then
    echo "mca.sh: --runs, --max and --hot must be above 0" >&2
    exit 2
fi

for tool in "$qemu:qemu-user" "$cross:gcc-aarch64-linux-gnu" "$objdump:binutils-aarch64-linux-gnu"; do
    if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
        loud "SKIPPED: ${tool%%:*} not found (apt-get install ${tool#*:})"
        exit 77
    fi
done

# The newest llvm-mca: LLVM_MCA, else the one of the highest LLVM version
# among /usr/lib/llvm-NN/bin (where Debian's llvm-NN packages put it) and
# the llvm-mca on PATH.
mca=${LLVM_MCA:-}
if [ -z "$mca" ]; then
    best=0
    for m in /usr/lib/llvm-*/bin/llvm-mca "$(command -v llvm-mca 2>/dev/null)"; do
        [ -x "$m" ] || continue
        v=$("$m" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | sed -n 1p)
        [ -n "$v" ] && [ "$v" -gt "$best" ] && best=$v mca=$m
    done
fi
if [ -z "$mca" ] || ! "$mca" --version >/dev/null 2>&1; then
    loud "SKIPPED: no llvm-mca (apt-get install llvm-19)"
    exit 77
fi
mca_version=$("$mca" --version | sed -n 's/.*\(LLVM version [0-9.]*\).*/\1/p' | sed -n 1p)
cpus=$("$mca" -mtriple=aarch64 -mcpu=help 2>&1)
big=neoverse-v2 big_name=V2
case $cpus in
    *neoverse-v2*) ;;
    *) big=neoverse-v1 big_name=V1 ;;
esac

lib=$build/wenc-aarch64/libwenc.a
if [ ! -f "$lib" ]; then
    loud "SKIPPED: no $lib: run tools/insn-count/run.sh first (it builds libwenc for aarch64)"
    exit 77
fi
[ -d "$corpus" ] || { loud "SKIPPED: the corpus is not at $corpus (set WENC_CORPUS)"; exit 77; }

out=$build/mca
mkdir -p "$out"
tmp=$(mktemp -d /tmp/insn-mca.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
warn="-std=c11 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror"

echo "== building the plugin and a -no-pie driver under $out" >&2
plugin=$out/insn_count_plugin.so driver=$out/insn_driver
# shellcheck disable=SC2086 # $warn is a list of flags
"${CC:-cc}" $warn -shared -fPIC -fvisibility=hidden "$here/insn_count_plugin.c" -o "$plugin" ||
    { loud "building the plugin failed"; exit 1; }
# shellcheck disable=SC2086
"$cross" $warn -no-pie -I"$root/include" "$here/insn_driver.c" "$lib" -ldl -o "$driver" ||
    { loud "building the driver failed"; exit 1; }

# shellcheck source=tools/insn-count/rows.sh
. "$here/rows.sh"

rows() {
    if [ -n "$only" ]; then
        insn_rows | while IFS='|' read -r name job label file; do
            case "$name $file" in *"$only"*) echo "$name|$job|$label|$file" ;; esac
        done
    else
        insn_rows | grep -E '^(UTF-8 → UTF-16\|.*\|(ru|fr)\.txt|UTF-8 validation\|.*\|ja\.txt|UTF-16 → UTF-8 \(encode\)\|.*\|ru\.txt|UTF-16LE → UTF-16 \(decode\)\|.*\|ja\.txt|windows-1251 → UTF-16\|.*\|ru\.txt)$'
    fi
}

# run CALLS HOT OUT JOB LABEL FILE: the driver under qemu with the plugin
run() {
    "$qemu" -cpu "$cpu" -L "$sysroot" -plugin "$plugin,out=$3,hot=$2" \
        "$driver" --max "$max" "$4" "$5" "$6" "$1" >"$tmp/line"
}

# mca_block ASM CPU: "cycles/iteration (RThroughput)" from llvm-mca
mca_block() {
    "$mca" -mtriple=aarch64 -mcpu="$2" -iterations="$iterations" "$1" 2>"$tmp/mca.err" |
        awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { cy = $3 }
             /^Block RThroughput:/ { rt = $3 }
             END { if (it > 0) printf "%.2f (%s)", cy / it, rt; else printf "mca failed" }'
}

echo "Hot blocks counted $(date -u '+%Y-%m-%d %H:%M UTC') under $("$qemu" --version | sed -n 1p), -cpu $cpu;"
echo "wenc: run.sh's $lib (built $(date -u -r "$lib" '+%Y-%m-%d %H:%M UTC'); the tree is now $(git -C "$root" describe --always --dirty 2>/dev/null || echo 'no git')), $("$cross" --version | sed -n 1p), Release (-O3), generic armv8-a; driver -no-pie."
echo "llvm-mca: $mca ($mca_version), -mcpu=neoverse-n1 and -mcpu=$big, $iterations iterations."
echo "Blocks ranked by instructions in (1 + $runs calls) - (1 call); share = of those instructions; inputs: the first $max bytes of each file."
echo "A block is straight-line code up to a branch, analysed alone as a loop body: cycles/iteration (Block RThroughput)."
status=0 all=1000000000 # hot=$all: every block, to rank by the difference
rows >"$tmp/rows"
while IFS='|' read -r name job label file; do
    echo
    if ! run $((runs + 1)) "$all" "$tmp/many" "$job" "$label" "$corpus/$file" ||
       ! run 1 "$all" "$tmp/one" "$job" "$label" "$corpus/$file"; then
        echo "### $name, $file: FAILED"
        status=1
        continue
    fi
    bytes=$(sed -n 's/^bytes \([0-9]*\) .*/\1/p' "$tmp/line")
    echo "### $name, $file ($bytes bytes a call)"
    echo
    echo "| block | function | share | insns | bytes | input B/exec | N1 cyc/iter (RThru) | $big_name cyc/iter (RThru) |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|"
    # vaddr bytes insns weight B/exec of the blocks the calls ran, heaviest
    # first (weight: instructions in the difference); the total to $tmp/total
    awk -v k="$runs" -v b="$bytes" '
        NR == FNR { if ($1 == "insns") t1 = $2; else if ($1 == "hot") e1[$2 " " $6] = $8; next }
        $1 == "insns" { total = $2 - t1; next }
        $1 == "hot" && $8 > e1[$2 " " $6] {
            d = $8 - e1[$2 " " $6]
            printf "%s %s %s %.0f %.1f\n", $2, $4, $6, d * $6, k * b / d
        }
        END { printf "%.0f\n", total > "'"$tmp/total"'" }' \
        "$tmp/one" "$tmp/many" | sort -k4,4nr | sed "${hot}q" >"$tmp/blocks"
    total=$(cat "$tmp/total")
    while read -r vaddr size insns weight per; do
        share=$(awk -v w="$weight" -v t="$total" 'BEGIN { printf "%.1f%%", (t > 0 ? 100 * w / t : 0) }')
        "$objdump" -d --no-show-raw-insn --start-address="$vaddr" \
            --stop-address=$((vaddr + size)) "$driver" >"$tmp/dis" 2>/dev/null
        func=$(sed -n 's/^[0-9a-f]* <\(.*\)>:$/\1/p' "$tmp/dis" | sed -n 1p)
        # the block as assembly: no addresses, comments or absolute targets
        {
            echo ".Ltarget:"
            sed -n 's/^ *[0-9a-f]*:\t//p' "$tmp/dis" |
                sed 's,[[:space:]]*//.*,,; s/[0-9a-f][0-9a-f]* <[^>]*>/.Ltarget/'
        } >"$tmp/block.s"
        if [ -z "$func" ] || [ "$(wc -l <"$tmp/block.s")" -le 1 ]; then
            func="(outside the driver: libc or the loader)" n1=n/a v=n/a
        else
            n1=$(mca_block "$tmp/block.s" neoverse-n1)
            v=$(mca_block "$tmp/block.s" "$big")
            case "$n1$v" in *failed*) cat "$tmp/mca.err" >&2; status=1 ;; esac
        fi
        echo "| $vaddr | \`$func\` | $share | $insns | $size | $per | $n1 | $v |"
    done <"$tmp/blocks"
done <"$tmp/rows"
exit $status
