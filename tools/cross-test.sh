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
#      under the emulator.
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
#     32 placements (it prints what it left out).
# Everything else runs as in the full mode.
#
# Installs nothing. Exit status: 0 passed; 1 a build or a test failed; 77 a
# tool is missing (nothing was run: the banner names the Debian packages), or
# some test skipped itself (the run went on; the skips are listed).
#
# Environment: CROSS_QUICK, JOBS (default nproc), WENC_DATA_DIR (the
# Standard's data, as for make), CMAKE, CTEST.

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
    T3=$(date +%s)
    echo "   $arch: build $((T1 - T0))s, tests $((T3 - T1))s (ctest $((T2 - T1))s), total $((T3 - T0))s"
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
