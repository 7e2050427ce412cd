# tools/insn-count/rows.sh — the rows run.sh counts and mca.sh analyses,
# sourced by both: one line each, name|job|label|file, the jobs and inputs of
# bench/peers/peers.c's rows (insn_driver.c's JOB and LABEL, a corpus file).
# shellcheck shell=sh

insn_rows() {
    for f in en.html ja.html ja.txt ru.txt fr.txt; do
        echo "UTF-8 validation|decode-utf8|UTF-8|$f"
        echo "UTF-8 → UTF-16|decode-utf16|UTF-8|$f"
        echo "UTF-16 → UTF-8 (encode)|encode-utf16|UTF-8|$f"
        echo "UTF-16LE → UTF-8 (decode)|decode-utf8|UTF-16LE|$f"
        echo "UTF-16LE → UTF-16 (decode)|decode-utf16|UTF-16LE|$f"
    done
    for g in windows-1252:fr.txt windows-1252:en.html windows-1251:ru.txt \
             Shift_JIS:ja.txt EUC-JP:ja.txt Big5:zh_tw.txt EUC-KR:ko.txt gb18030:zh_cn.txt; do
        echo "${g%%:*} → UTF-8|decode-utf8|${g%%:*}|${g#*:}"
        echo "${g%%:*} → UTF-16|decode-utf16|${g%%:*}|${g#*:}"
    done
    for g in windows-1252:fr.txt windows-1252:en.html windows-1251:ru.txt \
             EUC-KR:ko.txt Shift_JIS:ja.txt Big5:zh_tw.txt; do
        echo "${g%%:*} from UTF-8|encode-utf8|${g%%:*}|${g#*:}"
        echo "${g%%:*} from UTF-16|encode-utf16|${g%%:*}|${g#*:}"
    done
}
