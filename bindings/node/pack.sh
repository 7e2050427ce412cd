#!/bin/sh
# npm's prepack and postpack for bindings/node: an npm package holds only
# files under its own directory, so before `npm pack` (or publish) the
# library's C sources and licence are copied in, and afterwards removed.
# The package also carries the WebAssembly build (wasm/dist/), which its
# entry point falls back to where the addon was not built: copy builds it
# (with clang and wasm-ld: a package without it would need a compiler to
# install), clean leaves it, as the build output it also is for the tests.
#
#   sh pack.sh copy    include/wenc.h, src/**/*.{c,h} -> wenc-c/; LICENSE;
#                      wasm/dist/ built
#   sh pack.sh clean   remove wenc-c/ and LICENSE again
#
# All three are in .gitignore; build.sh builds from wenc-c/ when present.
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
        if ! sh "$here/wasm/build.sh"; then
            echo "pack.sh: the WebAssembly build failed: the package would" \
                 "not install without a C compiler" >&2
            exit 1
        fi
        ;;
    clean)
        clean
        ;;
    *)
        echo "usage: sh pack.sh copy|clean" >&2
        exit 2
        ;;
esac
