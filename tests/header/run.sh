#!/bin/sh
# tests/header/run.sh LIBWENC — the public header compiles cleanly in every
# language mode a user may pick, and programs built that way link and run.
#
#   sh tests/header/run.sh build/libwenc.a
#
# Run from the source root (ctest does). Compiles tests/header/consumer.c as
# C99, C11, C17 and C23 (-std=c2x) with gcc and clang, and
# tests/header/consumer.cpp as C++11 and C++17 with g++ and clang++, each with
# -Wall -Wextra -Wpedantic -Werror (C: also -Wstrict-prototypes), links it
# with LIBWENC and runs it; C11 is also compiled once with -DWENC_STATIC (the
# other branch of WENC_API). Each consumer checks exact results and prints
# nothing when they are right.
#
# A compiler that is not installed is skipped, loudly, and the others still
# run. Exit status: 0 passed with every compiler, 1 failed, 77 when a
# compiler (or all) was missing and the rest passed (1 for that too with
# WENC_TEST_REQUIRE_ALL=1). Set HEADER_CC / HEADER_CXX (space-separated) to
# choose the compilers.
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 LIBWENC" >&2
    exit 2
fi
lib=$1
[ -f "$lib" ] || { echo "header: no library at $lib" >&2; exit 1; }
[ -f include/wenc.h ] || { echo "header: run from the source root" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-header.XXXXXX")
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

warn="-Wall -Wextra -Wpedantic -Werror"
failed=0
ran=0
skipped=""

# try COMPILER LANGUAGE-FLAGS SOURCE: compile, link, run; report any failure.
try() {
    compiler=$1
    flags=$2
    source=$3
    exe=$tmp/consumer
    rm -f "$exe"
    # shellcheck disable=SC2086 # flags are word lists on purpose
    if ! "$compiler" $flags $warn -Iinclude "$source" "$lib" -o "$exe" >"$tmp/log" 2>&1; then
        echo "header: FAILED: $compiler $flags $warn: $source does not compile or link:" >&2
        sed 's/^/    /' "$tmp/log" >&2
        failed=$((failed + 1))
        return
    fi
    if [ -s "$tmp/log" ]; then
        echo "header: FAILED: $compiler $flags: the compiler printed:" >&2
        sed 's/^/    /' "$tmp/log" >&2
        failed=$((failed + 1))
        return
    fi
    if ! "$exe" >"$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
        echo "header: FAILED: the program built by $compiler $flags failed or printed:" >&2
        sed 's/^/    /' "$tmp/out" >&2
        failed=$((failed + 1))
        return
    fi
    ran=$((ran + 1))
}

for cc in ${HEADER_CC:-gcc clang}; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        skipped="$skipped $cc"
        continue
    fi
    for std in c99 c11 c17 c2x; do
        try "$cc" "-std=$std -Wstrict-prototypes" tests/header/consumer.c
    done
    try "$cc" "-std=c11 -Wstrict-prototypes -DWENC_STATIC" tests/header/consumer.c
done

for cxx in ${HEADER_CXX:-g++ clang++}; do
    if ! command -v "$cxx" >/dev/null 2>&1; then
        skipped="$skipped $cxx"
        continue
    fi
    for std in c++11 c++17; do
        try "$cxx" "-std=$std" tests/header/consumer.cpp
    done
done

# banner LINE...: a framed notice nobody scrolling past can miss.
banner() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
    for line in "$@"; do echo "!! $line" >&2; done
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
}
for s in $skipped; do
    banner "SKIPPED: tests/header/run.sh: $s is not installed: the header was not compiled with it"
done
if [ "$failed" -ne 0 ]; then
    echo "header: $failed of $((failed + ran)) builds failed" >&2
    exit 1
fi
if [ "$ran" -eq 0 ]; then
    banner "SKIPPED: tests/header/run.sh: no compiler found (tried ${HEADER_CC:-gcc clang} ${HEADER_CXX:-g++ clang++})"
fi
echo "header: $ran builds of the consumers compiled cleanly, linked and ran"
# A compiler that is not installed is a part not checked: the test is
# skipped, not passed (and fails where WENC_TEST_REQUIRE_ALL=1 asks for all).
if [ -n "$skipped" ] || [ "$ran" -eq 0 ]; then
    if [ "${WENC_TEST_REQUIRE_ALL:-}" = 1 ]; then
        echo "header: FAILED: not installed:$skipped, and WENC_TEST_REQUIRE_ALL=1 requires every compiler" >&2
        exit 1
    fi
    exit 77
fi
