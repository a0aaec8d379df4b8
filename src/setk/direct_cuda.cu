/*
** direct_cuda.cu -- the patterns of a set within k errors too short to seed
** (setk.h: "direct"), scanned whole on the GPU; setk_cuda.cu calls this for
** each batch, into the same hits.
**
** Hamming: an occurrence is a window of fixed length, so the work is
** (position, pattern) pairs, and each pair is a handful of word operations:
** pattern and window as four bit-planes (a bit per position: does it accept
** A, C, G, T), so that matches = OR over the bases of (window & pattern), and
** mismatches = popcount of the rest. IUPAC codes cost nothing and a text N
** matches nothing, as on the CPU (wm_pat_accepts). A thread holds one
** window and walks the patterns of its group from shared memory. Patterns
** are grouped by the shape of an occurrence on a strand: the middle's length
** and the exact regions' codes (a guide's NGG). A group with exact regions
** first keeps the positions where its regions match (one in 16 for NGG),
** so the patterns are compared only there.
**
** Edits: Myers' bit-vector (setk_dev.cuh), a thread for each pattern and
** strand over a segment of the batch's ends, record by record, from the
** halo before the segment. A warp's threads are patterns on the same
** segment, so they read the same text bytes.
**
** Hits are the middle's ends; the host (gpu_finish.c) finishes them as the
** CPU does (the regions again, the starts).
*/
#include <stdlib.h>
#include <string.h>

#include "setk/setk_dev.cuh"

#define HAM_MAX_MID 64u /* two 32-bit words a plane */
#define HAM_MAX_REGION 16u
#define HAM_THREADS 256
#define HAM_TILE 512 /* patterns in shared memory at a time */
#define EDIT_SEGMENT 4096u

struct setk_group {
    uint32_t first, n;                  /* entries [first, first + n) */
    uint32_t mid, pre, suf;             /* the middle's length, the regions' */
    uint8_t region[2 * HAM_MAX_REGION]; /* the prefix's then the suffix's base sets */
};

/* A Hamming pattern on one strand: word w of its planes as (A, C, G, T). */
typedef struct __align__(16) {
    uint4 w[2];
    uint32_t pat, strand, pad[2];
}
dentry_t;

/* An edit pattern on one strand: its bytes at arena[off], m of them, as
** given (setk_peq reverse-complements strand 1). */
typedef struct {
    uint32_t pat, strand, m, off;
} dedit_t;

int setk_direct_supports(const wm_setk_t *s) {
    int ham = s->opts.metric == WM_METRIC_HAMMING;
    int regions = s->opts.exact_prefix || s->opts.exact_suffix;
    if (!ham && regions) return 0;
    for (size_t d = 0; d < s->n_direct; d++) {
        size_t m = s->len[s->direct[d]];
        if (ham && (wm_setk_mid_len(s, s->direct[d]) > HAM_MAX_MID ||
                    s->opts.exact_prefix > HAM_MAX_REGION || s->opts.exact_suffix > HAM_MAX_REGION))
            return 0;
        if (!ham && m > SETK_GPU_MAX_LEN) return 0;
    }
    return 1;
}

void setk_direct_release(setk_direct_t *d) {
    wm_cu_dev_release(&d->entries);
    wm_cu_dev_release(&d->edit);
    wm_cu_dev_release(&d->cand);
    wm_cu_dev_release(&d->arena);
    free(d->groups);
    memset(d, 0, sizeof *d);
}

/* ---- the tables --------------------------------------------------------------- */

/* One pattern on one strand as the host sorts them into groups. */
typedef struct {
    struct setk_group shape; /* first, n unused */
    dentry_t e;
} ham_entry_t;

static int shape_cmp(const struct setk_group *p, const struct setk_group *q) {
    if (p->mid != q->mid) return p->mid < q->mid ? -1 : 1;
    if (p->pre != q->pre) return p->pre < q->pre ? -1 : 1;
    if (p->suf != q->suf) return p->suf < q->suf ? -1 : 1;
    return memcmp(p->region, q->region, sizeof p->region);
}

/* By shape, then pattern and strand (the order hits come in matters not;
** this keeps a group's patterns in index order). */
static int by_shape(const void *x, const void *y) {
    int c = shape_cmp(&((const ham_entry_t *)x)->shape, &((const ham_entry_t *)y)->shape);
    if (c) return c;
    const dentry_t *a = &((const ham_entry_t *)x)->e, *b = &((const ham_entry_t *)y)->e;
    if (a->pat != b->pat) return a->pat < b->pat ? -1 : 1;
    return a->strand < b->strand ? -1 : a->strand > b->strand;
}

/* Pattern i as searched on strand st (1: its reverse complement) into out. */
static void on_strand(const wm_setk_t *s, size_t i, int st, uint8_t *out) {
    size_t m = s->len[i];
    for (size_t j = 0; j < m; j++)
        out[j] = st ? wm_iupac_complement(s->pat[i][m - 1 - j]) : s->pat[i][j];
}

static wm_status ham_tables(wm_context_t *cx, setk_direct_t *d, const wm_setk_t *s) {
    int ns = s->opts.revcomp ? 2 : 1;
    size_t n = s->n_direct * (size_t)ns;
    ham_entry_t *h = (ham_entry_t *)calloc(n ? n : 1, sizeof *h);
    uint8_t *full = (uint8_t *)malloc(HAM_MAX_MID + 2 * HAM_MAX_REGION);
    if (!h || !full) {
        free(h);
        free(full);
        return WM_NOMEM;
    }
    for (size_t x = 0; x < s->n_direct; x++)
        for (int st = 0; st < ns; st++) {
            uint32_t i = s->direct[x];
            ham_entry_t *e = &h[x * ns + st];
            on_strand(s, i, st, full);
            uint32_t m = (uint32_t)s->len[i], pre = s->pre[st], suf = s->suf[st];
            e->shape.mid = m - pre - suf;
            e->shape.pre = pre;
            e->shape.suf = suf;
            for (uint32_t j = 0; j < pre; j++)
                e->shape.region[j] = (uint8_t)wm_iupac_bases(full[j]);
            for (uint32_t j = 0; j < suf; j++)
                e->shape.region[pre + j] = (uint8_t)wm_iupac_bases(full[m - suf + j]);
            uint32_t plane[2][4] = { { 0 } };
            for (uint32_t j = 0; j < e->shape.mid; j++) {
                unsigned set = wm_iupac_bases(full[pre + j]);
                for (int c = 0; c < 4; c++)
                    if (set >> c & 1) plane[j / 32][c] |= 1u << (j % 32);
            }
            for (int w = 0; w < 2; w++)
                e->e.w[w] = make_uint4(plane[w][0], plane[w][1], plane[w][2], plane[w][3]);
            e->e.pat = i;
            e->e.strand = (uint32_t)st;
        }
    free(full);
    qsort(h, n, sizeof *h, by_shape);
    dentry_t *ent = (dentry_t *)malloc((n ? n : 1) * sizeof *ent);
    d->groups = (struct setk_group *)malloc((n ? n : 1) * sizeof *d->groups);
    if (!ent || !d->groups) {
        free(h);
        free(ent);
        return WM_NOMEM;
    }
    d->n_groups = 0;
    for (size_t x = 0; x < n; x++) {
        ent[x] = h[x].e;
        if (x == 0 || shape_cmp(&h[x - 1].shape, &h[x].shape) != 0) {
            struct setk_group *g = &d->groups[d->n_groups++];
            *g = h[x].shape;
            g->first = (uint32_t)x;
            g->n = 0;
        }
        d->groups[d->n_groups - 1].n++;
    }
    free(h);
    wm_status st = wm_cu_dev_reserve(cx, &d->entries, (n ? n : 1) * sizeof *ent);
    if (st == WM_OK && n) {
        cudaError_t e = cudaMemcpy(d->entries.p, ent, n * sizeof *ent, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) st = wm_cuda_fail(cx, e, "cudaMemcpy(direct entries)");
    }
    free(ent);
    return st;
}

static wm_status edit_tables(wm_context_t *cx, setk_direct_t *d, const wm_setk_t *s) {
    int ns = s->opts.revcomp ? 2 : 1;
    size_t n = s->n_direct * (size_t)ns, bytes = 0;
    for (size_t x = 0; x < s->n_direct; x++) bytes += s->len[s->direct[x]];
    dedit_t *e = (dedit_t *)malloc((n ? n : 1) * sizeof *e);
    uint8_t *arena = (uint8_t *)malloc(bytes ? bytes : 1);
    if (!e || !arena) {
        free(e);
        free(arena);
        return WM_NOMEM;
    }
    size_t off = 0;
    for (size_t x = 0; x < s->n_direct; x++) {
        uint32_t i = s->direct[x];
        memcpy(arena + off, s->pat[i], s->len[i]);
        for (int st = 0; st < ns; st++) {
            dedit_t v = { i, (uint32_t)st, (uint32_t)s->len[i], (uint32_t)off };
            e[x * ns + st] = v;
        }
        off += s->len[i];
    }
    d->n_edit = n;
    wm_status st = wm_cu_dev_reserve(cx, &d->edit, (n ? n : 1) * sizeof *e);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &d->arena, bytes ? bytes : 1);
    cudaError_t ce = cudaSuccess;
    if (st == WM_OK && n) ce = cudaMemcpy(d->edit.p, e, n * sizeof *e, cudaMemcpyHostToDevice);
    if (st == WM_OK && ce == cudaSuccess && bytes)
        ce = cudaMemcpy(d->arena.p, arena, bytes, cudaMemcpyHostToDevice);
    if (st == WM_OK && ce != cudaSuccess) st = wm_cuda_fail(cx, ce, "cudaMemcpy(direct patterns)");
    free(e);
    free(arena);
    return st;
}

static wm_status tables(wm_context_t *cx, setk_direct_t *d, const wm_setk_t *s) {
    if (d->db_id == s->id) return WM_OK;
    setk_direct_release(d);
    wm_status st =
        s->opts.metric == WM_METRIC_HAMMING ? ham_tables(cx, d, s) : edit_tables(cx, d, s);
    if (st == WM_OK) d->db_id = s->id;
    return st;
}

/* ---- Hamming ------------------------------------------------------------------ */

/* Keep the middle ends e in (e_lo, e_lo + n] whose occurrence lies in one
** record with its regions matching: cand[] = e - b.from. */
__global__ void region_kernel(struct setk_group g, dbatch_t b, uint64_t e_lo, uint64_t n,
                              uint32_t *cand, unsigned long long *count) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t e = e_lo + 1 + i, span = g.mid + g.pre;
    if (e < span || e - span < b.from || e + g.suf > b.to) return;
    uint64_t s0 = e - span;
    for (uint32_t j = 0; j < g.pre; j++) {
        int c = d_base[at(b, s0 + j)];
        if (c < 0 || !(g.region[j] >> c & 1)) return;
    }
    for (uint32_t j = 0; j < g.suf; j++) {
        int c = d_base[at(b, e + j)];
        if (c < 0 || !(g.region[g.pre + j] >> c & 1)) return;
    }
    if (record_of(b, s0) != record_of(b, e + g.suf - 1)) return;
    namespace cg = cooperative_groups;
    cg::coalesced_group w = cg::coalesced_threads();
    unsigned long long first = 0;
    if (w.thread_rank() == 0) first = atomicAdd(count, (unsigned long long)w.size());
    cand[w.shfl(first, 0) + w.thread_rank()] = (uint32_t)(e - b.from);
}

__device__ __forceinline__ uint32_t word_of(const uint4 &v, int c) {
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

/* Every pattern of group g against the window that ends at each candidate
** (cand[i] + b.from, or e_lo + 1 + i without cand). */
template <int W>
__global__ void __launch_bounds__(HAM_THREADS)
    hamming_kernel(struct setk_group g, const dentry_t *ent, dbatch_t b, const uint32_t *cand,
                   const unsigned long long *n_cand, uint64_t e_lo, uint64_t n_range, uint32_t k,
                   dhits_t o) {
    __shared__ dentry_t tile[HAM_TILE];
    uint64_t n = cand ? *n_cand : n_range;
    if ((uint64_t)blockIdx.x * blockDim.x >= n) return; /* the whole block */
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < n;
    uint64_t e = 0;
    if (valid) {
        e = cand ? b.from + cand[i] : e_lo + 1 + i;
        /* without regions the window's place is checked here */
        if (!cand)
            valid = e >= g.mid && e - g.mid >= b.from && e <= b.to &&
                    record_of(b, e - g.mid) == record_of(b, e - 1);
    }
    uint32_t tp[W][4], mask[W];
#pragma unroll
    for (int w = 0; w < W; w++) {
        for (int c = 0; c < 4; c++) tp[w][c] = 0;
        uint32_t bits = g.mid > 32u * w ? g.mid - 32u * w : 0;
        mask[w] = bits >= 32 ? ~0u : (1u << bits) - 1;
    }
    if (valid)
        for (uint32_t j = 0; j < g.mid; j++) {
            int c = d_base[at(b, e - g.mid + j)];
            uint32_t bit = 1u << (j & 31);
#pragma unroll
            for (int w = 0; w < W; w++)
#pragma unroll
                for (int x = 0; x < 4; x++)
                    if (c == x && (j >> 5) == (uint32_t)w) tp[w][x] |= bit;
        }
    for (uint32_t t0 = 0; t0 < g.n; t0 += HAM_TILE) {
        uint32_t tn = g.n - t0 < HAM_TILE ? g.n - t0 : HAM_TILE;
        __syncthreads();
        for (uint32_t x = threadIdx.x; x < tn; x += blockDim.x) tile[x] = ent[g.first + t0 + x];
        __syncthreads();
        if (!valid) continue;
        for (uint32_t x = 0; x < tn; x++) {
            uint32_t d = 0;
#pragma unroll
            for (int w = 0; w < W; w++) {
                uint4 p = tile[x].w[w];
                uint32_t match =
                    (tp[w][0] & p.x) | (tp[w][1] & p.y) | (tp[w][2] & p.z) | (tp[w][3] & p.w);
                d += __popc(~match & mask[w]);
            }
            if (d <= k) push_hit(o, e, tile[x].pat, tile[x].strand, d);
        }
    }
}

/* ---- edits -------------------------------------------------------------------- */

__global__ void edit_kernel(const dedit_t *ent, uint64_t n_ent, const uint8_t *arena, dbatch_t b,
                            uint32_t k, uint64_t n_seg, dhits_t o) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t y = i / n_ent;
    if (y >= n_seg) return;
    dedit_t p = ent[i % n_ent];
    uint64_t a0 = b.lo + y * EDIT_SEGMENT;
    uint64_t a1 = a0 + EDIT_SEGMENT < b.hi ? a0 + EDIT_SEGMENT : b.hi; /* ends (a0, a1] */
    uint64_t peq[4][4];
    setk_peq(arena + p.off, p.m, p.strand, peq);
    uint64_t halo = p.m + k - 1;
    for (uint32_t r = record_of_end(b, a0 + 1);; r++) {
        uint64_t rb = b.rs[r], re = b.rs[r + 1];
        uint64_t own = a0 > rb ? a0 : rb, to = a1 < re ? a1 : re;
        if (own < to) {
            uint64_t from = own - rb > halo ? own - halo : rb;
            setk_myers(b, peq, p.m, k, from, own, to, p.pat, p.strand, o);
        }
        if (re >= a1) break;
    }
}

/* ---- a batch ------------------------------------------------------------------ */

static unsigned blocks(uint64_t n, unsigned threads) {
    return (unsigned)((n + threads - 1) / threads);
}

wm_status setk_direct_batch(wm_context_t *cx, setk_direct_t *d, const wm_setk_t *s,
                            const dbatch_t &b, const dhits_t &o, unsigned long long *count,
                            cudaStream_t stream) {
    wm_status st = tables(cx, d, s);
    if (st == WM_OK) st = setk_constants(cx); /* this file's copy (setk_dev.cuh) */
    if (st != WM_OK) return st;
    uint32_t k = s->opts.max_edits;
    if (s->opts.metric != WM_METRIC_HAMMING) {
        uint64_t n_seg = (b.hi - b.lo + EDIT_SEGMENT - 1) / EDIT_SEGMENT;
        if (d->n_edit == 0 || n_seg == 0) return WM_OK;
        edit_kernel<<<blocks(d->n_edit * n_seg, 128), 128, 0, stream>>>(
            (const dedit_t *)d->edit.p, d->n_edit, (const uint8_t *)d->arena.p, b, k, n_seg, o);
        WM_CU(cx, cudaGetLastError());
        return WM_OK;
    }
    const dentry_t *ent = (const dentry_t *)d->entries.p;
    for (size_t x = 0; x < d->n_groups; x++) {
        const struct setk_group g = d->groups[x];
        /* the middle ends whose occurrence ends in (lo, hi] */
        uint64_t e_lo = b.lo > g.suf ? b.lo - g.suf : 0, e_hi = b.hi > g.suf ? b.hi - g.suf : 0;
        uint64_t n = e_hi - e_lo;
        if (n == 0) continue;
        const uint32_t *cand = NULL;
        if (g.pre + g.suf > 0) {
            if ((st = wm_cu_dev_reserve(cx, &d->cand, n * sizeof(uint32_t))) != WM_OK) return st;
            WM_CU(cx, cudaMemsetAsync(count, 0, sizeof *count, stream));
            region_kernel<<<blocks(n, 256), 256, 0, stream>>>(g, b, e_lo, n, (uint32_t *)d->cand.p,
                                                              count);
            WM_CU(cx, cudaGetLastError());
            cand = (const uint32_t *)d->cand.p;
        }
        if (g.mid > 32)
            hamming_kernel<2><<<blocks(n, HAM_THREADS), HAM_THREADS, 0, stream>>>(
                g, ent, b, cand, count, e_lo, n, k, o);
        else
            hamming_kernel<1><<<blocks(n, HAM_THREADS), HAM_THREADS, 0, stream>>>(
                g, ent, b, cand, count, e_lo, n, k, o);
        WM_CU(cx, cudaGetLastError());
    }
    return WM_OK;
}
