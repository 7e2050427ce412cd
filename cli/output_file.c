/* The output file of -o: a temporary file beside it, renamed into place
 * only on success. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* The temporary output file, removed if a signal ends wenc. */
static char *volatile temp_to_remove;

static void remove_temp_and_die(int sig)
{
    char *path = temp_to_remove;
    if (path != NULL)
        unlink(path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fatal_signals(void (*handler)(int))
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    size_t k;
    for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = handler;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}

/* "DIR/.wenc-XXXXXX" next to path, malloc'd. */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash == NULL ? 0 : (size_t)(slash - path) + 1;
    static const char base[] = ".wenc-XXXXXX";
    char *t = malloc(dir_len + sizeof base);
    if (t == NULL)
        return NULL;
    memcpy(t, path, dir_len);
    memcpy(t + dir_len, base, sizeof base);
    return t;
}

/*
 * Creates the temporary file beside path that stands for it until
 * close_output_file(): *temp its name (malloc'd), *fd open on it, with the
 * mode path has, or the mode a new file gets. Returns a status; on failure
 * nothing is left behind.
 */
int open_output_file(const char *path, char **temp, int *fd)
{
    struct stat st;
    mode_t mode;
    int status;

    *temp = temp_template(path);
    if (*temp == NULL)
        return io_error(path, ENOMEM);
    temp_to_remove = *temp;
    on_fatal_signals(remove_temp_and_die);
    *fd = mkstemp(*temp);
    if (*fd < 0) {
        temp_to_remove = NULL;
        status = io_error(path, errno);
        free(*temp);
        *temp = NULL;
        return status;
    }
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(*fd, mode) != 0) {
        status = close_output_file(path, *fd, *temp, io_error(path, errno));
        *temp = NULL;
        return status;
    }
    return STATUS_OK;
}

/*
 * Closes the temporary file and, when status (the run's) is STATUS_OK,
 * renames it to path; otherwise removes it. Frees temp. Returns the status.
 */
int close_output_file(const char *path, int fd, char *temp, int status)
{
    if (close(fd) != 0 && status == STATUS_OK)
        status = io_error(path, errno);
    if (status == STATUS_OK && rename(temp, path) != 0)
        status = io_error(path, errno);
    if (status != STATUS_OK)
        unlink(temp);
    on_fatal_signals(SIG_DFL);
    temp_to_remove = NULL;
    free(temp);
    return status;
}
