#!/bin/sh
# The npm package, as a user gets it: `npm pack` in bindings/node, then
# `npm install ./wenc-VERSION.tgz` into empty directories three ways:
#   app:      the install script compiles the addon with the machine's C
#             compiler (node_api.h from the node-api-headers dependency, no
#             node-gyp, no download of Node's headers): the native backend;
#   app-wasm: `npm install --ignore-scripts`: nothing is compiled, and the
#             WebAssembly build in the tarball runs;
#   app-nocc: the install script runs but finds no C compiler (CC names a
#             missing one): the install succeeds, says so, and the
#             WebAssembly build runs;
# then the same smoke test, with exact expected values, in each (through
# require and import, and the explicit wenc/native and wenc/wasm entries),
# and a TypeScript check of index.d.ts (typescript and @types/node
# installed beside it).
#
#   sh bindings/node/pack-test.sh        (from anywhere; needs node, npm, cc,
#                                          the wasm toolchain and the npm
#                                          registry)
#
# Checks, besides: the package's version is WENC_VERSION_STRING of
# include/wenc.h; the tarball holds what it must (the C sources, LICENSE,
# the types, the WebAssembly build) and nothing of the repository's own
# (tests, build scripts of the repository, build output, node_modules); the
# installed addon exports only Node-API's entry points; the repository is
# left as it was found.
# Exit status: 0 passed, 1 failed, 77 skipped (node or npm missing).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
NODE=${NODE:-node}

for tool in "$NODE" npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "################################################################"
        echo "# SKIPPED: the npm package test: $tool not found"
        echo "################################################################"
        exit 77
    fi
done

fail() {
    echo "pack-test: FAILED: $*" >&2
    exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"; sh "$here/pack.sh" clean' EXIT INT TERM

# The WebAssembly build is a build output the package carries (pack.sh
# builds it too): built first, so that it is there before and after.
sh "$here/wasm/build.sh" || fail "the WebAssembly build (wasm/build.sh)"
status_before=$(cd "$root" && git status --porcelain --ignored -- bindings/node 2>/dev/null || true)

header_version=$(sed -n 's/^#define WENC_VERSION_STRING "\(.*\)"$/\1/p' "$root/include/wenc.h")
package_version=$(cd "$here" && "$NODE" -p "require('./package.json').version")
[ -n "$header_version" ] || fail "no WENC_VERSION_STRING in include/wenc.h"
[ "$package_version" = "$header_version" ] ||
    fail "package.json's version $package_version is not WENC_VERSION_STRING $header_version"
echo "version: $package_version (package.json = include/wenc.h)"

# ---- npm pack -----------------------------------------------------------
(cd "$here" && npm pack --silent --pack-destination "$work" > "$work/pack.out") ||
    fail "npm pack"
tarball="$work/wenc-$package_version.tgz"
[ -f "$tarball" ] || fail "npm pack wrote no $tarball"
tar -tzf "$tarball" | sed 's|^package/||' | sort > "$work/contents"
for f in package.json index.js index.mjs native.js native.mjs wasm.js \
         wasm.mjs index.d.ts lib/core.js lib/node.js install.js build.sh \
         src/addon.c README.md docs/iconv-lite.md LICENSE \
         wasm/backend.js wasm/browser.mjs wasm/browser.d.ts wasm/dist/wenc.wasm wasm/dist/wenc-nosimd.wasm \
         wasm/dist/core.mjs wasm/dist/backend.mjs \
         wenc-c/include/wenc.h wenc-c/src/internal.h \
         wenc-c/src/core/decoder.c wenc-c/src/codecs/shift_jis.c; do
    grep -qx "$f" "$work/contents" || fail "the tarball lacks $f"
done
# Every library source the build compiles is in the tarball.
for f in "$root"/src/*.h "$root"/src/*/*.c "$root"/src/*/*.h; do
    [ -f "$f" ] || continue
    grep -qx "wenc-c/${f#"$root"/}" "$work/contents" ||
        fail "the tarball lacks wenc-c/${f#"$root"/}"
done
if grep -E '^(build/|node_modules/|test/|pack\.sh|pack-test\.sh|test\.sh|test-browser\.sh|lib/BACKEND\.md|wasm/glue\.c|wasm/build\.sh)' \
        "$work/contents"; then
    fail "the tarball holds files that are not the package's (above)"
fi
echo "npm pack: $(wc -l < "$work/contents") files, $(wc -c < "$tarball") bytes"

# ---- npm install into an empty directory ---------------------------------
mkdir "$work/app" "$work/app-wasm" "$work/app-nocc"
(cd "$work/app" && npm install --no-audit --no-fund --foreground-scripts \
    "$tarball" > "$work/install.out" 2>&1) || {
    cat "$work/install.out"
    fail "npm install $tarball"
}
addon="$work/app/node_modules/wenc/build/wenc.node"
[ -f "$addon" ] || { cat "$work/install.out"; fail "the install built no $addon"; }
echo "npm install: built node_modules/wenc/build/wenc.node"
if command -v nm >/dev/null 2>&1; then
    exports=$(nm -D --defined-only "$addon" | awk '$2 == "T" { print $3 }' | sort | tr '\n' ' ')
    [ "$exports" = "napi_register_module_v1 node_api_module_get_api_version_v1 " ] ||
        fail "the addon exports more than Node-API's entry points: $exports"
fi

# ---- the same package without the install script, and without a compiler
(cd "$work/app-wasm" && npm install --no-audit --no-fund --ignore-scripts \
    "$tarball" > "$work/install-wasm.out" 2>&1) || {
    cat "$work/install-wasm.out"
    fail "npm install --ignore-scripts $tarball"
}
[ ! -e "$work/app-wasm/node_modules/wenc/build" ] ||
    fail "npm install --ignore-scripts built something"
(cd "$work/app-nocc" && CC=/nonexistent/cc npm install --no-audit --no-fund \
    --foreground-scripts "$tarball" > "$work/install-nocc.out" 2>&1) || {
    cat "$work/install-nocc.out"
    fail "npm install $tarball on a machine without a C compiler"
}
grep -q "the WebAssembly build will be used" "$work/install-nocc.out" || {
    cat "$work/install-nocc.out"
    fail "the install without a compiler did not say it falls back to WebAssembly"
}
echo "npm install --ignore-scripts, and without a C compiler: installed"

# ---- smoke test, where a user would run it --------------------------------
# node smoke.js SPECIFIER BACKEND: the package's API through require().
cat > "$work/smoke.js" <<'EOF'
'use strict';
const assert = require('node:assert/strict');
const { Readable } = require('node:stream');
const [specifier, expectedBackend] = process.argv.slice(2);
const wenc = require(specifier);
const { TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream } = wenc;

assert.equal(wenc.backend, expectedBackend);
for (const name of ['TextDecoder', 'TextDecoderStream', 'TextEncoder',
  'TextEncoderStream', 'encode', 'decode', 'labelToName', 'encodingExists',
  'Encoder', 'Decoder', 'encoderStream', 'decoderStream', 'decodeStream',
  'encodeStream']) {
  assert.equal(typeof wenc[name], 'function', name);
}
// index-jis0208.txt: 82 A0 is pointer 1*188+95 = 283, U+3042.
assert.equal(new TextDecoder('shift_jis').decode(new Uint8Array([0x82, 0xa0])), '\u3042');
assert.equal(new TextDecoder('sjis').encoding, 'shift_jis');
// §10.2.1: four bytes 81 30 81 30 are the first gb18030 range, U+0080.
assert.equal(new TextDecoder('gb18030').decode(new Uint8Array([0x81, 0x30, 0x81, 0x30])), '\u0080');
// windows-1252 0x80 is U+20AC; latin1 is one of its labels.
assert.equal(new TextDecoder('latin1').decode(new Uint8Array([0x80])), '\u20ac');
assert.equal(new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62])), 'a\ufffdb');
assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])),
  TypeError);
assert.throws(() => new TextDecoder('replacement'), RangeError);
assert.deepEqual([...new TextEncoder().encode('\u20ac')], [0xe2, 0x82, 0xac]);
const into = new Uint8Array(4);
assert.deepEqual(new TextEncoder().encodeInto('a\u20acb', into), { read: 2, written: 4 });
assert.deepEqual([...into], [0x61, 0xe2, 0x82, 0xac]);

// The legacy encoders. index-jis0208.txt has U+65E5 at pointer 3569
// (93 FA) and U+672C at 4007 (96 7B); windows-1251 has no U+00E9.
assert.deepEqual([...wenc.encode('\u65e5\u672c', 'shift_jis')], [0x93, 0xfa, 0x96, 0x7b]);
assert.equal(wenc.decode(new Uint8Array([0x93, 0xfa, 0x96, 0x7b]), 'sjis'), '\u65e5\u672c');
assert.deepEqual([...wenc.encode('a\u00e9', 'windows-1251')],
  [0x61, 0x26, 0x23, 0x32, 0x33, 0x33, 0x3b]);
assert.deepEqual([...wenc.encode('a\u00e9', 'windows-1251', { unmappable: 'subst' })],
  [0x61, 0x3f]);
assert.throws(() => wenc.encode('a\u00e9', 'windows-1251', { unmappable: 'fatal' }),
  TypeError);
assert.equal(wenc.labelToName(' Latin1 '), 'windows-1252');
assert.equal(wenc.encodingExists('no-such-label'), false);
// The Standard's decode: a UTF-16LE BOM wins over the label.
assert.equal(wenc.decode(new Uint8Array([0xff, 0xfe, 0x41, 0x00]), 'windows-1252'), 'A');

(async () => {
  // Big5 A4 40 is U+4E00 (index-big5.txt pointer (0xA4 - 0x81) * 157 = 5495), split across chunks.
  const decoder = new TextDecoderStream('big5');
  const writer = decoder.writable.getWriter();
  writer.write(new Uint8Array([0xa4]));
  writer.write(new Uint8Array([]));
  writer.write(new Uint8Array([0x40]));
  writer.close();
  let text = '';
  for await (const chunk of decoder.readable) text += chunk;
  assert.equal(text, '\u4e00');

  const encoder = new TextEncoderStream();
  const w = encoder.writable.getWriter();
  w.write('\ud83d');
  w.write('\ude00');
  w.close();
  const bytes = [];
  for await (const chunk of encoder.readable) bytes.push(...chunk);
  assert.deepEqual(bytes, [0xf0, 0x9f, 0x98, 0x80]);

  // A Node stream Transform, Shift_JIS split inside a character.
  let decoded = '';
  const source = Readable.from([Buffer.from([0x93]), Buffer.from([0xfa, 0x96, 0x7b])]);
  for await (const piece of source.pipe(wenc.decodeStream('shift_jis'))) decoded += piece;
  assert.equal(decoded, '\u65e5\u672c');
  console.log(`smoke test (${specifier}, ${expectedBackend}): passed`);
})().catch((error) => { console.error(error); process.exit(1); });
EOF
# node smoke.mjs SPECIFIER BACKEND: the same package through import.
cat > "$work/smoke.mjs" <<'EOF'
import assert from 'node:assert/strict';
const [specifier, expectedBackend] = process.argv.slice(2);
const wenc = await import(specifier);
assert.equal(wenc.default.backend, expectedBackend);
assert.deepEqual([...wenc.encode('\u65e5', 'shift_jis')], [0x93, 0xfa]);
assert.equal(new wenc.TextDecoder('euc-kr').encoding, 'euc-kr');
console.log(`import smoke test (${specifier}, ${expectedBackend}): passed`);
EOF
for app in app app-wasm app-nocc; do
    cp "$work/smoke.js" "$work/smoke.mjs" "$work/$app/"
done
smoke() { # smoke APP SPECIFIER BACKEND
    (cd "$work/$1" && "$NODE" smoke.js "$2" "$3" && "$NODE" smoke.mjs "$2" "$3") ||
        fail "the smoke test of $2 in $1 (expected the $3 backend)"
}
smoke app wenc native
smoke app wenc/native native
smoke app wenc/wasm wasm
smoke app-wasm wenc wasm
smoke app-wasm wenc/wasm wasm
smoke app-nocc wenc wasm
# The explicit native entry says why when there is no addon.
if (cd "$work/app-wasm" && "$NODE" -e "require('wenc/native')" \
        > "$work/native-missing.out" 2>&1); then
    fail "require('wenc/native') without the addon did not throw"
fi
grep -q "wenc.node" "$work/native-missing.out" ||
    fail "require('wenc/native') without the addon did not name it: $(cat "$work/native-missing.out")"

# ---- the types, checked by TypeScript as a user's project would ----------
cat > "$work/app/consumer.ts" <<'EOF'
import {
  TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
  TextEncoderEncodeIntoResult, encode, decode, labelToName, Encoder, Decoder,
} from 'wenc';

const text: string = new TextDecoder('shift_jis', { fatal: true })
  .decode(new Uint8Array([0x82, 0xa0]), { stream: false });
const bytes: Uint8Array = new TextEncoder().encode(text);
const result: TextEncoderEncodeIntoResult =
  new TextEncoder().encodeInto(text, new Uint8Array(8));
const name: string = new TextDecoderStream('big5').encoding;
const reader = new TextEncoderStream().readable.getReader();
// @ts-expect-error decode() takes bytes, not a string
new TextDecoder().decode('not bytes');
const legacy: Uint8Array = encode('\u65e5', 'shift_jis', { unmappable: 'subst', substitute: '?' });
const back: string = decode(legacy, 'shift_jis', { fatal: true, bom: 'strip' });
const canonical: string | null = labelToName('sjis');
const chunk: Uint8Array = new Encoder('gbk', { unmappable: 'html' }).write('x');
const piece: string = new Decoder('big5').end(new Uint8Array([0xa4, 0x40]));
// @ts-expect-error unmappable takes one of four modes
encode('x', 'gbk', { unmappable: 'question-mark' });
reader.read().then((read) => {
  const first: Uint8Array | undefined = read.value;
  console.log(bytes.length, result.read + result.written, name, first, back,
    canonical, chunk, piece);
});
EOF
(cd "$work/app" && npm install --no-audit --no-fund --save-dev \
    typescript@5 @types/node@20 > "$work/tsc-install.out" 2>&1) || {
    cat "$work/tsc-install.out"
    fail "npm install typescript @types/node"
}
(cd "$work/app" && ./node_modules/.bin/tsc --strict --noEmit --module commonjs \
    --target es2022 --moduleResolution node --types node consumer.ts) ||
    fail "tsc --strict on a program using index.d.ts"
# The browser entry's types: the same API without Node's stream Transforms.
cat > "$work/app/browser-consumer.ts" <<'EOF'
import api, { encode, decoderStream, backend } from 'wenc/browser';

const which: 'wasm' = backend;
const bytes: Uint8Array = encode('\u65e5', 'shift_jis', { unmappable: 'fatal' });
const stream = decoderStream('gbk', { fatal: true });
// @ts-expect-error the browser entry has no Node stream Transforms
api.decodeStream('gbk');
console.log(which, bytes, stream);
EOF
(cd "$work/app" && ./node_modules/.bin/tsc --strict --noEmit --module esnext \
    --target es2022 --moduleResolution bundler --types node browser-consumer.ts) ||
    fail "tsc --strict on a program using wasm/browser.d.ts"
echo "index.d.ts, wasm/browser.d.ts: tsc --strict passed ($(cd "$work/app" && ./node_modules/.bin/tsc --version))"

# ---- the repository as it was ----------------------------------------------
sh "$here/pack.sh" clean
status_after=$(cd "$root" && git status --porcelain --ignored -- bindings/node 2>/dev/null || true)
[ "$status_before" = "$status_after" ] ||
    fail "bindings/node changed: before: $status_before; after: $status_after"
echo "pack-test: passed"
