'use strict';
// The Web Platform Tests of the Encoding Standard (tests/data/wpt-encoding)
// in headless Chromium, and, for --impl=wenc, two more parts:
//   code-points: every encoder over every scalar value and every decoder
//     over every lead/trail pair (every-code-point.js), in the page with
//     wenc's browser module, compared by SHA-256 digest with the C library
//     (native.js, in Node); a mismatch is located (first differing byte, and
//     the code point or input byte it comes from);
//   api: api-checks.js (the wider API and the stream classes, exact
//     expected values) in the page.
//
//   node bindings/node/test/browser/run.js [--impl=wenc|native-browser]
//        [--json] [--timeout=SECONDS] [--parts=wpt,code-points,api]
//        [--corrupt=KEY@BYTE]
//
// --corrupt flips a byte of one code-points key's output in the page (a
// check that the comparison fails, and where it says): e.g.
// --corrupt='Shift_JIS|encode|html|whole@500000'.
//
// --impl=wenc (the default) runs them against wenc's browser module,
// bindings/node/wasm/browser.mjs; --impl=native-browser against Chromium's
// own TextDecoder and friends (a check of our harness). Serves the
// repository read-only on 127.0.0.1 (a random port), starts Chromium
// (/usr/bin/chromium or $CHROMIUM) through tools/chromium.js, loads
// run-file.html once per WPT file, and compares the results with
// test/wpt/expected-failures.json for environment "browser:<impl>".
// Prints a summary per file (--json: one JSON object instead).
//
// Exit status: 0 as expected, 1 otherwise (or on a timeout: 300 s by
// default, for the whole run), 77 skipped: no Chromium, or for --impl=wenc
// no browser.mjs yet, or a part could not run (code-points without the
// native addon, api's index checks without the Standard's data in
// $WENC_DATA_DIR or ../shared/whatwg); 1 instead under
// WENC_TEST_REQUIRE_ALL=1. Chromium and its profile directory are removed
// on every exit.

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const chromium = require('../../../../tools/chromium.js');
const files = require('../wpt/files.js');
const { HARNESS_CHECKS, sameResults } = require('../wpt/harness-checks.js');
const codePoints = require('./code-points-node.js');
const E = require('./every-code-point.js');

const IMPLS = ['wenc', 'native-browser'];
const PARTS = ['wpt', 'code-points', 'api'];
const WENC_MODULE = path.join(files.root, 'bindings', 'node', 'wasm',
  'browser.mjs');
const HERE = '/bindings/node/test/browser/';
const PAGE = `${HERE}run-file.html`;
// The Standard's data (encodings.json, index-*.txt), served as /whatwg/:
// $WENC_DATA_DIR, or ../shared/whatwg beside the repository (as
// test/helpers.js finds it).
const DATA_DIR = [process.env.WENC_DATA_DIR,
  path.join(files.root, '..', 'shared', 'whatwg')]
  .find((dir) => dir && fs.existsSync(path.join(dir, 'encodings.json')));

function parseArgs(argv) {
  const options = { impl: 'wenc', json: false, timeoutMs: 300000,
    parts: PARTS };
  for (const arg of argv) {
    let match;
    if ((match = /^--impl=(.+)$/.exec(arg))) {
      options.impl = match[1];
    } else if (arg === '--json') {
      options.json = true;
    } else if ((match = /^--timeout=(\d+)$/.exec(arg))) {
      options.timeoutMs = Number(match[1]) * 1000;
    } else if ((match = /^--parts=(.*)$/.exec(arg))) {
      options.parts = match[1].split(',');
    } else if ((match = /^--corrupt=(.+)@(\d+)$/.exec(arg))) {
      options.corrupt = { key: match[1], at: Number(match[2]) };
    } else {
      throw new Error(`unknown argument ${arg}\nusage: node run.js ` +
        '[--impl=wenc|native-browser] [--json] [--timeout=SECONDS] ' +
        `[--parts=${PARTS.join(',')}] [--corrupt=KEY@BYTE]`);
    }
  }
  if (!IMPLS.includes(options.impl)) {
    throw new Error(`--impl must be one of ${IMPLS.join(', ')}`);
  }
  if (options.parts.some((part) => !PARTS.includes(part))) {
    throw new Error(`--parts takes ${PARTS.join(', ')}`);
  }
  // The parts beyond the WPT files test wenc's own API.
  if (options.impl !== 'wenc') {
    options.parts = options.parts.filter((part) => part === 'wpt');
  }
  return options;
}

function skip(why) {
  console.log('#'.repeat(72));
  console.log(`# SKIPPED: the WPT encoding tests in Chromium: ${why}`);
  console.log('#'.repeat(72));
  if (process.env.WENC_TEST_REQUIRE_ALL === '1') {
    console.log('WENC_TEST_REQUIRE_ALL=1 requires it: failing');
    process.exit(1);
  }
  process.exit(77);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.txt': 'text/plain; charset=utf-8',
};

// A read-only static server of the repository, and of the directories in
// mounts ({ '/prefix/': directory }) under their prefixes. Every response
// makes the page cross-origin isolated (COOP + COEP), so SharedArrayBuffer
// exists, as the WPT files that use it expect.
function serve(rootDir, mounts = {}) {
  const server = http.createServer((request, response) => {
    const headers = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    };
    const answer = (status, text) => {
      response.writeHead(status, { ...headers,
        'Content-Type': 'text/plain; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      answer(405, 'read-only');
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    } catch {
      answer(400, 'bad path');
      return;
    }
    let base = rootDir;
    let relative = pathname;
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (pathname.startsWith(prefix)) {
        base = path.resolve(dir);
        relative = pathname.slice(prefix.length - 1);
      }
    }
    const file = path.resolve(base, `.${relative}`);
    const inside = file.startsWith(base + path.sep);
    const hidden = pathname.split('/').some((part) => part.startsWith('.'));
    let stat = null;
    if (inside && !hidden) {
      try {
        stat = fs.statSync(file);
      } catch {
        stat = null;
      }
    }
    if (!stat || !stat.isFile()) {
      answer(404, 'not found');
      return;
    }
    response.writeHead(200, { ...headers,
      'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Content-Length': stat.size });
    if (request.method === 'HEAD') {
      response.end();
    } else {
      fs.createReadStream(file).pipe(response);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// The CPU time spent so far by Chromium's processes (by type) and by this
// one, as a line.
async function cpuSeconds(browser) {
  const node = process.cpuUsage();
  const parts = [`node ${((node.user + node.system) / 1e6).toFixed(1)} s`];
  try {
    const { processInfo } = await browser.send('SystemInfo.getProcessInfo');
    const byType = {};
    for (const { type, cpuTime } of processInfo) {
      byType[type] = (byType[type] || 0) + cpuTime;
    }
    for (const [type, seconds] of Object.entries(byType)) {
      parts.push(`${type} ${seconds.toFixed(1)} s`);
    }
  } catch (error) {
    parts.push(`Chromium's: ${error.message}`);
  }
  return `CPU time: ${parts.join(', ')}`;
}

let navigations = 0;
// A page's URL with its job as the fragment; a new query string each time,
// so each navigation is a new document, not a fragment change.
const pageUrl = (base, page, job) => `${base}${page}?n=${++navigations}#` +
  encodeURIComponent(JSON.stringify(job));

// Part wpt: our harness's own checks, then every WPT file, compared with
// the expected failures. isStopped() says why the run was stopped (null:
// it was not); resetLog(page) empties the page's log.
async function runWpt(page, base, options, env, isStopped, resetLog, logOf) {
  const started = Date.now();
  const harnessProblems = [];
  for (let check = 0; check < HARNESS_CHECKS.length; check++) {
    if (isStopped() !== null) break;
    const [what, , want] = HARNESS_CHECKS[check];
    let got;
    try {
      await page.navigate(pageUrl(base, PAGE, { check, timeoutMs: 300,
        impl: options.impl }), { timeoutMs: 30000 });
      got = await page.evaluate('window.wencWptResults',
        { timeoutMs: 15000 });
    } catch (error) {
      got = [{ name: '(harness)', status: 'FAIL', message: error.message }];
    }
    if (!sameResults(got, want)) {
      harnessProblems.push(`HARNESS CHECK FAILED: ${what}: expected ` +
        `${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  const testFiles = files.testFiles();
  const results = [];
  for (const file of testFiles) {
    if (isStopped() !== null) break;
    const { scripts, timeoutMs } = files.describeFile(file);
    const job = { file, scripts, timeoutMs, impl: options.impl };
    resetLog(page);
    try {
      await page.navigate(pageUrl(base, PAGE, job), { timeoutMs: 30000 });
      results.push(...await page.evaluate('window.wencWptResults',
        { timeoutMs: timeoutMs + 15000 }));
    } catch (error) {
      results.push({ file, name: '(harness)', status: 'FAIL',
        message: `the page did not run the file: ${error.message}` +
          logOf(page) });
    }
  }
  const expected = files.loadExpectedFailures();
  const comparison = files.compare(results, expected, env, testFiles);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return {
    part: 'wpt',
    ok: files.ok(comparison) && harnessProblems.length === 0,
    lines: [...files.report(comparison, env), ...harnessProblems,
      `harness checks: ${HARNESS_CHECKS.length - harnessProblems.length} ` +
      `of ${HARNESS_CHECKS.length} as expected`,
      `part wpt: ${testFiles.length} files in ${seconds} s`],
    json: {
      harnessProblems, perFile: Object.fromEntries(comparison.perFile),
      unexpected: comparison.unexpected, fixed: comparison.fixed,
      missing: comparison.missing,
      expectedFailures: comparison.expectedFailures, results,
    },
  };
}

// The code-points page's work is shared by this many tabs (renderer
// processes), by encoding: encoding i goes to tab i % CODE_POINT_TABS.
const CODE_POINT_TABS = 2;
const tabOf = (tabs, key) => tabs[E.ENCODINGS.indexOf(E.parseKey(key).name) %
  tabs.length];

// Part code-points, first half: opens every-code-point.html in tabs of its
// own (they start at once), then computes the C library's digests here.
async function startCodePoints(browser, base, watch, corrupt) {
  const started = Date.now();
  const { native, why } = codePoints.loadNative();
  if (!native) return { started, skipped: why };
  const tabs = [];
  for (let share = 0; share < CODE_POINT_TABS; share++) {
    const tab = await browser.newPage();
    await watch(tab);
    await tab.navigate(pageUrl(base, `${HERE}every-code-point.html`,
      { share, shares: CODE_POINT_TABS, corrupt }), { timeoutMs: 30000 });
    tabs.push(tab);
  }
  const nodeStarted = Date.now();
  const reference = codePoints.createReference(native);
  const { digests, bytes } = reference.digests();
  const problems = [];
  if (DATA_DIR) {
    const names = JSON.parse(fs.readFileSync(path.join(DATA_DIR,
      'encodings.json'), 'utf8')).flatMap((group) =>
      group.encodings.map((encoding) => encoding.name));
    if (JSON.stringify(names) !== JSON.stringify(E.ENCODINGS)) {
      problems.push('every-code-point.js\'s ENCODINGS are not ' +
        `encodings.json's names: ${names.join(', ')}`);
    }
  }
  return { started, tabs, reference, digests, bytes, problems,
    nodeSeconds: (Date.now() - nodeStarted) / 1000 };
}

// Part code-points, second half: the page's digests against the C
// library's; the first few mismatches are located.
async function finishCodePoints(run, logOf, timeoutMs) {
  if (run.skipped) {
    return { part: 'code-points', ok: true, skipped: run.skipped, lines: [],
      json: { skipped: run.skipped } };
  }
  const { tabs, reference, digests, problems } = run;
  // The tabs' results together: their digests, the time of the slowest,
  // the times per kind of work summed.
  const page = { digests: {}, ms: {}, total: 0 };
  for (const tab of tabs) {
    try {
      const one = await tab.evaluate('window.wencEveryCodePoint',
        { timeoutMs });
      Object.assign(page.digests, one.digests);
      page.total = Math.max(page.total, one.total);
      for (const [what, ms] of Object.entries(one.ms)) {
        page.ms[what] = (page.ms[what] || 0) + ms;
      }
    } catch (error) {
      problems.push(`a page did not finish: ${error.message}${logOf(tab)}`);
    }
  }
  const keys = E.keys();
  const mismatched = [];
  for (const key of keys) {
    const got = page.digests[key];
    if (got !== digests.get(E.parseKey(key).reference)) {
      mismatched.push(key);
      if (got !== undefined && !/^[0-9a-f]{64}$/.test(got)) {
        problems.push(`${key}: ${got.split('\n')[0]}`);
      }
    }
  }
  const LOCATED = 3;
  for (const key of mismatched.slice(0, LOCATED)) {
    if (!/^[0-9a-f]{64}$/.test(page.digests[key] || '')) continue;
    problems.push(...await reference.locate(key, async (from, to) => {
      const { length, base64 } = await tabOf(tabs, key).evaluate(
        `window.wencEveryOutput(${JSON.stringify(key)}, ${from}, ${to})`,
        { timeoutMs: 60000 });
      return { length, bytes: new Uint8Array(Buffer.from(base64, 'base64')) };
    }));
  }
  const encoders = E.ENCODINGS.length - 1;
  const decoders = E.ENCODINGS.length;
  const lines = [
    ...mismatched.map((key) => `CODE POINTS MISMATCH: ${key}`),
    ...problems,
    `part code-points: ${keys.length - mismatched.length} of ${keys.length} ` +
    `digests equal to the C library's: ${encoders} encoders × ` +
    `${E.SCALAR_VALUES} scalar values × ${E.ENCODE_MODES.join(', ')} ` +
    `(whole + chunks of one of ${E.ENCODE_CHUNKS.join(', ')}), ` +
    `${decoders} decoders (whole + chunks of ${E.DECODE_CHUNKS.join(', ')}); ` +
    `C library ${run.digests.size} outputs, ${run.bytes} bytes, in ` +
    `${run.nodeSeconds.toFixed(1)} s; ${tabs.length} tabs ` +
    `${(page.total / 1000).toFixed(1)} s (work: ${Object.entries(page.ms)
      .map(([what, ms]) =>
      `${what} ${(ms / 1000).toFixed(1)} s`).join(', ')}); ` +
    `part ${((Date.now() - run.started) / 1000).toFixed(1)} s`,
  ];
  return { part: 'code-points', ok: mismatched.length === 0 &&
    problems.length === 0, lines,
  json: { mismatched, problems, keys: keys.length, pageMs: page.ms,
    pageTotalMs: page.total,
    nodeSeconds: run.nodeSeconds } };
}

// Part api: api-checks.js in api.html.
async function runApi(page, base, logOf) {
  const started = Date.now();
  let results;
  try {
    await page.navigate(pageUrl(base, `${HERE}api.html`,
      { data: Boolean(DATA_DIR) }), { timeoutMs: 30000 });
    results = await page.evaluate('window.wencApiResults',
      { timeoutMs: 30000 });
  } catch (error) {
    results = [{ name: '(page)', status: 'FAIL', assertions: 0,
      message: `${error.message}${logOf(page)}` }];
  }
  const count = (status) => results.filter((r) => r.status === status)
    .length;
  const assertions = results.reduce((sum, r) => sum + r.assertions, 0);
  const skipped = results.filter((r) => r.status === 'SKIP');
  return {
    part: 'api',
    ok: count('FAIL') === 0 && count('PASS') > 0,
    skipped: skipped.length ? `${skipped.map((r) => r.name).join(', ')}: ` +
      'the Standard\'s data was not found in $WENC_DATA_DIR or ' +
      '../shared/whatwg' : null,
    lines: [
      ...results.filter((r) => r.status === 'FAIL').map((r) =>
        `API CHECK FAILED: ${r.name}: ${r.message}`),
      `part api: ${count('PASS')} of ${results.length} checks passed ` +
      `(${assertions} comparisons)${skipped.length ? `, ${skipped.length} ` +
        'skipped' : ''}, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ],
    json: { results },
  };
}

async function main() {
  if (!chromium.ensureWebSocket()) return; // runs again with the flag
  const options = parseArgs(process.argv.slice(2));
  const env = `browser:${options.impl}`;
  const executable = chromium.findChromium();
  if (!executable) {
    skip('no Chromium (/usr/bin/chromium, or set $CHROMIUM)');
  }
  if (options.impl === 'wenc' && !fs.existsSync(WENC_MODULE)) {
    skip('bindings/node/wasm/browser.mjs does not exist yet (the ' +
      'WebAssembly build for browsers); --impl=native-browser checks the ' +
      'harness with Chromium\'s own classes');
  }

  const started = Date.now();
  let browser = null;
  let server = null;
  const cleanUp = async () => {
    if (browser) await browser.close().catch(() => {});
    browser = null;
    if (server) server.close();
    server = null;
  };
  // On timeout or a signal: close Chromium (what is pending in it fails at
  // once) and report why, not the results.
  let stopped = null;
  const stop = (why) => {
    if (stopped === null) stopped = why;
    cleanUp();
  };
  const timer = setTimeout(() => stop(`the run did not finish in ` +
    `${options.timeoutMs / 1000} s (--timeout=SECONDS to change)`),
  options.timeoutMs);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => stop(`interrupted by ${signal}`));
  }

  let exitCode = 1;
  try {
    server = await serve(files.root, DATA_DIR ? { '/whatwg/': DATA_DIR } : {});
    const base = `http://127.0.0.1:${server.address().port}`;
    browser = await chromium.launch({ executable, args: [
      // The code-points tabs work in the background, while another runs.
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows'] });
    const page = await browser.newPage();
    // What a page logs (a module that fails to load, a 404, an uncaught
    // exception) explains a file that did not run.
    const pageLogs = new Map();
    const note = (params, session) => {
      if (!pageLogs.has(session)) return;
      const entry = params.entry || params.exceptionDetails;
      const text = params.entry ?
        `${entry.level}: ${entry.text}${entry.url ? ` (${entry.url})` : ''}` :
        (entry.exception && entry.exception.description) || entry.text;
      pageLogs.get(session).push(text.split('\n')[0]);
    };
    browser.on('Log.entryAdded', note);
    browser.on('Runtime.exceptionThrown', note);
    const watch = async (target) => {
      pageLogs.set(target.sessionId, []);
      await target.send('Log.enable');
      await target.send('Runtime.enable');
    };
    const logOf = (target) => {
      const log = pageLogs.get(target.sessionId);
      return log.length ? `; the page logged: ${log.join('; ')}` : '';
    };
    await watch(page);

    // The code points first, in tabs of their own: the pages work while
    // Node computes the C library's digests and while the WPT files run.
    const partResults = [];
    let codePointRun = null;
    if (options.parts.includes('code-points')) {
      codePointRun = await startCodePoints(browser, base, watch,
        options.corrupt);
    }

    if (options.parts.includes('wpt')) {
      partResults.push(await runWpt(page, base, options, env, () => stopped,
        (target) => pageLogs.set(target.sessionId, []), logOf));
    }
    if (codePointRun) {
      partResults.push(await finishCodePoints(codePointRun, logOf,
        options.timeoutMs));
    }
    if (options.parts.includes('api')) {
      partResults.push(await runApi(page, base, logOf));
    }
    // CPU time, which says more than the wall time on a loaded machine.
    const cpu = await cpuSeconds(browser);
    if (stopped !== null) throw new Error(stopped);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const ok = partResults.every((part) => part.ok);
    const skipped = partResults.filter((part) => part.skipped);
    if (options.json) {
      // The WPT part's fields at the top level (as before the other parts),
      // the others under their names.
      console.log(JSON.stringify({
        env, seconds: Number(seconds), ok,
        ...Object.fromEntries(partResults.map((part) => part.part === 'wpt' ?
          [] : [[part.part, part.json]]).flat()),
        ...(partResults.find((part) => part.part === 'wpt') || {}).json,
      }, null, 1));
    } else {
      for (const part of partResults) {
        for (const line of part.lines) console.log(line);
      }
      for (const part of skipped) {
        console.log('#'.repeat(72));
        console.log(`# SKIPPED: part ${part.part}: ${part.skipped}`);
        console.log('#'.repeat(72));
      }
      console.log(cpu);
      console.log(`${ok ? (skipped.length ? 'PASSED (with skips)' :
        'PASSED') : 'FAILED'} in ${seconds} s (${executable})`);
    }
    exitCode = !ok ? 1 : !skipped.length ? 0 :
      process.env.WENC_TEST_REQUIRE_ALL === '1' ? 1 : 77;
  } catch (error) {
    console.log(`FAILED: ${stopped !== null ? stopped :
      error.stack || error}`);
    exitCode = 1;
  } finally {
    clearTimeout(timer);
    await cleanUp();
  }
  process.exit(exitCode);
}

main().catch((error) => {
  console.log(`FAILED: ${error.stack || error}`);
  process.exit(1);
});
