/*
** align_cuda.cuh -- the GPU side of `align`: a query made ready for the
** device (its match masks in 32-bit words, its symbols), and one launch of
** either infix kernel over a batch of target already on the device. The
** driver (align_cuda.cu) streams targets through these; bench/ times them
** on device-resident data.
*/
#ifndef WM_ALIGN_CUDA_CUH
#define WM_ALIGN_CUDA_CUH

#include "align/align.h"
#include "cuda/cuda_common.cuh"

/* ---- the host entries of the GPU table (wm_align_gpu_t in align.h) ---- */
wm_status wm_cuda_infix(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                        wm_align_algo_t algo, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                        wm_best_t *best);
wm_status wm_cuda_global(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                         int64_t limit, uint64_t *d);
wm_status wm_cuda_global_keep(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                              int64_t limit, uint64_t *S_keep, uint64_t *d);
wm_status wm_cuda_global_ckpts(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                               uint64_t d, const wm_tb_plan_t *plan, wm_tb_ckpts_t *ck);
wm_status wm_cuda_global_dp(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                            int64_t limit, uint64_t *d);
wm_status wm_cuda_global_fr(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                            const struct wm_fr_table *tab, int64_t limit, uint64_t *d);
void wm_cuda_fr_table_free(struct wm_fr_table *tab);
wm_status wm_cuda_pairs(wm_context_t *cx, const wm_pairs_src_t *src, const wm_align_opts_t *o,
                        wm_pairs_deliver_t deliver, void *user);

/* The device buffers align's GPU calls keep in the context (its cache's
** gpu field), grown on demand: no cudaMalloc per call once warm. */
/* What a distance run that kept its checkpoints (wm_cuda_global_keep) left
** in g[3], for the checkpoints of the same pair's CIGAR: the run's band
** (lay: the plan of distance k, every lay.S columns) and its words. */
typedef struct {
    const wm_aq_t *aq;
    const uint8_t *y;
    uint64_t k;
    size_t W, words;
    wm_tb_plan_t lay;
    int valid;
} wm_cu_gbv_kept_t;

/* g[0..3] global (tables, target, ring, checkpoints), g[4] and g[6] pairs'
** slots, g[5] four-russians, g[7] gathered checkpoints, g[8] the backward
** run of one pair computed from both ends (global_cuda.cu's run_meet);
** h[0..5] pairs' slots, h[6] a global run's tables, h[7] unused */
#define WM_CU_ALIGN_G 9

typedef struct {
    wm_cu_buf_t text, best, keys, err; /* infix batches */
    wm_cu_buf_t peq, code;             /* a query's tables */
    wm_cu_buf_t g[WM_CU_ALIGN_G];      /* global, dp, pairs: their own use */
    wm_cu_buf_t h[8];                  /* pinned host staging */
    wm_cu_gbv_kept_t kept;             /* global_keep's checkpoints in g[3] */
    int gbv_per_sm[2];                 /* the global kernels' blocks an SM, bytes
                                          and DNA (0: not asked yet) */
} wm_cu_align_bufs_t;
/* The context's align buffers (made on first use), or NULL out of memory. */
wm_cu_align_bufs_t *wm_cu_align_bufs(wm_context_t *cx);

/* A query on the device. */
typedef struct {
    uint32_t m;
    uint32_t w32;       /* ceil(m / 32): 32-row words a column */
    unsigned n_codes;   /* symbols that match something (256 or 4) */
    uint32_t *d_peq256; /* 256 rows of w32 words, indexed by the target's byte
                           (the symbol map folded in: one load less a step) */
    uint8_t *d_code;    /* 256 entries: byte -> symbol (n_codes: matches nothing) */
    uint8_t *d_qcode;   /* the query's m symbols (wavefront) */
    /* bit-vector layout: G threads share a chunk, each holding W words of a
    ** column (G <= 32: groups within a warp; G > 32: the whole block) */
    int group, per_thread;
    int sm_count;
} wm_cu_aplan_t;

/* The plan's tables live in the context's align buffers (one plan at a time
** per context); wm_cu_aplan_free only forgets them. */
wm_status wm_cu_aplan_make(wm_context_t *cx, const wm_aq_t *aq, int sm_count, wm_cu_aplan_t *p);
void wm_cu_aplan_free(wm_cu_aplan_t *p);
/* Choose W words a thread (0: the default for this query) and the group. */
void wm_cu_aplan_layout(wm_cu_aplan_t *p, int per_thread);

/* Results of launches: *best = (distance << 38) | global end, atomically
** minimised (so the leftmost end wins a tie), ~0 when nothing was within
** the limit; ends at or under report_le are appended to hits (key = end << 1,
** errors = distance) when hits.keys is not NULL. */
typedef struct {
    unsigned long long *best;
    wm_cu_hits_t hits;
} wm_cu_aout_t;
#define WM_CU_BEST_SHIFT 38

/* One launch over d_text[0, len), whose byte 0 is global offset base. Ends
** e with own_from < e <= len (local) are owned; each chunk's scan starts
** halo columns before its first end (or at 0). chunk: ends a chunk owns,
** 0 = chosen from the GPU's size. limit / report_le < 0: none. */
wm_status wm_cu_infix_launch(wm_context_t *cx, const wm_cu_aplan_t *p, wm_align_algo_t algo,
                             const uint8_t *d_text, uint64_t len, uint64_t own_from, uint64_t base,
                             uint64_t halo, int64_t limit, int64_t report_le, uint64_t chunk,
                             const wm_cu_aout_t *o, cudaStream_t s);

/* The chunk the launcher picks when given 0 (the bench prints it). */
uint64_t wm_cu_infix_chunk(const wm_cu_aplan_t *p, wm_align_algo_t algo, uint64_t owned,
                           uint64_t halo);

/* Kernel launchers (bv_cuda.cu, wavefront.cu). Chunk c owns ends
** (own_from + c * chunk, own_from + (c + 1) * chunk] up to len. */
typedef struct {
    const uint8_t *text;
    uint64_t len, own_from, base, halo, chunk, n_chunks;
    uint32_t limit, report_le; /* UINT32_MAX: none / no listing */
} wm_cu_ajob_t;
cudaError_t wm_cu_bv_infix_launch(const wm_cu_aplan_t *p, const wm_cu_ajob_t *j,
                                  const wm_cu_aout_t *o, cudaStream_t s);
cudaError_t wm_cu_wavefront_launch(const wm_cu_aplan_t *p, const wm_cu_ajob_t *j,
                                   const wm_cu_aout_t *o, cudaStream_t s);
/* Chunks each kernel runs at once on this GPU (occupancy x SMs). */
uint64_t wm_cu_bv_resident_chunks(const wm_cu_aplan_t *p);
uint64_t wm_cu_wavefront_resident_chunks(const wm_cu_aplan_t *p);

/* One 32-row block step (bv.h's 64-bit step, in 32-bit words); returns the
** horizontal delta leaving row `row`. */
__device__ __forceinline__ int wm_cu_bv_step32(uint32_t &Pv, uint32_t &Mv, uint32_t eq, int hin,
                                               unsigned row) {
    uint32_t neg = hin<0, pos = hin> 0;
    uint32_t Xv = eq | Mv;
    uint32_t e2 = eq | neg;
    uint32_t Xh = (((e2 & Pv) + Pv) ^ Pv) | e2;
    uint32_t Ph = Mv | ~(Xh | Pv);
    uint32_t Mh = Pv & Xh;
    int hout = (int)((Ph >> row) & 1u) - (int)((Mh >> row) & 1u);
    Ph = (Ph << 1) | pos;
    Mh = (Mh << 1) | neg;
    Pv = Mh | ~(Xv | Ph);
    Mv = Ph & Xv;
    return hout;
}

/* Keep the best (distance, end) of one thread's owned ends, then publish it. */
__device__ __forceinline__ void wm_cu_best_publish(unsigned long long *best, uint32_t d,
                                                   uint64_t global_end) {
    atomicMin(best, ((unsigned long long)d << WM_CU_BEST_SHIFT) | global_end);
}

#endif
