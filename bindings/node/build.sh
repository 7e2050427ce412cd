#!/bin/sh
# Builds the Node.js addon: build/wenc.node, from the library's C sources and
# src/addon.c, with the machine's C compiler.
#
# Two places it runs from:
#   - the repository (sh bindings/node/build.sh, make node, test.sh): the
#     sources are ../../include and ../../src; node-api-headers is installed
#     here by npm ci if missing; warnings are errors, as for the library;
#   - an installed npm package (npm runs it as the "install" script): the
#     sources are the copy in wenc-c/ that pack.sh put in the tarball, and
#     node-api-headers is the package's dependency, wherever npm placed it;
#     warnings stay warnings (a newer compiler must not break an install).
# CC (default cc), CFLAGS (default -O2) are honoured.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out="$here/build"
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
NODE=${NODE:-node}

if [ -f "$here/wenc-c/include/wenc.h" ]; then
    root="$here/wenc-c"
    WARN="-std=c11 -Wall -Wextra"
else
    root=$(cd "$here/../.." && pwd)
    WARN="-std=c11 -Wall -Wextra -Wpedantic -Werror"
fi
if [ ! -f "$root/include/wenc.h" ]; then
    echo "build.sh: the wenc C sources are missing (looked in $here/wenc-c" \
         "and $root)" >&2
    exit 1
fi
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "build.sh: no C compiler: '$CC' not found (set CC, or install" \
         "one: Debian's build-essential)" >&2
    exit 1
fi

# node_api.h: next to this file, or wherever Node resolves node-api-headers
# from here (npm may hoist the dependency above the package).
napi_include="$here/node_modules/node-api-headers/include"
if [ ! -f "$napi_include/node_api.h" ] && command -v "$NODE" >/dev/null 2>&1; then
    napi_include=$(cd "$here" && "$NODE" -p \
        "require('path').dirname(require.resolve('node-api-headers/package.json')) + '/include'" \
        2>/dev/null) || napi_include=""
fi
if [ ! -f "$napi_include/node_api.h" ] && [ "$root" != "$here/wenc-c" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "build.sh: npm is needed to install node-api-headers" >&2
        exit 1
    fi
    # --ignore-scripts: the install script is this file.
    if [ -f "$here/package-lock.json" ]; then
        (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund)
    else
        (cd "$here" && npm install --ignore-scripts --no-audit --no-fund)
    fi
    napi_include="$here/node_modules/node-api-headers/include"
fi
if [ ! -f "$napi_include/node_api.h" ]; then
    echo "build.sh: node_api.h not found: the package node-api-headers" \
         "is not installed" >&2
    exit 1
fi

jobs=$(nproc 2>/dev/null || echo 2)
pids=""
running=0
failed=0
# Waits for every compile started so far; remembers a failure.
wait_all() {
    for pid in $pids; do
        wait "$pid" || failed=1
    done
    pids=""
    running=0
}

# Objects built with other flags (or from the other source tree) are stale.
flags="$CC $WARN $CFLAGS -fPIC -fvisibility=hidden -DWENC_STATIC $root"
if [ ! -f "$out/flags" ] || [ "$(cat "$out/flags")" != "$flags" ]; then
    rm -rf "$out"
fi
mkdir -p "$out/obj"
printf '%s\n' "$flags" > "$out/flags"
objects=""
for source in "$root"/src/core/*.c "$root"/src/api/*.c "$root"/src/codecs/*.c \
              "$root"/src/simd/*.c "$root"/src/extensions/*.c "$root"/src/tables/*.c; do
    name=$(echo "${source#"$root"/}" | tr '/' '_')
    object="$out/obj/${name%.c}.o"
    objects="$objects $object"
    # Rebuild when the source or any library header is newer.
    stale=0
    if [ ! -f "$object" ] || [ "$source" -nt "$object" ] ||
       [ "$root/include/wenc.h" -nt "$object" ]; then
        stale=1
    else
        for header in "$root"/src/*.h "$root"/src/*/*.h; do
            if [ -f "$header" ] && [ "$header" -nt "$object" ]; then
                stale=1
                break
            fi
        done
    fi
    if [ "$stale" = 1 ]; then
        echo "  CC  ${source#"$root"/}"
        $CC $WARN $CFLAGS -fPIC -fvisibility=hidden -DWENC_STATIC \
            -I"$root/include" -I"$root/src" -c "$source" -o "$object" &
        pids="$pids $!"
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait_all
        fi
    fi
done
wait_all
if [ "$failed" = 1 ]; then
    echo "build.sh: compiling the library failed" >&2
    exit 1
fi

addon_object="$out/obj/addon.o"
if [ ! -f "$addon_object" ] || [ "$here/src/addon.c" -nt "$addon_object" ] ||
   [ "$root/include/wenc.h" -nt "$addon_object" ]; then
    echo "  CC  src/addon.c"
    $CC $WARN $CFLAGS -fPIC -fvisibility=hidden -DWENC_STATIC \
        -I"$root/include" -I"$napi_include" -c "$here/src/addon.c" -o "$addon_object"
fi

relink=0
[ -f "$out/wenc.node" ] || relink=1
for object in $addon_object $objects; do
    if [ "$object" -nt "$out/wenc.node" ]; then
        relink=1
    fi
done
if [ "$relink" = 0 ]; then
    echo "up to date: $out/wenc.node"
    exit 0
fi

# napi_* symbols stay undefined: the node executable provides them at load.
# shellcheck disable=SC2086
$CC -shared $CFLAGS -o "$out/wenc.node.tmp" "$addon_object" $objects
mv "$out/wenc.node.tmp" "$out/wenc.node"
echo "built $out/wenc.node"
