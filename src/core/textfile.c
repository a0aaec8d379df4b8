/*
** textfile.c -- texts whose bytes are a file's (internal.h): staging copies
** read them with pread instead of faulting in the caller's mapping.
*/
#include <errno.h>
#include <unistd.h>

#include "core/internal.h"

void wm_context_text_file(wm_context_t *cx, const uint8_t *p, uint64_t n, int fd, uint64_t off) {
    if (!wm_context_ok(cx)) return;
    cx->file.p = fd >= 0 ? p : NULL;
    cx->file.n = fd >= 0 ? n : 0;
    cx->file.off = fd >= 0 ? off : 0;
    cx->file.fd = fd >= 0 ? fd : -1;
    for (int i = 0; i < cx->n_sub; i++) wm_context_text_file(cx->sub[i], p, n, fd, off);
}

int wm_context_file_of(const wm_context_t *cx, const uint8_t *src, uint64_t n, uint64_t *off) {
    const uint8_t *p = cx->file.p;
    if (cx->file.fd < 0 || p == NULL || src < p || (uint64_t)(src - p) > cx->file.n ||
        n > cx->file.n - (uint64_t)(src - p))
        return -1;
    *off = cx->file.off + (uint64_t)(src - p);
    return cx->file.fd;
}

int wm_read_at(int fd, void *dst, uint64_t n, uint64_t off) {
    uint8_t *d = dst;
    while (n > 0) {
        size_t want = n > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t got = pread(fd, d, want, (off_t)off);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        d += got;
        off += (uint64_t)got;
        n -= (uint64_t)got;
    }
    return 0;
}
