/*
** signal_raw.c -- a raw file of little-endian float32 or float64 samples, the
** whole file one signal.
**
** float64 bytes are read straight into the signal's array (sized from the
** file when its size is known, else grown by doubling) and only then checked
** and, on a big-endian host, byte-swapped; float32 goes through a block
** buffer and is widened to double, which is exact.
**
** Before that, the first 4 KiB must not look like text: the bytes of "1.5\n"
** are a float32 too (1.2e-8 or so), so a text file given as raw would be read
** as nonsense numbers without a word (issue 20). opts.raw_force reads them.
*/
#include "io/signal_impl.h"

#include <inttypes.h>
#include <math.h>

/* float32 bytes converted at a time. */
#define WM_RAW_F32_BLOCK ((size_t)1 << 20)

/* The first sample that is not finite, or -1 when all are. */
static int64_t first_nonfinite(const double *v, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return (int64_t)i;
    return -1;
}

/* The length of the UTF-8 sequence at p[0 .. n) (2 to 4 bytes, no overlong
** forms or surrogates), or 0 when it is not one. */
static size_t utf8_len(const uint8_t *p, size_t n) {
    size_t len = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (len == 0 || len > n || (p[0] >= 0xf0 && len != 4)) return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if (len == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0))) return 0;
    if (len == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))) return 0;
    return len;
}

int wm_sig_looks_text(const uint8_t *p, size_t n) {
    size_t text = 0, i = 0;
    if (n == 0) return 0;
    while (i < n) {
        uint8_t c = p[i];
        if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t') {
            text++;
            i++;
        } else if (c >= 0x80 && utf8_len(p + i, n - i) != 0) {
            size_t k = utf8_len(p + i, n - i);
            text += k;
            i += k;
        } else {
            i++;
        }
    }
    return text * 100 > n * 95;
}

/* The refusal of a text-looking raw file. */
static int fail_text(wm_sigsrc_t *s, int bytes_per_sample) {
    return wm_sig_fail(s,
                       ": looks like text, not raw float%d (its first bytes are printable); "
                       "read it as text (the text format, or auto), or force the raw read "
                       "(--force-raw)",
                       bytes_per_sample * 8);
}

static int read_f64(wm_sigsrc_t *s, wm_sigvec_t *a, uint64_t *bytes, int force) {
    /* One sample more than the file holds, so that the read that reaches the
    ** end comes back short instead of forcing a doubling. */
    uint64_t want = s->size_hint ? s->size_hint / 8 + 1 : 0;
    if (want && wm_sigvec_grow(a, want, s) != 0) return -1;
    for (;;) {
        if (*bytes == a->m * 8 && wm_sigvec_grow(a, a->m + 1, s) != 0) return -1;
        size_t room = (size_t)(a->m * 8 - *bytes);
        int64_t r = wm_sigsrc_read(s, (uint8_t *)a->v + *bytes, room);
        if (r < 0) return -1;
        *bytes += (uint64_t)r;
        if ((size_t)r < room) break;
    }
    a->n = *bytes / 8;
    if (!force &&
        wm_sig_looks_text((const uint8_t *)a->v,
                          *bytes < WM_SIG_TEXT_PROBE ? (size_t)*bytes : WM_SIG_TEXT_PROBE))
        return fail_text(s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (uint64_t i = 0; i < a->n; i++) a->v[i] = wm_sig_f64le((const uint8_t *)(a->v + i));
#endif
    return 0;
}

static int read_f32(wm_sigsrc_t *s, wm_sigvec_t *a, uint64_t *bytes, int force) {
    uint8_t *block = malloc(WM_RAW_F32_BLOCK);
    if (!block) return wm_sig_fail(s, ": out of memory");
    uint64_t want = s->size_hint ? s->size_hint / 4 + 1 : 0;
    if (want && wm_sigvec_grow(a, want, s) != 0) {
        free(block);
        return -1;
    }
    size_t carry = 0; /* bytes of a sample cut by the block's end */
    for (;;) {
        size_t ask = WM_RAW_F32_BLOCK - carry;
        int64_t r = wm_sigsrc_read(s, block + carry, ask);
        if (r < 0) {
            free(block);
            return -1;
        }
        if (*bytes == 0 && !force &&
            wm_sig_looks_text(block,
                              (size_t)r < WM_SIG_TEXT_PROBE ? (size_t)r : WM_SIG_TEXT_PROBE)) {
            free(block);
            return fail_text(s, 4);
        }
        *bytes += (uint64_t)r;
        size_t have = carry + (size_t)r, k = have / 4;
        if (a->n + k > a->m && wm_sigvec_grow(a, a->n + k, s) != 0) {
            free(block);
            return -1;
        }
        for (size_t i = 0; i < k; i++) a->v[a->n + i] = wm_sig_f32le(block + 4 * i);
        a->n += k;
        carry = have - 4 * k;
        memmove(block, block + 4 * k, carry);
        if ((size_t)r < ask) break; /* the end of the input */
    }
    free(block);
    return 0;
}

int wm_sig_read_raw(wm_sigsrc_t *s, int bytes_per_sample, const wm_sigread_opts_t *o,
                    wm_sigset_t *out) {
    wm_sigvec_t a = { NULL, 0, 0 };
    uint64_t bytes = 0;
    int rc = bytes_per_sample == 8 ? read_f64(s, &a, &bytes, o->raw_force)
                                   : read_f32(s, &a, &bytes, o->raw_force);
    uint64_t extra = bytes % (uint64_t)bytes_per_sample;
    if (rc == 0 && extra != 0)
        rc = wm_sig_fail(s,
                         ": %" PRIu64 " byte%s, not a multiple of %d (float%d): %" PRIu64
                         " extra byte%s at the end",
                         bytes, bytes == 1 ? "" : "s", bytes_per_sample, bytes_per_sample * 8,
                         extra, extra == 1 ? "" : "s");
    if (rc == 0 && a.n == 0) rc = wm_sig_fail(s, ": no samples");
    if (rc == 0) {
        int64_t bad = first_nonfinite(a.v, a.n);
        if (bad >= 0)
            rc = wm_sig_fail(s, ": sample %" PRId64 " is %s", bad, wm_sig_nonfinite(a.v[bad]));
    }
    if (rc == 0) return wm_sigset_add(out, &a, 0, 1, NULL, 0, s);
    free(a.v);
    return -1;
}
