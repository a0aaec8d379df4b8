/*
** qgram_bytes.h -- what the byte index's scans share (qgram_bytes.c, the
** scalar scan and the dispatch; qgram_bytes_avx2.c, the filter 8 ends at a
** time): the hashes, and the check of one end.
**
** Hashes are 32-bit multiplicative ones of the code's two 32-bit halves, so
** that AVX2 computes them as the scalar code does: side 0 from the last 4
** bytes (hi), side 1 from all 8 (lo and hi). A side's bitmap takes the top
** bitmap_bits of its hash and its buckets the top bucket_bits.
*/
#ifndef WM_MULTI_QGRAM_BYTES_H
#define WM_MULTI_QGRAM_BYTES_H

#include <string.h>

#include "multi/qgram.h"

#define WM_QGB_K0 0x9E3779B1u /* the golden ratio's multiplier */
#define WM_QGB_K1 0x85EBCA77u /* another odd one (xxHash's PRIME32_2) */

static inline uint32_t wm_qgb_hash0(uint32_t hi) { return hi * WM_QGB_K0; }
static inline uint32_t wm_qgb_hash1(uint32_t lo, uint32_t hi) {
    return lo * WM_QGB_K1 + hi * WM_QGB_K0;
}
static inline uint32_t wm_qgb_hash(int side, uint64_t code) {
    uint32_t lo = (uint32_t)code, hi = (uint32_t)(code >> 32);
    return side ? wm_qgb_hash1(lo, hi) : wm_qgb_hash0(hi);
}

/* A side as a scan holds it: in locals, so that the counts the sink writes
** (which could alias the index, as far as the compiler knows) do not make
** it reload them at every end. */
typedef struct {
    const uint32_t *bitmap;
    const uint32_t *off;
    const wm_qg_ent_t *ent;
    uint32_t bitmap_shift, bucket_shift, n;
} wm_qgb_view_t;

static inline wm_qgb_view_t wm_qgb_view(const wm_qg_side_t *d) {
    wm_qgb_view_t v = { d->bitmap, d->off, d->ent, 32 - d->bitmap_bits, 32 - d->bucket_bits, d->n };
    return v;
}

/* Everything a scan needs besides the text. */
typedef struct {
    wm_qgb_view_t v[2];
    const uint8_t *fold, *bytes;
    const uint64_t *str_off;
    int fold_id;
} wm_qgb_scan_t;

static inline int wm_qgb_probe(const wm_qgb_view_t *v, uint32_t h) {
    uint32_t bit = h >> v->bitmap_shift;
    return (int)((v->bitmap[bit >> 5] >> (bit & 31)) & 1);
}

/* The bytes before a long string's last 8: text[e - len, e - 8) against
** str[0, len - 8), through fold (8 bytes at a time when fold is the
** identity). */
static inline int wm_qgb_head_equal(const wm_qgb_scan_t *q, const uint8_t *t, const uint8_t *p,
                                    uint32_t n) {
    if (q->fold_id) {
        uint32_t j = 0;
        for (; j + 8 <= n; j += 8) {
            uint64_t a, b;
            memcpy(&a, t + j, 8);
            memcpy(&b, p + j, 8);
            if (a != b) return 0;
        }
        for (; j < n; j++)
            if (t[j] != p[j]) return 0;
        return 1;
    }
    for (uint32_t j = 0; j < n; j++)
        if (q->fold[t[j]] != p[j]) return 0;
    return 1;
}

/* The strings of side 0 (4..7 bytes, the key is the string) in the bucket
** of hash h that end at e; `code` holds the 8 (folded) bytes before e and
** `have` = e - scan_from of them lie inside the scan. 0, or -1 (no memory). */
static inline int wm_qgb_bucket0(const wm_qgb_scan_t *q, uint32_t h, uint64_t e, uint64_t have,
                                 uint64_t code, wm_msink_t *out) {
    const wm_qgb_view_t *v = &q->v[0];
    uint32_t k = h >> v->bucket_shift;
    for (uint32_t x = v->off[k]; x < v->off[k + 1]; x++) {
        const wm_qg_ent_t *en = &v->ent[x];
        if (have >= en->len && code >> (64 - 8 * en->len) == en->key &&
            wm_msink_put(out, e, en->uid))
            return -1;
    }
    return 0;
}

/* The same for side 1 (8 bytes and more, the key is the last 8). */
static inline int wm_qgb_bucket1(const wm_qgb_scan_t *q, const uint8_t *text, uint32_t h,
                                 uint64_t e, uint64_t have, uint64_t code, wm_msink_t *out) {
    const wm_qgb_view_t *v = &q->v[1];
    uint32_t k = h >> v->bucket_shift;
    for (uint32_t x = v->off[k]; x < v->off[k + 1]; x++) {
        const wm_qg_ent_t *en = &v->ent[x];
        if (code != en->key || have < en->len) continue;
        if (!wm_qgb_head_equal(q, text + e - en->len, q->bytes + q->str_off[en->uid], en->len - 8))
            continue;
        if (wm_msink_put(out, e, en->uid)) return -1;
    }
    return 0;
}

/* Every string that ends at e: both sides, each where its bitmap says. */
static inline int wm_qgb_at(const wm_qgb_scan_t *q, const uint8_t *text, uint64_t e, uint64_t have,
                            uint64_t code, wm_msink_t *out) {
    uint32_t h0 = wm_qgb_hash(0, code), h1 = wm_qgb_hash(1, code);
    if (q->v[0].n && wm_qgb_probe(&q->v[0], h0) && wm_qgb_bucket0(q, h0, e, have, code, out))
        return -1;
    if (q->v[1].n && wm_qgb_probe(&q->v[1], h1) && wm_qgb_bucket1(q, text, h1, e, have, code, out))
        return -1;
    return 0;
}

/* The 8 bytes that end at text + e (e >= 8), as a code. */
static inline uint64_t wm_qgb_load(const uint8_t *text, uint64_t e) {
    uint64_t v;
    memcpy(&v, text + e - 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* The AVX2 scan of ends (from, to] with fold the identity, from >= 8:
** returns the end it stopped at (to, or less: the last ends, fewer than 8,
** are the caller's), or UINT64_MAX on -1 from the sink. */
uint64_t wm_qgb_scan_avx2(const wm_qgb_scan_t *q, const uint8_t *text, uint64_t scan_from,
                          uint64_t from, uint64_t to, wm_msink_t *out);

#endif
