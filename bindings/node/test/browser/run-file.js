'use strict';
// Runs one WPT file in this page (a fresh global per navigation):
// location.hash is the JSON { file, scripts, timeoutMs, impl } from run.js,
// or { check, timeoutMs, impl } for the harness check of that index in
// ../wpt/harness-checks.js (its script runs as an inline script).
// impl "native-browser" keeps the browser's own TextDecoder and friends;
// "wenc" replaces them with wenc's browser module's. The harness
// (../wpt/harness.js, loaded first) is installed, the META scripts and the
// file are loaded as classic scripts from /tests/data/wpt-encoding/, and
// window.wencWptResults resolves to the results.
(function () {
  const WPT_ROOT = '/tests/data/wpt-encoding/';
  const WENC_MODULE = '/bindings/node/wasm/browser.mjs';
  const CLASSES = [
    'TextDecoder', 'TextEncoder', 'TextDecoderStream', 'TextEncoderStream',
  ];

  function runInline(text) {
    const script = document.createElement('script');
    script.textContent = text;
    document.head.appendChild(script); // runs now; a throw is an error event
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`cannot load ${src}`));
      document.head.appendChild(script);
    });
  }

  async function run() {
    const job = JSON.parse(decodeURIComponent(location.hash.slice(1)));
    if (job.impl === 'wenc') {
      const wenc = await import(WENC_MODULE);
      if (wenc.ready && typeof wenc.ready.then === 'function') {
        await wenc.ready;
      }
      for (const name of CLASSES) {
        if (typeof wenc[name] !== 'function') {
          throw new Error(`${WENC_MODULE} does not export ${name}`);
        }
        Object.defineProperty(self, name, {
          value: wenc[name], writable: true, configurable: true,
          enumerable: false,
        });
      }
    } else if (job.impl !== 'native-browser') {
      throw new Error(`unknown implementation ${job.impl}`);
    }
    const harness = self.WencWptHarness.createHarness({
      timeoutMs: job.timeoutMs,
    });
    harness.install(self);
    // An exception at a script's top level (or thrown outside any test
    // step later) is a harness error, as in testharness.js.
    self.addEventListener('error', (event) => {
      harness.scriptError(event.error || new Error(event.message));
    });
    // A rejection no test handled is not a result.
    self.addEventListener('unhandledrejection', (event) => {
      event.preventDefault();
    });
    if (job.check !== undefined) {
      runInline(self.WencWptHarnessChecks.HARNESS_CHECKS[job.check][1]);
      return harness.finish();
    }
    for (const script of [...job.scripts, job.file]) {
      try {
        await loadScript(WPT_ROOT + script);
      } catch (error) {
        harness.scriptError(error);
        break;
      }
    }
    const results = await harness.finish();
    return results.map((r) => ({ file: job.file, ...r }));
  }

  self.wencWptResults = run();
})();
