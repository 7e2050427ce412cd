#!/bin/sh
# fuzz/coverage.sh [CORPUS_ROOT] — the source lines of libwenc that the fuzz
# targets reach: builds every target with clang's source-based coverage
# (-fprofile-instr-generate -fcoverage-mapping, no sanitizers), runs each
# once over CORPUS_ROOT/<target>/ (default fuzz/corpus, the seeds) and
# fuzz/regressions/<target>/, merges the profiles and prints llvm-cov's
# report for src/ (per file, and the total line). The seeds in fuzz/corpus/
# are always run too: a corpus that libFuzzer grew in a separate directory
# holds only what the seeds did not already cover. Exits 77 (after a SKIPPED
# banner) when clang's libFuzzer runtime or llvm-profdata/llvm-cov is missing.
#
# Environment: CC (default clang), FUZZ_COVERAGE_DIR (default
# build-fuzz/coverage), LLVM_PROFDATA, LLVM_COV (default: found on PATH).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
corpora=${1:-$root/fuzz/corpus}
case $corpora in /*) ;; *) corpora=$(pwd)/$corpora ;; esac
cd "$root" || exit 2
cc=${CC:-clang}
build=${FUZZ_COVERAGE_DIR:-build-fuzz/coverage}
targets="decode encode labels hooks text"
cflags="-std=c11 -O1 -g -Wall -Wextra -Wpedantic -Werror -Iinclude -Isrc -Ifuzz"
coverage="-fprofile-instr-generate -fcoverage-mapping"

skip() {
    echo "################################################################"
    echo "# SKIPPED: fuzz/coverage.sh: $1"
    echo "# No coverage was measured."
    echo "################################################################"
    exit 77
}

find_tool() {
    for candidate in "$@"; do
        command -v "$candidate" >/dev/null 2>&1 && {
            echo "$candidate"
            return 0
        }
    done
    return 1
}
profdata=${LLVM_PROFDATA:-$(find_tool llvm-profdata llvm-profdata-14)} ||
    skip "llvm-profdata not found (on Debian: the llvm package)"
llvm_cov=${LLVM_COV:-$(find_tool llvm-cov llvm-cov-14)} ||
    skip "llvm-cov not found (on Debian: the llvm package)"
command -v "$cc" >/dev/null 2>&1 || skip "compiler '$cc' not found"
[ -d "$corpora" ] || {
    echo "fuzz/coverage.sh: no corpus directory $corpora" >&2
    exit 2
}

rm -rf "$build" && mkdir -p "$build" || exit 2
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
    >"$build/probe.c"
"$cc" -fsanitize=fuzzer "$build/probe.c" -o "$build/probe" >"$build/probe.log" 2>&1 ||
    skip "'$cc -fsanitize=fuzzer' does not link (libFuzzer runtime missing? on Debian: libclang-rt-dev)"

sources="src/*/*.c fuzz/common.c"
for target in $targets; do
    # shellcheck disable=SC2086
    $cc $cflags $coverage -fsanitize=fuzzer fuzz/fuzz_$target.c $sources \
        -o "$build/fuzz_$target" || {
        echo "fuzz/coverage.sh: FAILED to build fuzz_$target" >&2
        exit 1
    }
done

profiles=""
for target in $targets; do
    inputs=""
    for dir in "$corpora/$target" "fuzz/corpus/$target" "fuzz/regressions/$target"; do
        [ -d "$dir" ] || continue
        [ "$dir" = "fuzz/corpus/$target" ] && [ "$corpora" = "$root/fuzz/corpus" ] && continue
        inputs="$inputs $dir"
    done
    count=$(find $inputs -type f 2>/dev/null | wc -l)
    # shellcheck disable=SC2086
    LLVM_PROFILE_FILE="$build/$target.profraw" "$build/fuzz_$target" \
        -runs=0 $inputs >"$build/$target.log" 2>&1 || {
        echo "fuzz/coverage.sh: fuzz_$target FAILED on its inputs; log: $build/$target.log" >&2
        exit 1
    }
    echo "fuzz_$target: $count inputs"
    profiles="$profiles $build/$target.profraw"
done
# shellcheck disable=SC2086
"$profdata" merge -o "$build/all.profdata" $profiles || exit 1

objects=""
for target in $targets; do
    [ -z "$objects" ] && objects="$build/fuzz_$target" ||
        objects="$objects -object $build/fuzz_$target"
done
# shellcheck disable=SC2086
"$llvm_cov" report $objects -instr-profile="$build/all.profdata" \
    src/core/*.c src/api/*.c src/codecs/*.c src/codecs/*.h src/simd/*.c src/simd/*.h \
    src/extensions/*.c
