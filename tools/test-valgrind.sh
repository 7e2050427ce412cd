#!/bin/sh
# tools/test-valgrind.sh — the whole test suite under valgrind memcheck.
#
#   tools/test-valgrind.sh          (or: make test-valgrind)
#
# Builds build-valgrind/ (RelWithDebInfo, no sanitizers: valgrind and ASan
# do not mix) and runs, each process under memcheck:
#   1. every C test registered with ctest (tests/test_*.c, named test_*;
#      not their _avx2 and _portable builds, see below),
#      through CMake's CROSSCOMPILING_EMULATOR, which ctest puts in front of
#      a test whose command is a target it built;
#   2. tests/cli/run.sh (in the background, beside the C tests: it runs
#      one process at a time) and tests/examples/run.sh. ctest starts those with sh
#      and the real wenc, so they run here instead, given wrappers
#      (build-valgrind/valgrind-bin/) that exec the wenc tool and the example
#      programs under valgrind. Every wenc and example process they start is
#      checked; sh, cmp, od and the other tools they use are not.
# Any other ctest test (the Node.js and Python bindings', which build their
# own addon and extension) is not run here, and the script names it.
# Each process writes its own log to build-valgrind/valgrind-logs/; the run
# fails when a test fails, when any log reports an error (invalid access, use
# of uninitialised memory, bad free, or a definitely or indirectly lost block),
# or when a log has no ERROR SUMMARY line.
#
# Exit status: 0 clean; 1 a test failed or valgrind found an error; 77
# valgrind or cmake is missing (nothing was checked).
#
# Environment: JOBS (parallel build and C test jobs, default nproc),
# WENC_DATA_DIR (the Standard's data, as for make), VALGRIND, CMAKE, CTEST.

set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD=$ROOT/build-valgrind
LOGS=$BUILD/valgrind-logs
WRAP=$BUILD/valgrind-bin
VALGRIND=${VALGRIND:-valgrind}
CMAKE=${CMAKE:-cmake}
CTEST=${CTEST:-ctest}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

skipped() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! SKIPPED: test-valgrind: $1"
    echo "!! Nothing was run under valgrind; this is NOT a pass."
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    exit 77
}

command -v "$VALGRIND" > /dev/null 2>&1 || skipped "$VALGRIND not found (Debian: apt-get install valgrind)"
command -v "$CMAKE" > /dev/null 2>&1 || skipped "$CMAKE not found (Debian: apt-get install cmake)"
command -v "$CTEST" > /dev/null 2>&1 || skipped "$CTEST not found (Debian: apt-get install cmake)"
VALGRIND=$(command -v "$VALGRIND")

START=$(date +%s)

# Shared by every process. Each log goes to its own file, which keeps
# valgrind off the program's stderr (the CLI tests compare it byte for byte).
# --read-inline-info=no: a report's stack shows no inlined frames, and each
# process starts 0.13 s sooner (0.64 s against 0.78 s for wenc --version;
# /bin/true takes 0.57 s): the CLI suite starts 355 processes one at a time.
VG_OPTS="--tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect
--show-leak-kinds=definite,indirect --error-exitcode=1 --read-inline-info=no"

set --
[ -n "${WENC_DATA_DIR:-}" ] && set -- "-DWENC_DATA_DIR=$(cd "$WENC_DATA_DIR" 2>/dev/null && pwd || echo "$WENC_DATA_DIR")"
EMULATOR=$(printf '%s' "$VALGRIND $VG_OPTS --log-file=$LOGS/ctest.%p.log" | tr ' \n' ';;')

echo "== configure and build $BUILD"
"$CMAKE" -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWENC_SANITIZE=OFF \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=$EMULATOR" -DWENC_TEST_TIMEOUT=3600 "$@" > "$BUILD.configure.log" 2>&1 \
    || { cat "$BUILD.configure.log"; echo "test-valgrind: FAILED: cmake configure"; exit 1; }
rm -f "$BUILD.configure.log"
"$CMAKE" --build "$BUILD" -j"$JOBS" > /dev/null || { echo "test-valgrind: FAILED: build"; exit 1; }

rm -rf "$LOGS" "$WRAP" "$BUILD/invocations.txt" "$BUILD/valgrind-canary"
mkdir -p "$LOGS" "$WRAP/examples" || exit 2

# wrap REAL WRAPPER: a script at WRAPPER that runs REAL under valgrind, with
# a log file of its own (mktemp: pids are reused over a long run) and a line
# in invocations.txt, so that a process that left no log is noticed.
wrap() {
    {
        echo '#!/bin/sh'
        printf 'log=$(mktemp "%s/%s.XXXXXX.log") || exit 125\n' "$LOGS" "${1##*/}"
        printf 'echo "$log" >> "%s/invocations.txt"\n' "$BUILD"
        printf 'exec "%s"' "$VALGRIND"
        for o in $VG_OPTS; do printf " '%s'" "$o"; done
        printf ' "--log-file=$log" "%s" "$@"\n' "$1"
    } > "$2" && chmod +x "$2"
}
wrap "$BUILD/wenc" "$WRAP/wenc" || exit 2
examples=0
for prog in "$BUILD"/examples/*; do
    [ -f "$prog" ] && [ -x "$prog" ] || continue
    wrap "$prog" "$WRAP/examples/${prog##*/}" || exit 2
    examples=$((examples + 1))
done

# log_clean LOG: the log has an ERROR SUMMARY line, and it says 0 errors.
log_clean() {
    grep -q 'ERROR SUMMARY: 0 errors' "$1"
}

failed=""

# The canary: a program with a definitely lost block must make its wrapper
# exit 1 and its log fail log_clean, or this run could not see an error.
echo "== canary (a leak valgrind must report)"
CANARY=$BUILD/valgrind-canary
mkdir -p "$CANARY" || exit 2
printf '%s\n' '#include <stdlib.h>' \
    'int main(void) { char *volatile p = malloc(32); p[0] = 1; p = NULL; return 0; }' \
    > "$CANARY/leak.c"
if ${CC:-cc} -g -O0 -o "$CANARY/leak" "$CANARY/leak.c"; then
    canary_logs=$LOGS
    LOGS=$CANARY
    wrap "$CANARY/leak" "$CANARY/leak.sh" || exit 2
    LOGS=$canary_logs
    "$CANARY/leak.sh"
    canary_rc=$?
    canary_log=$(tail -n 1 "$BUILD/invocations.txt")
    if [ "$canary_rc" -eq 1 ] && [ -f "$canary_log" ] && ! log_clean "$canary_log"; then
        echo "   the leak was reported (exit 1, $(grep -c 'definitely lost' "$canary_log") 'definitely lost' lines)"
    else
        failed="$failed canary"
        echo "   FAILED: the canary's leak was not reported (exit $canary_rc)"
    fi
    rm -f "$BUILD/invocations.txt"
else
    failed="$failed canary-build"
    echo "   FAILED: cannot compile the canary with ${CC:-cc}"
fi

export WENC_SOURCE_DIR="$ROOT" WENC_CLI="$BUILD/wenc"
export WENC_DATA_DIR="$(sed -n 's/^WENC_DATA_DIR:PATH=//p' "$BUILD/CMakeCache.txt")"

# run_suite NAME: tests/NAME/run.sh with the wrapped wenc and example
# programs; its output in $BUILD/NAME.out, its exit status in
# $BUILD/NAME.rc, its seconds in $BUILD/NAME.secs.
run_suite() {
    suite_t0=$(date +%s)
    suite_rc=0
    WENC_EXAMPLES_DIR="$WRAP/examples" sh "$ROOT/tests/$1/run.sh" "$WRAP/wenc" \
        > "$BUILD/$1.out" 2>&1 || suite_rc=$?
    echo "$suite_rc" > "$BUILD/$1.rc"
    echo "$(( $(date +%s) - suite_t0 ))" > "$BUILD/$1.secs"
}

# report_suite NAME: what run_suite found, after it finished.
report_suite() {
    echo "== tests/$1/run.sh (wenc and the example programs under valgrind)"
    rc=$(cat "$BUILD/$1.rc" 2> /dev/null || echo 1)
    if [ "$rc" -eq 77 ]; then
        # every case that ran passed; the ones that could not run are named
        echo "!! note: tests/$1/run.sh skipped cases:"
        grep '^SKIPPED ' "$BUILD/$1.out"
        grep -E '^[0-9]+ passed, [0-9]+ failed' "$BUILD/$1.out" | tail -n 1
    elif [ "$rc" -ne 0 ]; then
        failed="$failed $1"
        grep -v '^ok ' "$BUILD/$1.out"
    else
        tail -n 1 "$BUILD/$1.out"
    fi
    echo "   tests/$1 took $(cat "$BUILD/$1.secs" 2> /dev/null || echo '?')s"
}

# The CLI suite runs one process at a time and is the longest part: it goes
# on in the background while the C tests take the other cores.
rm -f "$BUILD/cli.rc" "$BUILD/examples.rc"
cli_pid=""
if [ -f "$ROOT/tests/cli/run.sh" ]; then
    run_suite cli &
    cli_pid=$!
fi
# All cores for the C tests too: the CLI suite is one process, and ended
# long before them with one core left to them.
ctest_jobs=$JOBS

echo "== C tests (ctest, each under valgrind; the CLI suite beside them)"
t0=$(date +%s)
all_tests=$(cd "$BUILD" && "$CTEST" -N | sed -n 's/^ *Test *#[0-9]*: //p')
# The _avx2 builds of the SIMD tests (tests/simd_level.h) are left out:
# valgrind runs no AVX-512 code and tells the library so, so under valgrind
# the tests as built take the same AVX2 kernels. The _portable builds are
# left out too (a third of this stage's time): the tests as built run the
# scalar loops for every input shorter than a vector step and for every
# kernel's tail, and ASan and UBSan run the _portable builds whole.
ctest_list=$(printf '%s\n' "$all_tests" | grep '^test_' | grep -v -E '_(avx2|portable)$')
[ -n "$ctest_list" ] || failed="$failed ctest(no C tests registered)"
others=$(printf '%s\n' "$all_tests" | grep -v -E '^(test_.*|cli|examples)$' | tr '\n' ' ')
if [ -n "$others" ]; then
    echo "!! NOT run under valgrind (not a C test of the library, nor cli or examples): $others"
fi
avx2_builds=$(printf '%s\n' "$all_tests" | grep '^test_.*_avx2$' | tr '\n' ' ')
if [ -n "$avx2_builds" ]; then
    echo "   not run under valgrind, which takes the AVX2 kernels in the tests as built: $avx2_builds"
fi
portable_builds=$(printf '%s\n' "$all_tests" | grep '^test_.*_portable$' | tr '\n' ' ')
if [ -n "$portable_builds" ]; then
    echo "   not run under valgrind (the scalar loops run in the tests as built; ASan and UBSan run these): $portable_builds"
fi
if ! (cd "$BUILD" && "$CTEST" --output-on-failure -j"$ctest_jobs" -R '^test_' -E '_(avx2|portable)$'); then
    failed="$failed ctest"
fi
echo "   C tests took $(( $(date +%s) - t0 ))s"
# ctest also counts a test with SKIP_RETURN_CODE as not failed: say so.
if grep -q 'Skipped' "$BUILD/Testing/Temporary/LastTest.log" 2> /dev/null; then
    echo "!! note: some C test reported itself skipped (see the ctest output above)"
fi

[ -f "$ROOT/tests/examples/run.sh" ] && run_suite examples
[ -n "$cli_pid" ] && wait "$cli_pid"
for suite in cli examples; do
    [ -f "$ROOT/tests/$suite/run.sh" ] && report_suite "$suite"
done

echo "== valgrind logs"
nlogs=0
bad=0
for log in "$LOGS"/*.log; do
    [ -f "$log" ] || continue
    nlogs=$((nlogs + 1))
    if ! log_clean "$log"; then
        bad=$((bad + 1))
        if [ "$bad" -le 5 ]; then
            echo "-- $log:"
            cat "$log"
        fi
    fi
done
[ "$nlogs" -gt 0 ] || failed="$failed no-valgrind-logs"
wrapped=$(wc -l < "$BUILD/invocations.txt" 2> /dev/null || echo 0)
ctest_logs=$(ls "$LOGS" | grep -c '^ctest\.')
ctest_count=$(printf '%s\n' "$ctest_list" | grep -c .)
echo "   $nlogs logs: $ctest_logs from $ctest_count C tests, $wrapped from wenc and example runs ($examples example programs wrapped)"
echo "   $bad logs with errors or no ERROR SUMMARY"
[ "$ctest_logs" -eq "$ctest_count" ] || failed="$failed ctest-logs($ctest_logs/$ctest_count)"
[ $((ctest_logs + wrapped)) -eq "$nlogs" ] || failed="$failed log-count"
[ "$bad" -eq 0 ] || failed="$failed valgrind-errors($bad)"

secs=$(( $(date +%s) - START ))
if [ -n "$failed" ]; then
    echo "test-valgrind: FAILED:$failed (${secs}s; logs in $LOGS)"
    exit 1
fi
echo "test-valgrind: passed, 0 valgrind errors in $nlogs processes (${secs}s)"
