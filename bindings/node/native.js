'use strict';
// wenc over the native addon, build/wenc.node (src/addon.c).

const path = require('node:path');

const addonPath = path.join(__dirname, 'build', 'wenc.node');
let addon;
try {
  addon = require(addonPath);
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND') {
    throw new Error(
      `wenc: the addon ${addonPath} is not built; run "make node" ` +
        '(or sh bindings/node/build.sh) first',
      { cause: error });
  }
  throw error;
}

module.exports = require('./lib/node.js')(addon, 'native');
