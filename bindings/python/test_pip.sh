#!/bin/sh
# Installs the Python package the ways its README gives, offline, in a venv in
# a temporary directory, from a copy of the tree's sources (src/, include/,
# LICENSE, bindings/python; no build output): (1) `pip install
# bindings/python`, then the binding's tests against the installed package;
# (2) `setup.py sdist` (libwenc's sources in, no build output); (3) `pip
# wheel` of that sdist unpacked where no repository is around it, and the
# wheel installed. (`pip install` builds its wheel as `pip wheel` does: the
# extension is compiled twice, not three times.) Also checks that the builds
# leave nothing in the copied tree that git would see (.gitignore covers it).
# Usage: sh bindings/python/test_pip.sh   (from anywhere)
# PYTHON (default /usr/bin/python3) makes the venv; pip runs with
# PIP_NO_INDEX=1: nothing is downloaded.
# Exit status: 0 passed, 77 skipped (no python3-dev, python3-setuptools,
# python3-wheel, python3-pip or python3-venv for PYTHON, or a test skipped for
# absent data), anything else a failure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}

skip() {
    echo "###########################################################################"
    echo "# SKIPPED: the Python package's pip install test: $1"
    echo "# (Debian: apt-get install python3-dev python3-setuptools python3-wheel"
    echo "#  python3-pip python3-venv)"
    echo "###########################################################################"
    # CI installs them: there a missing one is a failure.
    [ "${WENC_TEST_REQUIRE_ALL:-}" = 1 ] && exit 1
    exit 77
}

fail() {
    echo "test_pip.sh: FAILED: $1" >&2
    exit 1
}

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    skip "no interpreter $PYTHON"
fi
if ! "$PYTHON" -c 'import os, sysconfig; raise SystemExit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    skip "no Python.h for $PYTHON"
fi
for module in setuptools wheel pip venv ensurepip; do
    "$PYTHON" -c "import $module" 2>/dev/null || skip "no module $module for $PYTHON"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PYTHONPATH
# Offline, with no configuration or cache of the user's.
PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_NO_INDEX PIP_CONFIG_FILE PIP_NO_CACHE_DIR PIP_DISABLE_PIP_VERSION_CHECK
# The tests' data, found beside the repository when not given.
WENC_DATA_DIR=${WENC_DATA_DIR:-$root/../shared/whatwg}
WENC_CORPUS_DIR=${WENC_CORPUS_DIR:-$root/../shared/corpus/wikipedia}
export WENC_DATA_DIR WENC_CORPUS_DIR

# copy_tree DIR: the sources a clone has, at DIR/src, DIR/include, ...; with
# git, DIR is a repository whose index holds them, so that `git ls-files
# --others --exclude-standard` lists what a build adds and .gitignore misses.
copy_tree() {
    mkdir -p "$1"
    tar -C "$root" --exclude=build --exclude=dist --exclude='*.egg-info' \
        --exclude='*.so' --exclude=__pycache__ \
        -cf - .gitignore LICENSE src include bindings/python | tar -C "$1" -xf -
    if command -v git >/dev/null 2>&1; then
        git -C "$1" init -q && git -C "$1" add -A
    fi
}

# unignored DIR: fails if the builds left a file in DIR that git would see.
unignored() {
    command -v git >/dev/null 2>&1 || return 0
    left=$(git -C "$1" ls-files --others --exclude-standard)
    [ -z "$left" ] || fail "the build left files that .gitignore does not cover: $left"
}

start=$(date +%s)
"$PYTHON" -m venv --system-site-packages "$tmp/venv" || skip "$PYTHON -m venv failed"
venv_python=$tmp/venv/bin/python

# smoke: the installed package, not a copy on the path, decodes and encodes.
smoke() {
    (cd "$tmp" && "$venv_python" -c '
import sys, wenc
assert wenc.__file__.startswith(sys.prefix), wenc.__file__
assert wenc.decode(b"\x82\xa0", "shift_jis") == "\u3042"
assert wenc.encode("\u20ac \u2603", "windows-1252") == b"\x80 &#9731;"
assert wenc.decode(b"caf\xc3\xa9 " * 100, "utf-8") == "caf\u00e9 " * 100
print("  " + wenc.__file__)
') || fail "$1: the installed package does not work"
}

echo "== (1) pip install bindings/python (at $(( $(date +%s) - start )) s)"
copy_tree "$tmp/one"
"$venv_python" -m pip install -q "$tmp/one/bindings/python" || fail "pip install"
unignored "$tmp/one"
smoke "pip install"
# The tests, away from the package's sources (and without caches another
# run may be writing).
mkdir "$tmp/run"
tar -C "$here" --exclude=__pycache__ -cf - tests | tar -C "$tmp/run" -xf -
rc=0
(cd "$tmp/run" && "$venv_python" -c '
import sys, unittest
result = unittest.main(module=None, argv=["unittest", "discover", "-s", "tests", "-t", "."],
                       exit=False).result
if not result.wasSuccessful():
    sys.exit(1)
if result.skipped:
    print(f"{len(result.skipped)} tests SKIPPED: not every check ran (exit 77)")
    sys.exit(77)
') || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "the tests of the installed package"

echo "== (2) setup.py sdist (at $(( $(date +%s) - start )) s)"
# From the tree pip just built in: its build output must stay out.
(cd "$tmp/one/bindings/python" && "$venv_python" setup.py -q sdist >/dev/null) ||
    fail "setup.py sdist"
unignored "$tmp/one"
set -- "$tmp"/one/bindings/python/dist/wenc-*.tar.gz
if [ "$#" -ne 1 ] || [ ! -f "$1" ]; then fail "setup.py sdist wrote no dist/wenc-*.tar.gz"; fi
sdist=$1
for member in libwenc/include/wenc.h libwenc/src/internal.h libwenc/src/core/decoder.c \
              libwenc/src/simd/ascii.c src/_wenc.c LICENSE wenc/__init__.pyi tests/helpers.py; do
    tar -tzf "$sdist" | grep -q "^wenc-[^/]*/$member\$" || fail "the sdist lacks $member"
done
if tar -tzf "$sdist" | grep -Eq '(\.(so|o|pyc)|/build/.*)$'; then
    fail "the sdist carries build output"
fi

echo "== (3) pip wheel of the sdist, unpacked alone, and the wheel installed (at $(( $(date +%s) - start )) s)"
# Where no src/ or include/ is near: setup.py takes libwenc/.
mkdir "$tmp/unpacked"
tar -C "$tmp/unpacked" -xzf "$sdist"
set -- "$tmp"/unpacked/wenc-*
"$venv_python" -m pip wheel -q --no-deps -w "$tmp/wheels" "$1" || fail "pip wheel"
set -- "$tmp"/wheels/wenc-*.whl
if [ "$#" -ne 1 ] || [ ! -f "$1" ]; then fail "pip wheel wrote no wenc-*.whl"; fi
"$venv_python" -c '
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
missing = {"wenc/__init__.py", "wenc/__init__.pyi", "wenc/py.typed"} - names
if not any(n.startswith("wenc/_wenc.") and n.endswith(".so") for n in names):
    missing.add("wenc/_wenc*.so")
if missing:
    sys.exit(f"{sys.argv[1]}: missing {sorted(missing)}")
' "$1" || fail "the wheel's contents"
"$venv_python" -m pip uninstall -q -y wenc
"$venv_python" -m pip install -q "$1" || fail "pip install of the wheel"
smoke "the wheel"

echo "test_pip.sh: passed in $(( $(date +%s) - start )) s"
exit "$rc"
