#!/bin/sh
# A short tour of wenc (`make demo` runs it from the repo root):
#
#   sh examples/demo.sh PATH-TO-WENC
#
# Decodes every examples/NAME.LABEL.txt with `wenc decode -f LABEL`, looks up
# a label, and round-trips a string through latin1. Exits non-zero if any
# command fails.

set -u

if [ $# -ne 1 ]; then
    echo "usage: sh examples/demo.sh PATH-TO-WENC" >&2
    exit 2
fi
WENC=$1
case $WENC in
    /*) ;;
    *) WENC=$(pwd)/$WENC ;;
esac
cd "$(dirname "$0")/.." || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-demo.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

failed=0
count=0

for file in examples/*.*.txt; do
    [ -f "$file" ] || continue
    base=${file##*/}      # ja.shift_jis.txt
    label=${base#*.}      # shift_jis.txt
    label=${label%.txt}   # shift_jis
    if ! name=$("$WENC" label "$label"); then
        echo "demo.sh: $file: '$label' is not a label" >&2
        failed=1
        continue
    fi
    echo "== $file ($name) =="
    if ! "$WENC" decode -f "$label" "$file"; then
        echo "demo.sh: decoding $file failed" >&2
        failed=1
    fi
    echo
    count=$((count + 1))
done
if [ $count -eq 0 ]; then
    echo "demo.sh: no examples/*.*.txt; run sh examples/make-examples.sh first" >&2
    failed=1
fi

echo "== wenc label latin1 =="
"$WENC" label latin1 || failed=1
echo

echo "== printf 'café €' | wenc encode -t latin1 | wenc decode -f latin1 =="
# POSIX sh has no pipefail: each side records its own status.
printf 'café €' |
    { "$WENC" encode -t latin1; echo $? > "$tmp/encode"; } |
    { "$WENC" decode -f latin1; echo $? > "$tmp/decode"; } > "$tmp/out"
cat "$tmp/out"
echo
if [ "$(cat "$tmp/encode")" != 0 ] || [ "$(cat "$tmp/decode")" != 0 ]; then
    echo "demo.sh: the round trip failed" >&2
    failed=1
elif [ "$(cat "$tmp/out")" != 'café €' ]; then
    echo "demo.sh: the round trip changed the text" >&2
    failed=1
fi

exit $failed
