/*
** search_cuda.cuh -- one pattern on the GPU: a batch of text on the device,
** the "plan" (the pattern's tables on the device plus the kernel choice) and
** the launchers of the kernels (shiftor.cu, bitap.cu, myers.cu), as the
** driver (search_cuda.cu) and the benchmark call them.
*/
#ifndef WM_SEARCH_SEARCH_CUDA_CUH
#define WM_SEARCH_SEARCH_CUDA_CUH

#include "cuda/cuda_common.cuh"
#include "search/search.h"

/* A batch of text on the device: text[0] is global offset `base`; ends e with
** own_from < e <= n (local) are reported; bytes before own_from are the halo.
** The buffer is readable up to n + WM_CU_PAD bytes (kernels read whole tiles). */
typedef struct {
    const uint8_t *text;
    uint64_t n;
    uint64_t own_from;
    uint64_t base;
} wm_cu_text_t;

typedef enum {
    WM_CU_SHIFTOR = 0,     /* k = 0, any m: 32-position tail automaton + head check */
    WM_CU_BITAP = 1,       /* k = 1..4, m <= 64 */
    WM_CU_MYERS = 2,       /* edit, m <= 64 */
    WM_CU_MYERS_BLOCKS = 3 /* edit, 64 < m <= WM_CU_MAX_BLOCKS * 64, banded */
} wm_cu_kernel_t;

#define WM_CU_MAX_BLOCKS 64
#define WM_CU_FILTER_MAX_K 8 /* beyond, a 32-position suffix filters too little */

/* A database made ready for the GPU. */
typedef struct {
    const wm_pat_t *pat;
    wm_cu_kernel_t kernel;
    uint32_t m, k, n_words, n_strands;
    int hamming;
    /* Suffix filter (k >= 1, m > 32, k small): the kernel runs on the last 32
    ** pattern positions; every occurrence within k errors contains its suffix
    ** within k errors, so the ends it finds are a superset: candidates the
    ** host verifies. */
    int filter;
    uint32_t km;    /* pattern length the kernel sees: 32 with the filter, else m */
    uint64_t khalo; /* the kernel's halo: km + k - 1 (edit) or km - 1 */
    /* device tables, per strand */
    uint32_t *d_tail; /* SHIFTOR: 256 Shift-Or masks of the last min(m,32) positions */
    uint64_t *d_peq;  /* 256 * n_words Shift-And masks (1 = match) */
    uint64_t *d_kpeq; /* what the k >= 1 kernels read: d_peq, or the suffix's masks */
    uint32_t kwords;  /* words per byte in d_kpeq */
} wm_cu_plan_t;

/* 1 when the GPU can run this database (else the driver runs it on the CPU). */
int wm_cu_plan_supported(const wm_pat_t *pat);
wm_status wm_cu_plan_make(wm_context_t *cx, const wm_pat_t *pat, wm_cu_plan_t *plan);
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
