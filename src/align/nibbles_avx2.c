/*
** nibbles_avx2.c -- nibbles.h's packer 64 symbols at a time with AVX2
** (compiled with -mavx2 alone; wm_nib_pack calls it when the CPU has it).
**
** A byte's nibble is looked up by its low nibble (PSHUFB): in the fast
** form (nibbles.h; DNA's) in one table, checked against the one byte that
** low nibble allows; otherwise in the table of each high nibble that holds
** a symbol, kept where the byte's high nibble is that one. Other bytes
** stay WM_NIB_NONE.
** Adjacent bytes then merge into one (PMADDUBSW by 1 and 16), and the words
** of two vectors pack into 32 bytes (PACKUSWB works within 128-bit lanes,
** so the quads are put back in order).
*/
#include <immintrin.h>
#include <string.h>

#include "align/nibbles.h"

/* The nibbles of 32 bytes by the tables of n_hi high nibbles. */
static inline __m256i lookup(const __m256i *tab, const __m256i *his, int n_hi, __m256i v) {
    const __m256i low = _mm256_set1_epi8(0x0f);
    __m256i lo = _mm256_and_si256(v, low);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
    __m256i r = _mm256_set1_epi8(WM_NIB_NONE);
    for (int k = 0; k < n_hi; k++)
        r = _mm256_blendv_epi8(r, _mm256_shuffle_epi8(tab[k], lo), _mm256_cmpeq_epi8(hi, his[k]));
    return r;
}

/* 64 bytes' nibbles (a and b, 32 each) into 32 bytes at dst. */
static inline void merge(__m256i a, __m256i b, uint8_t *dst) {
    const __m256i weights = _mm256_set1_epi16(0x1001); /* the even byte by 1, the odd by 16 */
    __m256i pa = _mm256_maddubs_epi16(a, weights), pb = _mm256_maddubs_epi16(b, weights);
    _mm256_storeu_si256((__m256i *)dst,
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(pa, pb), 0xd8));
}

/* The table form's whole blocks of 64 (its speed matters less: DNA takes
** the fast form). */
static size_t pack_n(const __m256i *tab, const __m256i *his, int n_hi, const uint8_t *src, size_t n,
                     uint8_t *dst) {
    size_t i = 0;
    for (; i + 64 <= n; i += 64)
        merge(lookup(tab, his, n_hi, _mm256_loadu_si256((const __m256i *)(src + i))),
              lookup(tab, his, n_hi, _mm256_loadu_si256((const __m256i *)(src + i + 32))),
              dst + i / 2);
    return i;
}

/* nibbles.h's fast form: the nibble and the byte allowed by the low nibble,
** kept where the masked byte is that one. */
static size_t pack_fast(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst) {
    const __m256i tab = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)nm->ftab));
    const __m256i exp = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)nm->fexp));
    const __m256i mask = _mm256_set1_epi8((char)nm->fmask), low = _mm256_set1_epi8(0x0f);
    const __m256i none = _mm256_set1_epi8(WM_NIB_NONE);
    __m256i r[2];
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        for (int k = 0; k < 2; k++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(src + i + 32 * k));
            __m256i lo = _mm256_and_si256(v, low);
            __m256i ok = _mm256_cmpeq_epi8(_mm256_and_si256(v, mask), _mm256_shuffle_epi8(exp, lo));
            r[k] = _mm256_or_si256(_mm256_shuffle_epi8(tab, lo), _mm256_andnot_si256(ok, none));
        }
        merge(r[0], r[1], dst + i / 2);
    }
    return i;
}

/* The whole blocks of 64 symbols; returns how many it packed. */
static size_t pack_blocks(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst) {
    if (nm->fast) return pack_fast(nm, src, n, dst);
    __m256i tab[16], his[16];
    for (int k = 0; k < nm->n_hi; k++) {
        tab[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)nm->lo[k]));
        his[k] = _mm256_set1_epi8((char)nm->hi[k]);
    }
    return pack_n(tab, his, nm->n_hi, src, n, dst);
}

/* The tail as one more block, through a copy: a pair's 150 bases are two
** blocks and 22 symbols, which one at a time cost as much as the blocks. */
void wm_nib_pack_avx2(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst) {
    size_t i = pack_blocks(nm, src, n, dst);
    if (i == n) return;
    uint8_t in[64] = { 0 }, out[32];
    memcpy(in, src + i, n - i);
    pack_blocks(nm, in, 64, out);
    if ((n - i) & 1) out[(n - i) / 2] |= WM_NIB_NONE << 4;
    memcpy(dst + i / 2, out, (n - i + 1) / 2);
}
