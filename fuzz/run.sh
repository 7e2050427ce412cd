#!/bin/sh
# fuzz/run.sh SECONDS — build every libFuzzer target with clang and run each
# for SECONDS seconds over a temporary copy of its seed corpus, then replay
# fuzz/regressions/<target>/. Exits 1 if any target crashes or reports an
# invariant violation (printing the reproducer's path and hex), 77 (after a
# SKIPPED banner) when clang's libFuzzer runtime is missing.
#
# Environment: CC (default clang), FUZZ_BUILD_DIR (default build-fuzz),
# FUZZ_TARGETS (default: all), FUZZ_MAX_LEN (default 4096),
# FUZZ_BUILD_ONLY=1 to stop after building.
set -u

seconds=${1:-30}
case $seconds in
'' | *[!0-9]*)
    echo "usage: fuzz/run.sh SECONDS" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
cc=${CC:-clang}
build=${FUZZ_BUILD_DIR:-build-fuzz}
targets=${FUZZ_TARGETS:-"decode encode labels hooks text"}
max_len=${FUZZ_MAX_LEN:-4096}
jobs=$(nproc 2>/dev/null || echo 2)
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all"
cflags="-std=c11 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Wpedantic -Werror -Iinclude -Isrc -Ifuzz"

skip() {
    echo "################################################################"
    echo "# SKIPPED: fuzz/run.sh: $1"
    echo "# No fuzz target was built or run."
    echo "################################################################"
    exit 77
}

mkdir -p "$build/obj" "$build/artifacts" || exit 2
probe="$build/probe.c"
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' >"$probe"
command -v "$cc" >/dev/null 2>&1 || skip "compiler '$cc' not found (set CC to a clang with libFuzzer)"
"$cc" -fsanitize=fuzzer,address,undefined "$probe" -o "$build/probe" >"$build/probe.log" 2>&1 ||
    skip "'$cc -fsanitize=fuzzer' does not link (libFuzzer runtime missing? on Debian: libclang-rt-dev): $(head -n 3 "$build/probe.log")"

echo "fuzz: building into $build with $cc"
# Library and shared objects, compiled in parallel; a failed compile leaves
# a .failed marker that stops the build.
rm -f "$build"/obj/*.o "$build"/obj/*.failed
for source in src/*.c src/codecs/*.c src/tables/*.c fuzz/common.c; do
    echo "$source"
done | xargs -P "$jobs" -n 1 sh -c '
    object="$1/obj/$(echo "$5" | tr / _ | sed "s/\.c\$/.o/")"
    # shellcheck disable=SC2086
    $2 $3 $4 -fsanitize=fuzzer-no-link -c "$5" -o "$object" || touch "$object.failed"
' sh "$build" "$cc" "$cflags" "$sanitize"
if ls "$build"/obj/*.failed >/dev/null 2>&1; then
    echo "fuzz: FAILED to compile: $(ls "$build"/obj/*.failed)" >&2
    exit 1
fi
for target in $targets; do
    # shellcheck disable=SC2086
    $cc $cflags $sanitize -fsanitize=fuzzer "fuzz/fuzz_$target.c" \
        "$build"/obj/*.o -o "$build/fuzz_$target" || {
        echo "fuzz: FAILED to build fuzz_$target" >&2
        exit 1
    }
done
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

hex() {
    od -An -tx1 -v "$1" | tr -d '\n' | sed 's/^ *//'
    echo
}

failed=0
summary=""
work=$(mktemp -d "${TMPDIR:-/tmp}/wenc-fuzz.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

for target in $targets; do
    binary="$build/fuzz_$target"
    corpus="$work/$target"
    artifacts="$build/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "fuzz/corpus/$target" ]; then
        cp fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null
    fi
    echo "fuzz: running fuzz_$target for ${seconds}s ($(find "$corpus" -type f | wc -l) seeds)"
    log="$build/fuzz_$target.log"
    "$binary" -max_total_time="$seconds" -max_len="$max_len" -timeout=25 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" \
        >"$log" 2>&1
    status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    covft=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
    if [ $status -ne 0 ]; then
        failed=1
        echo "fuzz: fuzz_$target FAILED (exit $status); log: $log"
        grep -E 'INVARIANT VIOLATED|ERROR: (Address|Leak|libFuzzer)Sanitizer|runtime error' "$log" | head -n 5
        for file in $(grep -o "Test unit written to [^ ]*" "$log" | sed 's/Test unit written to //'); do
            echo "fuzz: reproducer: $file (run: $binary $file)"
            echo "fuzz: hex: $(hex "$file")"
        done
        summary="$summary
fuzz_$target: FAILED (exit $status) after ${execs:-?} executions, ${covft:-no cov figure}"
    else
        summary="$summary
fuzz_$target: ${execs:-?} executions, ${covft:-no cov figure}"
    fi
done

for target in $targets; do
    dir="fuzz/regressions/$target"
    [ -d "$dir" ] || continue
    count=0
    for file in "$dir"/*; do
        [ -f "$file" ] || continue
        count=$((count + 1))
        if ! "$build/fuzz_$target" "$file" >"$build/regression.log" 2>&1; then
            failed=1
            echo "fuzz: regression FAILED: fuzz_$target $file"
            echo "fuzz: hex: $(hex "$file")"
            grep -E 'INVARIANT VIOLATED|ERROR: (Address|Leak)Sanitizer|runtime error' "$build/regression.log" | head -n 5
        fi
    done
    summary="$summary
fuzz_$target: replayed $count regression input(s) from $dir"
done

echo "fuzz: summary (${seconds}s per target):$summary"
if [ $failed -ne 0 ]; then
    echo "fuzz: FAILED"
    exit 1
fi
echo "fuzz: all targets passed"
exit 0
