#!/bin/sh
# tools/check-exports.sh HEADER LIBRARY — the shared library exports exactly
# the functions HEADER declares with WENC_API: no more, no fewer.
#
#   sh tools/check-exports.sh include/wenc.h build/libwenc.so
#
# The declarations are read from HEADER with its comments and preprocessor
# lines removed: every "WENC_API ... NAME(" is one function. The exports are
# the defined dynamic symbols `$NM -D --defined-only LIBRARY` lists (NM
# defaults to nm; the build passes its own), less the few names some linkers
# define in every shared object (_init, _fini, _edata, _end, __bss_start).
# Exit status: 0 when the two sets are equal, 1 when they differ (each extra
# or missing symbol is named), 2 on a usage error, 77 when nm is missing.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 HEADER LIBRARY" >&2
    exit 2
fi
header=$1
library=$2
nm=${NM:-nm}

[ -f "$header" ] || { echo "check-exports: no header at $header" >&2; exit 2; }
[ -f "$library" ] || { echo "check-exports: no library at $library" >&2; exit 2; }
if ! command -v "$nm" >/dev/null 2>&1; then
    echo "check-exports: SKIPPED: '$nm' not found (set NM to an nm that reads $library)" >&2
    [ "${WENC_TEST_REQUIRE_ALL:-}" = 1 ] && exit 1
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wenc-exports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# The declared functions: the header as one line, without comments and
# preprocessor lines, then the identifier before the first "(" after each
# WENC_API.
awk '
    /^[ \t]*#/ { next }
    { text = text " " $0 }
    END {
        while ((start = index(text, "/*")) > 0) {
            rest = substr(text, start + 2)
            end = index(rest, "*/")
            if (end == 0) { print "unterminated comment" > "/dev/stderr"; exit 1 }
            text = substr(text, 1, start - 1) " " substr(rest, end + 2)
        }
        n = split(text, parts, "WENC_API")
        for (i = 2; i <= n; i++) {
            decl = parts[i]
            paren = index(decl, "(")
            if (paren == 0) { print "WENC_API without a declaration" > "/dev/stderr"; exit 1 }
            decl = substr(decl, 1, paren - 1)
            sub(/[ \t]+$/, "", decl)
            if (!match(decl, /[A-Za-z_][A-Za-z0-9_]*$/)) {
                print "cannot read the name in: WENC_API" parts[i] > "/dev/stderr"
                exit 1
            }
            print substr(decl, RSTART, RLENGTH)
        }
    }
' "$header" | LC_ALL=C sort >"$tmp/declared"

if [ ! -s "$tmp/declared" ]; then
    echo "check-exports: FAILED: no WENC_API declaration found in $header" >&2
    exit 1
fi
dups=$(uniq -d "$tmp/declared")
if [ -n "$dups" ]; then
    echo "check-exports: FAILED: declared more than once with WENC_API in $header:" $dups >&2
    exit 1
fi

# The exported symbols: the last field of each line (nm may put @VERSION after
# the name; none is expected, so it is kept and would show as a difference).
if ! "$nm" -D --defined-only "$library" >"$tmp/nm.out" 2>"$tmp/nm.err"; then
    echo "check-exports: FAILED: $nm -D --defined-only $library:" >&2
    cat "$tmp/nm.err" >&2
    exit 1
fi
awk 'NF >= 2 { print $NF }' "$tmp/nm.out" |
    grep -v -x -e _init -e _fini -e _edata -e _end -e __bss_start |
    LC_ALL=C sort -u >"$tmp/exported" || true

extra=$(LC_ALL=C comm -13 "$tmp/declared" "$tmp/exported")
missing=$(LC_ALL=C comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$extra" ] || [ -n "$missing" ]; then
    echo "check-exports: FAILED: $library does not export exactly the WENC_API functions of $header" >&2
    for s in $extra; do
        echo "  extra:   $s (exported, but not declared with WENC_API)" >&2
    done
    for s in $missing; do
        echo "  missing: $s (declared with WENC_API, but not exported)" >&2
    done
    exit 1
fi
echo "check-exports: $library exports exactly the $(wc -l <"$tmp/declared" | tr -d ' ') WENC_API functions of $header"
