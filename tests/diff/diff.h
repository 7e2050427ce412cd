/*
 * Differential testing of wenc against encoding_rs (tests/oracle): shared
 * declarations of the driver's parts.
 */
#ifndef DIFF_DIFF_H
#define DIFF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wenc.h"

/* Record kinds and flags, as in tests/oracle/src/main.rs. */
enum {
    DIFF_DECODE = 1,
    DIFF_ENCODE = 2,
    DIFF_BOM_MASK = 3, /* decode: 0 sniff, 1 strip, 2 keep (wenc_bom_mode) */
    DIFF_FLAG_FATAL = 4,
    DIFF_FLAG_UTF16 = 8 /* decode: UTF-16 output; encode: UTF-16 input */
};

/* splitmix64: small, fast, and the same stream on every platform. */
typedef struct diff_rng {
    uint64_t state;
} diff_rng;

uint64_t rng_next(diff_rng *rng);
uint32_t rng_below(diff_rng *rng, uint32_t bound); /* 0 when bound is 0 */
uint32_t rng_range(diff_rng *rng, uint32_t low, uint32_t high); /* inclusive */
bool rng_percent(diff_rng *rng, uint32_t percent);

/* A growable byte buffer; aborts when memory runs out. */
typedef struct diff_bytes {
    uint8_t *data;
    size_t len;
    size_t cap;
} diff_bytes;

void bytes_reserve(diff_bytes *b, size_t extra);
void bytes_push(diff_bytes *b, uint8_t byte);
void bytes_append(diff_bytes *b, const void *data, size_t len);
void bytes_push_u16le(diff_bytes *b, uint16_t unit);
void bytes_push_utf8(diff_bytes *b, uint32_t code_point);
void bytes_free(diff_bytes *b);
void *diff_xmalloc(size_t size);

typedef struct diff_case {
    uint8_t kind;
    uint8_t flags;
    wenc_id id;
    uint64_t plan_seed; /* wenc's chunking and buffer sizes; 0: one piece */
    const char *generator;
    diff_bytes input; /* UTF-16 encoder input: little-endian code units */
} diff_case;

typedef struct diff_error {
    uint64_t offset;
    uint32_t length;
    uint32_t code_point;
    uint64_t output_position;
    uint64_t stop; /* input units consumed when the error was reported */
} diff_error;

typedef struct diff_outcome {
    char encoding[32];
    diff_bytes output; /* UTF-16 output: little-endian code units */
    diff_error *errors;
    size_t error_count;
    size_t known_fixes; /* oracle: known differences applied */
    size_t calls;       /* wenc: streaming calls made */
    size_t output_full; /* wenc: calls that returned WENC_OUTPUT_FULL */
    size_t empty_chunks; /* wenc: empty chunks fed (not the last one) */
    char problem[200];  /* wenc: a broken API promise; empty if none */
} diff_outcome;

void outcome_free(diff_outcome *outcome);
void case_free(diff_case *c);
void case_copy(diff_case *dst, const diff_case *src);

/* gen.c: the case generators. */
typedef struct diff_corpus diff_corpus;
diff_corpus *corpus_load(const char *dir); /* NULL (and says why) if absent */
void corpus_free(diff_corpus *corpus);
size_t gen_combination_count(void);
void gen_case(diff_case *c, uint64_t seed, uint64_t index,
              const diff_corpus *corpus);

/* wenc_side.c: runs a case through wenc, chunked by the case's plan; with
 * trace, prints the chunk lengths and output capacities used. */
void wenc_run(const diff_case *c, diff_outcome *outcome, FILE *trace);

/* oracle.c: runs a batch through the oracle program. */
typedef struct diff_oracle_job {
    int pid;
    char request_path[512];
    char response_path[512];
} diff_oracle_job;

bool oracle_start(diff_oracle_job *job, const char *oracle, const char *dir,
                  const diff_case *cases, size_t count);
bool oracle_finish(diff_oracle_job *job, const diff_case *cases,
                   diff_outcome *outcomes, size_t count);

#endif
