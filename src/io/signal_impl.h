/*
** signal_impl.h -- what the signal reader's files share (private to src/io/signal*.c).
**
**   wm_sigsrc_t   the bytes of one input, decompressed on the fly, read in
**                 blocks (signal_src.c);
**   wm_sigwin_t   a window over those bytes for the text parsers: a block
**                 buffer whose unparsed tail is carried into the next block
**                 (signal_src.c);
**   wm_sigvec_t   a growing array of samples; wm_sigset_t the signals found
**                 so far (signal.c);
**   numbers and messages shared by the parsers (signal.c);
**   one reader per format: signal_text.c, signal_csv.c, signal_raw.c,
**   signal_npy.c.
** Every function that can fail returns 0 or -1; on -1 the message is already
** in the source's err buffer.
*/
#ifndef WM_IO_SIGNAL_IMPL_H
#define WM_IO_SIGNAL_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/signal.h"
#include "io/zsrc.h"

/* ---- the byte source ------------------------------------------------------ */

typedef struct {
    const char *name; /* shown in messages: the path or "(standard input)" */
    char *err;
    size_t err_len;
    int fd, close_fd;
    /* Likely size of the (inflated) bytes; 0 = unknown. A plain regular
    ** file: its size, a fact. gzip: the trailer's claim, at most 16 times the
    ** file's size, so never trusted as proof that data exists. */
    uint64_t size_hint;
    int gz; /* the input is compressed (gzip, xz, bzip2, zstd) */
    /* The bytes, decompressed by their magic (zsrc.h); it owns the fd. */
    wm_zsrc_t z;
    /* Inflated bytes read ahead by wm_sigsrc_peek, served before the rest. */
    uint8_t head[16];
    size_t head_pos, head_len;
    /* A member of a zip archive (signal_npz.c), read in place of the bytes
    ** above once set (head emptied); NULL = none. */
    int64_t (*member_read)(void *member, uint8_t *dst, size_t n);
    void *member;
} wm_sigsrc_t;

/* Open path ("-" = stdin). On failure the message is in err and nothing is
** left open (wm_sigsrc_close is still safe). */
int wm_sigsrc_open(wm_sigsrc_t *s, const char *path, char *err, size_t err_len);
/* Read up to n bytes into dst: fewer only at the end of the input. Returns the
** count, or -1. */
int64_t wm_sigsrc_read(wm_sigsrc_t *s, void *dst, size_t n);
/* The first n (<= 16) bytes, without consuming them; *got < n at the end of
** the input. Only before any wm_sigsrc_read. */
int wm_sigsrc_peek(wm_sigsrc_t *s, const uint8_t **p, size_t n, size_t *got);
void wm_sigsrc_close(wm_sigsrc_t *s);

/* Set the message "<name><fmt ...>" and return -1; fmt starts with ':' or ' '. */
int wm_sig_fail(wm_sigsrc_t *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- a window over the bytes, for the text parsers ------------------------ */

typedef struct {
    char *buf;            /* cap + 1 bytes: buf[len] is always '\0' */
    size_t cap, pos, len; /* unparsed bytes: buf[pos .. len) */
    int eof;              /* nothing more to read after buf[len] */
} wm_sigwin_t;

int wm_sigwin_init(wm_sigwin_t *w, wm_sigsrc_t *s, size_t cap);
/* Move buf[keep .. len) to the front (keep <= len) and read more after it;
** pos becomes pos - keep. With keep = 0 and a full buffer, grow it (used for
** lines longer than the buffer). */
int wm_sigwin_refill(wm_sigwin_t *w, wm_sigsrc_t *s, size_t keep);
/* The next line, without its '\n' or "\r\n"; 0 at the end, 1 with a line,
** -1 on error. Lines longer than the buffer grow it. The line stays valid
** until the next call. */
int wm_sigwin_line(wm_sigwin_t *w, wm_sigsrc_t *s, const char **line, size_t *len);
void wm_sigwin_free(wm_sigwin_t *w);

/* ---- samples and signals --------------------------------------------------- */

typedef struct {
    double *v;
    uint64_t n, m; /* count, capacity */
} wm_sigvec_t;

int wm_sigvec_grow(wm_sigvec_t *a, uint64_t need, wm_sigsrc_t *s);

static inline int wm_sigvec_push(wm_sigvec_t *a, double x, wm_sigsrc_t *s) {
    if (a->n == a->m && wm_sigvec_grow(a, a->n + 1, s) != 0) return -1;
    a->v[a->n++] = x;
    return 0;
}

typedef struct {
    wm_sigs_t s;
    size_t m; /* capacity of s.a */
} wm_sigset_t;

/* Append a signal made of a[from .. a->n), named `name` (copied; NULL or ""
** = unnamed). take != 0 hands a's array itself over (from must be 0; a is
** left empty); else the samples are copied. */
int wm_sigset_add(wm_sigset_t *set, wm_sigvec_t *a, uint64_t from, int take, const char *name,
                  size_t name_len, wm_sigsrc_t *s);
/* Append a signal that owns v[0 .. n) (malloc'd; freed here on failure). */
int wm_sigset_add_owned(wm_sigset_t *set, double *v, uint64_t n, wm_sigsrc_t *s);

/* ---- numbers and messages ------------------------------------------------- */

enum { WM_NUM_OK = 0, WM_NUM_BAD = 1, WM_NUM_RANGE = 2 };

/* Parse [p, q) as one number, as strtod does in the "C" locale; the byte at q
** must not be able to continue a number (a separator, quote, line break or
** NUL). Returns WM_NUM_OK (x set; it may be NaN or +-Inf if written so),
** WM_NUM_BAD (not a number, or not all of [p, q)) or WM_NUM_RANGE (overflow). */
int wm_sig_number(const char *p, const char *q, double *x);

/* "NaN", "Inf" or "-Inf": the word for a sample that is not finite. */
const char *wm_sig_nonfinite(double x);

/* [p, p + n) as it may be shown inside quotes in a message: at most about
** 40 bytes, unprintable bytes as \xHH. */
void wm_sig_show(const char *p, size_t n, char *out, size_t out_len);
#define WM_SIG_SHOW 200

/* Join the two messages of a failed number: "'tok' is not a number", ... */
int wm_sig_fail_number(wm_sigsrc_t *s, uint64_t line, int why, const char *p, size_t n);

/* ---- little-endian numbers, whatever the host's byte order --------------- */

static inline uint16_t wm_sig_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static inline uint32_t wm_sig_le32(const uint8_t *p) {
    uint32_t u;
    memcpy(&u, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    u = __builtin_bswap32(u);
#endif
    return u;
}

static inline uint64_t wm_sig_le64(const uint8_t *p) {
    uint64_t u;
    memcpy(&u, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    u = __builtin_bswap64(u);
#endif
    return u;
}

/* float32 to double is exact: every float is a double. */
static inline double wm_sig_f32le(const uint8_t *p) {
    uint32_t u = wm_sig_le32(p);
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
}

static inline double wm_sig_f64le(const uint8_t *p) {
    uint64_t u = wm_sig_le64(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* ---- the readers ---------------------------------------------------------- */

int wm_sig_read_text(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out);
int wm_sig_read_csv(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out);
int wm_sig_read_raw(wm_sigsrc_t *s, int bytes_per_sample, const wm_sigread_opts_t *o,
                    wm_sigset_t *out);
int wm_sig_read_npy(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out);
int wm_sig_read_npz(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out);

/* Bytes a raw reader should refuse as text: over 95% of p[0 .. n) (the
** first 4 KiB of a file) printable ASCII, blanks, line breaks or well-formed
** UTF-8 sequences. */
int wm_sig_looks_text(const uint8_t *p, size_t n);
#define WM_SIG_TEXT_PROBE 4096

#endif
