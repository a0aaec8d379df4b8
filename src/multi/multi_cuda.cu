/*
** multi_cuda.cu -- the CUDA backend's driver for pattern sets.
**
** Plan: the set's tables for the chosen kernel, uploaded once per search.
** Batches: the text goes to the GPU in batches, each with the (longest - 1)
** bytes before it, and is scanned in one of the modes of mkernel.cuh:
** counting runs one kernel per batch; listing runs COUNT (hits per block),
** a CUB exclusive scan of those counts, then WRITE, which puts every hit at
** its place in end order, so the list needs no sort. A batch whose list
** would outgrow the hit buffer's limit is cut in halves and done again.
*/
#include <stdlib.h>
#include <string.h>
#include <cub/device/device_scan.cuh>

#include "cuda/cuda_common.cuh"
#include "cuda/state.cuh"
#include "core/msearch.h"
#include "multi/mcuda.h"
#include "multi/mplan.h"
#include "multi/qgram.h"
#include "multi/trie.h"

/* The kernel the GPU runs for a set: what the user asked for, or with AUTO
** the q-gram index for DNA sets whose strings are all long enough, else
** PFAC (measured: on byte signatures, common q-gram suffixes make long
** buckets, and PFAC's walks stop early; BENCHMARKS.md). */
static wm_algo_t gpu_algo(const wm_db_t *db) {
    const wm_mset_t *s = db->set;
    if (db->opts.algo != WM_ALGO_AUTO) return db->opts.algo;
    return s->dna && s->min_len >= WM_QGRAM_MIN_LEN ? WM_ALGO_QGRAM : WM_ALGO_PFAC;
}

extern "C" int wm_cuda_mset_supports(const wm_db_t *db) {
    wm_algo_t a = gpu_algo(db);
    return a == WM_ALGO_QGRAM || a == WM_ALGO_PFAC || a == WM_ALGO_AC;
}

/* ---- the plan ------------------------------------------------------------------ */

static wm_status upload(wm_context_t *cx, wm_cu_mplan_host_t *h, const void *src, size_t bytes,
                        const void **dst) {
    void *d = NULL;
    if (bytes == 0) bytes = 16;
    if (h->n_allocs == (int)(sizeof h->allocs / sizeof h->allocs[0])) return WM_INVALID;
    WM_CU(cx, cudaMalloc(&d, bytes));
    h->allocs[h->n_allocs++] = d;
    if (src) WM_CU(cx, cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice));
    *dst = d;
    return WM_OK;
}

#define UP(src, bytes, field)                                                          \
    do {                                                                               \
        st = upload(cx, h, (src), (bytes), (const void **)&(field));                   \
        if (st != WM_OK) goto done;                                                    \
    } while (0)

wm_status wm_cu_mplan_make(wm_context_t *cx, const wm_db_t *db, wm_cu_mplan_host_t *h) {
    const wm_mset_t *s = db->set;
    wm_cu_mplan_t *p = &h->p;
    memset(h, 0, sizeof *h);
    h->algo = gpu_algo(db);
    p->n_uniq = (uint32_t)s->n_uniq;
    p->min_len = s->min_len;
    p->max_len = s->max_len;
    p->sigma = s->sigma;
    wm_status st = WM_OK;
    uint32_t *ulen = (uint32_t *)malloc(s->n_uniq * sizeof *ulen);
    uint32_t *umult = (uint32_t *)malloc(s->n_uniq * sizeof *umult);
    wm_qgram_t *own_qg = NULL;
    wm_trie_t *own_trie = NULL;
    uint8_t *cm = NULL;
    if (!ulen || !umult) { st = WM_NOMEM; goto done; }
    for (size_t u = 0; u < s->n_uniq; u++) {
        ulen[u] = wm_mset_len(s, u);
        umult[u] = s->ent_off[u + 1] - s->ent_off[u];
    }
    UP(s->sym, 256, p->sym);
    UP(s->fold, 256, p->fold);
    UP(ulen, s->n_uniq * sizeof *ulen, p->ulen);
    UP(umult, s->n_uniq * sizeof *umult, p->umult);
    UP(s->bytes, s->off[s->n_uniq], p->ubytes);
    UP(s->off, s->n_uniq * sizeof *s->off, p->uoff);

    if (h->algo == WM_ALGO_QGRAM) {
        const wm_qgram_t *g = s->qg;
        if (!g) {
            st = wm_qgram_make(s, &own_qg);
            if (st != WM_OK) goto done;
            g = own_qg;
        }
        p->q = g->q;
        p->qg_dna = (uint32_t)g->dna;
        p->qg_direct = (uint32_t)g->direct;
        p->bitmap_bits = g->bitmap_bits;
        p->bucket_bits = g->bucket_bits;
        p->code_mask = g->code_mask;
        size_t words = ((size_t)1 << g->bitmap_bits) / 64;
        UP(g->bitmap, (words ? words : 1) * sizeof(uint64_t), p->bitmap);
        UP(g->bucket_off, (((size_t)1 << g->bucket_bits) + 1) * sizeof(uint32_t), p->bucket_off);
        UP(g->entry_code, s->n_uniq * sizeof(uint64_t), p->entry_code);
        UP(g->entry_uid, s->n_uniq * sizeof(uint32_t), p->entry_uid);
        /* Matches per code, for counting without looking at strings. */
        if (g->direct && g->all_q && g->q <= 8) {
            size_t nc = (size_t)1 << (2 * g->q);
            cm = (uint8_t *)calloc(nc, 1);
            if (!cm) { st = WM_NOMEM; goto done; }
            int fits = 1;
            for (uint32_t x = 0; x < s->n_uniq && fits; x++) {
                uint64_t c = g->entry_code[x];
                uint32_t m = umult[g->entry_uid[x]];
                if (cm[c] + m > 255) fits = 0;
                else cm[c] = (uint8_t)(cm[c] + m);
            }
            if (fits) UP(cm, nc < 16 ? 16 : nc, p->code_mult);
        }
        h->launch = wm_cu_qgram_launch;
    } else {
        int reverse = h->algo == WM_ALGO_PFAC;
        const wm_trie_t *t = s->ac ? (reverse ? s->ac->rev : s->ac->fwd) : NULL;
        if (!t) {
            st = wm_trie_build(s, reverse, 1, &own_trie);
            if (st != WM_OK) goto done;
            t = own_trie;
        }
        size_t n = t->n_states;
        p->shift = t->shift;
        if (t->table) UP(t->table, n * t->stride * sizeof(uint32_t), p->table);
        UP(t->child_off, (n + 1) * sizeof(uint32_t), p->child_off);
        UP(t->label, n, p->label);
        UP(t->out, n * sizeof(uint32_t), p->out);
        UP(t->reports, n, p->reports);
        if (!reverse) {
            UP(t->fail, n * sizeof(uint32_t), p->fail);
            UP(t->dict, n * sizeof(uint32_t), p->dict);
        }
        h->launch = reverse ? wm_cu_pfac_launch : wm_cu_ac_launch;
    }
done:
    free(ulen);
    free(umult);
    free(cm);
    wm_qgram_free(own_qg);
    wm_trie_free(own_trie);
    return st;
}

void wm_cu_mplan_free(wm_cu_mplan_host_t *h) {
    for (int i = 0; i < h->n_allocs; i++) cudaFree(h->allocs[i]);
    h->n_allocs = 0;
}

/* ---- batches ------------------------------------------------------------------------ */

typedef struct {
    wm_context_t *cx;
    const wm_cu_mplan_host_t *plan;
    cudaStream_t stream;
    uint8_t *d_text;
    uint64_t text_cap;
    unsigned long long *d_block_counts, *d_block_off, *d_total, *d_uid;
    uint64_t blocks_cap;
    void *d_scan_tmp;
    size_t scan_tmp_bytes;
    wm_mhit_t *d_hits, *h_hits;
    uint64_t hits_cap;
} mrun_t;

/* A list that would need more than this many hits is cut into smaller batches. */
#define WM_CU_MAX_LIST_HITS (64ull << 20)

static wm_status ensure_blocks(mrun_t *r, uint64_t blocks) {
    wm_context_t *cx = r->cx;
    if (blocks <= r->blocks_cap) return WM_OK;
    cudaFree(r->d_block_counts);
    cudaFree(r->d_block_off);
    cudaFree(r->d_scan_tmp);
    r->d_block_counts = r->d_block_off = NULL;
    r->d_scan_tmp = NULL;
    r->blocks_cap = 0;
    WM_CU(cx, cudaMalloc((void **)&r->d_block_counts, blocks * sizeof(unsigned long long)));
    WM_CU(cx, cudaMalloc((void **)&r->d_block_off, blocks * sizeof(unsigned long long)));
    r->scan_tmp_bytes = 0;
    WM_CU(cx, cub::DeviceScan::ExclusiveSum(NULL, r->scan_tmp_bytes, r->d_block_counts,
                                            r->d_block_off, (int)blocks));
    WM_CU(cx, cudaMalloc(&r->d_scan_tmp, r->scan_tmp_bytes));
    r->blocks_cap = blocks;
    return WM_OK;
}

static wm_status ensure_hits(mrun_t *r, uint64_t n) {
    wm_context_t *cx = r->cx;
    if (n <= r->hits_cap) return WM_OK;
    uint64_t cap = n + n / 4 + 1024;
    cudaFree(r->d_hits);
    cudaFreeHost(r->h_hits);
    r->d_hits = r->h_hits = NULL;
    r->hits_cap = 0;
    WM_CU(cx, cudaMalloc((void **)&r->d_hits, cap * sizeof(wm_mhit_t)));
    WM_CU(cx, cudaMallocHost((void **)&r->h_hits, cap * sizeof(wm_mhit_t)));
    r->hits_cap = cap;
    return WM_OK;
}

/* List the hits of one batch already on the device; *too_many when the list
** is over the limit (nothing delivered). */
static wm_status list_batch(mrun_t *r, const wm_cu_mtext_t *t, uint64_t base,
                            wm_mhit_batch_fn sink, void *user, int *too_many) {
    wm_context_t *cx = r->cx;
    uint64_t blocks = 0;
    wm_cu_mout_t o;
    memset(&o, 0, sizeof o);
    o.base = base;
    /* a dry launch size: blocks depend only on the batch length */
    WM_CU(cx, r->plan->launch(&r->plan->p, -1, t, &o, r->stream, &blocks));
    wm_status st = ensure_blocks(r, blocks);
    if (st != WM_OK) return st;
    o.block_counts = r->d_block_counts;
    WM_CU(cx, r->plan->launch(&r->plan->p, WM_MM_COUNT, t, &o, r->stream, &blocks));
    WM_CU(cx, cub::DeviceScan::ExclusiveSum(r->d_scan_tmp, r->scan_tmp_bytes, r->d_block_counts,
                                            r->d_block_off, (int)blocks, r->stream));
    unsigned long long last[2];
    WM_CU(cx, cudaMemcpyAsync(&last[0], r->d_block_off + blocks - 1, sizeof last[0],
                              cudaMemcpyDeviceToHost, r->stream));
    WM_CU(cx, cudaMemcpyAsync(&last[1], r->d_block_counts + blocks - 1, sizeof last[1],
                              cudaMemcpyDeviceToHost, r->stream));
    WM_CU(cx, cudaStreamSynchronize(r->stream));
    uint64_t total = last[0] + last[1];
    *too_many = 0;
    if (total == 0) return WM_OK;
    if (total > WM_CU_MAX_LIST_HITS && t->n - t->own_from > (1u << 20)) {
        *too_many = 1;
        return WM_OK;
    }
    st = ensure_hits(r, total);
    if (st != WM_OK) return st;
    o.block_off = r->d_block_off;
    o.hits = r->d_hits;
    WM_CU(cx, r->plan->launch(&r->plan->p, WM_MM_WRITE, t, &o, r->stream, &blocks));
    WM_CU(cx, cudaMemcpyAsync(r->h_hits, r->d_hits, total * sizeof(wm_mhit_t),
                              cudaMemcpyDeviceToHost, r->stream));
    WM_CU(cx, cudaStreamSynchronize(r->stream));
    return sink(r->h_hits, total, user);
}

static wm_status fetch_uid_counts(wm_context_t *cx, mrun_t *r, size_t n, uint64_t *uid_counts) {
    uint64_t *h = (uint64_t *)malloc(n * sizeof *h);
    if (!h) return WM_NOMEM;
    cudaError_t e = cudaMemcpy(h, r->d_uid, n * sizeof *h, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess)
        for (size_t u = 0; u < n; u++) uid_counts[u] += h[u];
    free(h);
    return e == cudaSuccess ? WM_OK : wm_cuda_fail(cx, e, "cudaMemcpy(uid counts)");
}

static void mrun_free(mrun_t *r) {
    if (r->stream) cudaStreamSynchronize(r->stream);
    cudaFree(r->d_text);
    cudaFree(r->d_block_counts);
    cudaFree(r->d_block_off);
    cudaFree(r->d_total);
    cudaFree(r->d_uid);
    cudaFree(r->d_scan_tmp);
    cudaFree(r->d_hits);
    cudaFreeHost(r->h_hits);
    if (r->stream) cudaStreamDestroy(r->stream);
}

#define CK(call)                                                                       \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) { st = wm_cuda_fail(cx, e_, #call); goto out; }         \
    } while (0)

extern "C" wm_status wm_cuda_mset_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                                         wm_mhit_batch_fn sink, void *user, uint64_t *uid_counts,
                                         uint64_t *total) {
    const wm_mset_t *s = db->set;
    wm_cu_mplan_host_t plan;
    mrun_t r;
    wm_status st = WM_OK;
    uint64_t halo = s->max_len - 1;
    uint64_t batch = cx->opts.chunk_bytes ? cx->opts.chunk_bytes : (256ull << 20);
    int mode = sink ? WM_MM_COUNT : uid_counts ? WM_MM_UID : WM_MM_TOTAL;
    memset(&r, 0, sizeof r);
    memset(&plan, 0, sizeof plan);
    r.cx = cx;
    r.plan = &plan;
    if (batch > text->len) batch = text->len;
    CK(cudaSetDevice(cx->cuda->device));
    st = wm_cu_mplan_make(cx, db, &plan);
    if (st != WM_OK) goto out;
    CK(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
    r.text_cap = batch + halo;
    CK(cudaMalloc((void **)&r.d_text, r.text_cap + WM_CU_PAD));
    CK(cudaMalloc((void **)&r.d_total, sizeof *r.d_total));
    CK(cudaMemsetAsync(r.d_total, 0, sizeof *r.d_total, r.stream));
    if (mode == WM_MM_UID) {
        CK(cudaMalloc((void **)&r.d_uid, s->n_uniq * sizeof *r.d_uid));
        CK(cudaMemsetAsync(r.d_uid, 0, s->n_uniq * sizeof *r.d_uid, r.stream));
    }
    for (uint64_t b = 0; b < text->len && st == WM_OK;) {
        uint64_t e = b + batch < text->len ? b + batch : text->len;
        uint64_t from = b > halo ? b - halo : 0;
        /* pageable copy: the driver stages it */
        CK(cudaMemcpyAsync(r.d_text, text->seq + from, e - from, cudaMemcpyHostToDevice,
                                  r.stream));
        wm_cu_mtext_t t = { r.d_text, e - from, b - from };
        wm_cu_mout_t o;
        memset(&o, 0, sizeof o);
        o.base = from;
        o.total = r.d_total;
        o.uid_counts = r.d_uid;
        uint64_t blocks = 0;
        if (mode == WM_MM_COUNT) {
            int too_many = 0;
            st = list_batch(&r, &t, from, sink, user, &too_many);
            if (st == WM_OK && too_many) {
                batch = batch / 2 > (1u << 20) ? batch / 2 : (1u << 20);
                continue;                          /* the same b, a shorter batch */
            }
        } else {
            CK(plan.launch(&plan.p, mode, &t, &o, r.stream, &blocks));
            CK(cudaStreamSynchronize(r.stream));   /* d_text is reused */
        }
        b = e;
        if (st == WM_OK && cx->opts.progress) cx->opts.progress(e, text->len, cx->opts.progress_user);
    }
    if (st == WM_OK && mode == WM_MM_TOTAL) {
        unsigned long long n = 0;
        CK(cudaMemcpy(&n, r.d_total, sizeof n, cudaMemcpyDeviceToHost));
        *total += n;
    }
    if (st == WM_OK && mode == WM_MM_UID) st = fetch_uid_counts(cx, &r, s->n_uniq, uid_counts);
out:
    mrun_free(&r);
    wm_cu_mplan_free(&plan);
    return st;
}
