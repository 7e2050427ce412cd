/*
 * test_mb_index.c — the legacy multi-byte codecs (Standard §10–§13) against
 * their indexes, exhaustively.
 *
 *  - decoding: every pointer's byte form decodes to its code point, to UTF-8
 *    and to UTF-16, in replacement and fatal mode (gb18030/GBK two-byte and
 *    every four-byte pointer, Big5, EUC-JP jis0208/jis0212/katakana,
 *    Shift_JIS incl. EUDC, ISO-2022-JP in each state, EUC-KR);
 *  - encoding: every scalar value, from UTF-8 and from UTF-16, in html mode
 *    (and fatal mode for the BMP and a sample of the other planes), gives
 *    the bytes of the pointer the encoding's index-pointer rule selects;
 *  - errors: every lead byte followed by every byte value (and the
 *    gb18030 second/third/fourth byte paths, EUC-JP 0x8F sequences and
 *    every ISO-2022-JP state) decodes to exactly the Standard's output,
 *    with the right bytes restored and the right fatal error offsets.
 *
 * Expected values come from the index files (read at test time through the
 * harness) and from the Standard's decoder/encoder algorithms written out
 * below (ref_*), never from the library. A few hand-written expectations
 * pin the reference algorithms themselves.
 */
#include "harness.h"
#include "simd_level.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_CP TH_NO_CP
#define CP_LIMIT 0x110000u

/* ------------------------------------------------------------------------ */
/* GB18030-2022 (see DESIGN.md)                                             */
/* ------------------------------------------------------------------------ */

/* The 18 entries of index gb18030 that GB18030-2022 moved from Private Use
 * to standard code points. The encoders still map the old Private Use code
 * points to the same two bytes. */
typedef struct pua_row {
    uint32_t pua;     /* old Private Use code point (encoder only) */
    uint8_t b1, b2;   /* its two bytes */
    uint32_t pointer; /* pointer in index gb18030 */
    uint32_t now;     /* the code point the index has there now */
} pua_row;

static const pua_row pua18[18] = {
    {0xE78D, 0xA6, 0xD9, 7182, 0xFE10},  {0xE78E, 0xA6, 0xDA, 7183, 0xFE12},
    {0xE78F, 0xA6, 0xDB, 7184, 0xFE11},  {0xE790, 0xA6, 0xDC, 7185, 0xFE13},
    {0xE791, 0xA6, 0xDD, 7186, 0xFE14},  {0xE792, 0xA6, 0xDE, 7187, 0xFE15},
    {0xE793, 0xA6, 0xDF, 7188, 0xFE16},  {0xE794, 0xA6, 0xEC, 7201, 0xFE17},
    {0xE795, 0xA6, 0xED, 7202, 0xFE18},  {0xE796, 0xA6, 0xF3, 7208, 0xFE19},
    {0xE81E, 0xFE, 0x59, 23775, 0x9FB4}, {0xE826, 0xFE, 0x61, 23783, 0x9FB5},
    {0xE82B, 0xFE, 0x66, 23788, 0x9FB6}, {0xE82C, 0xFE, 0x67, 23789, 0x9FB7},
    {0xE832, 0xFE, 0x6D, 23795, 0x9FB8}, {0xE843, 0xFE, 0x7E, 23812, 0x9FB9},
    {0xE854, 0xFE, 0x90, 23829, 0x9FBA}, {0xE864, 0xFE, 0xA0, 23845, 0x9FBB},
};

/* ------------------------------------------------------------------------ */
/* The Standard's data                                                        */
/* ------------------------------------------------------------------------ */

typedef struct range {
    uint32_t pointer, cp;
} range;

typedef struct data {
    th_index gb, big5, j208, j212, kr, kata;
    bool has_gb, has_big5, has_j208, has_j212, has_kr, has_kata, has_ranges;
    range *ranges;
    size_t nranges;
    /* code point -> pointer per the encoders' index-pointer rules; -1 none */
    int32_t *rev_gb, *rev_big5, *rev_j208, *rev_sjis, *rev_kr;
} data;

/* index-gb18030-ranges.txt, §5 format (its pointers exceed what
 * th_index_load accepts, so it is read here). */
static bool ranges_load(data *d)
{
    size_t len, cap = 0;
    uint8_t *text = th_read_data_file("index-gb18030-ranges.txt", &len);
    if (!text)
        return false;
    const char *p = (const char *)text, *end = p + len;
    bool ok = true;
    while (p < end && ok) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (le > p && *p != '#') {
            char *q;
            unsigned long ptr = strtoul(p, &q, 10);
            if (q == p || q >= le || *q != '\t' || q[1] != '0' ||
                (q[2] != 'x' && q[2] != 'X')) {
                ok = false;
                break;
            }
            const char *h = q + 3;
            unsigned long cp = strtoul(h, &q, 16);
            if (q == h || cp >= CP_LIMIT) {
                ok = false;
                break;
            }
            if (d->nranges == cap) {
                cap = cap ? cap * 2 : 256;
                d->ranges = realloc(d->ranges, cap * sizeof *d->ranges);
                if (!d->ranges)
                    abort();
            }
            if (d->nranges > 0 &&
                (d->ranges[d->nranges - 1].pointer >= ptr ||
                 d->ranges[d->nranges - 1].cp >= cp)) {
                ok = false;
                break;
            }
            d->ranges[d->nranges].pointer = (uint32_t)ptr;
            d->ranges[d->nranges].cp = (uint32_t)cp;
            d->nranges++;
        }
        p = le + 1;
    }
    free(text);
    if (!ok || d->nranges == 0) {
        free(d->ranges);
        d->ranges = NULL;
        d->nranges = 0;
        return false;
    }
    return true;
}

/* The first pointer of each code point, skipping pointers below `from` and
 * in [ex_lo, ex_hi]. */
static int32_t *rev_build(const th_index *ix, size_t from, size_t ex_lo,
                          size_t ex_hi)
{
    int32_t *r = malloc(CP_LIMIT * sizeof *r);
    if (!r)
        abort();
    for (size_t i = 0; i < CP_LIMIT; i++)
        r[i] = -1;
    for (size_t p = from; p < ix->size; p++) {
        if (p >= ex_lo && p <= ex_hi)
            continue;
        uint32_t cp = ix->cp[p];
        if (cp != NO_CP && r[cp] < 0)
            r[cp] = (int32_t)p;
    }
    return r;
}

static void data_load(data *d)
{
    memset(d, 0, sizeof *d);
    d->has_gb = th_index_load(&d->gb, "index-gb18030.txt");
    d->has_ranges = ranges_load(d);
    d->has_big5 = th_index_load(&d->big5, "index-big5.txt");
    d->has_j208 = th_index_load(&d->j208, "index-jis0208.txt");
    d->has_j212 = th_index_load(&d->j212, "index-jis0212.txt");
    d->has_kr = th_index_load(&d->kr, "index-euc-kr.txt");
    d->has_kata = th_index_load(&d->kata, "index-iso-2022-jp-katakana.txt");
    if (d->has_gb)
        d->rev_gb = rev_build(&d->gb, 0, 1, 0);
    if (d->has_big5) {
        /* §5 index Big5 pointer: pointers below (0xA1 - 0x81) * 157 are
         * ignored; six code points take their last pointer. */
        static const uint32_t last[6] = {0x2550, 0x255E, 0x2561,
                                         0x256A, 0x5341, 0x5345};
        const size_t from = (0xA1 - 0x81) * 157;
        d->rev_big5 = rev_build(&d->big5, from, 1, 0);
        for (size_t i = 0; i < 6; i++)
            for (size_t p = from; p < d->big5.size; p++)
                if (d->big5.cp[p] == last[i])
                    d->rev_big5[last[i]] = (int32_t)p;
    }
    if (d->has_j208) {
        d->rev_j208 = rev_build(&d->j208, 0, 1, 0);
        /* §5 index Shift_JIS pointer: pointers 8272..8835 excluded */
        d->rev_sjis = rev_build(&d->j208, 0, 8272, 8835);
    }
    if (d->has_kr)
        d->rev_kr = rev_build(&d->kr, 0, 1, 0);
}

static void data_free(data *d)
{
    th_index_free(&d->gb);
    th_index_free(&d->big5);
    th_index_free(&d->j208);
    th_index_free(&d->j212);
    th_index_free(&d->kr);
    th_index_free(&d->kata);
    free(d->ranges);
    free(d->rev_gb);
    free(d->rev_big5);
    free(d->rev_j208);
    free(d->rev_sjis);
    free(d->rev_kr);
}

/* Whether everything decoding/encoding `id` needs is present. */
static bool have(const data *d, wenc_id id)
{
    switch (id) {
    case WENC_GBK:
    case WENC_GB18030: return d->has_gb && d->has_ranges;
    case WENC_BIG5: return d->has_big5;
    case WENC_EUC_JP: return d->has_j208 && d->has_j212;
    case WENC_ISO_2022_JP: return d->has_j208 && d->has_kata;
    case WENC_SHIFT_JIS: return d->has_j208;
    case WENC_EUC_KR: return d->has_kr;
    default: return false;
    }
}

static uint32_t ix_cp(const th_index *ix, long pointer)
{
    return pointer < 0 ? NO_CP : th_index_cp(ix, (size_t)pointer);
}

/* §5 index gb18030 ranges code point (NO_CP for null) */
static uint32_t ranges_cp(const data *d, uint32_t pointer)
{
    if ((pointer > 39419 && pointer < 189000) || pointer > 1237575)
        return NO_CP;
    if (pointer == 7457)
        return 0xE7C7;
    size_t lo = 0, hi = d->nranges;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (d->ranges[mid].pointer <= pointer)
            lo = mid;
        else
            hi = mid;
    }
    return d->ranges[lo].cp + pointer - d->ranges[lo].pointer;
}

/* §5 index gb18030 ranges pointer */
static uint32_t ranges_pointer(const data *d, uint32_t cp)
{
    if (cp == 0xE7C7)
        return 7457;
    size_t lo = 0, hi = d->nranges;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (d->ranges[mid].cp <= cp)
            lo = mid;
        else
            hi = mid;
    }
    return d->ranges[lo].pointer + cp - d->ranges[lo].cp;
}

/* ------------------------------------------------------------------------ */
/* Expectations (th_expect filled directly)                                   */
/* ------------------------------------------------------------------------ */

static void xe_reset(th_expect *x)
{
    x->n = 0;
    x->nerr = 0;
}

static void xe_item(th_expect *x, uint32_t v)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 64;
        x->items = realloc(x->items, x->cap * sizeof *x->items);
        if (!x->items)
            abort();
    }
    x->items[x->n++] = v;
}

static void xe_err(th_expect *x, uint32_t cp, uint64_t offset, size_t length)
{
    if (x->nerr == x->errcap) {
        x->errcap = x->errcap ? x->errcap * 2 : 16;
        x->errs = realloc(x->errs, x->errcap * sizeof *x->errs);
        if (!x->errs)
            abort();
    }
    x->errs[x->nerr].offset = offset;
    x->errs[x->nerr].length = length;
    x->errs[x->nerr].code_point = cp;
    xe_item(x, TH_ERR_FLAG | (uint32_t)x->nerr);
    x->nerr++;
}

/* ------------------------------------------------------------------------ */
/* Reference decoders: the Standard's handlers (§10.2.1, §11.1.1, §12.1.1,  */
/* §12.2.1, §12.3.1, §13.1.1) over an I/O queue with "restore".             */
/* ------------------------------------------------------------------------ */

enum rkind {
    RK_CONTINUE, /* continue; bytes read so far stay pending */
    RK_DONE,     /* continue, and the pending bytes were consumed silently */
    RK_CP,       /* one or two code points */
    RK_ERROR,    /* error; the last n pending bytes are restored */
    RK_ERROR_KEEP, /* error; the last n pending bytes start the next sequence */
    RK_FINISHED
};

typedef struct rres {
    int kind, n, ncp;
    uint32_t cp[2];
} rres;

static rres rk(int kind, int n)
{
    rres r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.n = n;
    return r;
}

static rres rk_cp(uint32_t cp)
{
    rres r = rk(RK_CP, 0);
    r.ncp = 1;
    r.cp[0] = cp;
    return r;
}

static rres rk_cp2(uint32_t a, uint32_t b)
{
    rres r = rk(RK_CP, 0);
    r.ncp = 2;
    r.cp[0] = a;
    r.cp[1] = b;
    return r;
}

#define EOQ (-1)

enum { J_ASCII, J_ROMAN, J_KATAKANA, J_LEAD, J_TRAIL, J_ESC_START, J_ESC };

typedef struct rdec {
    const data *d;
    wenc_id id;
    int first, second, third; /* gb18030 */
    int lead;                 /* Big5, EUC-JP, Shift_JIS, EUC-KR, ISO-2022-JP */
    bool jis0212;             /* EUC-JP */
    int state, out_state;     /* ISO-2022-JP */
    bool output;
} rdec;

static bool in_range(int b, int lo, int hi)
{
    return b >= lo && b <= hi;
}

/* §10.2.1 gb18030 decoder */
static rres step_gb18030(rdec *r, int b)
{
    if (b == EOQ) {
        if (!r->first && !r->second && !r->third)
            return rk(RK_FINISHED, 0);
        r->first = r->second = r->third = 0;
        return rk(RK_ERROR, 0);
    }
    if (r->third) {
        if (!in_range(b, 0x30, 0x39)) {
            /* restore « second, third, byte » */
            r->first = r->second = r->third = 0;
            return rk(RK_ERROR, 3);
        }
        uint32_t pointer = (uint32_t)((r->first - 0x81) * (10 * 126 * 10) +
                                      (r->second - 0x30) * (10 * 126) +
                                      (r->third - 0x81) * 10 + b - 0x30);
        uint32_t cp = ranges_cp(r->d, pointer);
        r->first = r->second = r->third = 0;
        if (cp == NO_CP)
            return rk(RK_ERROR, 0);
        return rk_cp(cp);
    }
    if (r->second) {
        if (in_range(b, 0x81, 0xFE)) {
            r->third = b;
            return rk(RK_CONTINUE, 0);
        }
        /* restore « second, byte » */
        r->first = r->second = 0;
        return rk(RK_ERROR, 2);
    }
    if (r->first) {
        if (in_range(b, 0x30, 0x39)) {
            r->second = b;
            return rk(RK_CONTINUE, 0);
        }
        int lead = r->first;
        long pointer = -1;
        r->first = 0;
        int offset = b < 0x7F ? 0x40 : 0x41;
        if (in_range(b, 0x40, 0x7E) || in_range(b, 0x80, 0xFE))
            pointer = (long)(lead - 0x81) * 190 + (b - offset);
        uint32_t cp = ix_cp(&r->d->gb, pointer);
        if (cp != NO_CP)
            return rk_cp(cp);
        return rk(RK_ERROR, b < 0x80 ? 1 : 0);
    }
    if (b < 0x80)
        return rk_cp((uint32_t)b);
    if (b == 0x80)
        return rk_cp(0x20AC);
    if (in_range(b, 0x81, 0xFE)) {
        r->first = b;
        return rk(RK_CONTINUE, 0);
    }
    return rk(RK_ERROR, 0);
}

/* §11.1.1 Big5 decoder */
static rres step_big5(rdec *r, int b)
{
    if (b == EOQ) {
        if (r->lead) {
            r->lead = 0;
            return rk(RK_ERROR, 0);
        }
        return rk(RK_FINISHED, 0);
    }
    if (r->lead) {
        int lead = r->lead;
        long pointer = -1;
        r->lead = 0;
        int offset = b < 0x7F ? 0x40 : 0x62;
        if (in_range(b, 0x40, 0x7E) || in_range(b, 0xA1, 0xFE))
            pointer = (long)(lead - 0x81) * 157 + (b - offset);
        switch (pointer) {
        case 1133: return rk_cp2(0x00CA, 0x0304);
        case 1135: return rk_cp2(0x00CA, 0x030C);
        case 1164: return rk_cp2(0x00EA, 0x0304);
        case 1166: return rk_cp2(0x00EA, 0x030C);
        default: break;
        }
        uint32_t cp = ix_cp(&r->d->big5, pointer);
        if (cp != NO_CP)
            return rk_cp(cp);
        return rk(RK_ERROR, b < 0x80 ? 1 : 0);
    }
    if (b < 0x80)
        return rk_cp((uint32_t)b);
    if (in_range(b, 0x81, 0xFE)) {
        r->lead = b;
        return rk(RK_CONTINUE, 0);
    }
    return rk(RK_ERROR, 0);
}

/* §12.1.1 EUC-JP decoder */
static rres step_euc_jp(rdec *r, int b)
{
    if (b == EOQ) {
        if (r->lead) {
            r->lead = 0;
            return rk(RK_ERROR, 0);
        }
        return rk(RK_FINISHED, 0);
    }
    if (r->lead == 0x8E && in_range(b, 0xA1, 0xDF)) {
        r->lead = 0;
        return rk_cp(0xFF61u - 0xA1u + (uint32_t)b);
    }
    if (r->lead == 0x8F && in_range(b, 0xA1, 0xFE)) {
        r->jis0212 = true;
        r->lead = b;
        return rk(RK_CONTINUE, 0);
    }
    if (r->lead) {
        int lead = r->lead;
        r->lead = 0;
        uint32_t cp = NO_CP;
        if (in_range(lead, 0xA1, 0xFE) && in_range(b, 0xA1, 0xFE)) {
            long pointer = (long)(lead - 0xA1) * 94 + b - 0xA1;
            cp = ix_cp(r->jis0212 ? &r->d->j212 : &r->d->j208, pointer);
        }
        r->jis0212 = false;
        if (cp != NO_CP)
            return rk_cp(cp);
        return rk(RK_ERROR, b < 0x80 ? 1 : 0);
    }
    if (b < 0x80)
        return rk_cp((uint32_t)b);
    if (b == 0x8E || b == 0x8F || in_range(b, 0xA1, 0xFE)) {
        r->lead = b;
        return rk(RK_CONTINUE, 0);
    }
    return rk(RK_ERROR, 0);
}

/* §12.3.1 Shift_JIS decoder */
static rres step_shift_jis(rdec *r, int b)
{
    if (b == EOQ) {
        if (r->lead) {
            r->lead = 0;
            return rk(RK_ERROR, 0);
        }
        return rk(RK_FINISHED, 0);
    }
    if (r->lead) {
        int lead = r->lead;
        long pointer = -1;
        r->lead = 0;
        int offset = b < 0x7F ? 0x40 : 0x41;
        int lead_offset = lead < 0xA0 ? 0x81 : 0xC1;
        if (in_range(b, 0x40, 0x7E) || in_range(b, 0x80, 0xFC))
            pointer = (long)(lead - lead_offset) * 188 + b - offset;
        if (pointer >= 8836 && pointer <= 10715)
            return rk_cp((uint32_t)(0xE000 - 8836 + pointer));
        uint32_t cp = ix_cp(&r->d->j208, pointer);
        if (cp != NO_CP)
            return rk_cp(cp);
        return rk(RK_ERROR, b < 0x80 ? 1 : 0);
    }
    if (b <= 0x80)
        return rk_cp((uint32_t)b);
    if (in_range(b, 0xA1, 0xDF))
        return rk_cp(0xFF61u - 0xA1u + (uint32_t)b);
    if (in_range(b, 0x81, 0x9F) || in_range(b, 0xE0, 0xFC)) {
        r->lead = b;
        return rk(RK_CONTINUE, 0);
    }
    return rk(RK_ERROR, 0);
}

/* §13.1.1 EUC-KR decoder */
static rres step_euc_kr(rdec *r, int b)
{
    if (b == EOQ) {
        if (r->lead) {
            r->lead = 0;
            return rk(RK_ERROR, 0);
        }
        return rk(RK_FINISHED, 0);
    }
    if (r->lead) {
        int lead = r->lead;
        long pointer = -1;
        r->lead = 0;
        if (in_range(b, 0x41, 0xFE))
            pointer = (long)(lead - 0x81) * 190 + (b - 0x41);
        uint32_t cp = ix_cp(&r->d->kr, pointer);
        if (cp != NO_CP)
            return rk_cp(cp);
        return rk(RK_ERROR, b < 0x80 ? 1 : 0);
    }
    if (b < 0x80)
        return rk_cp((uint32_t)b);
    if (in_range(b, 0x81, 0xFE)) {
        r->lead = b;
        return rk(RK_CONTINUE, 0);
    }
    return rk(RK_ERROR, 0);
}

/* §12.2.1 ISO-2022-JP decoder */
static rres step_iso_2022_jp(rdec *r, int b)
{
    switch (r->state) {
    case J_ASCII:
    case J_ROMAN:
    case J_KATAKANA:
    case J_LEAD:
        if (b == 0x1B) {
            r->state = J_ESC_START;
            return rk(RK_CONTINUE, 0);
        }
        if (b == EOQ)
            return rk(RK_FINISHED, 0);
        if (r->state == J_ASCII) {
            if (b <= 0x7F && b != 0x0E && b != 0x0F) {
                r->output = false;
                return rk_cp((uint32_t)b);
            }
        } else if (r->state == J_ROMAN) {
            if (b == 0x5C) {
                r->output = false;
                return rk_cp(0xA5);
            }
            if (b == 0x7E) {
                r->output = false;
                return rk_cp(0x203E);
            }
            if (b <= 0x7F && b != 0x0E && b != 0x0F) {
                r->output = false;
                return rk_cp((uint32_t)b);
            }
        } else if (r->state == J_KATAKANA) {
            if (in_range(b, 0x21, 0x5F)) {
                r->output = false;
                return rk_cp(0xFF61u - 0x21u + (uint32_t)b);
            }
        } else if (in_range(b, 0x21, 0x7E)) {
            r->output = false;
            r->lead = b;
            r->state = J_TRAIL;
            return rk(RK_CONTINUE, 0);
        }
        r->output = false;
        return rk(RK_ERROR, 0);
    case J_TRAIL:
        if (b == 0x1B) {
            /* The lead byte is the error; ESC begins an escape sequence. */
            r->state = J_ESC_START;
            return rk(RK_ERROR_KEEP, 1);
        }
        r->state = J_LEAD;
        if (in_range(b, 0x21, 0x7E)) {
            long pointer = (long)(r->lead - 0x21) * 94 + b - 0x21;
            uint32_t cp = ix_cp(&r->d->j208, pointer);
            if (cp == NO_CP)
                return rk(RK_ERROR, 0);
            return rk_cp(cp);
        }
        return rk(RK_ERROR, 0);
    case J_ESC_START:
        if (b == 0x24 || b == 0x28) {
            r->lead = b;
            r->state = J_ESC;
            return rk(RK_CONTINUE, 0);
        }
        r->output = false;
        r->state = r->out_state;
        return rk(RK_ERROR, b == EOQ ? 0 : 1);
    default: { /* J_ESC */
        int lead = r->lead, state = -1;
        r->lead = 0;
        if (lead == 0x28 && b == 0x42)
            state = J_ASCII;
        else if (lead == 0x28 && b == 0x4A)
            state = J_ROMAN;
        else if (lead == 0x28 && b == 0x49)
            state = J_KATAKANA;
        else if (lead == 0x24 && (b == 0x40 || b == 0x42))
            state = J_LEAD;
        if (state >= 0) {
            r->state = r->out_state = state;
            bool output = r->output;
            r->output = true;
            return output ? rk(RK_ERROR, 0) : rk(RK_DONE, 0);
        }
        r->output = false;
        r->state = r->out_state;
        /* restore lead (and byte) */
        return rk(RK_ERROR, b == EOQ ? 1 : 2);
    }
    }
}

static rres ref_step(rdec *r, int b)
{
    switch (r->id) {
    case WENC_GBK:
    case WENC_GB18030: return step_gb18030(r, b);
    case WENC_BIG5: return step_big5(r, b);
    case WENC_EUC_JP: return step_euc_jp(r, b);
    case WENC_ISO_2022_JP: return step_iso_2022_jp(r, b);
    case WENC_SHIFT_JIS: return step_shift_jis(r, b);
    default: return step_euc_kr(r, b);
    }
}

typedef struct qbyte {
    uint8_t b;
    uint64_t off;
} qbyte;

/* Runs the reference decoder over src into x: code points, and errors with
 * the stream offset and length of their malformed bytes (the bytes read
 * into the failed sequence, less those restored). */
static void ref_decode(const data *d, wenc_id id, const uint8_t *src, size_t n,
                       th_expect *x)
{
    rdec r;
    memset(&r, 0, sizeof r);
    r.d = d;
    r.id = id;
    qbyte front[16]; /* restored bytes, next on top */
    qbyte held[16];
    size_t nfront = 0, nheld = 0, pos = 0;
    unsigned long steps = 0;
    xe_reset(x);
    for (;;) {
        int b;
        if (nfront) {
            qbyte q = front[--nfront];
            held[nheld++] = q;
            b = q.b;
        } else if (pos < n) {
            held[nheld].b = src[pos];
            held[nheld].off = pos;
            nheld++;
            b = src[pos++];
        } else {
            b = EOQ;
        }
        if (++steps > 16 * (unsigned long)n + 64 || nheld > 8) {
            fprintf(stderr, "test bug: reference decoder runs away\n");
            abort();
        }
        rres res = ref_step(&r, b);
        switch (res.kind) {
        case RK_FINISHED:
            return;
        case RK_CONTINUE:
            break;
        case RK_DONE:
            nheld = 0;
            break;
        case RK_CP:
            for (int k = 0; k < res.ncp; k++)
                xe_item(x, res.cp[k]);
            nheld = 0;
            break;
        case RK_ERROR:
            for (int k = 0; k < res.n; k++)
                front[nfront++] = held[nheld - 1 - (size_t)k];
            nheld -= (size_t)res.n;
            xe_err(x, 0, held[0].off, nheld);
            nheld = 0;
            break;
        default: /* RK_ERROR_KEEP */
            xe_err(x, 0, held[0].off, nheld - (size_t)res.n);
            memmove(held, held + nheld - (size_t)res.n,
                    (size_t)res.n * sizeof *held);
            nheld = (size_t)res.n;
            break;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Reference encoders (§10.2.2, §11.1.2, §12.1.2, §12.2.2, §12.3.2, §13.1.2) */
/* ------------------------------------------------------------------------ */

/* A stateless encoder: the bytes for cp (1-4), or 0 for "error". */
static size_t ref_encode_cp(const data *d, wenc_id id, uint32_t cp,
                            uint8_t out[4])
{
    int32_t p;
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    switch (id) {
    case WENC_GBK:
    case WENC_GB18030: {
        const bool gbk = id == WENC_GBK;
        if (cp == 0xE5E5)
            return 0;
        if (gbk && cp == 0x20AC) {
            out[0] = 0x80;
            return 1;
        }
        for (size_t i = 0; i < 18; i++) {
            if (pua18[i].pua == cp) {
                out[0] = pua18[i].b1;
                out[1] = pua18[i].b2;
                return 2;
            }
        }
        p = d->rev_gb[cp];
        if (p >= 0) {
            uint32_t trail = (uint32_t)p % 190;
            out[0] = (uint8_t)((uint32_t)p / 190 + 0x81);
            out[1] = (uint8_t)(trail + (trail < 0x3F ? 0x40 : 0x41));
            return 2;
        }
        if (gbk)
            return 0;
        uint32_t q = ranges_pointer(d, cp);
        out[0] = (uint8_t)(q / (10 * 126 * 10) + 0x81);
        q %= 10 * 126 * 10;
        out[1] = (uint8_t)(q / (10 * 126) + 0x30);
        q %= 10 * 126;
        out[2] = (uint8_t)(q / 10 + 0x81);
        out[3] = (uint8_t)(q % 10 + 0x30);
        return 4;
    }
    case WENC_BIG5: {
        p = d->rev_big5[cp];
        if (p < 0)
            return 0;
        uint32_t trail = (uint32_t)p % 157;
        out[0] = (uint8_t)((uint32_t)p / 157 + 0x81);
        out[1] = (uint8_t)(trail + (trail < 0x3F ? 0x40 : 0x62));
        return 2;
    }
    case WENC_EUC_JP:
        if (cp == 0xA5 || cp == 0x203E) {
            out[0] = cp == 0xA5 ? 0x5C : 0x7E;
            return 1;
        }
        if (cp >= 0xFF61 && cp <= 0xFF9F) {
            out[0] = 0x8E;
            out[1] = (uint8_t)(cp - 0xFF61 + 0xA1);
            return 2;
        }
        if (cp == 0x2212)
            cp = 0xFF0D;
        p = d->rev_j208[cp];
        if (p < 0)
            return 0;
        out[0] = (uint8_t)((uint32_t)p / 94 + 0xA1);
        out[1] = (uint8_t)((uint32_t)p % 94 + 0xA1);
        return 2;
    case WENC_SHIFT_JIS: {
        if (cp == 0x80) {
            out[0] = 0x80;
            return 1;
        }
        if (cp == 0xA5 || cp == 0x203E) {
            out[0] = cp == 0xA5 ? 0x5C : 0x7E;
            return 1;
        }
        if (cp >= 0xFF61 && cp <= 0xFF9F) {
            out[0] = (uint8_t)(cp - 0xFF61 + 0xA1);
            return 1;
        }
        if (cp == 0x2212)
            cp = 0xFF0D;
        p = d->rev_sjis[cp];
        if (p < 0)
            return 0;
        uint32_t lead = (uint32_t)p / 188, trail = (uint32_t)p % 188;
        out[0] = (uint8_t)(lead + (lead < 0x1F ? 0x81 : 0xC1));
        out[1] = (uint8_t)(trail + (trail < 0x3F ? 0x40 : 0x41));
        return 2;
    }
    default: /* EUC-KR */
        p = d->rev_kr[cp];
        if (p < 0)
            return 0;
        out[0] = (uint8_t)((uint32_t)p / 190 + 0x81);
        out[1] = (uint8_t)((uint32_t)p % 190 + 0x41);
        return 2;
    }
}

enum { E_ASCII, E_ROMAN, E_JIS0208 };

static void xe_bytes(th_expect *x, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        xe_item(x, b[i]);
}

/* §12.2.2 ISO-2022-JP encoder, one code point (with its restores). */
static void iso_encode_cp(const data *d, int *state, uint32_t cp,
                          uint64_t off, size_t units, th_expect *x)
{
    static const uint8_t to_ascii[3] = {0x1B, 0x28, 0x42};
    static const uint8_t to_roman[3] = {0x1B, 0x28, 0x4A};
    static const uint8_t to_jis[3] = {0x1B, 0x24, 0x42};
    for (int guard = 0; guard < 4; guard++) {
        if (*state != E_JIS0208 && (cp == 0x0E || cp == 0x0F || cp == 0x1B)) {
            xe_err(x, 0xFFFD, off, units);
            return;
        }
        if (*state == E_ASCII && cp < 0x80) {
            xe_item(x, cp);
            return;
        }
        if (*state == E_ROMAN &&
            ((cp < 0x80 && cp != 0x5C && cp != 0x7E) || cp == 0xA5 ||
             cp == 0x203E)) {
            xe_item(x, cp == 0xA5 ? 0x5C : cp == 0x203E ? 0x7E : cp);
            return;
        }
        if (cp < 0x80) { /* state is not ASCII */
            xe_bytes(x, to_ascii, 3);
            *state = E_ASCII;
            continue;
        }
        if (cp == 0xA5 || cp == 0x203E) { /* state is not Roman */
            xe_bytes(x, to_roman, 3);
            *state = E_ROMAN;
            continue;
        }
        uint32_t c = cp == 0x2212 ? 0xFF0D : cp;
        if (c >= 0xFF61 && c <= 0xFF9F)
            c = th_index_cp(&d->kata, c - 0xFF61);
        int32_t p = c < CP_LIMIT ? d->rev_j208[c] : -1;
        if (p < 0) {
            if (*state == E_JIS0208) {
                xe_bytes(x, to_ascii, 3);
                *state = E_ASCII;
                continue;
            }
            xe_err(x, c, off, units);
            return;
        }
        if (*state != E_JIS0208) {
            xe_bytes(x, to_jis, 3);
            *state = E_JIS0208;
            continue;
        }
        xe_item(x, (uint32_t)p / 94 + 0x21);
        xe_item(x, (uint32_t)p % 94 + 0x21);
        return;
    }
    fprintf(stderr, "test bug: ISO-2022-JP reference encoder loops\n");
    abort();
}

/* The expected encoding of cps[0..n) (offsets in UTF-16 code units when
 * utf16, else UTF-8 bytes), with the end of the stream. */
static void ref_encode(const data *d, wenc_id id, const uint32_t *cps,
                       size_t n, bool utf16, th_expect *x)
{
    uint64_t off = 0;
    int state = E_ASCII;
    xe_reset(x);
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = cps[i];
        size_t units = utf16 ? (cp >= 0x10000 ? 2 : 1) : th_utf8_len(cp);
        if (id == WENC_ISO_2022_JP) {
            iso_encode_cp(d, &state, cp, off, units, x);
        } else {
            uint8_t b[4];
            size_t k = ref_encode_cp(d, id, cp, b);
            if (k)
                xe_bytes(x, b, k);
            else
                xe_err(x, cp, off, units);
        }
        off += units;
    }
    if (state != E_ASCII) {
        static const uint8_t to_ascii[3] = {0x1B, 0x28, 0x42};
        xe_bytes(x, to_ascii, 3);
    }
}

/* ------------------------------------------------------------------------ */
/* Light runners: one call (continued after each fatal error), checked      */
/* against an expectation; one check per run.                               */
/* ------------------------------------------------------------------------ */

typedef struct lctx {
    uint8_t *o8;
    size_t c8;
    uint16_t *o16;
    size_t c16;
    th_bytes e8;
    th_units e16;
    size_t *errpos;
    size_t errpos_cap;
    unsigned long runs;
} lctx;

static void lctx_free(lctx *c)
{
    free(c->o8);
    free(c->o16);
    free(c->errpos);
    th_bytes_free(&c->e8);
    th_units_free(&c->e16);
}

static void *grow_to(void *p, size_t *cap, size_t need, size_t unit)
{
    if (need <= *cap && p)
        return p;
    size_t c = need < 64 ? 64 : need;
    void *q = realloc(p, c * unit);
    if (!q)
        abort();
    *cap = c;
    return q;
}

/* Builds the expected output of x in c->e8 / c->e16 and, in fatal mode,
 * the output position of each error in c->errpos. enc: encoder output. */
static void expected_output(lctx *c, const th_expect *x, bool fatal,
                            bool enc, bool utf16)
{
    c->e8.len = 0;
    c->e16.len = 0;
    c->errpos = grow_to(c->errpos, &c->errpos_cap, x->nerr + 1,
                        sizeof *c->errpos);
    for (size_t i = 0; i < x->n; i++) {
        uint32_t v = x->items[i];
        if (v & TH_ERR_FLAG) {
            const th_xerr *xe = &x->errs[v & ~TH_ERR_FLAG];
            if (fatal) {
                c->errpos[v & ~TH_ERR_FLAG] = utf16 ? c->e16.len : c->e8.len;
            } else if (enc) {
                /* "&#N;", N in decimal */
                uint8_t ncr[16], digits[10];
                size_t k = 0, nd = 0;
                uint32_t v10 = xe->code_point;
                do {
                    digits[nd++] = (uint8_t)('0' + v10 % 10);
                    v10 /= 10;
                } while (v10);
                ncr[k++] = '&';
                ncr[k++] = '#';
                while (nd)
                    ncr[k++] = digits[--nd];
                ncr[k++] = ';';
                th_bytes_put(&c->e8, ncr, k);
            } else if (utf16) {
                th_units_unit(&c->e16, 0xFFFD);
            } else {
                th_bytes_cp(&c->e8, 0xFFFD);
            }
        } else if (enc) {
            th_bytes_byte(&c->e8, (uint8_t)v);
        } else if (utf16) {
            th_units_cp(&c->e16, v);
        } else {
            th_bytes_cp(&c->e8, v);
        }
    }
}

/* Describes the first difference of two sequences into why. */
static void describe_diff(char *why, size_t size, const char *what,
                          const void *e, size_t elen, const void *a,
                          size_t alen, bool units)
{
    size_t i = 0, common = elen < alen ? elen : alen;
    if (units) {
        const uint16_t *x = e, *y = a;
        while (i < common && x[i] == y[i])
            i++;
    } else {
        const uint8_t *x = e, *y = a;
        while (i < common && x[i] == y[i])
            i++;
    }
    if (i == common && elen == alen)
        return;
    size_t from = i > 6 ? i - 6 : 0;
    char eh[160], ah[160];
    if (units) {
        th_hex16(eh, sizeof eh, (const uint16_t *)e + from, elen - from, 16);
        th_hex16(ah, sizeof ah, (const uint16_t *)a + from, alen - from, 16);
    } else {
        th_hex(eh, sizeof eh, (const uint8_t *)e + from, elen - from, 24);
        th_hex(ah, sizeof ah, (const uint8_t *)a + from, alen - from, 24);
    }
    snprintf(why, size,
             "%s differs at %zu (lengths %zu/%zu); from %zu expected [%s] "
             "actual [%s]",
             what, i, elen, alen, from, eh, ah);
}

static bool light_decode(th *t, lctx *c, wenc_id id, const uint8_t *src,
                         size_t n, const th_expect *x, bool fatal, bool utf16)
{
    char why[512] = "";
    wenc_decoder dec;
    c->runs++;
    if (!wenc_decoder_init(&dec, id, WENC_BOM_KEEP,
                           fatal ? WENC_ERRORS_FATAL
                                 : WENC_ERRORS_REPLACEMENT)) {
        snprintf(why, sizeof why, "wenc_decoder_init failed");
        goto report;
    }
    size_t cap = utf16 ? wenc_decoder_max_utf16_len(&dec, n)
                       : wenc_decoder_max_utf8_len(&dec, n);
    if (utf16)
        c->o16 = grow_to(c->o16, &c->c16, cap, sizeof *c->o16);
    else
        c->o8 = grow_to(c->o8, &c->c8, cap, 1);
    expected_output(c, x, fatal, false, utf16);
    size_t pos = 0, out = 0, nerr = 0;
    for (;;) {
        size_t in_len = n - pos, out_len = cap - out;
        const uint8_t *sp = in_len ? src + pos : NULL;
        wenc_status st =
            utf16 ? wenc_decode_to_utf16(&dec, sp, &in_len, c->o16 + out,
                                         &out_len, true)
                  : wenc_decode_to_utf8(&dec, sp, &in_len, c->o8 + out,
                                        &out_len, true);
        if (in_len > n - pos || out_len > cap - out) {
            snprintf(why, sizeof why, "consumed/written beyond the limits");
            break;
        }
        pos += in_len;
        out += out_len;
        if (st == WENC_INPUT_EMPTY) {
            if (pos != n)
                snprintf(why, sizeof why, "INPUT_EMPTY with %zu bytes left",
                         n - pos);
            break;
        }
        if (st != WENC_ERROR || !fatal) {
            snprintf(why, sizeof why, "status %d at byte %zu (output %zu)",
                     (int)st, pos, out);
            break;
        }
        wenc_decode_error e;
        if (!wenc_decoder_error(&dec, &e)) {
            snprintf(why, sizeof why, "WENC_ERROR without error details");
            break;
        }
        if (nerr >= x->nerr) {
            snprintf(why, sizeof why,
                     "unexpected error %zu at offset %llu length %zu", nerr,
                     (unsigned long long)e.offset, e.length);
            break;
        }
        const th_xerr *xe = &x->errs[nerr];
        if (e.offset != xe->offset || e.length != xe->length ||
            memcmp(e.bytes, src + xe->offset, xe->length) != 0 ||
            pos != xe->offset + xe->length || out != c->errpos[nerr]) {
            char eh[40], ah[40];
            th_hex(eh, sizeof eh, src + xe->offset, xe->length, 8);
            th_hex(ah, sizeof ah, e.bytes,
                   e.length <= WENC_MAX_MALFORMED ? e.length : 0, 8);
            snprintf(why, sizeof why,
                     "error %zu: expected offset %llu length %zu [%s] after "
                     "%zu bytes, output %zu; actual offset %llu length %zu "
                     "[%s] after %zu bytes, output %zu",
                     nerr, (unsigned long long)xe->offset, xe->length, eh,
                     (size_t)(xe->offset + xe->length), c->errpos[nerr],
                     (unsigned long long)e.offset, e.length, ah, pos, out);
            break;
        }
        nerr++;
    }
    if (!why[0] && nerr != (fatal ? x->nerr : 0))
        snprintf(why, sizeof why, "%zu errors, expected %zu", nerr,
                 fatal ? x->nerr : 0);
    if (!why[0]) {
        if (utf16)
            describe_diff(why, sizeof why, "UTF-16 output", c->e16.p,
                          c->e16.len, c->o16, out, true);
        else
            describe_diff(why, sizeof why, "UTF-8 output", c->e8.p,
                          c->e8.len, c->o8, out, false);
    }
report:
    if (why[0]) {
        char h[200];
        th_hex(h, sizeof h, src, n, 24);
        return th_check(t, false, __FILE__, __LINE__,
                        "decode %s [%s] %s to %s: %s", wenc_name(id), h,
                        fatal ? "fatal" : "replacement",
                        utf16 ? "UTF-16" : "UTF-8", why);
    }
    t->passed++;
    return true;
}

/* Decodes in both modes to both sinks. */
static void light_decode4(th *t, lctx *c, wenc_id id, const uint8_t *src,
                          size_t n, const th_expect *x)
{
    for (int fatal = 0; fatal < 2; fatal++)
        for (int utf16 = 0; utf16 < 2; utf16++)
            light_decode(t, c, id, src, n, x, fatal != 0, utf16 != 0);
}

static bool light_encode(th *t, lctx *c, wenc_id id, const void *src,
                         size_t n, bool from16, bool fatal, const th_expect *x,
                         const char *label)
{
    char why[512] = "";
    wenc_encoder enc;
    c->runs++;
    if (!wenc_encoder_init(&enc, id,
                           fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML)) {
        snprintf(why, sizeof why, "wenc_encoder_init failed");
        goto report;
    }
    size_t cap = wenc_encoder_max_len(&enc, n);
    c->o8 = grow_to(c->o8, &c->c8, cap, 1);
    expected_output(c, x, fatal, true, false);
    size_t pos = 0, out = 0, nerr = 0;
    for (;;) {
        size_t in_len = n - pos, out_len = cap - out;
        wenc_status st =
            from16 ? wenc_encode_from_utf16(
                         &enc, in_len ? (const uint16_t *)src + pos : NULL,
                         &in_len, c->o8 + out, &out_len, true)
                   : wenc_encode_from_utf8(
                         &enc, in_len ? (const uint8_t *)src + pos : NULL,
                         &in_len, c->o8 + out, &out_len, true);
        if (in_len > n - pos || out_len > cap - out) {
            snprintf(why, sizeof why, "consumed/written beyond the limits");
            break;
        }
        pos += in_len;
        out += out_len;
        if (st == WENC_INPUT_EMPTY) {
            if (pos != n)
                snprintf(why, sizeof why, "INPUT_EMPTY with %zu units left",
                         n - pos);
            break;
        }
        if (st != WENC_ERROR || !fatal) {
            snprintf(why, sizeof why, "status %d at unit %zu (output %zu)",
                     (int)st, pos, out);
            break;
        }
        wenc_encode_error e;
        if (!wenc_encoder_error(&enc, &e)) {
            snprintf(why, sizeof why, "WENC_ERROR without error details");
            break;
        }
        if (nerr >= x->nerr) {
            snprintf(why, sizeof why,
                     "unexpected error U+%04lX at offset %llu",
                     (unsigned long)e.code_point,
                     (unsigned long long)e.offset);
            break;
        }
        const th_xerr *xe = &x->errs[nerr];
        if (e.code_point != xe->code_point || e.offset != xe->offset ||
            e.length != xe->length || pos != xe->offset + xe->length ||
            out != c->errpos[nerr]) {
            snprintf(why, sizeof why,
                     "error %zu: expected U+%04lX offset %llu length %zu "
                     "output %zu; actual U+%04lX offset %llu length %zu "
                     "after %zu units, output %zu",
                     nerr, (unsigned long)xe->code_point,
                     (unsigned long long)xe->offset, xe->length,
                     c->errpos[nerr], (unsigned long)e.code_point,
                     (unsigned long long)e.offset, e.length, pos, out);
            break;
        }
        nerr++;
    }
    if (!why[0] && nerr != (fatal ? x->nerr : 0))
        snprintf(why, sizeof why, "%zu errors, expected %zu", nerr,
                 fatal ? x->nerr : 0);
    if (!why[0])
        describe_diff(why, sizeof why, "output", c->e8.p, c->e8.len, c->o8,
                      out, false);
report:
    if (why[0])
        return th_check(t, false, __FILE__, __LINE__,
                        "encode %s to %s from %s %s: %s", label,
                        wenc_name(id), from16 ? "UTF-16" : "UTF-8",
                        fatal ? "fatal" : "html", why);
    t->passed++;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Decoding every pointer                                                     */
/* ------------------------------------------------------------------------ */

typedef struct seqbuf {
    th_bytes in;
    th_expect x;
} seqbuf;

static void seq_reset(seqbuf *s, const uint8_t *prefix, size_t n)
{
    s->in.len = 0;
    xe_reset(&s->x);
    if (n)
        th_bytes_put(&s->in, prefix, n);
}

static void seq_free(seqbuf *s)
{
    th_bytes_free(&s->in);
    th_expect_free(&s->x);
}

/* Checks s (valid sequences only, expectation built alongside) in both
 * modes to both sinks; also checks that the reference decoder agrees. */
static void seq_check(th *t, lctx *c, const data *d, wenc_id id, seqbuf *s,
                      th_expect *scratch)
{
    ref_decode(d, id, s->in.p, s->in.len, scratch);
    bool same = scratch->n == s->x.n && scratch->nerr == 0 &&
                (s->x.n == 0 || memcmp(scratch->items, s->x.items,
                                       s->x.n * sizeof *s->x.items) == 0);
    CHECKF(t, same, "test bug: the reference decoder disagrees with the index");
    light_decode4(t, c, id, s->in.p, s->in.len, &s->x);
}

static void decode_gb18030_two_byte(th *t, lctx *c, const data *d, wenc_id id)
{
    seqbuf s;
    th_expect scratch;
    memset(&s, 0, sizeof s);
    memset(&scratch, 0, sizeof scratch);
    size_t count = 0;
    for (int lead = 0x81; lead <= 0xFE; lead++) {
        th_ctx(t, "%s two-byte, lead %02X", wenc_name(id), lead);
        seq_reset(&s, NULL, 0);
        for (int trail = 0x40; trail <= 0xFE; trail++) {
            if (trail == 0x7F)
                continue;
            size_t p = (size_t)(lead - 0x81) * 190 +
                       (size_t)(trail - (trail < 0x7F ? 0x40 : 0x41));
            uint32_t cp = th_index_cp(&d->gb, p);
            if (cp == NO_CP)
                continue;
            th_bytes_byte(&s.in, (uint8_t)lead);
            th_bytes_byte(&s.in, (uint8_t)trail);
            xe_item(&s.x, cp);
            count++;
        }
        seq_check(t, c, d, id, &s, &scratch);
    }
    th_ctx_clear(t);
    CHECK_EQ(t, "gb18030 two-byte pointers decoded", d->gb.count, count);
    seq_free(&s);
    th_expect_free(&scratch);
}

/* Every four-byte form: pointers 0 .. 1587599 (bytes 81 30 81 30 to
 * FE 39 FE 39), valid ones to the ranges code point, others to errors. */
static void decode_gb18030_four_byte(th *t, lctx *c, const data *d,
                                     wenc_id id)
{
    seqbuf s;
    memset(&s, 0, sizeof s);
    size_t valid = 0, invalid = 0;
    for (int b1 = 0x81; b1 <= 0xFE; b1++) {
        th_ctx(t, "%s four-byte, first byte %02X", wenc_name(id), b1);
        seq_reset(&s, NULL, 0);
        for (int b2 = 0x30; b2 <= 0x39; b2++) {
            for (int b3 = 0x81; b3 <= 0xFE; b3++) {
                for (int b4 = 0x30; b4 <= 0x39; b4++) {
                    uint32_t pointer =
                        (uint32_t)((b1 - 0x81) * 12600 + (b2 - 0x30) * 1260 +
                                   (b3 - 0x81) * 10 + (b4 - 0x30));
                    uint32_t cp = ranges_cp(d, pointer);
                    size_t at = s.in.len;
                    th_bytes_byte(&s.in, (uint8_t)b1);
                    th_bytes_byte(&s.in, (uint8_t)b2);
                    th_bytes_byte(&s.in, (uint8_t)b3);
                    th_bytes_byte(&s.in, (uint8_t)b4);
                    if (cp == NO_CP) {
                        xe_err(&s.x, 0, at, 4);
                        invalid++;
                    } else {
                        xe_item(&s.x, cp);
                        valid++;
                    }
                }
            }
        }
        /* gb18030: every chunk in replacement mode (to UTF-8 or, every
         * other chunk, to UTF-16), the boundary chunks to both and in
         * fatal mode, and one chunk in 16 in fatal mode; GBK (the same
         * decoder): the boundary chunks */
        bool edge = b1 == 0x81 || b1 == 0x84 || b1 == 0x85 || b1 == 0x8F ||
                    b1 == 0x90 || b1 == 0xE3 || b1 == 0xE4 || b1 == 0xFE;
        if (edge || (id != WENC_GBK && b1 % 2 == 0))
            light_decode(t, c, id, s.in.p, s.in.len, &s.x, false, false);
        if (edge || (id != WENC_GBK && b1 % 2 == 1))
            light_decode(t, c, id, s.in.p, s.in.len, &s.x, false, true);
        if (edge || (id != WENC_GBK && b1 % 16 == 0)) {
            light_decode(t, c, id, s.in.p, s.in.len, &s.x, true, false);
            light_decode(t, c, id, s.in.p, s.in.len, &s.x, true, true);
        }
    }
    th_ctx_clear(t);
    /* 39420 + (1237575 - 189000 + 1) valid pointers */
    CHECK_EQ(t, "valid four-byte pointers", 39420 + 1048576, valid);
    CHECK_EQ(t, "invalid four-byte pointers", 1587600 - 39420 - 1048576,
             invalid);
    seq_free(&s);
}

static void decode_big5(th *t, lctx *c, const data *d)
{
    seqbuf s;
    th_expect scratch;
    memset(&s, 0, sizeof s);
    memset(&scratch, 0, sizeof scratch);
    size_t count = 0, pairs = 0;
    for (int lead = 0x81; lead <= 0xFE; lead++) {
        th_ctx(t, "Big5, lead %02X", lead);
        seq_reset(&s, NULL, 0);
        for (int trail = 0x40; trail <= 0xFE; trail++) {
            if (trail > 0x7E && trail < 0xA1)
                continue;
            size_t p = (size_t)(lead - 0x81) * 157 +
                       (size_t)(trail - (trail < 0x7F ? 0x40 : 0x62));
            uint32_t cp = th_index_cp(&d->big5, p);
            uint32_t second = 0;
            /* the four pointers that give two code points */
            if (p == 1133)
                cp = 0xCA, second = 0x304;
            else if (p == 1135)
                cp = 0xCA, second = 0x30C;
            else if (p == 1164)
                cp = 0xEA, second = 0x304;
            else if (p == 1166)
                cp = 0xEA, second = 0x30C;
            if (cp == NO_CP)
                continue;
            th_bytes_byte(&s.in, (uint8_t)lead);
            th_bytes_byte(&s.in, (uint8_t)trail);
            xe_item(&s.x, cp);
            if (second) {
                xe_item(&s.x, second);
                pairs++;
            } else {
                count++;
            }
        }
        seq_check(t, c, d, WENC_BIG5, &s, &scratch);
    }
    th_ctx_clear(t);
    /* every index entry is reachable; 1133..1166 are not in the index */
    CHECK_EQ(t, "Big5 pointers decoded", d->big5.count, count);
    CHECK_EQ(t, "Big5 two-code-point pointers", 4, pairs);
    seq_free(&s);
    th_expect_free(&scratch);
}

static void decode_euc_jp(th *t, lctx *c, const data *d)
{
    seqbuf s;
    th_expect scratch;
    memset(&s, 0, sizeof s);
    memset(&scratch, 0, sizeof scratch);
    size_t n208 = 0, n212 = 0, n208_all = 0, n212_all = 0;
    for (int jis0212 = 0; jis0212 < 2; jis0212++) {
        const th_index *ix = jis0212 ? &d->j212 : &d->j208;
        for (int lead = 0xA1; lead <= 0xFE; lead++) {
            th_ctx(t, "EUC-JP %s, lead %02X", jis0212 ? "jis0212" : "jis0208",
                   lead);
            seq_reset(&s, NULL, 0);
            for (int trail = 0xA1; trail <= 0xFE; trail++) {
                size_t p = (size_t)(lead - 0xA1) * 94 + (size_t)(trail - 0xA1);
                uint32_t cp = th_index_cp(ix, p);
                if (cp == NO_CP)
                    continue;
                if (jis0212)
                    th_bytes_byte(&s.in, 0x8F);
                th_bytes_byte(&s.in, (uint8_t)lead);
                th_bytes_byte(&s.in, (uint8_t)trail);
                xe_item(&s.x, cp);
                if (jis0212)
                    n212++;
                else
                    n208++;
            }
            seq_check(t, c, d, WENC_EUC_JP, &s, &scratch);
        }
    }
    for (size_t p = 0; p < d->j208.size && p < 94 * 94; p++)
        n208_all += d->j208.cp[p] != NO_CP;
    for (size_t p = 0; p < d->j212.size && p < 94 * 94; p++)
        n212_all += d->j212.cp[p] != NO_CP;
    CHECK_EQ(t, "EUC-JP jis0208 pointers below 8836 decoded", n208_all, n208);
    CHECK_EQ(t, "EUC-JP jis0212 pointers decoded", n212_all, n212);
    CHECK_EQ(t, "jis0212 fits in 94x94", d->j212.count, n212);
    /* 0x8E: half-width katakana */
    th_ctx(t, "EUC-JP 8E katakana");
    seq_reset(&s, NULL, 0);
    for (int b = 0xA1; b <= 0xDF; b++) {
        th_bytes_byte(&s.in, 0x8E);
        th_bytes_byte(&s.in, (uint8_t)b);
        xe_item(&s.x, 0xFF61u - 0xA1u + (uint32_t)b);
    }
    seq_check(t, c, d, WENC_EUC_JP, &s, &scratch);
    th_ctx_clear(t);
    seq_free(&s);
    th_expect_free(&scratch);
}

static void decode_shift_jis(th *t, lctx *c, const data *d)
{
    seqbuf s;
    th_expect scratch;
    memset(&s, 0, sizeof s);
    memset(&scratch, 0, sizeof scratch);
    size_t count = 0, eudc = 0, reachable = 0;
    for (int lead = 0x81; lead <= 0xFC; lead++) {
        if (lead > 0x9F && lead < 0xE0)
            continue;
        th_ctx(t, "Shift_JIS, lead %02X", lead);
        seq_reset(&s, NULL, 0);
        for (int trail = 0x40; trail <= 0xFC; trail++) {
            if (trail == 0x7F)
                continue;
            size_t p = (size_t)(lead - (lead < 0xA0 ? 0x81 : 0xC1)) * 188 +
                       (size_t)(trail - (trail < 0x7F ? 0x40 : 0x41));
            uint32_t cp;
            if (p >= 8836 && p <= 10715) {
                cp = (uint32_t)(0xE000 - 8836 + p);
                eudc++;
            } else {
                cp = th_index_cp(&d->j208, p);
                if (cp == NO_CP)
                    continue;
                count++;
            }
            th_bytes_byte(&s.in, (uint8_t)lead);
            th_bytes_byte(&s.in, (uint8_t)trail);
            xe_item(&s.x, cp);
        }
        seq_check(t, c, d, WENC_SHIFT_JIS, &s, &scratch);
    }
    for (size_t p = 0; p < d->j208.size; p++)
        if (d->j208.cp[p] != NO_CP && (p < 8836 || p > 10715))
            reachable++;
    CHECK_EQ(t, "Shift_JIS jis0208 pointers decoded", reachable, count);
    CHECK_EQ(t, "Shift_JIS EUDC pointers decoded", 10715 - 8836 + 1, eudc);
    /* single bytes */
    th_ctx(t, "Shift_JIS single bytes");
    seq_reset(&s, NULL, 0);
    for (int b = 0; b <= 0xDF; b++) {
        if (b > 0x80 && b < 0xA1)
            continue;
        th_bytes_byte(&s.in, (uint8_t)b);
        xe_item(&s.x, b <= 0x80 ? (uint32_t)b : 0xFF61u - 0xA1u + (uint32_t)b);
    }
    seq_check(t, c, d, WENC_SHIFT_JIS, &s, &scratch);
    th_ctx_clear(t);
    seq_free(&s);
    th_expect_free(&scratch);
}

static void decode_iso_2022_jp(th *t, lctx *c, const data *d)
{
    static const uint8_t esc_b[3] = {0x1B, 0x24, 0x42};
    static const uint8_t esc_at[3] = {0x1B, 0x24, 0x40};
    seqbuf s;
    th_expect scratch;
    memset(&s, 0, sizeof s);
    memset(&scratch, 0, sizeof scratch);
    size_t count = 0, all = 0;
    for (int lead = 0x21; lead <= 0x7E; lead++) {
        th_ctx(t, "ISO-2022-JP jis0208, lead %02X", lead);
        /* ESC $ B for even leads, ESC $ @ for odd ones */
        seq_reset(&s, lead % 2 ? esc_at : esc_b, 3);
        for (int trail = 0x21; trail <= 0x7E; trail++) {
            size_t p = (size_t)(lead - 0x21) * 94 + (size_t)(trail - 0x21);
            uint32_t cp = th_index_cp(&d->j208, p);
            if (cp == NO_CP)
                continue;
            th_bytes_byte(&s.in, (uint8_t)lead);
            th_bytes_byte(&s.in, (uint8_t)trail);
            xe_item(&s.x, cp);
            count++;
        }
        if (s.x.n == 0)
            continue; /* an empty row (ESC $ B ESC ( B would be an error) */
        /* back to ASCII: ESC ( B 'A' */
        th_bytes_put(&s.in, "\x1B(BA", 4);
        xe_item(&s.x, 'A');
        seq_check(t, c, d, WENC_ISO_2022_JP, &s, &scratch);
    }
    for (size_t p = 0; p < d->j208.size && p < 94 * 94; p++)
        all += d->j208.cp[p] != NO_CP;
    CHECK_EQ(t, "ISO-2022-JP jis0208 pointers decoded", all, count);
    th_ctx(t, "ISO-2022-JP katakana (ESC ( I)");
    seq_reset(&s, (const uint8_t *)"\x1B(I", 3);
    for (int b = 0x21; b <= 0x5F; b++) {
        th_bytes_byte(&s.in, (uint8_t)b);
        xe_item(&s.x, 0xFF61u - 0x21u + (uint32_t)b);
    }
    seq_check(t, c, d, WENC_ISO_2022_JP, &s, &scratch);
    th_ctx(t, "ISO-2022-JP Roman (ESC ( J)");
    seq_reset(&s, (const uint8_t *)"\x1B(J", 3);
    for (int b = 0; b <= 0x7F; b++) {
        if (b == 0x0E || b == 0x0F || b == 0x1B)
            continue;
        th_bytes_byte(&s.in, (uint8_t)b);
        xe_item(&s.x, b == 0x5C ? 0xA5 : b == 0x7E ? 0x203E : (uint32_t)b);
    }
    seq_check(t, c, d, WENC_ISO_2022_JP, &s, &scratch);
    th_ctx(t, "ISO-2022-JP ASCII");
    seq_reset(&s, NULL, 0);
    for (int b = 0; b <= 0x7F; b++) {
        if (b == 0x0E || b == 0x0F || b == 0x1B)
            continue;
        th_bytes_byte(&s.in, (uint8_t)b);
        xe_item(&s.x, (uint32_t)b);
    }
    seq_check(t, c, d, WENC_ISO_2022_JP, &s, &scratch);
    th_ctx_clear(t);
    seq_free(&s);
    th_expect_free(&scratch);
}

static void decode_euc_kr(th *t, lctx *c, const data *d)
{
    seqbuf s;
    th_expect scratch;
    memset(&s, 0, sizeof s);
    memset(&scratch, 0, sizeof scratch);
    size_t count = 0;
    for (int lead = 0x81; lead <= 0xFE; lead++) {
        th_ctx(t, "EUC-KR, lead %02X", lead);
        seq_reset(&s, NULL, 0);
        for (int trail = 0x41; trail <= 0xFE; trail++) {
            size_t p = (size_t)(lead - 0x81) * 190 + (size_t)(trail - 0x41);
            uint32_t cp = th_index_cp(&d->kr, p);
            if (cp == NO_CP)
                continue;
            th_bytes_byte(&s.in, (uint8_t)lead);
            th_bytes_byte(&s.in, (uint8_t)trail);
            xe_item(&s.x, cp);
            count++;
        }
        seq_check(t, c, d, WENC_EUC_KR, &s, &scratch);
    }
    th_ctx_clear(t);
    CHECK_EQ(t, "EUC-KR pointers decoded", d->kr.count, count);
    seq_free(&s);
    th_expect_free(&scratch);
}

/* ------------------------------------------------------------------------ */
/* Every byte combination outside the index                                  */
/* ------------------------------------------------------------------------ */

typedef struct sweep {
    th *t;
    lctx *c;
    const data *d;
    wenc_id id;
    th_expect x;
    uint8_t buf[16];
    unsigned long inputs;
    unsigned long sampled;
} sweep;

/* Decodes prefix + bytes b[0..k) + tail with the reference's expectation;
 * `sample`: also through the harness (byte per call, error bytes). */
static void sweep_one(sweep *w, const uint8_t *prefix, size_t np,
                      const int *b, size_t k, const char *tail, bool sample)
{
    size_t n = np;
    if (np)
        memcpy(w->buf, prefix, np);
    for (size_t i = 0; i < k; i++)
        w->buf[n++] = (uint8_t)b[i];
    size_t nt = strlen(tail);
    memcpy(w->buf + n, tail, nt);
    n += nt;
    ref_decode(w->d, w->id, w->buf, n, &w->x);
    light_decode4(w->t, w->c, w->id, w->buf, n, &w->x);
    w->inputs++;
    if (sample) {
        th_check_decode_raw(w->t, __FILE__, __LINE__, w->id, WENC_BOM_KEEP,
                            w->buf, n, &w->x, WENC_INVALID);
        w->sampled++;
    }
}

static bool sample_trail(int b)
{
    switch (b) {
    case 0x00: case 0x0A: case 0x1B: case 0x30: case 0x39: case 0x3F:
    case 0x40: case 0x41: case 0x7E: case 0x7F: case 0x80: case 0xA0:
    case 0xA1: case 0xFC: case 0xFD: case 0xFE: case 0xFF:
        return true;
    default:
        return false;
    }
}

/* Every first byte alone (then 'A', and at the end), and for the lead
 * bytes every trail byte followed by 'A'. */
static void sweep_pairs(sweep *w, bool (*is_lead)(int))
{
    for (int b0 = 0; b0 <= 0xFF; b0++) {
        int b[2] = {b0, 0};
        th_ctx(w->t, "%s first byte %02X", wenc_name(w->id), b0);
        sweep_one(w, NULL, 0, b, 1, "A", false);
        sweep_one(w, NULL, 0, b, 1, "", false);
        if (!is_lead(b0))
            continue;
        bool sample_lead = b0 == 0x81 || b0 == 0x8E || b0 == 0x8F ||
                           b0 == 0xA4 || b0 == 0xC8 || b0 == 0xE0 ||
                           b0 == 0xFC || b0 == 0xFE;
        for (int b1 = 0; b1 <= 0xFF; b1++) {
            b[1] = b1;
            sweep_one(w, NULL, 0, b, 2, "A", sample_lead && sample_trail(b1));
        }
    }
    th_ctx_clear(w->t);
}

static bool lead_81_fe(int b)
{
    return b >= 0x81 && b <= 0xFE;
}

static bool lead_euc_jp(int b)
{
    return b == 0x8E || b == 0x8F || (b >= 0xA1 && b <= 0xFE);
}

static bool lead_shift_jis(int b)
{
    return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC);
}

static void sweep_gb18030_more(sweep *w)
{
    static const int seconds[3] = {0x30, 0x35, 0x39};
    /* lead, second, then every third byte (once the second byte is a
     * digit, the first byte only matters when a fourth completes it) */
    static const int leads[8] = {0x81, 0x82, 0x84, 0x85, 0xA0, 0xE3, 0xE4,
                                 0xFE};
    for (int l = 0; l < 8; l++) {
        int b0 = leads[l];
        th_ctx(w->t, "%s: %02X then a digit then any byte", wenc_name(w->id),
               b0);
        for (int s2 = 0; s2 < 3; s2++) {
            for (int b2 = 0; b2 <= 0xFF; b2++) {
                int b[3] = {b0, seconds[s2], b2};
                bool sample = (b0 == 0x81 || b0 == 0xFE) && s2 == 0 &&
                              sample_trail(b2);
                sweep_one(w, NULL, 0, b, 3, "A", sample);
            }
            int b[2] = {b0, seconds[s2]};
            sweep_one(w, NULL, 0, b, 2, "", b0 == 0x81);
            sweep_one(w, NULL, 0, b, 2, "A", b0 == 0x81);
        }
    }
    /* every second digit for two leads */
    for (int b1 = 0x30; b1 <= 0x39; b1++) {
        for (int b2 = 0; b2 <= 0xFF; b2++) {
            int b[3] = {0x84, b1, b2};
            sweep_one(w, NULL, 0, b, 3, "A", false);
            b[0] = 0xE3;
            sweep_one(w, NULL, 0, b, 3, "A", false);
        }
    }
    /* every fourth byte */
    static const int firsts[6] = {0x81, 0x84, 0x85, 0x8F, 0xE3, 0xFE};
    static const int digits[3] = {0x30, 0x31, 0x39};
    static const int thirds[3] = {0x81, 0xA4, 0xFE};
    for (int i = 0; i < 6; i++) {
        th_ctx(w->t, "%s: %02X digit byte, then any byte", wenc_name(w->id),
               firsts[i]);
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) {
                for (int b3 = 0; b3 <= 0xFF; b3++) {
                    int b[4] = {firsts[i], digits[j], thirds[k], b3};
                    bool sample = i == 0 && j == 0 && k == 0 &&
                                  sample_trail(b3);
                    sweep_one(w, NULL, 0, b, 4, "A", sample);
                }
                int b[3] = {firsts[i], digits[j], thirds[k]};
                sweep_one(w, NULL, 0, b, 3, "", i == 0 && j == 0);
            }
        }
    }
    th_ctx_clear(w->t);
}

static void sweep_euc_jp_more(sweep *w)
{
    /* 0x8F, then every lead byte value, then every trail byte value */
    for (int b1 = 0; b1 <= 0xFF; b1++) {
        th_ctx(w->t, "EUC-JP: 8F %02X then any byte", b1);
        int b[3] = {0x8F, b1, 0};
        sweep_one(w, NULL, 0, b, 2, "", b1 == 0xA1 || b1 == 0x41);
        for (int b2 = 0; b2 <= 0xFF; b2++) {
            b[2] = b2;
            bool sample = (b1 == 0xA2 || b1 == 0xB0) && sample_trail(b2);
            sweep_one(w, NULL, 0, b, 3, "A", sample);
        }
    }
    th_ctx_clear(w->t);
}

static void sweep_iso_2022_jp(sweep *w)
{
    static const struct {
        const char *name;
        const char *prefix;
    } states[] = {
        {"ASCII", ""},
        {"Roman", "\x1B(J"},
        {"katakana", "\x1B(I"},
        {"lead byte", "\x1B$B"},
        {"lead byte after ESC $ @", "\x1B$@"},
        {"ASCII after Roman", "\x1B(J\x1B(B"},
    };
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        const uint8_t *pre = (const uint8_t *)states[i].prefix;
        size_t np = strlen(states[i].prefix);
        for (int b0 = 0; b0 <= 0xFF; b0++) {
            int b[3] = {b0, 0, 0};
            th_ctx(w->t, "ISO-2022-JP %s state, byte %02X", states[i].name,
                   b0);
            sweep_one(w, pre, np, b, 1, "A", sample_trail(b0));
            sweep_one(w, pre, np, b, 1, "", b0 == 0x1B || b0 == 0x21);
            /* escape start and escape in this state */
            b[0] = 0x1B;
            b[1] = b0;
            sweep_one(w, pre, np, b, 2, "A", sample_trail(b0));
            b[1] = 0x24;
            b[2] = b0;
            sweep_one(w, pre, np, b, 3, "A", sample_trail(b0));
            b[1] = 0x28;
            sweep_one(w, pre, np, b, 3, "A", sample_trail(b0));
            sweep_one(w, pre, np, b, 3, "", b0 == 0x42);
            /* lead and every trail in the lead byte states */
            bool lead = (b0 >= 0x21 && b0 <= 0x7E) || b0 == 0x00 ||
                        b0 == 0x1B || b0 == 0x80 || b0 == 0xFF;
            if ((i == 3 && lead) ||
                (i == 4 && (b0 == 0x21 || b0 == 0x30 || b0 == 0x7E ||
                            b0 == 0x80))) {
                b[0] = b0;
                for (int b1 = 0; b1 <= 0xFF; b1++) {
                    b[1] = b1;
                    bool sample = (b0 == 0x21 || b0 == 0x30 || b0 == 0x7E) &&
                                  sample_trail(b1);
                    sweep_one(w, pre, np, b, 2, "A", sample);
                }
            }
        }
    }
    th_ctx_clear(w->t);
}

static void sweep_all(th *t, lctx *c, const data *d)
{
    static const wenc_id ids[7] = {WENC_GB18030, WENC_GBK, WENC_BIG5,
                                   WENC_EUC_JP, WENC_ISO_2022_JP,
                                   WENC_SHIFT_JIS, WENC_EUC_KR};
    for (size_t i = 0; i < 7; i++) {
        sweep w;
        memset(&w, 0, sizeof w);
        w.t = t;
        w.c = c;
        w.d = d;
        w.id = ids[i];
        if (!have(d, w.id)) {
            th_skip(t, TH_SKIP_DATA, "%s lead/trail error sweep (index data absent)",
                    wenc_name(w.id));
            continue;
        }
        unsigned long before = t->failed;
        switch (w.id) {
        case WENC_GB18030:
            sweep_pairs(&w, lead_81_fe);
            sweep_gb18030_more(&w);
            break;
        case WENC_GBK: /* GBK's decoder is gb18030's: the pair sweep only */
            sweep_pairs(&w, lead_81_fe);
            break;
        case WENC_BIG5:
        case WENC_EUC_KR:
            sweep_pairs(&w, lead_81_fe);
            break;
        case WENC_EUC_JP:
            sweep_pairs(&w, lead_euc_jp);
            sweep_euc_jp_more(&w);
            break;
        case WENC_SHIFT_JIS:
            sweep_pairs(&w, lead_shift_jis);
            break;
        default:
            sweep_iso_2022_jp(&w);
            break;
        }
        th_note(t, "%s error sweep: %lu inputs (%lu also byte per call), "
                   "%lu failures",
                wenc_name(w.id), w.inputs, w.sampled, t->failed - before);
        th_expect_free(&w.x);
    }
}

/* ------------------------------------------------------------------------ */
/* Long streams (the vector path of the two-byte decoders)                    */
/* ------------------------------------------------------------------------ */

/* The index a two-byte pair of `id` points into, and the pair's bytes for
 * pointer p (§10-§13's pointer formulas, inverted). */
static const th_index *pair_index(const data *d, wenc_id id)
{
    switch (id) {
    case WENC_GBK:
    case WENC_GB18030: return &d->gb;
    case WENC_BIG5: return &d->big5;
    case WENC_EUC_KR: return &d->kr;
    default: return &d->j208;
    }
}

static void pair_bytes(wenc_id id, size_t p, uint8_t b[2])
{
    size_t t;
    switch (id) {
    case WENC_GBK:
    case WENC_GB18030:
        t = p % 190;
        b[0] = (uint8_t)(p / 190 + 0x81);
        b[1] = (uint8_t)(t + (t < 0x3F ? 0x40 : 0x41));
        break;
    case WENC_BIG5:
        t = p % 157;
        b[0] = (uint8_t)(p / 157 + 0x81);
        b[1] = (uint8_t)(t + (t < 0x3F ? 0x40 : 0x62));
        break;
    case WENC_EUC_KR:
        b[0] = (uint8_t)(p / 190 + 0x81);
        b[1] = (uint8_t)(p % 190 + 0x41);
        break;
    case WENC_EUC_JP:
        b[0] = (uint8_t)(p / 94 + 0xA1);
        b[1] = (uint8_t)(p % 94 + 0xA1);
        break;
    default: /* Shift_JIS */
        t = p % 188;
        b[0] = (uint8_t)(p / 188 < 0x1F ? p / 188 + 0x81 : p / 188 + 0xC1);
        b[1] = (uint8_t)(t + (t < 0x3F ? 0x40 : 0x41));
        break;
    }
}

/* Appends k-th filler character: a pair with a BMP code point from the
 * middle of the index (most of them), or an ASCII letter (every fifth). */
static size_t filler_char(const data *d, wenc_id id, size_t k, uint8_t *out)
{
    if (k % 5 == 4) {
        out[0] = (uint8_t)('a' + k % 26);
        return 1;
    }
    const th_index *ix = pair_index(d, id);
    size_t size = id == WENC_EUC_JP ? 94 * 94 : ix->size;
    for (size_t step = 0;; step++) {
        size_t p = size / 4 + (k * 7919 + step * 13) % (size / 2);
        uint32_t cp = ix_cp(ix, (long)p);
        if (cp != NO_CP && cp <= 0xFFFF) {
            pair_bytes(id, p, out);
            return 2;
        }
    }
}

/* A pointer of the middle of the index that has no code point. */
static bool unmapped_pair(const data *d, wenc_id id, uint8_t b[2])
{
    const th_index *ix = pair_index(d, id);
    size_t size = id == WENC_EUC_JP ? 94 * 94 : ix->size;
    for (size_t p = size / 3; p < size; p++) {
        if (ix_cp(ix, (long)p) == NO_CP) {
            pair_bytes(id, p, b);
            return true;
        }
    }
    return false;
}

/* Each probe (1-4 bytes: an error, a character the vector path leaves to
 * the codec's loop, a lead byte alone) at every offset 0-150 of 220 bytes
 * of filler, the text also ending right after it; against the reference
 * decoder, to UTF-8 and UTF-16 in both modes. */
static void long_streams(th *t, lctx *c, const data *d, wenc_id id)
{
    typedef struct probe {
        uint8_t len, b[4];
    } probe;
    probe probes[16] = {
        {2, {0x81, 0x20}}, {1, {0x80}}, {1, {0xFF}},
        {2, {0xFE, 0xFE}}, {1, {0xA4}}, {2, {0x00, 0x7F}}};
    size_t nprobes = 6;
    uint8_t pair[2];
    if (unmapped_pair(d, id, pair))
        probes[nprobes++] = (probe){2, {pair[0], pair[1]}};
    switch (id) {
    case WENC_BIG5:
        /* two code points; plane 2 (pointer 947, 0x87 0x40 area); 0xC8;
         * 0xFA-0xFE */
        probes[nprobes++] = (probe){2, {0x88, 0x62}};
        probes[nprobes++] = (probe){2, {0x88, 0x66}};
        for (size_t p = 0; p < d->big5.size; p++) {
            if (ix_cp(&d->big5, (long)p) != NO_CP &&
                ix_cp(&d->big5, (long)p) > 0xFFFF) {
                pair_bytes(id, p, pair);
                probes[nprobes++] = (probe){2, {pair[0], pair[1]}};
                break;
            }
        }
        probes[nprobes++] = (probe){2, {0xC8, 0x7A}};
        probes[nprobes++] = (probe){2, {0xFA, 0x40}};
        probes[nprobes++] = (probe){2, {0xA4, 0x80}};
        break;
    case WENC_SHIFT_JIS:
        probes[nprobes++] = (probe){1, {0xB1}};
        probes[nprobes++] = (probe){2, {0xF0, 0x40}};
        probes[nprobes++] = (probe){2, {0x88, 0x7F}};
        probes[nprobes++] = (probe){2, {0xEA, 0xA4}};
        break;
    case WENC_EUC_JP:
        probes[nprobes++] = (probe){2, {0x8E, 0xB1}};
        probes[nprobes++] = (probe){3, {0x8F, 0xB0, 0xA1}};
        probes[nprobes++] = (probe){2, {0xB0, 0x80}};
        break;
    case WENC_GB18030:
    case WENC_GBK:
        probes[nprobes++] = (probe){4, {0x81, 0x30, 0x81, 0x30}};
        probes[nprobes++] = (probe){2, {0x81, 0x7F}};
        probes[nprobes++] = (probe){2, {0xA1, 0x30}};
        break;
    default: /* EUC-KR */
        probes[nprobes++] = (probe){2, {0x81, 0x40}};
        probes[nprobes++] = (probe){2, {0xC9, 0xA1}};
        break;
    }
    enum { TOTAL = 220, MAX_AT = 150 };
    uint8_t text[TOTAL + 8];
    th_expect x;
    memset(&x, 0, sizeof x);
    unsigned long before = t->failed, inputs = 0;
    for (size_t i = 0; i < nprobes; i++) {
        for (size_t at = 0; at <= MAX_AT; at++) {
            size_t n = 0, k = at; /* a different filler per offset */
            while (n < at)
                n += filler_char(d, id, k++, text + n);
            if (n != at)
                continue; /* `at` falls inside a pair: covered by at - 1 */
            memcpy(text + n, probes[i].b, probes[i].len);
            size_t probe_end = n + probes[i].len;
            n = probe_end;
            while (n + 2 <= TOTAL)
                n += filler_char(d, id, k++, text + n);
            size_t ends[2] = {n, probe_end};
            for (int e = 0; e < 2; e++) {
                ref_decode(d, id, text, ends[e], &x);
                light_decode4(t, c, id, text, ends[e], &x);
                inputs++;
            }
        }
    }
    /* the filler alone, every length from 60 to 220 */
    for (size_t len = 60; len <= TOTAL; len++) {
        size_t n = 0, k = len;
        while (n < len)
            n += filler_char(d, id, k++, text + n);
        ref_decode(d, id, text, n, &x);
        light_decode4(t, c, id, text, n, &x);
        inputs++;
    }
    th_note(t, "%s long streams: %zu probes, %lu inputs, %lu failures",
            wenc_name(id), nprobes, inputs, t->failed - before);
    th_expect_free(&x);
}

/* ------------------------------------------------------------------------ */
/* Encoding every scalar value                                                */
/* ------------------------------------------------------------------------ */

static void encode_all(th *t, lctx *c, const data *d, wenc_id id)
{
    uint32_t cps[256];
    th_bytes u8 = {0};
    th_units u16 = {0};
    th_expect x8, x16;
    memset(&x8, 0, sizeof x8);
    memset(&x16, 0, sizeof x16);
    unsigned long before = t->failed;
    size_t mapped = 0, blocks = 0;
    for (uint32_t block = 0; block < CP_LIMIT; block += 256) {
        if (block >= 0xD800 && block < 0xE000)
            continue;
        /* the block's mapped code points (outside the BMP the ISO-2022-JP
         * encoder maps what jis0208 has, like the others) */
        size_t in_block = 0;
        for (uint32_t cp = block; cp < block + 256; cp++) {
            uint8_t b[4];
            if (id == WENC_ISO_2022_JP && cp >= 0x10000)
                in_block += d->rev_j208[cp] >= 0;
            else if (id != WENC_ISO_2022_JP)
                in_block += ref_encode_cp(d, id, cp, b) != 0;
        }
        /* Every block of the BMP and every block with a mapped code point
         * in html mode; outside the BMP the blocks with nothing mapped
         * (all of them but gb18030's and Big5's plane 2) one in 64.
         * Fatal mode: the BMP, and one block in 16 (256) elsewhere. */
        bool any = in_block > 0, bmp = block < 0x10000;
        bool html = bmp || any || (block >> 8) % 64 == 5;
        bool fatal = bmp || (block >> 8) % (any ? 16 : 256) == 5;
        if (!bmp)
            mapped += in_block;
        if (!html && !fatal)
            continue;
        size_t n = 0;
        u8.len = 0;
        u16.len = 0;
        for (uint32_t cp = block; cp < block + 256; cp++) {
            cps[n++] = cp;
            th_bytes_cp(&u8, cp);
            th_units_cp(&u16, cp);
        }
        ref_encode(d, id, cps, n, false, &x8);
        ref_encode(d, id, cps, n, true, &x16);
        if (bmp)
            mapped += n - x8.nerr;
        CHECKF(t, bmp || n - x8.nerr == in_block,
               "test bug: block U+%04lX mapping count",
               (unsigned long)block);
        char label[32];
        snprintf(label, sizeof label, "U+%04lX..U+%04lX",
                 (unsigned long)block, (unsigned long)block + 255);
        blocks++;
        /* outside the BMP in html mode, from UTF-8 or (odd blocks) from
         * UTF-16 */
        bool odd = (block >> 8) % 2 == 1, edge = block % 0x10000 == 0;
        if (html && (bmp || edge || !odd))
            light_encode(t, c, id, u8.p, u8.len, false, false, &x8, label);
        if (html && (bmp || edge || odd))
            light_encode(t, c, id, u16.p, u16.len, true, false, &x16, label);
        /* fatal mode from UTF-8 for even blocks, UTF-16 for odd ones, and
         * both for the first and last blocks of the BMP */
        bool both = block == 0 || block == 0xFF00;
        if (fatal && (both || !odd))
            light_encode(t, c, id, u8.p, u8.len, false, true, &x8, label);
        if (fatal && (both || odd))
            light_encode(t, c, id, u16.p, u16.len, true, true, &x16, label);
    }
    th_note(t, "%s encoder: %zu scalar values mapped, %zu blocks of 256 "
               "encoded, %lu failures",
            wenc_name(id), mapped, blocks, t->failed - before);
    th_bytes_free(&u8);
    th_units_free(&u16);
    th_expect_free(&x8);
    th_expect_free(&x16);
}

/*
 * Ill-formed UTF-8 among letters the index maps, far enough into the input
 * for the encoders' run loops and vector paths (64 bytes and more): 24
 * letters (U+4E00 on, or U+AC00 on for EUC-KR's hangul, those the reference
 * encoder maps), a piece, ASCII "A" or not, 24 letters; html mode, one call.
 * Expected: the letters' bytes from the reference encoder, and for each
 * U+FFFD of §8.1.1 (one per maximal subpart) its bytes (gb18030) or
 * "&#65533;".
 */
static void encode_ill_formed_utf8(th *t, const data *d, wenc_id id)
{
    uint32_t letters[48];
    size_t count = 0;
    for (uint32_t cp = 0x4E00; cp < 0xD7A4 && count < 48; cp += 7) {
        uint8_t b[4];
        if (ref_encode_cp(d, id, cp, b) == 2)
            letters[count++] = cp;
    }
    if (!CHECKF(t, count == 48, "test bug: %s maps %zu CJK letters",
                wenc_name(id), count))
        return;
    static const struct {
        uint8_t bytes[3];
        size_t len;
        unsigned replacements; /* then the piece's ASCII, if any */
    } pieces[] = {
        {{0xE0, 0x80, 0x80}, 3, 3}, /* overlong: E0 wants A0-BF */
        {{0xED, 0xA0, 0x80}, 3, 3}, /* a surrogate: ED wants 80-9F */
        {{0xC0, 0x80}, 2, 2},       /* overlong two-byte forms */
        {{0xC1, 0xBF}, 2, 2},
        {{0x80}, 1, 1},             /* a lone continuation */
        {{0xF0, 0x9F, 0x98}, 3, 1}, /* three of four */
        {{0xF5}, 1, 1},             /* never a lead */
        {{0xC3, 0x57}, 2, 1},       /* C3 then "W", whose low bits with
                                       C3's would make U+00D7, mapped */
        {{0}, 2, 1},                /* two of three of a mapped letter */
    };
    for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
        for (int ascii = 0; ascii < 2; ascii++) {
            th_bytes in = {0}, want = {0};
            uint8_t b[4];
            for (size_t i = 0; i < 24; i++) {
                th_bytes_cp(&in, letters[i]);
                th_bytes_put(&want, b, ref_encode_cp(d, id, letters[i], b));
            }
            if (pieces[k].bytes[0] == 0) {
                th_bytes cut = {0};
                th_bytes_cp(&cut, letters[40]);
                th_bytes_put(&in, cut.p, cut.len - 1);
                th_bytes_free(&cut);
            } else {
                th_bytes_put(&in, pieces[k].bytes, pieces[k].len);
            }
            for (unsigned r = 0; r < pieces[k].replacements; r++) {
                size_t fffd = ref_encode_cp(d, id, 0xFFFD, b);
                if (fffd)
                    th_bytes_put(&want, b, fffd); /* gb18030 */
                else
                    th_bytes_str(&want, "&#65533;");
            }
            if (pieces[k].bytes[0] != 0 && pieces[k].bytes[pieces[k].len - 1] < 0x80)
                th_bytes_byte(&want, pieces[k].bytes[pieces[k].len - 1]);
            if (ascii) {
                th_bytes_byte(&in, 'A');
                th_bytes_byte(&want, 'A');
            }
            for (size_t i = 24; i < 48; i++) {
                th_bytes_cp(&in, letters[i]);
                th_bytes_put(&want, b, ref_encode_cp(d, id, letters[i], b));
            }
            wenc_encoder enc;
            wenc_encoder_init(&enc, id, WENC_ERRORS_HTML);
            size_t cap = wenc_encoder_max_len(&enc, in.len);
            uint8_t *out = malloc(cap + 1);
            if (!out)
                abort();
            size_t src_len = in.len, dst_len = cap;
            wenc_status st = wenc_encode_from_utf8(&enc, in.p, &src_len, out,
                                                   &dst_len, true);
            th_ctx(t, "%s from UTF-8, ill-formed piece %zu%s", wenc_name(id),
                   k, ascii ? " before ASCII" : "");
            CHECK(t, st == WENC_INPUT_EMPTY && src_len == in.len);
            CHECK_BYTES(t, "encoded", want.p, want.len, out, dst_len);
            free(out);
            th_bytes_free(&in);
            th_bytes_free(&want);
        }
    }
    th_ctx_clear(t);
}

/*
 * ISO-2022-JP text that turns between ASCII and jis0208, as Japanese does:
 * 120 streams of about 700 code points, runs of ASCII (1-70; now and then
 * 0x0E, 0x0F or ESC, errors outside jis0208's state, and 0x5C, 0x7E) and of
 * jis0208 code points (1-40: runs shorter than the vector path's 16 UTF-8
 * bytes too), between them now and then U+00A5, U+203E, U+2212, half-width
 * katakana, a code point jis0208 lacks or one outside the BMP, or
 * ill-formed UTF-8 (U+FFFD in UTF-16). From UTF-8 and UTF-16, in html mode (one call; then in chunks split at three places
 * into 64-141 bytes of room a call, so that escapes meet the end of the
 * room) and fatal mode, against ref_encode().
 */
static uint32_t turns_random(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

static void encode_turns(th *t, lctx *c, const data *d)
{
    /* the BMP code points jis0208 has (the encoder maps U+2212 and the
     * half-width katakana another way) */
    uint32_t *jis = malloc(0x10000 * sizeof *jis);
    size_t n_jis = 0;
    for (uint32_t cp = 0x80; jis && cp < 0x10000; cp++)
        if (d->rev_j208[cp] >= 0 && cp != 0x2212 &&
            !(cp >= 0xFF61 && cp <= 0xFF9F))
            jis[n_jis++] = cp;
    if (n_jis == 0) {
        CHECKF(t, false, "test bug: no jis0208 code points");
        free(jis);
        return;
    }
    static const uint32_t odd[8] = {0xA5,   0x203E, 0x2212, 0xFF71,
                                    0x0100, 0x1F600, 0xFF9F, 0x0E3F};
    static const uint32_t ascii_odd[5] = {0x0E, 0x0F, 0x1B, 0x5C, 0x7E};
    enum { MAX = 760 };
    uint32_t cps[MAX], cps8[MAX];
    uint8_t len8[MAX]; /* UTF-8 bytes of each of cps8 */
    th_bytes u8 = {0};
    th_units u16 = {0};
    th_expect x8, x16;
    memset(&x8, 0, sizeof x8);
    memset(&x16, 0, sizeof x16);
    unsigned long before = t->failed;
    uint32_t seed = 0x2022;
    for (unsigned stream = 0; stream < 120; stream++) {
        size_t n = 0, n8 = 0;
        u8.len = 0;
        u16.len = 0;
        while (n < 700) {
            uint32_t what = turns_random(&seed) % 16;
            size_t length = 1 + turns_random(&seed) % (what < 6 ? 70 : 40);
            for (size_t i = 0; i < length && n < 700; i++) {
                uint32_t cp = what < 6 ? (turns_random(&seed) % 50 == 0
                                              ? ascii_odd[turns_random(&seed) % 5]
                                              : 0x20 + turns_random(&seed) % 0x5F)
                                       : jis[turns_random(&seed) % n_jis];
                len8[n8] = (uint8_t)th_utf8_len(cp);
                cps[n++] = cps8[n8++] = cp;
                th_bytes_cp(&u8, cp);
                th_units_cp(&u16, cp);
            }
            if (what == 15) {
                uint32_t cp = odd[turns_random(&seed) % 8];
                len8[n8] = (uint8_t)th_utf8_len(cp);
                cps[n++] = cps8[n8++] = cp;
                th_bytes_cp(&u8, cp);
                th_units_cp(&u16, cp);
            } else if (what == 14) {
                /* ill-formed UTF-8 (U+FFFD in UTF-16): a lone 0xB0, whose
                 * value as a code point jis0208 has, or the first two
                 * bytes of U+65E5 */
                bool lone = turns_random(&seed) % 2;
                th_bytes_byte(&u8, lone ? 0xB0 : 0xE6);
                if (!lone)
                    th_bytes_byte(&u8, 0x97);
                len8[n8] = lone ? 1 : 2;
                cps[n++] = cps8[n8++] = 0xFFFD;
                th_units_cp(&u16, 0xFFFD);
            }
        }
        /* ref_encode() over UTF-8 but with each ill-formed piece's own
         * length */
        xe_reset(&x8);
        int state = E_ASCII;
        uint64_t off = 0;
        for (size_t i = 0; i < n8; i++) {
            iso_encode_cp(d, &state, cps8[i], off, len8[i], &x8);
            off += len8[i];
        }
        if (state != E_ASCII) {
            static const uint8_t to_ascii[3] = {0x1B, 0x28, 0x42};
            xe_bytes(&x8, to_ascii, 3);
        }
        ref_encode(d, WENC_ISO_2022_JP, cps, n, true, &x16);
        char label[48];
        snprintf(label, sizeof label, "ISO-2022-JP turns, stream %u", stream);
        light_encode(t, c, WENC_ISO_2022_JP, u8.p, u8.len, false, false, &x8,
                     label);
        light_encode(t, c, WENC_ISO_2022_JP, u16.p, u16.len, true, false,
                     &x16, label);
        light_encode(t, c, WENC_ISO_2022_JP, u8.p, u8.len, false, true, &x8,
                     label);
        light_encode(t, c, WENC_ISO_2022_JP, u16.p, u16.len, true, true,
                     &x16, label);
        /* in chunks, into little room */
        for (int utf16 = 0; utf16 < 2; utf16++) {
            size_t len = utf16 ? u16.len : u8.len;
            size_t splits[3] = {len / 4 + stream % 7, len / 2 + stream % 5,
                                3 * len / 4 + stream % 3};
            th_enc_opts o = {WENC_ISO_2022_JP, WENC_ERRORS_HTML, utf16 != 0,
                             splits, 3, 64 + stream % 78};
            th_enc_result r;
            expected_output(c, utf16 ? &x16 : &x8, false, true, false);
            th_ctx(t, "%s, %s, in chunks, %zu bytes of room", label,
                   utf16 ? "from UTF-16" : "from UTF-8", o.capacity);
            if (th_encode(&o, utf16 ? (const void *)u16.p : (const void *)u8.p,
                          len, &r))
                CHECK_BYTES(t, "output", c->e8.p, c->e8.len, r.out.p,
                            r.out.len);
            else
                CHECKF(t, false, "%s", r.problem);
            th_enc_result_free(&r);
            th_ctx_clear(t);
        }
    }
    th_note(t, "ISO-2022-JP turns: 120 streams, %lu failures",
            t->failed - before);
    free(jis);
    th_bytes_free(&u8);
    th_units_free(&u16);
    th_expect_free(&x8);
    th_expect_free(&x16);
}

/* ------------------------------------------------------------------------ */
/* Hand-written expectations (they also pin the reference code above)        */
/* ------------------------------------------------------------------------ */

static void hand_gb18030(th *t, const data *d)
{
    /* four-byte boundaries: pointer 0, 7457, 39419, 39420, 188999, 189000,
     * 1237575, 1237576 */
    static const struct {
        const char *in, *out;
    } dec[] = {
        {"81 30 81 30", "80"},
        {"81 35 F4 37", "E7C7"},
        {"84 31 A4 39", "FFFF"},
        {"84 31 A5 30", "!0+4"},
        {"8F 39 FE 39", "!0+4"},
        {"90 30 81 30", "10000"},
        {"E3 32 9A 35", "10FFFF"},
        {"E3 32 9A 36", "!0+4"},
        {"FE 39 FE 39 'A'", "!0+4 'A'"},
        {"80 FF 'A'", "20AC !1+1 'A'"},
        {"A2 E3", "20AC"},
        {"A1 A1 A3 A0", "3000 3000"},
        {"81 40 FE FE", "4E02 E4C5"},
        {"81 7F 'A'", "!0+1 7F 'A'"},
        {"81 FF 'A'", "!0+2 'A'"},
        {"81 30 'A'", "!0+1 '0A'"},
        {"81 30 81 'A'", "!0+1 '0' 4E04"},
        {"81 30 81 FF", "!0+1 '0' !2+2"},
        {"81 30 81", "!0+3"},
        {"81 30", "!0+2"},
        {"81", "!0+1"},
    };
    for (size_t i = 0; i < sizeof dec / sizeof dec[0]; i++) {
        th_check_decode(t, WENC_GB18030, WENC_BOM_KEEP, dec[i].in, dec[i].out,
                        WENC_GB18030);
        th_check_decode(t, WENC_GBK, WENC_BOM_KEEP, dec[i].in, dec[i].out,
                        WENC_GBK);
    }
    th_check_encode(t, WENC_GB18030, false, "C2 80", "81 30 81 30");
    th_check_encode(t, WENC_GBK, false, "C2 80", "!80@0+2");
    th_check_encode(t, WENC_GB18030, false, "EE 9F 87", "81 35 F4 37");
    th_check_encode(t, WENC_GBK, false, "EE 9F 87", "!E7C7@0+3");
    th_check_encode(t, WENC_GB18030, false, "EF BF BF", "84 31 A4 39");
    th_check_encode(t, WENC_GB18030, true, "D800 DC00 DBFF DFFF",
                    "90 30 81 30 E3 32 9A 35");
    th_check_encode(t, WENC_GBK, true, "D800 DC00", "!10000@0+2");
    th_check_encode(t, WENC_GB18030, false, "E2 82 AC", "A2 E3");
    th_check_encode(t, WENC_GBK, false, "E2 82 AC", "80");
    th_check_encode(t, WENC_GB18030, false, "EE 97 A5 'x'", "!E5E5@0+3 'x'");
    th_check_encode(t, WENC_GBK, true, "E5E5 'x'", "!E5E5@0+1 'x'");
    th_check_encode(t, WENC_GB18030, false, "E3 80 80", "A1 A1");
    /* the 18 GB18030-2022 changes: the new code points decode from and
     * encode to the two bytes; the old Private Use ones still encode there */
    for (size_t i = 0; i < 18; i++) {
        const pua_row *r = &pua18[i];
        uint32_t ptr = (uint32_t)(r->b1 - 0x81) * 190 +
                       (uint32_t)(r->b2 - (r->b2 < 0x7F ? 0x40 : 0x41));
        CHECKF(t, ptr == r->pointer, "test bug: table row %zu", i);
        if (d->has_gb)
            CHECKF(t, th_index_cp(&d->gb, r->pointer) == r->now,
                   "index gb18030 pointer %lu is U+%04lX, DESIGN.md says "
                   "U+%04lX",
                   (unsigned long)r->pointer,
                   (unsigned long)th_index_cp(&d->gb, r->pointer),
                   (unsigned long)r->now);
        char in[32], out[32];
        snprintf(in, sizeof in, "%02X %02X", r->b1, r->b2);
        snprintf(out, sizeof out, "%lX", (unsigned long)r->now);
        for (int gbk = 0; gbk < 2; gbk++) {
            wenc_id id = gbk ? WENC_GBK : WENC_GB18030;
            th_check_decode(t, id, WENC_BOM_KEEP, in, out, id);
            snprintf(out, sizeof out, "%lX", (unsigned long)r->pua);
            th_check_encode(t, id, true, out, in);
            snprintf(out, sizeof out, "%lX", (unsigned long)r->now);
            th_check_encode(t, id, true, out, in);
        }
    }
}

static void hand_others(th *t)
{
    /* Big5: two code points for four pointers; pointers below 5024 are not
     * used by the encoder; six code points take their last pointer */
    th_check_decode(t, WENC_BIG5, WENC_BOM_KEEP, "88 62 88 64 88 A3 88 A5",
                    "CA 304 CA 30C EA 304 EA 30C", WENC_BIG5);
    th_check_decode(t, WENC_BIG5, WENC_BOM_KEEP, "87 40 88 66 A4 51 F9 F9",
                    "43F0 CA 5341 2550", WENC_BIG5);
    th_check_decode(t, WENC_BIG5, WENC_BOM_KEEP, "81 'A' 81 80 'A' FF 80",
                    "!0+1 'A' !2+2 'A' !5+1 !6+1", WENC_BIG5);
    th_check_encode(t, WENC_BIG5, true, "43F0 CA EA 304",
                    "!43F0@0+1 !CA@1+1 !EA@2+1 !304@3+1");
    th_check_encode(t, WENC_BIG5, true, "2550 255E 2561 256A 5341 5345",
                    "F9F9 F9E9 F9EB F9EA A451 A4CA");
    th_check_encode(t, WENC_BIG5, false, "C2 80", "!80@0+2");
    /* EUC-JP */
    th_check_decode(t, WENC_EUC_JP, WENC_BOM_KEEP,
                    "A1 DD 8E A1 8E DF 8F B0 A1 A4 A2 5C 7E",
                    "FF0D FF61 FF9F 4E02 3042 5C 7E", WENC_EUC_JP);
    th_check_decode(t, WENC_EUC_JP, WENC_BOM_KEEP,
                    "8F A1 'A' 8F 'A' 8E E0 8E 'A' A1 A1", 
                    "!0+2 'A' !3+1 'A' !5+2 !7+1 'A' 3000", WENC_EUC_JP);
    th_check_decode(t, WENC_EUC_JP, WENC_BOM_KEEP, "8F A1 A1 'A'",
                    "!0+3 'A'", WENC_EUC_JP);
    th_check_encode(t, WENC_EUC_JP, true, "A5 203E 2212 FF0D FF61 FF9F",
                    "5C 7E A1DD A1DD 8EA1 8EDF");
    th_check_encode(t, WENC_EUC_JP, true, "2170 FFE2 4E02 E000 80",
                    "FCF1 A2CC !4E02@2+1 !E000@3+1 !80@4+1");
    /* Shift_JIS */
    th_check_decode(t, WENC_SHIFT_JIS, WENC_BOM_KEEP,
                    "80 A1 DF F0 40 F9 FC FA 40 81 7C 5C 7E",
                    "80 FF61 FF9F E000 E757 2170 FF0D 5C 7E", WENC_SHIFT_JIS);
    th_check_decode(t, WENC_SHIFT_JIS, WENC_BOM_KEEP, "A0 FD FE FF 81 7F 'A'",
                    "!0+1 !1+1 !2+1 !3+1 !4+1 7F 'A'", WENC_SHIFT_JIS);
    th_check_encode(t, WENC_SHIFT_JIS, true, "80 A5 203E 2212 FF61 FF9F",
                    "80 5C 7E 817C A1 DF");
    th_check_encode(t, WENC_SHIFT_JIS, true, "2170 FFE2 E000 E757",
                    "FA40 81CA !E000@2+1 !E757@3+1");
    /* EUC-KR */
    th_check_decode(t, WENC_EUC_KR, WENC_BOM_KEEP, "81 41 B0 A1 A1 A1",
                    "AC02 AC00 3000", WENC_EUC_KR);
    th_check_decode(t, WENC_EUC_KR, WENC_BOM_KEEP, "81 40 81 FF 80",
                    "!0+1 40 !2+2 !4+1", WENC_EUC_KR);
    th_check_encode(t, WENC_EUC_KR, true, "AC02 AC00 3000 80",
                    "8141 B0A1 A1A1 !80@3+1");
    /* ISO-2022-JP: katakana through index ISO-2022-JP katakana, state
     * switches, the closing ESC ( B */
    th_check_encode(t, WENC_ISO_2022_JP, true, "FF61 'A'",
                    "1B2442 2123 1B2842 'A'");
    th_check_encode(t, WENC_ISO_2022_JP, true, "FF9E FF9F",
                    "1B2442 212B 212C 1B2842");
    th_check_encode(t, WENC_ISO_2022_JP, true, "2212 2170",
                    "1B2442 215D 7C71 1B2842");
    th_check_encode(t, WENC_ISO_2022_JP, true, "A5 'a' 203E",
                    "1B284A 5C 'a' 7E 1B2842");
    th_check_decode(t, WENC_ISO_2022_JP, WENC_BOM_KEEP,
                    "1B 24 42 21 23 1B 28 49 21 5F 1B 28 4A 5C 7E 1B 28 42 5C",
                    "3002 FF61 FF9F A5 203E 5C", WENC_ISO_2022_JP);
}

int main(void)
{
    th t;
    TH_BEGIN_SIMD(&t, "test_mb_index");
    if (!th_cjk(&t, "every check: all are of the legacy multi-byte encodings"))
        return th_end(&t);
    data d;
    data_load(&d);
    if (!d.has_gb && !d.has_ranges && !d.has_big5 && !d.has_j208 &&
        !d.has_j212 && !d.has_kr && !d.has_kata) {
        th_skip(&t, TH_SKIP_DATA, "every check: no multi-byte index in %s",
                th_data_dir());
        data_free(&d);
        return th_end(&t);
    }
    lctx c;
    memset(&c, 0, sizeof c);

    if (have(&d, WENC_GB18030)) {
        decode_gb18030_two_byte(&t, &c, &d, WENC_GB18030);
        decode_gb18030_two_byte(&t, &c, &d, WENC_GBK);
        decode_gb18030_four_byte(&t, &c, &d, WENC_GB18030);
        decode_gb18030_four_byte(&t, &c, &d, WENC_GBK);
        hand_gb18030(&t, &d);
    } else {
        th_skip(&t, TH_SKIP_DATA, "gb18030/GBK (index-gb18030.txt or "
                    "index-gb18030-ranges.txt absent)");
    }
    if (have(&d, WENC_BIG5))
        decode_big5(&t, &c, &d);
    else
        th_skip(&t, TH_SKIP_DATA, "Big5 decoding (index-big5.txt absent)");
    if (have(&d, WENC_EUC_JP))
        decode_euc_jp(&t, &c, &d);
    else
        th_skip(&t, TH_SKIP_DATA, "EUC-JP decoding (jis0208/jis0212 absent)");
    if (have(&d, WENC_SHIFT_JIS))
        decode_shift_jis(&t, &c, &d);
    else
        th_skip(&t, TH_SKIP_DATA, "Shift_JIS decoding (index-jis0208.txt absent)");
    if (have(&d, WENC_ISO_2022_JP))
        decode_iso_2022_jp(&t, &c, &d);
    else
        th_skip(&t, TH_SKIP_DATA, "ISO-2022-JP decoding (jis0208/katakana absent)");
    if (have(&d, WENC_EUC_KR))
        decode_euc_kr(&t, &c, &d);
    else
        th_skip(&t, TH_SKIP_DATA, "EUC-KR decoding (index-euc-kr.txt absent)");

    sweep_all(&t, &c, &d);

    static const wenc_id pair_ids[6] = {WENC_GB18030, WENC_GBK, WENC_BIG5,
                                        WENC_EUC_JP, WENC_SHIFT_JIS,
                                        WENC_EUC_KR};
    for (size_t i = 0; i < 6; i++) {
        if (have(&d, pair_ids[i]))
            long_streams(&t, &c, &d, pair_ids[i]);
        else
            th_skip(&t, TH_SKIP_DATA, "%s long streams (index data absent)",
                    wenc_name(pair_ids[i]));
    }

    static const wenc_id enc_ids[7] = {WENC_GB18030, WENC_GBK, WENC_BIG5,
                                       WENC_EUC_JP, WENC_ISO_2022_JP,
                                       WENC_SHIFT_JIS, WENC_EUC_KR};
    for (size_t i = 0; i < 7; i++) {
        if (have(&d, enc_ids[i]))
            encode_all(&t, &c, &d, enc_ids[i]);
        else
            th_skip(&t, TH_SKIP_DATA, "%s encoder (index data absent)",
                    wenc_name(enc_ids[i]));
    }
    static const wenc_id pair_encoders[6] = {WENC_GB18030, WENC_GBK,
                                             WENC_BIG5, WENC_EUC_JP,
                                             WENC_SHIFT_JIS, WENC_EUC_KR};
    for (size_t i = 0; i < 6; i++) {
        if (have(&d, pair_encoders[i]))
            encode_ill_formed_utf8(&t, &d, pair_encoders[i]);
        else
            th_skip(&t, TH_SKIP_DATA, "%s from ill-formed UTF-8 (index data absent)",
                    wenc_name(pair_encoders[i]));
    }
    if (have(&d, WENC_ISO_2022_JP))
        encode_turns(&t, &c, &d);
    else
        th_skip(&t, TH_SKIP_DATA, "ISO-2022-JP turns (index data absent)");
    if (have(&d, WENC_BIG5) && have(&d, WENC_EUC_JP) &&
        have(&d, WENC_ISO_2022_JP) && have(&d, WENC_EUC_KR))
        hand_others(&t);
    else
        th_skip(&t, TH_SKIP_DATA, "hand-written Big5/Japanese/Korean checks "
                    "(index data absent)");

    th_note(&t, "%lu light runs", c.runs);
    lctx_free(&c);
    data_free(&d);
    return th_end(&t);
}
