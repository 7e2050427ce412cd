#!/bin/sh
# npm's prepack and postpack for bindings/node: an npm package holds only
# files under its own directory, so before `npm pack` (or publish) the
# library's C sources and licence are copied in, and afterwards removed.
#
#   sh pack.sh copy    include/wenc.h, src/**/*.{c,h} -> wenc-c/; LICENSE
#   sh pack.sh clean   remove them again
#
# Both names are in .gitignore; build.sh builds from wenc-c/ when present.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

clean() {
    rm -rf "$here/wenc-c" "$here/LICENSE"
}

case ${1:-} in
    copy)
        clean
        if [ ! -f "$root/include/wenc.h" ]; then
            echo "pack.sh: not in the wenc repository ($root/include/wenc.h" \
                 "is missing)" >&2
            exit 1
        fi
        mkdir -p "$here/wenc-c/include"
        cp "$root/include/wenc.h" "$here/wenc-c/include/"
        for dir in src src/core src/api src/codecs src/simd src/extensions src/tables; do
            mkdir -p "$here/wenc-c/$dir"
            for f in "$root/$dir"/*.c "$root/$dir"/*.h; do
                [ -f "$f" ] && cp "$f" "$here/wenc-c/$dir/"
            done
        done
        cp "$root/LICENSE" "$here/LICENSE"
        ;;
    clean)
        clean
        ;;
    *)
        echo "usage: sh pack.sh copy|clean" >&2
        exit 2
        ;;
esac
