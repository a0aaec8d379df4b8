/*
** setk_dev.cuh -- what the GPU files of a set within k errors share: the
** byte tables, a batch of text and its records, the hits buffer, and the
** Myers kernel that verifies seeded windows (setk_cuda.cu) and scans the
** patterns too short to seed (direct_cuda.cu).
**
** The tables are static: without separable compilation each file that
** includes this holds its own copy, uploaded by setk_constants.
*/
#ifndef WM_SETK_SETK_DEV_CUH
#define WM_SETK_SETK_DEV_CUH

#include <stdint.h>

#include "cuda/cuda_common.cuh"
#include "search/search.h"
#include "setk/setk.h"

/* A text byte's base (A=0 C=1 G=2 T/U=3, either case), -1 for none. */
static __constant__ int8_t d_base[256];
/* An IUPAC code's bases as bits (A=1 C=2 G=4 T=8), and its complement. */
static __constant__ uint8_t d_iupac[256];
static __constant__ uint8_t d_comp[256];

static inline wm_status setk_constants(wm_context_t *cx) {
    int8_t base[256];
    uint8_t iupac[256], comp[256];
    for (int c = 0; c < 256; c++) {
        unsigned b = wm_iupac_bases((uint8_t)c);
        iupac[c] = (uint8_t)b;
        comp[c] = wm_iupac_complement((uint8_t)c);
        /* a text byte is a base when its code names exactly one */
        base[c] = (int8_t)(b == 1 ? 0 : b == 2 ? 1 : b == 4 ? 2 : b == 8 ? 3 : -1);
    }
    WM_CU(cx, cudaMemcpyToSymbol(d_base, base, sizeof base));
    WM_CU(cx, cudaMemcpyToSymbol(d_iupac, iupac, sizeof iupac));
    WM_CU(cx, cudaMemcpyToSymbol(d_comp, comp, sizeof comp));
    return WM_OK;
}

/* The batch: text[from, to) at d_text (absolute offset from), the records
** meeting it (rs[r0 .. r0 + n_rs], absolute starts, the last its end), and
** the owned ends (lo, hi]. */
typedef struct {
    const uint8_t *text;
    uint64_t from, to;
    const uint64_t *rs;
    uint32_t n_rs;
    uint64_t r0;
    uint64_t lo, hi;
} dbatch_t;

__device__ __forceinline__ uint64_t at(const dbatch_t &b, uint64_t x) { return b.text[x - b.from]; }

/* The record (index into b.rs) holding byte x: the last start <= x. */
__device__ __forceinline__ uint32_t record_of(const dbatch_t &b, uint64_t x) {
    uint32_t lo = 0, hi = b.n_rs; /* rs[lo] <= x < rs[hi] */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (b.rs[mid] <= x) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The record (index into b.rs) holding end e: rs[r] < e <= rs[r + 1]. */
__device__ __forceinline__ uint32_t record_of_end(const dbatch_t &b, uint64_t e) {
    return record_of(b, e - 1);
}

/* ---- hits: (pattern, strand, end, errors), any order --------------------------- */

typedef struct {
    uint64_t end;
    uint32_t pat;
    uint16_t strand;
    uint16_t errors;
} dhit_t;

typedef struct {
    dhit_t *a;
    unsigned long long *count; /* counts past cap: the caller grows and runs again */
    uint64_t cap;
} dhits_t;

__device__ __forceinline__ void push_hit(const dhits_t &o, uint64_t end, uint32_t pat,
                                         uint32_t strand, uint32_t errors) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(o.count, (unsigned long long)g.size());
    unsigned long long i = g.shfl(first, 0) + g.thread_rank();
    if (i < o.cap) {
        dhit_t h = { end, pat, (uint16_t)strand, (uint16_t)errors };
        o.a[i] = h;
    }
}

/* ---- Myers over at most 4 words (m <= 256) ------------------------------------- */

#define SETK_GPU_MAX_LEN 256u

/* The match masks of pattern p (m bytes) as searched on strand (1: its
** reverse complement), per base. */
__device__ __forceinline__ void setk_peq(const uint8_t *p, uint32_t m, uint32_t strand,
                                         uint64_t (&peq)[4][4]) {
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 4; w++) peq[c][w] = 0;
    for (uint32_t j = 0; j < m; j++) {
        uint8_t pc = strand ? d_comp[p[m - 1 - j]] : p[j];
        unsigned set = d_iupac[pc];
        for (int c = 0; c < 4; c++)
            if (set >> c & 1) peq[c][j / 64] |= 1ull << (j % 64);
    }
}

/* One column of Myers' bit-vector over W words (Hyyro's blocks: the
** horizontal delta carried from word to word): the text symbol's masks eq
** (c < 0: none), hin the delta into the top row (0: the row stays 0, an
** occurrence starts anywhere; 1: it grows, anchored), the last row's delta
** returned. */
template <int W>
__device__ __forceinline__ int setk_myers_column(const uint64_t (&peq)[4][4], int c, uint32_t m,
                                                 int hin, uint64_t (&pv)[W], uint64_t (&mv)[W]) {
    const uint64_t last_bit = 1ull << ((m - 1) % 64);
#pragma unroll
    for (int w = 0; w < W; w++) {
        uint64_t eq = c >= 0 ? peq[c][w] : 0;
        uint64_t xv = eq | mv[w];
        if (hin < 0) eq |= 1;
        uint64_t xh = (((eq & pv[w]) + pv[w]) ^ pv[w]) | eq;
        uint64_t ph = mv[w] | ~(xh | pv[w]);
        uint64_t mh = pv[w] & xh;
        uint64_t high = w == W - 1 ? last_bit : 1ull << 63;
        int hout = (ph & high) ? 1 : (mh & high) ? -1 : 0;
        ph <<= 1;
        mh <<= 1;
        if (hin < 0) mh |= 1;
        else if (hin > 0) ph |= 1;
        pv[w] = mh | ~(xv | ph);
        mv[w] = ph & xv;
        hin = hout;
    }
    return hin;
}

/* Myers' bit-vector over W words from text byte `from` with the top row 0
** (an occurrence starts anywhere), ends in (own, to] within k reported. */
template <int W>
__device__ void setk_myers_w(const dbatch_t &b, const uint64_t (&peq)[4][4], uint32_t m, uint32_t k,
                             uint64_t from, uint64_t own, uint64_t to, uint32_t pat,
                             uint32_t strand, const dhits_t &o) {
    uint64_t pv[W], mv[W];
    for (int w = 0; w < W; w++) {
        pv[w] = ~0ull;
        mv[w] = 0;
    }
    uint32_t score = m;
    for (uint64_t x = from; x < to; x++) {
        score += setk_myers_column<W>(peq, d_base[at(b, x)], m, 0, pv, mv);
        if (x + 1 > own && score <= k) push_hit(o, x + 1, pat, strand, score);
    }
}

__device__ __forceinline__ void setk_myers(const dbatch_t &b, const uint64_t (&peq)[4][4],
                                           uint32_t m, uint32_t k, uint64_t from, uint64_t own,
                                           uint64_t to, uint32_t pat, uint32_t strand,
                                           const dhits_t &o) {
    switch ((m + 63) / 64) {
    case 1: setk_myers_w<1>(b, peq, m, k, from, own, to, pat, strand, o); break;
    case 2: setk_myers_w<2>(b, peq, m, k, from, own, to, pat, strand, o); break;
    case 3: setk_myers_w<3>(b, peq, m, k, from, own, to, pat, strand, o); break;
    default: setk_myers_w<4>(b, peq, m, k, from, own, to, pat, strand, o); break;
    }
}

/* ---- the patterns too short to seed (direct_cuda.cu) ---------------------------- */

/* Their device tables, made at a database's first batch. */
typedef struct {
    uint64_t db_id;
    int supported; /* -1 unknown, 0 no, 1 yes */
    size_t n_groups, n_edit;
    struct setk_group *groups; /* host copies: launch arguments */
    wm_cu_buf_t entries, edit, arena, cand;
} setk_direct_t;

/* Whether the GPU takes every direct pattern of s: Hamming patterns whose
** middle is at most 64 long with regions of at most 16 each; edit patterns
** at most 256 long without exact regions. */
int setk_direct_supports(const wm_setk_t *s);

/* Append the hits of s's direct patterns with ends owned by the batch;
** count: a device counter for candidates. */
wm_status setk_direct_batch(wm_context_t *cx, setk_direct_t *d, const wm_setk_t *s,
                            const dbatch_t &b, const dhits_t &o, unsigned long long *count,
                            cudaStream_t stream);
void setk_direct_release(setk_direct_t *d);

#endif
