/*
** search_cuda.cu -- the CUDA backend's driver for single-pattern search.
**
** The text streams through the GPU in batches. Each batch is copied, with
** the halo before it, into a pinned staging buffer by all host threads at once
** (pinning the caller's pages in place instead, with cudaHostRegister, cost
** more than the copy: it walks and locks every page first), then to the GPU, searched by the plan's
** kernels, and its hits are sorted on the device (CUB radix sort on
** end*2+strand) and copied back. Three slots, each with its own stream and
** buffers, keep the copy of one batch, the search of another and the host's
** work on a third in flight at once. A batch whose hits overflow its buffers
** is searched again after they grow: the text is still on the device.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cub/device/device_radix_sort.cuh>

#include "cuda/cuda_common.cuh"
#include "cuda/state.cuh"

static double wm_cu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- plans ------------------------------------------------------------------ */

/* Which kernel, and whether it runs on the 32-position suffix as a filter. */
static wm_cu_kernel_t choose_kernel(const wm_db_t *db, int *filter) {
    *filter = 0;
    if (db->k == 0) return WM_CU_SHIFTOR;
    int hamming = db->metric == WM_METRIC_HAMMING;
    if (db->m > 32 && db->k <= (hamming ? 4u : WM_CU_FILTER_MAX_K)) *filter = 1;
    uint32_t k = db->k;
    if (hamming) return WM_CU_BITAP;
    if (db->m > 64 && !*filter) return WM_CU_MYERS_BLOCKS;
    if (db->opts.algo == WM_ALGO_BITAP && k <= 4) return WM_CU_BITAP;
    if (db->opts.algo == WM_ALGO_MYERS) return WM_CU_MYERS;
    return k <= 2 ? WM_CU_BITAP : WM_CU_MYERS;
}

int wm_cu_plan_supported(const wm_db_t *db) {
    if (db->k == 0) return 1;
    if (db->metric == WM_METRIC_HAMMING) return db->k <= 4;
    return db->m <= 64 * (size_t)WM_CU_MAX_BLOCKS || db->k <= WM_CU_FILTER_MAX_K;
}

extern "C" int wm_cuda_supports(const wm_db_t *db) { return wm_cu_plan_supported(db); }

wm_status wm_cu_plan_make(wm_context_t *cx, const wm_db_t *db, wm_cu_plan_t *p) {
    memset(p, 0, sizeof *p);
    p->db = db;
    p->kernel = choose_kernel(db, &p->filter);
    p->m = (uint32_t)db->m;
    p->k = db->k;
    p->n_words = (uint32_t)db->n_words;
    p->n_strands = (uint32_t)db->n_strands;
    p->hamming = db->metric == WM_METRIC_HAMMING;
    p->km = p->filter ? 32 : p->m;
    p->khalo = (uint64_t)p->km + (p->hamming ? 0 : p->k) - 1;
    size_t nw = db->n_words, ns = (size_t)db->n_strands;
    uint32_t tail[2 * 256];
    uint32_t tl = p->m < 32 ? p->m : 32;
    for (size_t s = 0; s < ns; s++) {
        const uint64_t *peq = db->strand[s].peq;
        for (unsigned c = 0; c < 256; c++) {
            /* Shift-Or (0 = match): tail position i at bit 32 - tl + i; the
            ** bits below stay 0, the always-active empty prefix. */
            uint32_t M = 0;
            for (uint32_t i = 0; i < tl; i++) {
                size_t pos = db->m - tl + i;
                if (!((peq[c * nw + pos / 64] >> (pos % 64)) & 1)) M |= 1u << (32 - tl + i);
            }
            tail[s * 256 + c] = M;
        }
    }
    if (p->filter) {
        /* masks of positions m-32..m-1 as bits 0..31 */
        uint64_t sfx[2 * 256];
        for (size_t s = 0; s < ns; s++)
            for (unsigned c = 0; c < 256; c++) {
                uint64_t M = 0;
                for (uint32_t i = 0; i < 32; i++) {
                    size_t pos = db->m - 32 + i;
                    M |= ((db->strand[s].peq[c * nw + pos / 64] >> (pos % 64)) & 1) << i;
                }
                sfx[s * 256 + c] = M;
            }
        WM_CU(cx, cudaMalloc((void **)&p->d_kpeq, ns * 256 * sizeof(uint64_t)));
        WM_CU(cx, cudaMemcpy(p->d_kpeq, sfx, ns * 256 * sizeof(uint64_t), cudaMemcpyHostToDevice));
        p->kwords = 1;
    }
    WM_CU(cx, cudaMalloc((void **)&p->d_tail, ns * 256 * sizeof(uint32_t)));
    WM_CU(cx, cudaMalloc((void **)&p->d_peq, ns * 256 * nw * sizeof(uint64_t)));
    WM_CU(cx, cudaMemcpy(p->d_tail, tail, ns * 256 * sizeof(uint32_t), cudaMemcpyHostToDevice));
    for (size_t s = 0; s < ns; s++)
        WM_CU(cx, cudaMemcpy(p->d_peq + s * 256 * nw, db->strand[s].peq, 256 * nw * sizeof(uint64_t),
                             cudaMemcpyHostToDevice));
    if (!p->filter) {
        p->d_kpeq = p->d_peq;
        p->kwords = p->n_words;
    }
    /* A copy from pageable memory may return before its DMA lands, and the
    ** kernels run on non-blocking streams: wait for the tables here. */
    WM_CU(cx, cudaDeviceSynchronize());
    return WM_OK;
}

void wm_cu_plan_free(wm_cu_plan_t *p) {
    if (p->filter) cudaFree(p->d_kpeq);
    p->d_kpeq = NULL;
    cudaFree(p->d_tail);
    cudaFree(p->d_peq);
    p->d_tail = NULL;
    p->d_peq = NULL;
}

wm_status wm_cu_plan_launch(wm_context_t *cx, const wm_cu_plan_t *p, const wm_cu_text_t *t,
                            const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    if (t->n <= t->own_from) return WM_OK;
    if (p->kernel == WM_CU_SHIFTOR) {
        WM_CU(cx, wm_cu_shiftor_launch(p, -1, t, h, sm_count, s));
        return WM_OK;
    }
    for (uint32_t strand = 0; strand < p->n_strands; strand++) {
        if (p->kernel == WM_CU_BITAP) WM_CU(cx, wm_cu_bitap_launch(p, (int)strand, t, h, sm_count, s));
        else WM_CU(cx, wm_cu_myers_launch(p, (int)strand, t, h, sm_count, s));
    }
    return WM_OK;
}

/* ---- slots ---------------------------------------------------------------------- */

void wm_cu_slot_release(wm_cu_slot_t *s) {
    cudaFree(s->d_text);
    cudaFree(s->d_keys); cudaFree(s->d_keys_out);
    cudaFree(s->d_err); cudaFree(s->d_err_out);
    cudaFree(s->d_sort_tmp);
    cudaFree(s->d_count);
    cudaFreeHost(s->h_stage);
    cudaFreeHost(s->h_count);
    cudaFreeHost(s->h_hits);
    cudaFreeHost(s->h_keys);
    cudaFreeHost(s->h_err);
    cudaStream_t keep = s->stream;
    memset(s, 0, sizeof *s);
    s->stream = keep;
}

static wm_status slot_text(wm_context_t *cx, wm_cu_slot_t *s, uint64_t bytes, int staged) {
    if (s->text_cap >= bytes && (!staged || s->h_stage)) return WM_OK;
    cudaFree(s->d_text); s->d_text = NULL;
    cudaFreeHost(s->h_stage); s->h_stage = NULL;
    s->text_cap = 0;
    WM_CU(cx, cudaMalloc((void **)&s->d_text, bytes + WM_CU_PAD));
    /* Kernels read whole tiles past a batch's end: give those bytes defined
    ** values. On the slot's own stream, so it is ordered before the copies
    ** (a legacy-stream memset would not be, our streams being non-blocking). */
    WM_CU(cx, cudaMemsetAsync(s->d_text, 0, bytes + WM_CU_PAD, s->stream));
    if (staged) WM_CU(cx, cudaMallocHost((void **)&s->h_stage, bytes));
    s->text_cap = bytes;
    return WM_OK;
}

static wm_status slot_hits(wm_context_t *cx, wm_cu_slot_t *s, uint64_t cap) {
    if (s->hit_cap >= cap && s->d_count) return WM_OK;
    cudaFree(s->d_keys); cudaFree(s->d_keys_out); cudaFree(s->d_err); cudaFree(s->d_err_out);
    cudaFree(s->d_sort_tmp);
    cudaFreeHost(s->h_hits); cudaFreeHost(s->h_keys); cudaFreeHost(s->h_err);
    s->d_keys = s->d_keys_out = NULL; s->d_err = s->d_err_out = NULL; s->d_sort_tmp = NULL;
    s->h_hits = NULL; s->h_keys = NULL; s->h_err = NULL; s->hit_cap = 0;
    if (!s->d_count) {
        WM_CU(cx, cudaMalloc((void **)&s->d_count, sizeof *s->d_count));
        WM_CU(cx, cudaMallocHost((void **)&s->h_count, sizeof *s->h_count));
    }
    WM_CU(cx, cudaMalloc((void **)&s->d_keys, cap * sizeof *s->d_keys));
    WM_CU(cx, cudaMalloc((void **)&s->d_keys_out, cap * sizeof *s->d_keys_out));
    WM_CU(cx, cudaMalloc((void **)&s->d_err, cap * sizeof *s->d_err));
    WM_CU(cx, cudaMalloc((void **)&s->d_err_out, cap * sizeof *s->d_err_out));
    size_t tmp = 0;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(NULL, tmp, s->d_keys, s->d_keys_out, s->d_err, s->d_err_out,
                                              (int64_t)cap, 0, 64, s->stream));
    WM_CU(cx, cudaMalloc(&s->d_sort_tmp, tmp));
    s->sort_tmp_bytes = tmp;
    WM_CU(cx, cudaMallocHost((void **)&s->h_keys, cap * sizeof *s->h_keys));
    WM_CU(cx, cudaMallocHost((void **)&s->h_err, cap * sizeof *s->h_err));
    WM_CU(cx, cudaMallocHost((void **)&s->h_hits, cap * sizeof *s->h_hits));
    s->hit_cap = cap;
    return WM_OK;
}

/* ---- the pipeline ------------------------------------------------------------------ */

typedef struct {
    wm_context_t *cx;
    const wm_cu_plan_t *plan;
    const wm_text_t *text;
    uint64_t batch, halo;
    int end_bit;             /* bits of the largest sort key         */
} pipe_t;

/* A staging copy cut into pieces for the pool. */
#define COPY_PIECE (8ull << 20)
typedef struct { uint8_t *dst; const uint8_t *src; uint64_t n; } copy_job_t;

static void copy_piece(void *arg, size_t i, int tid) {
    (void)tid;
    copy_job_t *c = (copy_job_t *)arg;
    uint64_t off = (uint64_t)i * COPY_PIECE, n = c->n - off < COPY_PIECE ? c->n - off : COPY_PIECE;
    memcpy(c->dst + off, c->src + off, n);
}

static wm_status slot_search(pipe_t *P, wm_cu_slot_t *s) {
    wm_context_t *cx = P->cx;
    wm_cu_text_t t;
    t.text = s->d_text;
    t.n = s->own_end - s->copy_begin;
    t.own_from = s->own_begin - s->copy_begin;
    t.base = s->copy_begin;
    wm_cu_hits_t h = { s->d_keys, s->d_err, s->d_count, s->hit_cap };
    WM_CU(cx, cudaMemsetAsync(s->d_count, 0, sizeof *s->d_count, s->stream));
    wm_status st = wm_cu_plan_launch(cx, P->plan, &t, &h, cx->cuda->sm_count, s->stream);
    if (st != WM_OK) return st;
    WM_CU(cx, cudaMemcpyAsync(s->h_count, s->d_count, sizeof *s->h_count, cudaMemcpyDeviceToHost, s->stream));
    return WM_OK;
}

static wm_status slot_submit(pipe_t *P, wm_cu_slot_t *s, uint64_t own_begin, uint64_t own_end) {
    wm_context_t *cx = P->cx;
    s->own_begin = own_begin;
    s->own_end = own_end;
    s->copy_begin = own_begin > P->halo ? own_begin - P->halo : 0;
    uint64_t bytes = own_end - s->copy_begin;
    wm_status st = slot_text(cx, s, P->batch + P->halo, 1);
    if (st != WM_OK) return st;
    copy_job_t c = { s->h_stage, P->text->seq + s->copy_begin, bytes };
    wm_pool_for(cx->pool, (size_t)((bytes + COPY_PIECE - 1) / COPY_PIECE), copy_piece, &c);
    WM_CU(cx, cudaMemcpyAsync(s->d_text, s->h_stage, bytes, cudaMemcpyHostToDevice, s->stream));
    s->busy = 1;
    return slot_search(P, s);
}

static wm_status slot_collect(pipe_t *P, wm_cu_slot_t *s, wm_hit_batch_fn sink, void *user) {
    wm_context_t *cx = P->cx;
    s->busy = 0;
    WM_CU(cx, cudaStreamSynchronize(s->stream));
    uint64_t n = *s->h_count;
    if (n > s->hit_cap) {                     /* grow and search this batch again */
        wm_status st = slot_hits(cx, s, n + n / 4);
        if (st == WM_OK) st = slot_search(P, s);
        if (st != WM_OK) return st;
        WM_CU(cx, cudaStreamSynchronize(s->stream));
        n = *s->h_count;
    }
    if (n == 0) return WM_OK;
    size_t tmp = s->sort_tmp_bytes;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(s->d_sort_tmp, tmp, s->d_keys, s->d_keys_out, s->d_err,
                                              s->d_err_out, (int64_t)n, 0, P->end_bit, s->stream));
    WM_CU(cx, cudaMemcpyAsync(s->h_keys, s->d_keys_out, n * sizeof *s->h_keys, cudaMemcpyDeviceToHost, s->stream));
    WM_CU(cx, cudaMemcpyAsync(s->h_err, s->d_err_out, n * sizeof *s->h_err, cudaMemcpyDeviceToHost, s->stream));
    WM_CU(cx, cudaStreamSynchronize(s->stream));
    for (uint64_t i = 0; i < n; i++) {
        s->h_hits[i].end = s->h_keys[i] >> 1;
        s->h_hits[i].strand = (uint32_t)(s->h_keys[i] & 1);
        s->h_hits[i].errors = s->h_err[i];
    }
    return sink(s->h_hits, (size_t)n, user);
}

extern "C" wm_status wm_cuda_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                                    wm_hit_batch_fn sink, void *user) {
    wm_cuda_state *cs = cx->cuda;
    WM_CU(cx, cudaSetDevice(cs->device));
    wm_cu_plan_t plan;
    wm_status st = wm_cu_plan_make(cx, db, &plan);
    if (st != WM_OK) { wm_cu_plan_free(&plan); return st; }

    pipe_t P;
    memset(&P, 0, sizeof P);
    P.cx = cx;
    P.plan = &plan;
    P.text = text;
    P.halo = wm_db_halo(db);
    uint64_t batch = cx->opts.chunk_bytes ? cx->opts.chunk_bytes : (256ull << 20);
    P.batch = batch < text->len ? batch : text->len;
    uint64_t max_key = 2 * text->len + 1;
    P.end_bit = 64 - __builtin_clzll(max_key);

    /* Hit buffers for one hit per 512 bytes: pinned host memory costs about
    ** as much to allocate as the copies it serves, and a batch with more
    ** hits grows them and is searched again (rare: dense hits are ~1/1000). */
    double t_setup = wm_cu_now();
    uint64_t initial_cap = P.batch / 512 + 4096;
    for (int i = 0; i < WM_CU_STREAMS && st == WM_OK; i++) st = slot_hits(cx, &cs->slot[i], initial_cap);
    for (int i = 0; i < WM_CU_STREAMS && st == WM_OK; i++)
        st = slot_text(cx, &cs->slot[i], P.batch + P.halo, 1);
    t_setup = wm_cu_now() - t_setup;
    double t_loop = wm_cu_now();

    uint64_t n_batches = (text->len + P.batch - 1) / P.batch;
    uint64_t next = 0, done = 0;
    /* Fill the slots, then collect the oldest and refill it, in order. */
    while (st == WM_OK && done < n_batches) {
        while (st == WM_OK && next < n_batches && next - done < WM_CU_STREAMS) {
            uint64_t b = next * P.batch, e = b + P.batch < text->len ? b + P.batch : text->len;
            st = slot_submit(&P, &cs->slot[next % WM_CU_STREAMS], b, e);
            next++;
        }
        if (st != WM_OK) break;
        wm_cu_slot_t *s = &cs->slot[done % WM_CU_STREAMS];
        st = slot_collect(&P, s, sink, user);
        done++;
        if (st == WM_OK && cx->opts.progress) cx->opts.progress(s->own_end, text->len, cx->opts.progress_user);
    }
    /* On an early stop or error, let in-flight work finish before buffers go. */
    for (int i = 0; i < WM_CU_STREAMS; i++) cudaStreamSynchronize(cs->slot[i].stream);
    wm_cu_plan_free(&plan);
    if (getenv("WM_CUDA_TIMING"))
        fprintf(stderr, "cuda search (device %d): buffers %.4f s, %llu batches of %llu bytes "
                "(copy, search, hits) %.4f s\n", cs->device, t_setup,
                (unsigned long long)n_batches, (unsigned long long)P.batch, wm_cu_now() - t_loop);
    return st;
}
