#!/bin/sh
# Builds the WebAssembly backend of the Node.js binding into wasm/dist/:
#
#   wenc.wasm          libwenc + glue.c, with wasm SIMD (-msimd128)
#   wenc-nosimd.wasm   the same without SIMD, for runtimes that lack it
#   core.mjs           lib/core.js as an ES module (for browser.mjs)
#   backend.mjs        wasm/backend.js as an ES module
#
# Toolchain: Debian's clang 14 and wasm-ld (lld 14) with wasi-libc's headers
# and libc (for memcpy, memset, memmove, memcmp), and compiler-rt's wasm32
# builtins; no Emscripten. Debian packages: clang lld wasi-libc
# libclang-rt-14-dev-wasm32. The modules import nothing: they instantiate
# with an empty imports object.
#
# Usage: sh bindings/node/wasm/build.sh   (from anywhere)
# WASM_CC (default clang: not CC, which names the host's compiler, gcc in CI),
# WASM_LD (default wasm-ld), WASM_OPT (default -O2
# -flto: link-time optimisation measured a quarter faster encoding) are
# honoured. Exit status 77 when the toolchain is missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
node_dir=$(cd "$here/.." && pwd)
root=$(cd "$here/../../.." && pwd)
out="$here/dist"
# clang and wasm-ld, else the versioned names that clang-14 and lld-14 alone
# install.
CC=${WASM_CC:-$(command -v clang || command -v clang-14 || echo clang)}
WASM_LD=${WASM_LD:-$(command -v wasm-ld || command -v wasm-ld-14 || echo wasm-ld)}
WASM_OPT=${WASM_OPT:--O2 -flto}
WASI_INCLUDE=${WASI_INCLUDE:-/usr/include/wasm32-wasi}
WASI_LIB=${WASI_LIB:-/usr/lib/wasm32-wasi}

missing() {
    echo "################################################################" >&2
    echo "# wasm/build.sh: CANNOT BUILD the WebAssembly backend:" >&2
    echo "#   $1" >&2
    echo "# Install Debian's clang lld wasi-libc libclang-rt-14-dev-wasm32" >&2
    echo "################################################################" >&2
    exit 77
}

command -v "$CC" >/dev/null 2>&1 || missing "no C compiler '$CC'"
command -v "$WASM_LD" >/dev/null 2>&1 || missing "no linker '$WASM_LD' (lld)"
[ -f "$WASI_INCLUDE/string.h" ] ||
    missing "no wasi-libc headers in $WASI_INCLUDE (wasi-libc)"
[ -f "$WASI_LIB/libc.a" ] || missing "no wasi-libc in $WASI_LIB (wasi-libc)"
builtins=$("$CC" --target=wasm32-wasi -print-libgcc-file-name 2>/dev/null || true)
if [ ! -f "$builtins" ]; then
    for candidate in /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a; do
        [ -f "$candidate" ] && builtins=$candidate
    done
fi
if [ ! -f "$builtins" ]; then
    missing "no compiler-rt builtins for wasm32 (libclang-rt-14-dev-wasm32)"
fi

TARGET="--target=wasm32-wasi -isystem $WASI_INCLUDE"
# The library as it is built everywhere; its own -Werror is for gcc and
# clang on the host, so here warnings stay warnings for the library files
# and are errors for glue.c.
LIB_FLAGS="-std=c11 -Wall -Wextra -DWENC_STATIC -fvisibility=hidden"
GLUE_FLAGS="-std=c11 -Wall -Wextra -Wpedantic -Werror -DWENC_STATIC -fvisibility=hidden"

mkdir -p "$out/obj"

# build VARIANT EXTRA_FLAGS: compiles everything into obj/VARIANT and links
# dist/wenc$suffix.wasm.
build() {
    variant=$1
    extra=$2
    # Objects of other flags live in another folder: named by their checksum.
    sum=$(echo "$CC $TARGET $WASM_OPT $extra $LIB_FLAGS" | cksum | cut -d ' ' -f 1)
    objdir="$out/obj/$variant-$sum"
    mkdir -p "$objdir"
    objects=""
    pids=""
    for source in "$root"/src/*/*.c; do
        # Named by path: src/codecs/big5.c and src/tables/big5.c.
        name=$(echo "${source#"$root"/src/}" | tr '/' '_')
        object="$objdir/${name%.c}.o"
        objects="$objects $object"
        # Stale: older than its source or than any of the library's headers.
        # (-nt: dash, bash and busybox sh have it.)
        # shellcheck disable=SC3013
        if [ ! -f "$object" ] || [ "$source" -nt "$object" ] ||
           [ -n "$(find "$root/include" "$root/src" -name '*.h' \
                   -newer "$object" 2>/dev/null | head -n 1)" ]; then
            # shellcheck disable=SC2086
            "$CC" $TARGET $WASM_OPT $extra $LIB_FLAGS -I"$root/include" \
                -I"$root/src" -c "$source" -o "$object" &
            pids="$pids $!"
        fi
    done
    failed=0
    for pid in $pids; do
        wait "$pid" || failed=1
    done
    if [ "$failed" = 1 ]; then
        echo "wasm/build.sh: compiling the library ($variant) failed" >&2
        exit 1
    fi
    glue="$objdir/glue.o"
    # shellcheck disable=SC2086
    "$CC" $TARGET $WASM_OPT $extra $GLUE_FLAGS -I"$root/include" \
        -c "$here/glue.c" -o "$glue"
    # No entry point; the exports are glue.c's export_name functions and the
    # memory. No WASI import survives: the library calls nothing of libc
    # but memcpy/memset/memmove/memcmp, which libc.a implements in wasm.
    # shellcheck disable=SC2086
    "$WASM_LD" --no-entry --strip-all --gc-sections -z stack-size=65536 \
        -o "$out/wenc$3.wasm.tmp" "$glue" $objects "$WASI_LIB/libc.a" "$builtins"
    mv "$out/wenc$3.wasm.tmp" "$out/wenc$3.wasm"
}

build simd "-msimd128" ""
build nosimd "" "-nosimd"

# The import section must be empty: the module instantiates with {}.
if command -v node >/dev/null 2>&1; then
    for wasm in "$out/wenc.wasm" "$out/wenc-nosimd.wasm"; do
        # shellcheck disable=SC2016
        node -e '
const bytes = require("fs").readFileSync(process.argv[1]);
const imports = WebAssembly.Module.imports(new WebAssembly.Module(bytes));
if (imports.length) {
  console.error(`${process.argv[1]} imports ${JSON.stringify(imports)}`);
  process.exit(1);
}' "$wasm"
    done
fi

# ES modules for browser.mjs: the CommonJS files wrapped, as neither uses
# require.
wrap() {
    {
        echo "// Generated by wasm/build.sh from $1; do not edit."
        echo "const module = { exports: {} };"
        cat "$2"
        echo "export default module.exports;"
    } > "$3.tmp"
    mv "$3.tmp" "$3"
}
if [ -f "$node_dir/lib/core.js" ]; then
    wrap lib/core.js "$node_dir/lib/core.js" "$out/core.mjs"
else
    echo "wasm/build.sh: lib/core.js not there yet: dist/core.mjs not written" >&2
fi
wrap wasm/backend.js "$here/backend.js" "$out/backend.mjs"

for file in wenc.wasm wenc-nosimd.wasm; do
    raw=$(wc -c < "$out/$file")
    gz=$(gzip -9 -c "$out/$file" | wc -c)
    echo "built $out/$file: $raw bytes, $gz gzipped"
done
