#!/bin/sh
# Builds the extension wenc/_wenc*.so in place, linked with a libwenc.a.
# Usage: sh bindings/python/build.sh [PATH-TO-libwenc.a]   (default: build/libwenc.a)
# PYTHON (default /usr/bin/python3, Debian's, with python3-dev and
# python3-setuptools) is the interpreter the extension is built for.
# Exit status 77 when that interpreter cannot build extensions.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
lib=${1:-$root/build/libwenc.a}

missing=""
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    missing="no interpreter $PYTHON"
elif ! "$PYTHON" -c 'import os, sysconfig; raise SystemExit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    missing="no Python.h for $PYTHON (Debian: apt-get install python3-dev)"
elif ! "$PYTHON" -c 'import setuptools' 2>/dev/null; then
    missing="no setuptools for $PYTHON (Debian: apt-get install python3-setuptools)"
fi
if [ -n "$missing" ]; then
    echo "build.sh: cannot build the Python extension: $missing" >&2
    exit 77
fi
if [ ! -f "$lib" ]; then
    echo "build.sh: $lib is missing (make python builds it)" >&2
    exit 1
fi
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
cd "$here"
# --force: the extension must be linked with this library, even when another
# (older) one was linked last.
WENC_LIB="$lib" "$PYTHON" setup.py -q build_ext --force --inplace --build-temp build/temp
