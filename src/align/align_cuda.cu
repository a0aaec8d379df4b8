/*
** align_cuda.cu -- the CUDA driver of `align --mode infix`: the query's
** tables on the device, the chunk size, and the target streamed through the
** GPU in batches that overlap by the halo, each searched by one launch.
** Starts and CIGARs are then made on the host (align.c), as for the CPU.
*/
#include <stdlib.h>
#include <string.h>

#include "align/align_cuda.cuh"
#include "align/fr.h"
#include "core/plan.h"
#include "cuda/device.cuh"

wm_status wm_cu_aplan_make(wm_context_t *cx, const wm_aq_t *aq, int sm_count, wm_cu_aplan_t *p) {
    memset(p, 0, sizeof *p);
    p->m = (uint32_t)aq->m;
    p->w32 = (uint32_t)((aq->m + 31) / 32);
    p->n_codes = aq->n_codes;
    p->sm_count = sm_count;
    wm_cu_aplan_layout(p, 0);

    /* 64-bit CPU masks -> 32-bit device words, one row per byte value. */
    size_t peq_words = (size_t)256 * p->w32;
    uint32_t *h = (uint32_t *)calloc(peq_words, sizeof *h);
    uint8_t *hc = (uint8_t *)malloc(256 + aq->m);
    if (!h || !hc) {
        free(h);
        free(hc);
        return WM_NOMEM;
    }
    for (size_t b = 0; b < 256; b++)
        for (uint32_t w = 0; w < p->w32; w++) {
            uint64_t v = aq->peq[(size_t)aq->code[b] * aq->n_words + w / 2];
            h[b * p->w32 + w] = (uint32_t)(w & 1 ? v >> 32 : v);
        }
    /* symbols as bytes: bytes map to themselves (256 codes, none "nothing");
    ** DNA to 0..4 */
    for (int b = 0; b < 256; b++) hc[b] = (uint8_t)aq->code[b];
    for (size_t i = 0; i < aq->m; i++) hc[256 + i] = (uint8_t)aq->code[aq->q[i]];

    /* into the context's buffers: the plan borrows them until the next one */
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    wm_status st = B ? WM_OK : WM_NOMEM;
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->peq, peq_words * sizeof *h);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->code, 256 + aq->m);
    if (st == WM_OK) {
        p->d_peq256 = (uint32_t *)B->peq.p;
        p->d_code = (uint8_t *)B->code.p;
        p->d_qcode = p->d_code + 256;
        cudaError_t e = cudaMemcpy(p->d_peq256, h, peq_words * sizeof *h, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(p->d_code, hc, 256 + aq->m, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) st = wm_cuda_fail(cx, e, "uploading the query");
    }
    free(h);
    free(hc);
    return st;
}

/* Words a thread. One word a thread and a chunk of 2m measured best for
** m = 32..1024 on the H100 (bench_gpu_align sweeps W = 1, 2, 4 and chunks of
** m, 2m, 4m): a step's chain stays short and many chunks hide its latency.
** Longer queries take the fewest of 2, 4, 8 that fit a block of 1024. */
void wm_cu_aplan_layout(wm_cu_aplan_t *p, int per_thread) {
    int W = per_thread;
    if (W <= 0) W = p->w32 <= 32 ? 1 : 2;
    while ((p->w32 + W - 1) / W > 1024) W *= 2;
    if (W == 1 && p->w32 > 32) W = 2;
    uint32_t threads = (p->w32 + W - 1) / W;
    int G = 1;
    if (threads <= 32)
        while ((uint32_t)G < threads) G *= 2;
    else G = (int)((threads + 31) / 32 * 32);
    if (W == 8 && G <= 32) G = 64; /* W = 8 is built for block groups only */
    p->per_thread = W;
    p->group = G;
}

void wm_cu_aplan_free(wm_cu_aplan_t *p) {
    p->d_peq256 = NULL; /* the context's buffers: kept */
    p->d_code = p->d_qcode = NULL;
}

/* As many chunks as the GPU holds at once (one wave). The halo is re-scanned by every chunk, so
** the wavefront takes chunks of at least twice the halo; the bit-vector
** kernel, which needs many chunks in flight to hide its step latency, at
** least the halo (measured best on the H100: chunk = 2m without -k).*/
uint64_t wm_cu_infix_chunk(const wm_cu_aplan_t *p, wm_align_algo_t algo, uint64_t owned,
                           uint64_t halo) {
    uint64_t groups = algo == WM_ALIGN_ALGO_WAVEFRONT ? wm_cu_wavefront_resident_chunks(p)
                                                      : wm_cu_bv_resident_chunks(p);
    uint64_t chunk = (owned + groups - 1) / groups;
    uint64_t least = algo == WM_ALIGN_ALGO_WAVEFRONT ? 2 * halo : halo;
    if (chunk < least) chunk = least;
    if (chunk < 128) chunk = 128;
    return chunk;
}

wm_status wm_cu_infix_launch(wm_context_t *cx, const wm_cu_aplan_t *p, wm_align_algo_t algo,
                             const uint8_t *d_text, uint64_t len, uint64_t own_from, uint64_t base,
                             uint64_t halo, int64_t limit, int64_t report_le, uint64_t chunk,
                             const wm_cu_aout_t *o, cudaStream_t s) {
    if (len <= own_from) return WM_OK;
    wm_cu_ajob_t j;
    j.text = d_text;
    j.len = len;
    j.own_from = own_from;
    j.base = base;
    j.halo = halo;
    j.chunk = chunk ? chunk : wm_cu_infix_chunk(p, algo, len - own_from, halo);
    j.n_chunks = (len - own_from + j.chunk - 1) / j.chunk;
    j.limit = limit < 0 || limit >= (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)limit;
    j.report_le = report_le < 0 ? UINT32_MAX : (uint32_t)report_le;
    cudaError_t e = algo == WM_ALIGN_ALGO_WAVEFRONT ? wm_cu_wavefront_launch(p, &j, o, s)
                                                    : wm_cu_bv_infix_launch(p, &j, o, s);
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "an align kernel launch");
    return WM_OK;
}

/* ---- the driver ------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- the buffers align keeps --------------------------------------------- */

wm_cu_align_bufs_t *wm_cu_align_bufs(wm_context_t *cx) {
    wm_align_cache_t *c = wm_align_cache(cx);
    if (!c) return NULL;
    if (!c->gpu) c->gpu = calloc(1, sizeof(wm_cu_align_bufs_t));
    return (wm_cu_align_bufs_t *)c->gpu;
}

static void free_bufs(void *gpu_cache) {
    wm_cu_align_bufs_t *b = (wm_cu_align_bufs_t *)gpu_cache;
    wm_cu_buf_t *dev[] = { &b->text, &b->best, &b->keys, &b->err, &b->peq, &b->code };
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++) wm_cu_dev_release(dev[i]);
    for (int i = 0; i < WM_CU_ALIGN_G; i++) wm_cu_dev_release(&b->g[i]);
    for (int i = 0; i < 8; i++) wm_cu_host_release(&b->h[i]);
    free(b);
}

/* The infix batch buffers: batch + halo bytes of target, the best and count
** words, and room for `hits` listed ends. */
typedef struct {
    uint8_t *d_text;
    const uint8_t *d_resident; /* the whole target on the device (core/target.c), or NULL */
    unsigned long long *d_best, *d_keys, *d_count;
    uint32_t *d_err;
    uint64_t hit_cap;
} abuf_t;

static wm_status grow_hits(wm_context_t *cx, wm_cu_align_bufs_t *B, abuf_t *b, uint64_t cap) {
    wm_status st = wm_cu_dev_reserve(cx, &B->keys, cap * sizeof *b->d_keys);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->err, cap * sizeof *b->d_err);
    if (st != WM_OK) return st;
    b->d_keys = (unsigned long long *)B->keys.p;
    b->d_err = (uint32_t *)B->err.p;
    b->hit_cap = cap;
    return WM_OK;
}

/* One batch: owned ends (lo, hi] of the target, copied with the halo before. */
static wm_status run_batch(wm_context_t *cx, const wm_cu_aplan_t *p, wm_cu_align_bufs_t *B,
                           abuf_t *b, const uint8_t *t, uint64_t lo, uint64_t hi, uint64_t halo,
                           wm_align_algo_t algo, int64_t limit, int64_t report_le,
                           wm_endvec_t *ends, wm_best_t *best, cudaStream_t s) {
    uint64_t from = wm_plan_scan_from(0, lo, halo);
    uint64_t len = hi - from;
    if (b->d_resident) b->d_text = (uint8_t *)b->d_resident + from; /* on the device already */
    else WM_CU(cx, cudaMemcpyAsync(b->d_text, t + from, len, cudaMemcpyHostToDevice, s));
    for (;;) {
        unsigned long long h_best = ~0ull, h_count = 0;
        WM_CU(cx, cudaMemsetAsync(b->d_best, 0xff, 2 * sizeof *b->d_best, s));
        WM_CU(cx, cudaMemsetAsync(b->d_count, 0, sizeof *b->d_count, s));
        wm_cu_aout_t o;
        memset(&o, 0, sizeof o);
        o.best = b->d_best;
        if (ends) {
            o.hits.keys = b->d_keys;
            o.hits.errors = b->d_err;
            o.hits.count = b->d_count;
            o.hits.cap = b->hit_cap;
        }
        wm_status st = wm_cu_infix_launch(cx, p, algo, b->d_text, len, lo - from, from, halo, limit,
                                          report_le, 0, &o, s);
        if (st != WM_OK) return st;
        WM_CU(cx, cudaMemcpyAsync(&h_best, b->d_best, sizeof h_best, cudaMemcpyDeviceToHost, s));
        WM_CU(cx, cudaMemcpyAsync(&h_count, b->d_count, sizeof h_count, cudaMemcpyDeviceToHost, s));
        WM_CU(cx, cudaStreamSynchronize(s));
        if (ends && h_count > b->hit_cap) { /* more ends than room: grow, run again */
            wm_status g = grow_hits(cx, B, b, h_count + h_count / 4);
            if (g != WM_OK) return g;
            continue;
        }
        if (h_best != ~0ull)
            wm_best_take(best, h_best >> WM_CU_BEST_SHIFT,
                         h_best & ((1ull << WM_CU_BEST_SHIFT) - 1));
        if (ends && h_count) {
            uint64_t *keys = (uint64_t *)malloc(h_count * sizeof *keys);
            if (!keys) return WM_NOMEM;
            cudaError_t e =
                cudaMemcpy(keys, b->d_keys, h_count * sizeof *keys, cudaMemcpyDeviceToHost);
            if (e != cudaSuccess) {
                free(keys);
                return wm_cuda_fail(cx, e, "copying ends back");
            }
            qsort(keys, h_count, sizeof *keys, cmp_u64);
            for (uint64_t i = 0; i < h_count; i++)
                if (wm_endvec_push(ends, keys[i] >> 1)) {
                    free(keys);
                    return WM_NOMEM;
                }
            free(keys);
        }
        return WM_OK;
    }
}

wm_status wm_cuda_infix(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                        wm_align_algo_t algo, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                        wm_best_t *best) {
    wm_cuda_state *cs = cx->cuda;
    uint64_t m = aq->m;
    if (algo == WM_ALIGN_ALGO_WAVEFRONT && m > WM_CU_WAVEFRONT_MAX_M) {
        wm_context_set_error(cx,
                             "the GPU wavefront keeps 3 (m + 1) cells in shared memory, "
                             "so it takes queries of at most %u; this one has %llu (use "
                             "--algo bitvector, or the CPU)",
                             WM_CU_WAVEFRONT_MAX_M, (unsigned long long)m);
        return WM_UNSUPPORTED;
    }
    if (m > WM_CU_BV_MAX_M) { /* align.c runs these on the CPU */
        wm_context_set_error(cx, "query too long for the GPU bit-vector kernel");
        return WM_UNSUPPORTED;
    }
    WM_CU(cx, cudaSetDevice(cs->device));
    uint64_t kcap = limit < 0 || (uint64_t)limit > m ? m : (uint64_t)limit;
    uint64_t halo = m + kcap;

    /* Batches of up to a quarter of free memory (at most 1 GiB), each with
    ** its halo. */
    size_t free_b = 0, total_b = 0;
    WM_CU(cx, cudaMemGetInfo(&free_b, &total_b));
    uint64_t batch = free_b / 4;
    if (batch > (1ull << 30)) batch = 1ull << 30;
    if (batch < 4 * halo + (1u << 20)) batch = 4 * halo + (1u << 20);
    batch =
        wm_gpu_piece(cx, batch, 4 * halo + (1u << 20)); /* smaller after running out of memory */
    if (batch > n) batch = n;

    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    if (!B) return WM_NOMEM;
    wm_cu_aplan_t p;
    wm_status st = wm_cu_aplan_make(cx, aq, cs->sm_count, &p);
    if (st != WM_OK) return st;
    abuf_t b;
    memset(&b, 0, sizeof b);
    cudaStream_t s = cs->stream[0];
    b.d_resident = wm_cuda_target_view(cx, t, n);
    if (!b.d_resident) st = wm_cu_dev_reserve(cx, &B->text, batch + halo + WM_CU_PAD);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->best, 3 * sizeof *b.d_best);
    if (st == WM_OK && ends)
        st = grow_hits(cx, B, &b,
                       B->keys.cap / sizeof *b.d_keys > (1u << 16) ? B->keys.cap / sizeof *b.d_keys
                                                                   : 1u << 16);
    if (st == WM_OK) {
        b.d_text = b.d_resident ? NULL : (uint8_t *)B->text.p;
        b.d_best = (unsigned long long *)B->best.p;
        b.d_count = b.d_best + 2;
        wm_plan_t batches = wm_plan_sized(0, n, batch);
        for (uint64_t i = 0; i < batches.n && st == WM_OK; i++) {
            uint64_t lo, hi;
            wm_plan_part(&batches, i, &lo, &hi);
            st = run_batch(cx, &p, B, &b, t, lo, hi, halo, algo, limit, report_le, ends, best, s);
        }
    }
    wm_cu_aplan_free(&p);
    return st;
}

/* ---- the table ---------------------------------------------------------------- */

extern "C" const wm_align_gpu_t wm_align_gpu_cuda = {
    wm_cuda_infix,     wm_cuda_global,        wm_cuda_global_dp,
    wm_cuda_global_fr, wm_cuda_global_keep,   wm_cuda_global_ckpts,
    wm_cuda_pairs,     wm_cuda_fr_table_free, free_bufs,
};
