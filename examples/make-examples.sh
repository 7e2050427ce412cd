#!/bin/sh
# Re-creates the encoded examples from the UTF-8 texts in examples/src/:
#
#   sh examples/make-examples.sh PATH-TO-WENC
#
# examples/src/NAME.txt becomes examples/NAME.LABEL.txt, written by the
# project's own encoder (`wenc encode -t LABEL --fatal`, so a character the
# encoding lacks stops the script instead of turning into &#N;).

set -u

if [ $# -ne 1 ]; then
    echo "usage: sh examples/make-examples.sh PATH-TO-WENC" >&2
    exit 2
fi
WENC=$1
case $WENC in
    /*) ;;
    *) WENC=$(pwd)/$WENC ;;
esac
cd "$(dirname "$0")/.." || exit 2

status=0
# NAME LABEL: one example per line.
while read -r name label; do
    src=examples/src/$name.txt
    out=examples/$name.$label.txt
    if "$WENC" encode -t "$label" --fatal "$src" > "$out.tmp"; then
        mv "$out.tmp" "$out"
        echo "wrote $out"
    else
        rm -f "$out.tmp"
        echo "make-examples.sh: $src could not be encoded in $label" >&2
        status=1
    fi
done <<'EOF'
fr windows-1252
ru koi8-r
el iso-8859-7
ja shift_jis
zh gb18030
ko euc-kr
EOF
exit $status
