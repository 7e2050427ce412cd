'use strict';
// The vendored WPT files (tests/data/wpt-encoding) and the expected
// failures, for both runners: which files are tests, the scripts each one's
// "// META: script=" lines load, its timeout, and the comparison of results
// with expected-failures.json.

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', '..', '..');
const wptDir = path.join(root, 'tests', 'data', 'wpt-encoding');
const expectedFailuresPath = path.join(__dirname, 'expected-failures.json');

// WPT's timeouts: 10 s, 60 s for "// META: timeout=long".
const TIMEOUT_MS = 10000;
const LONG_TIMEOUT_MS = 60000;

// Every *.any.js under wptDir, as paths relative to it with "/", sorted.
function testFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.any.js')) {
        found.push(path.relative(wptDir, full).split(path.sep).join('/'));
      }
    }
  };
  walk(wptDir);
  return found.sort();
}

// A META script path as a path relative to wptDir: "/common/x.js" and
// "/encoding/x.js" are WPT-root paths (this directory is WPT's encoding/,
// with common/ inside it), anything else is relative to the test file.
function resolveScript(file, script) {
  let resolved;
  if (script.startsWith('/encoding/')) {
    resolved = script.slice('/encoding/'.length);
  } else if (script.startsWith('/')) {
    resolved = script.slice(1);
  } else {
    resolved = path.posix.normalize(
      path.posix.join(path.posix.dirname(file), script));
  }
  if (resolved.startsWith('..') ||
      !fs.existsSync(path.join(wptDir, resolved))) {
    throw new Error(`${file}: META script ${script} is not vendored ` +
      `(looked for ${resolved})`);
  }
  return resolved;
}

// { file, scripts: [paths relative to wptDir], timeoutMs, title }
function describeFile(file) {
  const source = fs.readFileSync(path.join(wptDir, file), 'utf8');
  const scripts = [];
  let timeoutMs = TIMEOUT_MS;
  for (const line of source.split('\n')) {
    const match = /^\/\/ META: *([a-z]+)=(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, key, value] = match;
    if (key === 'script') scripts.push(resolveScript(file, value.trim()));
    if (key === 'timeout' && value.trim() === 'long') {
      timeoutMs = LONG_TIMEOUT_MS;
    }
  }
  return { file, scripts, timeoutMs };
}

// expected-failures.json: { "reasons": { id: { "env": [...], "text" } },
// "tests": { file: { test name: reason id or reason text } } }. Returns
// { file: { name: { reason, env } } }; env undefined means everywhere.
function loadExpectedFailures(file = expectedFailuresPath) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const reasons = json.reasons || {};
  const out = {};
  for (const [testFile, tests] of Object.entries(json.tests || {})) {
    out[testFile] = {};
    for (const [name, value] of Object.entries(tests)) {
      const shared = reasons[value];
      out[testFile][name] = shared ?
        { reason: shared.text, env: shared.env } : { reason: value };
    }
  }
  return out;
}

// Does an expected failure apply to environment env ("node:index",
// "node:wasm", "browser:wenc", "browser:native-browser", ...)? Its env is a
// list of prefixes: "node" matches every "node:..." environment,
// "browser:wenc" only itself; no env matches all.
function entryApplies(entry, env) {
  if (!entry.env) return true;
  const prefixes = Array.isArray(entry.env) ? entry.env : [entry.env];
  return prefixes.some((prefix) => env === prefix ||
    env.startsWith(`${prefix}:`));
}

function entryReason(entry) {
  return entry.reason;
}

// Compares results [{file, name, status, message}] of environment env with
// the expected failures: unexpected failures, listed failures that passed,
// listed tests that did not run at all, and a summary per file.
function compare(results, expected, env, filesRun) {
  const unexpected = [];
  const fixed = [];
  const expectedFailures = [];
  const perFile = new Map();
  const seen = new Set();
  for (const file of filesRun) {
    perFile.set(file, { passed: 0, failed: 0, expectedFailures: 0 });
  }
  for (const result of results) {
    const summary = perFile.get(result.file) ||
      { passed: 0, failed: 0, expectedFailures: 0 };
    perFile.set(result.file, summary);
    const entry = expected[result.file] && expected[result.file][result.name];
    const listed = entry !== undefined && entryApplies(entry, env);
    if (listed) seen.add(`${result.file}\u0000${result.name}`);
    if (result.status === 'PASS') {
      summary.passed++;
      if (listed) fixed.push({ ...result, reason: entryReason(entry) });
    } else if (listed) {
      summary.expectedFailures++;
      expectedFailures.push({ ...result, reason: entryReason(entry) });
    } else {
      summary.failed++;
      unexpected.push(result);
    }
  }
  // A file that did not run (a harness error) has its own failure; its
  // listed tests are not reported missing on top of it.
  const broken = new Set(results.filter((r) => r.name === '(harness)')
    .map((r) => r.file));
  const missing = [];
  for (const [file, tests] of Object.entries(expected)) {
    if (!filesRun.includes(file) || broken.has(file)) continue;
    for (const [name, entry] of Object.entries(tests)) {
      if (entryApplies(entry, env) && !seen.has(`${file}\u0000${name}`)) {
        missing.push({ file, name, reason: entryReason(entry) });
      }
    }
  }
  return { unexpected, fixed, expectedFailures, missing, perFile };
}

// The lines a runner prints: one per file, then every problem.
function report(comparison, env) {
  const lines = [];
  let passed = 0;
  let failed = 0;
  let xfail = 0;
  for (const [file, s] of comparison.perFile) {
    passed += s.passed;
    failed += s.failed;
    xfail += s.expectedFailures;
    lines.push(`  ${file}: ${s.passed} passed, ${s.failed} failed, ` +
      `${s.expectedFailures} expected failures`);
  }
  lines.push(`${env}: ${passed} passed, ${failed} failed, ${xfail} ` +
    `expected failures in ${comparison.perFile.size} files`);
  for (const r of comparison.unexpected) {
    lines.push(`UNEXPECTED ${r.status}: ${r.file}: ${r.name}: ${r.message}`);
  }
  for (const r of comparison.fixed) {
    lines.push(`UNEXPECTED PASS (listed in expected-failures.json: ` +
      `${r.reason}): ${r.file}: ${r.name}`);
  }
  for (const r of comparison.missing) {
    lines.push(`LISTED BUT NOT RUN: ${r.file}: ${r.name}`);
  }
  return lines;
}

function ok(comparison) {
  return comparison.unexpected.length === 0 &&
    comparison.fixed.length === 0 && comparison.missing.length === 0;
}

module.exports = {
  root, wptDir, expectedFailuresPath, testFiles, describeFile,
  loadExpectedFailures, compare, report, ok,
};
