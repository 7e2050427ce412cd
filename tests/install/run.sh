#!/bin/sh
# tests/install/run.sh [BUILD] — wenc installs like a C library, and programs
# outside the source tree build against it every way a user would.
#
#   sh tests/install/run.sh          (or: make test-install)
#
# BUILD (default build/) is the configured build directory to install from;
# it is brought up to date first. In a temporary directory, this
#   1. runs `make install` with PREFIX and DESTDIR (a staged install), checks
#      the staged files and the pkg-config prefix, then `make uninstall` with
#      the same DESTDIR, which must leave no file;
#   2. runs `cmake --install BUILD --prefix P` and checks P's files exactly:
#      the list, the SONAME libwenc.so.MAJOR and its symbolic links, the
#      header, man page and completion, the CLI's version;
#   3. builds tests/install/consumer.c against P the ways README.md's "Using
#      the library from your project" says, and runs every program:
#      a. pkg-config (PKG_CONFIG_PATH=P's): linked with libwenc.so and an
#         rpath (-Wl,-rpath,P/lib), run without LD_LIBRARY_PATH; linked with
#         libwenc.so alone, run with LD_LIBRARY_PATH=P/lib; statically,
#         -DWENC_STATIC and P/lib/libwenc.a by name (pkg-config --static
#         --libs is only -lwenc: checked too);
#      b. find_package(wenc CONFIG) (CMAKE_PREFIX_PATH=P), then that project
#         installed: its wenc::wenc program without an install rpath runs
#         with LD_LIBRARY_PATH, the one with INSTALL_RPATH_USE_LINK_PATH
#         without;
#      c-d. against the source tree with add_subdirectory and with
#         FetchContent (from an archive of the source tree);
#      each linked once dynamically (wenc::wenc; checked with readelf and ldd
#      to load libwenc.so.MAJOR from P, or from the consumer's build of wenc;
#      run without LD_LIBRARY_PATH unless said) and once statically
#      (wenc::wenc_static; readelf: no libwenc.so needed);
#   4. in that archive's tree, README.md's build without the tests,
#      `cmake -S . -B build -DWENC_BUILD_TESTS=OFF && cmake --build build`:
#      the library and the CLI, no test; its install has the files of 2;
#      then the same build with -DWENC_CLI_SHARED=ON, installed in another
#      prefix: its bin/wenc needs libwenc.so.MAJOR, finds it through the
#      rpath $ORIGIN/../LIBDIR and runs;
#   5. runs `make uninstall`, which must remove every file it installed in P
#      and nothing else (files put in P beforehand stay).
# BUILD/install_manifest.txt, which `make uninstall` reads, is put back as it
# was. INSTALL_TEST_KEEP=1 keeps the temporary directory (it is named at the
# end). Quiet on success but for one line; on failure says which check failed
# with the tail of its log. Exit status: 0 passed, 1 failed, 77 when a tool
# it needs is missing (cmake, a C compiler, readelf; without pkg-config or
# tar, the rest runs and the status is 77).
set -u
# A DESTDIR from the caller would move every install below it.
unset DESTDIR

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
make=${MAKE:-make}
cc=${CC:-cc}
jobs=${JOBS:-2}

say() { echo "install test: $*" >&2; }
# banner LINE...: a framed notice nobody scrolling past can miss.
banner() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
    for line in "$@"; do echo "!! $line" >&2; done
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
}
skip() { banner "SKIPPED: tests/install/run.sh: $*" "Nothing was installed or checked."; exit 77; }

command -v cmake >/dev/null 2>&1 || skip "cmake not found"
command -v "$cc" >/dev/null 2>&1 || skip "no C compiler '$cc' (set CC)"
command -v readelf >/dev/null 2>&1 || skip "readelf not found (binutils)"
command -v "$make" >/dev/null 2>&1 || skip "make not found"
have_ldd=yes
command -v ldd >/dev/null 2>&1 || have_ldd=no

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-install.XXXXXX")
manifest=$build/install_manifest.txt
restore() {
    if [ -f "$tmp/manifest.saved" ]; then
        cp "$tmp/manifest.saved" "$manifest"
    elif [ -f "$tmp/manifest.absent" ]; then
        rm -f "$manifest"
    fi
    if [ -n "${INSTALL_TEST_KEEP:-}" ]; then
        say "kept $tmp"
    else
        rm -rf "$tmp"
    fi
}
trap restore EXIT
trap 'exit 1' HUP INT TERM

failures=0
skipped=""
checks=0

# fail WHAT [LOG]: report a failed check with the end of its log.
fail() {
    say "FAILED: $1"
    if [ $# -ge 2 ] && [ -s "$2" ]; then
        tail -n 40 "$2" | sed 's/^/    /' >&2
    fi
    failures=$((failures + 1))
}
# ok: count a passed check.
ok() { checks=$((checks + 1)); }
# step NAME COMMAND...: run quietly into $tmp/NAME.log; fail with the log.
step() {
    step_name=$1
    shift
    if "$@" >"$tmp/$step_name.log" 2>&1; then
        ok
        return 0
    fi
    fail "$step_name: $*" "$tmp/$step_name.log"
    return 1
}
# abort: a failure the rest cannot go on from.
abort() {
    say "$failures check(s) failed; stopping"
    exit 1
}
# files DIR: the files and symbolic links under DIR, relative, sorted.
files() {
    (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort)
}
# expect_same WHAT EXPECTED ACTUAL
expect_same() {
    if [ "$2" = "$3" ]; then
        ok
    else
        say "FAILED: $1"
        printf '%s\n' "    expected: $2" "    actual:   $3" >&2
        failures=$((failures + 1))
    fi
}
# needs_libwenc EXE: 0 when EXE's dynamic section asks for libwenc.so.MAJOR.
needs_libwenc() {
    readelf -d "$1" 2>/dev/null | grep -q "(NEEDED).*\[libwenc\.so\.$major\]"
}
# check_linkage WHAT EXE KIND [LIBDIR [LD_LIBRARY_PATH]]: KIND shared needs
# libwenc.so.MAJOR, resolved by ldd in LIBDIR; static needs no libwenc at
# all. Then EXE must run silently and exit 0. Both ldd and EXE run with
# LD_LIBRARY_PATH when it is given, and with none otherwise (the caller's
# would hide a missing rpath).
check_linkage() {
    what=$1 exe=$2 kind=$3 libdir=${4:-} ldpath=${5:-}
    if [ -n "$ldpath" ]; then
        run_env="env LD_LIBRARY_PATH=$ldpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    else
        run_env="env -u LD_LIBRARY_PATH"
    fi
    if [ ! -x "$exe" ]; then
        fail "$what: $exe was not built"
        return
    fi
    if [ "$kind" = shared ]; then
        if needs_libwenc "$exe"; then ok; else
            readelf -d "$exe" >"$tmp/readelf.log" 2>&1
            fail "$what: $exe does not need libwenc.so.$major" "$tmp/readelf.log"
        fi
        if [ "$have_ldd" = yes ]; then
            $run_env ldd "$exe" >"$tmp/ldd.log" 2>&1
            resolved=$(sed -n "s|^[[:space:]]*libwenc\.so\.$major => \([^ ]*\) .*|\1|p" "$tmp/ldd.log")
            if [ -n "$resolved" ] &&
                [ "$(cd "$(dirname "$resolved")" && pwd -P)" = "$(cd "$libdir" && pwd -P)" ]; then
                ok
            else
                fail "$what: $exe does not load libwenc.so.$major from $libdir" "$tmp/ldd.log"
            fi
        fi
    else
        if readelf -d "$exe" 2>/dev/null | grep -q "(NEEDED).*libwenc"; then
            readelf -d "$exe" >"$tmp/readelf.log" 2>&1
            fail "$what: $exe is linked statically but needs a libwenc" "$tmp/readelf.log"
        else
            ok
        fi
    fi
    $run_env "$exe" >"$tmp/run.log" 2>&1
    status=$?
    if [ "$status" -eq 0 ] && [ ! -s "$tmp/run.log" ]; then
        ok
    else
        echo "(exit status $status)" >>"$tmp/run.log"
        fail "$what: running $exe" "$tmp/run.log"
    fi
}

# ---- the build, the version and the expected files ---------------------------

header=$root/include/wenc.h
version=$(sed -n 's/^#define WENC_VERSION_STRING "\(.*\)"$/\1/p' "$header")
major=$(sed -n 's/^#define WENC_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")
[ -n "$version" ] && [ -n "$major" ] || { fail "cannot read the version from $header"; abort; }

if [ ! -f "$build/CMakeCache.txt" ]; then
    step configure cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release || abort
fi
step build cmake --build "$build" -j"$jobs" || abort

cache_value() {
    sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"
}
libdir=$(cache_value CMAKE_INSTALL_LIBDIR)
config=$(cache_value CMAKE_BUILD_TYPE | tr 'A-Z' 'a-z')
[ -n "$libdir" ] || { fail "no CMAKE_INSTALL_LIBDIR in $build/CMakeCache.txt"; abort; }
[ -n "$config" ] || config=noconfig
case $libdir in /*) fail "CMAKE_INSTALL_LIBDIR is absolute ($libdir): this test needs it relative"; abort ;; esac

# expected_files LIBDIR CONFIG: what an install holds, sorted.
expected_files() {
    LC_ALL=C sort <<EOF
bin/wenc
include/wenc.h
$1/cmake/wenc/wencConfig.cmake
$1/cmake/wenc/wencConfigVersion.cmake
$1/cmake/wenc/wencTargets-$2.cmake
$1/cmake/wenc/wencTargets.cmake
$1/libwenc.a
$1/libwenc.so
$1/libwenc.so.$major
$1/libwenc.so.$version
$1/pkgconfig/wenc.pc
share/bash-completion/completions/wenc
share/man/man1/wenc.1
EOF
}
expected=$(expected_files "$libdir" "$config")

if [ -f "$manifest" ]; then
    cp "$manifest" "$tmp/manifest.saved"
else
    : >"$tmp/manifest.absent"
fi

# ---- 1. make install with PREFIX and DESTDIR, then make uninstall ------------

stage=$tmp/stage
if step make-install-staged "$make" -C "$root" --no-print-directory install \
    BUILD="$build" PREFIX=/opt/wenc-test DESTDIR="$stage"; then
    expect_same "make install DESTDIR=... PREFIX=/opt/wenc-test: the staged files" \
        "$expected" "$(files "$stage/opt/wenc-test")"
    expect_same "the staged wenc.pc's prefix" "prefix=/opt/wenc-test" \
        "$(grep '^prefix=' "$stage/opt/wenc-test/$libdir/pkgconfig/wenc.pc")"
    if step make-uninstall-staged "$make" -C "$root" --no-print-directory uninstall \
        BUILD="$build" DESTDIR="$stage"; then
        expect_same "make uninstall DESTDIR=...: files left in the stage" "" "$(files "$stage")"
    fi
fi

# ---- 2. cmake --install --prefix ----------------------------------------------

prefix=$tmp/prefix
# Files that were there before: uninstall must leave them.
mkdir -p "$prefix/share/man/man1" "$prefix/$libdir/cmake/other"
echo keep >"$prefix/share/man/man1/other.1"
echo keep >"$prefix/$libdir/cmake/other/otherConfig.cmake"
before=$(files "$prefix")

step cmake-install cmake --install "$build" --prefix "$prefix" || abort
installed=$(files "$prefix")
expect_same "cmake --install --prefix: the installed files" \
    "$(printf '%s\n%s\n' "$before" "$expected" | LC_ALL=C sort)" "$installed"
expect_same "install_manifest.txt lists exactly the installed files" \
    "$(printf '%s\n' "$expected" | sed "s|^|$prefix/|")" \
    "$(LC_ALL=C sort "$manifest")"

lib=$prefix/$libdir
expect_same "the installed library's SONAME" "libwenc.so.$major" \
    "$(readelf -d "$lib/libwenc.so.$version" 2>/dev/null |
        sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')"
expect_same "libwenc.so links to" "libwenc.so.$major" "$(readlink "$lib/libwenc.so")"
expect_same "libwenc.so.$major links to" "libwenc.so.$version" "$(readlink "$lib/libwenc.so.$major")"
for pair in "include/wenc.h:include/wenc.h" "share/man/man1/wenc.1:docs/wenc.1" \
    "share/bash-completion/completions/wenc:completions/wenc.bash"; do
    if cmp -s "$prefix/${pair%%:*}" "$root/${pair#*:}"; then ok; else
        fail "the installed ${pair%%:*} is not ${pair#*:}"
    fi
done
expect_same "the installed wenc --version" "wenc $version" "$("$prefix/bin/wenc" --version 2>&1)"

# ---- 3a. pkg-config -----------------------------------------------------------

consumer=$root/tests/install/consumer.c
cflags_strict="-std=c99 -Wall -Wextra -Wpedantic -Werror"
if command -v pkg-config >/dev/null 2>&1; then
    pc() { PKG_CONFIG_PATH=$lib/pkgconfig pkg-config "$@" wenc; }
    expect_same "pkg-config --modversion wenc" "$version" "$(pc --modversion 2>&1)"
    expect_same "pkg-config --cflags wenc" "-I$prefix/include" "$(pc --cflags 2>&1 | sed 's/[[:space:]]*$//')"
    expect_same "pkg-config --libs wenc" "-L$lib -lwenc" "$(pc --libs 2>&1 | sed 's/[[:space:]]*$//')"
    # --static adds private dependencies only (there are none): the same
    # -lwenc, which links libwenc.so (README.md says so).
    expect_same "pkg-config --static --libs wenc" "-L$lib -lwenc" "$(pc --static --libs 2>&1 | sed 's/[[:space:]]*$//')"
    # README.md's three ways, as written there (with the strict flags added):
    #   cc app.c $(pkg-config --cflags --libs wenc) -Wl,-rpath,$PREFIX/lib -o app
    # shellcheck disable=SC2046 # pkg-config's output is a list of words
    if step pkg-config-rpath "$cc" $cflags_strict "$consumer" $(pc --cflags --libs) \
        -Wl,-rpath,"$prefix/$libdir" -o "$tmp/pc_rpath"; then
        check_linkage "pkg-config, shared, -Wl,-rpath" "$tmp/pc_rpath" shared "$lib"
    fi
    #   cc app.c $(pkg-config --cflags --libs wenc) -o app; LD_LIBRARY_PATH=$PREFIX/lib ./app
    # shellcheck disable=SC2046
    if step pkg-config-shared "$cc" $cflags_strict "$consumer" $(pc --cflags --libs) \
        -o "$tmp/pc_shared"; then
        check_linkage "pkg-config, shared, LD_LIBRARY_PATH" "$tmp/pc_shared" shared "$lib" "$lib"
    fi
    #   cc app.c -DWENC_STATIC $(pkg-config --cflags wenc) $(pkg-config --variable=libdir wenc)/libwenc.a -o app
    # shellcheck disable=SC2046
    if step pkg-config-static "$cc" $cflags_strict "$consumer" -DWENC_STATIC $(pc --cflags) \
        "$(pc --variable=libdir)/libwenc.a" -o "$tmp/pc_static"; then
        check_linkage "pkg-config, libwenc.a" "$tmp/pc_static" static
    fi
else
    banner "SKIPPED: tests/install/run.sh: pkg-config is not installed:" \
        "no program was built with pkg-config"
    skipped=yes
fi

# ---- 3b-d. CMake: find_package, add_subdirectory, FetchContent ----------------

project=$root/tests/install/project
# cmake_consumer NAME LIBDIR-OF-THE-SHARED-LIB CMAKE-ARGS...
cmake_consumer() {
    name=$1 shared_dir=$2
    shift 2
    dir=$tmp/$name
    step "$name-configure" cmake -S "$project" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" || return
    if grep -q "CMake \(Warning\|Deprecation\)" "$tmp/$name-configure.log"; then
        fail "$name: CMake warned while configuring" "$tmp/$name-configure.log"
    else
        ok
    fi
    step "$name-build" cmake --build "$dir" -j"$jobs" || return
    check_linkage "$name, wenc::wenc" "$dir/consumer_shared" shared "${shared_dir:-$dir/wenc}"
    check_linkage "$name, wenc::wenc_static" "$dir/consumer_static" static
}

# The project of find_package installed (README.md: CMake drops the build
# rpath at install; INSTALL_RPATH_USE_LINK_PATH keeps the library's).
installed_consumer() {
    dir=$tmp/find_package app=$tmp/app-prefix
    check_linkage "find_package, wenc::wenc with INSTALL_RPATH_USE_LINK_PATH" \
        "$dir/consumer_rpath" shared "$lib"
    step find_package-install cmake --install "$dir" --prefix "$app" || return
    expect_same "installed wenc::wenc program: its RPATH/RUNPATH" "" \
        "$(readelf -d "$app/bin/consumer_shared" 2>&1 | grep -E '\((RPATH|RUNPATH)\)')"
    check_linkage "installed wenc::wenc program, LD_LIBRARY_PATH" \
        "$app/bin/consumer_shared" shared "$lib" "$lib"
    expect_same "installed INSTALL_RPATH_USE_LINK_PATH program: its RUNPATH" "[$lib]" \
        "$(readelf -d "$app/bin/consumer_rpath" 2>&1 | sed -n 's/.*(\(RPATH\|RUNPATH\)).*: //p')"
    check_linkage "installed INSTALL_RPATH_USE_LINK_PATH program" \
        "$app/bin/consumer_rpath" shared "$lib"
    check_linkage "installed wenc::wenc_static program" "$app/bin/consumer_static" static
}

cmake_consumer find_package "$lib" -DWENC_CONSUMER_MODE=package \
    "-DCMAKE_PREFIX_PATH=$prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON "-DWENC_EXPECT_DIR=$lib/cmake/wenc" \
    "-DWENC_EXPECT_VERSION=$version" && installed_consumer

cmake_consumer add_subdirectory "" -DWENC_CONSUMER_MODE=subdirectory \
    "-DWENC_SOURCE_DIR=$root"

# FetchContent from an archive of the source tree as it is now (git's files,
# committed or not; without git, everything but build directories).
if command -v tar >/dev/null 2>&1; then
    archive=$tmp/wenc-src.tar
    if [ -d "$root/.git" ] && command -v git >/dev/null 2>&1; then
        (cd "$root" && git ls-files -co --exclude-standard -z |
            xargs -0 tar -cf "$archive" --no-recursion --) >"$tmp/archive.log" 2>&1
    else
        tar -C "$root" -cf "$archive" --exclude='./build*' --exclude=node_modules \
            --exclude=.git . >"$tmp/archive.log" 2>&1
    fi
    if [ -s "$archive" ]; then
        ok
        cmake_consumer fetch_content "$tmp/fetch_content/_deps/wenc-build" \
            -DWENC_CONSUMER_MODE=fetch "-DWENC_URL=$archive"
    else
        fail "making an archive of the source tree" "$tmp/archive.log"
    fi
else
    banner "SKIPPED: tests/install/run.sh: tar is not installed:" \
        "no program was built with FetchContent, nor without the tests (4)"
    skipped=yes
fi

# ---- 4. the build without tests; WENC_CLI_SHARED ------------------------------

# in_tree NAME CMAKE-ARGS...: README.md's build command, with CMAKE-ARGS on
# its first line, in the unpacked tree $src (jobs through
# CMAKE_BUILD_PARALLEL_LEVEL, so the command stays as written).
in_tree() {
    in_tree_name=$1
    shift
    step "$in_tree_name" env CMAKE_BUILD_PARALLEL_LEVEL="$jobs" sh -c \
        'cd "$1" && shift && cmake -S . -B build "$@" && cmake --build build' sh "$src" "$@"
}
# fast_build: `cmake -S . -B build -DWENC_BUILD_TESTS=OFF && cmake --build
# build` builds the library and the CLI and no test, and installs as the
# full build does; then -DWENC_CLI_SHARED=ON added to that build makes a
# bin/wenc that loads the installed libwenc.so through its rpath.
fast_build() {
    src=$tmp/src
    if mkdir "$src" && tar -C "$src" -xf "$archive" >"$tmp/unpack.log" 2>&1; then ok; else
        fail "unpacking the archive of the source tree" "$tmp/unpack.log"
        return
    fi
    in_tree build-without-tests -DWENC_BUILD_TESTS=OFF || return
    fb=$src/build
    for f in wenc libwenc.a "libwenc.so.$version"; do
        if [ -f "$fb/$f" ]; then ok; else fail "the build without tests has no $f"; fi
    done
    if [ -e "$fb/CTestTestfile.cmake" ] || [ -d "$fb/tests" ] || [ -d "$fb/examples" ]; then
        fail "-DWENC_BUILD_TESTS=OFF built or registered tests or examples"
    else
        ok
    fi
    expect_same "the build without tests: wenc --version" "wenc $version" "$("$fb/wenc" --version 2>&1)"
    fb_libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$fb/CMakeCache.txt")
    fb_config=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$fb/CMakeCache.txt" | tr 'A-Z' 'a-z')
    if step install-without-tests cmake --install "$fb" --prefix "$tmp/fast-prefix"; then
        expect_same "the build without tests: the installed files" \
            "$(expected_files "$fb_libdir" "${fb_config:-noconfig}")" "$(files "$tmp/fast-prefix")"
    fi

    in_tree build-cli-shared -DWENC_CLI_SHARED=ON || return
    cs=$tmp/cli-shared
    step install-cli-shared cmake --install "$fb" --prefix "$cs" || return
    if needs_libwenc "$cs/bin/wenc"; then ok; else
        readelf -d "$cs/bin/wenc" >"$tmp/readelf.log" 2>&1
        fail "WENC_CLI_SHARED: bin/wenc does not need libwenc.so.$major" "$tmp/readelf.log"
    fi
    expect_same "WENC_CLI_SHARED: the installed bin/wenc's RUNPATH" "[\$ORIGIN/../$fb_libdir]" \
        "$(readelf -d "$cs/bin/wenc" 2>&1 | sed -n 's/.*(\(RPATH\|RUNPATH\)).*: //p')"
    if [ "$have_ldd" = yes ]; then
        resolved=$(env -u LD_LIBRARY_PATH ldd "$cs/bin/wenc" 2>&1 |
            sed -n "s|^[[:space:]]*libwenc\.so\.$major => \([^ ]*\) .*|\1|p")
        expect_same "WENC_CLI_SHARED: the directory bin/wenc loads libwenc.so.$major from" \
            "$(cd "$cs/$fb_libdir" && pwd -P)" \
            "$(cd "$(dirname "${resolved:-/nonexistent/x}")" 2>/dev/null && pwd -P)"
    fi
    expect_same "WENC_CLI_SHARED: bin/wenc --version" "wenc $version" \
        "$(env -u LD_LIBRARY_PATH "$cs/bin/wenc" --version 2>&1)"
    expect_same "WENC_CLI_SHARED: bin/wenc -f shift_jis -t utf-8" "e3 81 82" \
        "$(printf '\202\240' | env -u LD_LIBRARY_PATH "$cs/bin/wenc" -f shift_jis -t utf-8 2>&1 |
            od -An -tx1 | tr -s ' ' | sed 's/^ //; s/ $//')"
}
if [ -s "${archive:-}" ]; then
    fast_build
fi

# ---- 5. make uninstall --------------------------------------------------------

if step make-uninstall "$make" -C "$root" --no-print-directory uninstall \
    BUILD="$build" DESTDIR=; then
    expect_same "make uninstall: the files left in the prefix (those there before)" \
        "$before" "$(files "$prefix")"
    if [ -d "$lib/cmake/wenc" ]; then
        fail "make uninstall left the empty directory $libdir/cmake/wenc"
    else
        ok
    fi
fi

# ---- summary --------------------------------------------------------------------

if [ "$failures" -ne 0 ]; then
    say "$failures check(s) FAILED ($checks passed)"
    exit 1
fi
if [ -n "$skipped" ]; then
    say "$checks checks passed, but parts were SKIPPED (see above)"
    exit 77
fi
[ "$have_ldd" = yes ] || say "note: ldd not found: which libwenc.so the programs load was not checked"
echo "install test: $checks checks passed (make install/uninstall, cmake --install, pkg-config, find_package, add_subdirectory, FetchContent, the build without tests, WENC_CLI_SHARED)"
