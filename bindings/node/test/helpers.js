'use strict';
// Shared by the tests: the binding, the Standard's data and the corpus.

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', '..');
const wenc = require('..');
const addon = require('../build/wenc.node');

function firstDirectory(candidates) {
  return candidates.find((dir) => dir && fs.existsSync(dir)) || null;
}

// The Standard's data: $WENC_DATA_DIR, or ../shared/whatwg beside the clone.
const dataDir = firstDirectory([
  process.env.WENC_DATA_DIR,
  path.join(root, '..', 'shared', 'whatwg'),
].map((dir) => dir && path.join(dir, 'encodings.json')))
  ?.replace(/encodings\.json$/, '') ?? null;

// The corpus: $WENC_CORPUS_DIR, or ../shared/corpus/wikipedia.
const corpusDir = firstDirectory([
  process.env.WENC_CORPUS_DIR,
  path.join(root, '..', 'shared', 'corpus', 'wikipedia'),
]);

// Skips a test loudly: node:test reports it as skipped (and test.sh then
// exits 77: not every check ran), and the console says what was not
// checked. Where WENC_TEST_REQUIRE_ALL=1 asks for every check (CI), the
// test fails instead.
function skipLoudly(t, why) {
  if (process.env.WENC_TEST_REQUIRE_ALL === '1') {
    throw new Error(`${why}, and WENC_TEST_REQUIRE_ALL=1 requires it`);
  }
  console.log(`SKIPPED: ${t.name}: ${why}`);
  t.skip(why);
}

// Why an entry (native.js, wasm.js) cannot be tested here, or null: its
// file is missing, or, for wasm.js, the WebAssembly build it loads
// (wasm/build.sh skips that build where the wasm toolchain is missing).
function entryMissing(file) {
  const dir = path.join(root, 'bindings', 'node');
  if (!fs.existsSync(path.join(dir, file))) return `${file} does not exist`;
  if (file === 'wasm.js' &&
      !fs.existsSync(path.join(dir, 'wasm', 'dist', 'wenc.wasm'))) {
    return 'wasm.js has no build (wasm/dist/wenc.wasm: wasm/build.sh ' +
      'needs clang, lld, wasi-libc and libclang-rt-14-dev-wasm32)';
  }
  return null;
}

function needData(t) {
  if (dataDir) return true;
  skipLoudly(t, 'the Standard\'s data (encodings.json, index-*.txt) was not ' +
    'found in $WENC_DATA_DIR or ../shared/whatwg');
  return false;
}

function needCorpus(t) {
  if (corpusDir) return true;
  skipLoudly(t, 'the corpus was not found in $WENC_CORPUS_DIR or ' +
    '../shared/corpus/wikipedia');
  return false;
}

function needResizable(t) {
  if (ArrayBuffer.prototype.resize) return true;
  skipLoudly(t, 'this Node has no resizable ArrayBuffer (Node 20+)');
  return false;
}

function encodings() {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'encodings.json'),
    'utf8'));
}

// An index file as a Map pointer → code point, in file order.
function readIndex(name) {
  const text = fs.readFileSync(path.join(dataDir, `index-${name}.txt`), 'utf8');
  const index = new Map();
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+0x([0-9A-F]+)/.exec(line);
    if (match) index.set(Number(match[1]), parseInt(match[2], 16));
  }
  return index;
}

function corpusFiles() {
  return fs.readdirSync(corpusDir)
    .filter((name) => /\.(txt|html)$/.test(name) && name !== 'sources.txt')
    .sort()
    .map((name) => path.join(corpusDir, name));
}

function bytes(...values) {
  return new Uint8Array(values.flat());
}

module.exports = {
  root, wenc, addon, dataDir, corpusDir, skipLoudly, entryMissing, needData,
  needCorpus,
  needResizable,
  encodings, readIndex, corpusFiles, bytes,
};
