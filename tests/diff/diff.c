/*
 * diff: differential testing of wenc against encoding_rs.
 *
 * Generates cases (gen.c), runs each through wenc in random chunks with
 * random output capacities (wenc_side.c) and, in one piece, through the
 * oracle program built from tests/oracle (oracle.c), batch by batch, the
 * oracle working on one core while wenc works on the other. Outputs, the
 * encoding used, and in fatal modes every error (offset, length, code
 * point, output written before it) must be equal, after the known
 * differences (known_differences.c) are applied to encoding_rs's side.
 * A failing case is shrunk before it is printed.
 *
 * usage: diff --oracle PATH --tmp DIR [--cases N] [--seed S]
 *             [--corpus DIR] [--batch N] [--only INDEX] [--reports N]
 *             [--inject-fault INDEX]
 *
 * --reports N: shrink and print up to N failures of distinct kinds
 * (encoding, operation, modes, what differs); default 1.
 * --inject-fault INDEX: appends a byte to wenc's output of case INDEX, to
 * check that the run then fails (run.sh does this first).
 */
#define _POSIX_C_SOURCE 200809L
#include "diff.h"
#include "known_differences.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct options {
    const char *program;
    const char *oracle;
    const char *tmp;
    const char *corpus;
    uint64_t cases;
    uint64_t seed;
    size_t batch;
    long long only;
    long long inject;
    size_t reports;
} options;

typedef struct stats {
    uint64_t cases;
    uint64_t by_kind[3];
    uint64_t fatal_errors;
    uint64_t known_cases;
    uint64_t known_fixes;
    uint64_t input_bytes;
    uint64_t output_bytes;
    uint64_t calls;
    uint64_t output_full;
    uint64_t empty_chunks;
    uint64_t failures;
} stats;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *bom_mode_name(unsigned mode)
{
    static const char *const names[] = {"WENC_BOM_SNIFF (new_decoder)",
                                        "WENC_BOM_STRIP (new_decoder_with_bom_removal)",
                                        "WENC_BOM_KEEP (new_decoder_without_bom_handling)"};
    return mode < 3 ? names[mode] : "?";
}

static void describe_case(FILE *out, const diff_case *c)
{
    bool fatal = (c->flags & DIFF_FLAG_FATAL) != 0;
    bool utf16 = (c->flags & DIFF_FLAG_UTF16) != 0;
    if (c->kind == DIFF_DECODE)
        fprintf(out, "decode %s, %s, %s, to %s", wenc_name(c->id),
                bom_mode_name(c->flags & DIFF_BOM_MASK),
                fatal ? "fatal" : "replacement", utf16 ? "UTF-16" : "UTF-8");
    else
        fprintf(out, "encode %s, %s, from %s", wenc_name(c->id),
                fatal ? "fatal" : "html", utf16 ? "UTF-16" : "UTF-8");
}

static void print_hex(FILE *out, const char *label, const diff_bytes *b, bool units)
{
    fprintf(out, "  %s (%zu %s):", label, units ? b->len / 2 : b->len,
            units ? "code units" : "bytes");
    for (size_t i = 0; i < b->len; i += units ? 2 : 1) {
        if (units)
            fprintf(out, " %04X", (unsigned)(b->data[i] | b->data[i + 1] << 8));
        else
            fprintf(out, " %02X", b->data[i]);
    }
    fprintf(out, "\n");
}

static void print_errors(FILE *out, const char *label, const diff_outcome *o)
{
    fprintf(out, "  %s errors: %zu\n", label, o->error_count);
    for (size_t i = 0; i < o->error_count; i++) {
        const diff_error *e = &o->errors[i];
        fprintf(out, "    offset %llu length %u", (unsigned long long)e->offset,
                (unsigned)e->length);
        if (e->code_point)
            fprintf(out, " code point U+%04X", (unsigned)e->code_point);
        fprintf(out, ", reported after consuming %llu, output before it %llu\n",
                (unsigned long long)e->stop, (unsigned long long)e->output_position);
    }
}

/* Why w (wenc) and o (encoding_rs, known differences applied) differ;
 * NULL when they do not. Where each stopped (how much input was consumed
 * when the error was reported) is not compared: the Standard re-reads
 * bytes it "prepends" to the stream, and whether a decoder counts such
 * look-ahead bytes as consumed is its own choice (with small chunks wenc
 * has consumed them in an earlier call); the malformed sequence's offset
 * and length and the output before it are what the Standard fixes. */
static const char *compare(const diff_outcome *w, const diff_outcome *o,
                           char *why, size_t size)
{
    if (w->problem[0]) {
        snprintf(why, size, "wenc broke an API promise: %s", w->problem);
        return why;
    }
    if (strcmp(w->encoding, o->encoding) != 0) {
        snprintf(why, size, "encoding used: wenc %s, encoding_rs %s", w->encoding,
                 o->encoding);
        return why;
    }
    if (w->output.len != o->output.len ||
        (w->output.len && memcmp(w->output.data, o->output.data, w->output.len) != 0)) {
        size_t at = 0;
        while (at < w->output.len && at < o->output.len &&
               w->output.data[at] == o->output.data[at])
            at++;
        snprintf(why, size, "output differs from byte %zu (lengths wenc %zu, encoding_rs %zu)",
                 at, w->output.len, o->output.len);
        return why;
    }
    if (w->error_count != o->error_count) {
        snprintf(why, size, "error count: wenc %zu, encoding_rs %zu", w->error_count,
                 o->error_count);
        return why;
    }
    for (size_t i = 0; i < w->error_count; i++) {
        const diff_error *a = &w->errors[i], *b = &o->errors[i];
        if (a->offset != b->offset || a->length != b->length ||
            a->code_point != b->code_point || a->output_position != b->output_position) {
            snprintf(why, size, "error %zu differs", i);
            return why;
        }
    }
    return NULL;
}

static bool run_batch(const options *opt, diff_case *cases, size_t count,
                      diff_outcome *wenc_out, diff_outcome *oracle_out)
{
    diff_oracle_job job;
    if (!oracle_start(&job, opt->oracle, opt->tmp, cases, count))
        return false;
    for (size_t i = 0; i < count; i++)
        wenc_run(&cases[i], &wenc_out[i], NULL);
    memset(oracle_out, 0, count * sizeof *oracle_out);
    return oracle_finish(&job, cases, oracle_out, count);
}

static void remove_units(diff_case *dst, const diff_case *src, size_t at, size_t len)
{
    case_copy(dst, src);
    memmove(dst->input.data + at, dst->input.data + at + len, dst->input.len - at - len);
    dst->input.len -= len;
}

/* Shrinks a failing case: drops blocks of input (halves first, then
 * smaller) and tries one-piece wenc input, keeping whatever still fails. */
static bool shrink(const options *opt, diff_case *current)
{
    size_t unit = (current->kind == DIFF_ENCODE && (current->flags & DIFF_FLAG_UTF16)) ? 2 : 1;
    enum { MAX_CANDIDATES = 4096 };
    diff_case *candidates = diff_xmalloc(MAX_CANDIDATES * sizeof *candidates);
    diff_outcome *w = diff_xmalloc(MAX_CANDIDATES * sizeof *w);
    diff_outcome *o = diff_xmalloc(MAX_CANDIDATES * sizeof *o);
    bool ok = true;
    for (int round = 0; round < 200; round++) {
        size_t count = 0;
        if (current->plan_seed != 0) {
            case_copy(&candidates[count], current);
            candidates[count++].plan_seed = 0;
        }
        size_t units = current->input.len / unit;
        for (size_t block = units; block >= 1 && count < MAX_CANDIDATES; block /= 2)
            for (size_t at = 0; at + block <= units && count < MAX_CANDIDATES; at += block)
                remove_units(&candidates[count++], current, at * unit, block * unit);
        if (count == 0)
            break;
        if (!run_batch(opt, candidates, count, w, o)) {
            ok = false;
            count = 0;
        }
        size_t chosen = count;
        char why[300];
        for (size_t i = 0; i < count; i++) {
            if (chosen == count && compare(&w[i], &o[i], why, sizeof why))
                chosen = i;
            outcome_free(&w[i]);
            outcome_free(&o[i]);
        }
        if (chosen < count) {
            case_free(current);
            case_copy(current, &candidates[chosen]);
        }
        for (size_t i = 0; i < count; i++)
            case_free(&candidates[i]);
        if (chosen == count)
            break;
    }
    free(candidates);
    free(w);
    free(o);
    return ok;
}

static void report_failure(const options *opt, const diff_case *c, uint64_t index)
{
    diff_case small;
    case_copy(&small, c);
    printf("\nFAILURE at case %llu (seed %llu, generator %s):\n  ",
           (unsigned long long)index, (unsigned long long)opt->seed, c->generator);
    describe_case(stdout, c);
    printf("\n  rerun just this case: %s --oracle %s --tmp %s --corpus %s --seed %llu --only %llu\n",
           opt->program, opt->oracle, opt->tmp, opt->corpus ? opt->corpus : "NONE",
           (unsigned long long)opt->seed, (unsigned long long)index);
    printf("  input before shrinking: %zu bytes\n", c->input.len);
    if (!shrink(opt, &small))
        printf("  (shrinking stopped: the oracle failed)\n");
    diff_outcome w, o;
    memset(&o, 0, sizeof o);
    run_batch(opt, &small, 1, &w, &o);
    char why[300];
    const char *reason = compare(&w, &o, why, sizeof why);
    bool units_in = c->kind == DIFF_ENCODE && (c->flags & DIFF_FLAG_UTF16);
    bool units_out = c->kind == DIFF_DECODE && (c->flags & DIFF_FLAG_UTF16);
    printf("minimal reproducer: ");
    describe_case(stdout, &small);
    printf("\n  difference: %s\n", reason ? reason : "(none after shrinking?)");
    printf("  wenc chunking (chunk length in %s, then the output capacity of each call):\n   ",
           units_in ? "code units" : "bytes");
    diff_outcome traced;
    wenc_run(&small, &traced, stdout);
    outcome_free(&traced);
    printf("\n");
    print_hex(stdout, "input", &small.input, units_in);
    printf("  encoding used: wenc %s, encoding_rs %s\n", w.encoding, o.encoding);
    print_hex(stdout, "wenc output", &w.output, units_out);
    print_hex(stdout, "encoding_rs output", &o.output, units_out);
    if (o.known_fixes)
        printf("  (encoding_rs's side after %zu known GB18030-2022 corrections)\n",
               o.known_fixes);
    if (small.flags & DIFF_FLAG_FATAL) {
        print_errors(stdout, "wenc", &w);
        print_errors(stdout, "encoding_rs", &o);
    }
    outcome_free(&w);
    outcome_free(&o);
    case_free(&small);
}

/* Failures of one kind: same encoding, operation and modes, and the same
 * sort of difference (the reason up to its first digit). */
static uint64_t failure_kind(const diff_case *c, const char *why)
{
    uint64_t kind = (uint64_t)c->id << 16 | (uint64_t)c->kind << 8 | c->flags;
    for (const char *p = why; *p && (*p < '0' || *p > '9'); p++)
        kind = kind * 31 + (uint8_t)*p;
    return kind;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s)
        return false;
    *v = strtoull(s, &end, 10);
    return *end == '\0';
}

static bool parse_options(int argc, char **argv, options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->program = argv[0];
    opt->cases = 300000;
    opt->batch = 20000;
    opt->only = -1;
    opt->reports = 1;
    opt->inject = -1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        if (!value)
            return false;
        i++;
        if (strcmp(arg, "--oracle") == 0)
            opt->oracle = value;
        else if (strcmp(arg, "--tmp") == 0)
            opt->tmp = value;
        else if (strcmp(arg, "--corpus") == 0)
            opt->corpus = value;
        else if (strcmp(arg, "--cases") == 0 && parse_u64(value, &n))
            opt->cases = n;
        else if (strcmp(arg, "--seed") == 0 && parse_u64(value, &n))
            opt->seed = n;
        else if (strcmp(arg, "--batch") == 0 && parse_u64(value, &n) && n > 0)
            opt->batch = (size_t)n;
        else if (strcmp(arg, "--only") == 0 && parse_u64(value, &n))
            opt->only = (long long)n;
        else if (strcmp(arg, "--inject-fault") == 0 && parse_u64(value, &n))
            opt->inject = (long long)n;
        else if (strcmp(arg, "--reports") == 0 && parse_u64(value, &n))
            opt->reports = (size_t)n;
        else
            return false;
    }
    return opt->oracle && opt->tmp;
}

static void account(stats *st, const diff_case *c, const diff_outcome *w,
                    const diff_outcome *o)
{
    st->cases++;
    st->output_bytes += w->output.len;
    st->calls += w->calls;
    st->output_full += w->output_full;
    st->empty_chunks += w->empty_chunks;
    st->by_kind[c->kind]++;
    st->input_bytes += c->input.len;
    st->fatal_errors += o->error_count;
    if (o->known_fixes) {
        st->known_cases++;
        st->known_fixes += o->known_fixes;
    }
}

int main(int argc, char **argv)
{
    options opt;
    if (!parse_options(argc, argv, &opt)) {
        fprintf(stderr, "usage: diff --oracle PATH --tmp DIR [--cases N] [--seed S] "
                        "[--corpus DIR] [--batch N] [--only INDEX] [--reports N] "
                        "[--inject-fault INDEX]\n");
        return 2;
    }
    diff_corpus *corpus = corpus_load(opt.corpus);
    bool have_corpus = corpus != NULL;
    if (!have_corpus)
        printf("\n*** SKIPPED generator \"corpus\": no corpus files in %s ***\n"
               "*** (the other generators run; corpus-based cases are not tested) ***\n\n",
               opt.corpus ? opt.corpus : "(no --corpus given)");
    uint64_t first = opt.only >= 0 ? (uint64_t)opt.only : 0;
    uint64_t end = opt.only >= 0 ? first + 1 : opt.cases;
    printf("differential test against encoding_rs: %llu cases, seed %llu, "
           "%zu combinations of encoding x operation x modes in turn\n",
           (unsigned long long)(end - first), (unsigned long long)opt.seed,
           gen_combination_count());
    fflush(stdout);
    double start = now_seconds();
    stats st;
    memset(&st, 0, sizeof st);
    diff_case *cases = diff_xmalloc(opt.batch * sizeof *cases);
    diff_outcome *w = diff_xmalloc(opt.batch * sizeof *w);
    diff_outcome *o = diff_xmalloc(opt.batch * sizeof *o);
    bool oracle_ok = true;
    uint64_t *reported = diff_xmalloc((opt.reports + 1) * sizeof *reported);
    size_t reported_count = 0;
    for (uint64_t at = first; at < end && oracle_ok; at += opt.batch) {
        size_t count = (size_t)(end - at < opt.batch ? end - at : opt.batch);
        for (size_t i = 0; i < count; i++)
            gen_case(&cases[i], opt.seed, at + i, corpus);
        oracle_ok = run_batch(&opt, cases, count, w, o);
        if (opt.inject >= 0 && (uint64_t)opt.inject >= at && (uint64_t)opt.inject < at + count)
            bytes_push(&w[opt.inject - (long long)at].output, 0x2A);
        for (size_t i = 0; i < count && oracle_ok; i++) {
            char why[300];
            account(&st, &cases[i], &w[i], &o[i]);
            if (compare(&w[i], &o[i], why, sizeof why)) {
                st.failures++;
                if (st.failures <= 10) {
                    printf("difference in case %llu: ", (unsigned long long)(at + i));
                    describe_case(stdout, &cases[i]);
                    printf(": %s\n", why);
                }
                uint64_t kind = failure_kind(&cases[i], why);
                bool seen = false;
                for (size_t k = 0; k < reported_count; k++)
                    seen = seen || reported[k] == kind;
                if (!seen && reported_count < opt.reports) {
                    reported[reported_count++] = kind;
                    report_failure(&opt, &cases[i], at + i);
                }
            }
        }
        for (size_t i = 0; i < count; i++) {
            outcome_free(&w[i]);
            outcome_free(&o[i]);
            case_free(&cases[i]);
        }
    }
    double seconds = now_seconds() - start;
    printf("\n%llu cases (%llu decode, %llu encode, %.1f MB of input), seed %llu, %.1f s\n",
           (unsigned long long)st.cases, (unsigned long long)st.by_kind[DIFF_DECODE],
           (unsigned long long)st.by_kind[DIFF_ENCODE], (double)st.input_bytes / 1e6,
           (unsigned long long)opt.seed, seconds);
    printf("compared: %.1f MB of output, %llu fatal-mode errors; wenc made %llu calls "
           "(%llu WENC_OUTPUT_FULL, %llu empty chunks)\n",
           (double)st.output_bytes / 1e6, (unsigned long long)st.fatal_errors,
           (unsigned long long)st.calls, (unsigned long long)st.output_full,
           (unsigned long long)st.empty_chunks);
    printf("known differences applied: %llu times in %llu cases\n",
           (unsigned long long)st.known_fixes, (unsigned long long)st.known_cases);
    if (opt.only < 0)
        known_differences_describe();
    free(reported);
    free(cases);
    free(w);
    free(o);
    corpus_free(corpus);
    if (!have_corpus)
        printf("*** the corpus generator was SKIPPED (no corpus in %s) ***\n",
               opt.corpus ? opt.corpus : "(no --corpus given)");
    if (!oracle_ok) {
        printf("FAILED: the oracle did not run to completion\n");
        return 1;
    }
    if (st.cases > 0 && st.output_bytes == 0) {
        printf("FAILED: wenc produced no output at all, nothing was really compared\n");
        return 1;
    }
    if (st.failures) {
        printf("FAILED: %llu of %llu cases differ\n", (unsigned long long)st.failures,
               (unsigned long long)st.cases);
        return 1;
    }
    if (!have_corpus) {
        /* the other generators' cases passed, but not every generator ran:
         * skipped (run.sh's exit 77), not passed */
        printf("SKIPPED: every difference was a known one, but the corpus "
               "generator did not run\n");
        return 77;
    }
    printf("PASSED: every difference was a known one\n");
    return 0;
}
