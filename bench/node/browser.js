'use strict';
// wenc's WebAssembly build in headless Chromium against the browser's own
// TextDecoder/TextEncoder and @exodus/bytes.
//
//   make wasm                                # bindings/node/wasm/ (browser.mjs)
//   npm ci --prefix bench/node               # @exodus/bytes, pinned
//   node bench/node/browser.js [--quick] [--filter WORD]... [--sizes 16,1024,1048576]
//                              [--rounds N] [--round-ms N]
//
// The rows are bench.js's (lib/inputs.js), made here in Node with wenc's
// encoder and served to the page; decode rows, and encode rows (@exodus/bytes
// encodes every encoding here; the browser's TextEncoder UTF-8 only). A
// node:http server on 127.0.0.1 serves the repository (with
// bench/node/node_modules) and the page, which loads @exodus/bytes's files
// for browsers through an import map made from its package.json, as a
// bundler would pick them. tools/chromium.js launches /usr/bin/chromium
// headless; lib/page.mjs checks each implementation's output against wenc's
// and runs it for a round of ROUND_MS (by performance.now()), and this
// script divides the work done by the CPU time of the page's main thread
// over the round (the DevTools protocol's Performance.getMetrics
// ThreadTime), so that other processes' load does not count: median of
// ROUNDS rounds, after a second to warm up (Chromium's V8 optimizes later
// than Node's; --quick: 300 ms), implementations taking turns. "wasm ÷
// best peer" is wenc over the fastest peer whose output was right.

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { ENCODINGS, Inputs, root } = require('./lib/inputs.js');
const { loadWenc, wencVersion } = require('./lib/wenc.js');
const report = require('./lib/report.js');
const shared = require('./lib/shared.mjs');
const chromium = require('../../tools/chromium.js');

const USAGE = 'usage: node bench/node/browser.js [--quick] [--filter WORD]... ' +
  '[--sizes 16,1024,1048576] [--rounds N] [--round-ms N]\n';

const WENC_MODULE = '/bindings/node/wasm/browser.mjs';
const EXODUS = '/bench/node/node_modules/@exodus/bytes/';

// @exodus/bytes's multi-byte tables are JSON behind a CommonJS file,
// module.exports = () => require('./multi-byte.encodings.json'); the server
// gives the page that as an ES module, as a bundler does.
const MULTI_BYTE_TABLES = 'fallback/multi-byte.encodings.cjs';
const MULTI_BYTE_MODULE = '/__bench__/multi-byte.encodings.mjs';

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json',
  '.html': 'text/html; charset=utf-8', '.bin': 'application/octet-stream' };

// The import map a bundler's "browser" condition amounts to: each export of
// @exodus/bytes to its browser file, and its package.json's "browser"
// replacements of internal files.
function importMap() {
  const dir = path.join(root, EXODUS);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const imports = { '@exodus/bytes/': EXODUS };
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (key === '.') continue;
    const file = typeof target === 'string' ? target : target.browser ?? target.default;
    imports[`@exodus/bytes/${key.slice(2)}`] = EXODUS + file.slice(2);
  }
  for (const [from, to] of Object.entries(pkg.browser || {})) {
    imports[EXODUS + from.slice(2)] = EXODUS + to.slice(2);
  }
  // Its one CommonJS file, which a bundler turns into a module.
  imports[EXODUS + MULTI_BYTE_TABLES] = MULTI_BYTE_MODULE;
  return { imports };
}

function pageHtml() {
  return `<!doctype html>
<meta charset="utf-8">
<title>wenc bench</title>
<script type="importmap">${JSON.stringify(importMap())}</script>
<script type="module">
import { start } from '/bench/node/lib/page.mjs';
window.bench = start(${JSON.stringify(WENC_MODULE)});
window.bench.catch(() => {});
</script>
`;
}

// Serves the repository read-only, the page, and the rows' inputs
// (rows: Map id → { json, bin }). Resolves to the server, listening on a
// free port of 127.0.0.1.
function serve(rows) {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const send = (status, type, body) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (url.pathname === '/__bench__/page.html') return send(200, TYPES['.html'], pageHtml());
    if (url.pathname === MULTI_BYTE_MODULE) {
      const json = fs.readFileSync(path.join(root, EXODUS,
        MULTI_BYTE_TABLES.replace(/\.cjs$/, '.json')), 'utf8');
      return send(200, TYPES['.mjs'], `const tables = ${json};\nexport default () => tables;\n`);
    }
    const row = /^\/__bench__\/rows\/(\d+)\.(json|bin)$/.exec(url.pathname);
    if (row) {
      const data = rows.get(Number(row[1]));
      return data ? send(200, TYPES[`.${row[2]}`], data[row[2]])
        : send(404, 'text/plain', 'no such row');
    }
    const file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root + path.sep)) return send(403, 'text/plain', 'outside');
    fs.readFile(file, (error, body) => {
      if (error) return send(404, 'text/plain', 'not found');
      send(200, TYPES[path.extname(file)] || 'application/octet-stream', body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

async function main() {
  const started = process.hrtime.bigint();
  // Chromium's V8 takes longer than Node's to optimize the loops: a second
  // to warm up (300 ms with --quick).
  const argv = process.argv.slice(2);
  const options = report.parseOptions(argv, USAGE,
    argv.includes('--quick') ? 300 : 1000);
  // Node 20 has a WebSocket only with --experimental-websocket: this runs
  // the script again with it, and this process only waits for that one.
  if (chromium.ensureWebSocket() === false) return;
  if (!fs.existsSync(path.join(root, WENC_MODULE))) {
    console.error(`browser: ${WENC_MODULE} is missing; run "make wasm" first`);
    process.exit(1);
  }
  // Inputs are made with wenc's encoder in Node (native, else the fallback).
  const wenc = await loadWenc();
  const inputs = new Inputs(wenc.native);
  const rowData = new Map();
  const server = await serve(rowData);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch();
  const evaluate = (expression) => page.evaluate(expression,
    { timeoutMs: 600000 });
  let page;
  // Milliseconds of CPU time of the page's main thread, where it runs.
  const threadMs = async () => (await page.send('Performance.getMetrics'))
    .metrics.find((m) => m.name === 'ThreadTime').value * 1000;
  const columns = ['wenc wasm', '@exodus/bytes', 'Chromium TextDecoder/TextEncoder'];
  const peers = columns.slice(1);
  const rows = { decode: [], encode: [] };
  let userAgent = '';
  try {
    page = await browser.newPage();
    await page.send('Performance.enable', {});
    await page.navigate(`${base}/__bench__/page.html`);
    userAgent = await evaluate('window.bench.then((b) => b.userAgent)');
    console.error(`${userAgent}; wenc ${wencVersion()}`);
    let id = 0;
    for (const [label, file] of ENCODINGS) {
      for (const size of options.sizes) {
        const names = ['decode', 'encode'].map((d) => report.rowName(d, label, file, size));
        if (!names.some((name) => report.wanted(options, name))) continue;
        const pieces = inputs.pieces(label, file, size);
        rowData.set(++id, {
          json: JSON.stringify({ strings: pieces.map((p) => p.string),
            lengths: pieces.map((p) => p.bytes.length) }),
          bin: Buffer.concat(pieces.map((p) => p.bytes)),
        });
        for (const direction of ['decode', 'encode']) {
          const name = report.rowName(direction, label, file, size);
          if (!report.wanted(options, name)) continue;
          const spec = { url: `/__bench__/rows/${id}`, label, direction };
          const row = await evaluate(
            `window.bench.then((b) => b.prepare(${JSON.stringify(spec)}))`);
          if (row.warning) console.error(`  WARNING: ${row.warning}`);
          const medians = await shared.timeRounds(row.timed.length, options,
            async (i, ms) => {
              const start = await threadMs();
              const passes = await evaluate(`window.bench.then((b) => b.round(${i}, ${ms}))`);
              return (row.bytesPerPass * passes) / ((await threadMs() - start) / 1e3);
            });
          const results = new Map();
          for (const c of columns) {
            const got = row.results[c];
            if (!got) continue;
            if (got.status === 'error') console.error(`  ${c} threw: ${got.message}`);
            results.set(c, { status: got.status,
              mbps: got.status === 'error' ? 0 : medians[row.timed.indexOf(c)] / 1e6 });
          }
          rows[direction].push({ label, file, size, results });
          console.error(`${name}: ${[...results].map(([c, r]) =>
            `${c} ${report.mbps(r.mbps)}${r.status === 'ok' ? '' : ` (${r.status})`}`)
            .join(', ')}`);
        }
        rowData.delete(id);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  const ratios = [{ title: 'wasm ÷ best peer', ours: 'wenc wasm', peers }];
  const bests = [{ title: 'best peer', peers }];
  const out = [`${userAgent}, headless  `,
    `wenc ${wencVersion()}; @exodus/bytes ${JSON.parse(fs.readFileSync(
      path.join(root, EXODUS, 'package.json'), 'utf8')).version}  `,
    `median of ${options.rounds} rounds of ${options.roundMs} ms (after ${options.warmMs} ms ` +
      'to warm up); MB/s of encoded bytes (decode: input, encode: output) per ' +
      "second of the page's main thread's CPU time  ", ''];
  for (const direction of ['decode', 'encode']) {
    if (!rows[direction].length) continue;
    out.push(`### ${direction} (Chromium)`, '');
    out.push(report.table(rows[direction], columns, ratios, bests), '');
    out.push(`${ratios[0].title}: ${report.summary(rows[direction],
      (row) => report.ratio(row.results, 'wenc wasm', peers))}  `, '');
  }
  console.log(out.join('\n'));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.error(`browser: ${seconds.toFixed(0)} s`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
