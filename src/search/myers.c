/*
** myers.c -- search within k edits on the CPU with Myers' bit-vector DP
** (Hyyro's formulation). Column j of the DP (rows = pattern positions) is
** held as vertical differences Pv/Mv (+1/-1), 64 rows to a word; the bottom
** row's value, tracked as a running score, is the smallest distance of the
** pattern to a substring ending at j. For m > 64 the words ("blocks") are
** banded as Ukkonen and Myers do: only blocks that can hold a value <= k are
** computed; on most texts that is the first block or two, whatever m is.
*/
#include <stdlib.h>

#include "search/search.h"

/* One column step of one block. hin is the horizontal difference entering the
** block's top row; returns the one leaving its row `bottom`. */
static inline int advance_block(uint64_t *pv, uint64_t *mv, uint64_t Eq, int hin, uint64_t bottom) {
    uint64_t Pv = *pv, Mv = *mv;
    uint64_t Xv = Eq | Mv;
    if (hin < 0) Eq |= 1;
    uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
    uint64_t Ph = Mv | ~(Xh | Pv);
    uint64_t Mh = Pv & Xh;
    int hout = (Ph & bottom) ? 1 : (Mh & bottom) ? -1 : 0;
    Ph <<= 1;
    Mh <<= 1;
    if (hin < 0) Mh |= 1;
    else if (hin > 0) Ph |= 1;
    *pv = Mh | ~(Xv | Ph);
    *mv = Ph & Xv;
    return hout;
}

/* The state of one automaton over a pattern of up to 64 rows. */
typedef struct {
    uint64_t Pv, Mv;
    int score;
} word_state_t;

/* Bytes [from, to) from state w; push ends >= first_end within k. */
static int scan_word_range(const uint64_t *peq, uint64_t bottom, int k, const uint8_t *text,
                           uint64_t from, uint64_t to, uint64_t first_end, word_state_t *w,
                           int strand, wm_hitvec_t *out) {
    uint64_t Pv = w->Pv, Mv = w->Mv;
    int score = w->score;
    for (uint64_t p = from; p < to; p++) {
        uint64_t Eq = peq[text[p]];
        uint64_t Xv = Eq | Mv;
        uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
        uint64_t Ph = Mv | ~(Xh | Pv);
        uint64_t Mh = Pv & Xh;
        score += (int)((Ph & bottom) != 0) - (int)((Mh & bottom) != 0);
        Ph <<= 1;
        Mh <<= 1;
        Pv = Mh | ~(Xv | Ph);
        Mv = Ph & Xv;
        if (score <= k && p + 1 >= first_end)
            if (wm_hitvec_push(out, p + 1, (uint32_t)score, (uint32_t)strand)) return -1;
    }
    w->Pv = Pv;
    w->Mv = Mv;
    w->score = score;
    return 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WM_HAVE_AVX2_PATH 1

/* One 64-bit Myers step per byte is bound by instruction throughput (about
** 25 instructions with its loads and tests), not latency: interleaving scalar
** automata gains nothing, four AVX2 lanes do. Each lane walks a quarter of
** the span, from `halo` bytes before its first end; each quarter collects its
** hits apart, and the scalar loop finishes what the lockstep leaves. */
__attribute__((target("avx2"))) static int scan_word_avx2(const wm_pat_t *pat, int strand,
                                                          const uint8_t *text, uint64_t scan_from,
                                                          uint64_t own_from, uint64_t to,
                                                          wm_hitvec_t *out) {
    const uint64_t *peq = pat->strand[strand].peq;
    const uint64_t bottom = 1ull << (pat->m - 1);
    const int k = (int)pat->k;
    const uint64_t halo = wm_pat_halo(pat), len = (to - own_from + 3) / 4;
    uint64_t lo[4], hi[4], pos[4], common = UINT64_MAX;
    for (int j = 0; j < 4; j++) {
        lo[j] = own_from + 1 + len * (uint64_t)j;            /* first end */
        hi[j] = lo[j] + len - 1 < to ? lo[j] + len - 1 : to; /* last end */
        pos[j] = lo[j] - 1 - scan_from > halo ? lo[j] - 1 - halo : scan_from;
        uint64_t steps = lo[j] <= hi[j] ? hi[j] - pos[j] : 0;
        if (steps < common) common = steps;
    }
    const __m256i ones = _mm256_set1_epi64x(-1), one = _mm256_set1_epi64x(1);
    const __m256i k1 = _mm256_set1_epi64x(k + 1);
    const __m128i sh = _mm_set_epi64x(0, (long long)(pat->m - 1));
    __m256i Pv = ones, Mv = _mm256_setzero_si256(), score = _mm256_set1_epi64x((long long)pat->m);
    wm_hitvec_t part[4] = { { 0 } };
    int rc = 0;
    for (uint64_t s = 0; s < common; s++) {
        __m256i idx = _mm256_set_epi64x(text[pos[3] + s], text[pos[2] + s], text[pos[1] + s],
                                        text[pos[0] + s]);
        __m256i Eq = _mm256_i64gather_epi64((const long long *)peq, idx, 8);
        __m256i Xv = _mm256_or_si256(Eq, Mv);
        __m256i Xh = _mm256_or_si256(
            _mm256_xor_si256(_mm256_add_epi64(_mm256_and_si256(Eq, Pv), Pv), Pv), Eq);
        __m256i Ph = _mm256_or_si256(Mv, _mm256_xor_si256(_mm256_or_si256(Xh, Pv), ones));
        __m256i Mh = _mm256_and_si256(Pv, Xh);
        score = _mm256_add_epi64(score, _mm256_and_si256(_mm256_srl_epi64(Ph, sh), one));
        score = _mm256_sub_epi64(score, _mm256_and_si256(_mm256_srl_epi64(Mh, sh), one));
        Ph = _mm256_slli_epi64(Ph, 1);
        Mh = _mm256_slli_epi64(Mh, 1);
        Pv = _mm256_or_si256(Mh, _mm256_xor_si256(_mm256_or_si256(Xv, Ph), ones));
        Mv = _mm256_and_si256(Ph, Xv);
        int hit = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(k1, score)));
        if (hit) {
            long long sc[4];
            _mm256_storeu_si256((__m256i *)sc, score);
            for (int j = 0; j < 4; j++)
                if ((hit >> j) & 1 && pos[j] + s + 1 >= lo[j])
                    rc |=
                        wm_hitvec_push(&part[j], pos[j] + s + 1, (uint32_t)sc[j], (uint32_t)strand);
        }
    }
    uint64_t pv[4], mv[4];
    long long sc[4];
    _mm256_storeu_si256((__m256i *)pv, Pv);
    _mm256_storeu_si256((__m256i *)mv, Mv);
    _mm256_storeu_si256((__m256i *)sc, score);
    for (int j = 0; j < 4; j++) {
        if (lo[j] > hi[j]) continue;
        word_state_t w = { pv[j], mv[j], (int)sc[j] };
        rc |= scan_word_range(peq, bottom, k, text, pos[j] + common, hi[j], lo[j], &w, strand,
                              &part[j]);
    }
    for (int j = 0; j < 4; j++) {
        for (size_t i = 0; i < part[j].n && rc == 0; i++)
            rc |= wm_hitvec_push(out, part[j].a[i].end, part[j].a[i].errors, part[j].a[i].strand);
        wm_hitvec_free(&part[j]);
    }
    return rc ? -1 : 0;
}
#endif

static int scan_one_word(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                         uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
#ifdef WM_HAVE_AVX2_PATH
    static int avx2 = -1;
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    if (avx2 && to - own_from >= 1024)
        return scan_word_avx2(pat, strand, text, scan_from, own_from, to, out);
#endif
    word_state_t w = { ~0ull, 0, (int)pat->m };
    return scan_word_range(pat->strand[strand].peq, 1ull << (pat->m - 1), (int)pat->k, text,
                           scan_from, to, own_from + 1, &w, strand, out);
}

static int scan_blocks(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                       uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const uint64_t *peq = pat->strand[strand].peq;
    const size_t nb = pat->n_words, m = pat->m;
    const int k = (int)pat->k;
    uint64_t *Pv = malloc(nb * sizeof *Pv), *Mv = malloc(nb * sizeof *Mv);
    int *score = malloc(nb * sizeof *score);
    if (!Pv || !Mv || !score) {
        free(Pv);
        free(Mv);
        free(score);
        return -1;
    }
    /* rows in block b and the bit of its bottom row */
#define ROWS(b) ((b) + 1 < nb ? 64 : (int)(m - 64 * (nb - 1)))
#define BOTTOM(b) (1ull << (ROWS(b) - 1))
    /* Column 0: D[i][0] = i, so rows 1..k are within k: those blocks are active. */
    size_t y = (size_t)k / 64;
    if (y >= nb) y = nb - 1;
    for (size_t b = 0; b <= y; b++) {
        Pv[b] = ~0ull;
        Mv[b] = 0;
        score[b] = (int)(b * 64) + ROWS(b);
    }
    int rc = 0;
    for (uint64_t p = scan_from; p < to && rc == 0; p++) {
        const uint64_t *eq = peq + (size_t)text[p] * nb;
        int h = 0;
        for (size_t b = 0; b <= y; b++) {
            h = advance_block(&Pv[b], &Mv[b], eq[b], h, BOTTOM(b));
            score[b] += h;
        }
        /* A block below the band holds only values > k; it must join once the
        ** row above it is within k in this column or the last one, since a
        ** path into it can only come through that row. */
        while (y + 1 < nb && (score[y] <= k || score[y] - h <= k)) {
            int above_prev = score[y] - h; /* D[top-1][j-1] */
            y++;
            Pv[y] = ~0ull;
            Mv[y] = 0; /* D[i][j-1] = above_prev + distance down: an upper bound */
            score[y] = above_prev + ROWS(y);
            h = advance_block(&Pv[y], &Mv[y], eq[y], h, BOTTOM(y));
            score[y] += h;
        }
        /* The smallest value in a block is at least its bottom minus its height - 1. */
        while (y > 0 && score[y] >= k + ROWS(y)) y--;
        if (y == nb - 1 && score[y] <= k && p + 1 > own_from)
            rc = wm_hitvec_push(out, p + 1, (uint32_t)score[y], (uint32_t)strand);
    }
#undef ROWS
#undef BOTTOM
    free(Pv);
    free(Mv);
    free(score);
    return rc;
}

int wm_myers_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                  uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    if (pat->m <= 64) return scan_one_word(pat, strand, text, scan_from, own_from, to, out);
    return scan_blocks(pat, strand, text, scan_from, own_from, to, out);
}
