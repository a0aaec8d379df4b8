/*
** search_cuda.cu -- the CUDA backend's driver for single-pattern search.
**
** The text streams through the GPU in batches. Each batch is copied, with
** the halo before it, into a pinned staging buffer by all host threads at once
** (pinning the caller's pages in place instead, with cudaHostRegister, cost
** more than the copy: it walks and locks every page first, 12 GB/s a process
** and about 1 GB/s when several GPUs of one process lock at once; measured on
** four GPUs in BENCHMARKS.md section 21), then to the GPU, searched by the plan's
** kernels, and its hits are sorted on the device (CUB radix sort on
** end*2+strand) and copied back. Three slots, each with its own stream and
** buffers, keep the copy of one batch, the search of another and the host's
** work on a third in flight at once. A batch whose hits overflow its buffers
** is searched again after they grow: the text is still on the device.
*/
#include <stdlib.h>
#include <string.h>
#include <cub/device/device_radix_sort.cuh>

#include "core/plan.h"
#include "search/search_cuda.cuh"

/* ---- plans ------------------------------------------------------------------ */

/* Which kernel, and whether it runs on the 32-position suffix as a filter. */
static wm_cu_kernel_t choose_kernel(const wm_pat_t *pat, int *filter) {
    *filter = 0;
    if (pat->k == 0) return WM_CU_SHIFTOR;
    int hamming = pat->metric == WM_METRIC_HAMMING;
    if (pat->m > 32 && pat->k <= (hamming ? 4u : WM_CU_FILTER_MAX_K)) *filter = 1;
    uint32_t k = pat->k;
    if (hamming) return WM_CU_BITAP;
    if (pat->m > 64 && !*filter) return WM_CU_MYERS_BLOCKS;
    if (pat->opts.algo == WM_ALGO_BITAP && k <= 4) return WM_CU_BITAP;
    if (pat->opts.algo == WM_ALGO_MYERS) return WM_CU_MYERS;
    return k <= 2 ? WM_CU_BITAP : WM_CU_MYERS;
}

int wm_cu_plan_supported(const wm_pat_t *pat) {
    if (pat->k == 0) return 1;
    if (pat->metric == WM_METRIC_HAMMING) return pat->k <= 4;
    return pat->m <= 64 * (size_t)WM_CU_MAX_BLOCKS || pat->k <= WM_CU_FILTER_MAX_K;
}

wm_status wm_cu_plan_make(wm_context_t *cx, const wm_pat_t *pat, wm_cu_plan_t *p) {
    memset(p, 0, sizeof *p);
    p->pat = pat;
    p->kernel = choose_kernel(pat, &p->filter);
    p->m = (uint32_t)pat->m;
    p->k = pat->k;
    p->n_words = (uint32_t)pat->n_words;
    p->n_strands = (uint32_t)pat->n_strands;
    p->hamming = pat->metric == WM_METRIC_HAMMING;
    p->km = p->filter ? 32 : p->m;
    p->khalo = (uint64_t)p->km + (p->hamming ? 0 : p->k) - 1;
    size_t nw = pat->n_words, ns = (size_t)pat->n_strands;
    uint32_t tail[2 * 256];
    uint32_t tl = p->m < 32 ? p->m : 32;
    for (size_t s = 0; s < ns; s++) {
        const uint64_t *peq = pat->strand[s].peq;
        for (unsigned c = 0; c < 256; c++) {
            /* Shift-Or (0 = match): tail position i at bit 32 - tl + i; the
            ** bits below stay 0, the always-active empty prefix. */
            uint32_t M = 0;
            for (uint32_t i = 0; i < tl; i++) {
                size_t pos = pat->m - tl + i;
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
                    size_t pos = pat->m - 32 + i;
                    M |= ((pat->strand[s].peq[c * nw + pos / 64] >> (pos % 64)) & 1) << i;
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
        WM_CU(cx, cudaMemcpy(p->d_peq + s * 256 * nw, pat->strand[s].peq,
                             256 * nw * sizeof(uint64_t), cudaMemcpyHostToDevice));
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
        if (p->kernel == WM_CU_BITAP)
            WM_CU(cx, wm_cu_bitap_launch(p, (int)strand, t, h, sm_count, s));
        else WM_CU(cx, wm_cu_myers_launch(p, (int)strand, t, h, sm_count, s));
    }
    return WM_OK;
}

/* ---- slots ---------------------------------------------------------------------- */

/* One batch in flight: its stream's device text buffer (batch + halo +
** WM_CU_PAD), pinned staging, hit buffers and sort space. Kept in the
** context's search cache between calls; they grow on demand. */
typedef struct {
    cudaStream_t stream; /* the device's stream[i]; not owned */
    wm_cu_buf_t d_text, h_stage;
    wm_cu_buf_t d_keys, d_keys_out, d_err, d_err_out, d_sort_tmp;
    wm_cu_buf_t d_count, h_count;
    wm_cu_buf_t h_hits, h_keys, h_err;
    uint64_t text_cap, hit_cap;
    /* the batch this slot holds */
    uint64_t own_begin, own_end; /* global ends (own_begin, own_end] */
    uint64_t copy_begin;         /* global offset of d_text[0] */
    const uint8_t *d_view;       /* the batch in a resident target's device
                                    copy (core/target.c), or NULL: in d_text */
} slot_t;

typedef struct {
    slot_t slot[WM_CU_STREAMS];
} search_cache_t;

static void slot_release(slot_t *s) {
    wm_cu_buf_t *dev[] = { &s->d_text,    &s->d_keys,     &s->d_keys_out, &s->d_err,
                           &s->d_err_out, &s->d_sort_tmp, &s->d_count };
    wm_cu_buf_t *host[] = { &s->h_stage, &s->h_count, &s->h_hits, &s->h_keys, &s->h_err };
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++) wm_cu_dev_release(dev[i]);
    for (size_t i = 0; i < sizeof host / sizeof *host; i++) wm_cu_host_release(host[i]);
    s->text_cap = s->hit_cap = 0;
}

extern "C" void wm_search_cuda_free_cache(wm_context_t *cx, void *cache) {
    (void)cx;
    search_cache_t *c = (search_cache_t *)cache;
    for (int i = 0; i < WM_CU_STREAMS; i++) slot_release(&c->slot[i]);
    free(c);
}

static search_cache_t *cache_of(wm_context_t *cx) {
    return (search_cache_t *)wm_context_cache(cx, &wm_search_family, sizeof(search_cache_t));
}

static wm_status slot_text(wm_context_t *cx, slot_t *s, uint64_t bytes) {
    if (s->text_cap >= bytes) return WM_OK;
    wm_status st = wm_cu_dev_reserve(cx, &s->d_text, bytes + WM_CU_PAD);
    if (st == WM_OK) st = wm_cu_host_reserve(cx, &s->h_stage, bytes);
    if (st != WM_OK) return st;
    /* Kernels read whole tiles past a batch's end: give those bytes defined
    ** values. On the slot's own stream, so it is ordered before the copies
    ** (a legacy-stream memset would not be, our streams being non-blocking). */
    WM_CU(cx, cudaMemsetAsync(s->d_text.p, 0, bytes + WM_CU_PAD, s->stream));
    s->text_cap = bytes;
    return WM_OK;
}

static wm_status slot_hits(wm_context_t *cx, slot_t *s, uint64_t cap) {
    if (s->hit_cap >= cap) return WM_OK;
    wm_status st = wm_cu_dev_reserve(cx, &s->d_count, sizeof(unsigned long long));
    if (st == WM_OK) st = wm_cu_host_reserve(cx, &s->h_count, sizeof(unsigned long long));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &s->d_keys, cap * sizeof(unsigned long long));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &s->d_keys_out, cap * sizeof(unsigned long long));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &s->d_err, cap * sizeof(uint32_t));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &s->d_err_out, cap * sizeof(uint32_t));
    if (st != WM_OK) return st;
    size_t tmp = 0;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(NULL, tmp, (unsigned long long *)s->d_keys.p,
                                              (unsigned long long *)s->d_keys_out.p,
                                              (uint32_t *)s->d_err.p, (uint32_t *)s->d_err_out.p,
                                              (int64_t)cap, 0, 64, s->stream));
    st = wm_cu_dev_reserve(cx, &s->d_sort_tmp, tmp);
    if (st == WM_OK) st = wm_cu_host_reserve(cx, &s->h_keys, cap * sizeof(unsigned long long));
    if (st == WM_OK) st = wm_cu_host_reserve(cx, &s->h_err, cap * sizeof(uint32_t));
    if (st == WM_OK) st = wm_cu_host_reserve(cx, &s->h_hits, cap * sizeof(wm_hit_t));
    if (st == WM_OK) s->hit_cap = cap;
    return st;
}

/* ---- the pipeline ------------------------------------------------------------------ */

typedef struct {
    wm_context_t *cx;
    const wm_cu_plan_t *plan;
    const wm_text_t *text;
    const uint8_t *d_resident; /* the text on the device already, or NULL */
    uint64_t batch, halo;
    int end_bit; /* bits of the largest sort key */
} pipe_t;

/* A staging copy cut into pieces for the pool: two a thread, so that every
** thread copies however small the batch (a fixed 8 MiB piece left 12 of 16
** threads idle on a 32 MiB batch), and none smaller than 256 KiB. Bytes the
** caller said are a file's (wm_context_text_file) are read from it with
** pread, page cache to pinned buffer, so that the caller's mapping is never
** faulted in; a piece whose read fails is copied from memory. */
typedef struct {
    uint8_t *dst;
    const uint8_t *src;
    uint64_t n, piece;
    int fd;            /* the file of src, or -1 */
    uint64_t file_off; /* src's offset in it */
} copy_job_t;

static void copy_piece(void *arg, size_t i, int tid) {
    (void)tid;
    copy_job_t *c = (copy_job_t *)arg;
    uint64_t off = (uint64_t)i * c->piece, n = c->n - off < c->piece ? c->n - off : c->piece;
    if (c->fd >= 0 && wm_read_at(c->fd, c->dst + off, n, c->file_off + off) == 0) return;
    memcpy(c->dst + off, c->src + off, n);
}

static void copy_staged(wm_context_t *cx, uint8_t *dst, const uint8_t *src, uint64_t n) {
    uint64_t parts = 2 * (uint64_t)wm_pool_size(cx->pool), piece = (n + parts - 1) / parts;
    piece = (piece + 4095) & ~4095ull; /* whole pages */
    if (piece < (256u << 10)) piece = 256u << 10;
    copy_job_t c = { dst, src, n, piece, -1, 0 };
    c.fd = wm_context_file_of(cx, src, n, &c.file_off);
    if (c.fd >= 0) cx->stats.search_gpu_read_bytes += n;
    wm_pool_for(cx->pool, (size_t)((n + piece - 1) / piece), copy_piece, &c);
}

static wm_status slot_search(pipe_t *P, slot_t *s) {
    wm_context_t *cx = P->cx;
    wm_cu_text_t t;
    t.text = s->d_view ? s->d_view : (const uint8_t *)s->d_text.p;
    t.n = s->own_end - s->copy_begin;
    t.own_from = s->own_begin - s->copy_begin;
    t.base = s->copy_begin;
    unsigned long long *d_count = (unsigned long long *)s->d_count.p;
    wm_cu_hits_t h = { (unsigned long long *)s->d_keys.p, (uint32_t *)s->d_err.p, d_count,
                       s->hit_cap };
    WM_CU(cx, cudaMemsetAsync(d_count, 0, sizeof *d_count, s->stream));
    wm_status st = wm_cu_plan_launch(cx, P->plan, &t, &h, cx->cuda->sm_count, s->stream);
    if (st != WM_OK) return st;
    WM_CU(cx, cudaMemcpyAsync(s->h_count.p, d_count, sizeof *d_count, cudaMemcpyDeviceToHost,
                              s->stream));
    return WM_OK;
}

/* Copy the bytes of owned ends (own_begin, own_end] with the halo before
** them (core/plan.h; the GPU ignores records) and search them. */
static wm_status slot_submit(pipe_t *P, slot_t *s, uint64_t own_begin, uint64_t own_end) {
    wm_context_t *cx = P->cx;
    s->own_begin = own_begin;
    s->own_end = own_end;
    s->copy_begin = wm_plan_scan_from(0, own_begin, P->halo);
    uint64_t bytes = own_end - s->copy_begin;
    if (P->d_resident) { /* nothing to copy */
        /* The kernels load the text in 16-byte words from its first byte:
        ** start the view on a 256-byte boundary of the device copy (itself
        ** aligned as cudaMalloc aligns), the few bytes before the halo one
        ** more halo, which changes no end's result. */
        s->copy_begin &= ~(uint64_t)255;
        s->d_view = P->d_resident + s->copy_begin;
        return slot_search(P, s);
    }
    s->d_view = NULL;
    wm_status st = slot_text(cx, s, P->batch + P->halo);
    if (st != WM_OK) return st;
    copy_staged(cx, (uint8_t *)s->h_stage.p, P->text->seq + s->copy_begin, bytes);
    WM_CU(cx, cudaMemcpyAsync(s->d_text.p, s->h_stage.p, bytes, cudaMemcpyHostToDevice, s->stream));
    return slot_search(P, s);
}

static wm_status slot_collect(pipe_t *P, slot_t *s, wm_hit_batch_fn sink, void *user) {
    wm_context_t *cx = P->cx;
    WM_CU(cx, cudaStreamSynchronize(s->stream));
    uint64_t n = *(unsigned long long *)s->h_count.p;
    if (n > s->hit_cap) { /* grow and search this batch again */
        wm_status st = slot_hits(cx, s, n + n / 4);
        if (st == WM_OK) st = slot_search(P, s);
        if (st != WM_OK) return st;
        WM_CU(cx, cudaStreamSynchronize(s->stream));
        n = *(unsigned long long *)s->h_count.p;
    }
    if (n == 0) return WM_OK;
    size_t tmp = s->d_sort_tmp.cap;
    unsigned long long *keys = (unsigned long long *)s->h_keys.p;
    uint32_t *err = (uint32_t *)s->h_err.p;
    wm_hit_t *hits = (wm_hit_t *)s->h_hits.p;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(
                  s->d_sort_tmp.p, tmp, (unsigned long long *)s->d_keys.p,
                  (unsigned long long *)s->d_keys_out.p, (uint32_t *)s->d_err.p,
                  (uint32_t *)s->d_err_out.p, (int64_t)n, 0, P->end_bit, s->stream));
    WM_CU(cx, cudaMemcpyAsync(keys, s->d_keys_out.p, n * sizeof *keys, cudaMemcpyDeviceToHost,
                              s->stream));
    WM_CU(cx,
          cudaMemcpyAsync(err, s->d_err_out.p, n * sizeof *err, cudaMemcpyDeviceToHost, s->stream));
    WM_CU(cx, cudaStreamSynchronize(s->stream));
    for (uint64_t i = 0; i < n; i++) {
        hits[i].end = keys[i] >> 1;
        hits[i].strand = (uint32_t)(keys[i] & 1);
        hits[i].errors = err[i];
    }
    return sink(hits, (size_t)n, user);
}

/* Every batch of the plan through the slots, in order: fill the slots, then
** collect the oldest and refill it. */
static wm_status run_batches(pipe_t *P, search_cache_t *c, const wm_plan_t *batches,
                             uint64_t own_from, wm_hit_batch_fn sink, void *user,
                             uint64_t *delivered) {
    wm_context_t *cx = P->cx;
    uint64_t len = P->text->len, next = 0, done = 0;
    wm_status st = WM_OK;
    while (st == WM_OK && done < batches->n) {
        while (st == WM_OK && next < batches->n && next - done < WM_CU_STREAMS) {
            uint64_t b, e;
            wm_plan_part(batches, next, &b, &e);
            st = slot_submit(P, &c->slot[next % WM_CU_STREAMS], b, e);
            next++;
        }
        if (st != WM_OK) break;
        slot_t *s = &c->slot[done % WM_CU_STREAMS];
        st = slot_collect(P, s, sink, user);
        if (st == WM_OK) *delivered = s->own_end;
        done++;
        if (st == WM_OK && cx->opts.progress)
            cx->opts.progress(s->own_end - own_from, len - own_from, cx->opts.progress_user);
    }
    /* On an early stop or error, let in-flight work finish before buffers go. */
    for (int i = 0; i < WM_CU_STREAMS; i++) cudaStreamSynchronize(c->slot[i].stream);
    return st;
}

static wm_status search_gpu(wm_context_t *cx, const wm_pat_t *pat, const wm_text_t *text,
                            uint64_t own_from, wm_hit_batch_fn sink, void *user, uint64_t *done) {
    *done = own_from;
    wm_cuda_state *cs = cx->cuda;
    WM_CU(cx, cudaSetDevice(cs->device));
    search_cache_t *c = cache_of(cx);
    if (!c) return WM_NOMEM;
    double t_setup = wm_now(); /* the plan's tables and the buffers */
    wm_cu_plan_t plan;
    wm_status st = wm_cu_plan_make(cx, pat, &plan);
    if (st != WM_OK) {
        wm_cu_plan_free(&plan);
        return st;
    }

    const wm_tuning_t *tu = &cx->tuning;
    pipe_t P;
    memset(&P, 0, sizeof P);
    P.cx = cx;
    P.plan = &plan;
    P.text = text;
    P.halo = wm_pat_halo(pat);
    uint64_t batch = cx->opts.chunk_bytes     ? cx->opts.chunk_bytes
                     : tu->search_batch_bytes ? tu->search_batch_bytes
                                              : (32ull << 20);
    batch = wm_gpu_piece(cx, batch, 1u << 20); /* smaller after running out of memory */
    uint64_t own = text->len - own_from;
    /* A text under a batch a stream is cut in one piece a stream (whole
    ** MiB): the copies still overlap the kernels, and the pinned staging
    ** follows the text. A streamed input's 32 MiB batch took three slots of
    ** 32 MiB, two of them idle, and put the GPU's streamed peak over
    ** issue 16's 256 MB (BENCHMARKS.md 18). */
    if (!cx->opts.chunk_bytes && own < batch * WM_CU_STREAMS) {
        uint64_t piece = ((own + WM_CU_STREAMS - 1) / WM_CU_STREAMS + (1u << 20) - 1) &
                         ~(uint64_t)((1u << 20) - 1);
        if (piece < batch) batch = piece;
    }
    P.batch = batch < own ? batch : own;
    uint64_t max_key = 2 * text->len + 1;
    P.end_bit = 64 - __builtin_clzll(max_key);

    /* Hit buffers for one hit per 512 bytes: pinned host memory costs about
    ** as much to allocate as the copies it serves, and a batch with more
    ** hits grows them and is searched again (rare: dense hits are ~1/1000). */
    uint64_t per_hit = tu->search_bytes_per_hit ? tu->search_bytes_per_hit : 512;
    uint64_t initial_cap = P.batch / per_hit + 4096;
    for (int i = 0; i < WM_CU_STREAMS; i++) c->slot[i].stream = cs->stream[i];
    for (int i = 0; i < WM_CU_STREAMS && st == WM_OK; i++)
        st = slot_hits(cx, &c->slot[i], initial_cap);
    P.d_resident = wm_cuda_target_view(cx, text->seq, text->len);
    wm_plan_t batches = wm_plan_sized(own_from, text->len, P.batch);
    /* staging for the slots the batches will use (batch i takes slot i % streams) */
    for (uint64_t i = 0; i < WM_CU_STREAMS && i < batches.n && st == WM_OK && !P.d_resident; i++)
        st = slot_text(cx, &c->slot[i], P.batch + P.halo);
    t_setup = wm_now() - t_setup;
    double t_loop = wm_now(); /* the copies, kernels and hits, and the plan's tables freed */
    if (st == WM_OK) st = run_batches(&P, c, &batches, own_from, sink, user, done);
    wm_cu_plan_free(&plan);
    cx->stats.search_gpu_setup_s += t_setup;
    cx->stats.search_gpu_loop_s += wm_now() - t_loop;
    cx->stats.search_gpu_batches += batches.n;
    cx->stats.search_gpu_batch_bytes = P.batch;
    return st;
}

static int supports(const wm_pat_t *pat) { return wm_cu_plan_supported(pat); }

extern "C" const wm_search_gpu_t wm_search_gpu_cuda = { supports, search_gpu };
