/*
** signal_src.c -- the bytes of a signal file, read in blocks, decompressed on
** the fly (gzip, xz, bzip2, zstd: zsrc.h); and the window the text parsers
** slide over them.
**
** Unlike seqfile.c, which keeps a whole input in memory (mapped or inflated),
** this streams: a signal reader turns the bytes into an array of doubles as
** they come, so a read costs the size of its result, not that plus the input.
** The compression rules are every reader's (zsrc.h): detected by magic
** bytes, all members of a multi-member file, zero padding after the last one
** tolerated, anything else after it an error, and a stream that stops early
** is an error.
*/
#include "io/signal_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define WM_STDIN_NAME "(standard input)"
/* A gzip trailer's size claim is believed up to this many times the file's
** size (numbers compress about 2-4 fold; more still works, it just grows). */
#define WM_GZ_HINT_RATIO 16

int wm_sig_fail(wm_sigsrc_t *s, const char *fmt, ...) {
    va_list ap;
    if (!s->err || s->err_len == 0) return -1;
    int k = snprintf(s->err, s->err_len, "%s", s->name);
    if (k >= 0 && (size_t)k < s->err_len) {
        va_start(ap, fmt);
        vsnprintf(s->err + k, s->err_len - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* gzip's size claim                                                          */
/* ------------------------------------------------------------------------ */

/* The inflated size of a regular gzip file, from its last member's ISIZE
** field (exact for one member under 4 GiB; bounded by deflate's best ratio).
** It is only the file's claim, and it sizes arrays before the bytes arrive,
** so it is believed up to WM_GZ_HINT_RATIO times the file's size: a lying
** trailer then costs O(the input), and a real output past that grows as it
** is read. */
static uint64_t gz_size_hint(int fd, uint64_t file_size) {
    uint8_t t[4];
    if (file_size < 18 || pread(fd, t, 4, (off_t)(file_size - 4)) != 4) return 0;
    uint64_t isize =
        (uint64_t)t[0] | (uint64_t)t[1] << 8 | (uint64_t)t[2] << 16 | (uint64_t)t[3] << 24;
    if (isize > file_size * 1032 + 64) return 0;
    return isize < file_size * WM_GZ_HINT_RATIO ? isize : file_size * WM_GZ_HINT_RATIO;
}

/* ------------------------------------------------------------------------ */
/* the source                                                                 */
/* ------------------------------------------------------------------------ */

int wm_sigsrc_open(wm_sigsrc_t *s, const char *path, char *err, size_t err_len) {
    struct stat st;
    int is_stdin = strcmp(path, "-") == 0;

    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->name = is_stdin ? WM_STDIN_NAME : path;
    s->err = err;
    s->err_len = err_len;
    if (is_stdin) {
        s->fd = 0;
    } else {
        s->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (s->fd < 0) return wm_sig_fail(s, ": %s", strerror(errno));
        s->close_fd = 1;
    }
    if (fstat(s->fd, &st) != 0) return wm_sig_fail(s, ": %s", strerror(errno));
    if (S_ISDIR(st.st_mode)) return wm_sig_fail(s, ": %s", strerror(EISDIR));

    /* Where a regular file (or stdin redirected from one) starts, to size
    ** the result before reading. */
    int regular = S_ISREG(st.st_mode) && st.st_size > 0;
    off_t start = regular ? lseek(s->fd, 0, SEEK_CUR) : -1;
    if (start < 0 || start >= st.st_size) regular = 0;

    /* The kind from the first bytes (zsrc.h); zip passes as bytes, for
    ** the readers that know it. zsrc closes the fd from here on. */
    s->close_fd = 0;
    if (wm_zsrc_open_fd(&s->z, s->fd, !is_stdin, WM_ZSRC_PASS_ZIP, "stream") != 0)
        return wm_sig_fail(s, ": %s", s->z.msg);
    s->gz = s->z.kind != WM_Z_PLAIN;
    if (s->z.kind == WM_Z_GZIP) {
        if (regular && start == 0) s->size_hint = gz_size_hint(s->fd, (uint64_t)st.st_size);
    } else if (!s->gz && regular) {
        s->size_hint = (uint64_t)(st.st_size - start);
    }
    return 0;
}

static int64_t src_read_body(wm_sigsrc_t *s, uint8_t *dst, size_t n) {
    if (s->member_read) return s->member_read(s->member, dst, n); /* a .npz member */
    int64_t r = wm_zsrc_read(&s->z, dst, n);
    return r < 0 ? wm_sig_fail(s, ": %s", s->z.msg) : r;
}

int64_t wm_sigsrc_read(wm_sigsrc_t *s, void *dst, size_t n) {
    uint8_t *d = dst;
    size_t from_head = s->head_len - s->head_pos;
    if (from_head > n) from_head = n;
    if (from_head) {
        memcpy(d, s->head + s->head_pos, from_head);
        s->head_pos += from_head;
    }
    if (from_head == n) return (int64_t)n;
    int64_t r = src_read_body(s, d + from_head, n - from_head);
    return r < 0 ? -1 : (int64_t)from_head + r;
}

int wm_sigsrc_peek(wm_sigsrc_t *s, const uint8_t **p, size_t n, size_t *got) {
    if (n > sizeof s->head) n = sizeof s->head;
    if (s->head_len < n) {
        int64_t r = src_read_body(s, s->head + s->head_len, n - s->head_len);
        if (r < 0) return -1;
        s->head_len += (size_t)r;
    }
    *p = s->head;
    *got = s->head_len < n ? s->head_len : n;
    return 0;
}

void wm_sigsrc_close(wm_sigsrc_t *s) {
    wm_zsrc_close(&s->z);
    if (s->close_fd && s->fd >= 0) close(s->fd);
    s->close_fd = 0;
    s->fd = -1;
}

/* ------------------------------------------------------------------------ */
/* the window                                                                 */
/* ------------------------------------------------------------------------ */

int wm_sigwin_init(wm_sigwin_t *w, wm_sigsrc_t *s, size_t cap) {
    memset(w, 0, sizeof *w);
    w->buf = malloc(cap + 1);
    if (!w->buf) return wm_sig_fail(s, ": out of memory");
    w->cap = cap;
    w->buf[0] = '\0';
    return 0;
}

int wm_sigwin_refill(wm_sigwin_t *w, wm_sigsrc_t *s, size_t keep) {
    size_t rest = w->len - keep;
    if (keep == 0 && w->len == w->cap) {
        size_t ncap = w->cap * 2;
        char *nb = realloc(w->buf, ncap + 1);
        if (!nb) return wm_sig_fail(s, ": out of memory");
        w->buf = nb;
        w->cap = ncap;
    }
    memmove(w->buf, w->buf + keep, rest);
    w->pos -= keep;
    w->len = rest;
    if (!w->eof) {
        int64_t r = wm_sigsrc_read(s, w->buf + w->len, w->cap - w->len);
        if (r < 0) return -1;
        w->len += (size_t)r;
        if (w->len < w->cap) w->eof = 1; /* wm_sigsrc_read fills the request unless at the end */
    }
    w->buf[w->len] = '\0';
    return 0;
}

int wm_sigwin_line(wm_sigwin_t *w, wm_sigsrc_t *s, const char **line, size_t *len) {
    for (;;) {
        const char *p = w->buf + w->pos;
        const char *nl = memchr(p, '\n', w->len - w->pos);
        if (nl || (w->eof && w->pos < w->len)) {
            const char *le = nl ? nl : w->buf + w->len;
            w->pos = nl ? (size_t)(nl - w->buf) + 1 : w->len;
            if (le > p && le[-1] == '\r') le--;
            *line = p;
            *len = (size_t)(le - p);
            return 1;
        }
        if (w->eof) return 0;
        if (wm_sigwin_refill(w, s, w->pos) != 0) return -1;
    }
}

void wm_sigwin_free(wm_sigwin_t *w) {
    free(w->buf);
    memset(w, 0, sizeof *w);
}
