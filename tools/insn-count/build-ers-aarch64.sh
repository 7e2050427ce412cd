#!/bin/sh
# tools/insn-count/build-ers-aarch64.sh — builds encoding_rs for
# aarch64-unknown-linux-gnu, behind the C-ABI shim of bench/peers/ers, for
# run.sh to count its instructions under qemu-user. Offline, with Debian's
# packages only:
#
#   rustc-web, cargo-web       Debian's newer Rust (1.96 in bookworm-security),
#                              installed as /usr/bin/rustc and /usr/bin/cargo
#   libstd-rust-web-dev:arm64  its standard library for aarch64 (multiarch),
#                              in /usr/lib/rustlib/aarch64-unknown-linux-gnu
#   gcc-aarch64-linux-gnu      the linker
#
# rustup's toolchains here have no aarch64 standard library and cannot get
# one offline, and Debian's plain rustc (1.63) is too old for the newest
# encoding_rs, so this uses the rustc-web pair explicitly, whatever PATH says.
#
#   tools/insn-count/build-ers-aarch64.sh [--install] [OUTDIR]
#
# --install first adds the arm64 architecture to dpkg and installs those
# packages with apt-get (as root). OUTDIR defaults to build-insn/ in the
# tree; the crate is built in a copy there, never in the tree.
#
# Which encoding_rs: the newest, with simd-accel (core::simd; NEON on
# aarch64) and fast-legacy-encode, laid out by
# ../shared/peers/encoding-rs-head.sh at $ENCODING_RS_HEAD (default
# ../peers/encoding-rs-head beside the tree, then
# /tmp/wenc-peers/encoding-rs-head). simd-accel needs nightly features:
# RUSTC_BOOTSTRAP=1 allows them on this stable compiler. Target CPU:
# generic aarch64 (armv8-a with NEON), as the gcc build of wenc. When the
# newest is not laid out, Debian's encoding_rs 0.8.31 is built instead
# (its crate has no simd-accel: no SIMD) and a loud banner says so.
#
# Prints the built library's path as its last line. Exit status: 0 built;
# 77 a tool is missing (the banner names the packages); 1 the build failed.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
triple=aarch64-unknown-linux-gnu
registry=${CARGO_REGISTRY:-/usr/share/cargo/registry}
rustc=/usr/bin/rustc cargo=/usr/bin/cargo
packages="rustc-web cargo-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu"

loud() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
    echo "!! $1" >&2
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
}

if [ "${1:-}" = --install ]; then
    shift
    dpkg --add-architecture arm64
    apt-get update
    # shellcheck disable=SC2086 # one word a package
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages
fi
out=${1:-$root/build-insn}

# A Rust that can build for aarch64: rustc-web and the aarch64 libstd of
# the very same version.
if [ ! -x "$rustc" ] || [ ! -x "$cargo" ] ||
   ! ls "$("$rustc" --print target-libdir --target "$triple" 2>/dev/null)"/libstd-*.rlib \
       >/dev/null 2>&1 ||
   ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
    loud "no Rust for $triple: run this script with --install, or as root:
!!   dpkg --add-architecture arm64 && apt-get update &&
!!   apt-get install $packages"
    exit 77
fi

head=${ENCODING_RS_HEAD:-}
if [ -z "$head" ]; then
    for d in "$root/../peers/encoding-rs-head" /tmp/wenc-peers/encoding-rs-head; do
        if [ -f "$d/patch.toml" ]; then head=$d; break; fi
    done
fi

name=ers-aarch64
mkdir -p "$out"
rm -rf "${out:?}/$name-src"
mkdir -p "$out/$name-src/.cargo"
cp -R "$root/bench/peers/ers/src" "$out/$name-src/"
printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "%s"\n[net]\noffline = true\n' \
    "$registry" >"$out/$name-src/.cargo/config.toml"
if [ -n "$head" ] && [ -f "$head/patch.toml" ]; then
    feature=', "simd-accel"'
    version="encoding_rs git $(cat "$head/COMMIT" 2>/dev/null || echo unknown) + simd-accel, aarch64"
    set -- --config "$head/patch.toml"
else
    feature=
    debian=
    for d in "$registry"/encoding_rs-0.8.*; do
        if [ -f "$d/Cargo.toml" ]; then debian=${d##*/}; break; fi
    done
    [ -n "$debian" ] || { loud "no encoding_rs sources at all: lay out the newest (../shared/peers/encoding-rs-head.sh) or apt-get install librust-encoding-rs-dev"; exit 77; }
    version="$(echo "$debian" | sed 's/-/ /') (Debian), no SIMD, aarch64"
    loud "the newest encoding_rs is not laid out (set ENCODING_RS_HEAD): building Debian's $debian WITHOUT SIMD (that crate has no simd-accel)"
    set --
fi
sed "s/\"fast-legacy-encode\"/\"fast-legacy-encode\"$feature/" \
    "$root/bench/peers/ers/Cargo.toml" >"$out/$name-src/Cargo.toml"

echo "== building $version with $("$rustc" -V)" >&2
if ! (cd "$out/$name-src" &&
      RUSTC="$rustc" RUSTFLAGS='' RUSTC_BOOTSTRAP=1 ERS_VERSION="$version" \
      CARGO_TARGET_DIR="$out/$name" \
      CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
      "$cargo" build --offline --release --target "$triple" "$@") \
      >"$out/$name.log" 2>&1; then
    cat "$out/$name.log" >&2
    loud "building encoding_rs for $triple failed (log: $out/$name.log)"
    exit 1
fi
echo "$out/$name/$triple/release/libwenc_bench_ers.so"
