/*
** state.cuh -- the CUDA backend's per-context state: one "slot" per stream,
** each with its own device text buffer, hit buffers and sort space, so that
** while one batch is searched the next one is copied in.
*/
#ifndef WM_CUDA_STATE_CUH
#define WM_CUDA_STATE_CUH

#include "cuda/cuda_common.cuh"

#define WM_CU_STREAMS 3

typedef struct {
    cudaStream_t stream;
    uint8_t *d_text;                 /* batch + halo + WM_CU_PAD           */
    uint64_t text_cap;
    uint8_t *h_stage;                /* pinned staging, when the host text
                                        could not be registered            */
    unsigned long long *d_keys, *d_keys_out;
    uint32_t *d_err, *d_err_out;
    uint64_t hit_cap;
    void *d_sort_tmp;
    size_t sort_tmp_bytes;
    unsigned long long *d_count;
    unsigned long long *h_count;     /* pinned                              */
    wm_hit_t *h_hits;                /* pinned, hit_cap entries             */
    unsigned long long *h_keys;      /* pinned                              */
    uint32_t *h_err;                 /* pinned                              */
    /* the batch this slot holds */
    uint64_t own_begin, own_end;     /* global ends (own_begin, own_end]    */
    uint64_t copy_begin;             /* global offset of d_text[0]          */
    int busy;
} wm_cu_slot_t;

struct wm_cuda_state {
    int device;
    int sm_count;
    char name[256];
    wm_cu_slot_t slot[WM_CU_STREAMS];
    /* dtw's device buffers, kept between calls (src/dtw/sdtw_cuda.cu) */
    void *dtw;
    void (*dtw_free)(void *);
};

void wm_cu_slot_release(wm_cu_slot_t *s);

#endif
