#!/bin/sh
# Golden tests for the wenc command-line tool.
#
#   sh tests/cli/run.sh PATH-TO-WENC
#
# Runs from anywhere (ctest runs it from the repo root). WENC_DATA_DIR, when it
# names the Standard's data directory, adds a check of `wenc labels` against
# encodings.json. Every expected output below was worked out by hand from the
# Encoding Standard and its index files (pointer arithmetic shown next to each
# case), never by running wenc. Prints `ok - NAME` / `not ok - NAME` per case
# and a last line `N passed, M failed`; exits 1 if anything failed.
#
# Needs only POSIX sh, coreutils (head, tr, cat, cksum, wc, mktemp), sed, od,
# cmp and printf.

LC_ALL=C
export LC_ALL

if [ $# -ne 1 ]; then
    echo "usage: sh tests/cli/run.sh PATH-TO-WENC" >&2
    exit 2
fi
WENC=$1
case $WENC in
    /*) ;;
    *) WENC=$(pwd)/$WENC ;;
esac
if [ ! -x "$WENC" ]; then
    echo "run.sh: '$WENC' is not an executable" >&2
    exit 2
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
trap 'exit 141' PIPE

passed=0
failed=0

pass() {
    passed=$((passed + 1))
    echo "ok - $1"
}

# fail NAME DETAIL...: DETAIL lines are printed as TAP-style comments.
fail() {
    failed=$((failed + 1))
    echo "not ok - $1"
    shift
    for line in "$@"; do
        printf '#   %s\n' "$line"
    done
}

# show FILE: a file's bytes in hex, as comment lines (first 256 bytes).
show() {
    if [ -s "$1" ]; then
        head -c 256 "$1" | od -An -tx1 | sed 's/^/#     /'
    else
        echo "#     (empty)"
    fi
}

# hexbytes HH HH ...: writes those bytes to stdout.
hexbytes() {
    for h in "$@"; do
        # shellcheck disable=SC2059
        printf "\\$(printf '%03o' "$((0x$h))")"
    done
}

# mk SPEC FILE: writes the bytes SPEC describes to FILE.
#   ""        nothing
#   "x:HH HH" those bytes, in hex
#   "t:TEXT"  TEXT as a printf format: \n, \t, \ooo escapes; write % as %%
mk() {
    case $1 in
        '') : > "$2" ;;
        x:*) hexbytes ${1#x:} > "$2" ;;
        # The leading %s keeps a format that starts with '-' from being
        # taken for an option.
        # shellcheck disable=SC2059
        t:*) printf "%s${1#t:}" '' > "$2" ;;
        *) echo "run.sh: bad spec '$1'" >&2; exit 2 ;;
    esac
}

# verdict NAME: compares $status, $tmp/out and $tmp/err with $want_status,
# $tmp/want.out and $tmp/want.err.
verdict() {
    ok=1
    if [ "$status" != "$want_status" ]; then ok=0; fi
    if ! cmp -s "$tmp/out" "$tmp/want.out"; then ok=0; fi
    if ! cmp -s "$tmp/err" "$tmp/want.err"; then ok=0; fi
    if [ $ok = 1 ]; then
        pass "$1"
        return
    fi
    fail "$1" "command: wenc $args" "exit status: $status (want $want_status)"
    if ! cmp -s "$tmp/out" "$tmp/want.out"; then
        echo "#   stdout:"; show "$tmp/out"
        echo "#   want stdout:"; show "$tmp/want.out"
    fi
    if ! cmp -s "$tmp/err" "$tmp/want.err"; then
        echo "#   stderr:"; sed 's/^/#     /' "$tmp/err"
        echo "#   want stderr:"; sed 's/^/#     /' "$tmp/want.err"
    fi
}

# t NAME STATUS IN OUT ERR ARG...
# Pipes IN into `wenc ARG...` and expects exit STATUS, stdout OUT and
# stderr ERR (all specs as for mk).
t() {
    name=$1 want_status=$2
    mk "$3" "$tmp/in"
    mk "$4" "$tmp/want.out"
    mk "$5" "$tmp/want.err"
    shift 5
    args=$*
    cat "$tmp/in" | "$WENC" "$@" > "$tmp/out" 2> "$tmp/err"
    status=$?
    verdict "$name"
}

# tf NAME STATUS FILE OUT ERR ARG...: like t, but stdin is FILE itself.
tf() {
    name=$1 want_status=$2 infile=$3
    mk "$4" "$tmp/want.out"
    mk "$5" "$tmp/want.err"
    shift 5
    args=$*
    "$WENC" "$@" < "$infile" > "$tmp/out" 2> "$tmp/err"
    status=$?
    verdict "$name"
}

# repeat SRC N DST: DST becomes SRC's bytes N times over (by doubling).
repeat() {
    : > "$3"
    cp "$1" "$tmp/rep.p"
    n=$2
    while [ "$n" -gt 0 ]; do
        if [ $((n % 2)) -eq 1 ]; then
            cat "$tmp/rep.p" >> "$3"
        fi
        n=$((n / 2))
        if [ "$n" -gt 0 ]; then
            cat "$tmp/rep.p" "$tmp/rep.p" > "$tmp/rep.q"
            mv "$tmp/rep.q" "$tmp/rep.p"
        fi
    done
    rm -f "$tmp/rep.p"
}

TRY="Try 'wenc --help'.\n"

# ---------------------------------------------------------------------------
# UTF-8 decode (§8.1.1)
# ---------------------------------------------------------------------------

t "utf-8: default label, valid text passes through" 0 \
    "x:63 61 66 c3 a9 20 e2 82 ac 20 f0 9f 98 80 0a" \
    "x:63 61 66 c3 a9 20 e2 82 ac 20 f0 9f 98 80 0a" "" decode

t "utf-8: empty input gives empty output" 0 "" "" "" decode

# 61 | FF err | 62 | E2 82 then 63: one error, 63 re-read | F0 9F 98 80 |
# C0 err | 80 err | ED then A0 (above the 9F bound): err, A0 err, 80 err |
# 64 | E2 at end of input: err.
t "utf-8: malformed sequences become U+FFFD (maximal subparts)" 0 \
    "x:61 ff 62 e2 82 63 f0 9f 98 80 c0 80 ed a0 80 64 e2" \
    "x:61 ef bf bd 62 ef bf bd 63 f0 9f 98 80 ef bf bd ef bf bd ef bf bd ef bf bd ef bf bd 64 ef bf bd" \
    "" decode

# F4 90: above U+10FFFF (F4 sets the upper bound to 8F); F8..FF never lead.
t "utf-8: F4 90 80 80 and F8 give one U+FFFD per byte" 0 \
    "x:f4 90 80 80 f8" \
    "x:ef bf bd ef bf bd ef bf bd ef bf bd ef bf bd" "" decode

t "utf-8: --fatal stops at FF, keeps the output before it" 1 \
    "t:ab\377cd" "t:ab" \
    "t:wenc: <stdin>: malformed UTF-8 input at byte 2 (0xFF)\n" \
    decode --fatal

t "utf-8: --fatal reports a truncated sequence with its bytes" 1 \
    "x:61 62 e2 82 63" "t:ab" \
    "t:wenc: <stdin>: malformed UTF-8 input at byte 2 (0xE2 0x82)\n" \
    decode --fatal

t "utf-8: --fatal at end of input" 1 \
    "x:e3 81 82 e3 81" "x:e3 81 82" \
    "t:wenc: <stdin>: malformed UTF-8 input at byte 3 (0xE3 0x81)\n" \
    decode -f utf8 --fatal

t "utf-8: --fatal offset counts a stripped BOM" 1 \
    "x:ef bb bf 61 ff" "t:a" \
    "t:wenc: <stdin>: malformed UTF-8 input at byte 4 (0xFF)\n" \
    decode --fatal

t "utf-8: --fatal on valid input exits 0" 0 \
    "x:c3 a9" "x:c3 a9" "" decode --fatal

# ---------------------------------------------------------------------------
# BOM handling (§6 decode, BOM sniff)
# ---------------------------------------------------------------------------

# FF FE wins over windows-1252: 61 00 = 'a', AC 20 = U+20AC.
t "bom: UTF-16LE BOM wins over -f windows-1252" 0 \
    "x:ff fe 61 00 ac 20" "x:61 e2 82 ac" "" decode -f windows-1252

t "bom: UTF-16BE BOM wins over -f utf-16le" 0 \
    "x:fe ff 00 61 20 ac" "x:61 e2 82 ac" "" decode -f utf-16le

t "bom: UTF-8 BOM is removed (default utf-8)" 0 \
    "x:ef bb bf 61" "t:a" "" decode

t "bom: UTF-8 BOM wins over -f shift_jis" 0 \
    "x:ef bb bf e3 81 82" "x:e3 81 82" "" decode -f shift_jis

t "bom: only the first BOM is removed" 0 \
    "x:ef bb bf ef bb bf 61" "x:ef bb bf 61" "" decode

t "bom: --bom keep decodes the UTF-8 BOM to U+FEFF" 0 \
    "x:ef bb bf 61" "x:ef bb bf 61" "" decode --bom keep

t "bom: --bom keep with windows-1252 ignores FF FE" 0 \
    "x:ff fe 61" "x:c3 bf c3 be 61" "" decode -f windows-1252 --bom keep

t "bom: --bom keep -f utf-16le gives U+FEFF" 0 \
    "x:ff fe 61 00" "x:ef bb bf 61" "" decode -f utf-16le --bom=keep

t "bom: --bom strip -f utf-16be removes FE FF" 0 \
    "x:fe ff 00 61" "t:a" "" decode -f utf-16be --bom strip

# EF BB BF 00 as UTF-16BE: U+EFBB U+BF00.
t "bom: --bom strip -f utf-16be keeps a UTF-8 BOM (as UTF-16BE)" 0 \
    "x:ef bb bf 00" "x:ee be bb eb bc 80" "" decode -f utf-16be --bom strip

t "bom: --bom strip -f utf-16be keeps FF FE as U+FFFE" 0 \
    "x:ff fe 00 61" "x:ef bf be 61" "" decode -f utf-16be --bom strip

t "bom: --bom strip with windows-1252 is keep" 0 \
    "x:ef bb bf" "x:c3 af c2 bb c2 bf" "" decode -f windows-1252 --bom strip

t "bom: EF BB alone is a truncated UTF-8 sequence" 0 \
    "x:ef bb" "x:ef bf bd" "" decode

t "bom: FF FE alone is an empty UTF-16LE stream" 0 \
    "x:ff fe" "" "" decode -f windows-1252

# ---------------------------------------------------------------------------
# UTF-16 decode (§9)
# ---------------------------------------------------------------------------

# 3D D8 00 DE = U+D83D U+DE00 = U+1F600; an odd last byte is an error.
t "utf-16le: surrogate pair and odd trailing byte" 0 \
    "x:3d d8 00 de 62 00 63" "x:f0 9f 98 80 62 ef bf bd" "" decode -f utf-16le

# D8 3D then 00 61: lone lead surrogate is an error, 00 61 re-read as 'a'.
t "utf-16be: lone lead surrogate" 0 \
    "x:d8 3d 00 61 dc 00" "x:ef bf bd 61 ef bf bd" "" decode -f utf-16be

t "utf-16le: --fatal on a lone surrogate after a sniffed BOM" 1 \
    "x:ff fe 61 00 3d d8 62 00" "t:a" \
    "t:wenc: <stdin>: malformed UTF-16LE input at byte 4 (0x3D 0xD8)\n" \
    decode -f windows-1252 --fatal

# ---------------------------------------------------------------------------
# Single-byte encodings (§9), x-user-defined (§15.5), replacement (§15.1)
# ---------------------------------------------------------------------------

# index-windows-1252.txt: pointer 0 = U+20AC, pointer 1 = U+0081.
t "windows-1252: 0x80 -> U+20AC, 0x81 -> U+0081" 0 \
    "x:80 81 e9 41" "x:e2 82 ac c2 81 c3 a9 41" "" decode -f windows-1252

t "windows-1252: latin1 label" 0 \
    "x:63 61 66 e9" "x:63 61 66 c3 a9" "" decode -f latin1

t "windows-1252: ascii label" 0 \
    "x:9c" "x:c5 93" "" decode -f ascii

# index-koi8-u.txt: pointer 0x2E = 46 = U+045E.
t "koi8-u: 0xAE -> U+045E" 0 \
    "x:ae" "x:d1 9e" "" decode -f koi8-u

# index-iso-8859-3.txt has no pointer 37 (0xA5).
t "iso-8859-3: unmapped 0xA5 -> U+FFFD" 0 \
    "x:a4 a5 41" "x:c2 a4 ef bf bd 41" "" decode -f iso-8859-3

t "iso-8859-3: --fatal on unmapped 0xA5" 1 \
    "x:41 a5" "t:A" \
    "t:wenc: <stdin>: malformed ISO-8859-3 input at byte 1 (0xA5)\n" \
    decode -f latin3 --fatal

t "x-user-defined: 0x80 -> U+F780, 0xFF -> U+F7FF" 0 \
    "x:41 80 ff" "x:41 ef 9e 80 ef 9f bf" "" decode -f x-user-defined

t "x-user-defined: encode U+F780 -> 0x80" 0 \
    "x:ef 9e 80 41" "x:80 41" "" encode -t x-user-defined

t "replacement: non-empty input -> exactly one U+FFFD" 0 \
    "x:61 62 63 0a 00 ff" "x:ef bf bd" "" decode -f iso-2022-kr

t "replacement: empty input -> nothing" 0 \
    "" "" "" decode -f iso-2022-kr

t "replacement: csiso2022kr with a BOM still is UTF-8 (BOM wins)" 0 \
    "x:ef bb bf 61" "t:a" "" decode -f csiso2022kr

# ---------------------------------------------------------------------------
# CJK families (§10-§14); bytes from the index files by hand
# ---------------------------------------------------------------------------

# Shift_JIS: lead = p/188 + (p/188 < 0x1F ? 0x81 : 0xC1),
#            trail = p%188 + (p%188 < 0x3F ? 0x40 : 0x41)   (index jis0208)
#   U+3042 あ p=283:  1, 95 -> 82 A0      U+3044 い p=285:  1, 97 -> 82 A2
#   U+65E5 日 p=3569: 18, 185 -> 93 FA    U+672C 本 p=4007: 21, 59 -> 96 7B
SJ_UTF8="e3 81 82 e3 81 84 e6 97 a5 e6 9c ac"
SJ_BYTES="82 a0 82 a2 93 fa 96 7b"
t "shift_jis: encode あい日本" 0 "x:$SJ_UTF8" "x:$SJ_BYTES" "" encode -t shift_jis
t "shift_jis: decode あい日本" 0 "x:$SJ_BYTES" "x:$SJ_UTF8" "" decode -f sjis
# U+00A5 -> 5C, U+203E -> 7E, U+FF71 -> B1 (FF71-FF61+A1),
# U+2212 -> U+FF0D p=60 -> 81 7C
t "shift_jis: encode ¥ ‾ ｱ −" 0 \
    "x:c2 a5 e2 80 be ef bd b1 e2 88 92" "x:5c 7e b1 81 7c" "" \
    encode -t windows-31j
t "shift_jis: decode 5C 7E A1 DF" 0 \
    "x:5c 7e a1 df" "x:5c 7e ef bd a1 ef be 9f" "" decode -f ms_kanji
# 82 then 20: error, 20 re-read.
t "shift_jis: --fatal on a bad trail byte" 1 \
    "x:82 a0 82 20" "x:e3 81 82" \
    "t:wenc: <stdin>: malformed Shift_JIS input at byte 2 (0x82)\n" \
    decode -f shift_jis --fatal

# EUC-JP: lead = p/94 + A1, trail = p%94 + A1 (index jis0208)
#   あ p=283: 3, 1 -> A4 A2   日 p=3569: 37, 91 -> C6 FC   本 p=4007: 42, 59 -> CB DC
#   U+FF71 -> 8E B1
EJ_UTF8="e3 81 82 e6 97 a5 e6 9c ac ef bd b1"
EJ_BYTES="a4 a2 c6 fc cb dc 8e b1"
t "euc-jp: encode あ日本ｱ" 0 "x:$EJ_UTF8" "x:$EJ_BYTES" "" encode -t euc-jp
t "euc-jp: decode あ日本ｱ" 0 "x:$EJ_BYTES" "x:$EJ_UTF8" "" decode -f euc-jp
# 8F A2 AF: index jis0212 pointer (A2-A1)*94 + (AF-A1) = 108 = U+02D8.
t "euc-jp: decode jis0212 8F A2 AF -> U+02D8" 0 \
    "x:8f a2 af" "x:cb 98" "" decode -f x-euc-jp

# ISO-2022-JP: ESC $ B, then p/94 + 21, p%94 + 21; back with ESC ( B.
#   あ p=283 -> 24 22   日 p=3569 -> 46 7C
IJ_UTF8="61 e3 81 82 e6 97 a5 62"
IJ_BYTES="61 1b 24 42 24 22 46 7c 1b 28 42 62"
t "iso-2022-jp: encode aあ日b" 0 "x:$IJ_UTF8" "x:$IJ_BYTES" "" encode -t iso-2022-jp
t "iso-2022-jp: decode aあ日b" 0 "x:$IJ_BYTES" "x:$IJ_UTF8" "" decode -f csiso2022jp
t "iso-2022-jp: encode U+00A5 -> ESC ( J 5C ESC ( B" 0 \
    "x:c2 a5" "x:1b 28 4a 5c 1b 28 42" "" encode -t iso-2022-jp
# U+FF71 -> katakana index 16 = U+30A2, jis0208 p=377 -> 25 22.
t "iso-2022-jp: encode halfwidth ｱ as fullwidth ア" 0 \
    "x:ef bd b1" "x:1b 24 42 25 22 1b 28 42" "" encode -t iso-2022-jp
# ☃ is unmappable: html mode writes '&' after switching back to ASCII.
t "iso-2022-jp: html NCR after jis0208 switches to ASCII first" 0 \
    "x:e3 81 82 e2 98 83" \
    "x:1b 24 42 24 22 1b 28 42 26 23 39 37 33 31 3b" "" encode -t iso-2022-jp

# gb18030: lead = p/190 + 81, trail = p%190 + (p%190 < 0x3F ? 0x40 : 0x41)
#   U+4E2D 中 p=16293: 85, 143 -> D6 D0   U+6587 文 p=14761: 77, 131 -> CE C4
#   U+5B57 字 p=16489: 86, 149 -> D7 D6   U+20AC € p=6432: 33, 162 -> A2 E3
# four bytes from index gb18030 ranges: U+0080 = pointer 0 -> 81 30 81 30,
#   U+10000 = pointer 189000 -> 81+15, 30, 81, 30 -> 90 30 81 30
GB_UTF8="e4 b8 ad e6 96 87 e5 ad 97 e2 82 ac c2 80 f0 90 80 80"
GB_BYTES="d6 d0 ce c4 d7 d6 a2 e3 81 30 81 30 90 30 81 30"
t "gb18030: encode 中文字€ U+0080 U+10000" 0 "x:$GB_UTF8" "x:$GB_BYTES" "" encode -t gb18030
t "gb18030: decode 中文字€ U+0080 U+10000" 0 "x:$GB_BYTES" "x:$GB_UTF8" "" decode -f gb18030
t "gb18030: decode 0x80 -> U+20AC" 0 "x:80" "x:e2 82 ac" "" decode -f gb18030
# GB18030-2022: pointer 7182 = U+FE10 (was U+E78D): 37, 152 -> A6 D9.
t "gb18030: decode A6 D9 -> U+FE10 (2022 index)" 0 \
    "x:a6 d9" "x:ef b8 90" "" decode -f gb18030
t "gb18030: encode U+FE10 and U+E78D -> A6 D9" 0 \
    "x:ef b8 90 ee 9e 8d" "x:a6 d9 a6 d9" "" encode -t gb18030
# 84 31 A5 30: pointer 39420, no range -> one error for all four bytes.
# 81 30 81 41: error, then 30 and 81 41 re-read: '0', p=1 -> U+4E04.
t "gb18030: bad four-byte sequences" 0 \
    "x:84 31 a5 30 81 30 81 41" "x:ef bf bd ef bf bd 30 e4 b8 84" "" \
    decode -f gb18030
t "gb18030: U+E5E5 cannot be encoded" 0 \
    "x:ee 97 a5" "t:&#58853;" "" encode -t gb18030

# GBK: the gb18030 encoder without four-byte output; € -> 80.
t "gbk: encode 中€ and U+0080 (NCR)" 0 \
    "x:e4 b8 ad e2 82 ac c2 80" "x:d6 d0 80 26 23 31 32 38 3b" "" encode -t gbk
t "gbk: decode D6 D0 80 and four bytes" 0 \
    "x:d6 d0 80 81 30 81 30" "x:e4 b8 ad e2 82 ac c2 80" "" decode -f x-gbk

# Big5: lead = p/157 + 81, trail = p%157 + (p%157 < 0x3F ? 0x40 : 0x62)
#   中 p=5561: 35, 66 -> A4 A4   文 p=5626: 35, 131 -> A4 E5   字 p=5859: 37, 50 -> A6 72
B5_UTF8="e4 b8 ad e6 96 87 e5 ad 97"
B5_BYTES="a4 a4 a4 e5 a6 72"
t "big5: encode 中文字" 0 "x:$B5_UTF8" "x:$B5_BYTES" "" encode -t big5
t "big5: decode 中文字" 0 "x:$B5_BYTES" "x:$B5_UTF8" "" decode -f big5-hkscs
# pointer 1133 (88 62) decodes to two code points, U+00CA U+0304.
t "big5: decode 88 62 -> U+00CA U+0304" 0 \
    "x:88 62" "x:c3 8a cc 84" "" decode -f big5

# EUC-KR: lead = p/190 + 81, trail = p%190 + 41
#   한 U+D55C p=13444: 70, 144 -> C7 D1   국 U+AD6D p=9240: 48, 120 -> B1 B9
#   中 p=21448: 112, 168 -> F1 E9
KR_UTF8="ed 95 9c ea b5 ad e4 b8 ad"
KR_BYTES="c7 d1 b1 b9 f1 e9"
t "euc-kr: encode 한국中" 0 "x:$KR_UTF8" "x:$KR_BYTES" "" encode -t euc-kr
t "euc-kr: decode 한국中" 0 "x:$KR_BYTES" "x:$KR_UTF8" "" decode -f ks_c_5601-1987

# ---------------------------------------------------------------------------
# Encode (§4.3 encode, html and fatal modes)
# ---------------------------------------------------------------------------

t "encode: windows-1252" 0 \
    "x:63 61 66 c3 a9 20 e2 82 ac" "x:63 61 66 e9 20 80" "" encode -t windows-1252

t "encode: html mode, € to iso-8859-2 -> &#8364;" 0 \
    "x:61 e2 82 ac 62" "t:a&#8364;b" "" encode -t iso-8859-2

t "encode: html mode, astral code point" 0 \
    "x:f0 9f 98 80" "t:&#128512;" "" encode -t latin1

t "encode: ill-formed UTF-8 input is U+FFFD" 0 \
    "x:61 ff 62" "t:a&#65533;b" "" encode -t latin1

t "encode: ill-formed UTF-8 input to utf-8" 0 \
    "x:61 ff 62 ed a0 80" "x:61 ef bf bd 62 ef bf bd ef bf bd ef bf bd" "" \
    encode -t utf-8

t "encode: --fatal stops at ☃ with its input byte offset" 1 \
    "x:61 62 e2 98 83 63" "t:ab" \
    "t:wenc: <stdin>: U+2603 cannot be encoded in windows-1252 at input byte 2\n" \
    encode -t windows-1252 --fatal

t "encode: --fatal offset counts UTF-8 bytes, not code points" 1 \
    "x:c3 a9 e2 82 ac f0 9f 98 80" "x:e9" \
    "t:wenc: <stdin>: U+20AC cannot be encoded in ISO-8859-2 at input byte 2\n" \
    encode -t latin2 --fatal

t "encode: -t utf-16le writes UTF-8 with a note" 0 \
    "x:c3 a9" "x:c3 a9" \
    "t:wenc: note: UTF-16LE has no encoder; writing UTF-8\n" encode -t utf-16le

t "encode: -t utf-16be writes UTF-8 with a note" 0 \
    "t:a" "t:a" \
    "t:wenc: note: UTF-16BE has no encoder; writing UTF-8\n" encode -t unicodefffe

t "encode: -t replacement label writes UTF-8 with a note" 0 \
    "x:e2 82 ac" "x:e2 82 ac" \
    "t:wenc: note: replacement has no encoder; writing UTF-8\n" encode -t hz-gb-2312

t "encode: empty input" 0 "" "" "" encode -t shift_jis

# ---------------------------------------------------------------------------
# labels, label (§4.2 get an encoding)
# ---------------------------------------------------------------------------

"$WENC" labels > "$tmp/labels" 2> "$tmp/err"
status=$?
lines=$(wc -l < "$tmp/labels" | tr -d ' ')
if [ "$status" = 0 ] && [ "$lines" = 228 ] && [ ! -s "$tmp/err" ]; then
    pass "labels: 228 lines, exit 0"
else
    fail "labels: 228 lines, exit 0" "status $status, $lines lines" "stderr: $(cat "$tmp/err")"
fi

# label_line N 'EXPECTED': line N of `wenc labels`.
label_line() {
    got=$(sed -n "$1p" "$tmp/labels")
    want=$(printf "%s$2" '')
    if [ "$got" = "$want" ]; then
        pass "labels: line $1 is '$2'"
    else
        fail "labels: line $1 is '$2'" "got '$got'"
    fi
}
label_line 1 'unicode-1-1-utf-8\tUTF-8'
label_line 2 'unicode11utf8\tUTF-8'
label_line 7 '866\tIBM866'
label_line 51 'ecma-114\tISO-8859-6'
label_line 101 'iso8859-15\tISO-8859-15'
label_line 151 'iso-8859-9\twindows-1254'
label_line 201 'windows-31j\tShift_JIS'
label_line 228 'x-user-defined\tx-user-defined'

# The whole list, against encodings.json, when the data is at hand. Label
# lines are the JSON lines holding one string; the name follows its labels.
json=${WENC_DATA_DIR:-$ROOT/../shared/whatwg}/encodings.json
if [ -r "$json" ]; then
    : > "$tmp/pending"
    : > "$tmp/labels.want"
    sed -n -e 's/^ *"name": "\([^"]*\)",\{0,1\}$/N \1/p' \
           -e 's/^ *"\([^"]*\)",\{0,1\}$/L \1/p' "$json" > "$tmp/json.lines"
    while IFS=' ' read -r kind value; do
        case $kind in
            L) printf '%s\n' "$value" >> "$tmp/pending" ;;
            N)
                while IFS= read -r l; do
                    printf '%s\t%s\n' "$l" "$value"
                done < "$tmp/pending" >> "$tmp/labels.want"
                : > "$tmp/pending"
                ;;
        esac
    done < "$tmp/json.lines"
    if cmp -s "$tmp/labels" "$tmp/labels.want"; then
        pass "labels: identical to encodings.json"
    else
        fail "labels: identical to encodings.json" "diff (got, want):"
        diff "$tmp/labels" "$tmp/labels.want" | head -20 | sed 's/^/#     /'
    fi
else
    echo "ok - labels: identical to encodings.json # SKIP no $json"
fi

t "label: exact" 0 "" "t:Shift_JIS\n" "" label shift_jis
t "label: case-insensitive" 0 "" "t:windows-1252\n" "" label LaTiN1
t "label: surrounding spaces trimmed" 0 "" "t:UTF-8\n" "" label '  utf8  '
# ASCII whitespace is TAB, LF, FF, CR and SPACE.
lab=$(printf '\t\n\f\r Big5\t\n\f\r x')
lab=${lab%x}
t "label: TAB LF FF CR SPACE trimmed" 0 "" "t:Big5\n" "" label "$lab"
t "label: replacement label" 0 "" "t:replacement\n" "" label ISO-2022-CN-ext
t "label: x-user-defined" 0 "" "t:x-user-defined\n" "" label x-user-defined
t "label: utf-16 is UTF-16LE" 0 "" "t:UTF-16LE\n" "" label utf-16
t "label: miss without suggestions" 1 "" "" \
    "t:wenc: unknown label 'zzzz'\n" label zzzz
t "label: miss with three suggestions" 1 "" "" \
    "t:wenc: unknown label 'latin9'; did you mean: latin2, latin3, latin4?\n" \
    label latin9
t "label: miss with suggestions, case-insensitive" 1 "" "" \
    "t:wenc: unknown label 'UTF_8'; did you mean: utf-8, utf8?\n" label UTF_8
t "label: ties keep the Standard's order" 1 "" "" \
    "t:wenc: unknown label 'shiftjis'; did you mean: shift-jis, shift_jis, csshiftjis?\n" \
    label shiftjis
# VT (0x0B) and NO-BREAK SPACE are not ASCII whitespace. How the CLI shows
# such bytes inside the quotes (raw or escaped) is its choice; the rest of the
# line is fixed.
# miss NAME SUGGESTIONS LABEL: `wenc label LABEL` fails with exit 1, one
# stderr line `wenc: unknown label '...'` ending in SUGGESTIONS.
miss() {
    name=$1 tail=$2
    "$WENC" label "$3" < /dev/null > "$tmp/out" 2> "$tmp/err"
    status=$?
    lines=$(wc -l < "$tmp/err" | tr -d ' ')
    line=$(cat "$tmp/err")
    case $line in
        "wenc: unknown label '"*"'$tail") shape=1 ;;
        *) shape=0 ;;
    esac
    if [ "$status" = 1 ] && [ ! -s "$tmp/out" ] && [ "$lines" = 1 ] && [ $shape = 1 ]; then
        pass "$name"
    else
        fail "$name" "status $status (want 1)" "stderr: $line" \
            "want: wenc: unknown label '...'$tail"
    fi
}
miss "label: VT is not trimmed" "; did you mean: utf-8, utf8?" "$(printf '\013utf-8')"
miss "label: U+00A0 is not trimmed" "; did you mean: utf-8?" "$(printf '\302\240utf-8')"
t "label: empty label" 1 "" "" "t:wenc: unknown label ''\n" label ''

# ---------------------------------------------------------------------------
# Usage errors, help, version
# ---------------------------------------------------------------------------

"$WENC" --help > "$tmp/help" 2> "$tmp/err"
status=$?
first=$(sed -n 1p "$tmp/help")
if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] &&
   [ "$first" = "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE]" ]; then
    pass "--help: usage on stdout, exit 0"
else
    fail "--help: usage on stdout, exit 0" "status $status, first line '$first'"
fi
for cmd in "wenc encode -t LABEL [--fatal] [FILE]" "wenc labels" "wenc label LABEL"; do
    if grep -q -F -e "$cmd" "$tmp/help"; then
        pass "--help: shows '$cmd'"
    else
        fail "--help: shows '$cmd'"
    fi
done

"$WENC" -h > "$tmp/out" 2> "$tmp/err"
status=$?
if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/help"; then
    pass "-h: same as --help"
else
    fail "-h: same as --help" "status $status"
fi

# A command's own help: exit 0, on stdout, and it names the command.
for form in "decode --help" "decode -f latin1 -h" "encode -t latin1 -h" \
            "encode --help" "labels --help" "label --help"; do
    # shellcheck disable=SC2086
    "$WENC" $form > "$tmp/out" 2> "$tmp/err" < /dev/null
    status=$?
    cmd=${form%% *}
    if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] &&
       grep -q -e "^Usage:.*wenc $cmd\\b" -e "^ *wenc $cmd\\b" "$tmp/out"; then
        pass "help: 'wenc $form' prints help, exit 0"
    else
        fail "help: 'wenc $form' prints help, exit 0" "status $status" \
            "stderr: $(head -c 200 "$tmp/err")"
    fi
done

version=$(sed -n 's/^#define WENC_VERSION_STRING "\(.*\)"$/\1/p' "$ROOT/include/wenc.h")
t "--version" 0 "" "t:wenc $version\n" "" --version

# No arguments: a usage error; the CLI may show its synopsis.
"$WENC" < /dev/null > "$tmp/out" 2> "$tmp/err"
status=$?
if [ "$status" = 2 ] && [ ! -s "$tmp/out" ] && grep -q '^Usage: wenc ' "$tmp/err"; then
    pass "usage: no arguments -> exit 2, usage on stderr"
else
    fail "usage: no arguments -> exit 2, usage on stderr" "status $status" \
        "stderr: $(head -c 300 "$tmp/err")"
fi

# usage NAME TOKEN ARG...: `wenc ARG...` is a usage error: exit 2, nothing on
# stdout, and exactly two stderr lines: `wenc: ...` naming TOKEN (in quotes
# when it is an argument) and `Try 'wenc --help'.` The wording between is
# the CLI's own.
usage() {
    name=$1 token=$2
    shift 2
    "$WENC" "$@" < /dev/null > "$tmp/out" 2> "$tmp/err"
    status=$?
    lines=$(wc -l < "$tmp/err" | tr -d ' ')
    first=$(sed -n 1p "$tmp/err")
    last=$(sed -n 2p "$tmp/err")
    case $first in
        "wenc: "*"$token"*) shape=1 ;;
        *) shape=0 ;;
    esac
    if [ "$status" = 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" = 2 ] &&
       [ $shape = 1 ] && [ "$last" = "Try 'wenc --help'." ]; then
        pass "$name"
    else
        fail "$name" "command: wenc $*" "status $status (want 2)" \
            "stderr: $(cat "$tmp/err")" \
            "want: 'wenc: ...$token...' then 'Try 'wenc --help'.'"
    fi
}
usage "usage: unknown command" "'convert'" convert
usage "usage: unknown option" "'--nope'" decode --nope
usage "usage: unknown option after FILE" "'--nope'" decode /dev/null --nope
usage "usage: -t is not a decode option" "'-t'" decode -t latin1
usage "usage: -f is not an encode option" "'-f'" encode -t latin1 -f latin1
usage "usage: --bom is not an encode option" "'--bom'" encode -t latin1 --bom keep
usage "usage: encode without -t" "-t" encode
usage "usage: -f without its label" "'-f'" decode -f
usage "usage: --to without its label" "'--to'" encode --to
usage "usage: bad --bom" "'maybe'" decode --bom maybe
usage "usage: --bom without its mode" "--bom" decode --bom
usage "usage: two FILEs" "'b'" decode a b
usage "usage: labels takes no arguments" "'x'" labels x
usage "usage: label without LABEL" "" label
usage "usage: label with two LABELs" "" label a b

# An unknown -f/-t label is a usage error, reported like `wenc label`.
t "usage: unknown -f label" 2 "t:a" "" \
    "t:wenc: unknown label 'nope'\n" decode -f nope
t "usage: unknown -t label with a suggestion" 2 "t:a" "" \
    "t:wenc: unknown label 'big-5'; did you mean: big5?\n" encode -t big-5

# Option spellings.
t "options: -fLABEL" 0 "x:e9" "x:c3 a9" "" decode -flatin1
t "options: --from LABEL" 0 "x:e9" "x:c3 a9" "" decode --from latin1
t "options: --from=LABEL" 0 "x:e9" "x:c3 a9" "" decode --from=latin1
t "options: --to=LABEL" 0 "x:c3 a9" "x:e9" "" encode --to=latin1

# ---------------------------------------------------------------------------
# Files and standard input
# ---------------------------------------------------------------------------

t "stdin: '-' reads standard input" 0 "x:e9" "x:c3 a9" "" decode -f latin1 -

hexbytes 82 a0 ff > "$tmp/sjis.txt"
t "file: FILE argument" 0 "" "x:e3 81 82 ef bf bd" "" decode -f shift_jis "$tmp/sjis.txt"
t "file: FILE before the options" 0 "" "x:e3 81 82 ef bf bd" "" decode "$tmp/sjis.txt" -f shift_jis
t "file: --fatal message names the FILE" 1 "" "x:e3 81 82" \
    "t:wenc: $tmp/sjis.txt: malformed Shift_JIS input at byte 2 (0xFF)\n" \
    decode --fatal -f shift_jis "$tmp/sjis.txt"
hexbytes 61 e2 98 83 > "$tmp/snow.txt"
t "file: encode --fatal message names the FILE" 1 "" "t:a" \
    "t:wenc: $tmp/snow.txt: U+2603 cannot be encoded in EUC-KR at input byte 1\n" \
    encode --fatal -t euc-kr "$tmp/snow.txt"
mkdir "$tmp/dir"
hexbytes e9 > "$tmp/dir/-e9"
olddir=$(pwd)
cd "$tmp/dir" || exit 2
t "file: '--' ends the options (FILE '-e9')" 0 "" "x:c3 a9" "" decode -f latin1 -- -e9
t "file: without '--', '-e9' is an option" 2 "" "" \
    "t:wenc: unknown option '-e9'\n$TRY" decode -f latin1 -e9
cd "$olddir" || exit 2
tf "file: stdin redirected from a file" 0 "$tmp/dir/-e9" "x:c3 a9" "" decode -f latin1
t "file: missing file" 1 "t:a" "" \
    "t:wenc: $tmp/missing.txt: No such file or directory\n" decode "$tmp/missing.txt"
t "file: missing file (encode)" 1 "" "" \
    "t:wenc: $tmp/missing.txt: No such file or directory\n" encode -t latin1 "$tmp/missing.txt"
t "file: a directory" 1 "" "" \
    "t:wenc: $tmp: Is a directory\n" decode "$tmp"

# ---------------------------------------------------------------------------
# Large inputs through pipes (read chunks split sequences)
# ---------------------------------------------------------------------------

# big NAME IN WANT ARG...: pipes file IN through wenc, compares cksum with WANT.
big() {
    name=$1 bigin=$2 bigwant=$3
    shift 3
    cat "$bigin" | "$WENC" "$@" > "$tmp/out" 2> "$tmp/err"
    status=$?
    got=$(cksum < "$tmp/out")
    want=$(cksum < "$bigwant")
    if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] && [ "$got" = "$want" ]; then
        pass "$name"
    else
        fail "$name" "command: wenc $*" "status $status" \
            "cksum $got, want $want" "stderr: $(head -c 300 "$tmp/err")"
    fi
}

N=2621440  # 5 MiB of E9
head -c $N /dev/zero | tr '\0' '\351' > "$tmp/big.1252"
hexbytes c3 a9 > "$tmp/unit"
repeat "$tmp/unit" $N "$tmp/big.utf8"
big "big: 5 MiB windows-1252 E9 -> C3 A9 (decode)" \
    "$tmp/big.1252" "$tmp/big.utf8" decode -f windows-1252
big "big: 5 MiB C3 A9 -> windows-1252 E9 (encode)" \
    "$tmp/big.utf8" "$tmp/big.1252" encode -t windows-1252

# 'x' then あ (82 A0) a million times: two-byte characters straddle every
# 64 KiB boundary.
printf x > "$tmp/big.sjis"; hexbytes 82 a0 > "$tmp/unit"
repeat "$tmp/unit" 1000000 "$tmp/big.sjis.tail"; cat "$tmp/big.sjis.tail" >> "$tmp/big.sjis"
printf x > "$tmp/big.sjis.utf8"; hexbytes e3 81 82 > "$tmp/unit"
repeat "$tmp/unit" 1000000 "$tmp/big.sjis.tail"; cat "$tmp/big.sjis.tail" >> "$tmp/big.sjis.utf8"
big "big: Shift_JIS あ x 1e6 after one byte (decode)" \
    "$tmp/big.sjis" "$tmp/big.sjis.utf8" decode -f shift_jis
big "big: あ x 1e6 after one byte -> Shift_JIS (encode)" \
    "$tmp/big.sjis.utf8" "$tmp/big.sjis" encode -t shift_jis

# € FF a (5 bytes) x 1e6 in UTF-8: errors and 3-byte sequences at boundaries.
hexbytes e2 82 ac ff 61 > "$tmp/unit"; repeat "$tmp/unit" 1000000 "$tmp/big.bad"
hexbytes e2 82 ac ef bf bd 61 > "$tmp/unit"; repeat "$tmp/unit" 1000000 "$tmp/big.bad.want"
big "big: UTF-8 with errors, 5 MB" "$tmp/big.bad" "$tmp/big.bad.want" decode

# FF FE, then U+1F600 as a surrogate pair x 1e6: pairs straddle boundaries.
hexbytes ff fe > "$tmp/big.u16"; hexbytes 3d d8 00 de > "$tmp/unit"
repeat "$tmp/unit" 1000000 "$tmp/big.u16.tail"; cat "$tmp/big.u16.tail" >> "$tmp/big.u16"
hexbytes f0 9f 98 80 > "$tmp/unit"; repeat "$tmp/unit" 1000000 "$tmp/big.u16.want"
big "big: UTF-16LE surrogate pairs after a BOM, 4 MB" \
    "$tmp/big.u16" "$tmp/big.u16.want" decode -f latin1

# ---------------------------------------------------------------------------
# A closed pipe ends quietly with status 1
# ---------------------------------------------------------------------------

# epipe NAME ARG...: `wenc ARG... | head -c 1`; status 1, nothing on stderr.
epipe() {
    name=$1
    shift
    rm -f "$tmp/status"
    { "$WENC" "$@"; echo $? > "$tmp/status"; } 2> "$tmp/err" | head -c 1 > "$tmp/out"
    status=$(cat "$tmp/status" 2>/dev/null)
    if [ "$status" = 1 ] && [ ! -s "$tmp/err" ] && [ -s "$tmp/out" ]; then
        pass "$name"
    else
        fail "$name" "command: wenc $* | head -c 1" "status '$status' (want 1)" \
            "stderr: $(head -c 300 "$tmp/err")"
    fi
}
epipe "epipe: decode into head -c 1" decode -f windows-1252 "$tmp/big.1252"
hexbytes c3 > "$tmp/want.out"
if cmp -s "$tmp/out" "$tmp/want.out"; then
    pass "epipe: the byte head got is C3"
else
    fail "epipe: the byte head got is C3"; show "$tmp/out"
fi
epipe "epipe: encode into head -c 1" encode -t windows-1252 "$tmp/big.utf8"
epipe "epipe: decode from stdin into head -c 1" decode -f windows-1252 - < "$tmp/big.1252"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
