#!/usr/bin/env bash
# Builds wenc's Debian binary packages (libwenc0, libwenc-dev, wenc and their
# -dbgsym packages) from debian/, checks them with lintian and copies the
# .deb files to OUTDIR.
#
# Usage: tools/build-deb.sh OUTDIR
#
# dpkg-buildpackage writes its results into the parent of the tree it builds,
# so the build runs in a copy of the source tree in a temporary directory: the
# files git knows of, plus untracked files that .gitignore does not exclude
# (so no build directories), as they are in the working tree. Outside a git
# checkout the whole tree is copied except build*/ directories.
#
# DEB_BUILD_OPTIONS is passed through (DEB_BUILD_OPTIONS=nocheck skips the
# tests; parallel=N sets the jobs, default: nproc). WENC_DATA_DIR, when set,
# names the Encoding Standard's data for the tests; otherwise they look in
# ../shared/whatwg beside this checkout, and skip what needs it when absent.
#
# Installs nothing. Exit status: 0 when the packages were built and lintian
# found no error (its warnings are printed); 77 when a tool or build
# dependency is missing; 1 on a build failure or a lintian error; 2 on a
# usage error.
set -euo pipefail

usage() {
    echo "usage: $0 OUTDIR" >&2
    exit 2
}
[ $# -eq 1 ] || usage
[ -n "$1" ] || usage

ROOT=$(cd "$(dirname "$0")/.." && pwd)

missing=
command -v dpkg-buildpackage > /dev/null 2>&1 || missing="$missing dpkg-buildpackage (dpkg-dev)"
command -v dh > /dev/null 2>&1 || missing="$missing dh (debhelper)"
command -v lintian > /dev/null 2>&1 || missing="$missing lintian"
command -v dpkg-parsechangelog > /dev/null 2>&1 || missing="$missing dpkg-parsechangelog (dpkg-dev)"
if [ -n "$missing" ]; then
    echo "build-deb.sh: missing:$missing" >&2
    echo "build-deb.sh: apt-get install debhelper devscripts lintian dpkg-dev fakeroot" >&2
    exit 77
fi
if ! unmet=$(cd "$ROOT" && dpkg-checkbuilddeps 2>&1); then
    echo "build-deb.sh: $unmet" >&2
    exit 77
fi

mkdir -p "$1"
OUTDIR=$(cd "$1" && pwd)

SOURCE=$(cd "$ROOT" && dpkg-parsechangelog -S Source)
VERSION=$(cd "$ROOT" && dpkg-parsechangelog -S Version)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/wenc-deb.XXXXXX")
cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT

# The parent of the build tree receives dpkg-buildpackage's output; keep the
# tree's own name as dpkg-source would (SOURCE-VERSION).
TREE="$TMP/$SOURCE-$VERSION"
mkdir "$TREE"
if git -C "$ROOT" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    # Tracked files (as in the working tree; ones deleted there are skipped)
    # and untracked ones not ignored: debian/ works before it is committed.
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$ROOT" && while IFS= read -r -d '' f; do
             [ -e "$f" ] || [ -L "$f" ] || continue
             printf '%s\0' "$f"
         done) |
        tar -C "$ROOT" --null --no-recursion -T - -cf - |
        tar -C "$TREE" -xf -
else
    tar -C "$ROOT" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$TREE" -xf -
fi

if [ -n "${WENC_DATA_DIR:-}" ]; then
    if [ ! -d "$WENC_DATA_DIR" ]; then
        echo "build-deb.sh: WENC_DATA_DIR=$WENC_DATA_DIR: not a directory" >&2
        exit 2
    fi
    WENC_DATA_DIR=$(cd "$WENC_DATA_DIR" && pwd)
elif [ -d "$ROOT/../shared/whatwg" ]; then
    # The tests' default, ../shared/whatwg, is relative to the source tree:
    # point the copy at the checkout's.
    WENC_DATA_DIR=$(cd "$ROOT/../shared/whatwg" && pwd)
fi
export WENC_DATA_DIR="${WENC_DATA_DIR:-}"

case " ${DEB_BUILD_OPTIONS:-} " in
    *" parallel="*) ;;
    *) DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc 2>/dev/null || echo 1)" ;;
esac
export DEB_BUILD_OPTIONS

echo "build-deb.sh: building $SOURCE $VERSION in $TREE"
echo "build-deb.sh: DEB_BUILD_OPTIONS='$DEB_BUILD_OPTIONS' WENC_DATA_DIR='${WENC_DATA_DIR}'"
start=$(date +%s)
(cd "$TREE" && dpkg-buildpackage -us -uc -b)
echo "build-deb.sh: dpkg-buildpackage took $(( $(date +%s) - start ))s"

shopt -s nullglob
changes=("$TMP"/*.changes)
debs=("$TMP"/*.deb)
if [ ${#changes[@]} -ne 1 ] || [ ${#debs[@]} -eq 0 ]; then
    echo "build-deb.sh: expected one .changes file and .deb files in $TMP" >&2
    ls -l "$TMP" >&2
    exit 1
fi

echo "build-deb.sh: lintian ${changes[0]##*/}"
set +e
lintian --fail-on error --display-info "${changes[0]}" > "$TMP/lintian.txt" 2>&1
lintian_rc=$?
set -e
cat "$TMP/lintian.txt"
errors=$(grep -c '^E: ' "$TMP/lintian.txt" || true)
warnings=$(grep -c '^W: ' "$TMP/lintian.txt" || true)
echo "build-deb.sh: lintian: $errors error(s), $warnings warning(s)"
if [ "$lintian_rc" -ne 0 ] || [ "$errors" -ne 0 ]; then
    echo "build-deb.sh: lintian failed (exit $lintian_rc)" >&2
    exit 1
fi

cp "${debs[@]}" "$OUTDIR"/
echo "build-deb.sh: copied to $OUTDIR:"
for d in "${debs[@]}"; do
    echo "  ${d##*/}"
done
