/*
 * test_built_in.c — which encodings this libwenc has (wenc_is_built_in()),
 * and the exact answer of every function that would decode or encode with
 * one it was built without (cmake -DWENC_CJK=OFF): false from the inits,
 * WENC_NOT_BUILT_IN from the hooks, WENC_TEXT_NOT_BUILT_IN from
 * new TextDecoder, never another encoding. The expectations come from the
 * configuration (WENC_TEST_CJK, which CMake sets from WENC_CJK) and the
 * Standard's names and labels; in the default build the same calls must
 * succeed, with output worked out from index jis0208 and index EUC-KR.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* The seven legacy multi-byte encodings, with the Standard's name and one
 * label of each (encodings.json). */
static const struct {
    wenc_id id;
    const char *name;
    const char *label;
} cjk[] = {
    {WENC_GBK, "GBK", "x-gbk"},
    {WENC_GB18030, "gb18030", "gb18030"},
    {WENC_BIG5, "Big5", "big5-hkscs"},
    {WENC_EUC_JP, "EUC-JP", "x-euc-jp"},
    {WENC_ISO_2022_JP, "ISO-2022-JP", "csiso2022jp"},
    {WENC_SHIFT_JIS, "Shift_JIS", "sjis"},
    {WENC_EUC_KR, "EUC-KR", "korean"},
};
#define CJK_COUNT (sizeof cjk / sizeof cjk[0])

static bool is_cjk(int id)
{
    for (size_t i = 0; i < CJK_COUNT; i++)
        if ((int)cjk[i].id == id)
            return true;
    return false;
}

static void test_query(th *t)
{
    bool has = th_has_cjk();
    th_note(t, "configuration: the legacy multi-byte encodings are %s",
            has ? "built in" : "left out (-DWENC_CJK=OFF)");
    for (int id = 0; id < WENC_ENCODING_COUNT; id++) {
        th_ctx(t, "id %d (%s)", id, wenc_name((wenc_id)id));
        CHECK(t, wenc_is_built_in((wenc_id)id) == (has || !is_cjk(id)));
    }
    th_ctx_clear(t);
    CHECK_EQ(t, "ids of the seven", 7, CJK_COUNT);
    CHECK(t, !wenc_is_built_in(WENC_INVALID));
    CHECK(t, !wenc_is_built_in(WENC_ENCODING_COUNT));
    CHECK(t, !wenc_is_built_in((wenc_id)1000));
    /* the values are ABI */
    CHECK_EQ(t, "WENC_NOT_BUILT_IN", 4, WENC_NOT_BUILT_IN);
    CHECK_EQ(t, "WENC_TEXT_NOT_BUILT_IN", 4, WENC_TEXT_NOT_BUILT_IN);
}

/* What the Standard says of them holds in every build. */
static void test_labels_still_resolve(th *t)
{
    for (size_t i = 0; i < CJK_COUNT; i++) {
        th_ctx(t, "%s", cjk[i].name);
        CHECK(t, wenc_lookup(cjk[i].label, strlen(cjk[i].label)) == cjk[i].id);
        CHECK(t, wenc_name(cjk[i].id) != NULL &&
                     strcmp(wenc_name(cjk[i].id), cjk[i].name) == 0);
        CHECK(t, wenc_output_encoding(cjk[i].id) == cjk[i].id);
        CHECK(t, wenc_has_encoder(cjk[i].id));
    }
    th_ctx_clear(t);
    CHECK_EQ(t, "labels", 228, wenc_label_count());
}

static void test_inits(th *t)
{
    bool has = th_has_cjk();
    static const wenc_bom_mode boms[3] = {WENC_BOM_SNIFF, WENC_BOM_STRIP,
                                          WENC_BOM_KEEP};
    for (size_t i = 0; i < CJK_COUNT; i++) {
        th_ctx(t, "%s", cjk[i].name);
        for (size_t b = 0; b < 3; b++) {
            wenc_decoder dec;
            CHECK(t, wenc_decoder_init(&dec, cjk[i].id, boms[b],
                                       WENC_ERRORS_REPLACEMENT) == has);
            CHECK(t, wenc_decoder_init(&dec, cjk[i].id, boms[b],
                                       WENC_ERRORS_FATAL) == has);
        }
        wenc_encoder enc;
        CHECK(t, wenc_encoder_init(&enc, cjk[i].id, WENC_ERRORS_HTML) == has);
        CHECK(t, wenc_encoder_init(&enc, cjk[i].id, WENC_ERRORS_FATAL) == has);
        /* the UTF-16 output extension takes UTF-16LE/BE only, as ever */
        CHECK(t, !wenc_encoder_init_utf16(&enc, cjk[i].id, false));
        wenc_text_decoder td;
        for (int fatal = 0; fatal < 2; fatal++)
            CHECK(t, wenc_text_decoder_init(&td, cjk[i].label,
                                            strlen(cjk[i].label), fatal != 0,
                                            false) ==
                         (has ? WENC_TEXT_OK : WENC_TEXT_NOT_BUILT_IN));
    }
    th_ctx_clear(t);
    /* the other encodings, and the other answers, are as before */
    wenc_decoder dec;
    wenc_encoder enc;
    wenc_text_decoder td;
    CHECK(t, wenc_decoder_init(&dec, WENC_WINDOWS_1252, WENC_BOM_SNIFF,
                               WENC_ERRORS_REPLACEMENT));
    CHECK(t, wenc_encoder_init(&enc, WENC_X_USER_DEFINED, WENC_ERRORS_HTML));
    CHECK(t, wenc_encoder_init(&enc, WENC_REPLACEMENT, WENC_ERRORS_HTML));
    CHECK(t, !wenc_decoder_init(&dec, WENC_INVALID, WENC_BOM_SNIFF,
                                WENC_ERRORS_REPLACEMENT));
    CHECK(t, !wenc_encoder_init(&enc, WENC_ENCODING_COUNT, WENC_ERRORS_HTML));
    CHECK(t, wenc_text_decoder_init(&td, "iso-2022-kr", 11, false, false) ==
                 WENC_TEXT_RANGE_ERROR);
    CHECK(t, wenc_text_decoder_init(&td, "shift-jis!", 10, false, false) ==
                 WENC_TEXT_RANGE_ERROR);
    CHECK(t, wenc_text_decoder_init(&td, "koi8-u", 6, false, false) ==
                 WENC_TEXT_OK);
}

/* A hook's result: the status, and *out / *out_len as the header says
 * (out was `poison` before the call, out_len 99). */
static void check_hook(th *t, int line, wenc_result r, wenc_result want,
                       uint8_t *out, size_t out_len, const char *bytes,
                       size_t n, const uint8_t *poison)
{
    th_check_u64(t, __FILE__, line, "result", want, r);
    if (want == WENC_OK) {
        th_check_bytes(t, __FILE__, line, "output", (const uint8_t *)bytes, n,
                       out, out_len);
    } else {
        th_check(t, out == NULL, __FILE__, line, "*out is not NULL");
        th_check_u64(t, __FILE__, line, "*out_len", 0, out_len);
    }
    if (out != poison)
        free(out);
}

static void test_hooks(th *t)
{
    bool has = th_has_cjk();
    wenc_result want = has ? WENC_OK : WENC_NOT_BUILT_IN;
    uint8_t *poison = malloc(1);
    uint8_t *out;
    size_t out_len;
    wenc_id used;
    wenc_result r;

    /* U+3042: Shift_JIS 82 A0 (index jis0208 pointer 283 = (0x82 - 0x81) *
     * 188 + 0xA0 - 0x41), EUC-KR AA A2 (index EUC-KR pointer 7887 =
     * (0xAA - 0x81) * 190 + 0xA2 - 0x41), UTF-8 E3 81 82 */
    static const uint8_t sjis[] = {0x82, 0xA0};
    static const uint8_t bom_a[] = {0xEF, 0xBB, 0xBF, 0x41};
    out = poison, out_len = 99;
    used = WENC_INVALID;
    r = wenc_hook_decode(sjis, 2, WENC_SHIFT_JIS, &out, &out_len, &used);
    check_hook(t, __LINE__, r, want, out, out_len, "\xE3\x81\x82", 3,
               poison);
    CHECK(t, used == (has ? WENC_SHIFT_JIS : WENC_INVALID));
    /* a BOM would choose UTF-8, but the fallback is checked first */
    out = poison, out_len = 99;
    r = wenc_hook_decode(bom_a, 4, WENC_GB18030, &out, &out_len, NULL);
    check_hook(t, __LINE__, r, want, out, out_len, "A", 1, poison);
    out = poison, out_len = 99;
    r = wenc_hook_encode((const uint8_t *)"\xE3\x81\x82", 3, WENC_EUC_KR,
                         &out, &out_len);
    check_hook(t, __LINE__, r, want, out, out_len, "\xAA\xA2", 2, poison);
    out = poison, out_len = 99;
    r = wenc_hook_encode((const uint8_t *)"A", 1, WENC_ISO_2022_JP, &out,
                         &out_len);
    check_hook(t, __LINE__, r, want, out, out_len, "A", 1, poison);
    /* argument errors come before it */
    out = poison, out_len = 99;
    r = wenc_hook_decode(NULL, 2, WENC_SHIFT_JIS, &out, &out_len, NULL);
    check_hook(t, __LINE__, r, WENC_INVALID_ARGUMENT, out, out_len, NULL, 0,
               poison);
    out = poison, out_len = 99;
    r = wenc_hook_encode((const uint8_t *)"A", 1, WENC_ENCODING_COUNT, &out,
                         &out_len);
    check_hook(t, __LINE__, r, WENC_INVALID_ARGUMENT, out, out_len, NULL, 0,
               poison);
    /* and the encodings built into every library still work */
    out = poison, out_len = 99;
    r = wenc_hook_encode((const uint8_t *)"\xE2\x82\xAC", 3,
                         WENC_WINDOWS_1252, &out, &out_len);
    check_hook(t, __LINE__, r, WENC_OK, out, out_len, "\x80", 1, poison);
    free(poison);
}

int main(void)
{
    th t;
    th_begin(&t, "test_built_in");
    test_query(&t);
    test_labels_still_resolve(&t);
    test_inits(&t);
    test_hooks(&t);
    return th_end(&t);
}
