/*
** cuda_common.cuh -- what every warpmatch kernel and the CUDA driver share:
** error checking that turns CUDA errors into wm_status with CUDA's own text,
** the hit list kernels append to, and the "plan": a database's tables on the
** device plus the kernel choice.
*/
#ifndef WM_CUDA_COMMON_CUH
#define WM_CUDA_COMMON_CUH

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/internal.h"

/* Evaluate a CUDA call; on failure record where and why in the context and
** return the matching status from the enclosing function. */
#define WM_CU(cx, call)                                                         \
    do {                                                                        \
        cudaError_t wm_e_ = (call);                                             \
        if (wm_e_ != cudaSuccess) return wm_cuda_fail((cx), wm_e_, #call);      \
    } while (0)

wm_status wm_cuda_fail(wm_context_t *cx, cudaError_t e, const char *what);

/* Where a kernel writes its hits. key = (global end << 1) | strand. When more
** than cap hits are found, *count still counts them all: the caller grows the
** buffers and runs the batch again. */
typedef struct {
    unsigned long long *keys;
    uint32_t *errors;
    unsigned long long *count;
    uint64_t cap;
} wm_cu_hits_t;

/* A batch of text on the device: text[0] is global offset `base`; ends e with
** own_from < e <= n (local) are reported; bytes before own_from are the halo.
** The buffer is readable up to n + WM_CU_PAD bytes (kernels read whole tiles). */
typedef struct {
    const uint8_t *text;
    uint64_t n;
    uint64_t own_from;
    uint64_t base;
} wm_cu_text_t;

#define WM_CU_PAD 4096

/* Append one hit. The lanes of a warp that report at the same moment share
** one atomic (a warp-aggregated atomic): with dense matches a single counter
** would otherwise serialise every hit. */
__device__ __forceinline__ void wm_cu_push(const wm_cu_hits_t &o, uint64_t base, uint64_t e_local,
                                           uint32_t strand, uint32_t errors) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(o.count, (unsigned long long)g.size());
    unsigned long long i = g.shfl(first, 0) + g.thread_rank();
    if (i < o.cap) {
        o.keys[i] = ((unsigned long long)(base + e_local) << 1) | strand;
        o.errors[i] = errors;
    }
}

/* The errors value of a hit found by a suffix filter: a candidate end that
** the host verifies against the whole pattern (see wm_cu_plan_t.filter). */
#define WM_CU_CANDIDATE 0xffffffffu

/* Append the hits of one 16-byte group that starts at local offset p: bit j
** of mask = an end at p + j + 1, its errors in byte j of err[] (or every hit a
** candidate). Lanes with hits share one atomic per warp. */
__device__ __forceinline__ void wm_cu_push_group(const wm_cu_hits_t &o, uint64_t base, uint64_t p,
                                                 uint32_t mask, const uint32_t err[4], uint32_t strand,
                                                 bool candidate) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    uint32_t n = __popc(mask);
    uint32_t before = cg::exclusive_scan(g, n);
    uint32_t total = g.shfl(before + n, g.size() - 1);
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(o.count, (unsigned long long)total);
    unsigned long long i = g.shfl(first, 0) + before;
    while (mask) {
        int j = __ffs(mask) - 1;
        mask &= mask - 1;
        if (i < o.cap) {
            o.keys[i] = ((unsigned long long)(base + p + j + 1) << 1) | strand;
            o.errors[i] = candidate ? WM_CU_CANDIDATE : (err[j >> 2] >> (8 * (j & 3))) & 0xffu;
        }
        i++;
    }
}

typedef enum {
    WM_CU_SHIFTOR = 0,     /* k = 0, any m: 32-position tail automaton + head check */
    WM_CU_BITAP = 1,       /* k = 1..4, m <= 64                                     */
    WM_CU_MYERS = 2,       /* edit, m <= 64                                         */
    WM_CU_MYERS_BLOCKS = 3 /* edit, 64 < m <= WM_CU_MAX_BLOCKS * 64, banded          */
} wm_cu_kernel_t;

#define WM_CU_MAX_BLOCKS 64
#define WM_CU_FILTER_MAX_K 8      /* beyond, a 32-position suffix filters too little */

/* A database made ready for the GPU. */
typedef struct {
    const wm_db_t *db;
    wm_cu_kernel_t kernel;
    uint32_t m, k, n_words, n_strands;
    int hamming;
    /* Suffix filter (k >= 1, m > 32, k small): the kernel runs on the last 32
    ** pattern positions; every occurrence within k errors contains its suffix
    ** within k errors, so the ends it finds are a superset: candidates the
    ** host verifies. */
    int filter;
    uint32_t km;             /* pattern length the kernel sees: 32 with the filter, else m */
    uint64_t khalo;          /* the kernel's halo: km + k - 1 (edit) or km - 1              */
    /* device tables, per strand */
    uint32_t *d_tail;        /* SHIFTOR: 256 Shift-Or masks of the last min(m,32) positions */
    uint64_t *d_peq;         /* 256 * n_words Shift-And masks (1 = match)                  */
    uint64_t *d_kpeq;        /* what the k >= 1 kernels read: d_peq, or the suffix's masks  */
    uint32_t kwords;         /* words per byte in d_kpeq                                    */
} wm_cu_plan_t;

/* 1 when the GPU can run this database (else the driver runs it on the CPU). */
int wm_cu_plan_supported(const wm_db_t *db);
wm_status wm_cu_plan_make(wm_context_t *cx, const wm_db_t *db, wm_cu_plan_t *plan);
void wm_cu_plan_free(wm_cu_plan_t *plan);

/* Launch the plan's kernels over one batch, all strands, on `stream`.
** sm_count sizes the persistent grids. */
wm_status wm_cu_plan_launch(wm_context_t *cx, const wm_cu_plan_t *plan, const wm_cu_text_t *t,
                            const wm_cu_hits_t *hits, int sm_count, cudaStream_t stream);

/* Kernel launchers, one per algorithm file. */
cudaError_t wm_cu_shiftor_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                                 const wm_cu_hits_t *h, int sm_count, cudaStream_t s);
cudaError_t wm_cu_bitap_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                               const wm_cu_hits_t *h, int sm_count, cudaStream_t s);
cudaError_t wm_cu_myers_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                               const wm_cu_hits_t *h, int sm_count, cudaStream_t s);

/* How many bytes of owned text one lane scans in the segment kernels (bitap,
** myers): long enough that the halo each segment re-reads stays small. */
static inline uint64_t wm_cu_segment_bytes(uint64_t halo) {
    uint64_t s = 4 * halo + 256;
    if (s < 512) s = 512;
    return (s + 15) & ~(uint64_t)15;
}

#endif
