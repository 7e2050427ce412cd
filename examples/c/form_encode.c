/*
 * form_encode.c — the Standard's "encode" (§6.1), the legacy hook HTML uses
 * for form submission: text goes into a legacy encoding, and a character
 * the encoding cannot represent becomes an HTML numeric character
 * reference "&#N;".
 *
 *   form_encode TEXT [LABEL...]
 *
 * TEXT is UTF-8 (ill-formed bytes are read as U+FFFD). For each LABEL
 * (default: windows-1252 Shift_JIS) prints one line
 *
 *   NAME: HEX BYTES
 *
 * where NAME is the encoding written ("get an output encoding": a label of
 * UTF-16BE/LE or replacement writes UTF-8). Exit status 2 for a usage error
 * or a LABEL that is not a label.
 */
#include <wenc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int encode_one(const char *text, const char *label)
{
    wenc_id id = wenc_lookup(label, strlen(label));
    if (id == WENC_INVALID) {
        fprintf(stderr, "form_encode: '%s' is not an encoding label\n",
                label);
        return 2;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    /* encode applies get an output encoding itself */
    if (wenc_hook_encode((const uint8_t *)text, strlen(text), id, &bytes,
                         &len) != WENC_OK) {
        fprintf(stderr, "form_encode: out of memory\n");
        return 1;
    }
    printf("%s:", wenc_name(wenc_output_encoding(id)));
    for (size_t i = 0; i < len; i++)
        printf(" %02X", bytes[i]);
    printf("\n");
    free(bytes);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: form_encode TEXT [LABEL...]\n");
        return 2;
    }
    static const char *const defaults[] = {"windows-1252", "Shift_JIS"};
    const char *const *labels = defaults;
    int nlabels = 2;
    if (argc > 2) {
        labels = (const char *const *)(argv + 2);
        nlabels = argc - 2;
    }
    for (int i = 0; i < nlabels; i++) {
        int rc = encode_one(argv[1], labels[i]);
        if (rc != 0)
            return rc;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
