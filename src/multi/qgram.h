/*
** qgram.h -- the q-gram index of a pattern set (CPU: qgram.c; GPU:
** qgram.cu reads the same tables).
**
** Every string is keyed by its LAST q symbols, so a text position j is a
** candidate end and ends come out in order. A bitmap answers "does any
** string end with this q-gram?" for every position; only where it does is
** the bucket of the q-gram searched and each string in it verified.
**   DNA sets: a q-gram is q <= 16 bases, 2 bits each (A C G T = 0..3); bytes
**   that are no base break the q-gram. Up to WM_QG_DIRECT_MAX bases the bitmap is
**   indexed by the code itself (4^q bits), beyond by its hash.
**   Byte sets: q <= 8 folded bytes packed in 64 bits, hashed into the bitmap.
** Buckets: hash(code) >> (64 - bucket_bits), a CSR array of (code, uid)
** entries sorted by bucket.
*/
#ifndef WM_MULTI_QGRAM_H
#define WM_MULTI_QGRAM_H

#include <stdint.h>
#include "multi/mset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_QG_DIRECT_MAX 11u

/* Byte sets on the CPU (qgram_bytes.c): one side of the index. Side 0 holds
** the strings of 4..7 bytes, keyed by their last 4 bytes; side 1 the longer
** ones, keyed by their last 8. Keys and codes are little-endian numbers of
** bytes in text order: a code's byte k (bits 8k..8k+7) is text[p - 7 + k]
** for the end p, so a string of len bytes ends at p where the code's top
** len bytes are its key. */
typedef struct {
    uint64_t key; /* side 0: the whole string; side 1: its last 8 bytes */
    uint32_t uid, len;
} wm_qg_ent_t;

typedef struct {
    uint32_t n;           /* strings on this side */
    uint32_t bitmap_bits; /* log2 of the bitmap's size in bits */
    uint32_t bucket_bits; /* log2 of the number of buckets (<= bitmap_bits) */
    uint32_t *bitmap;     /* 32-bit words: the vector scan gathers them */
    uint32_t *off;        /* (1 << bucket_bits) + 1 */
    wm_qg_ent_t *ent;     /* n, bucket order */
} wm_qg_side_t;

typedef struct wm_qgram {
    uint32_t q;           /* symbols in a q-gram */
    int dna;              /* 2-bit bases, else bytes */
    int direct;           /* bitmap indexed by the code itself */
    uint32_t bitmap_bits; /* log2 of the bitmap's size in bits */
    uint32_t bucket_bits; /* log2 of the number of buckets */
    uint64_t code_mask;   /* the low 2q or 8q bits */
    uint64_t *bitmap;     /* 1 << bitmap_bits bits */
    uint32_t *bucket_off; /* (1 << bucket_bits) + 1 */
    uint64_t *entry_code; /* n_uniq, bucket order */
    uint32_t *entry_uid;  /* n_uniq, bucket order */
    int all_q;            /* every string is exactly q long */
    /* byte sets on the CPU: the index by 4 and 8 bytes that the scan uses
    ** instead of the one above (which the GPU reads); NULL sides otherwise */
    int split;
    int fold_id; /* the set's fold is the identity */
    wm_qg_side_t side[2];
} wm_qgram_t;

/* Build the index of s's strings (every one at least WM_QGRAM_MIN_LEN long);
** on failure *out may hold a partial index to free. WM_OK, WM_NOMEM, WM_INVALID. */
wm_status wm_qgram_make(const wm_mset_t *s, wm_qgram_t **out);

/* The CPU's byte index (qgram_bytes.c): built beside the tables above for a
** byte set (every string at least 4 bytes), and its scan. A q of min_len
** keys every string by its last min_len bytes: with 4-byte strings in a set
** of long ones, nearly every text position then probes a bucket; keyed by 8
** bytes, the long strings are found only where they end. */
wm_status wm_qgram_bytes_build(const wm_mset_t *s, wm_qgram_t *g);
void wm_qgram_bytes_free(wm_qgram_t *g);
int wm_qgram_bytes_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from,
                        uint64_t own_from, uint64_t to, wm_msink_t *out);

/* The smallest b with 2^b >= x: table sizes. */
static inline uint32_t wm_qg_log2_ceil(uint64_t x) {
    uint32_t b = 0;
    while ((1ull << b) < x) b++;
    return b;
}

static inline uint64_t wm_qg_hash(uint64_t code) {
    return (code ^ (code >> 29)) * 0x9E3779B97F4A7C15ull;
}
static inline uint64_t wm_qg_bit(const wm_qgram_t *g, uint64_t code) {
    return g->direct ? code : wm_qg_hash(code) >> (64 - g->bitmap_bits);
}
static inline uint64_t wm_qg_bucket(const wm_qgram_t *g, uint64_t code) {
    return wm_qg_hash(code) >> (64 - g->bucket_bits);
}

#ifdef __cplusplus
}
#endif
#endif
