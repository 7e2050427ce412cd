#!/bin/sh
# Differential test of wenc against encoding_rs.
#
# Builds the oracle (tests/oracle, cargo offline against Debian's
# librust-encoding-rs-dev sources in /usr/share/cargo/registry), the library
# (CMake, Release) and the driver (tests/diff), then runs CASES cases
# (default 300000) from SEED (default: picked from the clock and printed).
# Exit status: 0 when every difference is a known one, 1 on any other
# difference, 77 when cargo or encoding_rs's sources are missing, or the corpus
# is (its generator did not run): SKIPPED, not passed.
#
# Environment: CASES, SEED; DIFF_BUILD_DIR (default build-diff in the
# repository; it is git-ignored); WENC_LIB (a libwenc.a to use instead of
# building one); DIFF_REPORTS (how many distinct failures to shrink and
# print, default 3); WENC_CORPUS_DIR (default ../shared/corpus/wikipedia);
# CARGO_REGISTRY (default /usr/share/cargo/registry); CC.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cases=${CASES:-300000}
seed=${SEED:-}
build=${DIFF_BUILD_DIR:-$root/build-diff}
registry=${CARGO_REGISTRY:-/usr/share/cargo/registry}
corpus=${WENC_CORPUS_DIR:-$root/../shared/corpus/wikipedia}
cc=${CC:-cc}

skip() {
    echo "******************************************************************"
    echo "*** SKIPPED: differential test against encoding_rs             ***"
    echo "*** $1"
    echo "*** Install: apt-get install cargo librust-encoding-rs-dev     ***"
    echo "******************************************************************"
    exit 77
}

case $cases in '' | *[!0-9]*) echo "run.sh: CASES must be a number, not '$cases'" >&2; exit 2 ;; esac
case $seed in *[!0-9]*) echo "run.sh: SEED must be a number, not '$seed'" >&2; exit 2 ;; esac

cargo=
if command -v cargo >/dev/null 2>&1; then
    cargo=$(command -v cargo)
elif [ -x /root/.cargo/bin/cargo ]; then
    cargo=/root/.cargo/bin/cargo
elif [ -n "${HOME:-}" ] && [ -x "$HOME/.cargo/bin/cargo" ]; then
    cargo=$HOME/.cargo/bin/cargo
fi
[ -n "$cargo" ] || skip "cargo not found (PATH, /root/.cargo/bin, \$HOME/.cargo/bin)"
set -- "$registry"/encoding_rs-0.8.*/Cargo.toml
[ -f "$1" ] || skip "encoding_rs sources not found in $registry"
set -- "$registry"/cfg-if-1.*/Cargo.toml
[ -f "$1" ] || skip "cfg-if sources (an encoding_rs dependency) not found in $registry"

started=$(date +%s)
mkdir -p "$build"

versions=$(cd "$registry" && ls -d encoding_rs-0.8.* | tr '\n' ' ')
echo "== building the oracle against $versions(offline, $registry)"
# Cargo reads .cargo/config.toml (the directory source) only from the
# directory it runs in. Build a copy, so that a Cargo.lock cargo has to
# adapt to another encoding_rs 0.8.x never changes the tree.
rm -rf "$build/oracle-src"
mkdir -p "$build/oracle-src"
cp -pR "$root/tests/oracle/Cargo.toml" "$root/tests/oracle/Cargo.lock" \
    "$root/tests/oracle/src" "$root/tests/oracle/.cargo" "$build/oracle-src/"
sed "s|/usr/share/cargo/registry|$registry|" "$root/tests/oracle/.cargo/config.toml" \
    >"$build/oracle-src/.cargo/config.toml"
(cd "$build/oracle-src" &&
    CARGO_TARGET_DIR="$build/oracle" "$cargo" build --offline --release --quiet)
oracle=$build/oracle/release/wenc-oracle

lib=${WENC_LIB:-}
if [ -z "$lib" ]; then
    echo "== building libwenc (Release) in $build/lib"
    if [ ! -f "$build/lib/CMakeCache.txt" ]; then
        cmake -S "$root" -B "$build/lib" -DCMAKE_BUILD_TYPE=Release \
            -DWENC_TEST_NODE=OFF -DWENC_TEST_PYTHON=OFF >"$build/cmake.log" 2>&1 ||
            { cat "$build/cmake.log"; exit 1; }
    fi
    cmake --build "$build/lib" --target wenc_static -j2 >"$build/build.log" 2>&1 ||
        { cat "$build/build.log"; exit 1; }
    lib=$build/lib/libwenc.a
fi

echo "== building the driver"
"$cc" -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I"$root/include" \
    "$root"/tests/diff/*.c "$lib" -o "$build/diff"

if [ -z "$seed" ]; then
    seed=$(( $(date +%s) * 1000 + $$ % 1000 ))
    echo "== SEED not given: picked $seed (rerun with SEED=$seed)"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-diff.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "== self-check: a difference injected into one case must fail the run"
if "$build/diff" --oracle "$oracle" --tmp "$tmp" --cases 2000 --seed 1 \
    --inject-fault 1234 --reports 0 >"$tmp/self-check.log" 2>&1; then
    cat "$tmp/self-check.log"
    echo "run.sh: the self-check passed a wrong output; the driver cannot be trusted" >&2
    exit 1
fi
grep -q "^difference in case 1234:" "$tmp/self-check.log" || {
    cat "$tmp/self-check.log"
    echo "run.sh: the self-check failed for another reason than the injected fault" >&2
    exit 1
}
built=$(date +%s)
echo "== running $cases cases from seed $seed (build took $((built - started)) s)"
status=0
"$build/diff" --oracle "$oracle" --tmp "$tmp" --cases "$cases" --seed "$seed" \
    --corpus "$corpus" --reports "${DIFF_REPORTS:-3}" || status=$?
echo "== total time $(( $(date +%s) - started )) s, CASES=$cases SEED=$seed, exit $status"
exit $status
