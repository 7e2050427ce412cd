'use strict';
// The Web Platform Tests of the Encoding Standard (tests/data/wpt-encoding)
// in headless Chromium.
//
//   node bindings/node/test/browser/run.js [--impl=wenc|native-browser]
//        [--json] [--timeout=SECONDS]
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
// Exit status: 0 as expected, 1 otherwise (or on a timeout: 120 s by
// default, for the whole run), 77 skipped: no Chromium, or for --impl=wenc
// no browser.mjs yet (1 instead under WENC_TEST_REQUIRE_ALL=1). Chromium
// and its profile directory are removed on every exit.

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const chromium = require('../../../../tools/chromium.js');
const files = require('../wpt/files.js');
const { HARNESS_CHECKS, sameResults } = require('../wpt/harness-checks.js');

const IMPLS = ['wenc', 'native-browser'];
const WENC_MODULE = path.join(files.root, 'bindings', 'node', 'wasm',
  'browser.mjs');
const PAGE = '/bindings/node/test/browser/run-file.html';

function parseArgs(argv) {
  const options = { impl: 'wenc', json: false, timeoutMs: 120000 };
  for (const arg of argv) {
    let match;
    if ((match = /^--impl=(.+)$/.exec(arg))) {
      options.impl = match[1];
    } else if (arg === '--json') {
      options.json = true;
    } else if ((match = /^--timeout=(\d+)$/.exec(arg))) {
      options.timeoutMs = Number(match[1]) * 1000;
    } else {
      throw new Error(`unknown argument ${arg}\nusage: node run.js ` +
        '[--impl=wenc|native-browser] [--json] [--timeout=SECONDS]');
    }
  }
  if (!IMPLS.includes(options.impl)) {
    throw new Error(`--impl must be one of ${IMPLS.join(', ')}`);
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

// A read-only static server of the repository. Every response makes the
// page cross-origin isolated (COOP + COEP), so SharedArrayBuffer exists, as
// the WPT files that use it expect.
function serve(rootDir) {
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
    const file = path.resolve(rootDir, `.${pathname}`);
    const inside = file.startsWith(rootDir + path.sep);
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
    server = await serve(files.root);
    const base = `http://127.0.0.1:${server.address().port}`;
    browser = await chromium.launch({ executable });
    const page = await browser.newPage();
    // What the page logs (a module that fails to load, a 404, an uncaught
    // exception) explains a file that did not run.
    let pageLog = [];
    const note = (params, session) => {
      if (session !== page.sessionId) return;
      const entry = params.entry || params.exceptionDetails;
      const text = params.entry ?
        `${entry.level}: ${entry.text}${entry.url ? ` (${entry.url})` : ''}` :
        (entry.exception && entry.exception.description) || entry.text;
      pageLog.push(text.split('\n')[0]);
    };
    browser.on('Log.entryAdded', note);
    browser.on('Runtime.exceptionThrown', note);
    await page.send('Log.enable');
    await page.send('Runtime.enable');
    let n = 0;
    const pageUrl = (job) => `${base}${PAGE}?n=${++n}#` +
      encodeURIComponent(JSON.stringify(job));
    // First our harness's own checks, in this browser.
    const harnessProblems = [];
    for (let check = 0; check < HARNESS_CHECKS.length; check++) {
      if (stopped !== null) break;
      const [what, , want] = HARNESS_CHECKS[check];
      let got;
      try {
        await page.navigate(pageUrl({ check, timeoutMs: 300,
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
      if (stopped !== null) break;
      const { scripts, timeoutMs } = files.describeFile(file);
      const job = { file, scripts, timeoutMs, impl: options.impl };
      // A new query string each time: a new document, not a fragment change.
      const url = pageUrl(job);
      pageLog = [];
      try {
        await page.navigate(url, { timeoutMs: 30000 });
        results.push(...await page.evaluate('window.wencWptResults',
          { timeoutMs: timeoutMs + 15000 }));
      } catch (error) {
        results.push({ file, name: '(harness)', status: 'FAIL',
          message: `the page did not run the file: ${error.message}` +
            (pageLog.length ? `; the page logged: ${pageLog.join('; ')}` :
              '') });
      }
    }
    if (stopped !== null) throw new Error(stopped);
    const expected = files.loadExpectedFailures();
    const comparison = files.compare(results, expected, env, testFiles);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const ok = files.ok(comparison) && harnessProblems.length === 0;
    if (options.json) {
      console.log(JSON.stringify({
        env, seconds: Number(seconds), ok, harnessProblems,
        perFile: Object.fromEntries(comparison.perFile),
        unexpected: comparison.unexpected, fixed: comparison.fixed,
        missing: comparison.missing,
        expectedFailures: comparison.expectedFailures,
        results,
      }, null, 1));
    } else {
      for (const line of files.report(comparison, env)) console.log(line);
      for (const line of harnessProblems) console.log(line);
      console.log(`harness checks: ${HARNESS_CHECKS.length -
        harnessProblems.length} of ${HARNESS_CHECKS.length} as expected`);
      console.log(`${ok ? 'PASSED' : 'FAILED'} in ${seconds} s ` +
        `(${executable})`);
    }
    exitCode = ok ? 0 : 1;
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
