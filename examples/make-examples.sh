#!/bin/sh
# Writes the encoded example files from their UTF-8 sources, with wenc's own
# encoder:
#
#   sh examples/make-examples.sh [PATH-TO-WENC]     (default: build/wenc)
#
# examples/src/NAME.txt becomes examples/NAME.LABEL.txt through
# `wenc encode -t LABEL --fatal`, so a character the encoding lacks stops the
# script instead of turning into &#N;. wenc has no UTF-16 encoder (the
# Standard defines none), so the UTF-16LE example is made here from an
# ASCII-only source: the BOM FF FE, then each byte followed by 00.

set -eu

cd "$(dirname "$0")/.."
WENC=${1:-build/wenc}

# NAME LABEL, one example per line.
while read -r name label; do
    "$WENC" encode --fatal -t "$label" "examples/src/$name.txt" \
        > "examples/$name.$label.txt.tmp"
    mv "examples/$name.$label.txt.tmp" "examples/$name.$label.txt"
    echo "wrote examples/$name.$label.txt"
done <<'LIST'
french windows-1252
russian koi8-r
greek iso-8859-7
hebrew windows-1255
japanese shift_jis
chinese gb18030
korean euc-kr
LIST

# UTF-16LE: only ASCII (00-7F) widens to a code unit by appending 00.
src=examples/src/hello.txt
if [ "$(LC_ALL=C tr -d '\n -~' < "$src" | wc -c)" -ne 0 ]; then
    echo "make-examples.sh: $src must be printable ASCII" >&2
    exit 1
fi
{
    printf '\377\376'
    for byte in $(od -An -v -to1 "$src"); do
        printf "\\$byte\\000"
    done
} > examples/hello.utf-16le.txt.tmp
mv examples/hello.utf-16le.txt.tmp examples/hello.utf-16le.txt
echo "wrote examples/hello.utf-16le.txt"
