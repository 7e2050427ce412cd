/*
 * Checks of our harness itself (harness.js): small scripts whose results,
 * by test name, must be exactly these - what testharness.js would report.
 * Run in Node by test/wpt.test.js and in Chromium by test/browser/run.js,
 * before the WPT files, so a harness that passes everything cannot go
 * unnoticed in either place. A script that needs the implementation uses
 * TextDecoder, whichever is installed.
 */
(function () {
  'use strict';

  const HARNESS_CHECKS = [
    ['SameValue and types', `
      test(() => assert_equals(1, 1), 'same');
      test(() => assert_equals(-0, 0), '-0 is not +0');
      test(() => assert_equals(NaN, NaN), 'NaN is NaN');
      test(() => assert_equals('1', 1), 'types differ');
      test(() => assert_not_equals('a', 'a'), 'not_equals');`,
    { 'same': 'PASS', '-0 is not +0': 'FAIL', 'NaN is NaN': 'PASS',
      'types differ': 'FAIL', 'not_equals': 'FAIL' }],
    ['arrays', `
      test(() => assert_array_equals(new Uint8Array([1, 2]), [1, 2]), 'typed');
      test(() => assert_array_equals([1], [1, 2]), 'length');
      test(() => assert_array_equals([1, 3], [1, 2]), 'item');
      test(() => assert_array_equals([-0], [0]), 'item -0');`,
    { typed: 'PASS', length: 'FAIL', item: 'FAIL', 'item -0': 'FAIL' }],
    ['assert_throws_js', `
      test(() => assert_throws_js(TypeError, () => { throw new RangeError(); }),
        'other error');
      test(() => assert_throws_js(TypeError, () => {}), 'no throw');
      test(() => assert_throws_js(RangeError, () => new TextDecoder('nope')),
        'implementation error');
      test(() => assert_throws_js(TypeError, () => { throw { name: 'TypeError' }; }),
        'not an instance');`,
    { 'other error': 'FAIL', 'no throw': 'FAIL', 'implementation error': 'PASS',
      'not an instance': 'FAIL' }],
    ['promise tests, in order', `
      var log = [];
      promise_test(async () => { await null; log.push(1); assert_true(false); },
        'rejects');
      promise_test(async () => assert_array_equals(log, [1]), 'after');
      promise_test(() => 1, 'not a thenable');
      promise_test(t => promise_rejects_js(t, TypeError, Promise.resolve()),
        'resolves');
      promise_test(t => promise_rejects_js(t, TypeError,
        Promise.reject(new TypeError())), 'rejects as expected');
      promise_test(t => promise_rejects_exactly(t, 1, Promise.reject(2)),
        'rejects with another value');`,
    { rejects: 'FAIL', after: 'PASS', 'not a thenable': 'FAIL',
      resolves: 'FAIL', 'rejects as expected': 'PASS',
      'rejects with another value': 'FAIL' }],
    ['timeouts', `
      promise_test(() => new Promise(() => {}), 'promise never settles');
      async_test('never done');
      async_test(t => t.step_timeout(t.step_func_done(), 0), 'done later');
      async_test(t => t.step_timeout(t.step_func(() => assert_true(false)), 0),
        'fails later');`,
    { 'promise never settles': 'TIMEOUT', 'never done': 'TIMEOUT',
      'done later': 'PASS', 'fails later': 'FAIL' }],
    ['a script error', `
      test(() => {}, 'before');
      throw new Error('boom');`,
    { '(harness)': 'FAIL', before: 'PASS' }],
    ['no tests', '// nothing', { '(harness)': 'FAIL' }],
  ];

  // Do results [{name, status}] have exactly the statuses of want?
  function sameResults(results, want) {
    const got = {};
    for (const r of results) got[r.name] = r.status;
    return Object.keys(got).length === Object.keys(want).length &&
      Object.keys(want).every((name) => got[name] === want[name]);
  }

  const api = { HARNESS_CHECKS, sameResults };
  if (typeof module === 'object' && module && module.exports) {
    module.exports = api; // Node
  } else {
    self.WencWptHarnessChecks = api; // a classic script in a page
  }
})();
