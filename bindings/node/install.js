'use strict';
// npm's install script. Builds the native addon (build.sh) where a shell
// and a C compiler are at hand; where they are not (Windows, no toolchain,
// a failed compile), the package still works: its entry point falls back to
// the WebAssembly build shipped in wasm/dist/, and this script says so and
// succeeds. With `npm install --ignore-scripts` it never runs, with the same
// outcome. WENC_BUILD_NATIVE=0 skips the addon; WENC_BUILD_NATIVE=1 makes a
// failed build fail the install.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const here = __dirname;
const wasmBuilt = fs.existsSync(path.join(here, 'wasm', 'dist', 'wenc.wasm'));
const wanted = process.env.WENC_BUILD_NATIVE;

function fallBack(why) {
  if (wanted === '1' || !wasmBuilt) {
    console.error(`wenc: the native addon was not built: ${why}`);
    process.exit(1);
  }
  console.log(`wenc: the native addon was not built (${why}); ` +
    'the WebAssembly build will be used');
  process.exit(0);
}

if (wanted === '0') fallBack('WENC_BUILD_NATIVE=0');
if (process.platform === 'win32') fallBack('no build script for Windows');

const result = spawnSync('sh', [path.join(here, 'build.sh')], {
  cwd: here,
  stdio: 'inherit',
});
if (result.error) fallBack(`sh could not be started: ${result.error.message}`);
if (result.status !== 0) fallBack(`build.sh exited with ${result.status}`);
