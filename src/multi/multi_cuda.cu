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

#include "core/plan.h"
#include "cuda/cuda_common.cuh"
#include "multi/mcuda.h"
#include "multi/mplan.h"
#include "multi/qgram.h"
#include "multi/trie.h"

/* The kernel the GPU runs for a set: what the user asked for, or with AUTO
** the q-gram index wherever every string is long enough (DNA: qgram_dna.cu,
** bytes: qgram_bytes.cu), else PFAC. Measured on the H100 over 1 GiB
** (BENCHMARKS.md 4a): 16,000 8-mers 0.72 ms against PFAC's 33; 10,000 /
** 100,000 signatures 17.5 / 68 ms against 50 / 100. */
static wm_algo_t gpu_algo(const wm_mset_t *s) {
    if (s->asked != WM_ALGO_AUTO) return s->asked;
    return s->min_len >= WM_QGRAM_MIN_LEN ? WM_ALGO_QGRAM : WM_ALGO_PFAC;
}

/* A listing's batch spans at most this many bytes past its halo, so its
** ends fit wm_mhit32_t's 32 bits beside a halo of a string up to 1 GiB. */
#define WM_CU_MAX_LIST_BATCH (3ull << 30)

static int supports(const wm_mset_t *s) {
    wm_algo_t a = gpu_algo(s);
    if (s->max_len > WM_CU_MAX_LIST_BATCH / 3) return 0; /* the CPU takes strings over 1 GiB */
    return a == WM_ALGO_QGRAM || a == WM_ALGO_PFAC || a == WM_ALGO_AC ||
           a == WM_ALGO_WUMANBER_PAPER;
}

/* Which text bytes the DNA q-gram kernel may decode by arithmetic
** (qgram_dna.cu): 2 when a c g t are bases as A C G T are (a set that
** folds case), 1 when A C G T are, else 0. Any other byte the set takes as
** a base (U, u) goes through the symbol table there. */
static uint32_t fast_bases(const wm_mset_t *s) {
    static const char up[] = "ACGT", low[] = "acgt";
    int a = 1, b = 1;
    for (int k = 0; k < 4; k++) {
        a = a && s->sym[(uint8_t)up[k]] == k;
        b = b && s->sym[(uint8_t)low[k]] == k;
    }
    return a && b ? 2 : a ? 1 : 0;
}

/* How qgram_bytes.cu folds the text: 0 when the set's fold is the identity,
** 1 when it lowers A-Z and nothing else (case-insensitive bytes), else 2
** (through the table). */
static uint32_t fold_kind(const wm_mset_t *s) {
    int id = 1, lower = 1;
    for (int c = 0; c < 256; c++) {
        id = id && s->fold[c] == c;
        lower = lower && s->fold[c] == (c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    return id ? 0 : lower ? 1 : 2;
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

#define UP(src, bytes, field)                                                                      \
    do {                                                                                           \
        st = upload(cx, h, (src), (bytes), (const void **)&(field));                               \
        if (st != WM_OK) goto done;                                                                \
    } while (0)

wm_status wm_cu_mplan_make(wm_context_t *cx, const wm_mset_t *s, wm_cu_mplan_host_t *h) {
    wm_cu_mplan_t *p = &h->p;
    memset(h, 0, sizeof *h);
    h->algo = gpu_algo(s);
    p->n_uniq = (uint32_t)s->n_uniq;
    p->min_len = s->min_len;
    p->max_len = s->max_len;
    p->sigma = s->sigma;
    wm_status st = WM_OK;
    uint32_t *ulen = (uint32_t *)malloc(s->n_uniq * sizeof *ulen);
    uint32_t *umult = (uint32_t *)malloc(s->n_uniq * sizeof *umult);
    wm_qgram_t *own_qg = NULL;
    wm_trie_t *own_trie = NULL;
    wm_wu_end_t wu;
    memset(&wu, 0, sizeof wu);
    uint8_t *cm = NULL;
    uint32_t *uid_of = NULL;
    uint16_t *rank_base = NULL, *rank_uid = NULL;
    if (!ulen || !umult) {
        st = WM_NOMEM;
        goto done;
    }
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
            if (!cm) {
                st = WM_NOMEM;
                goto done;
            }
            int fits = 1;
            for (uint32_t x = 0; x < s->n_uniq && fits; x++) {
                uint64_t c = g->entry_code[x];
                uint32_t m = umult[g->entry_uid[x]];
                if (cm[c] + m > 255) fits = 0;
                else cm[c] = (uint8_t)(cm[c] + m);
            }
            if (fits) UP(cm, nc < 16 ? 16 : nc, p->code_mult);
        }
        if (g->direct && g->all_q && g->q <= 8) { /* one string a code */
            /* the uids of the codes in code order, and per 32-bit word of
            ** the bitmap the codes set before it: a code's uid is then
            ** rank_uid[its rank among the set codes] (4^q codes, so uids and
            ** ranks fit 16 bits) */
            size_t nc = (size_t)1 << (2 * g->q), nw = ((nc + 31) / 32 + 1) & ~(size_t)1;
            uid_of = (uint32_t *)calloc(nc, sizeof *uid_of);
            rank_base = (uint16_t *)calloc(nw, sizeof *rank_base);
            rank_uid = (uint16_t *)calloc(s->n_uniq, sizeof *rank_uid);
            if (!uid_of || !rank_base || !rank_uid) {
                st = WM_NOMEM;
                goto done;
            }
            for (uint32_t x = 0; x < s->n_uniq; x++) uid_of[g->entry_code[x]] = g->entry_uid[x] + 1;
            uint32_t r = 0;
            for (size_t c = 0; c < nc; c++) {
                if (c % 32 == 0) rank_base[c / 32] = (uint16_t)r; /* read as 32-bit pairs */
                if (uid_of[c]) rank_uid[r++] = (uint16_t)(uid_of[c] - 1);
            }
            UP(rank_base, nw * sizeof *rank_base, p->rank_base);
            UP(rank_uid, s->n_uniq * sizeof *rank_uid, p->rank_uid);
        }
        p->qg_fast = fast_bases(s);
        if (!g->dna) { /* byte sets: the index by 4 and 8 bytes (qgram_bytes.cu) */
            if (!g->split && g == own_qg) st = wm_qgram_bytes_build(s, own_qg);
            if (st != WM_OK) goto done;
            for (int d = 0; d < 2 && g->split; d++) {
                const wm_qg_side_t *side = &g->side[d];
                if (side->n == 0) continue;
                p->qb_n[d] = side->n;
                p->qb_bitmap_bits[d] = side->bitmap_bits;
                p->qb_bucket_bits[d] = side->bucket_bits;
                UP(side->bitmap, ((size_t)1 << side->bitmap_bits) / 8, p->qb_bitmap[d]);
                UP(side->off, (((size_t)1 << side->bucket_bits) + 1) * sizeof(uint32_t),
                   p->qb_off[d]);
                UP(side->ent, side->n * sizeof(wm_qg_ent_t), p->qb_ent[d]);
            }
            p->qb_fold = fold_kind(s);
        }
        h->launch = wm_cu_qgram_launch;
    } else if (h->algo == WM_ALGO_WUMANBER_PAPER) {
        st = wm_wu_end_tables(s, &wu);
        if (st != WM_OK) goto done;
        p->wu_B = wu.B;
        p->wu_Bp = wu.Bp;
        p->wu_n_hash = (uint32_t)wu.n_hash;
        UP(wu.shift, wu.n_hash * sizeof *wu.shift, p->wu_shift);
        UP(wu.hstart, (wu.n_hash + 1) * sizeof *wu.hstart, p->wu_hstart);
        UP(wu.hlist, s->n_uniq * sizeof *wu.hlist, p->wu_hlist);
        UP(wu.prefix, s->n_uniq * sizeof *wu.prefix, p->wu_prefix);
        h->launch = wm_cu_wumanber_launch;
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
    free(uid_of);
    free(rank_base);
    free(rank_uid);
    wm_qgram_free(own_qg);
    wm_trie_free(own_trie);
    wm_wu_end_free(&wu);
    return st;
}

void wm_cu_mplan_free(wm_cu_mplan_host_t *h) {
    for (int i = 0; i < h->n_allocs; i++) cudaFree(h->allocs[i]);
    h->n_allocs = 0;
}

/* ---- batches ------------------------------------------------------------------------ */

/* The device buffers of set scans, kept in the context's multi cache between
** calls; they only grow. */
typedef struct {
    wm_cu_buf_t d_text, d_block_counts, d_block_off, d_scan_tmp, d_total, d_uid, d_hits, h_hits;
    wm_cu_buf_t d_status; /* the one pass's status words and ticket */
    uint64_t blocks_cap;  /* entries of the block arrays the scan space serves */
} multi_cache_t;

extern "C" void wm_multi_cuda_free_cache(wm_context_t *cx, void *cache) {
    (void)cx;
    multi_cache_t *c = (multi_cache_t *)cache;
    wm_cu_buf_t *dev[] = { &c->d_text,  &c->d_block_counts, &c->d_block_off, &c->d_scan_tmp,
                           &c->d_total, &c->d_uid,          &c->d_hits,      &c->d_status };
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++) wm_cu_dev_release(dev[i]);
    wm_cu_host_release(&c->h_hits);
    free(c);
}

typedef struct {
    wm_context_t *cx;
    const wm_cu_mplan_host_t *plan;
    cudaStream_t stream;
    multi_cache_t *c;
    int one_pass; /* the plan's kernel lists in one pass (WM_MM_LIST) until it says no */
} mrun_t;

/* A list that would need more than this many hits is cut into smaller batches. */
#define WM_CU_MAX_LIST_HITS (64ull << 20)

static wm_status ensure_blocks(mrun_t *r, uint64_t blocks) {
    wm_context_t *cx = r->cx;
    multi_cache_t *c = r->c;
    if (blocks <= c->blocks_cap) return WM_OK;
    wm_status st = wm_cu_dev_reserve(cx, &c->d_block_counts, blocks * sizeof(unsigned long long));
    if (st == WM_OK)
        st = wm_cu_dev_reserve(cx, &c->d_block_off, blocks * sizeof(unsigned long long));
    if (st != WM_OK) return st;
    size_t bytes = 0;
    WM_CU(cx, cub::DeviceScan::ExclusiveSum(NULL, bytes, (unsigned long long *)c->d_block_counts.p,
                                            (unsigned long long *)c->d_block_off.p, (int)blocks));
    if ((st = wm_cu_dev_reserve(cx, &c->d_scan_tmp, bytes)) == WM_OK) c->blocks_cap = blocks;
    return st;
}

static wm_status ensure_hits(mrun_t *r, uint64_t n) {
    wm_context_t *cx = r->cx;
    uint64_t cap = n + n / 4 + 1024;
    if (n * sizeof(wm_mhit32_t) <= r->c->d_hits.cap) return WM_OK;
    wm_status st = wm_cu_dev_reserve(cx, &r->c->d_hits, cap * sizeof(wm_mhit32_t));
    return st == WM_OK ? wm_cu_host_reserve(cx, &r->c->h_hits, cap * sizeof(wm_mhit32_t)) : st;
}

/* The hits of a batch already on the device, in one pass (WM_MM_LIST): as
** many as the cache's hit buffer holds written, all counted into *total;
** *unsupported when the plan's kernel has no one pass. */
static wm_status list_one_pass(mrun_t *r, const wm_cu_mtext_t *t, uint64_t *total,
                               int *unsupported) {
    wm_context_t *cx = r->cx;
    multi_cache_t *c = r->c;
    uint64_t chunks = (t->n + WM_CU_LIST_CHUNK - 1) / WM_CU_LIST_CHUNK, blocks = 0;
    size_t bytes = (chunks + 1) * sizeof(unsigned long long); /* and the ticket */
    wm_status st = wm_cu_dev_reserve(cx, &c->d_status, bytes);
    if (st != WM_OK) return st;
    unsigned long long *status = (unsigned long long *)c->d_status.p;
    WM_CU(cx, cudaMemsetAsync(status, 0, bytes, r->stream));
    wm_cu_mout_t o;
    memset(&o, 0, sizeof o);
    o.status = status;
    o.ticket = (unsigned int *)(status + chunks);
    o.hits = (wm_mhit32_t *)c->d_hits.p;
    o.cap = c->d_hits.cap / sizeof(wm_mhit32_t);
    cudaError_t e = r->plan->launch(&r->plan->p, WM_MM_LIST, t, &o, r->stream, &blocks);
    *unsupported = e == cudaErrorNotSupported;
    if (*unsupported) return WM_OK;
    WM_CU(cx, e);
    unsigned long long last = 0;
    WM_CU(cx, cudaMemcpyAsync(&last, status + chunks - 1, sizeof last, cudaMemcpyDeviceToHost,
                              r->stream));
    WM_CU(cx, cudaStreamSynchronize(r->stream));
    *total = last & WM_CU_LIST_VALUE;
    return WM_OK;
}

/* The hits of a batch already on the device counted a block at a time and
** the counts scanned into offsets (the first of two passes): *total. */
static wm_status list_count_pass(mrun_t *r, const wm_cu_mtext_t *t, wm_cu_mout_t *o,
                                 uint64_t *total) {
    wm_context_t *cx = r->cx;
    multi_cache_t *c = r->c;
    uint64_t blocks = 0;
    /* a dry launch size: blocks depend only on the batch length */
    WM_CU(cx, r->plan->launch(&r->plan->p, -1, t, o, r->stream, &blocks));
    wm_status st = ensure_blocks(r, blocks);
    if (st != WM_OK) return st;
    unsigned long long *counts = (unsigned long long *)c->d_block_counts.p;
    unsigned long long *offs = (unsigned long long *)c->d_block_off.p;
    o->block_counts = counts;
    o->block_off = offs;
    WM_CU(cx, r->plan->launch(&r->plan->p, WM_MM_COUNT, t, o, r->stream, &blocks));
    size_t tmp = c->d_scan_tmp.cap;
    WM_CU(cx, cub::DeviceScan::ExclusiveSum(c->d_scan_tmp.p, tmp, counts, offs, (int)blocks,
                                            r->stream));
    unsigned long long last[2];
    WM_CU(cx, cudaMemcpyAsync(&last[0], offs + blocks - 1, sizeof last[0], cudaMemcpyDeviceToHost,
                              r->stream));
    WM_CU(cx, cudaMemcpyAsync(&last[1], counts + blocks - 1, sizeof last[1], cudaMemcpyDeviceToHost,
                              r->stream));
    WM_CU(cx, cudaStreamSynchronize(r->stream));
    *total = last[0] + last[1];
    return WM_OK;
}

/* List the hits of one batch already on the device; *too_many when the list
** is over the limit (nothing delivered). In one pass where the kernel has
** one: into the hit buffer as it is, and again after it grew when the hits
** did not fit (the first dense batch of a scan); else a counting pass, then
** a writing pass. */
static wm_status list_batch(mrun_t *r, const wm_cu_mtext_t *t, uint64_t base, wm_mhit_batch_fn sink,
                            void *user, int *too_many) {
    wm_context_t *cx = r->cx;
    multi_cache_t *c = r->c;
    wm_cu_mout_t o;
    memset(&o, 0, sizeof o);
    uint64_t total = 0, blocks = 0;
    int unsupported = 1;
    wm_status st = WM_OK;
    if (r->one_pass) st = list_one_pass(r, t, &total, &unsupported);
    if (st == WM_OK && unsupported) {
        r->one_pass = 0;
        st = list_count_pass(r, t, &o, &total);
    }
    if (st != WM_OK) return st;
    *too_many = 0;
    if (total == 0) return WM_OK;
    if (total > WM_CU_MAX_LIST_HITS && t->n - t->own_from > (1u << 20)) {
        *too_many = 1;
        return WM_OK;
    }
    int fitted = r->one_pass && total <= c->d_hits.cap / sizeof(wm_mhit32_t);
    if ((st = ensure_hits(r, total)) != WM_OK) return st;
    if (r->one_pass && !fitted) {
        uint64_t again = 0;
        if ((st = list_one_pass(r, t, &again, &unsupported)) != WM_OK) return st;
        if (again != total) return wm_cuda_fail(cx, cudaErrorUnknown, "the one-pass listing");
    } else if (!r->one_pass) {
        o.hits = (wm_mhit32_t *)c->d_hits.p;
        WM_CU(cx, r->plan->launch(&r->plan->p, WM_MM_WRITE, t, &o, r->stream, &blocks));
    }
    WM_CU(cx, cudaMemcpyAsync(c->h_hits.p, c->d_hits.p, total * sizeof(wm_mhit32_t),
                              cudaMemcpyDeviceToHost, r->stream));
    WM_CU(cx, cudaStreamSynchronize(r->stream));
    return sink((const wm_mhit32_t *)c->h_hits.p, total, base, user);
}

static wm_status fetch_uid_counts(mrun_t *r, size_t n, uint64_t *uid_counts) {
    uint64_t *h = (uint64_t *)malloc(n * sizeof *h);
    if (!h) return WM_NOMEM;
    cudaError_t e = cudaMemcpy(h, r->c->d_uid.p, n * sizeof *h, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess)
        for (size_t u = 0; u < n; u++) uid_counts[u] += h[u];
    free(h);
    return e == cudaSuccess ? WM_OK : wm_cuda_fail(r->cx, e, "cudaMemcpy(uid counts)");
}

/* The buffers a scan in `mode` needs, the counters zeroed. */
static wm_status mrun_open(mrun_t *r, const wm_mset_t *s, uint64_t text_bytes, int mode) {
    wm_context_t *cx = r->cx;
    r->c = (multi_cache_t *)wm_context_cache(cx, &wm_multi_family, sizeof(multi_cache_t));
    if (!r->c) return WM_NOMEM;
    r->stream = cx->cuda->stream[0];
    wm_status st = wm_cu_dev_reserve(cx, &r->c->d_text, text_bytes + WM_CU_PAD);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &r->c->d_total, sizeof(unsigned long long));
    if (st == WM_OK && mode == WM_MM_UID)
        st = wm_cu_dev_reserve(cx, &r->c->d_uid, s->n_uniq * sizeof(unsigned long long));
    if (st != WM_OK) return st;
    WM_CU(cx, cudaMemsetAsync(r->c->d_total.p, 0, sizeof(unsigned long long), r->stream));
    if (mode == WM_MM_UID)
        WM_CU(cx,
              cudaMemsetAsync(r->c->d_uid.p, 0, s->n_uniq * sizeof(unsigned long long), r->stream));
    return WM_OK;
}

/* The batches of ends (own_from, len], each copied with the halo before it. */
static wm_status run_batches(mrun_t *r, const wm_text_t *text, uint64_t own_from, uint64_t batch,
                             uint64_t halo, int mode, wm_mhit_batch_fn sink, void *user,
                             uint64_t *done) {
    wm_context_t *cx = r->cx;
    uint8_t *d_text = (uint8_t *)r->c->d_text.p;
    wm_status st = WM_OK;
    for (uint64_t b = own_from; b < text->len && st == WM_OK;) {
        uint64_t e = b + batch < text->len ? b + batch : text->len;
        uint64_t from = wm_plan_scan_from(0, b, halo);
        /* pageable copy: the driver stages it */
        WM_CU(cx, cudaMemcpyAsync(d_text, text->seq + from, e - from, cudaMemcpyHostToDevice,
                                  r->stream));
        wm_cu_mtext_t t = { d_text, e - from, b - from };
        wm_cu_mout_t o;
        memset(&o, 0, sizeof o);
        o.total = (unsigned long long *)r->c->d_total.p;
        o.uid_counts = (unsigned long long *)r->c->d_uid.p;
        uint64_t blocks = 0;
        if (mode == WM_MM_COUNT) {
            int too_many = 0;
            st = list_batch(r, &t, from, sink, user, &too_many);
            if (st == WM_OK && too_many) {
                batch = batch / 2 > (1u << 20) ? batch / 2 : (1u << 20);
                continue; /* the same b, a shorter batch */
            }
        } else {
            WM_CU(cx, r->plan->launch(&r->plan->p, mode, &t, &o, r->stream, &blocks));
            WM_CU(cx, cudaStreamSynchronize(r->stream)); /* d_text is reused */
        }
        b = e;
        if (st == WM_OK && sink) *done = e;
        if (st == WM_OK && cx->opts.progress)
            cx->opts.progress(e - own_from, text->len - own_from, cx->opts.progress_user);
    }
    return st;
}

static wm_status multi_gpu_scan(wm_context_t *cx, const wm_mset_t *s, const wm_text_t *text,
                                uint64_t own_from, wm_mhit_batch_fn sink, void *user,
                                uint64_t *uid_counts, uint64_t *total, uint64_t *done) {
    *done = own_from;
    wm_cu_mplan_host_t plan;
    memset(&plan, 0, sizeof plan);
    mrun_t r = { cx, &plan, NULL, NULL, 1 };
    uint64_t halo = s->max_len - 1;
    uint64_t batch = cx->opts.chunk_bytes ? cx->opts.chunk_bytes : (256ull << 20);
    batch = wm_gpu_piece(cx, batch, 1u << 20); /* smaller after running out of memory */
    int mode = sink ? WM_MM_COUNT : uid_counts ? WM_MM_UID : WM_MM_TOTAL;
    if (sink && batch > WM_CU_MAX_LIST_BATCH) batch = WM_CU_MAX_LIST_BATCH;
    if (batch > text->len - own_from) batch = text->len - own_from;
    WM_CU(cx, cudaSetDevice(cx->cuda->device));
    wm_status st = wm_cu_mplan_make(cx, s, &plan);
    if (st == WM_OK) st = mrun_open(&r, s, batch + halo, mode);
    if (st == WM_OK) st = run_batches(&r, text, own_from, batch, halo, mode, sink, user, done);
    if (st == WM_OK && mode == WM_MM_TOTAL) {
        unsigned long long n = 0;
        cudaError_t e = cudaMemcpy(&n, r.c->d_total.p, sizeof n, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) st = wm_cuda_fail(cx, e, "cudaMemcpy(total)");
        else *total += n;
    }
    if (st == WM_OK && mode == WM_MM_UID) st = fetch_uid_counts(&r, s->n_uniq, uid_counts);
    if (r.stream) cudaStreamSynchronize(r.stream);
    wm_cu_mplan_free(&plan);
    return st;
}

extern "C" const wm_multi_gpu_t wm_multi_gpu_cuda = { supports, multi_gpu_scan };
