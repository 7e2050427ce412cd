#!/bin/sh
# Builds the Node.js addon: bindings/node/build/wenc.node.
# Usage: sh bindings/node/build.sh   (from anywhere; CC, CFLAGS may be set)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/build"
CC=${CC:-gcc}
CFLAGS=${CFLAGS:--O2}
WARN="-std=c11 -Wall -Wextra -Wpedantic -Werror"

if [ ! -f "$here/node_modules/node-api-headers/include/node_api.h" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "build.sh: npm is needed to install node-api-headers" >&2
        exit 1
    fi
    if [ -f "$here/package-lock.json" ]; then
        (cd "$here" && npm ci --no-audit --no-fund)
    else
        (cd "$here" && npm install --no-audit --no-fund)
    fi
fi
napi_include="$here/node_modules/node-api-headers/include"

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

mkdir -p "$out/obj"
objects=""
for source in "$root"/src/*.c "$root"/src/codecs/*.c "$root"/src/tables/*.c; do
    name=$(echo "${source#"$root"/}" | tr '/' '_')
    object="$out/obj/${name%.c}.o"
    objects="$objects $object"
    # Rebuild when the source or any library header is newer.
    stale=0
    if [ ! -f "$object" ] || [ "$source" -nt "$object" ] ||
       [ "$root/include/wenc.h" -nt "$object" ]; then
        stale=1
    else
        for header in "$root"/src/*.h "$root"/src/codecs/*.h; do
            if [ -f "$header" ] && [ "$header" -nt "$object" ]; then
                stale=1
                break
            fi
        done
    fi
    if [ "$stale" = 1 ]; then
        echo "  CC  ${source#"$root"/}"
        $CC $WARN $CFLAGS -fPIC -fvisibility=hidden -I"$root/include" \
            -I"$root/src" -c "$source" -o "$object" &
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
    echo "  CC  bindings/node/src/addon.c"
    $CC $WARN $CFLAGS -fPIC -fvisibility=hidden -I"$root/include" \
        -I"$napi_include" -c "$here/src/addon.c" -o "$addon_object"
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
