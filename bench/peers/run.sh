#!/bin/sh
# bench/peers/run.sh — builds and runs the in-process peer benchmark
# (bench/peers/peers.c): wenc against encoding_rs (Debian's 0.8.31 and, when
# its sources are laid out, the newest with simd-accel), ICU, glibc iconv
# and memcpy, on the corpus; and, when its sources are there, simdutf as the
# limit of the UTF jobs it shares. `make bench` runs it; arguments go to peers.
#
#   bench/peers/run.sh [--check] [--rounds N] [--rows SUBSTRING] [--ms N]
#
# --check runs every row once on a slice of each input and only compares
# the outputs (what CI runs: it times nothing).
#
# BENCH_LEVELS (default "native") picks which builds of wenc are timed, one
# run after the other, so that a change to one kernel level is measured on
# the others too: native (build/libwenc.a, the best kernels this CPU has),
# avx2 (build/libwenc_avx2.a: AVX-512 off, as on an AVX2-only CPU; the
# newest encoding_rs is then built for x86-64-v3 too, so that neither uses
# AVX-512) and portable (build/libwenc_portable.a: every vector kernel
# off). `make bench LEVELS="native avx2"`. simdutf picks its kernels at run
# time; each level pins them to the same class through
# SIMDUTF_FORCE_IMPLEMENTATION: avx2 takes its "haswell" kernels and
# portable its "fallback" (scalar) ones, native the best this CPU has. A
# name simdutf does not have makes every one of its outputs differ, which
# the run reports.
#
# Environment: ENCODING_RS_HEAD (default ../peers/encoding-rs-head beside
# the repository; laid out by ../shared/peers/encoding-rs-head.sh),
# SIMDUTF_SRC (default ../peers/simdutf beside the repository: a checkout of
# github.com/simdutf/simdutf, whose singleheader/amalgamate.py makes the
# simdutf.cpp built here with c++ -O3, offline),
# CARGO_REGISTRY (default /usr/share/cargo/registry), WENC_CORPUS (default
# ../shared/corpus/wikipedia), BENCH_BUILD_DIR (default build-bench), CC.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD_DIR:-$root/build-bench}
registry=${CARGO_REGISTRY:-/usr/share/cargo/registry}
head=${ENCODING_RS_HEAD:-$root/../peers/encoding-rs-head}
corpus=${WENC_CORPUS:-$root/../shared/corpus/wikipedia}
cc=${CC:-cc}
mkdir -p "$build"

loud() {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! $1"
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
}

[ -d "$corpus" ] || { loud "the corpus is not at $corpus (set WENC_CORPUS): nothing to measure"; exit 77; }

echo "== building libwenc (Release)"
make -C "$root" build >/dev/null

cargo=
if command -v cargo >/dev/null 2>&1; then cargo=$(command -v cargo)
elif [ -x "${HOME:-/root}/.cargo/bin/cargo" ]; then cargo=${HOME:-/root}/.cargo/bin/cargo
fi

# build_ers NAME VERSION FEATURE [cargo arguments...]: the shim crate in a
# copy under $build (so that Cargo.lock never changes the tree), with
# encoding_rs's FEATURE (or none) beside fast-legacy-encode. (Debian's crate
# has no simd-accel, so the shim's manifest cannot name it.)
build_ers() {
    name=$1 version=$2 feature=$3
    shift 3
    rm -rf "$build/$name-src"
    mkdir -p "$build/$name-src/.cargo"
    cp -R "$root/bench/peers/ers/src" "$build/$name-src/"
    sed "s/\"fast-legacy-encode\"/\"fast-legacy-encode\"${feature:+, \"$feature\"}/" \
        "$root/bench/peers/ers/Cargo.toml" >"$build/$name-src/Cargo.toml"
    printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "%s"\n[net]\noffline = true\n' \
        "$registry" >"$build/$name-src/.cargo/config.toml"
    (cd "$build/$name-src" && ERS_VERSION="$version" CARGO_TARGET_DIR="$build/$name" \
        "$cargo" build --offline --release --quiet "$@") >"$build/$name.log" 2>&1 ||
        { cat "$build/$name.log"; return 1; }
    echo "$build/$name/release/libwenc_bench_ers.so"
}

peer_debian= peer_head=
if [ -z "$cargo" ]; then
    loud "encoding_rs NOT measured: cargo not found (apt-get install cargo)"
elif ! ls "$registry"/encoding_rs-0.8.*/Cargo.toml >/dev/null 2>&1; then
    loud "encoding_rs (Debian) NOT measured: no sources in $registry (apt-get install librust-encoding-rs-dev)"
else
    version=$(cd "$registry" && ls -d encoding_rs-0.8.* | sed -n 1p | sed 's/encoding_rs-/encoding_rs /')
    echo "== building $version (Debian's crate, fast-legacy-encode)"
    peer_debian=$(build_ers ers-debian "$version (Debian)" "") ||
        { loud "building encoding_rs (Debian) failed"; exit 1; }
fi
levels=${BENCH_LEVELS:-native}
for level in $levels; do
    case $level in
    native | avx2 | portable) ;;
    *) echo "run.sh: BENCH_LEVELS takes native, avx2 and portable, not '$level'" >&2; exit 2 ;;
    esac
done
peer_head_v3=
if [ -n "$cargo" ] && [ -f "$head/patch.toml" ]; then
    commit=$(cat "$head/COMMIT" 2>/dev/null || echo unknown)
    echo "== building encoding_rs $commit (newest, simd-accel, target-cpu=native)"
    peer_head=$(RUSTC_BOOTSTRAP=1 RUSTFLAGS="-C target-cpu=native" \
        build_ers ers-head "encoding_rs git $commit + simd-accel" simd-accel \
        --config "$head/patch.toml") || { loud "building the newest encoding_rs failed"; exit 1; }
    case " $levels " in
    *" avx2 "*)
        echo "== building encoding_rs $commit (newest, simd-accel, target-cpu=x86-64-v3) for the avx2 level"
        peer_head_v3=$(RUSTC_BOOTSTRAP=1 RUSTFLAGS="-C target-cpu=x86-64-v3" \
            build_ers ers-v3 "encoding_rs git $commit + simd-accel, x86-64-v3" simd-accel \
            --config "$head/patch.toml") || { loud "building the newest encoding_rs for x86-64-v3 failed"; exit 1; }
        ;;
    esac
elif [ -n "$cargo" ]; then
    loud "the newest encoding_rs with SIMD NOT measured: no sources at $head (lay them out with ../shared/peers/encoding-rs-head.sh, or set ENCODING_RS_HEAD)"
fi

simdutf_src=${SIMDUTF_SRC:-$root/../peers/simdutf}
cxx=${CXX:-c++}
limit_lib='' limit_name=''
if [ -f "$simdutf_src/singleheader/amalgamate.py" ]; then
    version=$(sed -n 's/^#define SIMDUTF_VERSION "\(.*\)"/\1/p' \
        "$simdutf_src/include/simdutf/simdutf_version.h" 2>/dev/null)
    commit=$(git -C "$simdutf_src" rev-parse --short HEAD 2>/dev/null || echo unknown)
    limit_name="simdutf ${version:-?} ($commit)"
    echo "== building $limit_name, the limit of the UTF rows"
    rm -rf "$build/simdutf" && mkdir -p "$build/simdutf"
    if (cd "$simdutf_src/singleheader" &&
        python3 amalgamate.py --source-dir "$simdutf_src/src" \
            --include-dir "$simdutf_src/include" --output-dir "$build/simdutf" \
            --no-zip --no-readme) >"$build/simdutf.log" 2>&1 &&
       "$cxx" -O3 -std=c++17 -fPIC -shared "$build/simdutf/simdutf.cpp" \
            -o "$build/simdutf/libsimdutf.so" >>"$build/simdutf.log" 2>&1; then
        limit_lib=$build/simdutf/libsimdutf.so
    else
        cat "$build/simdutf.log"
        loud "building simdutf failed"
        exit 1
    fi
else
    loud "simdutf NOT measured: no sources at $simdutf_src (git clone https://github.com/simdutf/simdutf there, or set SIMDUTF_SRC)"
fi

echo "== building bench/peers/peers.c"
icu_flags=
if pkg-config --exists icu-uc 2>/dev/null; then
    icu_flags="-DWENC_BENCH_ICU $(pkg-config --cflags --libs icu-uc)"
else
    loud "ICU NOT measured: no icu-uc.pc (apt-get install libicu-dev pkg-config)"
fi
status=0
for level in $levels; do
    case $level in
    native) lib=$root/build/libwenc.a exe=$build/peers head_lib=$peer_head simdutf_kernels= ;;
    avx2) lib=$root/build/libwenc_avx2.a exe=$build/peers-avx2 head_lib=$peer_head_v3 simdutf_kernels=haswell ;;
    portable) lib=$root/build/libwenc_portable.a exe=$build/peers-portable head_lib=$peer_head simdutf_kernels=fallback ;;
    esac
    [ "$levels" = native ] || echo "== level $level: $(basename "$lib")"
    if [ ! -f "$lib" ]; then
        loud "level $level NOT measured: no $lib (the avx2 and portable builds are made on x86-64)"
        status=77
        continue
    fi
    # shellcheck disable=SC2086
    "$cc" -O2 -std=c11 -Wall -Wextra -Werror -I"$root/include" "$root/bench/peers/peers.c" \
        "$lib" $icu_flags -ldl -o "$exe"
    level_limit_name="$limit_name, ${simdutf_kernels:-its best} kernels"
    SIMDUTF_FORCE_IMPLEMENTATION=$simdutf_kernels
    if [ -n "$simdutf_kernels" ]; then
        export SIMDUTF_FORCE_IMPLEMENTATION
    else
        unset SIMDUTF_FORCE_IMPLEMENTATION
    fi
    "$exe" --corpus "$corpus" ${peer_debian:+--peer "$peer_debian"} \
        ${head_lib:+--peer "$head_lib"} \
        ${limit_lib:+--limit "$limit_lib" --limit-name "$level_limit_name"} "$@" || status=$?
done
exit $status
