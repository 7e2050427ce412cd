#!/bin/sh
# tools/cross-test.sh — the test suite built for other architectures and run
# under qemu's user-mode emulator.
#
#   tools/cross-test.sh [aarch64|s390x|all]      (default: all)
#
# aarch64 is a second architecture where char is unsigned and no x86 kernel
# is compiled, so the portable paths are what runs; s390x adds big-endian
# (UTF-16 in native order, every table and word read without a byte-order
# assumption). For each ARCH it configures build-cross-ARCH/ with
# cmake/toolchains/ARCH-linux-gnu.cmake (Release, the Node.js test off),
# builds, and runs:
#   1. the tests registered with ctest, -j$JOBS, each test executable under
#      the emulator (the toolchain file sets CMAKE_CROSSCOMPILING_EMULATOR,
#      which ctest puts in front of a test whose command is a target);
#   2. tests/cli/run.sh and tests/examples/run.sh, at the same time. ctest
#      would start those with sh and the real wenc, which the kernel cannot
#      run without binfmt_misc, so they run here instead, given wrappers
#      (build-cross-ARCH/qemu-bin/) that exec wenc and the example programs
#      under the emulator;
#   3. once ctest is done, while the suites of step 2 may still run (one
#      process at a time), the fuzz targets, fuzz/fuzz_*.c but fuzz_diff
#      (their output is printed after the suites'): each built with the
#      cross compiler and fuzz/common.c against build-cross-ARCH/libwenc.a,
#      linked with fuzz/standalone.c (a driver that needs no libFuzzer, whose
#      runtime exists for x86 only here) into build-cross-ARCH/fuzz/, and run
#      under the emulator, $JOBS at a time: each replays its seeds
#      (fuzz/corpus/TARGET/) and regressions (fuzz/regressions/TARGET/),
#      then runs inputs mutated from them for $FUZZ_SECONDS seconds, from one
#      seed ($FUZZ_SEED) printed for all. A broken invariant, a crash or an
#      input running 60 s fails the run: the script prints the failing input
#      (kept as build-cross-ARCH/fuzz/crash-TARGET-SEED), its hex and the
#      commands that rerun it, and that make it again from the seed.
#      fuzz_diff is not built (a REDUCED line says so): it links encoding_rs
#      through a Rust static library (fuzz/diff_oracle) built for the host
#      only; the native `make fuzz` runs it.
# Not run: the test 'header' (it builds consumers of wenc.h with the host's
# gcc/clang and runs them: the native suite's business), 'node' (not
# registered: WENC_TEST_NODE=OFF), 'python' (not registered either:
# WENC_TEST_PYTHON=OFF; the host's interpreter cannot load the target's
# library). The script names what it leaves out.
#
# CROSS_QUICK=1, the mode for CI (an emulated run of everything takes some
# minutes per architecture on a 2-core machine), reduces the run, and says
# so on REDUCED lines:
#   - the _portable and _avx2 builds of the SIMD tests (tests/simd_level.h)
#     are neither built nor run. Off x86 no AVX kernel is compiled, so the
#     _avx2 ones test the very code of the plain build, and so do the
#     _portable ones on s390x (the full mode checks this there: their
#     libraries' objects are identical); on aarch64 the _portable ones run
#     the scalar paths without its NEON kernels, the paths s390x runs;
#   - tests/test_utf8_long.c gets WENC_TEST_QUICK=1: each probe at 8 of its
#     32 placements (it prints what it left out);
#   - each fuzz target runs 5 s of mutated inputs instead of 20 (FUZZ_SECONDS).
# Everything else runs as in the full mode.
#
# Installs nothing. Exit status: 0 passed; 1 a build or a test failed; 77 a
# tool is missing (nothing was run: the banner names the Debian packages), or
# some test skipped itself (the run went on; the skips are listed).
#
# Environment: CROSS_QUICK, JOBS (default nproc), WENC_DATA_DIR (the
# Standard's data, as for make), CMAKE, CTEST; FUZZ_SECONDS (each fuzz
# target's mutated inputs: default 20, 5 with CROSS_QUICK; 0 replays the
# files only), FUZZ_SEED (default: random, printed; the same seed makes the
# same inputs in the same order), FUZZ_MAX_LEN (default 4096).

set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
CMAKE=${CMAKE:-cmake}
CTEST=${CTEST:-ctest}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
case ${CROSS_QUICK:-0} in
    ''|0) QUICK= ;;
    *) QUICK=1 ;;
esac
FUZZ_SECONDS=${FUZZ_SECONDS:-${QUICK:+5}}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
FUZZ_SEED=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom 2> /dev/null | tr -d ' ')}
FUZZ_SEED=${FUZZ_SEED:-$(date +%s)}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-4096}
for value in "$FUZZ_SECONDS" "$FUZZ_SEED" "$FUZZ_MAX_LEN"; do
    case $value in
        ''|*[!0-9]*) echo "tools/cross-test.sh: FUZZ_SECONDS, FUZZ_SEED and FUZZ_MAX_LEN are numbers" >&2; exit 2 ;;
    esac
done

usage() {
    echo "usage: tools/cross-test.sh [aarch64|s390x|all]" >&2
    exit 2
}

[ $# -le 1 ] || usage
case ${1:-all} in
    aarch64) ARCHES=aarch64 ;;
    s390x) ARCHES=s390x ;;
    all) ARCHES="aarch64 s390x" ;;
    *) usage ;;
esac

# arch_info ARCH: sets TRIPLE, QEMU, SYSROOT, LOADER (the target's dynamic
# loader, under SYSROOT), DEB (the Debian packages), ELF_DATA and ELF_MACHINE
# (the ELF header's byte order and e_machine that its programs must have).
arch_info() {
    case $1 in
        aarch64)
            TRIPLE=aarch64-linux-gnu QEMU=qemu-aarch64
            LOADER=lib/ld-linux-aarch64.so.1
            DEB="gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
            ELF_DATA=1 ELF_MACHINE=183 ;;
        s390x)
            TRIPLE=s390x-linux-gnu QEMU=qemu-s390x
            LOADER=lib/ld64.so.1
            DEB="gcc-s390x-linux-gnu libc6-dev-s390x-cross"
            ELF_DATA=2 ELF_MACHINE=22 ;;
    esac
    SYSROOT=/usr/$TRIPLE
}

# ---- tools: all of them, for every ARCH asked for, before anything runs ----

missing=""
packages=""
need() { # need WHAT PACKAGE
    missing="$missing
!!   $1"
    case " $packages " in *" $2 "*) ;; *) packages="$packages $2" ;; esac
}
command -v "$CMAKE" > /dev/null 2>&1 || need "$CMAKE" cmake
command -v "$CTEST" > /dev/null 2>&1 || need "$CTEST" cmake
for arch in $ARCHES; do
    arch_info "$arch"
    command -v "$TRIPLE-gcc" > /dev/null 2>&1 || need "$TRIPLE-gcc" "${DEB% *}"
    [ -f "$SYSROOT/include/stdio.h" ] && [ -e "$SYSROOT/$LOADER" ] \
        || need "the $arch C library and headers in $SYSROOT" "${DEB#* }"
    command -v "$QEMU" > /dev/null 2>&1 || need "$QEMU" qemu-user
done
if [ -n "$missing" ]; then
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! SKIPPED: cross-test $ARCHES: missing:$missing"
    echo "!! Debian: apt-get install --no-install-recommends$packages"
    echo "!! Nothing was built or run; this is NOT a pass."
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    exit 77
fi

# ---- helpers ------------------------------------------------------------

# shellcheck disable=SC2046 # the header's bytes are split into words on purpose
# elf_header FILE: "DATA MACHINE" from FILE's ELF header (EI_DATA, e_machine
# read in that byte order), or nothing when FILE is not ELF.
elf_header() {
    set -- $(od -An -tu1 -N20 "$1" 2> /dev/null)
    [ $# -eq 20 ] && [ "$1" -eq 127 ] && [ "$2" -eq 69 ] || return 0
    if [ "$6" -eq 2 ]; then
        echo "2 $(( ${19} * 256 + ${20} ))"
    else
        echo "$6 $(( ${20} * 256 + ${19} ))"
    fi
}

# wrap PROGRAM WRAPPER: a script that execs PROGRAM under the emulator
# ($EMULATOR: its words, one a line).
wrap() {
    {
        echo '#!/bin/sh'
        printf 'exec'
        printf '%s\n' "$EMULATOR" | while IFS= read -r word; do
            printf " '%s'" "$word"
        done
        printf " '%s' \"\$@\"\n" "$1"
    } > "$2" && chmod +x "$2"
}

# same_objects LIB1 LIB2: the two archives hold the same object files, byte
# for byte.
same_objects() {
    rm -rf "$B/objcmp" && mkdir -p "$B/objcmp/1" "$B/objcmp/2" || return 1
    (cd "$B/objcmp/1" && ar x "$1") && (cd "$B/objcmp/2" && ar x "$2") || return 1
    [ -n "$(ls "$B/objcmp/1")" ] && diff -r "$B/objcmp/1" "$B/objcmp/2" > /dev/null
    rc=$?
    rm -rf "$B/objcmp"
    return $rc
}

# hex FILE: its bytes in hex, the first 256 of them when there are more.
hex() {
    size=$(wc -c < "$1" | tr -d ' ')
    od -An -tx1 -v -N256 "$1" | tr -d '\n' | sed 's/^ *//'
    [ "$size" -gt 256 ] && printf ' ... (%s bytes in all: see the file)' "$size"
    echo
}

# run_fuzz: step 3 for $arch (see the top). Sets fuzz_failed to the
# targets that failed, "build" when the build did.
run_fuzz() {
    fuzz_failed=""
    F=$B/fuzz
    if ! { rm -rf "$F" && mkdir -p "$F"; }; then
        fuzz_failed=build
        return
    fi
    targets=""
    for src in "$ROOT"/fuzz/fuzz_*.c; do
        [ -f "$src" ] || continue
        name=${src##*/}
        name=${name%.c}
        [ "$name" = fuzz_diff ] && continue
        targets="$targets ${name#fuzz_}"
    done
    [ -n "$targets" ] || { echo "   FAILED: no fuzz targets in fuzz/"; fuzz_failed=build; return; }
    # shellcheck disable=SC2086 # one word a target
    echo "== $arch: fuzz targets ($(echo $targets | tr ' ' ',')) with fuzz/standalone.c:" \
        "${FUZZ_SECONDS}s of mutated inputs each, $JOBS at a time, -seed=$FUZZ_SEED" \
        "(FUZZ_SEED=$FUZZ_SEED makes the same inputs)"
    echo "   REDUCED: fuzz_diff is not built or run: it links encoding_rs through a Rust static library" \
        "(fuzz/diff_oracle) built for the host (x86-64) only; the native 'make fuzz' runs it"
    # The compiler the toolchain file sets: WENC_CROSS_PREFIX's gcc.
    cc=$(sed -n 's/^WENC_CROSS_PREFIX:[A-Z]*=//p' "$B/CMakeCache.txt")gcc
    cflags="-std=c11 -O2 -g -Wall -Wextra -Wpedantic -Werror -DWENC_STATIC -I$ROOT/include -I$ROOT/src -I$ROOT/fuzz"

    # The shared objects, then each target (compiled and linked), $JOBS at
    # a time; a failure leaves NAME.failed and its messages in NAME.log.
    t0=$(date +%s)
    compile() { # compile WHAT...: common, standalone (objects), or targets
        # shellcheck disable=SC2016 # expanded by the sh that xargs starts
        printf '%s\n' "$@" | xargs -P "$JOBS" -n 1 sh -c '
            root=$1 f=$2 cc=$3 cflags=$4 lib=$5 what=$6
            case $what in
                common|standalone)
                    set -- -c "$root/fuzz/$what.c" -o "$f/$what.o" ;;
                *)
                    set -- "$root/fuzz/fuzz_$what.c" "$f/common.o" "$f/standalone.o" "$lib" -o "$f/fuzz_$what" ;;
            esac
            "$cc" $cflags "$@" > "$f/$what.log" 2>&1 || touch "$f/$what.failed"
        ' sh "$ROOT" "$F" "$cc" "$cflags" "$B/libwenc.a"
    }
    compile common standalone
    # shellcheck disable=SC2086 # one word a target
    ls "$F"/*.failed > /dev/null 2>&1 || compile $targets
    if ls "$F"/*.failed > /dev/null 2>&1; then
        for marker in "$F"/*.failed; do
            what=${marker##*/}
            what=${what%.failed}
            echo "-- $cc $cflags ... ($what): FAILED"
            cat "$F/$what.log"
        done
        echo "   FAILED: building the fuzz targets with $cc (fuzz/standalone.c, fuzz/common.c, $B/libwenc.a)"
        fuzz_failed=build
        return
    fi
    # shellcheck disable=SC2086 # one word a target
    got=$(elf_header "$F/fuzz_$(printf '%s\n' $targets | sed -n 1p)")
    if [ "$got" != "$ELF_DATA $ELF_MACHINE" ]; then
        echo "   FAILED: the fuzz targets are not $arch programs (ELF data, machine: '$got')"
        fuzz_failed=build
        return
    fi
    t1=$(date +%s)
    echo "   built with $cc in $((t1 - t0))s"

    # Each target under the emulator, through a wrapper in qemu-bin/ that
    # also reruns it by hand. (wait names the runs: the suites of step 2
    # are this shell's children too.)
    pids=""
    for t in $targets; do
        wrap "$F/fuzz_$t" "$WRAP/fuzz_$t" || { fuzz_failed="$fuzz_failed $t"; continue; }
        set -- "$ROOT/fuzz/corpus/$t"
        [ -d "$ROOT/fuzz/regressions/$t" ] && set -- "$@" "$ROOT/fuzz/regressions/$t"
        (
            # No core file from the emulator (dash and bash have -c).
            # shellcheck disable=SC3045
            ulimit -c 0 2> /dev/null
            "$WRAP/fuzz_$t" -seed="$FUZZ_SEED" -max_total_time="$FUZZ_SECONDS" -max_len="$FUZZ_MAX_LEN" \
                -timeout=60 -input_file="$F/fuzz_$t.input" "$@" > "$F/fuzz_$t.out" 2>&1
            echo $? > "$F/fuzz_$t.rc"
        ) &
        pids="$pids $!"
        # shellcheck disable=SC2086 # one word a pid
        if [ "$(echo $pids | wc -w)" -ge "$JOBS" ]; then
            wait $pids
            pids=""
        fi
    done
    # shellcheck disable=SC2086
    [ -z "$pids" ] || wait $pids

    for t in $targets; do
        case " $fuzz_failed " in *" $t "*) continue ;; esac # not started
        rc=$(cat "$F/fuzz_$t.rc" 2> /dev/null || echo "none: the run did not finish")
        out=$F/fuzz_$t.out
        if [ "$rc" = 0 ]; then
            replayed=$(sed -n 's/^standalone: replayed \([0-9]*\) files.*/\1/p' "$out")
            mutated=$(sed -n 's/^standalone: \([0-9]*\) mutated inputs in [^(]*(\([0-9]*\/s\)), mean length \([0-9]*\), longest \([0-9]*\);.*/\1 mutated inputs (\2, mean length \3, longest \4)/p' "$out")
            echo "   fuzz_$t: replayed ${replayed:-?} files, ${mutated:-? mutated inputs}"
            continue
        fi
        fuzz_failed="$fuzz_failed $t"
        crash=$F/crash-fuzz_$t-$FUZZ_SEED
        cp "$F/fuzz_$t.input" "$crash" 2> /dev/null
        echo "-- fuzz_$t FAILED on $arch (exit $rc), -seed=$FUZZ_SEED; its output ($out), the last 40 lines:"
        # The driver names its program as the emulator saw it: say the
        # wrapper instead, which runs on this machine.
        tail -n 40 "$out" | sed "s|$F/fuzz_$t |$WRAP/fuzz_$t |g" | sed 's/^/   | /'
        if [ -f "$crash" ]; then
            echo "   the input ($(wc -c < "$crash" | tr -d ' ') bytes), kept as $crash:"
            echo "   hex: $(hex "$crash")"
            echo "   rerun it here: $WRAP/fuzz_$t $crash"
            echo "   (the libFuzzer build reads it too: $ROOT/build-fuzz/fuzz_$t $crash after 'make fuzz')"
        fi
    done
    t2=$(date +%s)
    echo "   fuzz: $((t2 - t0))s (build $((t1 - t0))s, runs $((t2 - t1))s)"
}

failed=""
skips=""
summary=""

# ---- one architecture -----------------------------------------------------

run_arch() {
    arch=$1
    arch_info "$arch"
    B=$ROOT/build-cross-$arch
    T0=$(date +%s)
    afailed=""
    echo "== $arch: configure and build $B${QUICK:+ (CROSS_QUICK=1)}"
    set -- -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/$TRIPLE.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DWENC_TEST_NODE=OFF -DWENC_TEST_PYTHON=OFF -DWENC_SANITIZE=OFF \
        -DWENC_TEST_TIMEOUT=1200
    if [ -n "${WENC_DATA_DIR:-}" ]; then
        set -- "$@" "-DWENC_DATA_DIR=$(cd "$WENC_DATA_DIR" 2> /dev/null && pwd || echo "$WENC_DATA_DIR")"
    fi
    mkdir -p "$B" || return 1
    if ! "$CMAKE" -S "$ROOT" -B "$B" "$@" > "$B/configure.log" 2>&1; then
        cat "$B/configure.log"
        echo "   FAILED: configure"
        failed="$failed $arch(configure)"
        return 1
    fi
    all_tests=$(cd "$B" && "$CTEST" -N | sed -n 's/^ *Test *#[0-9]*: //p')
    variants=$(printf '%s\n' "$all_tests" | grep -E '_(portable|avx2)$')
    # The variants whose code differs from the plain build's here: the
    # portable one where NEON kernels are compiled (aarch64).
    case $arch in
        aarch64) own=portable ;;
        *) own= ;;
    esac

    # Quick: every target but the duplicate builds of the SIMD tests (and
    # their libraries); each tests/test_NAME.c is the target test_NAME (whose
    # ctest tests may be more than one: NAME and NAME_data).
    if [ -n "$QUICK" ]; then
        set -- wenc wenc_static wenc_shared
        for src in "$ROOT"/examples/c/*.c; do
            [ -f "$src" ] || continue
            name=${src##*/}
            set -- "$@" "example_${name%.c}"
        done
        for src in "$ROOT"/tests/test_*.c; do
            [ -f "$src" ] || continue
            name=${src##*/}
            set -- "$@" "${name%.c}"
        done
        build_what="--target $*"
    else
        set --
        build_what="all"
    fi
    if ! "$CMAKE" --build "$B" -j"$JOBS" ${1:+--target} "$@" > "$B/build.log" 2>&1; then
        cat "$B/build.log"
        echo "   FAILED: build ($build_what)"
        failed="$failed $arch(build)"
        return 1
    fi
    T1=$(date +%s)
    echo "   configured and built in $((T1 - T0))s"

    # Target code or nothing: the tools and the tests are the ARCH's ELF.
    for exe in "$B/wenc" "$B/tests/test_utf16"; do
        got=$(elf_header "$exe")
        if [ "$got" != "$ELF_DATA $ELF_MACHINE" ]; then
            echo "   FAILED: $exe is not a $arch program (ELF data, machine: '$got'; want '$ELF_DATA $ELF_MACHINE')"
            failed="$failed $arch(not-$arch)"
            return 1
        fi
    done
    [ "$ELF_DATA" = 2 ] && order=big-endian || order=little-endian
    echo "   programs are $arch ELF ($order, e_machine $ELF_MACHINE)"

    # The emulator, from the cache (the toolchain file's, or a -D override).
    EMULATOR=$(sed -n 's/^CMAKE_CROSSCOMPILING_EMULATOR:[A-Z]*=//p' "$B/CMakeCache.txt" | tr ';' '\n')
    first=$(printf '%s\n' "$EMULATOR" | sed -n 1p)
    if full=$(command -v "$first"); then
        EMULATOR=$(printf '%s\n' "$EMULATOR" | sed "1s|.*|$full|")
    fi
    WRAP=$B/qemu-bin
    rm -rf "$WRAP" && mkdir -p "$WRAP/examples" || return 1
    wrap "$B/wenc" "$WRAP/wenc" || return 1
    for prog in "$B"/examples/*; do
        [ -f "$prog" ] && [ -x "$prog" ] || continue
        wrap "$prog" "$WRAP/examples/${prog##*/}" || return 1
    done
    if ! version=$("$WRAP/wenc" --version 2>&1); then
        echo "$version"
        echo "   FAILED: wenc --version under the emulator ($(printf '%s\n' "$EMULATOR" | tr '\n' ' ' | sed 's/ $//'))"
        failed="$failed $arch(emulator)"
        return 1
    fi
    echo "   under $(printf '%s\n' "$EMULATOR" | tr '\n' ' ' | sed 's/ $//'): $version"

    # What ctest runs, and what it does not.
    ctest_list=$(printf '%s\n' "$all_tests" | grep -v -E '^(cli|examples|header|node)$')
    not_run=$(printf '%s\n' "$all_tests" | grep -E '^(header|node)$' | tr '\n' ' ')
    [ -n "$not_run" ] && echo "   not run: $not_run(built and run by the host's compilers / Node.js: the native suite runs them)"
    if [ -n "$QUICK" ] && [ -n "$variants" ]; then
        ctest_list=$(printf '%s\n' "$ctest_list" | grep -v -E '_(portable|avx2)$')
        echo "   REDUCED (CROSS_QUICK): not built or run, the plain tests' code here${own:+" (but the _$own ones: the scalar paths without NEON, which s390x runs)"}:" \
            "$(printf '%s\n' "$variants" | tr '\n' ' ')"
    elif [ -n "$variants" ]; then
        # The claim the quick mode rests on, checked where both libraries
        # are built (same flags but the variant's define): where it skips
        # both variants, they are the same code.
        if [ -z "$own" ] && [ -f "$B/libwenc_portable.a" ] && [ -f "$B/libwenc_avx2.a" ]; then
            if same_objects "$B/libwenc_portable.a" "$B/libwenc_avx2.a"; then
                echo "   libwenc_portable.a and libwenc_avx2.a hold identical objects (no kernel for $arch)"
            else
                echo "!! libwenc_portable.a and libwenc_avx2.a differ on $arch: CROSS_QUICK's reason to skip their tests no longer holds"
                afailed="$afailed variants-differ"
            fi
        elif [ -n "$own" ]; then
            echo "   the _$own variants are other code on $arch (its NEON kernels off): run here, skipped by CROSS_QUICK"
        fi
    fi
    [ -n "$ctest_list" ] || { echo "   FAILED: no tests registered"; failed="$failed $arch(no-tests)"; return 1; }
    regex="^($(printf '%s\n' "$ctest_list" | tr '\n' '|' | sed 's/|$//'))\$"

    # The shell suites in the background, ctest in the foreground.
    rm -f "$B/cli.rc" "$B/examples.rc"
    WENC_SOURCE_DIR=$ROOT WENC_CLI=$WRAP/wenc WENC_EXAMPLES_DIR=$WRAP/examples \
    WENC_DATA_DIR=$(sed -n 's/^WENC_DATA_DIR:PATH=//p' "$B/CMakeCache.txt") \
    sh -c '
        for suite in cli examples; do
            [ -f "$0/tests/$suite/run.sh" ] || continue
            t0=$(date +%s)
            sh "$0/tests/$suite/run.sh" "$1/wenc" > "$2/$suite.out" 2>&1
            echo "$? $(( $(date +%s) - t0 ))" > "$2/$suite.rc"
        done' "$ROOT" "$WRAP" "$B" &
    suites=$!

    echo "== $arch: ctest -j$JOBS ($(printf '%s\n' "$ctest_list" | grep -c .) tests), tests/cli and tests/examples beside it"
    {
        (cd "$B" && env ${QUICK:+WENC_TEST_QUICK=1} \
            "$CTEST" --output-on-failure -j"$JOBS" -R "$regex")
        echo $? > "$B/ctest.rc"
    } | tee "$B/ctest.out"
    [ "$(cat "$B/ctest.rc")" = 0 ] || afailed="$afailed ctest"
    T2=$(date +%s)
    # What tests said they skipped or reduced (that this ARCH has no
    # vector kernel, which every SIMD test notes, is counted, not repeated).
    log=$B/Testing/Temporary/LastTest.log
    x86_note='this build compiles no vector kernel'
    grep -h -E 'REDUCED|SKIPPED' "$log" 2> /dev/null \
        | grep -v -E "$x86_note" | sed 's/^/   /'
    nokernel=$(grep -c -E "$x86_note" "$log" 2> /dev/null)
    [ "${nokernel:-0}" -gt 0 ] && echo "   ($nokernel tests note that no x86 kernel is compiled for $arch: the portable paths are tested)"
    # A test that skipped itself (exit 77) is no pass.
    if grep -q -E '\*\*\*(Skipped|Not Run)' "$B/ctest.out"; then
        skips="$skips $arch(ctest)"
    fi

    # The fuzz targets after ctest (they would slow it), while tests/cli
    # (one process at a time) still runs: they use the other cores.
    run_fuzz > "$B/fuzz.out" 2>&1
    TF=$(date +%s)

    wait "$suites"
    for suite in cli examples; do
        [ -f "$ROOT/tests/$suite/run.sh" ] || continue
        if [ ! -f "$B/$suite.rc" ]; then
            echo "   FAILED: tests/$suite/run.sh did not finish"
            afailed="$afailed $suite"
            continue
        fi
        read -r rc secs < "$B/$suite.rc"
        # 77: every case that ran passed, some could not run (listed below)
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
            echo "-- tests/$suite/run.sh (exit $rc):"
            grep -v '^ok ' "$B/$suite.out"
            afailed="$afailed $suite"
        else
            echo "   tests/$suite: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$B/$suite.out" | tail -n 1) (${secs}s)"
        fi
        if [ "$rc" -eq 77 ] || grep -q '^SKIPPED ' "$B/$suite.out"; then
            grep '^SKIPPED ' "$B/$suite.out" | sed 's/^/   /'
            skips="$skips $arch($suite)"
        fi
    done
    # What the fuzz targets printed (they ran while the suites did).
    cat "$B/fuzz.out"
    [ -n "$fuzz_failed" ] && afailed="$afailed fuzz(${fuzz_failed# })"
    T3=$(date +%s)
    echo "   $arch: build $((T1 - T0))s, tests $((T3 - T1))s (ctest $((T2 - T1))s, then fuzz $((TF - T2))s beside the suites), total $((T3 - T0))s"
    if [ -n "$afailed" ]; then
        failed="$failed $arch(${afailed# })"
        summary="$summary $arch:FAILED($((T3 - T0))s)"
    else
        summary="$summary $arch:passed($((T3 - T0))s)"
    fi
}

START=$(date +%s)
for arch in $ARCHES; do
    run_arch "$arch"
done
secs=$(( $(date +%s) - START ))
mode=${QUICK:+quick (CROSS_QUICK=1)}
mode=${mode:-full}
if [ -n "$failed" ]; then
    echo "cross-test: FAILED:$failed (${secs}s, $mode)"
    exit 1
fi
if [ -n "$skips" ]; then
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! cross-test: nothing failed, but tests skipped themselves:$skips"
    echo "!! (see the SKIPPED and skip lines above); exit 77, NOT a pass."
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    exit 77
fi
echo "cross-test: passed:$summary (${secs}s, $mode)"
