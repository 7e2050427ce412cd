/* standalone.c — a main() that runs a fuzz target without libFuzzer, for
 * the machines where clang's libFuzzer runtime is missing (aarch64 and s390x
 * under qemu-user: tools/cross-test.sh builds every target with it).
 *
 * Build: a target's fuzz/fuzz_NAME.c and fuzz/common.c with this file and the
 * library, no -fsanitize=fuzzer (-fsanitize=address,undefined works too):
 *   cc -std=c11 -O2 -DWENC_STATIC -Iinclude -Isrc -Ifuzz fuzz/fuzz_decode.c \
 *      fuzz/common.c fuzz/standalone.c build/libwenc.a -o fuzz_decode
 *
 * Run: fuzz_NAME [-FLAG=VALUE ...] [FILE|DIR ...]
 *   1. LLVMFuzzerInitialize(&argc, &argv), when the target defines it;
 *   2. every FILE, and every file under every DIR (sorted by name, at any
 *      depth), is run once as it is: the replay;
 *   3. then, for -max_total_time seconds or -runs inputs (whichever ends
 *      first; neither given: no step 3), mutated inputs: each starts from
 *      one of the files read in step 2 (cut to -max_len bytes; the empty
 *      input when there is none) and takes 1 to 16 mutations: bit flips,
 *      random and "interesting" bytes (UTF-8 leads, ISO-2022-JP's ESC,
 *      '<', ...), small additions, inserted random bytes, runs of one byte,
 *      UTF-8 sequences and UTF-16 code units (surrogates, BOMs), deleted,
 *      duplicated, repeated and copied ranges, and splices and crossovers
 *      with another file; lengths up to -max_len (default 4096).
 *   Every input is passed in a heap block of exactly its size, as libFuzzer
 *   does. Exit status 0 when everything ran; a target that finds a broken
 *   invariant aborts (INVARIANT VIOLATED: ...), so the driver dies with
 *   SIGABRT, after printing what it was running (as it does on any crash
 *   signal, and when a sanitizer reports an error).
 *
 * Flags (libFuzzer's names where libFuzzer has the flag):
 *   -seed=N            the PRNG seed (default: from the clock and the pid);
 *                      always printed
 *   -max_total_time=N  seconds of mutated inputs (after the replay)
 *   -runs=N            at most N mutated inputs
 *   -max_len=N         longest mutated input (default 4096; files replay
 *                      whole)
 *   -timeout=N         an input that runs N seconds is a failure: exit 70
 *                      (default 60, 0 = none)
 *   -input_file=PATH   write every input to PATH before running it, so that
 *                      PATH holds the input a crash or hang happened on
 *   -only=I            run mutated input number I of -seed alone (with the
 *                      same files and -max_len), and nothing else
 *
 * Reproducing a failure. Mutated input I (numbered from 1) depends only on
 * the seed, I, -max_len and the files given (their order and contents), not
 * on the inputs before it nor on the machine (the same bytes on x86-64,
 * aarch64 and s390x), so:
 *   - on a crash or a timeout the driver prints the seed, the input's number
 *     and the command that makes exactly that input again: the same command
 *     line with -seed=S -only=I added (add -input_file=PATH to keep it);
 *   - with -input_file=PATH the input is already in PATH: rerun it with
 *     "fuzz_NAME PATH", here or under the libFuzzer build (build-fuzz/);
 *   - a failure in the replay names its file, which reruns the same way.
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Optional in a target, as in libFuzzer: a weak reference is null when the
 * target does not define it. */
#if defined(__GNUC__) || defined(__clang__)
#define STANDALONE_HAVE_WEAK 1
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
#else
#define STANDALONE_HAVE_WEAK 0
#endif

#define TIMEOUT_STATUS 70

/* ---- the inputs read from the command line ---------------------------- */

typedef struct file_input {
    char *path;
    uint8_t *data;
    size_t size;
} file_input;

static file_input *files;
static size_t file_count, file_cap;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fputs("standalone: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = xmalloc(n);
    memcpy(copy, s, n);
    return copy;
}

static int read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "standalone: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = xmalloc(cap);
    for (;;) {
        if (len == cap) {
            uint8_t *bigger = realloc(data, cap * 2);
            if (bigger == NULL) {
                fputs("standalone: out of memory\n", stderr);
                exit(2);
            }
            data = bigger;
            cap *= 2;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "standalone: cannot read %s\n", path);
        free(data);
        return -1;
    }
    if (file_count == file_cap) {
        file_cap = file_cap ? file_cap * 2 : 64;
        file_input *more = realloc(files, file_cap * sizeof *files);
        if (more == NULL) {
            fputs("standalone: out of memory\n", stderr);
            exit(2);
        }
        files = more;
    }
    files[file_count].path = xstrdup(path);
    files[file_count].data = data;
    files[file_count].size = len;
    file_count++;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads PATH: a file, or every file under a directory in name order. */
static int read_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "standalone: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return read_file(path);
    DIR *dir = opendir(path);
    if (dir == NULL) {
        fprintf(stderr, "standalone: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **more = realloc(names, cap * sizeof *names);
            if (more == NULL) {
                fputs("standalone: out of memory\n", stderr);
                exit(2);
            }
            names = more;
        }
        size_t n = strlen(path) + 1 + strlen(entry->d_name) + 1;
        names[count] = xmalloc(n);
        snprintf(names[count], n, "%s/%s", path, entry->d_name);
        count++;
    }
    closedir(dir);
    if (count > 1)
        qsort(names, count, sizeof *names, compare_names);
    int status = 0;
    for (size_t i = 0; i < count; i++) {
        if (read_path(names[i]) != 0)
            status = -1;
        free(names[i]);
    }
    free(names);
    return status;
}

/* ---- the PRNG: splitmix64 --------------------------------------------- */

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* 0 .. n-1 (0 when n is 0); the modulo's bias is immaterial here. */
static size_t rng_below(rng *r, size_t n)
{
    return n ? (size_t)(rng_next(r) % n) : 0;
}

/* The generator of mutated input `iteration` of `seed`: a function of the
 * two alone, so that any input can be made again by itself. */
static rng rng_for(uint64_t seed, uint64_t iteration)
{
    rng mix = {seed ^ (iteration * UINT64_C(0xD1B54A32D192ED03))};
    rng r = {rng_next(&mix) ^ iteration};
    return r;
}

/* ---- mutations ---------------------------------------------------------- */

typedef struct work {
    uint8_t *data;
    size_t len, cap;
    uint8_t *scratch; /* cap bytes */
} work;

static const uint8_t interesting_bytes[] = {
    0x00, 0x01, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x1B, 0x20, 0x22, 0x24,
    0x26, 0x27, 0x28, 0x2F, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40, 0x42, 0x4A,
    0x5C, 0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0,
    0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF,
};

static const uint16_t interesting_units[] = {
    0x0000, 0x000A, 0x001B, 0x003C, 0x007F, 0x0080, 0x00A5, 0x00FF, 0x0100,
    0x07FF, 0x0800, 0x2212, 0x203E, 0x3000, 0xD7FF, 0xD800, 0xDBFF, 0xDC00,
    0xDFFF, 0xE000, 0xE78D, 0xFEFF, 0xFF0D, 0xFF61, 0xFFFD, 0xFFFE, 0xFFFF,
};

static uint8_t random_interesting(rng *r)
{
    return interesting_bytes[rng_below(r, sizeof interesting_bytes)];
}

/* Opens a gap of `count` bytes at `pos` (<= len; the caller checked the
 * room). */
static void open_gap(work *w, size_t pos, size_t count)
{
    if (pos < w->len)
        memmove(w->data + pos + count, w->data + pos, w->len - pos);
    w->len += count;
}

/* A length of 1 .. limit, small ones likelier (limit >= 1). */
static size_t random_length(rng *r, size_t limit)
{
    size_t upper = (size_t)1 << rng_below(r, 13); /* 1 .. 4096 */
    if (upper > limit)
        upper = limit;
    return 1 + rng_below(r, upper);
}

/* A scalar value, as UTF-8, into out (1-4 bytes); returns the length. */
static size_t random_utf8(rng *r, uint8_t out[4])
{
    uint32_t c;
    switch (rng_below(r, 5)) {
    case 0: c = (uint32_t)rng_below(r, 0x80); break;
    case 1: c = 0x80 + (uint32_t)rng_below(r, 0x780); break;
    case 2: c = 0x800 + (uint32_t)rng_below(r, 0xF800); break;
    case 3: c = 0x10000 + (uint32_t)rng_below(r, 0x100000); break;
    default: c = interesting_units[rng_below(r, sizeof interesting_units / sizeof interesting_units[0])]; break;
    }
    if (c >= 0xD800 && c <= 0xDFFF)
        c = 0xFFFD;
    if (c < 0x80) {
        out[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (uint8_t)(0xC0 | (c >> 6));
        out[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (c >> 12));
        out[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (c >> 18));
    out[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* A file other than the input's base, to splice from (may be empty). */
static const file_input *random_file(rng *r)
{
    return file_count ? &files[rng_below(r, file_count)] : NULL;
}

static void mutate_once(work *w, rng *r)
{
    size_t room = w->cap - w->len;
    switch (rng_below(r, 20)) {
    case 0: /* flip a bit */
    case 1:
        if (w->len)
            w->data[rng_below(r, w->len)] ^= (uint8_t)(1u << rng_below(r, 8));
        break;
    case 2: /* a random byte */
        if (w->len)
            w->data[rng_below(r, w->len)] = (uint8_t)rng_next(r);
        break;
    case 3: /* an interesting byte */
        if (w->len)
            w->data[rng_below(r, w->len)] = random_interesting(r);
        break;
    case 4: /* one of the first bytes, where every target reads its flags */
        if (w->len) {
            size_t pos = rng_below(r, w->len < 4 ? w->len : 4);
            w->data[pos] = rng_below(r, 2) ? (uint8_t)rng_next(r)
                                           : (uint8_t)(w->data[pos] ^ (1u << rng_below(r, 8)));
        }
        break;
    case 5: /* add or subtract a little */
        if (w->len) {
            size_t pos = rng_below(r, w->len);
            w->data[pos] = (uint8_t)(w->data[pos] + rng_below(r, 33) - 16);
        }
        break;
    case 6: /* insert random bytes */
        if (room) {
            size_t count = random_length(r, room < 32 ? room : 32);
            size_t pos = rng_below(r, w->len + 1);
            open_gap(w, pos, count);
            for (size_t i = 0; i < count; i++)
                w->data[pos + i] = rng_below(r, 2) ? (uint8_t)rng_next(r) : random_interesting(r);
        }
        break;
    case 7: /* insert a run of one byte (ASCII runs feed the vector loops) */
        if (room) {
            size_t count = random_length(r, room);
            size_t pos = rng_below(r, w->len + 1);
            uint8_t byte;
            switch (rng_below(r, 3)) {
            case 0: byte = (uint8_t)(0x20 + rng_below(r, 0x5F)); break;
            case 1: byte = random_interesting(r); break;
            default: byte = (uint8_t)rng_next(r); break;
            }
            open_gap(w, pos, count);
            memset(w->data + pos, byte, count);
        }
        break;
    case 8: /* insert UTF-8 sequences */
        for (size_t n = 1 + rng_below(r, 8); n > 0; n--) {
            uint8_t seq[4];
            size_t count = random_utf8(r, seq);
            if (rng_below(r, 8) == 0 && count > 1)
                count = 1 + rng_below(r, count - 1); /* truncated */
            if (w->len + count > w->cap)
                break;
            size_t pos = rng_below(r, w->len + 1);
            open_gap(w, pos, count);
            memcpy(w->data + pos, seq, count);
        }
        break;
    case 9: /* write a UTF-16 code unit, either byte order, at an even place */
        if (w->len >= 2) {
            uint16_t unit = rng_below(r, 2)
                                ? interesting_units[rng_below(r, sizeof interesting_units / sizeof interesting_units[0])]
                                : (uint16_t)rng_next(r);
            size_t pos = rng_below(r, w->len / 2) * 2 + rng_below(r, 2);
            if (pos + 2 > w->len)
                pos -= 1;
            int big = (int)rng_below(r, 2);
            w->data[pos] = (uint8_t)(big ? unit >> 8 : unit);
            w->data[pos + 1] = (uint8_t)(big ? unit : unit >> 8);
        }
        break;
    case 10: /* delete a range */
    case 11:
        if (w->len) {
            size_t count = random_length(r, w->len);
            size_t pos = rng_below(r, w->len - count + 1);
            memmove(w->data + pos, w->data + pos + count, w->len - pos - count);
            w->len -= count;
        }
        break;
    case 12: /* duplicate a range somewhere */
        if (w->len && room) {
            size_t count = random_length(r, w->len < room ? w->len : room);
            size_t from = rng_below(r, w->len - count + 1);
            size_t pos = rng_below(r, w->len + 1);
            memcpy(w->scratch, w->data + from, count);
            open_gap(w, pos, count);
            memcpy(w->data + pos, w->scratch, count);
        }
        break;
    case 13: /* repeat a short range many times, in place */
        if (w->len && room) {
            size_t count = random_length(r, w->len < 64 ? w->len : 64);
            size_t from = rng_below(r, w->len - count + 1);
            size_t times = 1 + rng_below(r, room / count < 256 ? room / count : 256);
            if (count * times > room)
                break;
            memcpy(w->scratch, w->data + from, count);
            open_gap(w, from + count, count * times);
            for (size_t i = 0; i < times; i++)
                memcpy(w->data + from + count * (i + 1), w->scratch, count);
        }
        break;
    case 14: /* copy a range over another place */
        if (w->len >= 2) {
            size_t count = random_length(r, w->len / 2);
            size_t from = rng_below(r, w->len - count + 1);
            size_t to = rng_below(r, w->len - count + 1);
            memmove(w->data + to, w->data + from, count);
        }
        break;
    case 15: /* swap two bytes */
        if (w->len >= 2) {
            size_t a = rng_below(r, w->len), b = rng_below(r, w->len);
            uint8_t t = w->data[a];
            w->data[a] = w->data[b];
            w->data[b] = t;
        }
        break;
    case 16: { /* splice: insert a range of another file */
        const file_input *other = random_file(r);
        if (other && other->size && room) {
            size_t limit = other->size < room ? other->size : room;
            size_t count = random_length(r, limit);
            size_t from = rng_below(r, other->size - count + 1);
            size_t pos = rng_below(r, w->len + 1);
            open_gap(w, pos, count);
            memcpy(w->data + pos, other->data + from, count);
        }
        break;
    }
    case 17: { /* splice: overwrite with a range of another file */
        const file_input *other = random_file(r);
        if (other && other->size && w->len) {
            size_t limit = other->size < w->len ? other->size : w->len;
            size_t count = random_length(r, limit);
            size_t from = rng_below(r, other->size - count + 1);
            size_t pos = rng_below(r, w->len - count + 1);
            memcpy(w->data + pos, other->data + from, count);
        }
        break;
    }
    case 18: { /* crossover: this input's head, another file's tail */
        const file_input *other = random_file(r);
        if (other && other->size) {
            size_t keep = rng_below(r, w->len + 1);
            size_t from = rng_below(r, other->size);
            size_t count = other->size - from;
            if (count > w->cap - keep)
                count = w->cap - keep;
            memcpy(w->data + keep, other->data + from, count);
            w->len = keep + count;
        }
        break;
    }
    default: /* cut the end off */
        if (w->len)
            w->len = rng_below(r, w->len + 1);
        break;
    }
}

/* Makes mutated input `iteration` of `seed` in w; returns the index of the
 * file it started from (file_count when there is none). */
static size_t make_input(work *w, uint64_t seed, uint64_t iteration)
{
    rng r = rng_for(seed, iteration);
    size_t base = file_count;
    w->len = 0;
    if (file_count) {
        base = rng_below(&r, file_count);
        w->len = files[base].size < w->cap ? files[base].size : w->cap;
        memcpy(w->data, files[base].data, w->len);
    }
    size_t count = 1 + rng_below(&r, (size_t)1 << rng_below(&r, 5)); /* 1 .. 16 */
    for (size_t i = 0; i < count; i++)
        mutate_once(w, &r);
    return base;
}

/* ---- what a crash or a timeout report ---------------------------------- */

enum phase { PHASE_SETUP, PHASE_REPLAY, PHASE_MUTATE, PHASE_DONE };

static volatile sig_atomic_t phase = PHASE_SETUP;
static volatile sig_atomic_t progress, stuck_seconds;
static const char *volatile current_file;
static volatile uint64_t current_iteration;
static volatile size_t current_base;
static uint64_t run_seed;
static unsigned long timeout_seconds = 60;
static const char *input_path;
static int input_fd = -1;
static int saved_argc;
static char **saved_argv;

/* Async-signal-safe output (write() only). */
static void put(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t done = write(STDERR_FILENO, s, n);
        if (done <= 0)
            return;
        s += done;
        n -= (size_t)done;
    }
}

static void put_u64(uint64_t v)
{
    char digits[24];
    size_t i = sizeof digits;
    digits[--i] = '\0';
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    put(digits + i);
}

/* An argument, in single quotes unless it needs none. */
static void put_arg(const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("-_./=:,+@%", c) != NULL))
            plain = 0;
    }
    if (plain) {
        put(s);
        return;
    }
    put("'");
    for (const char *p = s; *p; p++) {
        char c[2] = {*p, '\0'};
        put(c[0] == '\'' ? "'\\''" : c);
    }
    put("'");
}

static void describe_current(void)
{
    if (phase == PHASE_REPLAY) {
        put("standalone: the input was the file ");
        put_arg(current_file);
        put("\nstandalone: rerun: ");
        put_arg(saved_argv[0]);
        put(" ");
        put_arg(current_file);
        put("\n");
        return;
    }
    if (phase != PHASE_MUTATE) {
        put(phase == PHASE_DONE ? "standalone: (after every input ran)\n"
                                : "standalone: (before any input ran)\n");
        return;
    }
    put("standalone: the input was mutated input ");
    put_u64(current_iteration);
    put(" of seed ");
    put_u64(run_seed);
    if (current_base < file_count) {
        put(", made from ");
        put(files[current_base].path);
    }
    put("\n");
    if (input_path != NULL) {
        put("standalone: it is in ");
        put_arg(input_path);
        put("; rerun: ");
        put_arg(saved_argv[0]);
        put(" ");
        put_arg(input_path);
        put("\n");
    }
    put("standalone: make it again: ");
    for (int i = 0; i < saved_argc; i++) {
        put_arg(saved_argv[i]);
        put(" ");
    }
    put("-seed=");
    put_u64(run_seed);
    put(" -only=");
    put_u64(current_iteration);
    put("\n");
}

static void on_crash(int sig, siginfo_t *info, void *context);

static const int crash_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
/* The actions before ours (the default, or a sanitizer's), put back when
 * one of these signals comes, after saying what ran. */
static struct sigaction previous[sizeof crash_signals / sizeof crash_signals[0]];

static void on_crash(int sig, siginfo_t *info, void *context)
{
    (void)context;
    const char *name = sig == SIGABRT ? "SIGABRT (an abort: a broken invariant?)"
                       : sig == SIGSEGV ? "SIGSEGV"
                       : sig == SIGBUS  ? "SIGBUS"
                       : sig == SIGILL  ? "SIGILL"
                       : sig == SIGFPE  ? "SIGFPE"
                                        : "a signal";
    put("standalone: CRASH: ");
    put(name);
    put("\n");
    describe_current();
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        if (crash_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    /* A fault happens again when the handler returns, now under the previous
     * action (which then sees the real fault); a signal that was sent is
     * sent again. */
    if (sig == SIGABRT || info == NULL || info->si_code <= 0)
        raise(sig);
}

static void on_alarm(int sig)
{
    (void)sig;
    if (progress) {
        progress = 0;
        stuck_seconds = 0;
    } else if ((phase == PHASE_REPLAY || phase == PHASE_MUTATE) &&
               (unsigned long)++stuck_seconds >= timeout_seconds) {
        put("standalone: TIMEOUT: one input has run for ");
        put_u64(timeout_seconds);
        put(" s (-timeout)\n");
        describe_current();
        _exit(TIMEOUT_STATUS);
    }
    alarm(1);
}

/* A sanitizer that reports an error exits without a signal; when the
 * program is built with one, it calls this first. */
#if STANDALONE_HAVE_WEAK
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
#endif

static void on_sanitizer_death(void)
{
    put("standalone: the sanitizer reported an error\n");
    describe_current();
}

static void install_handlers(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_sigaction = on_crash;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        sigaction(crash_signals[i], &action, &previous[i]);
#if STANDALONE_HAVE_WEAK
    if (__sanitizer_set_death_callback != NULL)
        __sanitizer_set_death_callback(on_sanitizer_death);
#else
    (void)on_sanitizer_death;
#endif
    if (timeout_seconds) {
        memset(&action, 0, sizeof action);
        sigemptyset(&action.sa_mask);
        action.sa_handler = on_alarm;
        action.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &action, NULL);
        alarm(1);
    }
}

/* ---- running one input --------------------------------------------------- */

static void save_input(const uint8_t *data, size_t size)
{
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fprintf(stderr, "standalone: cannot write %s: %s\n", input_path, strerror(errno));
            exit(2);
        }
        done += (size_t)n;
    }
    while (ftruncate(input_fd, (off_t)size) != 0) {
        if (errno != EINTR) {
            fprintf(stderr, "standalone: cannot write %s: %s\n", input_path, strerror(errno));
            exit(2);
        }
    }
}

static void run_input(const uint8_t *data, size_t size)
{
    uint8_t *copy = xmalloc(size);
    if (size)
        memcpy(copy, data, size);
    if (input_fd >= 0)
        save_input(copy, size);
    (void)LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    progress = 1;
}

/* Frees everything, so that a leak checker sees only the target's leaks. */
static int finish(work *w)
{
    phase = PHASE_DONE;
    alarm(0);
    free(w->data);
    free(w->scratch);
    for (size_t i = 0; i < file_count; i++) {
        free(files[i].path);
        free(files[i].data);
    }
    free(files);
    if (input_fd >= 0)
        close(input_fd);
    return 0;
}

/* ---- main ------------------------------------------------------------------ */

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

_Noreturn static void usage(const char *self)
{
    fprintf(stderr,
            "usage: %s [-seed=N] [-max_total_time=SECONDS] [-runs=N] [-max_len=N]\n"
            "       [-timeout=SECONDS] [-input_file=PATH] [-only=I] [FILE|DIR ...]\n"
            "Replays every FILE and every file under DIR, then runs mutated inputs\n"
            "made from them for -max_total_time seconds or -runs inputs (see the top\n"
            "of fuzz/standalone.c).\n",
            self);
    exit(2);
}

/* Parses "-NAME=VALUE" as a decimal number into *out when NAME matches. */
static int number_flag(const char *arg, const char *name, uint64_t *out)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0 || arg[n] != '=')
        return 0;
    const char *digits = arg + n + 1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(digits, &end, 10);
    if (*digits < '0' || *digits > '9' || *end != '\0' || errno != 0) {
        fprintf(stderr, "standalone: %s: not a number\n", arg);
        exit(2);
    }
    *out = (uint64_t)v;
    return 1;
}

int main(int argc, char **argv)
{
    saved_argc = argc;
    saved_argv = argv;
    setvbuf(stdout, NULL, _IOLBF, 0);

    uint64_t seed = 0, max_time = 0, runs = 0, max_len = 4096, only = 0, timeout = 60;
    int have_seed = 0, have_time = 0, have_runs = 0, have_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0')
            continue;
        if (number_flag(a, "-seed", &seed))
            have_seed = 1;
        else if (number_flag(a, "-max_total_time", &max_time))
            have_time = 1;
        else if (number_flag(a, "-runs", &runs))
            have_runs = 1;
        else if (number_flag(a, "-only", &only))
            have_only = 1;
        else if (number_flag(a, "-max_len", &max_len))
            continue;
        else if (number_flag(a, "-timeout", &timeout))
            continue;
        else if (strncmp(a, "-input_file=", 12) == 0 && a[12] != '\0')
            input_path = a + 12;
        else {
            fprintf(stderr, "standalone: unknown flag %s\n", a);
            usage(argv[0]);
        }
    }
    if (max_len == 0 || max_len > (uint64_t)1 << 30) {
        fputs("standalone: -max_len must be 1 .. 2^30\n", stderr);
        exit(2);
    }
    if (have_only && only == 0) {
        fputs("standalone: -only counts from 1\n", stderr);
        exit(2);
    }
    timeout_seconds = (unsigned long)timeout;
    if (!have_seed) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        rng r = {(uint64_t)t.tv_sec * UINT64_C(1000000007) ^ (uint64_t)t.tv_nsec ^
                 ((uint64_t)getpid() << 32)};
        seed = rng_next(&r) % UINT64_C(10000000000); /* ten digits */
    }
    run_seed = seed;

    if (input_path != NULL) {
        input_fd = open(input_path, O_WRONLY | O_CREAT, 0644);
        if (input_fd < 0) {
            fprintf(stderr, "standalone: cannot open %s: %s\n", input_path, strerror(errno));
            exit(2);
        }
    }

#if STANDALONE_HAVE_WEAK
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
#endif

    size_t paths = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            continue;
        paths++;
        if (read_path(argv[i]) != 0)
            bad = 1;
    }
    if (bad)
        exit(2);

    install_handlers();
    work w;
    w.cap = (size_t)max_len;
    w.data = xmalloc(w.cap);
    w.scratch = xmalloc(w.cap);
    w.len = 0;

    if (have_only) {
        printf("standalone: %s: mutated input %llu of seed %llu (%zu files, -max_len=%llu)\n", argv[0],
               (unsigned long long)only, (unsigned long long)seed, file_count,
               (unsigned long long)max_len);
        current_iteration = only;
        current_base = make_input(&w, seed, only);
        phase = PHASE_MUTATE;
        run_input(w.data, w.len);
        printf("standalone: ran it (%zu bytes): no failure\n", w.len);
        return finish(&w);
    }

    printf("standalone: %s: seed %llu (rerun with -seed=%llu), -max_len=%llu\n", argv[0],
           (unsigned long long)seed, (unsigned long long)seed, (unsigned long long)max_len);
    double start = now_seconds();
    phase = PHASE_REPLAY;
    for (size_t i = 0; i < file_count; i++) {
        current_file = files[i].path;
        run_input(files[i].data, files[i].size);
    }
    double replayed = now_seconds();
    printf("standalone: replayed %zu files from %zu paths in %.1f s\n", file_count, paths,
           replayed - start);

    if (!have_time && !have_runs) {
        printf("standalone: no -max_total_time or -runs: no mutated inputs\n");
        return finish(&w);
    }
    phase = PHASE_MUTATE;
    double deadline = replayed + (double)max_time;
    uint64_t done = 0, total_len = 0;
    size_t longest = 0;
    while ((!have_runs || done < runs) && (!have_time || now_seconds() < deadline)) {
        current_iteration = done + 1;
        current_base = make_input(&w, seed, done + 1);
        run_input(w.data, w.len);
        done++;
        total_len += w.len;
        if (w.len > longest)
            longest = w.len;
    }
    double elapsed = now_seconds() - replayed;
    printf("standalone: %llu mutated inputs in %.1f s (%.0f/s), mean length %llu, longest %zu; "
           "seed %llu: all ran\n",
           (unsigned long long)done, elapsed, elapsed > 0 ? (double)done / elapsed : 0.0,
           (unsigned long long)(done ? total_len / done : 0), longest, (unsigned long long)seed);
    return finish(&w);
}
