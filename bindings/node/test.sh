#!/bin/sh
# Builds the Node.js addon if needed and runs its tests (node:test).
# Usage: sh bindings/node/test.sh   (from anywhere)
# Exit status: 0 all passed, 77 skipped (no node), anything else a failure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
NODE=${NODE:-node}

if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "################################################################"
    echo "# SKIPPED: the Node.js binding tests: no node executable found #"
    echo "################################################################"
    # CI installs Node.js: there a missing node is a failure.
    [ "${WENC_TEST_REQUIRE_ALL:-}" = 1 ] && exit 1
    exit 77
fi

sh "$here/build.sh"
cd "$here"
exec "$NODE" --test test/*.test.js
