/*
 * A small harness for the Web Platform Tests of the Encoding Standard: the
 * part of testharness.js's API that tests/data/wpt-encoding/*.any.js call,
 * written for wenc (not a copy of WPT's testharness.js). It runs in Node.js
 * (required by test/wpt/node-runner.js, installed into a node:vm context) and
 * in a browser (a classic <script>, which sets self.WencWptHarness).
 *
 *   const harness = WencWptHarness.createHarness({ timeoutMs });
 *   harness.install(globalObject);   // test, promise_test, assert_equals, ...
 *   ... run the META scripts and the test file in that global ...
 *   harness.scriptError(error);      // an exception at a script's top level
 *   const results = await harness.finish();
 *   // [{ name, status: 'PASS' | 'FAIL' | 'TIMEOUT', message }]
 *
 * Semantics follow testharness.js: test() runs at once; promise_test()s run
 * one after another, in order, once the file's scripts have run; a test
 * passes unless a step throws or its promise rejects; assert_equals compares
 * with SameValue (NaN equals NaN, +0 is not -0) and fails on different
 * types; assert_throws_js wants an object whose constructor is the given one
 * and whose name is that constructor's name. What the harness itself cannot
 * run (a script that throws at top level, setup() failing, a file defining
 * no test) is reported as a FAIL named "(harness)", so a broken file never
 * passes by running nothing.
 */
(function (root, factory) {
  'use strict';
  const api = factory();
  if (typeof module === 'object' && module && module.exports) {
    module.exports = api;
  } else {
    root.WencWptHarness = api;
  }
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  const HARNESS = '(harness)';

  // An assertion that did not hold: its message is the result's message.
  class AssertionError extends Error {
    constructor(message) {
      super(message);
      this.name = 'AssertionError';
    }
  }

  // testharness.js's format_value, in spirit: strings quoted with control
  // characters, lone surrogates and line separators escaped, -0 shown as -0,
  // arrays and typed arrays listed.
  const CONTROL_ESCAPES = {
    0: '\\0', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r',
  };

  function formatString(value) {
    let out = '"';
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      const char = value[i];
      if (char === '\\') {
        out += '\\\\';
      } else if (char === '"') {
        out += '\\"';
      } else if (unit < 0x20 || unit === 0x7f) {
        out += CONTROL_ESCAPES[unit] ||
          `\\x${unit.toString(16).padStart(2, '0')}`;
      } else if (unit === 0x2028 || unit === 0x2029) {
        out += `\\u${unit.toString(16)}`;
      } else if (unit >= 0xd800 && unit <= 0xdbff &&
                 i + 1 < value.length &&
                 value.charCodeAt(i + 1) >= 0xdc00 &&
                 value.charCodeAt(i + 1) <= 0xdfff) {
        out += value.slice(i, i + 2);
        i++;
      } else if (unit >= 0xd800 && unit <= 0xdfff) {
        out += `\\u${unit.toString(16).toUpperCase()}`;
      } else {
        out += char;
      }
    }
    return `${out}"`;
  }

  function isTypedArray(value) {
    return ArrayBuffer.isView(value) &&
      Object.prototype.toString.call(value) !== '[object DataView]';
  }

  function formatValue(value, depth = 0) {
    switch (typeof value) {
      case 'string':
        return formatString(value);
      case 'number':
        return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint':
        return `${value}n`;
      case 'symbol':
        return value.toString();
      case 'undefined':
      case 'boolean':
        return String(value);
      case 'function':
        return `function "${value.name || '(anonymous)'}"`;
      default:
        break;
    }
    if (value === null) return 'null';
    if (depth > 2) return '[...]';
    if (Array.isArray(value) || isTypedArray(value)) {
      const items = Array.prototype.slice.call(value, 0, 64)
        .map((item) => formatValue(item, depth + 1));
      if (value.length > 64) items.push(`... ${value.length - 64} more`);
      const prefix = Array.isArray(value) ? '' :
        `${Object.prototype.toString.call(value).slice(8, -1)} `;
      return `${prefix}[${items.join(', ')}]`;
    }
    try {
      if (value instanceof Error || (typeof value.name === 'string' &&
          typeof value.message === 'string')) {
        return `object "${value.name}: ${value.message}"`;
      }
      return `object "${String(value)}"`;
    } catch {
      return `object "${Object.prototype.toString.call(value)}"`;
    }
  }

  function describe(description) {
    return description === undefined || description === '' ?
      '' : ` ${description}`;
  }

  function fail(assertion, description, message) {
    throw new AssertionError(`${assertion}:${describe(description)} ${message}`);
  }

  function check(condition, assertion, description, message) {
    if (!condition) fail(assertion, description, message);
  }

  // --- Assertions ---------------------------------------------------------

  function assert_true(actual, description) {
    check(actual === true, 'assert_true', description,
      `expected true got ${formatValue(actual)}`);
  }

  function assert_false(actual, description) {
    check(actual === false, 'assert_false', description,
      `expected false got ${formatValue(actual)}`);
  }

  function assert_equals(actual, expected, description) {
    if (typeof actual !== typeof expected) {
      fail('assert_equals', description,
        `expected (${typeof expected}) ${formatValue(expected)} but got ` +
        `(${typeof actual}) ${formatValue(actual)}`);
    }
    check(Object.is(actual, expected), 'assert_equals', description,
      `expected ${formatValue(expected)} but got ${formatValue(actual)}`);
  }

  function assert_not_equals(actual, expected, description) {
    check(!Object.is(actual, expected), 'assert_not_equals', description,
      `got disallowed value ${formatValue(actual)}`);
  }

  function assert_in_array(actual, expected, description) {
    check(expected.some((item) => Object.is(item, actual)), 'assert_in_array',
      description, `value ${formatValue(actual)} not in array ` +
      formatValue(expected));
  }

  function assert_array_equals(actual, expected, description) {
    check(typeof actual === 'object' && actual !== null && 'length' in actual,
      'assert_array_equals', description,
      `value is ${formatValue(actual)}, expected array`);
    check(actual.length === expected.length, 'assert_array_equals',
      description, `lengths differ, expected array ${formatValue(expected)} ` +
      `length ${expected.length}, got ${formatValue(actual)} length ` +
      `${actual.length}`);
    for (let i = 0; i < actual.length; i++) {
      const hasActual = Object.prototype.hasOwnProperty.call(actual, i);
      const hasExpected = Object.prototype.hasOwnProperty.call(expected, i);
      check(hasActual === hasExpected, 'assert_array_equals', description,
        `expected property ${i} to be ${hasExpected ? 'present' : 'missing'}` +
        ` (expected array ${formatValue(expected)} got ` +
        `${formatValue(actual)})`);
      check(Object.is(actual[i], expected[i]), 'assert_array_equals',
        description, `expected property ${i} to be ` +
        `${formatValue(expected[i])} but got ${formatValue(actual[i])} ` +
        `(expected array ${formatValue(expected)} got ${formatValue(actual)})`);
    }
  }

  function assert_unreached(description) {
    fail('assert_unreached', undefined,
      `Reached unreachable code${description === undefined ? '' :
        `: ${description}`}`);
  }

  function assert_own_property(object, name, description) {
    check(Object.prototype.hasOwnProperty.call(object, name),
      'assert_own_property', description,
      `expected property ${formatValue(name)} missing`);
  }

  function assert_class_string(object, className, description) {
    const actual = Object.prototype.toString.call(object);
    const expected = `[object ${className}]`;
    check(actual === expected, 'assert_class_string', description,
      `expected ${formatValue(expected)} but got ${formatValue(actual)}`);
  }

  function assert_idl_attribute(object, name, description) {
    check(name in object, 'assert_idl_attribute', description,
      `property ${formatValue(name)} not found in prototype chain`);
    check(!Object.prototype.hasOwnProperty.call(object, name),
      'assert_idl_attribute', description,
      `property ${formatValue(name)} is an own property, not an attribute`);
  }

  // The checks of assert_throws_js on what was thrown; `assertion` names the
  // calling assertion in the message.
  function checkJsError(assertion, constructor, thrown, description) {
    check(typeof constructor === 'function', assertion, description,
      `${formatValue(constructor)} is not a constructor`);
    let proto = constructor;
    while (proto && proto.name !== 'Error') proto = Object.getPrototypeOf(proto);
    check(proto, assertion, description,
      `${constructor.name} is not an Error constructor`);
    check(typeof thrown === 'object' && thrown !== null, assertion,
      description, `threw ${formatValue(thrown)} with type ` +
      `${thrown === null ? 'null' : typeof thrown}, not an object`);
    check(thrown.constructor === constructor &&
      thrown.name === constructor.name, assertion, description,
    `threw ${formatValue(thrown)} (constructor ` +
      `${thrown.constructor && thrown.constructor.name}) expected instance ` +
      `of ${constructor.name}${thrown.constructor !== constructor &&
        thrown.name === constructor.name ?
        ' (a different realm\'s constructor of that name)' : ''}`);
  }

  function assert_throws_js(constructor, func, description) {
    try {
      func.call(this);
    } catch (thrown) {
      checkJsError('assert_throws_js', constructor, thrown, description);
      return;
    }
    fail('assert_throws_js', description,
      `${formatValue(func)} did not throw`);
  }

  function assert_throws_exactly(exception, func, description) {
    try {
      func.call(this);
    } catch (thrown) {
      check(Object.is(thrown, exception), 'assert_throws_exactly',
        description, `${formatValue(func)} threw ${formatValue(thrown)} but ` +
        `we expected it to throw ${formatValue(exception)}`);
      return;
    }
    fail('assert_throws_exactly', description,
      `${formatValue(func)} did not throw`);
  }

  // --- Tests ----------------------------------------------------------------

  function errorMessage(error) {
    if (error instanceof AssertionError) return error.message;
    if (error && typeof error === 'object' &&
        typeof error.message === 'string') {
      return `${error.name || 'Error'}: ${error.message}`;
    }
    return `threw ${formatValue(error)}`;
  }

  function createHarness(options = {}) {
    const timeoutMs = options.timeoutMs || 10000;
    const schedule = options.setTimeout || setTimeout;
    const unschedule = options.clearTimeout || clearTimeout;

    const results = [];
    const promiseTests = [];
    const pending = new Set();
    let harnessError = null;
    let finishing = null;
    let wakeUp = null;
    let closed = false; // results returned: nothing runs or changes after

    class Test {
      constructor(name) {
        this.name = name;
        this.status = null;
        this.message = '';
        this.cleanups = [];
        this.timers = new Set();
        this.doneCallbacks = [];
      }

      // Runs fn(...args) with this as `this` by default; an exception fails
      // the test. Returns fn's value.
      step(fn, thisObject, ...args) {
        if (this.status !== null) return undefined;
        try {
          return fn.apply(thisObject === undefined ? this : thisObject, args);
        } catch (error) {
          this.finish('FAIL', errorMessage(error));
          return undefined;
        }
      }

      step_func(fn, thisObject) {
        const test = this;
        return function stepFunc(...args) {
          return test.step(fn, thisObject === undefined ? this : thisObject,
            ...args);
        };
      }

      step_func_done(fn, thisObject) {
        const test = this;
        return function stepFuncDone(...args) {
          let value;
          if (fn) {
            value = test.step(fn, thisObject === undefined ? this : thisObject,
              ...args);
          }
          test.done();
          return value;
        };
      }

      unreached_func(description) {
        return this.step_func(() => assert_unreached(description));
      }

      step_timeout(fn, ms, ...args) {
        const timer = schedule(() => {
          this.timers.delete(timer);
          this.step(fn, this, ...args);
        }, ms);
        this.timers.add(timer);
        return timer;
      }

      add_cleanup(fn) {
        this.cleanups.push(fn);
      }

      done() {
        this.finish('PASS', '');
      }

      finish(status, message) {
        if (this.status !== null || closed) return;
        for (const timer of this.timers) unschedule(timer);
        this.timers.clear();
        for (const cleanup of this.cleanups) {
          try {
            cleanup();
          } catch (error) {
            if (status === 'PASS') {
              status = 'FAIL';
              message = `cleanup failed: ${errorMessage(error)}`;
            }
          }
        }
        this.status = status;
        this.message = message;
        pending.delete(this);
        results.push({ name: this.name, status, message });
        for (const callback of this.doneCallbacks) callback();
        if (wakeUp) wakeUp();
      }
    }

    function testName(name, fn) {
      if (typeof name === 'string') return name;
      return (fn && fn.name) || '(unnamed test)';
    }

    function test(fn, name) {
      const t = new Test(testName(name, fn));
      pending.add(t);
      t.step(fn, t, t);
      t.done();
      return t;
    }

    function async_test(fn, name) {
      if (typeof fn === 'string') {
        name = fn;
        fn = undefined;
      }
      const t = new Test(testName(name, fn));
      pending.add(t);
      if (fn) t.step(fn, t, t);
      return t;
    }

    function promise_test(fn, name) {
      const t = new Test(testName(name, fn));
      pending.add(t);
      promiseTests.push({ t, fn });
      return t;
    }

    // Runs the promise tests one after another; each ends when its promise
    // settles (or the file's time is up).
    async function runPromiseTests() {
      while (promiseTests.length > 0 && !closed) {
        const { t, fn } = promiseTests.shift();
        if (t.status !== null) continue;
        const promise = t.step(fn, t, t);
        if (t.status !== null) continue;
        if (!promise || typeof promise.then !== 'function') {
          t.finish('FAIL', 'promise_test: test body must return a ' +
            '\'thenable\' object (received ' + formatValue(promise) + ')');
          continue;
        }
        const settled = new Promise((resolve) => {
          t.doneCallbacks.push(resolve);
          Promise.resolve(promise).then(
            () => t.done(),
            (error) => t.finish('FAIL', errorMessage(error)));
        });
        await settled;
      }
    }

    function promise_rejects_js(t, constructor, promise, description) {
      return Promise.resolve(promise).then(
        () => fail('promise_rejects_js', description, 'Should have rejected'),
        (thrown) => checkJsError('promise_rejects_js', constructor, thrown,
          description));
    }

    function promise_rejects_exactly(t, exception, promise, description) {
      return Promise.resolve(promise).then(
        () => fail('promise_rejects_exactly', description,
          'Should have rejected'),
        (thrown) => check(Object.is(thrown, exception),
          'promise_rejects_exactly', description,
          `rejected with ${formatValue(thrown)} but we expected ` +
          formatValue(exception)));
    }

    function setup(fnOrOptions, maybeOptions) {
      const fn = typeof fnOrOptions === 'function' ? fnOrOptions : null;
      void maybeOptions;
      if (!fn) return;
      try {
        fn();
      } catch (error) {
        scriptError(new Error(`setup failed: ${errorMessage(error)}`));
      }
    }

    function step_timeout(fn, ms, ...args) {
      return schedule(() => fn(...args), ms);
    }

    const completionCallbacks = [];

    function scriptError(error) {
      if (harnessError === null) harnessError = errorMessage(error);
    }

    // Waits for every test (promise tests run now, in order) or for the
    // file's time to run out; unfinished tests are TIMEOUT.
    function finish() {
      if (finishing) return finishing;
      finishing = new Promise((resolve) => {
        let timedOut = false;
        const timer = schedule(() => {
          timedOut = true;
          if (wakeUp) wakeUp();
        }, timeoutMs);
        const runner = runPromiseTests();
        const poll = () => {
          if (pending.size === 0 || timedOut || harnessError !== null) {
            wakeUp = null;
            unschedule(timer);
            for (const t of [...pending]) {
              if (harnessError !== null && !timedOut) {
                t.finish('FAIL', `harness error: ${harnessError}`);
              } else {
                t.finish('TIMEOUT', `did not finish in ${timeoutMs} ms`);
              }
            }
            void runner;
            closed = true;
            const all = results.slice();
            if (harnessError !== null) {
              all.unshift({ name: HARNESS, status: 'FAIL',
                message: harnessError });
            } else if (all.length === 0) {
              all.push({ name: HARNESS, status: 'FAIL',
                message: 'the file defined no tests' });
            }
            for (const callback of completionCallbacks) {
              try {
                callback(all);
              } catch {
                // a completion callback's failure changes no result
              }
            }
            resolve(all);
            return;
          }
          wakeUp = () => {
            wakeUp = null;
            Promise.resolve().then(poll);
          };
        };
        Promise.resolve().then(poll);
      });
      return finishing;
    }

    const globals = {
      test,
      async_test,
      promise_test,
      setup,
      done: () => {},
      step_timeout,
      add_completion_callback: (fn) => completionCallbacks.push(fn),
      format_value: (value) => formatValue(value),
      assert_true,
      assert_false,
      assert_equals,
      assert_not_equals,
      assert_in_array,
      assert_array_equals,
      assert_unreached,
      assert_own_property,
      assert_class_string,
      assert_idl_attribute,
      assert_throws_js,
      assert_throws_exactly,
      promise_rejects_js,
      promise_rejects_exactly,
    };

    function install(target) {
      for (const [name, value] of Object.entries(globals)) {
        Object.defineProperty(target, name, {
          value, writable: true, configurable: true, enumerable: false,
        });
      }
    }

    return { install, finish, scriptError, globals };
  }

  return { createHarness, formatValue, AssertionError, HARNESS };
});
