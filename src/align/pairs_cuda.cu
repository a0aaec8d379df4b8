/*
** pairs_cuda.cu -- many short global pairs on the GPU, one pair per thread:
** Myers' bit-vector DP over the query's W words (in registers), the target
** one symbol a step, and for CIGARs the canonical traceback (traceback.c's
** rule) on the thread's own column history.
**
** Why one pair a thread. A 150 bp pair is 150 columns of 3 words: too little
** to share among threads, and a million of them fill the GPU many times. The
** warp's threads walk their own pairs; their column histories are laid out
** slot-minor ([column][word][slot]) so that the 32 stores of a step are one
** coalesced line.
**
** Flow (wm_cuda_pairs): empty sequences are answered on the host; the rest
** are grouped by W = ceil(m / 64) (kernels for W = 1, 2, 3, 4, 6, 8, 12, 16;
** a pair takes the first that holds it: extra words only add rows below row
** m, which never feed back) and cut into launches whose history fits in
** about 2 GiB. Sequences go up packed back to back; distances, and CIGARs
** written right to left into a slot of 2 (m + n) bytes each, come back
** compacted by a prefix sum (CUB).
**
** Alphabets. DNA (4 codes, N matches nothing) keeps its 4 x W masks in
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
#include "cuda/device.cuh"

#define HISTORY_BYTES ((size_t)2 << 30)

typedef struct {
    const uint8_t *seq;  /* packed: query then target, pair after pair */
    const uint64_t *off; /* per slot: where its query starts */
    const uint32_t *len; /* per slot: m, n */
    uint32_t n_slots;
    int64_t limit; /* -1: none */
    int cigar;
    uint64_t *hist; /* [col][word][slot] Pv, then Mv at + half */
    uint64_t half;  /* words of the Pv history */
    uint32_t n_max; /* longest target of the launch */
    char *slots;    /* CIGAR text, slot at cig_off */
    const uint64_t *cig_off;
    uint32_t *dist;                /* per slot; UINT32_MAX: over the limit */
    uint32_t *cig_start, *cig_len; /* the text within the slot */
} pairs_args_t;

__constant__ uint8_t c_code[256]; /* byte -> symbol; c_ncodes: matches nothing */
__constant__ uint32_t c_ncodes;

static __device__ __forceinline__ int sym_eq(uint8_t a, uint8_t b) {
    uint8_t ca = c_code[a];
    return ca == c_code[b] && ca < c_ncodes;
}

template <int W>
static __device__ __forceinline__ uint64_t hist_value(const pairs_args_t &a, uint32_t slot,
                                                      uint64_t i, uint64_t j) {
    /* D[i][j] from column j's history (j >= 1, i >= 1): j + the deltas above */
    const uint64_t *pv = a.hist + ((uint64_t)(j - 1) * W) * a.n_slots + slot;
    const uint64_t *mv = pv + a.half;
    uint32_t w = (uint32_t)((i - 1) >> 6), r = (uint32_t)((i - 1) & 63);
    int64_t v = (int64_t)j;
#pragma unroll
    for (int u = 0; u < W; u++) {
        if ((uint32_t)u > w) break;
        uint64_t p = pv[(uint64_t)u * a.n_slots], q = mv[(uint64_t)u * a.n_slots];
        if ((uint32_t)u == w) {
            uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
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

template <int W, bool DNA>
__global__ void __launch_bounds__(128) k_pairs(pairs_args_t a) {
    const uint32_t slot = blockIdx.x * blockDim.x + threadIdx.x;
    if (slot >= a.n_slots) return;
    const uint8_t *x = a.seq + a.off[slot];
    const uint32_t m = a.len[2 * slot], n = a.len[2 * slot + 1];
    const uint8_t *y = x + m;

    /* match masks */
    uint64_t pd[DNA ? 4 : 1][W];
    uint64_t pb[DNA ? 1 : 256][W];
    uint32_t present[DNA ? 1 : 8];
    if (DNA) {
        /* word by word, so that every index is known at compile time and the
        ** masks stay in registers */
#pragma unroll
        for (int u = 0; u < W; u++) {
            uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
            for (uint32_t b = 0; b < 64 && 64 * (uint32_t)u + b < m; b++) {
                uint32_t c = c_code[x[64 * u + b]];
                uint64_t bit = 1ull << b;
                a0 |= c == 0 ? bit : 0;
                a1 |= c == 1 ? bit : 0;
                a2 |= c == 2 ? bit : 0;
                a3 |= c == 3 ? bit : 0;
            }
            pd[0][u] = a0;
            pd[1][u] = a1;
            pd[2][u] = a2;
            pd[3][u] = a3;
        }
    } else {
#pragma unroll
        for (int k = 0; k < 8; k++) present[k] = 0;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t c = c_code[x[i]];
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
        uint32_t c = c_code[y[j - 1]];
        int h = 1; /* D[0][j] - D[0][j-1] */
#pragma unroll
        for (int u = 0; u < W; u++) {
            uint64_t eq;
            if (DNA) {
                eq = c == 0   ? pd[0][u]
                     : c == 1 ? pd[1][u]
                     : c == 2 ? pd[2][u]
                     : c == 3 ? pd[3][u]
                              : 0;
            } else {
                eq = c < c_ncodes && ((present[c >> 5] >> (c & 31)) & 1) ? pb[c][u] : 0;
            }
            uint64_t neg = (uint64_t)(h < 0), pos = (uint64_t)(h > 0);
            uint64_t xv = eq | mv[u];
            uint64_t xh = (((eq | neg) & pv[u]) + pv[u]) ^ pv[u];
            xh |= eq | neg;
            uint64_t ph = mv[u] | ~(xh | pv[u]);
            uint64_t mh = pv[u] & xh;
            if ((uint32_t)u == lw) score += (int64_t)((ph >> lr) & 1) - (int64_t)((mh >> lr) & 1);
            h = (int)(ph >> 63) - (int)(mh >> 63);
            ph = (ph << 1) | pos;
            mh = (mh << 1) | neg;
            pv[u] = mh | ~(xv | ph);
            mv[u] = ph & xv;
        }
        if (a.cigar) {
            uint64_t *hp = a.hist + ((uint64_t)(j - 1) * W) * a.n_slots + slot;
#pragma unroll
            for (int u = 0; u < W; u++) {
                hp[(uint64_t)u * a.n_slots] = pv[u];
                hp[(uint64_t)u * a.n_slots + a.half] = mv[u];
            }
        }
        /* D[m][n] >= D[m][j] - (n - j): past the limit already, stop */
        if (a.limit >= 0 && score - (int64_t)(n - j) > a.limit) {
            over = 1;
            break;
        }
    }
    if (over || (a.limit >= 0 && score > a.limit)) {
        a.dist[slot] = UINT32_MAX;
        if (a.cigar) a.cig_len[slot] = 0, a.cig_start[slot] = 0;
        return;
    }
    a.dist[slot] = (uint32_t)score;
    if (!a.cigar) return;

    /* the canonical traceback (traceback.c), runs written right to left */
    char *s = a.slots + a.cig_off[slot];
    int64_t end = 2 * ((int64_t)m + n) - 1, pos = end;
    uint64_t i = m, j = n, cur = (uint64_t)score, run = 0;
    char op = 0;
    while (i > 0 || j > 0) {
        char o;
        if (i == 0) {
            o = 'D';
            j--;
        } else if (j == 0) {
            o = 'I';
            i--;
        } else if (sym_eq(x[i - 1], y[j - 1])) {
            o = '=';
            i--;
            j--;
        } else {
            uint64_t diag = j == 1 ? i - 1 : i == 1 ? j - 1 : hist_value<W>(a, slot, i - 1, j - 1);
            if (diag + 1 == cur) {
                o = 'X';
                i--;
                j--;
                cur = diag;
            } else {
                uint64_t up = i == 1 ? j : hist_value<W>(a, slot, i - 1, j);
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
    a.cig_start[slot] = (uint32_t)(pos + 1);
    a.cig_len[slot] = (uint32_t)(end - pos);
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

static const int k_widths[] = { 1, 2, 3, 4, 6, 8, 12, 16 };

static pairs_kernel_t pick_kernel(int W, int dna) {
    switch (W) {
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

static int width_for(uint64_t m) {
    uint64_t w = (m + 63) / 64;
    for (int k = 0; k < 8; k++)
        if ((uint64_t)k_widths[k] >= w) return k_widths[k];
    return 0;
}

typedef struct {
    char *base;
    size_t used, cap;
} dev_arena_t;

static void *take(dev_arena_t *ar, size_t bytes) {
    size_t at = (ar->used + 255) & ~(size_t)255;
    if (at + bytes > ar->cap) return NULL;
    ar->used = at + bytes;
    return ar->base + at;
}

/* Packing the sequences and unpacking the results are spread over the
** pool: a million pairs are 300 MB to copy and a million CIGARs to make. */
#define PACK_TASKS 64

typedef struct {
    const wm_pair_t *pairs;
    const size_t *sel;
    size_t ns;
    const uint64_t *off;
    uint8_t *seq;
    wm_alignment_t *out;
    const uint32_t *dist;
    const char *text;
    const uint64_t *text_off;
    int failed;
    int cigar;
    const uint32_t *clen;
} pack_t;

static void pack_task(void *arg, size_t t, int tid) {
    (void)tid;
    pack_t *P = (pack_t *)arg;
    size_t a = P->ns * t / PACK_TASKS, b = P->ns * (t + 1) / PACK_TASKS;
    for (size_t k = a; k < b; k++) {
        const wm_pair_t *p = &P->pairs[P->sel[k]];
        memcpy(P->seq + P->off[k], p->query, p->m);
        memcpy(P->seq + P->off[k] + p->m, p->target, p->n);
    }
}

static void unpack_task(void *arg, size_t t, int tid) {
    (void)tid;
    pack_t *P = (pack_t *)arg;
    size_t a = P->ns * t / PACK_TASKS, b = P->ns * (t + 1) / PACK_TASKS;
    for (size_t k = a; k < b; k++) {
        wm_alignment_t *r = &P->out[P->sel[k]];
        if (P->dist[k] == UINT32_MAX) {
            r->distance = WM_ALIGN_NONE;
            continue;
        }
        r->distance = P->dist[k];
        r->start = 0;
        r->end = P->pairs[P->sel[k]].n;
        if (!P->cigar) continue;
        r->cigar = (char *)malloc(P->clen[k] + 1);
        if (!r->cigar) {
            __atomic_store_n(&P->failed, 1, __ATOMIC_RELAXED);
            continue;
        }
        memcpy(r->cigar, P->text + P->text_off[k], P->clen[k]);
        r->cigar[P->clen[k]] = 0;
    }
}

/* A host-side empty pair. */
static wm_status empty_pair(const wm_pair_t *p, const wm_align_opts_t *o, wm_alignment_t *r) {
    uint64_t d = p->m + p->n;
    if (o->max_distance >= 0 && d > (uint64_t)o->max_distance) {
        r->distance = WM_ALIGN_NONE;
        return WM_OK;
    }
    r->distance = d;
    r->start = 0;
    r->end = p->n;
    if (!o->cigar) return WM_OK;
    r->cigar = (char *)malloc(24);
    if (!r->cigar) return WM_NOMEM;
    if (d == 0) r->cigar[0] = 0;
    else snprintf(r->cigar, 24, "%llu%c", (unsigned long long)d, p->m ? 'I' : 'D');
    return WM_OK;
}

/* The host side of one launch: the pairs packed, their offsets and lengths,
** and room for what comes back. */
typedef struct {
    uint64_t seq_bytes, cig_bytes, half;
    uint32_t n_max;
    uint8_t *seq;
    uint64_t *off, *cig, *out_off;
    uint32_t *len, *dist, *clen;
    char *text;
} pair_host_t;

static void host_free(pair_host_t *h) {
    free(h->seq);
    free(h->off);
    free(h->cig);
    free(h->len);
    free(h->dist);
    free(h->out_off);
    free(h->clen);
    free(h->text);
}

static wm_status host_pack(wm_context_t *cx, const wm_pair_t *pairs, const size_t *sel, size_t ns,
                           int W, const wm_align_opts_t *o, pair_host_t *h) {
    memset(h, 0, sizeof *h);
    for (size_t k = 0; k < ns; k++) {
        const wm_pair_t *p = &pairs[sel[k]];
        h->seq_bytes += p->m + p->n;
        h->cig_bytes += 2 * (p->m + p->n);
        if (p->n > h->n_max) h->n_max = (uint32_t)p->n;
    }
    h->half = o->cigar ? (uint64_t)h->n_max * W * ns : 0;
    h->seq = (uint8_t *)malloc(h->seq_bytes + 16);
    h->off = (uint64_t *)malloc(ns * sizeof *h->off);
    h->cig = (uint64_t *)malloc(ns * sizeof *h->cig);
    h->len = (uint32_t *)malloc(2 * ns * sizeof *h->len);
    h->dist = (uint32_t *)malloc(ns * sizeof *h->dist);
    h->out_off = (uint64_t *)malloc((ns + 1) * sizeof *h->out_off);
    h->clen = (uint32_t *)malloc(ns * sizeof *h->clen);
    if (!h->seq || !h->off || !h->cig || !h->len || !h->dist || !h->out_off || !h->clen)
        return WM_NOMEM;
    uint64_t at = 0, cat = 0;
    for (size_t k = 0; k < ns; k++) {
        const wm_pair_t *p = &pairs[sel[k]];
        h->off[k] = at;
        h->cig[k] = cat;
        h->len[2 * k] = (uint32_t)p->m;
        h->len[2 * k + 1] = (uint32_t)p->n;
        at += p->m + p->n;
        cat += 2 * (p->m + p->n);
    }
    pack_t P = { pairs, sel, ns, h->off, h->seq, NULL, NULL, NULL, NULL, 0, o->cigar };
    wm_pool_for(cx->pool, PACK_TASKS, pack_task, &P);
    return WM_OK;
}

/* The device side: one arena (kept in the context) cut into the kernel's
** inputs, its history and CIGAR slots, and the gathered CIGAR text. */
typedef struct {
    pairs_args_t a;
    uint8_t *seq;
    uint64_t *off, *cig, *out_off;
    uint32_t *len;
    char *text;
    void *tmp;
    size_t tmp_bytes;
} pair_dev_t;

static wm_status dev_layout(wm_context_t *cx, const pair_host_t *h, size_t ns,
                            const wm_align_opts_t *o, cudaStream_t st, pair_dev_t *d) {
    size_t need = h->seq_bytes + 16 + ns * (8 + 8 + 4 + 4 + 4 + 8 + 8) + (size_t)(2 * h->half * 8) +
                  (o->cigar ? 2 * h->cig_bytes : 0) + 16 * 256 + (1u << 20);
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    if (!B) return WM_NOMEM;
    wm_status rc = wm_cu_dev_reserve(cx, &B->g[4], need);
    if (rc != WM_OK) return rc;
    dev_arena_t ar = { (char *)B->g[4].p, 0, need };
    memset(d, 0, sizeof *d);
    pairs_args_t *a = &d->a;
    d->seq = (uint8_t *)take(&ar, h->seq_bytes + 16);
    d->off = (uint64_t *)take(&ar, ns * 8);
    d->len = (uint32_t *)take(&ar, ns * 8);
    a->dist = (uint32_t *)take(&ar, ns * 4);
    a->seq = d->seq;
    a->off = d->off;
    a->len = d->len;
    a->n_slots = (uint32_t)ns;
    a->limit = o->max_distance;
    a->cigar = o->cigar;
    a->n_max = h->n_max;
    if (!o->cigar) return WM_OK;
    a->hist = (uint64_t *)take(&ar, 2 * h->half * 8);
    a->half = h->half;
    a->slots = (char *)take(&ar, h->cig_bytes + 16);
    d->cig = (uint64_t *)take(&ar, ns * 8);
    a->cig_off = d->cig;
    a->cig_start = (uint32_t *)take(&ar, ns * 4);
    a->cig_len = (uint32_t *)take(&ar, ns * 4);
    d->out_off = (uint64_t *)take(&ar, (ns + 1) * 8);
    d->text = (char *)take(&ar, h->cig_bytes + 16);
    cub::DeviceScan::ExclusiveSum(NULL, d->tmp_bytes, (const uint32_t *)a->cig_len, d->out_off,
                                  (int)ns, st);
    d->tmp = take(&ar, d->tmp_bytes);
    return d->tmp ? WM_OK : WM_NOMEM; /* the arena was sized with a MiB to spare */
}

/* Upload, run, and bring back the distances and (with CIGARs) the gathered
** text and its offsets. */
static wm_status dev_run(wm_context_t *cx, pair_dev_t *d, pair_host_t *h, size_t ns, int W, int dna,
                         const wm_align_opts_t *o, cudaStream_t st) {
    const pairs_args_t *a = &d->a;
    const unsigned grid = (unsigned)((ns + 127) / 128);
    WM_CU(cx, cudaMemcpyAsync(d->seq, h->seq, h->seq_bytes, cudaMemcpyHostToDevice, st));
    WM_CU(cx, cudaMemcpyAsync(d->off, h->off, ns * 8, cudaMemcpyHostToDevice, st));
    WM_CU(cx, cudaMemcpyAsync(d->len, h->len, ns * 8, cudaMemcpyHostToDevice, st));
    if (o->cigar) WM_CU(cx, cudaMemcpyAsync(d->cig, h->cig, ns * 8, cudaMemcpyHostToDevice, st));
    pick_kernel(W, dna)<<<grid, 128, 0, st>>>(*a);
    WM_CU(cx, cudaGetLastError());
    WM_CU(cx, cudaMemcpyAsync(h->dist, a->dist, ns * 4, cudaMemcpyDeviceToHost, st));
    if (o->cigar) {
        WM_CU(cx, cub::DeviceScan::ExclusiveSum(d->tmp, d->tmp_bytes, (const uint32_t *)a->cig_len,
                                                d->out_off, (int)ns, st));
        k_gather<<<grid, 128, 0, st>>>(a->slots, d->cig, a->cig_start, a->cig_len, d->out_off,
                                       d->text, (uint32_t)ns);
        WM_CU(cx, cudaGetLastError());
        WM_CU(cx, cudaMemcpyAsync(h->out_off, d->out_off, ns * 8, cudaMemcpyDeviceToHost, st));
        WM_CU(cx, cudaMemcpyAsync(h->clen, a->cig_len, ns * 4, cudaMemcpyDeviceToHost, st));
        WM_CU(cx, cudaStreamSynchronize(st));
        uint64_t total = ns ? h->out_off[ns - 1] + h->clen[ns - 1] : 0;
        if (!(h->text = (char *)malloc(total + 1))) return WM_NOMEM;
        WM_CU(cx, cudaMemcpyAsync(h->text, d->text, total, cudaMemcpyDeviceToHost, st));
    }
    WM_CU(cx, cudaStreamSynchronize(st));
    return WM_OK;
}

/* One launch: pairs sel[0 .. ns) of one width. */
static wm_status launch(wm_context_t *cx, const wm_pair_t *pairs, const size_t *sel, size_t ns,
                        int W, int dna, const wm_align_opts_t *o, wm_alignment_t *out) {
    cudaStream_t st = cx->cuda->stream[0];
    pair_host_t h;
    pair_dev_t d;
    wm_status rc = host_pack(cx, pairs, sel, ns, W, o, &h);
    if (rc == WM_OK) rc = dev_layout(cx, &h, ns, o, st, &d);
    if (rc == WM_OK) rc = dev_run(cx, &d, &h, ns, W, dna, o, st);
    if (rc == WM_OK) {
        pack_t P = { pairs, sel, ns, NULL, NULL, out, h.dist, h.text, h.out_off, 0, o->cigar };
        P.clen = h.clen;
        wm_pool_for(cx->pool, PACK_TASKS, unpack_task, &P);
        if (P.failed) rc = WM_NOMEM;
    }
    host_free(&h);
    return rc;
}

wm_status wm_cuda_pairs(wm_context_t *cx, const wm_pair_t *pairs, const size_t *idx, size_t n_idx,
                        const wm_align_opts_t *o, wm_alignment_t *out) {
    wm_aq_t aq; /* the symbol map only */
    wm_status rc = wm_aq_make(&aq, (const uint8_t *)"", 0, o);
    if (rc != WM_OK) return rc;
    uint8_t code[256];
    for (int b = 0; b < 256; b++) code[b] = (uint8_t)(aq.code[b] > 255 ? 255 : aq.code[b]);
    uint32_t ncodes = aq.n_codes;
    int dna = aq.n_codes == 4;
    wm_aq_free(&aq);
    cudaError_t e = cudaMemcpyToSymbol(c_code, code, sizeof code);
    if (e == cudaSuccess) e = cudaMemcpyToSymbol(c_ncodes, &ncodes, sizeof ncodes);
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "the pair kernel's symbol map");

    size_t *sel = (size_t *)malloc((n_idx ? n_idx : 1) * sizeof *sel);
    if (!sel) return WM_NOMEM;
    for (int wk = 0; rc == WM_OK && wk < 8; wk++) {
        int W = k_widths[wk];
        size_t ns = 0;
        uint64_t per_pair_max = 0;
        for (size_t k = 0; k < n_idx && rc == WM_OK; k++) {
            const wm_pair_t *p = &pairs[idx[k]];
            if (p->m == 0 || p->n == 0) {
                if (wk == 0) rc = empty_pair(p, o, &out[idx[k]]);
                continue;
            }
            int pw = width_for(p->m);
            if (pw != W) continue;
            if (!pick_kernel(W, dna)) { /* long byte pairs: one at a time */
                int found = 0;
                rc = wm_align_global_one(cx, p->query, p->m, p->target, p->n, o, &out[idx[k]],
                                         &found, 1);
                if (rc == WM_OK && !found) out[idx[k]].distance = WM_ALIGN_NONE;
                continue;
            }
            /* keep the launch's history (n_max x W x 16 bytes a pair) near HISTORY_BYTES */
            uint64_t pp = (uint64_t)p->n * W * 16;
            if (pp > per_pair_max) per_pair_max = pp;
            if (ns && o->cigar && per_pair_max * (ns + 1) > HISTORY_BYTES) {
                rc = launch(cx, pairs, sel, ns, W, dna, o, out);
                ns = 0;
                per_pair_max = pp;
            } else if (ns == ((size_t)1 << 22)) {
                rc = launch(cx, pairs, sel, ns, W, dna, o, out);
                ns = 0;
            }
            sel[ns++] = idx[k];
        }
        if (rc == WM_OK && ns) rc = launch(cx, pairs, sel, ns, W, dna, o, out);
    }
    free(sel);
    if (rc != WM_OK)
        for (size_t k = 0; k < n_idx; k++) {
            free(out[idx[k]].cigar);
            out[idx[k]].cigar = NULL;
        }
    return rc;
}
