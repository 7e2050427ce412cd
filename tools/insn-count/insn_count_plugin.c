/*
 * tools/insn-count/insn_count_plugin.c — a QEMU 7.2 TCG plugin that counts
 * the guest instructions a program executes under qemu-user and prints the
 * total when it exits, as one line "insns N". Each translation block gets
 * an inline add of its instruction count, run every time the block is
 * entered (no helper call, so the count costs little emulation time).
 *
 *   gcc -std=c11 -O2 -shared -fPIC -o insn_count_plugin.so insn_count_plugin.c
 *   qemu-aarch64 -plugin ./insn_count_plugin.so,out=FILE[,hot=N] prog args...
 *
 * Without out=FILE the lines go to stderr. The count is exact for a
 * single-threaded guest; the inline add is not atomic, so threads may lose
 * some. A block left early (a fault in its middle) counts whole.
 *
 * hot=N (N >= 1) also counts how often each translation block runs and
 * adds, after the "insns N" line (which stays first), the N blocks that
 * executed the most instructions (runs x instructions), most first, one
 * line each:
 *
 *   hot VADDR bytes B insns I execs E share S
 *
 * VADDR (hex, 0x...) is the guest address of the block's first
 * instruction, B its length in bytes, I its instructions, E how often it
 * was entered, S its part of all the instructions counted (0 to 1). A
 * block is straight-line code QEMU translated as one unit: it ends at a
 * branch (or a page end or QEMU's size limit), so a loop whose body
 * branches is several blocks. Blocks are told apart by address and
 * instruction count: one translated again the same (after a flush)
 * counts as one; blocks that overlap (a jump into the middle of another)
 * are separate. Each block gets a second inline add, of 1 to its own
 * counter, so hot=N costs little more than the total does.
 *
 * No qemu-plugin.h is installed with Debian's qemu-user, so the few
 * declarations used are written below, from the plugin API of QEMU 7.2
 * (include/qemu/qemu-plugin.h, API version 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the QEMU 7.2 plugin API (version 1), the part used here ---- */

#define PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t; /* only passed through */

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                              enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);

/* QEMU refuses a plugin that does not export the API version it was
 * written for. */
PLUGIN_EXPORT int qemu_plugin_version = 1;

PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                      const qemu_info_t *info, int argc,
                                      char **argv);

/* ---- the plugin ---- */

static uint64_t executed;
static const char *out_path; /* argv stays valid while the plugin lives */
static size_t hot_n;         /* 0: no per-block counts */

/* One translation block's record. The inline add of each translation of
 * the block points at execs, so a record never moves once made: records
 * live in chunks that are never freed or reallocated, and the hash table
 * holds pointers to them. */
typedef struct block {
    uint64_t vaddr, execs;
    uint32_t insns, bytes;
} block;

enum { CHUNK = 4096 };

typedef struct chunk {
    struct chunk *next;
    size_t used;
    block b[CHUNK];
} chunk;

static chunk *chunks;       /* newest first */
static block **table;       /* open addressing, linear probing */
static size_t table_cap;    /* a power of two, or 0 */
static size_t n_blocks;
static int out_of_memory;   /* per-block counts given up */

static size_t slot_of(uint64_t vaddr, uint32_t insns, size_t cap)
{
    uint64_t h = (vaddr ^ ((uint64_t)insns << 48)) * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Doubles the table (or makes the first one); 0 on failure. */
static int grow_table(void)
{
    size_t cap = table_cap ? table_cap * 2 : 1024;
    block **t = calloc(cap, sizeof *t);
    if (!t)
        return 0;
    for (size_t i = 0; i < table_cap; i++) {
        block *b = table[i];
        if (!b)
            continue;
        size_t s = slot_of(b->vaddr, b->insns, cap);
        while (t[s])
            s = (s + 1) & (cap - 1);
        t[s] = b;
    }
    free(table);
    table = t;
    table_cap = cap;
    return 1;
}

/* The record of the block at vaddr with insns instructions, made (with
 * the given length) if new; NULL when memory ran out. */
static block *find_block(uint64_t vaddr, uint32_t insns, uint32_t bytes)
{
    if ((n_blocks + 1) * 2 > table_cap && !grow_table())
        return NULL;
    size_t s = slot_of(vaddr, insns, table_cap);
    for (; table[s]; s = (s + 1) & (table_cap - 1))
        if (table[s]->vaddr == vaddr && table[s]->insns == insns)
            return table[s];
    if (!chunks || chunks->used == CHUNK) {
        chunk *c = malloc(sizeof *c);
        if (!c)
            return NULL;
        c->next = chunks;
        c->used = 0;
        chunks = c;
    }
    block *b = &chunks->b[chunks->used++];
    b->vaddr = vaddr;
    b->execs = 0;
    b->insns = insns;
    b->bytes = bytes;
    table[s] = b;
    n_blocks++;
    return b;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             &executed, n);
    if (!hot_n || out_of_memory || n == 0)
        return;
    uint64_t start = qemu_plugin_tb_vaddr(tb);
    struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
    uint64_t end = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
    block *b = find_block(start, (uint32_t)n, (uint32_t)(end - start));
    if (!b) {
        out_of_memory = 1;
        return;
    }
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             &b->execs, 1);
}

/* Most executed instructions first; then by address, for a stable order. */
static int by_weight(const void *pa, const void *pb)
{
    const block *a = *(block *const *)pa, *b = *(block *const *)pb;
    uint64_t wa = a->execs * a->insns, wb = b->execs * b->insns;
    if (wa != wb)
        return wa < wb ? 1 : -1;
    return a->vaddr < b->vaddr ? -1 : a->vaddr > b->vaddr;
}

static void report_hot(FILE *f)
{
    if (out_of_memory) {
        fprintf(f, "hot none: out of memory for the per-block counts\n");
        return;
    }
    block **all = malloc((n_blocks ? n_blocks : 1) * sizeof *all);
    if (!all) {
        fprintf(f, "hot none: out of memory for the per-block counts\n");
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < table_cap; i++)
        if (table[i])
            all[k++] = table[i];
    qsort(all, k, sizeof *all, by_weight);
    for (size_t i = 0; i < k && i < hot_n; i++) {
        const block *b = all[i];
        double share = executed ? (double)(b->execs * b->insns) / (double)executed
                                : 0.0;
        fprintf(f, "hot 0x%llx bytes %lu insns %lu execs %llu share %.6f\n",
                (unsigned long long)b->vaddr, (unsigned long)b->bytes,
                (unsigned long)b->insns, (unsigned long long)b->execs, share);
    }
    free(all);
}

static void report(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    FILE *f = out_path ? fopen(out_path, "w") : stderr;
    if (!f) {
        perror(out_path);
        return;
    }
    fprintf(f, "insns %llu\n", (unsigned long long)executed);
    if (hot_n)
        report_hot(f);
    if (f != stderr)
        fclose(f);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                        int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            out_path = argv[i] + 4;
        } else if (strncmp(argv[i], "hot=", 4) == 0) {
            char *end;
            unsigned long long n = strtoull(argv[i] + 4, &end, 10);
            if (end == argv[i] + 4 || *end || n == 0 || argv[i][4] == '-') {
                fprintf(stderr, "insn_count_plugin: hot=N wants a count "
                                "above 0, not %s\n", argv[i] + 4);
                return 1;
            }
            hot_n = n > SIZE_MAX ? SIZE_MAX : (size_t)n;
        } else {
            fprintf(stderr, "insn_count_plugin: unknown argument %s "
                            "(the arguments are out=FILE and hot=N)\n",
                    argv[i]);
            return 1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, report, NULL);
    return 0;
}
