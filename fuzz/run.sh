#!/bin/sh
# fuzz/run.sh SECONDS — build every libFuzzer target with clang and run each
# for SECONDS seconds (as many at a time as there are cores) over a
# temporary copy of its seed corpus, then replay
# fuzz/regressions/<target>/. Exits 1 if any target crashes or reports an
# invariant violation (printing the reproducer's path and hex), 77 (after a
# SKIPPED banner) when clang's libFuzzer runtime is missing.
#
# fuzz_diff (wenc against encoding_rs) also needs cargo and Debian's
# encoding_rs sources (apt-get install cargo librust-encoding-rs-dev); without
# them it is skipped with a banner, the other targets still run, and the exit
# status is 77 (not 0) if they all pass: a run that left a target out is no
# pass. FUZZ_TARGETS without "diff" runs the others alone.
#
# Environment: CC (default clang), FUZZ_BUILD_DIR (default build-fuzz),
# FUZZ_TARGETS (default: all), FUZZ_MAX_LEN (default 4096),
# FUZZ_BUILD_ONLY=1 to stop after building, CARGO_REGISTRY (default
# /usr/share/cargo/registry), FUZZ_CFLAGS (added to every compile: e.g.
# -DWENC_NO_RUNTIME_SIMD fuzzes the portable code with every vector kernel
# off, -DWENC_NO_AVX512 stops at AVX2), FUZZ_SANITIZE (default
# "-fsanitize=address,undefined -fno-sanitize-recover=all"; set to
# "-fsanitize=undefined -fno-sanitize-recover=all" for a faster run that
# still aborts on any difference, but no longer catches memory errors).
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
targets=${FUZZ_TARGETS:-"decode encode labels hooks text sniff diff"}
registry=${CARGO_REGISTRY:-/usr/share/cargo/registry}
max_len=${FUZZ_MAX_LEN:-4096}
jobs=$(nproc 2>/dev/null || echo 2)
sanitize=${FUZZ_SANITIZE:-"-fsanitize=address,undefined -fno-sanitize-recover=all"}
cflags="-std=c11 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Wpedantic -Werror -Iinclude -Isrc -Ifuzz ${FUZZ_CFLAGS:-}"

skip() {
    echo "################################################################"
    echo "# SKIPPED: fuzz/run.sh: $1"
    echo "# No fuzz target was built or run."
    echo "################################################################"
    exit 77
}

mkdir -p "$build/obj" "$build/artifacts" || exit 2
build_abs=$(cd "$build" && pwd) || exit 2
probe="$build/probe.c"
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' >"$probe"
command -v "$cc" >/dev/null 2>&1 || skip "compiler '$cc' not found (set CC to a clang with libFuzzer)"
# shellcheck disable=SC2086
"$cc" -fsanitize=fuzzer $sanitize "$probe" -o "$build/probe" >"$build/probe.log" 2>&1 ||
    skip "'$cc -fsanitize=fuzzer' does not link (libFuzzer runtime missing? on Debian: libclang-rt-dev): $(head -n 3 "$build/probe.log")"

echo "fuzz: building into $build with $cc ${FUZZ_CFLAGS:-} $sanitize"
# Library and shared objects, compiled in parallel; a failed compile leaves
# a .failed marker that stops the build.
rm -f "$build"/obj/*.o "$build"/obj/*.failed
for source in src/*/*.c fuzz/common.c; do
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

# fuzz_diff links encoding_rs through fuzz/diff_oracle (a Rust staticlib),
# built offline against Debian's crate sources in a copy under the build
# directory, so that the tree never changes (as tests/diff/run.sh builds
# the oracle). find_diff_tools sets cargo, or diff_skipped to why not.
find_diff_tools() {
    cargo=
    if command -v cargo >/dev/null 2>&1; then
        cargo=$(command -v cargo)
    elif [ -x /root/.cargo/bin/cargo ]; then
        cargo=/root/.cargo/bin/cargo
    elif [ -n "${HOME:-}" ] && [ -x "$HOME/.cargo/bin/cargo" ]; then
        cargo=$HOME/.cargo/bin/cargo
    fi
    [ -n "$cargo" ] || { diff_skipped="cargo not found (PATH, /root/.cargo/bin, \$HOME/.cargo/bin)"; return; }
    set -- "$registry"/encoding_rs-0.8.*/Cargo.toml
    [ -f "$1" ] || { diff_skipped="encoding_rs sources not found in $registry"; return; }
    set -- "$registry"/cfg-if-1.*/Cargo.toml
    [ -f "$1" ] || diff_skipped="cfg-if sources (an encoding_rs dependency) not found in $registry"
}

build_diff_oracle() {
    src="$build/diff_oracle-src"
    rm -rf "$src"
    mkdir -p "$src/.cargo" || return 1
    cp -pR fuzz/diff_oracle/Cargo.toml fuzz/diff_oracle/Cargo.lock \
        fuzz/diff_oracle/src "$src/" || return 1
    printf '%s\n' '[source.crates-io]' 'replace-with = "debian"' \
        '[source.debian]' "directory = \"$registry\"" '[net]' 'offline = true' \
        >"$src/.cargo/config.toml"
    (cd "$src" && CARGO_TARGET_DIR="$build_abs/diff_oracle" \
        "$cargo" build --offline --release --quiet) || return 1
    # shellcheck disable=SC2086
    $cc $cflags -Itests/diff $sanitize -fsanitize=fuzzer-no-link \
        -c tests/diff/known_differences.c -o "$build/known_differences.o"
}

diff_skipped=
case " $targets " in
*" diff "*)
    find_diff_tools
    if [ -n "$diff_skipped" ]; then
        targets=$(echo " $targets " | sed 's/ diff / /')
        echo "################################################################"
        echo "# SKIPPED: fuzz_diff (wenc against encoding_rs): $diff_skipped"
        echo "# Install: apt-get install cargo librust-encoding-rs-dev"
        echo "# The other targets still run; the exit status will be 77."
        echo "################################################################"
    else
        echo "fuzz: building fuzz/diff_oracle (encoding_rs from $registry) with $cargo"
        build_diff_oracle || {
            echo "fuzz: FAILED to build fuzz/diff_oracle or tests/diff/known_differences.c for fuzz_diff" >&2
            exit 1
        }
    fi
    ;;
esac

for target in $targets; do
    extra=
    if [ "$target" = diff ]; then
        extra="-Itests/diff $build/known_differences.o $build/diff_oracle/release/libwenc_fuzz_diff_oracle.a -lpthread -ldl -lm"
    fi
    # shellcheck disable=SC2086
    $cc $cflags $sanitize -fsanitize=fuzzer "fuzz/fuzz_$target.c" \
        "$build"/obj/*.o $extra -o "$build/fuzz_$target" || {
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

# run_target TARGET: one timed run; writes the target's summary line to
# $work/TARGET.summary and its exit status to $work/TARGET.status.
run_target() {
    target=$1
    binary="$build/fuzz_$target"
    corpus="$work/$target"
    artifacts="$build/artifacts/$target"
    log="$build/fuzz_$target.log"
    "$binary" -max_total_time="$seconds" -max_len="$max_len" -timeout=25 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" \
        >"$log" 2>&1
    status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    covft=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
    echo "$status" >"$work/$target.status"
    if [ $status -ne 0 ]; then
        echo "fuzz_$target: FAILED (exit $status) after ${execs:-?} executions, ${covft:-no cov figure}" >"$work/$target.summary"
    else
        echo "fuzz_$target: ${execs:-?} executions, ${covft:-no cov figure}" >"$work/$target.summary"
    fi
}

# The targets run $jobs at a time (one per core), each for $seconds.
running=0
for target in $targets; do
    corpus="$work/$target"
    mkdir -p "$corpus" "$build/artifacts/$target"
    if [ -d "fuzz/corpus/$target" ]; then
        cp fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null
    fi
    echo "fuzz: running fuzz_$target for ${seconds}s ($(find "$corpus" -type f | wc -l) seeds)"
    run_target "$target" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

for target in $targets; do
    binary="$build/fuzz_$target"
    log="$build/fuzz_$target.log"
    status=$(cat "$work/$target.status" 2>/dev/null || echo "no status")
    if [ "$status" != 0 ]; then
        failed=1
        echo "fuzz: fuzz_$target FAILED (exit $status); log: $log"
        grep -E 'INVARIANT VIOLATED|ERROR: (Address|Leak|libFuzzer)Sanitizer|runtime error' "$log" | head -n 5
        for file in $(grep -o "Test unit written to [^ ]*" "$log" | sed 's/Test unit written to //'); do
            echo "fuzz: reproducer: $file (run: $binary $file)"
            echo "fuzz: hex: $(hex "$file")"
        done
    fi
    summary="$summary
$(cat "$work/$target.summary" 2>/dev/null || echo "fuzz_$target: no summary (the run did not finish)")"
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
if [ -n "$diff_skipped" ]; then
    echo "################################################################"
    echo "# SKIPPED: fuzz_diff: $diff_skipped"
    echo "# The other targets passed; exit 77 because one was left out."
    echo "################################################################"
    exit 77
fi
echo "fuzz: all targets passed"
exit 0
