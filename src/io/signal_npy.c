/*
** signal_npy.c -- NumPy .npy files: a 1-D array, one column of a 2-D array,
** or each row of a 2-D array as a signal (the rules are in signal.h).
**
** The header (a Python dict literal after the magic, version and length) is
** parsed for its three keys; the data then streams through a block buffer,
** each element converted to double and dropped where it belongs. Elements
** come in storage order (C: row after row; Fortran: column after column), so
** a row/column counter pair says where each one goes without any division.
*/
#include "io/signal_impl.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* Data bytes converted at a time (a multiple of every item size). */
#define WM_NPY_BLOCK ((size_t)1 << 20)
#define WM_NPY_BLOCK_MIN ((size_t)1 << 16)
/* numpy writes headers of a few hundred bytes; refuse absurd lengths. */
#define WM_NPY_HEADER_MAX ((uint32_t)1 << 20)

typedef enum { K_F4, K_F8, K_I1, K_U1, K_I2, K_U2, K_I4, K_U4, K_I8 } npy_kind_t;

static const struct {
    const char *descr;
    npy_kind_t kind;
    unsigned size;
} npy_types[] = {
    { "<f8", K_F8, 8 },
    { "<f4", K_F4, 4 },
    { "<i2", K_I2, 2 },
    { "<i4", K_I4, 4 },
    { "<i8", K_I8, 8 },
    { "<u2", K_U2, 2 },
    { "<u4", K_U4, 4 },
    { "|i1", K_I1, 1 },
    { "|u1", K_U1, 1 },
    { "<i1", K_I1, 1 },
    { "<u1", K_U1, 1 },
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* '=' is the writer's native order; numpy writes '<' instead, but a
    ** hand-made header may say '=' on a little-endian machine like this one. */
    { "=f8", K_F8, 8 },
    { "=f4", K_F4, 4 },
    { "=i2", K_I2, 2 },
    { "=i4", K_I4, 4 },
    { "=i8", K_I8, 8 },
    { "=u2", K_U2, 2 },
    { "=u4", K_U4, 4 },
    { "=i1", K_I1, 1 },
    { "=u1", K_U1, 1 },
#endif
};

typedef struct {
    npy_kind_t kind;
    unsigned size;
    int fortran;
    int ndim;
    uint64_t dim[2]; /* 1-D: dim[0]; 2-D: rows, columns */
    char descr[48];
    char shape_text[64]; /* "(3, 4)" as written, for messages */
} npy_head_t;

/* ------------------------------------------------------------------------ */
/* the header                                                                 */
/* ------------------------------------------------------------------------ */

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* The value after 'key': in the dict h, or NULL. */
static const char *find_value(const char *h, const char *key) {
    size_t k = strlen(key);
    for (const char *p = h; (p = strstr(p, key)) != NULL; p += k) {
        if (p == h || (p[-1] != '\'' && p[-1] != '"') || p[k] != p[-1]) continue;
        const char *v = skip_ws(p + k + 1);
        if (*v == ':') return skip_ws(v + 1);
    }
    return NULL;
}

static int parse_shape(wm_sigsrc_t *s, const char *v, npy_head_t *h) {
    uint64_t dims[8];
    int nd = 0;
    const char *p = v;
    if (*p != '(') return wm_sig_fail(s, ": malformed .npy header (shape is not a tuple)");
    p = skip_ws(p + 1);
    while (*p != ')') {
        if ((unsigned)(*p - '0') > 9) return wm_sig_fail(s, ": malformed .npy header (bad shape)");
        uint64_t d = 0;
        for (; (unsigned)(*p - '0') <= 9; p++) {
            if (d > (UINT64_MAX - 9) / 10) return wm_sig_fail(s, ": .npy shape is too large");
            d = d * 10 + (uint64_t)(*p - '0');
        }
        if (*p == 'L') p++; /* Python 2 longs: (3L,) */
        if (nd < 8) dims[nd] = d;
        nd++;
        p = skip_ws(p);
        if (*p == ',') p = skip_ws(p + 1);
        else if (*p != ')') return wm_sig_fail(s, ": malformed .npy header (bad shape)");
    }
    size_t n =
        (size_t)(p + 1 - v) < sizeof h->shape_text ? (size_t)(p + 1 - v) : sizeof h->shape_text - 1;
    memcpy(h->shape_text, v, n);
    h->shape_text[n] = '\0';
    if (nd == 0) return wm_sig_fail(s, ": .npy shape () is a single number, not a signal");
    if (nd > 2)
        return wm_sig_fail(s, ": .npy shape %s has %d dimensions; a signal file has 1 or 2",
                           h->shape_text, nd);
    h->ndim = nd;
    h->dim[0] = dims[0];
    h->dim[1] = nd == 2 ? dims[1] : 1;
    if (h->dim[0] == 0 || h->dim[1] == 0)
        return wm_sig_fail(s, ": no samples (.npy shape %s)", h->shape_text);
    return 0;
}

static int parse_header(wm_sigsrc_t *s, const char *text, npy_head_t *h) {
    const char *v = find_value(text, "descr");
    if (!v) return wm_sig_fail(s, ": malformed .npy header (no 'descr')");
    if (*v == '\'' || *v == '"') {
        const char *e = strchr(v + 1, *v);
        size_t n = e ? (size_t)(e - v - 1) : 0;
        if (!e || n >= sizeof h->descr)
            return wm_sig_fail(s, ": malformed .npy header (bad 'descr')");
        memcpy(h->descr, v + 1, n);
        h->descr[n] = '\0';
    } else {
        /* A structured dtype: a list of fields. Quote the start of it. */
        wm_sig_show(v, strcspn(v, "\n"), h->descr, sizeof h->descr);
    }
    size_t i;
    for (i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
        if (strcmp(h->descr, npy_types[i].descr) == 0) break;
    if (i == sizeof npy_types / sizeof npy_types[0]) {
        /* quoted as shown (escaped): the header's bytes may hold line breaks
        ** or a terminal's escape sequences */
        char shown[96];
        wm_sig_show(h->descr, strlen(h->descr), shown, sizeof shown);
        return wm_sig_fail(s,
                           ": .npy dtype '%s' is not supported (float32/float64 "
                           "little-endian, or integers)",
                           shown);
    }
    h->kind = npy_types[i].kind;
    h->size = npy_types[i].size;

    v = find_value(text, "fortran_order");
    if (v && strncmp(v, "True", 4) == 0) h->fortran = 1;
    else if (!v || strncmp(v, "False", 5) != 0)
        return wm_sig_fail(s, ": malformed .npy header (no 'fortran_order')");

    v = find_value(text, "shape");
    if (!v) return wm_sig_fail(s, ": malformed .npy header (no 'shape')");
    return parse_shape(s, v, h);
}

/* Magic, version, header; leaves the source at the first data byte.
** *head_bytes: the bytes before the data. */
static int read_header(wm_sigsrc_t *s, npy_head_t *h, uint64_t *head_bytes) {
    static const uint8_t magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
    uint8_t pre[12];
    uint32_t hlen;
    size_t pre_len;

    int64_t r = wm_sigsrc_read(s, pre, 8);
    if (r < 0) return -1;
    if (r < 8 || memcmp(pre, magic, 6) != 0)
        return wm_sig_fail(s, ": not a .npy file (it does not start with \"\\x93NUMPY\")");
    if (pre[6] < 1 || pre[6] > 3)
        return wm_sig_fail(s, ": .npy format version %u.%u is not supported (1.0, 2.0, 3.0 are)",
                           pre[6], pre[7]);
    pre_len = pre[6] == 1 ? 10 : 12; /* 2-byte header length in 1.0, 4-byte after */
    r = wm_sigsrc_read(s, pre + 8, pre_len - 8);
    if (r < 0) return -1;
    if ((size_t)r < pre_len - 8) return wm_sig_fail(s, ": truncated .npy header");
    hlen = pre[6] == 1 ? wm_sig_le16(pre + 8) : wm_sig_le32(pre + 8);
    if (hlen > WM_NPY_HEADER_MAX)
        return wm_sig_fail(s, ": malformed .npy header (length %" PRIu32 ")", hlen);
    char *text = malloc((size_t)hlen + 1);
    if (!text) return wm_sig_fail(s, ": out of memory");
    r = wm_sigsrc_read(s, text, hlen);
    if (r < 0 || (uint64_t)r < hlen) {
        free(text);
        return r < 0 ? -1 : wm_sig_fail(s, ": truncated .npy header");
    }
    text[hlen] = '\0';
    /* A NUL inside would hide the rest of the header from the string calls. */
    int rc = strlen(text) == hlen ? parse_header(s, text, h)
                                  : wm_sig_fail(s, ": malformed .npy header (NUL byte)");
    free(text);
    *head_bytes = pre_len + hlen;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* the data                                                                   */
/* ------------------------------------------------------------------------ */

static void convert(npy_kind_t kind, const uint8_t *p, size_t n, double *out) {
    size_t i;
    switch (kind) {
    case K_F8:
        for (i = 0; i < n; i++) out[i] = wm_sig_f64le(p + 8 * i);
        break;
    case K_F4:
        for (i = 0; i < n; i++) out[i] = wm_sig_f32le(p + 4 * i);
        break;
    case K_I1:
        for (i = 0; i < n; i++) out[i] = (int8_t)p[i];
        break;
    case K_U1:
        for (i = 0; i < n; i++) out[i] = p[i];
        break;
    case K_I2:
        for (i = 0; i < n; i++) out[i] = (int16_t)wm_sig_le16(p + 2 * i);
        break;
    case K_U2:
        for (i = 0; i < n; i++) out[i] = wm_sig_le16(p + 2 * i);
        break;
    case K_I4:
        for (i = 0; i < n; i++) out[i] = (int32_t)wm_sig_le32(p + 4 * i);
        break;
    case K_U4:
        for (i = 0; i < n; i++) out[i] = wm_sig_le32(p + 4 * i);
        break;
    case K_I8:
        for (i = 0; i < n; i++) out[i] = (double)(int64_t)wm_sig_le64(p + 8 * i);
        break;
    }
}

/* Where the elements go. */
typedef struct {
    const npy_head_t *h;
    int by_rows;      /* each row is a signal (set->s.a[first + row]) */
    int sized;        /* the input's size is known and holds every element */
    uint64_t col;     /* else: the column kept (1-D: 0) */
    wm_sigvec_t a;    /* the kept column */
    wm_sigset_t *set; /* by_rows: the rows, from set->s.a[first] on */
    size_t first;
    uint64_t i, j; /* row and column of the next element */
} npy_sink_t;

static int fail_sample(wm_sigsrc_t *s, const npy_sink_t *k, double x) {
    if (k->h->ndim == 1)
        return wm_sig_fail(s, ": sample %" PRIu64 " is %s", k->i, wm_sig_nonfinite(x));
    if (k->by_rows)
        return wm_sig_fail(s, ": row %" PRIu64 ": sample %" PRIu64 " is %s", k->i, k->j,
                           wm_sig_nonfinite(x));
    return wm_sig_fail(s, ": column %" PRIu64 ": sample %" PRIu64 " is %s", k->col, k->i,
                       wm_sig_nonfinite(x));
}

/* Room in row k->i for its sample k->j. A row's samples come in order in
** both layouts, so the row holds exactly j of them now: it is made when its
** first sample arrives and grows as the rest do (doubling, up to the row
** length), never from the header's word alone. An input of known size that
** holds every element gets whole rows at once. */
static int row_room(wm_sigsrc_t *s, npy_sink_t *k) {
    const uint64_t cols = k->h->dim[1], j = k->j;
    if (j == 0) {
        assert(k->set->s.n == k->first + k->i);
        uint64_t cap = k->sized || cols < 4 ? cols : 4;
        double *v = malloc((size_t)cap * sizeof(double));
        if (!v) return wm_sig_fail(s, ": out of memory");
        return wm_sigset_add_owned(k->set, v, 0, s);
    }
    if (k->sized || j < 4 || (j & (j - 1)) != 0) return 0;
    /* j a power of two >= 4: the row is full (capacity j). */
    uint64_t cap = cols - j < j ? cols : 2 * j;
    wm_sig_t *g = &k->set->s.a[k->first + k->i];
    double *v = realloc(g->v, (size_t)cap * sizeof(double));
    if (!v) return wm_sig_fail(s, ": out of memory");
    g->v = v;
    return 0;
}

static int place(wm_sigsrc_t *s, npy_sink_t *k, const double *x, size_t n) {
    const uint64_t rows = k->h->dim[0], cols = k->h->dim[1];
    int floats = k->h->kind == K_F4 || k->h->kind == K_F8;
    for (size_t e = 0; e < n; e++) {
        if (k->by_rows) {
            if (floats && !isfinite(x[e])) return fail_sample(s, k, x[e]);
            if (row_room(s, k) != 0) return -1;
            wm_sig_t *g = &k->set->s.a[k->first + k->i];
            g->v[g->n++] = x[e];
        } else if (k->j == k->col) {
            /* The kept column's elements come in row order in both layouts. */
            if (floats && !isfinite(x[e])) return fail_sample(s, k, x[e]);
            if (wm_sigvec_push(&k->a, x[e], s) != 0) return -1;
        }
        if (k->h->fortran) {
            if (++k->i == rows) {
                k->i = 0;
                k->j++;
            }
        } else if (++k->j == cols) {
            k->j = 0;
            k->i++;
        }
    }
    return 0;
}

/* Stream `count` elements into the sink; then nothing may follow. */
static int read_data(wm_sigsrc_t *s, npy_sink_t *k, uint64_t count, uint64_t head_bytes) {
    const npy_head_t *h = k->h;
    uint64_t got = 0, want = count * h->size;
    /* A small array needs no large block (both sizes are multiples of every
    ** item size), whatever bytes may follow it. */
    size_t bsize = want < WM_NPY_BLOCK ? (size_t)want : WM_NPY_BLOCK;
    if (bsize < WM_NPY_BLOCK_MIN) bsize = WM_NPY_BLOCK_MIN;
    uint8_t *block = malloc(bsize);
    double *x = malloc(bsize / h->size * sizeof(double));
    int rc = 0;

    if (!block || !x) {
        rc = wm_sig_fail(s, ": out of memory");
        goto out;
    }
    while (got < want) {
        size_t ask = want - got < bsize ? (size_t)(want - got) : bsize;
        int64_t r = wm_sigsrc_read(s, block, ask);
        if (r < 0) {
            rc = -1;
            goto out;
        }
        size_t n = (size_t)r / h->size;
        convert(h->kind, block, n, x);
        if ((rc = place(s, k, x, n)) != 0) goto out;
        got += (uint64_t)r;
        if ((size_t)r < ask) {
            rc = wm_sig_fail(s,
                             ": .npy data is truncated: shape %s of '%s' needs %" PRIu64
                             " bytes after the %" PRIu64 "-byte header, the file has %" PRIu64,
                             h->shape_text, h->descr, want, head_bytes, got);
            goto out;
        }
    }
    /* numpy writes nothing after the data; more bytes mean a damaged or
    ** misread file (a wrong shape in the header, say). */
    uint64_t extra = 0;
    for (;;) {
        int64_t r = wm_sigsrc_read(s, block, bsize);
        if (r < 0) {
            rc = -1;
            goto out;
        }
        extra += (uint64_t)r;
        if ((size_t)r < bsize) break;
    }
    if (extra)
        rc = wm_sig_fail(s, ": %" PRIu64 " byte%s after the .npy data (shape %s of '%s')", extra,
                         extra == 1 ? "" : "s", h->shape_text, h->descr);
out:
    free(block);
    free(x);
    return rc;
}

/* Which part of a 2-D array is read: sets k->by_rows or k->col. */
static int choose(wm_sigsrc_t *s, const wm_sigread_opts_t *o, npy_sink_t *k) {
    const npy_head_t *h = k->h;
    if (h->ndim == 1) return 0; /* --column means nothing for one column */
    if (o->column) {
        const char *c = o->column;
        if (!*c || strspn(c, "0123456789") != strlen(c))
            return wm_sig_fail(s,
                               ": --column '%s' is not a column number (a .npy file has no "
                               "column names; columns are numbered from 0)",
                               c);
        unsigned long long col = strtoull(c, NULL, 10);
        if (col >= h->dim[1])
            return wm_sig_fail(s, ": no column %s in a .npy of shape %s (columns 0 to %" PRIu64 ")",
                               c, h->shape_text, h->dim[1] - 1);
        k->col = col;
        return 0;
    }
    if (o->several) {
        k->by_rows = 1;
        return 0;
    }
    if (h->dim[1] == 1) return 0; /* the only column */
    return wm_sig_fail(s, ": 2-D .npy of shape %s: choose a column with --column", h->shape_text);
}

int wm_sig_read_npy(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out) {
    npy_head_t h;
    npy_sink_t k;
    uint64_t head_bytes = 0;

    memset(&h, 0, sizeof h);
    memset(&k, 0, sizeof k);
    k.h = &h;
    if (read_header(s, &h, &head_bytes) != 0 || choose(s, o, &k) != 0) return -1;
    if (h.dim[0] > UINT64_MAX / h.dim[1] || h.dim[0] * h.dim[1] > UINT64_MAX / 8 / h.size)
        return wm_sig_fail(s, ": .npy shape %s is too large", h.shape_text);
    uint64_t count = h.dim[0] * h.dim[1];
    /* When the file's size is known, a short file is told before anything
    ** is allocated for what the header promises. Otherwise (gzip, a pipe)
    ** the header is only a claim: nothing is sized from it, the arrays grow
    ** as the data arrives, and a lie costs what was read. */
    if (!s->gz && s->size_hint && s->size_hint < head_bytes + count * h.size)
        return wm_sig_fail(s,
                           ": .npy data is truncated: shape %s of '%s' needs %" PRIu64
                           " bytes after the %" PRIu64 "-byte header, the file has %" PRIu64,
                           h.shape_text, h.descr, count * h.size, head_bytes,
                           s->size_hint - head_bytes);
    k.sized = !s->gz && s->size_hint != 0;

    if (k.by_rows) {
        /* The rows live in out as they are made (freed with it on failure). */
        k.set = out;
        k.first = out->s.n;
        return read_data(s, &k, count, head_bytes);
    }
    /* The kept column: sized from the header only when the file holds it. */
    if ((k.sized && wm_sigvec_grow(&k.a, h.dim[0], s) != 0) ||
        read_data(s, &k, count, head_bytes) != 0) {
        free(k.a.v);
        return -1;
    }
    return wm_sigset_add(out, &k.a, 0, 1, NULL, 0, s);
}
