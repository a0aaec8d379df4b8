/*
** pairs_cuda.cu -- many global pairs on the GPU, one pair per thread, or per
** warp for longer DNA queries: Myers' bit-vector DP over the query's W words
** (in registers), the target one symbol a step, and for CIGARs the
** canonical traceback (traceback.c's rule) on the thread's own column
** history.
**
** Why one pair a thread. A 150 bp pair is 150 columns of 3 words: too little
** to share among threads, and a million of them fill the GPU many times. The
** warp's threads walk their own pairs; their column histories are laid out
** slot-minor ([column][word][slot]) so that the 32 stores of a step are one
** coalesced line. Past 16 words (1 kb) a thread's registers run out: DNA
** queries up to 8 kb take a warp a pair (k_pairs_warp), its lanes a
** diagonal wavefront over 32 x 1, 2 or 4 words, CIGARs included.
**
** Flow (wm_cuda_pairs). The pairs (pairs.c sends only those that fit a
** thread or a warp, see wm_cu_pair_fits) go in batches of up to
** tuning.pairs_batch on two slots, each slot with its pinned staging, its
** device arena and its stream: while the GPU runs batch i, the pool packs
** batch i + 1 into pinned memory, and then the host hands batch i's results
** over while the GPU runs batch i + 1. Within a batch each width W = ceil(m
** / 64) has a launch (kernels for W = 1, 2, 3, 4, 6, 8, 12, 16 a thread and
** 32, 64, 128 a warp; a pair takes the first that holds it: extra words only
** add rows below row m, which never feed back), its threads listed by slot;
** the column history of the widest group is kept under a quarter of the
** GPU's free memory a slot (at least HISTORY_MIN: a 1 kb pair's history is
** 256 KB, and a batch needs tens of thousands of them to fill the GPU).
** CIGARs are written right to left into a slot of 2 (m + n) bytes each and
** come back compacted by a prefix sum (CUB).
**
** Alphabets. DNA (4 codes, N matches nothing) travels four bits a base
** (nibbles.h: packed by the pool into the pinned staging, so that the
** host writes and uploads half the bytes) and keeps its 4 x W masks in
** registers. Bytes keep 256 x W masks in local memory, set only for the
** query's own symbols (a 256-bit "present" mask says which rows are live),
** so they are taken up to W = 4 (m <= 256); longer byte pairs run alone.
*/
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_scan.cuh>

#include "align/align.h"
#include "core/internal.h"
#include "align/align_cuda.cuh"
#include "align/nibbles.h"
#include "cuda/device.cuh"

typedef struct {
    const uint8_t *code; /* byte -> symbol; ncodes: matches nothing */
    uint32_t ncodes;
    const uint8_t *seq;   /* the batch's sequences (DNA: nibbles, nibbles.h) */
    const uint64_t *qoff; /* per slot: where its query starts in seq, in symbols */
    const uint64_t *toff; /* per slot: where its target starts in seq */
    const uint32_t *len;  /* per slot: m, n */
    const uint32_t *ids;  /* the launch's thread t takes slot ids[t]; NULL: slot t */
    uint32_t n_slots;     /* threads of the launch (the history's stride) */
    int64_t limit;        /* -1: none */
    int cigar;
    uint64_t *hist;      /* [col][word][slot] Pv, then Mv at + half, then (W >=
                       BASE_W) the score at each word's bottom row as int32 */
    uint64_t half;       /* words of the Pv history */
    uint64_t pair_words; /* a warp's pair: words of its Pv history (k_pairs_warp) */
    char *slots;         /* CIGAR text, slot at cig_off */
    const uint64_t *cig_off;
    uint32_t *dist;                /* per slot; UINT32_MAX: over the limit */
    uint32_t *cig_start, *cig_len; /* the text within the slot */
} pairs_args_t;

/* A sequence's symbols, s[i] its i-th symbol's code. Bytes go through the
** symbol map, kept in shared memory (constant memory serves a warp's 32
** different bytes one at a time); DNA's nibbles are their codes. */
struct byte_seq {
    const uint8_t *p, *code;
    static __device__ __forceinline__ byte_seq at(const uint8_t *seq, const uint8_t *code,
                                                  uint64_t off) {
        byte_seq s = { seq + off, code };
        return s;
    }
    __device__ __forceinline__ uint32_t operator[](uint64_t i) const { return code[p[i]]; }
};
struct nib_seq {
    const uint8_t *seq;
    uint64_t off;
    static __device__ __forceinline__ nib_seq at(const uint8_t *seq, const uint8_t *,
                                                 uint64_t off) {
        nib_seq s = { seq, off };
        return s;
    }
    __device__ __forceinline__ uint32_t operator[](uint64_t i) const {
        uint64_t q = off + i;
        return (seq[q >> 1] >> ((uint32_t)(q & 1) << 2)) & 15u;
    }
};
template <bool DNA>
struct seq_of {
    typedef byte_seq type;
};
template <>
struct seq_of<true> {
    typedef nib_seq type;
};

/* Symbols equal and matching something (codes from ncodes on match nothing,
** WM_NIB_NONE among them). */
static __device__ __forceinline__ int sym_eq(uint32_t ncodes, uint32_t ca, uint32_t cb) {
    return ca == cb && ca < ncodes;
}

/* The four DNA match masks of the query's rows [from, from + 64) below m. */
template <class S>
static __device__ __forceinline__ void dna_masks(const S &x, uint32_t from, uint32_t m,
                                                 uint64_t out[4]) {
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (uint32_t b = 0; b < 64 && from + b < m; b++) {
        uint32_t c = x[from + b];
        uint64_t bit = 1ull << b;
        a0 |= c == 0 ? bit : 0;
        a1 |= c == 1 ? bit : 0;
        a2 |= c == 2 ? bit : 0;
        a3 |= c == 3 ? bit : 0;
    }
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
}

/* A DNA symbol's mask (a code past 3 matches nothing). */
static __device__ __forceinline__ uint64_t dna_eq(uint64_t p0, uint64_t p1, uint64_t p2,
                                                  uint64_t p3, uint32_t c) {
    return c == 0 ? p0 : c == 1 ? p1 : c == 2 ? p2 : c == 3 ? p3 : 0;
}

/* Myers' step of one 64-row word of a column (Hyyro's form): eq the
** symbol's mask, *h the horizontal delta entering the word's top (out: the
** one leaving its bottom). The word's horizontal deltas before the shift
** go to *ph_out and *mh_out (row r's: bit r), for a score kept on a row. */
static __device__ __forceinline__ void myers_word(uint64_t eq, uint64_t *pv, uint64_t *mv, int *h,
                                                  uint64_t *ph_out, uint64_t *mh_out) {
    uint64_t neg = (uint64_t)(*h < 0), pos = (uint64_t)(*h > 0);
    uint64_t xv = eq | *mv;
    uint64_t xh = (((eq | neg) & *pv) + *pv) ^ *pv;
    xh |= eq | neg;
    uint64_t ph = *mv | ~(xh | *pv);
    uint64_t mh = *pv & xh;
    *ph_out = ph;
    *mh_out = mh;
    *h = (int)(ph >> 63) - (int)(mh >> 63);
    ph = (ph << 1) | pos;
    mh = (mh << 1) | neg;
    *pv = mh | ~(xv | ph);
    *mv = ph & xv;
}

/* From this width on the history keeps each word's bottom score too, so
** that a value costs one score and two words, not 2W words: a 1 kb pair's
** walk read 32 scattered words a step. Below it the extra writes cost more
** than the reads they save. */
#define BASE_W 4

template <int W>
static __device__ __forceinline__ int32_t *hist_base(const pairs_args_t &a) {
    return (int32_t *)(a.hist + 2 * a.half);
}

template <int W>
static __device__ __forceinline__ uint64_t hist_value(const pairs_args_t &a, uint32_t t, uint64_t i,
                                                      uint64_t j) {
    /* D[i][j] from column j's history (j >= 1, i >= 1): j + the deltas above */
    const uint64_t col = (uint64_t)(j - 1) * W;
    const uint64_t *pv = a.hist + col * a.n_slots + t;
    const uint64_t *mv = pv + a.half;
    uint32_t w = (uint32_t)((i - 1) >> 6), r = (uint32_t)((i - 1) & 63);
    uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
    if (W >= BASE_W) { /* the bottom of word w - 1, then word w */
        int64_t v = w == 0 ? (int64_t)j : hist_base<W>(a)[(col + w - 1) * a.n_slots + t];
        uint64_t p = pv[(uint64_t)w * a.n_slots] & mask, q = mv[(uint64_t)w * a.n_slots] & mask;
        return (uint64_t)(v + __popcll(p) - __popcll(q));
    }
    int64_t v = (int64_t)j;
#pragma unroll
    for (int u = 0; u < W; u++) {
        if ((uint32_t)u > w) break;
        uint64_t p = pv[(uint64_t)u * a.n_slots], q = mv[(uint64_t)u * a.n_slots];
        if ((uint32_t)u == w) {
            p &= mask;
            q &= mask;
        }
        v += __popcll(p) - __popcll(q);
    }
    return (uint64_t)v;
}

/* Write one run right to left: the op, then the count's digits. */
static __device__ __forceinline__ void put_run(char *s, int64_t *pos, char op, uint64_t len) {
    s[(*pos)--] = op;
    do {
        s[(*pos)--] = (char)('0' + len % 10);
        len /= 10;
    } while (len);
}

/* The canonical traceback (traceback.c's rule: from (m, n), diagonal, then
** I, then D) of a pair of score `score`, its runs written right to left
** into s from 2 (m + n) - 1 on; D[i][j] from h.value(i, j) (i, j >= 1).
** Where the text starts and how long it is go to *start and *len. */
template <class H, class S>
static __device__ __forceinline__ void walk(const H &h, uint32_t ncodes, const S &x, const S &y,
                                            uint64_t m, uint64_t n, uint64_t score, char *s,
                                            uint32_t *start, uint32_t *len) {
    int64_t end = 2 * ((int64_t)m + (int64_t)n) - 1, pos = end;
    uint64_t i = m, j = n, cur = score, run = 0;
    char op = 0;
    while (i > 0 || j > 0) {
        char o;
        if (i == 0) {
            o = 'D';
            j--;
        } else if (j == 0) {
            o = 'I';
            i--;
        } else if (sym_eq(ncodes, x[i - 1], y[j - 1])) {
            o = '=';
            i--;
            j--;
        } else {
            uint64_t diag = j == 1 ? i - 1 : i == 1 ? j - 1 : h.value(i - 1, j - 1);
            if (diag + 1 == cur) {
                o = 'X';
                i--;
                j--;
                cur = diag;
            } else {
                uint64_t up = i == 1 ? j : h.value(i - 1, j);
                if (up + 1 == cur) {
                    o = 'I';
                    i--;
                    cur = up;
                } else {
                    o = 'D';
                    j--;
                    cur--;
                }
            }
        }
        if (o != op && run) {
            put_run(s, &pos, op, run);
            run = 0;
        }
        op = o;
        run++;
    }
    if (run) put_run(s, &pos, op, run);
    *start = (uint32_t)(pos + 1);
    *len = (uint32_t)(end - pos);
}

/* A pair's distance into a.dist (UINT32_MAX over the limit, and then an
** empty CIGAR): 1 when its CIGAR is still to be walked. */
static __device__ __forceinline__ int put_distance(const pairs_args_t &a, uint32_t slot, int over,
                                                   int64_t score) {
    if (over || (a.limit >= 0 && score > a.limit)) {
        a.dist[slot] = UINT32_MAX;
        if (a.cigar) a.cig_len[slot] = 0, a.cig_start[slot] = 0;
        return 0;
    }
    a.dist[slot] = (uint32_t)score;
    return a.cigar;
}

/* A thread's pair t: its history is slot-minor (pairs_args_t). */
template <int W>
struct thread_hist {
    const pairs_args_t *a;
    uint32_t t;
    __device__ __forceinline__ uint64_t value(uint64_t i, uint64_t j) const {
        return hist_value<W>(*a, t, i, j);
    }
};

template <int W, bool DNA>
__global__ void __launch_bounds__(128) k_pairs(pairs_args_t a) {
    __shared__ uint8_t c_code[DNA ? 1 : 256];
    if (!DNA) {
        for (uint32_t b = threadIdx.x; b < 256; b += blockDim.x) c_code[b] = a.code[b];
        __syncthreads();
    }
    const uint32_t c_ncodes = a.ncodes;
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= a.n_slots) return;
    const uint32_t slot = a.ids ? a.ids[t] : t;
    typedef typename seq_of<DNA>::type S;
    const S x = S::at(a.seq, c_code, a.qoff[slot]), y = S::at(a.seq, c_code, a.toff[slot]);
    const uint32_t m = a.len[2 * slot], n = a.len[2 * slot + 1];

    /* match masks */
    uint64_t pd[DNA ? 4 : 1][W];
    uint64_t pb[DNA ? 1 : 256][W];
    uint32_t present[DNA ? 1 : 8];
    if (DNA) {
        /* word by word, so that every index is known at compile time and the
        ** masks stay in registers */
#pragma unroll
        for (int u = 0; u < W; u++) {
            uint64_t q[4];
            dna_masks(x, 64 * (uint32_t)u, m, q);
            pd[0][u] = q[0];
            pd[1][u] = q[1];
            pd[2][u] = q[2];
            pd[3][u] = q[3];
        }
    } else {
#pragma unroll
        for (int k = 0; k < 8; k++) present[k] = 0;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t c = x[i];
            if (c >= c_ncodes) continue;
            if (!((present[c >> 5] >> (c & 31)) & 1)) {
                present[c >> 5] |= 1u << (c & 31);
#pragma unroll
                for (int u = 0; u < W; u++) pb[c][u] = 0;
            }
            pb[c][i >> 6] |= 1ull << (i & 63);
        }
    }

    uint64_t pv[W], mv[W];
#pragma unroll
    for (int u = 0; u < W; u++) {
        pv[u] = ~0ull;
        mv[u] = 0;
    }
    const uint32_t lw = (m - 1) >> 6, lr = (m - 1) & 63; /* row m's word and bit */
    int64_t score = m;                                   /* D[m][0] */
    int over = 0;
    for (uint32_t j = 1; j <= n; j++) {
        uint32_t c = y[j - 1];
        int h = 1; /* D[0][j] - D[0][j-1] */
#pragma unroll
        for (int u = 0; u < W; u++) {
            uint64_t eq, ph, mh;
            if (DNA) eq = dna_eq(pd[0][u], pd[1][u], pd[2][u], pd[3][u], c);
            else eq = c < c_ncodes && ((present[c >> 5] >> (c & 31)) & 1) ? pb[c][u] : 0;
            myers_word(eq, &pv[u], &mv[u], &h, &ph, &mh);
            if ((uint32_t)u == lw) score += (int64_t)((ph >> lr) & 1) - (int64_t)((mh >> lr) & 1);
        }
        if (a.cigar) {
            uint64_t *hp = a.hist + ((uint64_t)(j - 1) * W) * a.n_slots + t;
            int32_t *bp = hist_base<W>(a) + ((uint64_t)(j - 1) * W) * a.n_slots + t;
            int32_t bottom = (int32_t)j;
#pragma unroll
            for (int u = 0; u < W; u++) {
                hp[(uint64_t)u * a.n_slots] = pv[u];
                hp[(uint64_t)u * a.n_slots + a.half] = mv[u];
                if (W >= BASE_W && u + 1 < W) { /* rows past m are never read */
                    bottom += __popcll(pv[u]) - __popcll(mv[u]);
                    bp[(uint64_t)u * a.n_slots] = bottom;
                }
            }
        }
        /* D[m][n] >= D[m][j] - (n - j): past the limit already, stop */
        if (a.limit >= 0 && score - (int64_t)(n - j) > a.limit) {
            over = 1;
            break;
        }
    }
    if (!put_distance(a, slot, over, score)) return;
    thread_hist<W> h = { &a, t };
    walk(h, c_ncodes, x, y, m, n, (uint64_t)score, a.slots + a.cig_off[slot], &a.cig_start[slot],
         &a.cig_len[slot]);
}

/* ---- a warp a pair: DNA queries of 1,025 .. 8,192 bases ---------------------
** Lane l holds words [l WL, (l + 1) WL) of the query's masks and of the
** column. At step s it takes the target's symbol j = s - l: the delta
** entering its top row is what lane l - 1 left at the bottom of its words at
** step s - 1 (a shuffle), so the lanes sweep the matrix as a diagonal
** wavefront and a pair takes n + lanes - 1 steps; lanes past row m's hold
** no rows and idle. Such a pair had run alone, a launch of its own
** (global_cuda.cu), at tens of G cells/s. Row m's lane keeps the score and,
** with a limit, every WARP_CHECK steps the warp asks it whether the pair is
** already over.
**
** For CIGARs each lane also keeps the score of its top row (the sum of the
** deltas it was handed), so it knows each word's bottom score, and writes
** Pv, Mv and that score a word a step. The history is laid out by step
** ([step][lane][word]), so that a step's 32 lanes write one run of words;
** D[i][j] is then read at step j - 1 + lane of row i's word. Row m's lane
** walks back once the warp is done. */
#define WARP_CHECK 32

/* A warp's pair: its history from pv (Mv at mv, bottom scores at bot). */
template <int WL>
struct warp_hist {
    const uint64_t *pv, *mv;
    const int32_t *bot;
    /* where word w of column j (1-based) was written */
    __device__ __forceinline__ uint64_t at(uint64_t w, uint64_t j) const {
        uint64_t lane = w / WL;
        return ((j - 1 + lane) * 32 + lane) * WL + w % WL;
    }
    __device__ __forceinline__ uint64_t value(uint64_t i, uint64_t j) const {
        uint64_t w = (i - 1) >> 6, r = (i - 1) & 63;
        uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
        int64_t v = w == 0 ? (int64_t)j : bot[at(w - 1, j)];
        uint64_t x = at(w, j);
        return (uint64_t)(v + __popcll(pv[x] & mask) - __popcll(mv[x] & mask));
    }
};

template <int WL>
__global__ void __launch_bounds__(128) k_pairs_warp(pairs_args_t a) {
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; /* the warp's pair */
    if (t >= a.n_slots) return;                                      /* the whole warp */
    const uint32_t slot = a.ids ? a.ids[t] : t;
    const nib_seq x = nib_seq::at(a.seq, NULL, a.qoff[slot]),
                  y = nib_seq::at(a.seq, NULL, a.toff[slot]);
    const uint32_t m = a.len[2 * slot], n = a.len[2 * slot + 1];
    const uint32_t lw = (m - 1) >> 6, lr = (m - 1) & 63; /* row m's word and bit */
    const uint32_t owner = lw / WL, lanes = owner + 1;   /* row m's lane, the busy ones */
    const int ou = (int)(lw - owner * WL);               /* row m's word in its lane */

    uint64_t pd[4][WL], pv[WL], mv[WL];
#pragma unroll
    for (int u = 0; u < WL; u++) {
        uint64_t q[4];
        dna_masks(x, 64 * (lane * WL + (uint32_t)u), m, q);
        pd[0][u] = q[0];
        pd[1][u] = q[1];
        pd[2][u] = q[2];
        pd[3][u] = q[3];
        pv[u] = ~0ull;
        mv[u] = 0;
    }

    int64_t score = m; /* D[m][0], in row m's lane */
    int hout = 0, over = 0;
    int32_t top = (int32_t)(64 * WL * lane); /* D[64 WL lane][j]: the score above the lane's rows */
    uint64_t *hpv = NULL, *hmv = NULL;
    int32_t *hbot = NULL;
    if (a.cigar) { /* the pair's history (warp_hist) */
        hpv = a.hist + (uint64_t)t * a.pair_words;
        hmv = hpv + a.half;
        hbot = (int32_t *)(a.hist + 2 * a.half) + (uint64_t)t * a.pair_words;
    }
    const uint32_t steps = n + lanes - 1;
    /* the symbol of the next step, loaded a step ahead */
    uint32_t c_next = lane == 0 ? y[0] : 0;
    for (uint32_t s = 0; s < steps; s++) {
        const int hin = __shfl_up_sync(0xffffffffu, hout, 1);
        const int64_t j = (int64_t)s - lane; /* the target's symbol y[j] */
        const uint32_t c = c_next;
        if (j + 1 >= 0 && j + 1 < (int64_t)n) c_next = y[j + 1];
        if (lane < lanes && j >= 0 && j < (int64_t)n) {
            int h = lane == 0 ? 1 : hin; /* D[0][j] - D[0][j-1] = 1 */
            top += h;
            int32_t bottom = top;
#pragma unroll
            for (int u = 0; u < WL; u++) {
                uint64_t ph, mh;
                myers_word(dna_eq(pd[0][u], pd[1][u], pd[2][u], pd[3][u], c), &pv[u], &mv[u], &h,
                           &ph, &mh);
                if (lane == owner && u == ou)
                    score += (int64_t)((ph >> lr) & 1) - (int64_t)((mh >> lr) & 1);
                if (a.cigar) {
                    const uint64_t hx = ((uint64_t)s * 32 + lane) * WL + (uint64_t)u;
                    bottom += __popcll(pv[u]) - __popcll(mv[u]);
                    hpv[hx] = pv[u];
                    hmv[hx] = mv[u];
                    hbot[hx] = bottom;
                }
            }
            hout = h;
        }
        if (a.limit >= 0 && s % WARP_CHECK == WARP_CHECK - 1) {
            /* D[m][n] >= D[m][j + 1] - (n - j - 1): past the limit already, stop */
            const int64_t jo = (int64_t)s - owner;
            int past = lane == owner && jo >= 0 && jo < (int64_t)n &&
                       score - ((int64_t)n - 1 - jo) > a.limit;
            if (__any_sync(0xffffffffu, past)) {
                over = 1;
                break;
            }
        }
    }
    if (a.cigar) __syncwarp(); /* the lanes' history, seen by row m's lane */
    if (lane != owner || !put_distance(a, slot, over, score)) return;
    warp_hist<WL> h = { hpv, hmv, hbot };
    walk(h, a.ncodes, x, y, m, n, (uint64_t)score, a.slots + a.cig_off[slot], &a.cig_start[slot],
         &a.cig_len[slot]);
}

__global__ void k_gather(const char *slots, const uint64_t *cig_off, const uint32_t *start,
                         const uint32_t *len, const uint64_t *out_off, char *out, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const char *src = slots + cig_off[i] + start[i];
    char *dst = out + out_off[i];
    for (uint32_t k = 0; k < len[i]; k++) dst[k] = src[k];
}

/* ---- host ---------------------------------------------------------------- */

typedef void (*pairs_kernel_t)(pairs_args_t);

/* Words of the query's column: a thread holds up to 16, a warp (from
** WARP_WORDS on) 32 lanes of 1, 2 or 4. */
#define N_WIDTHS 11
#define WARP_WORDS 32
static const int k_widths[N_WIDTHS] = { 1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128 };

static pairs_kernel_t pick_kernel(int wk, int dna) {
    switch (k_widths[wk]) {
    case 32: return dna ? k_pairs_warp<1> : NULL;
    case 64: return dna ? k_pairs_warp<2> : NULL;
    case 128: return dna ? k_pairs_warp<4> : NULL;
    case 1: return dna ? k_pairs<1, true> : k_pairs<1, false>;
    case 2: return dna ? k_pairs<2, true> : k_pairs<2, false>;
    case 3: return dna ? k_pairs<3, true> : k_pairs<3, false>;
    case 4: return dna ? k_pairs<4, true> : k_pairs<4, false>;
    case 6: return dna ? k_pairs<6, true> : NULL;
    case 8: return dna ? k_pairs<8, true> : NULL;
    case 12: return dna ? k_pairs<12, true> : NULL;
    case 16: return dna ? k_pairs<16, true> : NULL;
    default: return NULL;
    }
}

/* The narrowest kernel that holds a query of m symbols (extra words only add
** rows below row m, which never feed back). */
static int width_index(uint64_t m) {
    uint64_t w = (m + 63) / 64;
    for (int k = 0; k < N_WIDTHS; k++)
        if ((uint64_t)k_widths[k] >= w) return k;
    return N_WIDTHS - 1; /* not reached: wm_cu_pair_fits bounds m */
}

/* History words (of each of Pv, Mv and the bottom scores) a pair of width
** k_widths[wk] against targets of up to n takes: n columns of W words a
** thread, n + 31 steps of them a warp (warp_hist). */
static uint64_t hist_per_pair(int wk, uint64_t n) {
    return (n + (k_widths[wk] >= WARP_WORDS ? 31 : 0)) * (uint64_t)k_widths[wk];
}

/* A batch's limits besides tuning.pairs_batch: its sequence bytes, and its
** column history (n x W x HIST_BYTES a pair, for CIGARs) per slot: a
** quarter of the free memory, within [HISTORY_MIN, HISTORY_MAX]. A 5 kb
** pair's history is 13 MB, so 8 GiB hold 660 pairs, 5 warps an SM; 32 GiB
** (9 batches, not 16) gave the same 128-130 ms for 10,000 of them: the
** history's 80 GB of writes and the walks bound them, not the warps. */
#define HIST_BYTES 20 /* Pv, Mv and a bottom score a word a column */
#define BATCH_SEQ_BYTES ((uint64_t)64 << 20)
#define HISTORY_MIN ((uint64_t)1 << 30)
#define HISTORY_MAX ((uint64_t)8 << 30)
#define PACK_TASKS 64

static size_t al8(size_t x) { return (x + 7) & ~(size_t)7; }

/* One batch: items [from, from + ns) of the source. The front block (symbol
** map, offsets, lengths, the threads' slots by width when there are several
** widths, CIGAR slot offsets, the sequences) has the same layout in pinned
** memory and on the device, so it goes up in one copy; the results block
** (distances, CIGAR lengths and offsets) comes back in one. */
typedef struct {
    size_t from, ns;
    uint64_t seq_syms;     /* symbols of the sequences' block, with padding (DNA: to even) */
    uint64_t seq_store;    /* its bytes: seq_syms, or (DNA, nibbles) half of them */
    uint64_t qbytes, tpos; /* columns: the queries' symbols, where the targets start */
    uint64_t cig_bytes, hist_words;
    uint32_t cnt[N_WIDTHS], first[N_WIDTHS], nmax[N_WIDTHS];
    int groups; /* widths present */
    size_t o_qoff, o_toff, o_len, o_ids, o_cig, o_seq, front;
    size_t r_clen, r_out, r_bytes;
    uint8_t *h_front, *h_res, *d; /* pinned front, pinned results, device arena */
    size_t d_res, d_hist, d_slots, d_start, d_text, d_tmp, tmp_bytes;
    cudaStream_t st;
    cudaEvent_t k0, k1;
} batch_t;

typedef struct {
    wm_context_t *cx;
    const wm_pairs_src_t *src;
    const wm_align_opts_t *o;
    const uint8_t *code;
    uint32_t ncodes;
    int dna;                 /* DNA: the sequences go as nibbles */
    const wm_nib_map_t *nib; /* (DNA) */
    wm_cu_align_bufs_t *B;
    uint64_t hist_cap; /* history bytes a slot */
} pairs_job_t;

static inline const wm_pair_t *item(const pairs_job_t *J, size_t i) {
    return &J->src->pairs[J->src->idx[i]];
}

/* Columns: the bytes of items [a, b), both sides. */
static uint64_t cols_bytes(const wm_pairs_packed_t *c, size_t a, size_t b) {
    return c->query_off[b] - c->query_off[a] + c->target_off[b] - c->target_off[a];
}

/* DNA's nibbles start each sequence (pairs) or each side's block (columns)
** at an even symbol, so that the pool's tasks never share a byte. */
static uint64_t even_up(uint64_t n, int dna) { return dna ? (n + 1) & ~(uint64_t)1 : n; }

/* Take items from `from` on while they fit the batch's limits. Pairs one at
** a time; columns by their offsets and the source's length bounds. */
static void batch_form(const pairs_job_t *J, size_t from, batch_t *b) {
    const wm_pairs_src_t *src = J->src;
    uint64_t cap = J->cx->tuning.pairs_batch ? J->cx->tuning.pairs_batch : (1u << 17);
    b->from = from;
    b->ns = 0;
    b->seq_syms = b->qbytes = b->tpos = b->cig_bytes = b->hist_words = 0;
    memset(b->cnt, 0, sizeof b->cnt);
    memset(b->nmax, 0, sizeof b->nmax);
    if (src->cols) {
        const wm_pairs_packed_t *c = src->cols;
        size_t a = src->first + from, left = src->n - from;
        int wk = width_index(src->max_m);
        uint64_t per = hist_per_pair(wk, src->max_n); /* history words a pair, at most */
        uint64_t ns = left < cap ? left : cap;
        if (J->o->cigar && per && ns > J->hist_cap / HIST_BYTES / per)
            ns = J->hist_cap / HIST_BYTES / per;
        if (ns == 0) ns = 1;
        if (ns > 1 && cols_bytes(c, a, a + ns) > BATCH_SEQ_BYTES) { /* the most that fit */
            size_t lo = 1, hi = ns;
            while (lo < hi) {
                size_t mid = lo + (hi - lo + 1) / 2;
                if (cols_bytes(c, a, a + mid) <= BATCH_SEQ_BYTES) lo = mid;
                else hi = mid - 1;
            }
            ns = lo;
        }
        b->ns = ns;
        b->qbytes = c->query_off[a + ns] - c->query_off[a];
        b->tpos = even_up(b->qbytes, J->dna);
        b->seq_syms = b->tpos + c->target_off[a + ns] - c->target_off[a];
        b->cig_bytes = 2 * cols_bytes(c, a, a + ns);
        b->hist_words = J->o->cigar ? per * ns : 0;
        b->groups = width_index(src->min_m) == wk ? 1 : 2; /* 2: counted when packed */
        b->cnt[wk] = (uint32_t)ns;
        b->nmax[wk] = (uint32_t)src->max_n;
    } else {
        for (size_t i = from; i < src->n && b->ns < cap; i++) {
            const wm_pair_t *p = item(J, i);
            int wk = width_index(p->m);
            uint32_t nmax = b->nmax[wk] > p->n ? b->nmax[wk] : (uint32_t)p->n;
            uint64_t hist = hist_per_pair(wk, nmax) * (b->cnt[wk] + 1);
            uint64_t syms = even_up(p->m, J->dna) + even_up(p->n, J->dna);
            if (b->ns && (b->seq_syms + syms > BATCH_SEQ_BYTES ||
                          (J->o->cigar && hist * HIST_BYTES > J->hist_cap)))
                break;
            b->ns++;
            b->cnt[wk]++;
            b->nmax[wk] = nmax;
            b->seq_syms += syms;
            b->cig_bytes += 2 * (p->m + p->n);
            if (J->o->cigar && hist > b->hist_words) b->hist_words = hist;
        }
        b->groups = 0;
        for (int w = 0; w < N_WIDTHS; w++) b->groups += b->cnt[w] > 0;
    }
    size_t ns = b->ns;
    b->seq_store = J->dna ? b->seq_syms / 2 + 1 : b->seq_syms;
    b->o_qoff = 256;
    b->o_toff = b->o_qoff + 8 * ns;
    b->o_len = b->o_toff + 8 * ns;
    b->o_ids = b->o_len + al8(8 * ns);
    b->o_cig = b->o_ids + (b->groups > 1 ? al8(4 * ns) : 0);
    b->o_seq = b->o_cig + (J->o->cigar ? 8 * ns : 0);
    b->front = al8(b->o_seq + b->seq_store + 16);
    b->r_clen = 4 * ns;
    b->r_out = al8(8 * ns);
    b->r_bytes = J->o->cigar ? b->r_out + 8 * ns : 4 * ns;
}

/* Grow a buffer with room to spare, so that batches of varying size do not
** reallocate each time. */
static wm_status grow(wm_context_t *cx, wm_cu_buf_t *buf, size_t need, int pinned) {
    if (buf->p && buf->cap >= need) return WM_OK;
    need += need / 4;
    return pinned ? wm_cu_host_reserve(cx, buf, need) : wm_cu_dev_reserve(cx, buf, need);
}

/* The buffers of slot s: the device arena (front, results, then with
** CIGARs the history, the CIGAR slots, their starts, the gathered text and
** the scan's scratch). */
static wm_status batch_buffers(const pairs_job_t *J, int s, batch_t *b) {
    wm_context_t *cx = J->cx;
    wm_cu_align_bufs_t *B = J->B;
    size_t ns = b->ns;
    b->d_res = b->front;
    size_t at = al8(b->d_res + b->r_bytes);
    b->tmp_bytes = 0;
    if (J->o->cigar) {
        b->d_hist = at;
        at = al8(at + b->hist_words * HIST_BYTES);
        b->d_slots = at;
        at = al8(at + b->cig_bytes + 16);
        b->d_start = at;
        at = al8(at + 4 * ns);
        b->d_text = at;
        at = (at + b->cig_bytes + 16 + 255) & ~(size_t)255;
        b->d_tmp = at;
        cub::DeviceScan::ExclusiveSum(NULL, b->tmp_bytes, (const uint32_t *)NULL, (uint64_t *)NULL,
                                      (int)ns, b->st);
        at += b->tmp_bytes;
    }
    wm_status rc = grow(cx, &B->h[3 * s], b->front, 1);
    if (rc == WM_OK) rc = grow(cx, &B->h[3 * s + 1], b->r_bytes, 1);
    if (rc == WM_OK) rc = grow(cx, &B->g[s ? 6 : 4], at, 0);
    if (rc != WM_OK) return rc;
    b->h_front = (uint8_t *)B->h[3 * s].p;
    b->h_res = (uint8_t *)B->h[3 * s + 1].p;
    b->d = (uint8_t *)B->g[s ? 6 : 4].p;
    return WM_OK;
}

/* ---- packing, on the pool ------------------------------------------------ */

typedef struct {
    const pairs_job_t *J;
    batch_t *b;
    uint32_t (*count)[N_WIDTHS]; /* several widths: [task][width], then where each task's go */
    uint64_t *at, *cat;          /* pairs: each task's first symbol and CIGAR slot / 2 */
    int pass;                    /* 0 count (widths; pairs: their symbols), 1 fill */
} pack_t;

/* n symbols of src into the sequences' block at symbol `at`: as they are,
** or DNA as nibbles (`at` even). */
static void put_seq(const pairs_job_t *J, uint8_t *seq, uint64_t at, const uint8_t *src,
                    uint64_t n) {
    if (J->dna) wm_nib_pack(J->nib, src, n, seq + at / 2);
    else memcpy(seq + at, src, n);
}

/* Pairs: pass 0 counts task t's symbols, CIGAR bytes / 2 and (several
** widths) pairs of each width; pass 1 writes its pairs' offsets, lengths,
** CIGAR slots and slot lists from the bases the serial step set, and packs
** their sequences, each from an even symbol. A million pairs' offsets were
** a serial loop of 5 ms. */
static void pack_pairs_task(void *arg, size_t t, int tid) {
    (void)tid;
    const pack_t *P = (const pack_t *)arg;
    const pairs_job_t *J = P->J;
    const batch_t *b = P->b;
    size_t lo = b->ns * t / PACK_TASKS, hi = b->ns * (t + 1) / PACK_TASKS;
    if (P->pass == 0) {
        uint64_t at = 0, cat = 0;
        for (size_t k = lo; k < hi; k++) {
            const wm_pair_t *p = item(J, b->from + k);
            at += even_up(p->m, J->dna) + even_up(p->n, J->dna);
            cat += p->m + p->n;
            if (b->groups > 1) P->count[t][width_index(p->m)]++;
        }
        P->at[t] = at;
        P->cat[t] = cat;
        return;
    }
    uint8_t *f = b->h_front;
    uint64_t *qoff = (uint64_t *)(f + b->o_qoff), *toff = (uint64_t *)(f + b->o_toff);
    uint64_t *cig = (uint64_t *)(f + b->o_cig);
    uint32_t *len = (uint32_t *)(f + b->o_len), *ids = (uint32_t *)(f + b->o_ids);
    uint8_t *seq = f + b->o_seq;
    uint64_t at = P->at[t], cat = P->cat[t];
    for (size_t k = lo; k < hi; k++) {
        const wm_pair_t *p = item(J, b->from + k);
        qoff[k] = at;
        toff[k] = at + even_up(p->m, J->dna);
        len[2 * k] = (uint32_t)p->m;
        len[2 * k + 1] = (uint32_t)p->n;
        if (J->o->cigar) cig[k] = 2 * cat;
        if (b->groups > 1) ids[P->count[t][width_index(p->m)]++] = (uint32_t)k;
        put_seq(J, seq, qoff[k], p->query, p->m);
        put_seq(J, seq, toff[k], p->target, p->n);
        at = toff[k] + even_up(p->n, J->dna);
        cat += p->m + p->n;
    }
}

/* Turn each task's counts of pass 0 into where its items go: symbols and
** CIGAR bytes (pairs) in task order; slots by width, tasks in order within
** a width (b->first, b->cnt). */
static void pack_bases(pack_t *P, int pairs) {
    batch_t *b = P->b;
    if (pairs)
        for (uint64_t t = 0, at = 0, cat = 0; t < PACK_TASKS; t++) {
            uint64_t n = P->at[t], c = P->cat[t];
            P->at[t] = at;
            P->cat[t] = cat;
            at += n;
            cat += c;
        }
    if (b->groups <= 1) return;
    uint32_t at = 0;
    for (int w = 0; w < N_WIDTHS; w++) {
        b->first[w] = at;
        for (int t = 0; t < PACK_TASKS; t++) {
            uint32_t n = P->count[t][w];
            P->count[t][w] = at;
            at += n;
        }
        b->cnt[w] = at - b->first[w];
    }
}

static wm_status pack_pairs(const pairs_job_t *J, batch_t *b) {
    uint64_t at[PACK_TASKS], cat[PACK_TASKS];
    pack_t P = { J, b, NULL, at, cat, 0 };
    if (b->groups > 1) {
        P.count = (uint32_t(*)[N_WIDTHS])calloc(PACK_TASKS, sizeof *P.count);
        if (!P.count) return WM_NOMEM;
    }
    wm_pool_for(J->cx->pool, PACK_TASKS, pack_pairs_task, &P);
    pack_bases(&P, 1);
    P.pass = 1;
    wm_pool_for(J->cx->pool, PACK_TASKS, pack_pairs_task, &P);
    free(P.count);
    return WM_OK;
}

/* Symbols [lo, hi) of task t's share of a block of n (DNA: from even ones). */
static void share(uint64_t n, size_t t, int dna, uint64_t *lo, uint64_t *hi) {
    uint64_t mask = dna ? ~(uint64_t)1 : ~(uint64_t)0;
    *lo = (n * t / PACK_TASKS) & mask;
    *hi = t + 1 == PACK_TASKS ? n : (n * (t + 1) / PACK_TASKS) & mask;
}

/* Columns: task t's items, their offsets within the batch (queries first,
** then targets from tpos) and its share of each side's symbols; with
** several widths, pass 0 counts each task's items of each width and pass 1
** lists them by width. */
static void pack_cols_task(void *arg, size_t t, int tid) {
    (void)tid;
    const pack_t *P = (const pack_t *)arg;
    batch_t *b = P->b;
    const wm_pairs_packed_t *c = P->J->src->cols;
    size_t a = P->J->src->first + b->from;
    size_t lo = b->ns * t / PACK_TASKS, hi = b->ns * (t + 1) / PACK_TASKS;
    const uint64_t *qo = c->query_off + a, *to = c->target_off + a;
    if (b->groups > 1 && P->pass == 0) {
        for (size_t k = lo; k < hi; k++) P->count[t][width_index(qo[k + 1] - qo[k])]++;
        return;
    }
    uint8_t *seq = b->h_front + b->o_seq;
    uint64_t s0, s1, tn = b->seq_syms - b->tpos;
    share(b->qbytes, t, P->J->dna, &s0, &s1);
    put_seq(P->J, seq, s0, c->query + qo[0] + s0, s1 - s0);
    share(tn, t, P->J->dna, &s0, &s1);
    put_seq(P->J, seq, b->tpos + s0, c->target + to[0] + s0, s1 - s0);
    if (lo == hi) return;
    uint8_t *f = b->h_front;
    uint64_t *qoff = (uint64_t *)(f + b->o_qoff), *toff = (uint64_t *)(f + b->o_toff);
    uint64_t *cig = (uint64_t *)(f + b->o_cig);
    uint32_t *len = (uint32_t *)(f + b->o_len), *ids = (uint32_t *)(f + b->o_ids);
    for (size_t k = lo; k < hi; k++) {
        qoff[k] = qo[k] - qo[0];
        toff[k] = b->tpos + to[k] - to[0];
        len[2 * k] = (uint32_t)(qo[k + 1] - qo[k]);
        len[2 * k + 1] = (uint32_t)(to[k + 1] - to[k]);
        if (P->J->o->cigar) cig[k] = 2 * (qo[k] - qo[0] + to[k] - to[0]);
    }
    if (b->groups > 1) {
        uint32_t *fill = P->count[t]; /* pass 1: where this task's items of each width go */
        for (size_t k = lo; k < hi; k++) ids[fill[width_index(qo[k + 1] - qo[k])]++] = (uint32_t)k;
    }
}

static wm_status pack_cols(const pairs_job_t *J, batch_t *b) {
    pack_t P = { J, b, NULL, NULL, NULL, 0 };
    if (b->groups > 1) {
        P.count = (uint32_t(*)[N_WIDTHS])calloc(PACK_TASKS, sizeof *P.count);
        if (!P.count) return WM_NOMEM;
        wm_pool_for(J->cx->pool, PACK_TASKS, pack_cols_task, &P);
        pack_bases(&P, 0);
        b->groups = 0;
        for (int w = 0; w < N_WIDTHS; w++) {
            b->nmax[w] = (uint32_t)J->src->max_n;
            b->groups += b->cnt[w] > 0;
        }
        b->groups = b->groups > 1 ? b->groups : 2; /* ids are filled in any case */
        P.pass = 1;
    }
    wm_pool_for(J->cx->pool, PACK_TASKS, pack_cols_task, &P);
    free(P.count);
    return WM_OK;
}

/* Fill the pinned front block. */
static wm_status batch_pack(const pairs_job_t *J, batch_t *b) {
    memcpy(b->h_front, J->code, 256);
    memset(b->h_front + b->o_seq + b->seq_store, 0, 16);
    return J->src->cols ? pack_cols(J, b) : pack_pairs(J, b);
}

/* ---- the GPU's part -------------------------------------------------------- */

/* Up, the kernels of each width, the CIGARs gathered, the results down. */
static wm_status batch_submit(const pairs_job_t *J, batch_t *b) {
    wm_context_t *cx = J->cx;
    cudaStream_t st = b->st;
    uint8_t *d = b->d;
    size_t ns = b->ns;
    const int timing = cx->tuning.timing;
    WM_CU(cx, cudaMemcpyAsync(d, b->h_front, b->front, cudaMemcpyHostToDevice, st));
    pairs_args_t a;
    memset(&a, 0, sizeof a);
    a.code = d;
    a.ncodes = J->ncodes;
    a.seq = d + b->o_seq;
    a.qoff = (const uint64_t *)(d + b->o_qoff);
    a.toff = (const uint64_t *)(d + b->o_toff);
    a.len = (const uint32_t *)(d + b->o_len);
    a.limit = J->o->max_distance;
    a.cigar = J->o->cigar;
    a.dist = (uint32_t *)(d + b->d_res);
    if (J->o->cigar) {
        a.hist = (uint64_t *)(d + b->d_hist);
        a.slots = (char *)(d + b->d_slots);
        a.cig_off = (const uint64_t *)(d + b->o_cig);
        a.cig_start = (uint32_t *)(d + b->d_start);
        a.cig_len = (uint32_t *)(d + b->d_res + b->r_clen);
    }
    if (timing) WM_CU(cx, cudaEventRecord(b->k0, st));
    for (int w = 0; w < N_WIDTHS; w++) {
        if (!b->cnt[w]) continue;
        a.ids = b->groups > 1 ? (const uint32_t *)(d + b->o_ids) + b->first[w] : NULL;
        a.n_slots = b->cnt[w];
        a.pair_words = hist_per_pair(w, b->nmax[w]);
        a.half = a.pair_words * b->cnt[w];
        uint64_t threads = (uint64_t)b->cnt[w] * (k_widths[w] >= WARP_WORDS ? 32 : 1);
        pick_kernel(w, J->dna)<<<(unsigned)((threads + 127) / 128), 128, 0, st>>>(a);
        WM_CU(cx, cudaGetLastError());
    }
    if (J->o->cigar) {
        uint64_t *out_off = (uint64_t *)(d + b->d_res + b->r_out);
        size_t tmp_bytes = b->tmp_bytes;
        WM_CU(cx, cub::DeviceScan::ExclusiveSum(d + b->d_tmp, tmp_bytes, a.cig_len, out_off,
                                                (int)ns, st));
        k_gather<<<(unsigned)((ns + 127) / 128), 128, 0, st>>>(
            a.slots, a.cig_off, a.cig_start, a.cig_len, out_off, (char *)(d + b->d_text),
            (uint32_t)ns);
        WM_CU(cx, cudaGetLastError());
    }
    if (timing) WM_CU(cx, cudaEventRecord(b->k1, st));
    WM_CU(cx, cudaMemcpyAsync(b->h_res, d + b->d_res, b->r_bytes, cudaMemcpyDeviceToHost, st));
    return WM_OK;
}

/* Wait for a batch, bring its CIGAR text down, hand it over. */
static wm_status batch_finish(const pairs_job_t *J, int s, batch_t *b, wm_pairs_deliver_t deliver,
                              void *user) {
    wm_context_t *cx = J->cx;
    double t0 = wm_now();
    WM_CU(cx, cudaStreamSynchronize(b->st));
    if (cx->tuning.timing) {
        float ms = 0;
        WM_CU(cx, cudaEventElapsedTime(&ms, b->k0, b->k1));
        cx->stats.pairs_gpu_kernel_s += ms / 1e3;
    }
    const uint32_t *dist = (const uint32_t *)b->h_res, *clen = NULL;
    const uint64_t *out_off = NULL;
    const char *text = NULL;
    if (J->o->cigar) {
        clen = (const uint32_t *)(b->h_res + b->r_clen);
        out_off = (const uint64_t *)(b->h_res + b->r_out);
        uint64_t total = out_off[b->ns - 1] + clen[b->ns - 1];
        wm_cu_buf_t *tb = &J->B->h[3 * s + 2];
        wm_status rc = grow(cx, tb, total + 1, 1);
        if (rc != WM_OK) return rc;
        WM_CU(cx, cudaMemcpyAsync(tb->p, b->d + b->d_text, total, cudaMemcpyDeviceToHost, b->st));
        WM_CU(cx, cudaStreamSynchronize(b->st));
        text = (const char *)tb->p;
    }
    double t1 = wm_now();
    cx->stats.pairs_gpu_wait_s += t1 - t0;
    cx->stats.pairs_gpu_batches++;
    wm_status rc = deliver(user, b->from, b->ns, dist, text, out_off, clen);
    cx->stats.pairs_gpu_deliver_s += wm_now() - t1;
    return rc;
}

/* Batches on two slots: batch i + 1 is packed while the GPU runs batch i,
** and batch i is handed over while the GPU runs batch i + 1. */
static wm_status run_batches(const pairs_job_t *J, batch_t *slot, wm_pairs_deliver_t deliver,
                             void *user) {
    wm_context_t *cx = J->cx;
    wm_status rc = WM_OK;
    int prev = -1;
    for (size_t at = 0, i = 0; rc == WM_OK && at < J->src->n; i++) {
        int s = (int)(i & 1);
        batch_t *b = &slot[s];
        double t0 = wm_now();
        batch_form(J, at, b);
        rc = batch_buffers(J, s, b);
        if (rc == WM_OK) rc = batch_pack(J, b);
        if (rc != WM_OK) break;
        cx->stats.pairs_gpu_pack_s += wm_now() - t0;
        rc = batch_submit(J, b);
        if (rc == WM_OK && prev >= 0) rc = batch_finish(J, prev, &slot[prev], deliver, user);
        prev = s;
        at += b->ns;
    }
    if (rc == WM_OK && prev >= 0) rc = batch_finish(J, prev, &slot[prev], deliver, user);
    return rc;
}

wm_status wm_cuda_pairs(wm_context_t *cx, const wm_pairs_src_t *src, const wm_align_opts_t *o,
                        wm_pairs_deliver_t deliver, void *user) {
    if (src->n == 0) return WM_OK;
    wm_aq_t aq; /* the symbol map only */
    wm_status rc = wm_aq_make(&aq, (const uint8_t *)"", 0, o);
    if (rc != WM_OK) return rc;
    uint8_t code[256];
    for (int c = 0; c < 256; c++) code[c] = (uint8_t)(aq.code[c] > 255 ? 255 : aq.code[c]);
    wm_nib_map_t nib;
    pairs_job_t J = { cx, src, o, code, aq.n_codes, aq.n_codes == 4, &nib, NULL, HISTORY_MIN };
    wm_aq_free(&aq);
    if (J.dna) wm_nib_map_make(&nib, code, J.ncodes, cx->tuning.simd);
    if (!(J.B = wm_cu_align_bufs(cx))) return WM_NOMEM;
    size_t free_b = 0, total_b = 0;
    if (o->cigar && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && free_b / 4 > J.hist_cap)
        J.hist_cap = free_b / 4 < HISTORY_MAX ? free_b / 4 : HISTORY_MAX;

    batch_t slot[2];
    memset(slot, 0, sizeof slot);
    slot[0].st = cx->cuda->stream[0];
    slot[1].st = cx->cuda->stream[1];
    int events = 0;
    if (cx->tuning.timing) {
        for (int s = 0; s < 2 && rc == WM_OK; s++, events = s) {
            if (cudaEventCreate(&slot[s].k0) != cudaSuccess) rc = WM_DEVICE;
            else if (cudaEventCreate(&slot[s].k1) != cudaSuccess) {
                cudaEventDestroy(slot[s].k0);
                rc = WM_DEVICE;
            }
        }
        if (rc != WM_OK) wm_context_set_error(cx, "cannot make the pair kernels' timing events");
    }
    if (rc == WM_OK) rc = run_batches(&J, slot, deliver, user);
    /* after an error a batch may still be in flight on its stream */
    cudaStreamSynchronize(slot[0].st);
    cudaStreamSynchronize(slot[1].st);
    for (int s = 0; s < events; s++) {
        cudaEventDestroy(slot[s].k0);
        cudaEventDestroy(slot[s].k1);
    }
    return rc;
}
