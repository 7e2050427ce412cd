#!/bin/sh
# The library's run-time SIMD kernels against the same library built without
# them (WENC_NO_RUNTIME_SIMD), in one run on the same bytes: decoding to
# UTF-16 (single-byte encodings), and UTF-16 -> UTF-8. Run after `make`
# (which builds build/libwenc.a and build/libwenc_portable.a):
#   bench/simd.sh            # about a minute
# Prints a Markdown table of MB/s; bench/utf16_speed.c says what is timed.
set -eu

cd "$(dirname "$0")/.."
corpus=${WENC_CORPUS:-../shared/corpus/wikipedia}
for lib in build/libwenc.a build/libwenc_portable.a; do
    if [ ! -f "$lib" ]; then
        echo "simd.sh: $lib is missing; run make first" >&2
        exit 1
    fi
done
if [ ! -d "$corpus" ]; then
    echo "simd.sh: the corpus ($corpus) is missing; set WENC_CORPUS" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -std=c11 -Iinclude bench/utf16_speed.c build/libwenc.a \
    -o "$work/simd"
cc -O2 -std=c11 -Iinclude bench/utf16_speed.c build/libwenc_portable.a \
    -o "$work/portable"

field() { # field NAME OUTPUT
    echo "$2" | awk -v name="$1" '$1 == name { print $2 }'
}
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}

echo "| operation | input | SIMD MB/s | portable MB/s | SIMD / portable | memcpy MB/s |"
echo "|---|---|---:|---:|---:|---:|"
for pair in windows-1256:ar.txt iso-8859-2:cs.txt koi8-r:ru.txt \
    windows-1251:ru.txt windows-1254:tr.txt windows-1252:fr.txt \
    utf-8:ja.txt utf-8:zh_cn.txt utf-8:ko.txt utf-8:ru.txt utf-8:el.txt \
    utf-8:fr.txt utf-8:en.html; do
    label=${pair%%:*}
    name=${pair#*:}
    [ -f "$corpus/$name" ] || { echo "simd.sh: skipped $name (absent)" >&2; continue; }
    simd=$("$work/simd" "$label" "$corpus/$name")
    portable=$("$work/portable" "$label" "$corpus/$name")
    if [ "$label" = utf-8 ]; then
        what="encode UTF-16 -> UTF-8"
        key=encode
    else
        what="decode $label -> UTF-16"
        key=decode
    fi
    a=$(field "$key" "$simd")
    b=$(field "$key" "$portable")
    echo "| $what | $name | $a | $b | $(ratio "$a" "$b") | $(field memcpy "$simd") |"
done
