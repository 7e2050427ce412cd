#!/bin/sh
# Shows wenc at work on the example files:
#
#   sh examples/demo.sh PATH-TO-WENC        (`make demo` runs it)
#
# Each examples/NAME.LABEL.txt is decoded with `wenc decode -f LABEL` and
# printed as UTF-8 under a header line; then a label lookup, an encode round
# trip, and the byte order mark winning over a label.

set -eu

if [ $# -ne 1 ]; then
    echo "usage: sh examples/demo.sh PATH-TO-WENC" >&2
    exit 2
fi
WENC=$1
dir=$(dirname "$0")

for file in "$dir"/*.*.txt; do
    base=${file##*/}
    label=${base#*.}
    label=${label%.txt}
    echo "== $base: wenc decode -f $label"
    "$WENC" decode -f "$label" "$file"
    echo
done

echo "== wenc label latin1"
"$WENC" label latin1
echo

text='Grüße aus Köln: 5 € für œuvres!'
echo "== encode round trip: '$text'"
echo "-- wenc encode -t windows-1252 | od -An -tx1"
printf '%s\n' "$text" | "$WENC" encode -t windows-1252 | od -An -tx1
echo "-- wenc encode -t windows-1252 | wenc decode -f windows-1252"
printf '%s\n' "$text" | "$WENC" encode -t windows-1252 | "$WENC" decode -f windows-1252
echo "-- wenc encode -t iso-8859-2 (no € there: html mode writes &#8364;)"
printf '%s\n' "$text" | "$WENC" encode -t iso-8859-2 | "$WENC" decode -f iso-8859-2
echo

echo "== the BOM wins: wenc decode -f windows-1252 $dir/hello.utf-16le.txt"
"$WENC" decode -f windows-1252 "$dir/hello.utf-16le.txt" | head -n 1
