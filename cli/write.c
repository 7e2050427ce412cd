/* Writing to file descriptors with write(2), and to standard output. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Writes all of buf to fd, across partial writes and EINTR. Returns 0 or an
 * errno value. */
int write_all(int fd, const uint8_t *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Turns a failed write to standard output into an exit status: a closed
 * pipe ends quietly, anything else is reported. */
int stdout_failed(int err)
{
    if (err == EPIPE)
        return STATUS_FAIL;
    return io_error("<stdout>", err);
}

int print_text(const char *s)
{
    int err = write_all(STDOUT_FILENO, (const uint8_t *)s, strlen(s));
    return err ? stdout_failed(err) : STATUS_OK;
}
