#!/usr/bin/env bash
# Installs the Debian packages tools/build-deb.sh made, checks them from the
# outside and removes them again. For a throwaway machine (CI), as root.
#
# Usage: tools/test-deb.sh OUTDIR
#
#   1. apt-get install -y OUTDIR/*.deb (apt resolves their dependencies)
#   2. a small C program that decodes Shift_JIS 82 A0 to UTF-8 E3 81 82,
#      built against the installed package with
#        - pkg-config --cflags --libs wenc        (shared: libwenc.so.0)
#        - libwenc.a                              (static)
#        - a CMake project: find_package(wenc CONFIG), targets wenc::wenc
#          (shared) and wenc::wenc_static
#      each run and its output compared exactly;
#   3. the wenc tool: linked with the installed libwenc.so.0 (readelf -d
#      NEEDED, no RPATH or RUNPATH, ldd) and depending on libwenc0 (dpkg -s
#      wenc), --version, a conversion, man -w wenc (when man is installed)
#      and its bash completion;
#   4. apt-get purge -y of the packages it installed, and of any package apt
#      pulled in for them, also when a check failed: the machine is left with
#      the packages it had.
#
# Needs: apt-get, dpkg, a C compiler (cc), readelf, pkg-config and cmake; it installs
# none of them. Exit status: 0 when every check passed; 1 when one failed;
# 2 on a usage error; 77 when not root, a tool is missing or no .deb is in
# OUTDIR.
set -euo pipefail

usage() {
    echo "usage: $0 OUTDIR" >&2
    exit 2
}
[ $# -eq 1 ] || usage
[ -d "$1" ] || { echo "test-deb.sh: $1: not a directory" >&2; exit 2; }
OUTDIR=$(cd "$1" && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "test-deb.sh: needs root (it installs and removes packages)" >&2
    exit 77
fi
missing=
for tool in apt-get dpkg dpkg-deb dpkg-query cc readelf pkg-config cmake; do
    command -v "$tool" > /dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
    echo "test-deb.sh: missing:$missing" >&2
    exit 77
fi

shopt -s nullglob
debs=("$OUTDIR"/*.deb)
if [ ${#debs[@]} -eq 0 ]; then
    echo "test-deb.sh: no .deb in $OUTDIR (run tools/build-deb.sh $1 first)" >&2
    exit 77
fi

pkgs=()
version=
for d in "${debs[@]}"; do
    p=$(dpkg-deb -f "$d" Package)
    pkgs+=("$p")
    if [ "$p" = libwenc0 ]; then
        version=$(dpkg-deb -f "$d" Version)
    fi
    if dpkg-query -W -f '${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed; then
        echo "test-deb.sh: $p is already installed; remove it first" >&2
        exit 1
    fi
done
for p in libwenc0 libwenc-dev wenc; do
    case " ${pkgs[*]} " in
        *" $p "*) ;;
        *) echo "test-deb.sh: no $p package in $OUTDIR" >&2; exit 1 ;;
    esac
done
# The upstream version: the package version without epoch and revision.
upstream=${version#*:}
upstream=${upstream%-*}

installed_list() {
    dpkg-query -W -f '${db:Status-Status} ${binary:Package}\n' |
        awk '$1 == "installed" { print $2 }' | sort
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/wenc-test-deb.XXXXXX")
BEFORE="$TMP/before.txt"
installed_list > "$BEFORE"
did_install=0

cleanup() {
    local rc=$?
    set +e
    if [ "$did_install" = 1 ]; then
        echo "test-deb.sh: removing ${pkgs[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${pkgs[@]}"
        # Anything apt pulled in for the packages goes too.
        installed_list > "$TMP/after.txt"
        mapfile -t extra < <(comm -13 "$BEFORE" "$TMP/after.txt")
        if [ ${#extra[@]} -gt 0 ]; then
            echo "test-deb.sh: removing what came with them: ${extra[*]}"
            DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${extra[@]}"
        fi
        installed_list > "$TMP/after.txt"
        if ! cmp -s "$BEFORE" "$TMP/after.txt"; then
            echo "test-deb.sh: the installed packages differ from before:" >&2
            diff "$BEFORE" "$TMP/after.txt" >&2
            [ "$rc" -ne 0 ] || rc=1
        fi
    fi
    rm -rf "$TMP"
    if [ "$rc" -eq 0 ]; then
        echo "test-deb.sh: all checks passed"
    else
        echo "test-deb.sh: FAILED" >&2
    fi
    exit "$rc"
}
trap cleanup EXIT

# links_libwenc FILE: "shared" when FILE loads the installed libwenc.so.0
# (LIBDIR/libwenc.so.0, reached through /lib or /usr/lib), "none" when it
# needs no libwenc.so, "other: PATH" otherwise.
links_libwenc() {
    local deps path
    deps=$(ldd "$1")
    path=$(awk '$1 == "libwenc.so.0" { print $3 }' <<< "$deps")
    if [ -n "$path" ] && [ "$(readlink -f "$path")" = "$(readlink -f "$LIBDIR/libwenc.so.0")" ]; then
        echo shared
    elif grep -q libwenc <<< "$deps"; then
        echo "other: $(grep libwenc <<< "$deps" | tr -s ' \t' ' ')"
    else
        echo none
    fi
}

check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then
        echo "ok   $1"
    else
        echo "FAIL $1" >&2
        echo "     expected: $2" >&2
        echo "     actual:   $3" >&2
        exit 1
    fi
}

echo "test-deb.sh: apt-get install ${debs[*]##*/}"
did_install=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}"

# ---- a program against the installed library ---------------------------------

mkdir "$TMP/src"
cat > "$TMP/src/decode.c" <<'EOF'
#include <stdio.h>
#include <wenc.h>

int main(void) {
    static const uint8_t src[] = {0x82, 0xA0}; /* HIRAGANA LETTER A in Shift_JIS */
    uint8_t dst[16];
    size_t src_len = sizeof src, dst_len = sizeof dst;
    wenc_decoder dec;
    wenc_id id = wenc_lookup("shift_jis", 9);
    if (!wenc_decoder_init(&dec, id, WENC_BOM_SNIFF, WENC_ERRORS_FATAL))
        return 2;
    if (wenc_decode_to_utf8(&dec, src, &src_len, dst, &dst_len, true) != WENC_INPUT_EMPTY
        || src_len != sizeof src)
        return 3;
    printf("%s %s:", wenc_version(), wenc_name(id));
    for (size_t i = 0; i < dst_len; i++)
        printf(" %02X", dst[i]);
    putchar('\n');
    return 0;
}
EOF
expected="$upstream Shift_JIS: E3 81 82"
CFLAGS_STRICT="-std=c11 -Wall -Wextra -Wpedantic -Werror"

check 'pkg-config --modversion wenc' "$upstream" "$(pkg-config --modversion wenc)"
LIBDIR=$(pkg-config --variable=libdir wenc)
check 'pkg-config libdir holds libwenc.so.0' yes \
    "$([ -f "$LIBDIR/libwenc.so.0" ] && echo yes || echo no)"

# shellcheck disable=SC2046,SC2086 # pkg-config's output is split on purpose
cc $CFLAGS_STRICT -o "$TMP/decode_shared" "$TMP/src/decode.c" $(pkg-config --cflags --libs wenc)
check 'pkg-config, shared: output' "$expected" "$("$TMP/decode_shared")"
check 'pkg-config, shared: links the installed libwenc.so.0' shared \
    "$(links_libwenc "$TMP/decode_shared")"

# shellcheck disable=SC2046,SC2086
cc $CFLAGS_STRICT -DWENC_STATIC -o "$TMP/decode_static" "$TMP/src/decode.c" \
    $(pkg-config --cflags wenc) "$LIBDIR/libwenc.a"
check 'libwenc.a, static: output' "$expected" "$("$TMP/decode_static")"
check 'libwenc.a, static: no libwenc.so needed' none \
    "$(links_libwenc "$TMP/decode_static")"

cat > "$TMP/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(wenc_deb_test LANGUAGES C)
find_package(wenc 0.1 CONFIG REQUIRED)
add_executable(decode_cmake decode.c)
target_link_libraries(decode_cmake PRIVATE wenc::wenc)
add_executable(decode_cmake_static decode.c)
target_link_libraries(decode_cmake_static PRIVATE wenc::wenc_static)
EOF
cmake -S "$TMP/src" -B "$TMP/build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_FLAGS="$CFLAGS_STRICT" > "$TMP/cmake.log" 2>&1 ||
    { cat "$TMP/cmake.log" >&2; exit 1; }
cmake --build "$TMP/build" > "$TMP/cmake-build.log" 2>&1 ||
    { cat "$TMP/cmake-build.log" >&2; exit 1; }
check 'CMake wenc::wenc: output' "$expected" "$("$TMP/build/decode_cmake")"
check 'CMake wenc::wenc: links the installed libwenc.so.0' shared \
    "$(links_libwenc "$TMP/build/decode_cmake")"
check 'CMake wenc::wenc_static: no libwenc.so needed' none \
    "$(links_libwenc "$TMP/build/decode_cmake_static")"
check 'CMake wenc::wenc_static: output' "$expected" "$("$TMP/build/decode_cmake_static")"

# ---- the command-line tool ----------------------------------------------------

check 'wenc is /usr/bin/wenc' /usr/bin/wenc "$(command -v wenc)"
# The tool uses the library of libwenc0, not a copy of libwenc.a.
check 'readelf -d /usr/bin/wenc: NEEDED libwenc' 'libwenc.so.0' \
    "$(readelf -d /usr/bin/wenc | sed -n 's/.*(NEEDED).*\[\(libwenc[^]]*\)\]$/\1/p')"
check 'readelf -d /usr/bin/wenc: no RPATH or RUNPATH' '' \
    "$(readelf -d /usr/bin/wenc | grep -E '\((RPATH|RUNPATH)\)' || true)"
check 'wenc loads the installed libwenc.so.0' shared "$(links_libwenc /usr/bin/wenc)"
# Depends as dh_shlibdeps wrote it from debian/libwenc0.symbols, e.g.
# "libwenc0 (>= 0.1.0), libc6 (>= 2.34)": libwenc0, at a version no newer
# than the one installed.
wenc_depends=$(dpkg -s wenc | sed -n 's/^Depends: //p')
echo "     wenc Depends: $wenc_depends"
min=$(tr ',' '\n' <<< "$wenc_depends" | sed -n 's/^ *libwenc0 (>= \([^)]*\))$/\1/p')
check 'dpkg -s wenc: Depends on libwenc0 (>= V), V <= the installed version' yes \
    "$([ -n "$min" ] && dpkg --compare-versions "$min" le "$version" && echo yes || echo "no: $wenc_depends")"
check 'wenc --version' "wenc $upstream" "$(wenc --version)"
check 'wenc -f shift_jis -t utf-8' 'e3 81 82' \
    "$(printf '\202\240' | wenc -f shift_jis -t utf-8 | od -An -tx1 | tr -s ' ' | sed 's/^ //')"
if command -v man > /dev/null 2>&1; then
    check 'man -w wenc' /usr/share/man/man1/wenc.1.gz "$(man -w wenc)"
else
    echo "skip man -w wenc (no man)"
fi
check 'bash completion' 'complete -F _wenc wenc' \
    "$(bash -c '. /usr/share/bash-completion/completions/wenc && complete -p wenc')"
