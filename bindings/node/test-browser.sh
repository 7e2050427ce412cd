#!/bin/sh
# The WebAssembly build in a real browser: builds wasm/dist/ if needed, then
# runs the WPT encoding tests and the API's checks in Debian's headless
# Chromium (test/browser/run.js).
# Usage: sh bindings/node/test-browser.sh   (from anywhere)
# Exit status: 0 passed, 77 skipped (no node, no chromium, or no wasm
# toolchain; with WENC_TEST_REQUIRE_ALL=1 these fail instead), else failed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
NODE=${NODE:-node}

if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "SKIPPED: the browser tests: no node executable found"
    [ "${WENC_TEST_REQUIRE_ALL:-}" = 1 ] && exit 1
    exit 77
fi
sh "$here/wasm/build.sh"
exec "$NODE" "$here/test/browser/run.js" --impl=wenc
