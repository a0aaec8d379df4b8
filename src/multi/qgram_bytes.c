/*
** qgram_bytes.c -- the q-gram index of a byte set on the CPU, keyed by 4 and
** by 8 bytes (qgram.h, qgram_bytes.h).
**
** Signature sets mix a few short strings with many long ones (4 to 64 bytes
** in the benchmark of BENCHMARKS.md section 4b). One q for all of them must
** be the shortest length, and keyed by 4 bytes the long strings make nearly
** every text position a candidate. So the strings of 4..7 bytes (side 0)
** are keyed by their last 4 bytes and the rest (side 1) by their last 8, and
** at every end the 8 bytes before it, one code, probe both sides' bitmaps; a
** side's bucket is searched only where its bitmap says a string may end.
**
** Verification is by the key: a short string's key is the whole string, so
** the code's top len bytes confirm it; a long string's key is its last 8
** bytes, and only the bytes before them are compared, through fold. A string
** must start at or after scan_from (record and chunk borders); the code's
** bytes before scan_from are zeros or earlier bytes that no accepted match
** covers.
**
** With fold the identity (a case-sensitive byte set), each end's code is
** one load, and on an AVX2 CPU the bitmaps are probed 8 ends at a time
** (qgram_bytes_avx2.c); otherwise the code rolls the folded bytes in.
*/
#include <stdlib.h>
#include <string.h>

#include "core/simd.h"
#include "multi/qgram_bytes.h"

/* n (<= 8) bytes as a little-endian number: p[0] lowest. */
static uint64_t le_bytes(const uint8_t *p, uint32_t n) {
    uint64_t v = 0;
    for (uint32_t j = n; j-- > 0;) v = v << 8 | p[j];
    return v;
}

/* The code a string's end gives, as far as its side's hash reads it: the
** last 8 bytes (side 1), or the last 4 as the code's top half (side 0). */
static uint64_t end_code(const wm_mset_t *s, uint32_t u, int side) {
    const uint8_t *end = wm_mset_str(s, u) + wm_mset_len(s, u);
    return side ? le_bytes(end - 8, 8) : le_bytes(end - 4, 4) << 32;
}

static wm_status build_side(const wm_mset_t *s, wm_qg_side_t *d, int side) {
    if (d->n == 0) return WM_OK;
    /* 64 bits a string: 1 in 64 probes finds a bucket for nothing;
    ** 4 KiB .. 2 MiB */
    uint32_t b = wm_qg_log2_ceil(d->n) + 6;
    d->bitmap_bits = b < 15 ? 15 : b > 24 ? 24 : b;
    uint32_t kb = wm_qg_log2_ceil(d->n) + 1;
    d->bucket_bits = kb < 4 ? 4 : kb;
    size_t nb = (size_t)1 << d->bucket_bits;
    d->bitmap = calloc(((size_t)1 << d->bitmap_bits) / 32, sizeof *d->bitmap);
    d->off = calloc(nb + 1, sizeof *d->off);
    d->ent = malloc(d->n * sizeof *d->ent);
    uint32_t *fill = malloc(nb * sizeof *fill);
    if (!d->bitmap || !d->off || !d->ent || !fill) {
        free(fill);
        return WM_NOMEM;
    }
    for (uint32_t u = 0; u < s->n_uniq; u++) {
        if ((wm_mset_len(s, u) >= 8) != side) continue;
        uint32_t h = wm_qgb_hash(side, end_code(s, u, side)), bit = h >> (32 - d->bitmap_bits);
        d->bitmap[bit >> 5] |= 1u << (bit & 31);
        d->off[(h >> (32 - d->bucket_bits)) + 1]++;
    }
    for (size_t k = 0; k < nb; k++) d->off[k + 1] += d->off[k];
    memcpy(fill, d->off, nb * sizeof *fill);
    for (uint32_t u = 0; u < s->n_uniq; u++) { /* uid order within a bucket */
        uint32_t len = wm_mset_len(s, u);
        if ((len >= 8) != side) continue;
        uint32_t h = wm_qgb_hash(side, end_code(s, u, side));
        wm_qg_ent_t *e = &d->ent[fill[h >> (32 - d->bucket_bits)]++];
        e->key = side ? end_code(s, u, 1) : le_bytes(wm_mset_str(s, u), len);
        e->uid = u;
        e->len = len;
    }
    free(fill);
    return WM_OK;
}

wm_status wm_qgram_bytes_build(const wm_mset_t *s, wm_qgram_t *g) {
    if (s->dna || s->min_len < 4) return WM_OK; /* the one index serves */
    int id = 1;
    for (int c = 0; c < 256; c++) id &= s->fold[c] == c;
    g->fold_id = id;
    for (uint32_t u = 0; u < s->n_uniq; u++) g->side[wm_mset_len(s, u) >= 8].n++;
    for (int side = 0; side < 2; side++) {
        wm_status st = build_side(s, &g->side[side], side);
        if (st != WM_OK) return st; /* wm_qgram_free frees what was made */
    }
    g->split = 1;
    return WM_OK;
}

void wm_qgram_bytes_free(wm_qgram_t *g) {
    for (int side = 0; side < 2; side++) {
        free(g->side[side].bitmap);
        free(g->side[side].off);
        free(g->side[side].ent);
        memset(&g->side[side], 0, sizeof g->side[side]);
    }
    g->split = 0;
}

int wm_qgram_bytes_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from,
                        uint64_t own_from, uint64_t to, wm_msink_t *out) {
    const wm_qgram_t *g = s->qg;
    wm_qgb_scan_t q = { { wm_qgb_view(&g->side[0]), wm_qgb_view(&g->side[1]) },
                        s->fold,
                        s->bytes,
                        s->off,
                        g->fold_id };
    uint64_t code = 0, i = scan_from;
    /* ends before own_from are another chunk's: roll their bytes in only */
    for (; i < to && i < own_from; i++) code = code >> 8 | (uint64_t)s->fold[text[i]] << 56;
    if (q.fold_id) {
        /* bytes as they are: each end's code is one load of the 8 bytes
        ** before it, no chain from one end to the next (the buffer's first
        ** 8 are rolled) */
        for (; i < to && i < 8; i++) {
            code = code >> 8 | (uint64_t)text[i] << 56;
            if (wm_qgb_at(&q, text, i + 1, i + 1 - scan_from, code, out)) return -1;
        }
#if WM_SIMD_X86
        if (i < to && wm_simd_cpu_isa() >= WM_SIMD_AVX2) {
            i = wm_qgb_scan_avx2(&q, text, scan_from, i, to, out);
            if (i == UINT64_MAX) return -1;
        }
#endif
        for (; i < to; i++)
            if (wm_qgb_at(&q, text, i + 1, i + 1 - scan_from, wm_qgb_load(text, i + 1), out))
                return -1;
        return 0;
    }
    for (; i < to; i++) {
        code = code >> 8 | (uint64_t)s->fold[text[i]] << 56;
        if (wm_qgb_at(&q, text, i + 1, i + 1 - scan_from, code, out)) return -1;
    }
    return 0;
}
