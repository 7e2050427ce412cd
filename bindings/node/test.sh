#!/bin/sh
# Builds the Node.js addon and the WebAssembly build if needed and runs
# their tests (node:test).
# Usage: sh bindings/node/test.sh   (from anywhere)
# Exit status: 0 all passed, 77 skipped (no node, or a test skipped for
# absent data), anything else a failure.
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
# The WebAssembly build (wasm/dist/): its tests skip loudly when the wasm
# toolchain is missing (build.sh exits 77), and fail in CI.
if [ -f "$here/wasm/build.sh" ]; then
    wasm_rc=0
    sh "$here/wasm/build.sh" || wasm_rc=$?
    if [ "$wasm_rc" -eq 77 ]; then
        echo "node: no WebAssembly build (its toolchain is missing): its tests will skip"
    elif [ "$wasm_rc" -ne 0 ]; then
        exit "$wasm_rc"
    fi
fi
cd "$here"
# node --test exits 0 with tests skipped: a run that skipped any (the
# Standard's data or the corpus absent) is Skipped (77), not Passed.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
"$NODE" --test --test-reporter=tap test/*.test.js > "$log" 2>&1 || rc=$?
cat "$log"
[ "$rc" -eq 0 ] || exit "$rc"
if grep -Eq '^# skipped [1-9]' "$log"; then
    echo "node: $(sed -n 's/^# skipped //p' "$log") tests SKIPPED: not every check ran (exit 77)"
    exit 77
fi
