#!/bin/sh
# tools/analyze.sh — static analysis of the library and the CLI.
#
#   tools/analyze.sh          (or: make analyze)
#
# Runs, over the library (src/*/*.c but the generated tables) and cli/*.c (and the headers they
# include):
#   gcc -fanalyzer   gcc 12 or later: path-sensitive checks (NULL, leaks,
#                    uninitialised values, double free, file descriptors)
#   clang-tidy       the checks in .clang-tidy
#   cppcheck         warning, style, performance and portability
# with the compile flags CMake uses (-std=c11, include/ and src/ on the
# include path). Every finding is printed. A finding fails the run unless it
# matches an entry of tools/analyze-suppressions.txt, which says why it is not
# a defect; an entry that matches nothing fails the run too, so the list
# holds only what the tools still report. Suppression comments in the
# sources (NOLINT, cppcheck-suppress, #pragma GCC diagnostic ignored) fail
# the run: the reasons live in that one file. A tool that exits non-zero
# (cannot compile a file, crashes) fails the run.
#
# Before the real run each tool is given a small file with a known defect
# (tools/analyze-canary.c) and must report it: a tool that reports nothing
# there (a broken configuration, a check set that matches nothing) fails the
# run instead of passing it.
#
# Exit status: 0 every tool ran and nothing is left; 1 a finding, a stale
# suppression, a failed canary or a tool error; 77 nothing failed but some
# tool was missing (its part was NOT checked; a SKIPPED line says which).
#
# Environment: GCC, CLANG_TIDY, CPPCHECK name the tools (defaults gcc,
# clang-tidy, cppcheck); JOBS (default nproc) files at a time.

set -u
# ASCII quotes in gcc's messages, as the suppression file writes them.
LC_ALL=C
export LC_ALL

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
OUT=$ROOT/build-analyze
SUPPRESSIONS=$ROOT/tools/analyze-suppressions.txt
CANARY=$ROOT/tools/analyze-canary.c
GCC=${GCC:-gcc}
CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
CPPCHECK=${CPPCHECK:-cppcheck}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CFLAGS_COMMON="-std=c11 -I$ROOT/include -I$ROOT/src"

mkdir -p "$OUT" || exit 2
rm -f "$OUT"/*.raw "$OUT"/*.findings "$OUT"/*.canary

# Largest first (ls -S): the per-file tools start the slowest files at once
# instead of leaving one of them to run alone at the end. The generated
# tables are left out: cppcheck took 100 s over big5.c alone, to find nothing
# in data that tools/gen_tables.py writes and make check-tables checks.
SOURCES=$(ls -S src/core/*.c src/api/*.c src/codecs/*.c src/simd/*.c src/extensions/*.c cli/*.c)
START=$(date +%s)
failed=""
missing=""
ran=""

skipped() { # TOOL WHY
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!! SKIPPED: $1: $2"
    echo "!! Its part of the analysis was NOT run and is not counted as passed."
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    missing="$missing $1"
}

TAB=$(printf '\t')

# normalize TOOL < diagnostics: one line per warning or error, fields
# TOOL, FILE (relative to the root), ID, MESSAGE, LINE:SEVERITY separated by
# TABs. All three tools print "FILE:LINE:COL: SEVERITY: MESSAGE [...] [ID]"
# (cppcheck through --template); ID is the last bracketed group, and gcc's
# "[CWE-N]" goes.
normalize() {
    sed -n "s/^\([^ :][^:]*\):\([0-9][0-9]*\):[0-9]*: \(warning\|error\|style\|performance\|portability\|information\): \(.*\) \[\([^] ]*\)\]\$/\1$TAB\5$TAB\4$TAB\2:\3/p" |
        sed "s/ \[CWE-[0-9]*\]$TAB/$TAB/" |
        while IFS="$TAB" read -r file id msg where; do
            case $file in "$ROOT"/*) file=${file#"$ROOT"/} ;; esac
            printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$file" "$id" "$msg" "$where"
        done | sort -u
}

# run_each TOOL COMMAND: runs the sh COMMAND with "$1" set to each source
# file, JOBS at a time, and prints their outputs one file after the other.
run_each() {
    rm -rf "$OUT/$1.d"
    mkdir -p "$OUT/$1.d" || exit 2
    printf '%s\n' $SOURCES | xargs -P "$JOBS" -n 1 sh -c \
        "$2"' > "$0/$(echo "$1" | tr / _).out" 2>&1 ||
            echo "tool exit status $? on $1" >> "$0/$(echo "$1" | tr / _).out"' "$OUT/$1.d"
    cat "$OUT/$1.d"/*.out
}

# The per-file commands, for sh -c with the file as "$1".
GCC_CMD='"$GCC" $CFLAGS_COMMON -fanalyzer -fdiagnostics-plain-output -c -o /dev/null "$1"'
TIDY_CMD='"$CLANG_TIDY" --quiet "--config-file=$ROOT/.clang-tidy" "$1" -- $CFLAGS_COMMON'
export GCC CLANG_TIDY CFLAGS_COMMON ROOT

cppcheck_run() { # PATH...
    "$CPPCHECK" --std=c11 --enable=warning,style,performance,portability \
        --library=posix --quiet --error-exitcode=0 \
        "-j$JOBS" -I"$ROOT/include" -I"$ROOT/src" \
        --template='{file}:{line}:{column}: {severity}: {message} [{id}]' "$@" 2>&1 ||
        echo "tool exit status $? on $*"
}

# canary TOOL: the tool must report something in the canary file.
canary() {
    case $1 in
        gcc-analyzer) sh -c "$GCC_CMD" sh "$CANARY" 2>&1 ;;
        clang-tidy) sh -c "$TIDY_CMD" sh "$CANARY" 2>&1 ;;
        cppcheck) cppcheck_run "$CANARY" ;;
    esac > "$OUT/$1.canary"
    n=$(normalize "$1" < "$OUT/$1.canary" | grep -c 'analyze-canary\.c')
    if [ "$n" -gt 0 ]; then
        echo "   canary: $n findings in tools/analyze-canary.c, as there must be"
        return 0
    fi
    echo "   FAILED: $1 reported nothing in tools/analyze-canary.c:"
    sed 's/^/      /' "$OUT/$1.canary"
    failed="$failed $1-canary"
    return 1
}

# stage TOOL PROGRAM PACKAGE VERSION-COMMAND RUN-COMMAND: runs the tool's
# canary, then RUN-COMMAND (eval'd) into build-analyze/TOOL.raw; or says
# loudly that PROGRAM is missing.
stage() {
    echo "== $1"
    if ! command -v "$2" > /dev/null 2>&1; then
        skipped "$1" "$2 not found (Debian: apt-get install $3)"
        return
    fi
    if [ "$1" = gcc-analyzer ] &&
        ! echo 'int main(void) { return 0; }' | "$2" -fanalyzer -x c -c -o /dev/null - 2> /dev/null; then
        skipped "$1" "$2 does not support -fanalyzer (gcc 12 or later needed)"
        return
    fi
    eval "$4" 2>&1 | grep -i -m 1 'version\|gcc\|cppcheck' | sed 's/^ */   /'
    t0=$(date +%s)
    canary "$1" || return
    eval "$5" > "$OUT/$1.raw"
    ran="$ran $1"
    echo "   $(( $(date +%s) - t0 ))s"
}

stage gcc-analyzer "$GCC" gcc '"$GCC" --version' 'run_each gcc-analyzer "$GCC_CMD"'
stage clang-tidy "$CLANG_TIDY" clang-tidy '"$CLANG_TIDY" --version' 'run_each clang-tidy "$TIDY_CMD"'
stage cppcheck "$CPPCHECK" cppcheck '"$CPPCHECK" --version' 'cppcheck_run $SOURCES'

# ---- suppressions in the sources ---------------------------------------------
# Every suppression is in tools/analyze-suppressions.txt, with its reason:
# none in the sources, where a tool would hide a finding from this script.
echo "== suppression comments in the sources"
inline=$(grep -n -E 'NOLINT|cppcheck-suppress|pragma +GCC +diagnostic +ignored' $SOURCES src/*.h src/*/*.h 2> /dev/null)
if [ -n "$inline" ]; then
    echo "   FAILED: move these to tools/analyze-suppressions.txt, with the reason:"
    echo "$inline" | sed 's/^/      /'
    failed="$failed inline-suppressions"
else
    echo "   none"
fi

# ---- findings against the suppressions ---------------------------------------
# A suppression line: TOOL | FILE | ID | TEXT IN THE MESSAGE | REASON
echo "== findings"
: > "$OUT/all.findings"
for tool in $ran; do
    normalize "$tool" < "$OUT/$tool.raw" >> "$OUT/all.findings"
    # A line the normalizer did not take but that looks like a diagnostic
    # (a tool error, a crash) must not vanish.
    grep -i -E '(^|: )(fatal )?error|^tool exit status' "$OUT/$tool.raw" |
        grep -v -E '^[^ :][^:]*:[0-9]+:[0-9]*: [a-z]+: .* \[[^] ]*\]$' > "$OUT/$tool.errors"
    if [ -s "$OUT/$tool.errors" ]; then
        echo "   $tool failed to run on some file:"
        sed 's/^/      /' "$OUT/$tool.errors"
        failed="$failed $tool-error"
    fi
done

# The suppression file's entries as TOOL, FILE, ID, TEXT, REASON lines,
# TAB-separated.
sed -e 's/^[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' \
    -e "s/[[:space:]]*|[[:space:]]*/$TAB/g" "$SUPPRESSIONS" > "$OUT/suppressions.list" ||
    { echo "   FAILED: cannot read $SUPPRESSIONS"; failed="$failed suppressions-file"; }

bad_entries=$(awk -F'\t' 'NF != 5 || $5 == "" { print NR ": " $0 }' "$OUT/suppressions.list")
if [ -n "$bad_entries" ]; then
    echo "   FAILED: suppression entries without five fields or without a reason:"
    echo "$bad_entries" | sed 's/^/      /'
    failed="$failed suppressions-format"
fi

# Each finding marked S (suppressed) or F; the entries used, by number.
: > "$OUT/suppressions.used"
awk -F'\t' -v used="$OUT/suppressions.used" '
    NR == FNR { tool[NR] = $1; file[NR] = $2; id[NR] = $3; text[NR] = $4; n = NR; next }
    {
        hit = 0
        for (i = 1; i <= n; i++)
            if ($1 == tool[i] && $2 == file[i] && $3 == id[i] && index($4, text[i]) > 0) {
                hit = i
                break
            }
        if (hit) { print "S\t" $0; print hit > used } else print "F\t" $0
    }' "$OUT/suppressions.list" "$OUT/all.findings" > "$OUT/marked.findings"

nfind=$(grep -c "^F$TAB" "$OUT/marked.findings")
nsupp=$(grep -c "^S$TAB" "$OUT/marked.findings")
for tool in $ran; do
    f=$(grep -c "^F$TAB$tool$TAB" "$OUT/marked.findings")
    s=$(grep -c "^S$TAB$tool$TAB" "$OUT/marked.findings")
    echo "   $tool: $f findings, $s suppressed with a reason"
done
if [ "$nfind" -gt 0 ]; then
    echo "   Findings (fix them, or add an entry with the reason to tools/analyze-suppressions.txt):"
    awk -F'\t' '$1 == "F" { split($6, w, ":"); printf "      %s: %s:%s: %s: %s [%s]\n", $2, $3, w[1], w[2], $5, $4 }' \
        "$OUT/marked.findings"
    failed="$failed findings($nfind)"
fi

# Stale entries: for a tool that ran, an entry no finding matched.
stale=$(awk -F'\t' -v ran=" $ran " -v usedfile="$OUT/suppressions.used" '
    BEGIN { while ((getline u < usedfile) > 0) used[u] = 1 }
    index(ran, " " $1 " ") > 0 && !(FNR in used) { print "      " $1 " | " $2 " | " $3 " | " $4 }
    ' "$OUT/suppressions.list")
if [ -n "$stale" ]; then
    echo "   FAILED: suppressions that match no finding any more (remove them):"
    echo "$stale"
    failed="$failed stale-suppressions"
fi

secs=$(( $(date +%s) - START ))
if [ -n "$failed" ]; then
    echo "analyze: FAILED:$failed (${secs}s; raw output in $OUT/*.raw)"
    exit 1
fi
if [ -n "$missing" ]; then
    echo "analyze: INCOMPLETE: nothing failed, but NOT run:$missing (${secs}s)"
    exit 77
fi
echo "analyze: passed: gcc -fanalyzer, clang-tidy and cppcheck; $nsupp findings suppressed with reasons (${secs}s)"
