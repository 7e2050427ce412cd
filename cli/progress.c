/* The progress line on standard error (--progress). */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

static double seconds_between(const struct timespec *a,
                              const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Redraws the progress line at most ten times a second (force: now). */
void progress_update(job *j, int force)
{
    struct timespec now;
    message m = { .len = 0 };
    double elapsed;

    if (!j->progress)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!force && j->shown && seconds_between(&j->shown_at, &now) < 0.1)
        return;
    j->shown = 1;
    j->shown_at = now;
    elapsed = seconds_between(&j->t0, &now);
    msg_add(&m, "\rwenc: %" PRIu64 " bytes", j->in_total);
    if (j->size > 0)
        msg_add(&m, " (%u%%)",
                (unsigned)(j->in_total >= j->size
                               ? 100
                               : j->in_total * 100 / j->size));
    if (elapsed > 0)
        msg_add(&m, ", %.1f MB/s", (double)j->in_total / 1e6 / elapsed);
    msg_add(&m, "   ");
    fputs(m.text, stderr);
    fflush(stderr);
}

/* Clears the progress line. */
void progress_end(job *j)
{
    if (j->progress && j->shown) {
        fputs("\r                                                      "
              "          \r",
              stderr);
        fflush(stderr);
        j->shown = 0;
    }
}
