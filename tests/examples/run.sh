#!/bin/sh
# tests/examples/run.sh — runs the programs of examples/c/ on small inputs
# made here with printf and compares their output, byte for byte, with
# expectations worked out by hand from the Encoding Standard.
#
#   sh tests/examples/run.sh PATH/TO/wenc
#
# The example programs are looked for in $WENC_EXAMPLES_DIR, or else in the
# examples/ directory next to the wenc tool (CMake builds them into
# <build>/examples/). Prints a line per failure and, last,
# "N passed, M failed"; exits 0 only when nothing failed.

set -u

if [ $# -lt 1 ]; then
    echo "usage: sh tests/examples/run.sh PATH/TO/wenc" >&2
    exit 2
fi
bin=${WENC_EXAMPLES_DIR:-$(dirname "$1")/examples}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-examples.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' 0
trap 'exit 2' HUP INT TERM

passed=0
failed=0

# input FORMAT: the next command's standard input (and file), via printf.
input() {
    printf "$1" > "$tmp/in"
}

# show FILE: its bytes in hex, on one line.
show() {
    od -An -tx1 "$1" | tr -s ' \n' '  '
}

# check NAME STATUS OUT ERR COMMAND [ARG...]
#   Runs COMMAND with $tmp/in as standard input. STATUS is the expected exit
#   status, OUT and ERR printf formats of the exact expected standard output
#   and standard error ("-" for ERR: not checked).
check() {
    name=$1 want_status=$2 want_out=$3 want_err=$4
    shift 4
    printf "$want_out" > "$tmp/want_out"
    "$@" < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
    status=$?
    ok=1
    if [ "$status" -ne "$want_status" ]; then
        echo "FAIL $name: exit status $status, expected $want_status"
        ok=0
    fi
    if ! cmp -s "$tmp/out" "$tmp/want_out"; then
        echo "FAIL $name: standard output differs"
        echo "    expected: $(show "$tmp/want_out")"
        echo "    actual:   $(show "$tmp/out")"
        ok=0
    fi
    if [ "$want_err" != "-" ]; then
        printf "$want_err" > "$tmp/want_err"
        if ! cmp -s "$tmp/err" "$tmp/want_err"; then
            echo "FAIL $name: standard error differs"
            echo "    expected: $(cat "$tmp/want_err")"
            echo "    actual:   $(cat "$tmp/err")"
            ok=0
        fi
    fi
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}

for prog in decode_file stream_decode form_encode percent_encode; do
    if [ ! -x "$bin/$prog" ]; then
        echo "FAIL: $bin/$prog is missing (build the examples first)"
        failed=$((failed + 1))
    fi
done
if [ $failed -ne 0 ]; then
    echo "$passed passed, $failed failed"
    exit 1
fi

# ---- decode_file: the Standard's decode (BOM sniff, then the fallback) -----

D="$bin/decode_file"
input '\357\273\277caf\303\251'
check "decode_file: UTF-8 BOM wins over windows-1252" 0 \
    'caf\303\251' 'UTF-8\n' "$D" "$tmp/in" windows-1252
input 'caf\351'
check "decode_file: no BOM, fallback windows-1252" 0 \
    'caf\303\251' 'windows-1252\n' "$D" "$tmp/in" windows-1252
check "decode_file: label with whitespace and capitals" 0 \
    'caf\303\251' 'windows-1252\n' "$D" "$tmp/in" ' LATIN1 '
input '\377\376A\000\254 '
check "decode_file: UTF-16LE BOM" 0 \
    'A\342\202\254' 'UTF-16LE\n' "$D" "$tmp/in" windows-1252
input '\376\377\000A\060\102'
check "decode_file: UTF-16BE BOM wins over Shift_JIS" 0 \
    'A\343\201\202' 'UTF-16BE\n' "$D" "$tmp/in" shift_jis
input '\202\240\202\242'
check "decode_file: Shift_JIS" 0 \
    '\343\201\202\343\201\204' 'Shift_JIS\n' "$D" "$tmp/in" sjis
input '\357\273'
check "decode_file: a partial BOM is no BOM (windows-1252)" 0 \
    '\303\257\302\273' 'windows-1252\n' "$D" "$tmp/in" windows-1252
check "decode_file: a partial BOM is no BOM (UTF-8: one U+FFFD)" 0 \
    '\357\277\275' 'UTF-8\n' "$D" "$tmp/in" utf-8
input '\377\376\377\376'
check "decode_file: the BOM is removed once" 0 \
    '\357\273\277' 'UTF-16LE\n' "$D" "$tmp/in" windows-1252
input 'abc'
check "decode_file: replacement" 0 \
    '\357\277\275' 'replacement\n' "$D" "$tmp/in" iso-2022-kr
check "decode_file: not a label" 2 '' - "$D" "$tmp/in" no-such-label
input ''
check "decode_file: empty input" 0 '' 'windows-1252\n' "$D" "$tmp/in" l1
input 'A\303'
check "decode_file: standard input, default UTF-8" 0 \
    'A\357\277\275' 'UTF-8\n' "$D" -

# ---- stream_decode: TextDecoder with stream, pieces of 3 bytes -----------

S="$bin/stream_decode"
input '\357\273\277A\342\202\254\360\237\230\200B'
check "stream_decode: UTF-8 in 3-byte pieces, BOM removed" 0 \
    'A\342\202\254\360\237\230\200B' 'decoding utf-8\n' "$S" utf-8
check "stream_decode: UTF-8 in 1-byte pieces, split BOM removed" 0 \
    'A\342\202\254\360\237\230\200B' 'decoding utf-8\n' "$S" --chunk 1 utf8
check "stream_decode: --ignore-bom keeps it" 0 \
    '\357\273\277A\342\202\254\360\237\230\200B' 'decoding utf-8\n' \
    "$S" --ignore-bom utf-8
input 'A\357\273\277'
check "stream_decode: a BOM after text is kept" 0 \
    'A\357\273\277' 'decoding utf-8\n' "$S" --chunk 2 utf-8
input 'ab\342\202'
check "stream_decode: truncated at the end: U+FFFD from the flush" 0 \
    'ab\357\277\275' 'decoding utf-8\n' "$S" utf-8
check "stream_decode: truncated at the end, --fatal: TypeError" 1 'ab' \
    'decoding utf-8\nstream_decode: TypeError: malformed input ending at byte 4\n' \
    "$S" --fatal utf-8
input 'abc\377def'
check "stream_decode: malformed in the second piece, --fatal" 1 'abc' \
    'decoding utf-8\nstream_decode: TypeError: malformed input ending at byte 4\n' \
    "$S" --fatal utf-8
check "stream_decode: malformed in the second piece: U+FFFD" 0 \
    'abc\357\277\275def' 'decoding utf-8\n' "$S" utf-8
input '\377\376=\330\000\336A\000'
check "stream_decode: UTF-16LE, BOM and pair split" 0 \
    '\360\237\230\200A' 'decoding utf-16le\n' "$S" utf-16
input '\376\377\330=\336\000'
check "stream_decode: UTF-16BE" 0 \
    '\360\237\230\200' 'decoding utf-16be\n' "$S" unicodefffe
input '\202\240\202\242'
check "stream_decode: Shift_JIS, a pair split" 0 \
    '\343\201\202\343\201\204' 'decoding shift_jis\n' "$S" ms_kanji
input '\201\060\201\060'
check "stream_decode: gb18030 four-byte sequence split" 0 \
    '\302\200' 'decoding gb18030\n' "$S" gb18030
input '\033$B$"\033(B!'
check "stream_decode: ISO-2022-JP escapes split" 0 \
    '\343\201\202!' 'decoding iso-2022-jp\n' "$S" csiso2022jp
input '\357\273\277'
check "stream_decode: windows-1252 keeps EF BB BF" 0 \
    '\303\257\302\273\302\277' 'decoding windows-1252\n' "$S" cp1252
check "stream_decode: replacement label is a RangeError" 2 '' - \
    "$S" replacement
check "stream_decode: not a label is a RangeError" 2 '' - "$S" utf-7

# ---- form_encode: the Standard's encode, html NCRs ------------------------

F="$bin/form_encode"
input ''
check "form_encode: windows-1252 and Shift_JIS" 0 \
    'windows-1252: 71 3D 63 61 66 E9 26 23 39 37 33 33 3B A5 80\nShift_JIS: 71 3D 63 61 66 26 23 32 33 33 3B 81 9A 5C 26 23 38 33 36 34 3B\n' \
    '' "$F" "$(printf 'q=caf\303\251\342\230\205\302\245\342\202\254')"
check "form_encode: output encodings, x-user-defined, ISO-2022-JP" 0 \
    'UTF-8: C3 A9 C2 A5\nx-user-defined: 26 23 32 33 33 3B 26 23 31 36 35 3B\nISO-2022-JP: 26 23 32 33 33 3B 1B 28 4A 5C 1B 28 42\n' \
    '' "$F" "$(printf '\303\251\302\245')" utf-16le x-user-defined \
    iso-2022-jp
check "form_encode: ill-formed UTF-8 is U+FFFD" 0 \
    'windows-1252: 26 23 36 35 35 33 33 3B 41\n' '' \
    "$F" "$(printf '\377A')" windows-1252
check "form_encode: not a label" 2 '' - "$F" abc utf-9

# ---- percent_encode: get an encoder, encode or fail -----------------------

P="$bin/percent_encode"
check "percent_encode: windows-1252" 0 \
    'a+b%%26%%E9%%80%%26%%239731%%3B\n' '' \
    "$P" windows-1252 "$(printf 'a b&\303\251\342\202\254\342\230\203')"
check "percent_encode: ISO-2022-JP keeps its Roman state over an error" 0 \
    '%%1B%%28J%%5C%%26%%23233%%3B%%1B%%28B%%5C\n' '' \
    "$P" iso-2022-jp "$(printf '\302\245\303\251\\')"
check "percent_encode: UTF-8" 0 '%%C3%%A9+%%7E\n' '' \
    "$P" utf-8 "$(printf '\303\251 ~')"
check "percent_encode: Shift_JIS" 0 '%%82%%A0*\n' '' \
    "$P" shift_jis "$(printf '\343\201\202*')"
check "percent_encode: UTF-16LE encodes as UTF-8" 0 '%%C3%%A9\n' '' \
    "$P" utf-16le "$(printf '\303\251')"
check "percent_encode: GBK euro sign" 0 '%%80\n' '' \
    "$P" gbk "$(printf '\342\202\254')"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
