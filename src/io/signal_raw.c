/*
** signal_raw.c -- a raw file of little-endian float32 or float64 samples, the
** whole file one signal.
**
** float64 bytes are read straight into the signal's array (sized from the
** file when its size is known, else grown by doubling) and only then checked
** and, on a big-endian host, byte-swapped; float32 goes through a block
** buffer and is widened to double, which is exact.
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

static int read_f64(wm_sigsrc_t *s, wm_sigvec_t *a, uint64_t *bytes) {
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
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (uint64_t i = 0; i < a->n; i++) a->v[i] = wm_sig_f64le((const uint8_t *)(a->v + i));
#endif
    return 0;
}

static int read_f32(wm_sigsrc_t *s, wm_sigvec_t *a, uint64_t *bytes) {
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

int wm_sig_read_raw(wm_sigsrc_t *s, int bytes_per_sample, wm_sigset_t *out) {
    wm_sigvec_t a = { NULL, 0, 0 };
    uint64_t bytes = 0;
    int rc = bytes_per_sample == 8 ? read_f64(s, &a, &bytes) : read_f32(s, &a, &bytes);
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
