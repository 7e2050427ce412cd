/*
 * tools/insn-count/insn_count_plugin.c — a QEMU 7.2 TCG plugin that counts
 * the guest instructions a program executes under qemu-user and prints the
 * total when it exits, as one line "insns N". Each translation block gets
 * an inline add of its instruction count, run every time the block is
 * entered (no helper call, so the count costs little emulation time).
 *
 *   gcc -std=c11 -O2 -shared -fPIC -o insn_count_plugin.so insn_count_plugin.c
 *   qemu-aarch64 -plugin ./insn_count_plugin.so,out=FILE prog args...
 *
 * Without out=FILE the line goes to stderr. The count is exact for a
 * single-threaded guest; the inline add is not atomic, so threads may lose
 * some. A block left early (a fault in its middle) counts whole.
 *
 * No qemu-plugin.h is installed with Debian's qemu-user, so the few
 * declarations used are written below, from the plugin API of QEMU 7.2
 * (include/qemu/qemu-plugin.h, API version 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- the QEMU 7.2 plugin API (version 1), the part used here ---- */

#define PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t; /* only passed through */

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
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

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             &executed,
                                             qemu_plugin_tb_n_insns(tb));
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
        } else {
            fprintf(stderr, "insn_count_plugin: unknown argument %s "
                            "(the one argument is out=FILE)\n", argv[i]);
            return 1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, report, NULL);
    return 0;
}
