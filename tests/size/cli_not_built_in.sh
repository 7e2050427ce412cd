#!/bin/sh
# The wenc tool of a library configured with -DWENC_CJK=OFF: a label of a
# legacy multi-byte encoding still names it (wenc label), but decoding or
# encoding with it stops before reading any input, with exit status 1, this
# message and no output; the other encodings work as ever.
#
#   sh tests/size/cli_not_built_in.sh PATH-TO-WENC

LC_ALL=C
export LC_ALL
W=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/wenc-size.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
passed=0
failed=0

# check NAME STATUS STDOUT STDERR -- ARGS... (stdin: "A")
check() {
    name=$1 want_status=$2 want_out=$3 want_err=$4
    shift 5
    printf 'A' | "$W" "$@" >"$T/out" 2>"$T/err"
    status=$?
    printf '%s' "$want_out" >"$T/want_out"
    printf '%s' "$want_err" >"$T/want_err"
    if [ "$status" -eq "$want_status" ] && cmp -s "$T/out" "$T/want_out" &&
        cmp -s "$T/err" "$T/want_err"; then
        echo "ok   $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name: status $status (want $want_status)"
        echo "  stdout: $(od -An -c "$T/out")"
        echo "  stderr: $(cat "$T/err")"
        failed=$((failed + 1))
    fi
}

msg() {
    printf "wenc: encoding '%s' is not built into this libwenc (configured with -DWENC_CJK=OFF)\n" "$1"
}

check "decode -f shift_jis" 1 "" "$(msg Shift_JIS)
" -- decode -f shift_jis
check "encode -t gbk" 1 "" "$(msg GBK)
" -- encode -t gbk
check "convert -f big5 -t utf-8" 1 "" "$(msg Big5)
" -- convert -f big5 -t utf-8
check "-f utf-8 -t euc-kr" 1 "" "$(msg EUC-KR)
" -- -f utf-8 -t euc-kr
check "-f windows-1252 -t csiso2022jp" 1 "" "$(msg ISO-2022-JP)
" -- -f windows-1252 -t csiso2022jp
check "label sjis" 0 "Shift_JIS
" "" -- label sjis
check "encode -t koi8-r" 0 "A" "" -- encode -t koi8-r

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
