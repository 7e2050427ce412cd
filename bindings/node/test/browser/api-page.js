'use strict';
// Runs api-checks.js in this page against wenc's browser module, with the
// Standard's index files and encodings.json fetched from /whatwg/.
(function () {
  const WENC_MODULE = '/bindings/node/wasm/browser.mjs';

  async function fetchText(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.text();
  }

  async function run() {
    const job = JSON.parse(decodeURIComponent(location.hash.slice(1)));
    const wenc = await import(WENC_MODULE);
    const indexes = new Map();
    const data = job.data ? {
      index(name) {
        if (!indexes.has(name)) {
          indexes.set(name, fetchText(`/whatwg/index-${name}.txt`)
            .then(self.WencApiChecks.parseIndex));
        }
        return indexes.get(name);
      },
      encodings: () => fetchText('/whatwg/encodings.json').then(JSON.parse),
    } : null;
    return self.WencApiChecks.runChecks(wenc, data);
  }

  self.wencApiResults = run();
})();
