# Sourced by tests/cli/run.sh: charset names that are not labels, wenc -l,
# and sniff reading standard input. Expected lines are written by hand.

# ---------------------------------------------------------------------------
# Names in common use outside the Standard: what the Standard has for each,
# in one line, instead of near spellings.
# ---------------------------------------------------------------------------
input ''
t 'names: cp932 is Shift_JIS' 1 '' \
    "wenc: unknown label 'cp932': Windows code page 932 is the Standard's Shift_JIS; use Shift_JIS\n" \
    label cp932
t 'names: CP936 (any case) is GBK' 1 '' \
    "wenc: unknown label 'CP936': Windows code page 936 is the Standard's GBK; use GBK\n" \
    label CP936
t 'names: cp949 is EUC-KR' 1 '' \
    "wenc: unknown label 'cp949': Windows code page 949 (Unified Hangul Code) is the Standard's EUC-KR; use EUC-KR\n" \
    label cp949
t 'names: cp950 is covered by Big5' 1 '' \
    "wenc: unknown label 'cp950': Windows code page 950 is covered by the Standard's Big5; use Big5\n" \
    label cp950
t 'names: euc-jis-2004 has no counterpart' 1 '' \
    "wenc: unknown label 'euc-jis-2004': JIS X 0213 is not in the Encoding Standard; EUC-JP decodes its JIS X 0208 part\n" \
    label euc-jis-2004
t 'names: utf-32, spelt UTF_32 with spaces around' 1 '' \
    "wenc: unknown label ' UTF_32 ': the Encoding Standard has no UTF-32 (browsers do not decode it)\n" \
    label ' UTF_32 '
t 'names: ucs-2le is UTF-16LE' 1 '' \
    "wenc: unknown label 'ucs-2le': UCS-2LE is covered by UTF-16LE; use UTF-16LE\n" \
    label ucs-2le
t 'names: an EBCDIC code page' 1 '' \
    "wenc: unknown label 'IBM037': EBCDIC code pages are not in the Encoding Standard\n" \
    label IBM037
t 'names: in -f, a usage error (exit 2)' 2 '' \
    "wenc: unknown label 'cp932': Windows code page 932 is the Standard's Shift_JIS; use Shift_JIS\n" \
    decode -f cp932
t 'names: in -t of the iconv form' 2 '' \
    "wenc: unknown label 'utf-32le': the Encoding Standard has no UTF-32 (browsers do not decode it)\n" \
    -f utf-8 -t utf-32le
t 'names: a label of the Standard is still a label (ms932)' 0 'Shift_JIS\n' '' label ms932
t 'names: a near spelling still gets suggestions' 1 '' \
    "wenc: unknown label 'utf_8'; did you mean: utf-8, utf8?\n" label utf_8

# ---------------------------------------------------------------------------
# wenc -l / --list: the encodings, each with its labels (iconv -l). The
# lines are the Standard's encodings.json, written out by hand for these.
# ---------------------------------------------------------------------------
run -l
equal 'wenc -l: 40 lines' "$(wc -l < out | tr -d ' ')" 40
equal 'wenc -l: status and no stderr' "$rc:$(cat err)" '0:'
equal 'wenc -l: UTF-8 first' "$(sed -n 1p out)" \
    "$(printf 'UTF-8\tunicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8')"
equal 'wenc -l: Shift_JIS' "$(grep '^Shift_JIS' out)" \
    "$(printf 'Shift_JIS\tcsshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis')"
equal 'wenc -l: UTF-16LE' "$(grep '^UTF-16LE' out)" "$(printf 'UTF-16LE\tcsunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le')"
cp out list-l
run --list
same 'wenc --list is wenc -l' out list-l
if [ -f "$DATA/encodings.json" ] && command -v python3 > /dev/null 2>&1; then
    python3 -c '
import json, sys
for group in json.load(open(sys.argv[1])):
    for e in group["encodings"]:
        print(e["name"] + "\t" + " ".join(e["labels"]))
' "$DATA/encodings.json" > want-list
    run -l
    same 'wenc -l: every line matches encodings.json' out want-list
else
    skip 'wenc -l: every line matches encodings.json' "no $DATA/encodings.json or python3"
fi
t 'wenc -l: no operand' 2 '' "wenc: extra operand 'x'\n$HINT" -l x
t 'labels: --json and --by-encoding exclude each other' 2 '' \
    "wenc: --json and --by-encoding exclude each other\n$HINT" labels --json --by-encoding

# ---------------------------------------------------------------------------
# sniff with no FILE reads standard input, named '-'.
# ---------------------------------------------------------------------------
input '\357\273\277a'
t 'sniff: no FILE reads standard input' 0 '\055\tUTF-8\n' '' sniff
input '<meta charset="koi8-r">'
t 'sniff --html: no FILE reads standard input' 0 '\055\tKOI8-R\ttentative\tmeta\tbytes 0-22\n' '' \
    sniff --html
input "<?xml version='1.0'?><p encoding='iso-8859-2'>"
t "sniff --html: an XML declaration's encoding only before its first '>'" 0 \
    '\055\twindows-1252\ttentative\tdefault\n' '' sniff --html

# The manual documents these.
if command -v groff > /dev/null 2>&1 && [ -f "$ROOT/docs/wenc.1" ]; then
    # one space between words, whatever groff's justification put there
    groff -man -Tascii -P-cbou -ww "$ROOT/docs/wenc.1" 2> /dev/null | tr -s ' ' > man-names.txt
    equal 'man page: -l, --list, --by-encoding, names outside the Standard' \
        "$(for o in '--by-encoding' 'wenc -l' 'wenc --list' 'Windows code page 932' 'reads standard input'; do grep -q -- "$o" man-names.txt || echo "$o"; done)" ''
else
    skip 'man page: -l, --list, --by-encoding' 'no groff'
fi
