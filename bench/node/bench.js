'use strict';
// wenc's TextDecoder/TextEncoder (bindings/node) against Node's built-in ones
// on the Wikipedia corpus. Run after `make node`:
//   node bench/node/bench.js [--quick] [--filter WORD]
// Prints a Markdown table: MB/s of input for each, and the ratio wenc/Node.

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const wenc = require(path.join(root, 'bindings', 'node'));
const addon = require(path.join(root, 'bindings', 'node', 'build', 'wenc.node'));

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filterAt = args.indexOf('--filter');
const filter = filterAt >= 0 ? args[filterAt + 1] : null;
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 60 : 150;

const corpusDir = [path.join(root, '..', 'shared', 'corpus', 'wikipedia'),
  '/work/shared/corpus/wikipedia'].find((dir) => fs.existsSync(dir));
if (!corpusDir) {
  console.error('bench: the corpus (../shared/corpus/wikipedia) is missing');
  process.exit(1);
}
const corpus = (name) => fs.readFileSync(path.join(corpusDir, name));

// Pieces of 16 to 64 bytes of UTF-8, cut at character boundaries.
function smallPieces(buffer, limit = 64) {
  const pieces = [];
  let start = 0;
  let want = 16;
  while (start < buffer.length && pieces.length < 4000) {
    let end = Math.min(start + want, buffer.length);
    while (end < buffer.length && (buffer[end] & 0xC0) === 0x80) end--;
    if (end <= start) break;
    pieces.push(buffer.subarray(start, end));
    start = end;
    want = want >= limit ? 16 : want + 8;
  }
  return pieces;
}

// Runs fn over inputs for ROUND_MS of CPU time (user + system, all threads
// of the process, so garbage collection counts; other processes' load does
// not); returns bytes per CPU second.
function rate(fn, inputs, bytesPerPass) {
  let passes = 0;
  const start = process.cpuUsage();
  let used = 0;
  do {
    for (let i = 0; i < inputs.length; i++) fn(inputs[i]);
    passes++;
    const usage = process.cpuUsage(start);
    used = usage.user + usage.system;
  } while (used < ROUND_MS * 1000);
  return (bytesPerPass * passes) / (used / 1e6);
}

const rows = [];
// Best of ROUNDS, ours and Node's taking turns so both see the same load.
function measure(operation, input, size, inputs, bytesPerPass, ours, theirs,
  same = true) {
  if (filter && !`${operation} ${input} ${size}`.includes(filter)) return;
  let best = [0, 0];
  for (let round = 0; round < ROUNDS; round++) {
    best = [Math.max(best[0], rate(ours, inputs, bytesPerPass)),
      Math.max(best[1], rate(theirs, inputs, bytesPerPass))];
  }
  const row = { operation, input, size, ours: best[0] / 1e6,
    node: best[1] / 1e6, ratio: best[0] / best[1], same };
  rows.push(row);
  console.error(`${operation} ${input} ${size}: wenc ${row.ours.toFixed(0)}` +
    ` MB/s, node ${row.node.toFixed(0)} MB/s, ${row.ratio.toFixed(2)}x`);
}

const sum = (pieces) => pieces.reduce((n, piece) => n + piece.length, 0);
const smallSize = (pieces) =>
  `small, ${Math.round(sum(pieces) / pieces.length)} B avg`;

function decodeRows(label, input, buffer, pieces) {
  const ours = new wenc.TextDecoder(label);
  const theirs = new TextDecoder(label);
  const same = ours.decode(buffer) === theirs.decode(buffer);
  if (!same) console.error(`note: ${label} ${input}: outputs differ from Node's`);
  measure(`decode ${label}`, input, `${(buffer.length / 1024).toFixed(0)} KiB`,
    [buffer], buffer.length, (b) => ours.decode(b), (b) => theirs.decode(b),
    same);
  measure(`decode ${label}`, input, smallSize(pieces), pieces, sum(pieces),
    (b) => ours.decode(b), (b) => theirs.decode(b),
    pieces.every((b) => ours.decode(b) === theirs.decode(b)));
}

const utf8Inputs = ['en.html', 'fr.txt', 'ru.txt', 'ja.txt', 'zh_cn.txt',
  'th.html'];
for (const name of utf8Inputs) {
  decodeRows('utf-8', name, corpus(name), smallPieces(corpus(name)));
}
const asciiOnly = Buffer.from(corpus('en.txt').filter((b) => b < 0x80));
decodeRows('utf-8', 'en.txt ASCII only', asciiOnly, smallPieces(asciiOnly));

// Inputs in other encodings: the whole file, and the small UTF-8 pieces each
// converted on its own (so each is well-formed).
function convertedRows(label, name, convert) {
  const pieces = smallPieces(corpus(name)).map((piece) =>
    convert(piece.toString('utf8'))).filter((piece) => piece.length <= 64);
  decodeRows(label, name, convert(corpus(name).toString('utf8')), pieces);
}

for (const name of ['en.txt', 'ja.txt']) {
  convertedRows('utf-16le', name, (text) => Buffer.from(text, 'utf16le'));
}

const ourEncoder = new wenc.TextEncoder();
const nodeEncoder = new TextEncoder();
for (const name of ['en.html', 'ru.txt', 'ja.txt']) {
  const text = corpus(name).toString('utf8');
  const bytes = Buffer.byteLength(text);
  measure('encode', name, `${(bytes / 1024).toFixed(0)} KiB`, [text], bytes,
    (s) => ourEncoder.encode(s), (s) => nodeEncoder.encode(s));
  const small = smallPieces(corpus(name)).map((p) => p.toString('utf8'));
  const size = smallSize(smallPieces(corpus(name)));
  measure('encode', name, size, small, sum(smallPieces(corpus(name))),
    (s) => ourEncoder.encode(s), (s) => nodeEncoder.encode(s));
  const destination = new Uint8Array(bytes + 16);
  measure('encodeInto', name, `${(bytes / 1024).toFixed(0)} KiB`, [text],
    bytes, (s) => ourEncoder.encodeInto(s, destination),
    (s) => nodeEncoder.encodeInto(s, destination));
  measure('encodeInto', name, size, small, sum(smallPieces(corpus(name))),
    (s) => ourEncoder.encodeInto(s, destination),
    (s) => nodeEncoder.encodeInto(s, destination));
}

// Legacy encodings Node has, with text in each made by our encoder.
const legacy = [
  ['shift_jis', 'ja.txt'], ['euc-jp', 'ja.txt'], ['iso-2022-jp', 'ja.txt'],
  ['gb18030', 'zh_cn.txt'], ['gbk', 'zh_cn.html'], ['big5', 'zh_tw.txt'],
  ['euc-kr', 'ko.txt'], ['windows-1251', 'ru.txt'], ['koi8-r', 'ru.txt'],
  ['windows-1252', 'fr.txt'], ['iso-8859-2', 'cs.txt'],
  ['windows-1253', 'el.txt'], ['windows-1255', 'he.txt'],
  ['windows-1256', 'ar.txt'], ['windows-874', 'th.txt'],
];
const missing = [];
for (const [label, name] of legacy) {
  try {
    new TextDecoder(label);
  } catch {
    missing.push(label);
    continue;
  }
  convertedRows(label, name, (text) => addon.encodeLegacy(label, text, false));
}
if (missing.length) {
  console.error(`this Node has no decoder for: ${missing.join(', ')}`);
}

console.log(`Node ${process.version}, ${require('node:os').cpus()[0].model}` +
  `, best of ${ROUNDS} rounds of ${ROUND_MS} ms of CPU time; MB/s of ` +
  'input bytes per CPU second');
console.log('');
console.log('| operation | input | size | wenc MB/s | Node MB/s | wenc/Node |' +
  ' same output |');
console.log('|---|---|---|---:|---:|---:|---|');
for (const row of rows) {
  console.log(`| ${row.operation} | ${row.input} | ${row.size} | ` +
    `${row.ours.toFixed(0)} | ${row.node.toFixed(0)} | ` +
    `${row.ratio.toFixed(2)} | ${row.same ? 'yes' : 'no'} |`);
}
