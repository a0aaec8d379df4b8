/*
** zsrc.c -- one input (a file descriptor or bytes in memory) read as plain
** bytes whatever compresses it: the magic bytes, the raw bytes, and the
** rules between members (zsrc.h). The decoders are in zsrc_codec.c.
*/
#include "io/zsrc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"

/* Compressed bytes read at a time. */
#define WM_ZRAW_BLOCK ((size_t)1 << 20)
/* read() gets at most this much at a time. */
#define WM_ZIO_CHUNK ((size_t)1 << 30)

/* ------------------------------------------------------------------------ */
/* magic bytes                                                                */
/* ------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    wm_zkind_t kind;
    uint8_t len;
    uint8_t bytes[6];
} wm_zmagic_t;

static const wm_zmagic_t zmagics[] = {
    { "gzip", WM_Z_GZIP, 2, { 0x1f, 0x8b } },
    { "xz", WM_Z_XZ, 6, { 0xfd, '7', 'z', 'X', 'Z', 0x00 } },
    { "zstd", WM_Z_ZSTD, 4, { 0x28, 0xb5, 0x2f, 0xfd } },
    { "lz4", WM_Z_UNKNOWN, 4, { 0x04, 0x22, 0x4d, 0x18 } },
    { "lz4 (legacy)", WM_Z_UNKNOWN, 4, { 0x02, 0x21, 0x4c, 0x18 } },
    { "7z", WM_Z_UNKNOWN, 6, { '7', 'z', 0xbc, 0xaf, 0x27, 0x1c } },
    { "zip", WM_Z_ZIP, 4, { 'P', 'K', 3, 4 } },
    { "zip", WM_Z_ZIP, 4, { 'P', 'K', 5, 6 } },
    { "zip", WM_Z_ZIP, 4, { 'P', 'K', 7, 8 } },
    { "compress (.Z)", WM_Z_UNKNOWN, 2, { 0x1f, 0x9d } },
    { "lzip", WM_Z_UNKNOWN, 5, { 'L', 'Z', 'I', 'P', 1 } },
    { "rar", WM_Z_UNKNOWN, 6, { 'R', 'a', 'r', '!', 0x1a, 0x07 } },
};

/* bzip2: "BZh", the block size '1'..'9', then a block's or the end's magic
** (a text may well start with "BZh9"; it will not go on with these). */
static int is_bzip2(const uint8_t *p, size_t n) {
    static const uint8_t block[6] = { 0x31, 0x41, 0x59, 0x26, 0x53, 0x59 };
    static const uint8_t eos[6] = { 0x17, 0x72, 0x45, 0x38, 0x50, 0x90 };
    if (n < 4 || p[0] != 'B' || p[1] != 'Z' || p[2] != 'h' || p[3] < '1' || p[3] > '9') return 0;
    size_t k = n - 4 < 6 ? n - 4 : 6; /* a short file is a truncated stream */
    return memcmp(p + 4, block, k) == 0 || memcmp(p + 4, eos, k) == 0;
}

wm_zkind_t wm_zmagic(const uint8_t *p, size_t n, const char **what) {
    if (what) *what = NULL;
    for (size_t i = 0; i < sizeof zmagics / sizeof zmagics[0]; i++) {
        const wm_zmagic_t *m = &zmagics[i];
        if (n >= m->len && memcmp(p, m->bytes, m->len) == 0) {
            if (what) *what = m->name;
            return m->kind;
        }
    }
    /* zstd's skippable frames: 0x184D2A50..5F, little-endian */
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18) {
        if (what) *what = "zstd";
        return WM_Z_ZSTD;
    }
    if (is_bzip2(p, n)) {
        if (what) *what = "bzip2";
        return WM_Z_BZIP2;
    }
    return WM_Z_PLAIN;
}

const char *wm_zkind_name(wm_zkind_t k) {
    switch (k) {
    case WM_Z_PLAIN: return "plain";
    case WM_Z_GZIP: return "gzip";
    case WM_Z_XZ: return "xz";
    case WM_Z_BZIP2: return "bzip2";
    case WM_Z_ZSTD: return "zstd";
    case WM_Z_ZIP: return "zip";
    default: return "unknown";
    }
}

/* ------------------------------------------------------------------------ */
/* raw bytes                                                                  */
/* ------------------------------------------------------------------------ */

static int zfail(wm_zsrc_t *z, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int zfail(wm_zsrc_t *z, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(z->msg, sizeof z->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int znomem(wm_zsrc_t *z) {
    z->err_nomem = 1;
    return zfail(z, "out of memory");
}

static int zioerr(wm_zsrc_t *z) {
    z->err_io = 1;
    return zfail(z, "%s", strerror(errno));
}

/* Keep raw[raw_pos .. raw_len), move it to the front and read once behind
** it (a pipe gives what it has). Sets raw_eof at the end of the input. */
static int raw_refill(wm_zsrc_t *z) {
    if (z->raw_eof) return 0;
    size_t keep = z->raw_len - z->raw_pos;
    if (keep == z->raw_cap) {
        /* A decoder that took nothing from a full block: give it more. */
        uint8_t *nb = realloc(z->raw, z->raw_cap * 2);
        if (!nb) return znomem(z);
        z->raw = nb;
        z->raw_cap *= 2;
    }
    memmove(z->raw, z->raw + z->raw_pos, keep);
    z->raw_off += z->raw_pos;
    z->raw_pos = 0;
    z->raw_len = keep;
    for (;;) {
        ssize_t r = read(z->fd, z->raw + keep, z->raw_cap - keep);
        if (r < 0) {
            if (errno == EINTR) continue;
            return zioerr(z);
        }
        if (r == 0) z->raw_eof = 1;
        z->raw_len += (size_t)r;
        return 0;
    }
}

/* At least want bytes at raw_pos, unless the input ends first. */
static int raw_want(wm_zsrc_t *z, size_t want) {
    while (z->raw_len - z->raw_pos < want && !z->raw_eof)
        if (raw_refill(z) != 0) return -1;
    return 0;
}

/* The kind from the first bytes; an unreadable format is an error. */
static int start(wm_zsrc_t *z, int flags) {
    const char *what;
    size_t n = z->raw_len < WM_ZMAGIC_LEN ? z->raw_len : WM_ZMAGIC_LEN;
    wm_zkind_t k = wm_zmagic(z->raw, n, &what);
    if (k == WM_Z_ZIP && (flags & WM_ZSRC_PASS_ZIP)) k = WM_Z_PLAIN;
    if (k == WM_Z_UNKNOWN || k == WM_Z_ZIP)
        return zfail(z,
                     "%s data: a format warpmatch does not read (it reads gzip, xz, bzip2 and "
                     "zstd); decompress it first",
                     what);
    z->kind = k;
    if (wm_zdec_init(k, &z->dec) != 0) return znomem(z);
    return 0;
}

int wm_zsrc_open_fd(wm_zsrc_t *z, int fd, int close_fd, int flags, const char *noun) {
    memset(z, 0, sizeof *z);
    z->fd = fd;
    z->close_fd = close_fd;
    z->noun = noun ? noun : "input";
    z->raw_cap = WM_ZRAW_BLOCK;
    z->raw = malloc(z->raw_cap);
    z->raw_owned = 1;
    if (!z->raw) return znomem(z);
    if (raw_want(z, WM_ZMAGIC_LEN) != 0) return -1;
    return start(z, flags);
}

int wm_zsrc_open_mem(wm_zsrc_t *z, const uint8_t *p, uint64_t n, int flags, const char *noun) {
    memset(z, 0, sizeof *z);
    z->fd = -1;
    z->noun = noun ? noun : "input";
    z->raw = (uint8_t *)(uintptr_t)p;
    z->raw_len = z->raw_cap = (size_t)n;
    z->raw_eof = 1;
    return start(z, flags);
}

void wm_zsrc_close(wm_zsrc_t *z) {
    if (!z) return;
    wm_zdec_end(z->kind, z->dec);
    if (z->close_fd && z->fd >= 0) close(z->fd);
    if (z->raw_owned) free(z->raw);
    memset(z, 0, sizeof *z);
    z->fd = -1;
}

/* ------------------------------------------------------------------------ */
/* reading                                                                    */
/* ------------------------------------------------------------------------ */

/* A member just ended at raw_pos: another of the same kind may follow (as
** gzip -d, bzip2 -d and zstd -d read them); after the last, only zero
** padding (tape blocks) may. */
static int member_end(wm_zsrc_t *z) {
    if (raw_want(z, WM_ZMAGIC_LEN) != 0) return -1;
    size_t rest = z->raw_len - z->raw_pos;
    if (rest > 0) {
        size_t n = rest < WM_ZMAGIC_LEN ? rest : WM_ZMAGIC_LEN;
        if (wm_zmagic(z->raw + z->raw_pos, n, NULL) == z->kind) {
            if (wm_zdec_reset(z->kind, z->dec) != 0) return znomem(z);
            return 0;
        }
    }
    for (;;) {
        for (size_t i = z->raw_pos; i < z->raw_len; i++)
            if (z->raw[i] != 0)
                return zfail(z, "corrupt %s data (trailing garbage at byte %" PRIu64 ")",
                             wm_zkind_name(z->kind), z->raw_off + i);
        z->raw_pos = z->raw_len;
        if (z->raw_eof) break;
        if (raw_refill(z) != 0) return -1;
    }
    z->done = 1;
    return 0;
}

static int64_t plain_read(wm_zsrc_t *z, uint8_t *dst, size_t n) {
    size_t got = z->raw_len - z->raw_pos;
    if (got > n) got = n;
    memcpy(dst, z->raw + z->raw_pos, got);
    z->raw_pos += got;
    while (got < n && !z->raw_eof) {
        size_t want = n - got < WM_ZIO_CHUNK ? n - got : WM_ZIO_CHUNK;
        ssize_t r = read(z->fd, dst + got, want);
        if (r < 0) {
            if (errno == EINTR) continue;
            return zioerr(z);
        }
        if (r == 0) z->raw_eof = 1;
        got += (size_t)r;
    }
    return (int64_t)got;
}

int64_t wm_zsrc_read(wm_zsrc_t *z, void *dst, size_t n) {
    uint8_t *d = dst;
    size_t got = 0;
    if (z->kind == WM_Z_PLAIN) return plain_read(z, d, n);
    while (got < n && !z->done) {
        if (z->raw_pos == z->raw_len && raw_refill(z) != 0) return -1;
        size_t used = 0, made = 0;
        int r = wm_zdec_step(z->kind, z->dec, z->raw + z->raw_pos, z->raw_len - z->raw_pos, &used,
                             d + got, n - got, &made, z->raw_eof, z->msg, sizeof z->msg);
        z->raw_pos += used;
        got += made;
        if (r == WM_ZSTEP_END) {
            if (member_end(z) != 0) return -1;
            continue;
        }
        if (r == WM_ZSTEP_NOMEM) return znomem(z);
        if (r != WM_ZSTEP_OK) return -1;
        if (used == 0 && made == 0) {
            /* The decoder wants more input: there is none, or read more. */
            if (z->raw_eof) return zfail(z, "truncated %s %s", wm_zkind_name(z->kind), z->noun);
            if (raw_refill(z) != 0) return -1;
        }
    }
    return (int64_t)got;
}

/* ------------------------------------------------------------------------ */
/* a plain file read by several threads                                       */
/* ------------------------------------------------------------------------ */

/* A read this long is cut into pieces that the pool's threads pread: one
** thread's read() of the page cache copies 3-8 GB/s, which a search on 16
** cores outruns. */
#define PAR_READ_MIN ((size_t)4 << 20)
#define PAR_READ_PIECE ((size_t)1 << 20)

typedef struct {
    int fd;
    uint8_t *dst;
    uint64_t off;
    size_t n;
    size_t *got; /* [piece] bytes it read */
    int *err;    /* [piece] errno, or 0 */
} par_read_t;

static void read_piece(void *arg, size_t i, int tid) {
    (void)tid;
    const par_read_t *P = arg;
    size_t a = i * PAR_READ_PIECE, len = P->n - a < PAR_READ_PIECE ? P->n - a : PAR_READ_PIECE;
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(P->fd, P->dst + a + done, len - done, (off_t)(P->off + a + done));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) P->err[i] = errno;
        if (r <= 0) break;
        done += (size_t)r;
    }
    P->got[i] = done;
}

int64_t wm_zsrc_read_par(wm_zsrc_t *z, void *dst, size_t n, wm_pool_t *pool) {
    if (z->kind != WM_Z_PLAIN || !pool || wm_pool_size(pool) < 2 || n < PAR_READ_MIN || z->fd < 0 ||
        z->raw_eof)
        return wm_zsrc_read(z, dst, n);
    off_t off = lseek(z->fd, 0, SEEK_CUR); /* where read() would go on */
    if (off < 0) return wm_zsrc_read(z, dst, n);
    uint8_t *d = dst;
    size_t have = z->raw_len - z->raw_pos; /* what finding the kind read */
    if (have > n) have = n;
    memcpy(d, z->raw + z->raw_pos, have);
    z->raw_pos += have;
    size_t rest = n - have, pieces = (rest + PAR_READ_PIECE - 1) / PAR_READ_PIECE;
    size_t *got = calloc(pieces ? pieces : 1, sizeof *got);
    int *err = calloc(pieces ? pieces : 1, sizeof *err);
    if (!got || !err) {
        free(got);
        free(err);
        return znomem(z);
    }
    par_read_t P = { z->fd, d + have, (uint64_t)off, rest, got, err };
    wm_pool_for(pool, pieces, read_piece, &P);
    /* the bytes in a row from the start: a short piece is the file's end */
    size_t total = 0;
    int e = 0;
    for (size_t i = 0; i < pieces && !e; i++) {
        e = err[i];
        total += got[i];
        if (got[i] < (rest - i * PAR_READ_PIECE < PAR_READ_PIECE ? rest - i * PAR_READ_PIECE
                                                                 : PAR_READ_PIECE))
            break;
    }
    free(got);
    free(err);
    if (e) {
        errno = e;
        return zioerr(z);
    }
    if (lseek(z->fd, off + (off_t)total, SEEK_SET) < 0) return zioerr(z);
    if (total < rest) z->raw_eof = 1;
    return (int64_t)(have + total);
}
