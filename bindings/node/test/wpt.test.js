'use strict';
// The Web Platform Tests of the Encoding Standard (tests/data/wpt-encoding)
// against each implementation entry of this package that exists: index.js,
// native.js and wasm.js (WebAssembly; absent is a loud skip, a failure under
// WENC_TEST_REQUIRE_ALL=1). One subtest per WPT file, each file in a fresh
// node:vm context (test/wpt/node-runner.js) with our harness
// (test/wpt/harness.js). A subtest fails on any failure not listed in
// test/wpt/expected-failures.json for this environment, on a listed failure
// that now passes, and on a listed test that no longer exists.

const test = require('node:test');
const fs = require('node:fs');
const path = require('node:path');
const { skipLoudly } = require('./helpers');
const files = require('./wpt/files');
const { runFile, runScripts } = require('./wpt/node-runner');
const { HARNESS_CHECKS, sameResults } = require('./wpt/harness-checks');

const ENTRIES = [
  { entry: 'index.js', env: 'node:index' },
  { entry: 'native.js', env: 'node:native' },
  { entry: 'wasm.js', env: 'node:wasm', loud: true },
];

// The build an entry needs is missing (not a bug in the entry): a module
// or file not found, directly or as the cause of the entry's own error.
function isMissingBuild(error) {
  const codes = ['MODULE_NOT_FOUND', 'ENOENT', 'ERR_MODULE_NOT_FOUND'];
  for (let e = error; e; e = e.cause) {
    if (codes.includes(e.code)) return true;
  }
  return false;
}

const expected = files.loadExpectedFailures();
const testFiles = files.testFiles();

test('the vendored WPT files are the ones SOURCE lists', () => {
  // A file lost from the tree (or added without provenance) must not pass
  // unnoticed.
  const listed = fs.readFileSync(path.join(files.wptDir, 'SOURCE'), 'utf8')
    .split('\n')
    .map((line) => /^\| (\S+\.any\.js) \|/.exec(line))
    .filter(Boolean)
    .map((match) => match[1])
    .sort();
  if (listed.length === 0) throw new Error('SOURCE lists no test file');
  if (JSON.stringify(listed) !== JSON.stringify(testFiles)) {
    throw new Error(`SOURCE lists ${listed.join(', ')}; the directory has ` +
      testFiles.join(', '));
  }
  for (const file of Object.keys(expected)) {
    if (!testFiles.includes(file)) {
      throw new Error(`expected-failures.json lists ${file}, which is not ` +
        'a vendored test file');
    }
  }
});

test('the harness fails what it should', async (t) => {
  const impl = require('..');
  for (const [what, text, want] of HARNESS_CHECKS) {
    await t.test(what, async () => {
      const results = await runScripts(impl,
        [{ filename: `${what}.js`, text }], 300);
      if (!sameResults(results, want)) {
        throw new Error(`expected ${JSON.stringify(want)}, got ` +
          JSON.stringify(results, null, 1));
      }
    });
  }
  // And a WPT file fails against a wrong implementation.
  await t.test('a wrong TextDecoder fails textdecoder-labels', async () => {
    class WrongDecoder extends impl.TextDecoder {
      get encoding() { return super.encoding.toUpperCase(); }
    }
    const results = await runFile({ ...impl, TextDecoder: WrongDecoder },
      files.describeFile('textdecoder-labels.any.js'));
    const failed = results.filter((r) => r.status === 'FAIL').length;
    if (failed !== results.length || failed < 200) {
      throw new Error(`${failed} of ${results.length} tests failed; all ` +
        'should have');
    }
  });
});

for (const { entry, env, loud } of ENTRIES) {
  const entryPath = path.join(__dirname, '..', entry);
  if (!loud && !fs.existsSync(entryPath)) continue;

  test(`WPT encoding tests against ${entry} (${env})`, async (t) => {
    if (!fs.existsSync(entryPath)) {
      skipLoudly(t, `bindings/node/${entry} does not exist: the WebAssembly ` +
        'build was not run against the Web Platform Tests');
      return;
    }
    let impl;
    try {
      impl = require(entryPath);
      // An entry that loads its WebAssembly asynchronously says when it is
      // ready.
      if (impl.ready && typeof impl.ready.then === 'function') {
        await impl.ready;
      }
    } catch (error) {
      if (loud && isMissingBuild(error)) {
        skipLoudly(t, `bindings/node/${entry} cannot load its build ` +
          `(${error.message.split('\n')[0]})`);
        return;
      }
      throw error;
    }
    for (const file of testFiles) {
      await t.test(file, async () => {
        const results = await runFile(impl, files.describeFile(file));
        const comparison = files.compare(results, expected, env, [file]);
        if (!files.ok(comparison)) {
          throw new Error(files.report(comparison, env).join('\n'));
        }
      });
    }
  });
}
