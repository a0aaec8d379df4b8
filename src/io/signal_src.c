/*
** signal_src.c -- the bytes of a signal file, read in blocks, gzip inflated on
** the fly; and the window the text parsers slide over them.
**
** Unlike seqfile.c, which keeps a whole input in memory (mapped or inflated),
** this streams: a signal reader turns the bytes into an array of doubles as
** they come, so a read costs the size of its result, not that plus the input.
** gzip rules are seqfile.c's: detected by magic bytes, all members of a
** multi-member file, zero padding after the last one tolerated, anything else
** after it an error, and a stream that stops early is an error.
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
/* Compressed bytes read at a time. */
#define WM_RAW_BLOCK ((size_t)1 << 20)
/* read() and zlib (uInt counts) get at most this much at a time. */
#define WM_IO_CHUNK ((size_t)1 << 30)
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
/* raw bytes                                                                  */
/* ------------------------------------------------------------------------ */

/* read() until n bytes or the end; returns the count or -1. */
static int64_t read_fd(wm_sigsrc_t *s, uint8_t *dst, size_t n) {
    size_t got = 0;
    while (got < n) {
        size_t want = n - got < WM_IO_CHUNK ? n - got : WM_IO_CHUNK;
        ssize_t r = read(s->fd, dst + got, want);
        if (r < 0) {
            if (errno == EINTR) continue;
            return wm_sig_fail(s, ": %s", strerror(errno));
        }
        if (r == 0) {
            s->raw_eof = 1;
            break;
        }
        got += (size_t)r;
    }
    return (int64_t)got;
}

/* Keep raw[raw_pos .. raw_len), move it to the front and read more behind it. */
static int raw_refill(wm_sigsrc_t *s) {
    size_t keep = s->raw_len - s->raw_pos;
    if (s->raw_eof) return 0;
    memmove(s->raw, s->raw + s->raw_pos, keep);
    s->raw_off += s->raw_pos;
    s->raw_pos = 0;
    s->raw_len = keep;
    int64_t r = read_fd(s, s->raw + keep, s->raw_cap - keep);
    if (r < 0) return -1;
    s->raw_len += (size_t)r;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* gzip                                                                       */
/* ------------------------------------------------------------------------ */

static int is_gzip(const uint8_t *p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

/* A gzip member just ended: start the next one, or check that only zero
** padding follows (as gzip -d does). */
static int gz_member_end(wm_sigsrc_t *s) {
    s->raw_pos = s->raw_len - s->zs.avail_in;
    if (s->raw_len - s->raw_pos < 2 && raw_refill(s) != 0) return -1;
    if (is_gzip(s->raw + s->raw_pos, s->raw_len - s->raw_pos)) {
        if (inflateReset(&s->zs) != Z_OK) return wm_sig_fail(s, ": corrupt gzip data");
        s->zs.next_in = s->raw + s->raw_pos;
        s->zs.avail_in = (uInt)(s->raw_len - s->raw_pos);
        return 0;
    }
    for (;;) {
        for (size_t i = s->raw_pos; i < s->raw_len; i++)
            if (s->raw[i] != 0)
                return wm_sig_fail(s, ": corrupt gzip data (trailing garbage at byte %" PRIu64 ")",
                                   s->raw_off + i);
        s->raw_pos = s->raw_len;
        if (s->raw_eof) break;
        if (raw_refill(s) != 0) return -1;
    }
    s->zs.avail_in = 0;
    s->z_done = 1;
    return 0;
}

static int64_t gz_read(wm_sigsrc_t *s, uint8_t *dst, size_t n) {
    size_t got = 0;
    while (got < n && !s->z_done) {
        if (s->zs.avail_in == 0 && !s->raw_eof) {
            s->raw_pos = s->raw_len;
            if (raw_refill(s) != 0) return -1;
            s->zs.next_in = s->raw;
            s->zs.avail_in = (uInt)s->raw_len;
        }
        size_t room = n - got < WM_IO_CHUNK ? n - got : WM_IO_CHUNK;
        s->zs.next_out = dst + got;
        s->zs.avail_out = (uInt)room;
        int zr = inflate(&s->zs, Z_NO_FLUSH);
        got += room - s->zs.avail_out;
        if (zr == Z_STREAM_END) {
            if (gz_member_end(s) != 0) return -1;
            continue;
        }
        if (zr == Z_OK) continue;
        if (zr == Z_BUF_ERROR) {
            /* No progress: more input is needed, and there is none. */
            if (s->zs.avail_in == 0 && s->raw_eof) return wm_sig_fail(s, ": truncated gzip stream");
            continue;
        }
        if (zr == Z_MEM_ERROR) return wm_sig_fail(s, ": out of memory");
        /* Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR */
        if (s->zs.msg) return wm_sig_fail(s, ": corrupt gzip data (%s)", s->zs.msg);
        return wm_sig_fail(s, ": corrupt gzip data");
    }
    return (int64_t)got;
}

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

    s->raw_cap = WM_RAW_BLOCK;
    s->raw = malloc(s->raw_cap);
    if (!s->raw) return wm_sig_fail(s, ": out of memory");
    /* Enough bytes to see the gzip magic (a pipe may deliver fewer). */
    while (s->raw_len < 2 && !s->raw_eof)
        if (raw_refill(s) != 0) return -1;

    if (is_gzip(s->raw, s->raw_len)) {
        s->gz = 1;
        /* 15 + 32: the largest window, gzip or zlib header detected. */
        if (inflateInit2(&s->zs, 15 + 32) != Z_OK) return wm_sig_fail(s, ": out of memory");
        s->zs_live = 1;
        s->zs.next_in = s->raw;
        s->zs.avail_in = (uInt)s->raw_len;
        if (regular && start == 0) s->size_hint = gz_size_hint(s->fd, (uint64_t)st.st_size);
    } else if (regular) {
        s->size_hint = (uint64_t)(st.st_size - start);
    }
    return 0;
}

static int64_t src_read_body(wm_sigsrc_t *s, uint8_t *dst, size_t n) {
    if (s->member_read) return s->member_read(s->member, dst, n);
    if (s->gz) return gz_read(s, dst, n);
    /* Plain: what the first block holds, then straight into dst. */
    size_t got = s->raw_len - s->raw_pos;
    if (got > n) got = n;
    memcpy(dst, s->raw + s->raw_pos, got);
    s->raw_pos += got;
    if (got == n || s->raw_eof) return (int64_t)got;
    int64_t r = read_fd(s, dst + got, n - got);
    return r < 0 ? -1 : (int64_t)got + r;
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
    if (s->zs_live) inflateEnd(&s->zs);
    if (s->close_fd && s->fd >= 0) close(s->fd);
    free(s->raw);
    s->raw = NULL;
    s->zs_live = 0;
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
