/*
** device.cuh -- a context's GPU (src/cuda/device.cu): the device, its
** streams, and buffers that grow and are kept between calls. Families keep
** their own device buffers in their cache slot of the context, as
** wm_cu_buf_t, and release them in their free_cache.
*/
#ifndef WM_CUDA_DEVICE_CUH
#define WM_CUDA_DEVICE_CUH

#include <cuda_runtime.h>
#include <stddef.h>

#include "core/internal.h"

#define WM_CU_STREAMS 3

struct wm_cuda_state {
    int device;
    int sm_count;
    char name[256];
    cudaStream_t stream[WM_CU_STREAMS]; /* non-blocking; stream[0] serves
                                           calls that need only one */
};

/* A buffer that only grows: device memory (wm_cu_dev_reserve) or pinned
** host memory (wm_cu_host_reserve). Its contents do not survive a growth. */
typedef struct {
    void *p;
    size_t cap;
} wm_cu_buf_t;

/* Make b hold at least bytes (reallocating without copying when it is
** smaller); the error in cx's message. */
wm_status wm_cu_dev_reserve(wm_context_t *cx, wm_cu_buf_t *b, size_t bytes);
wm_status wm_cu_host_reserve(wm_context_t *cx, wm_cu_buf_t *b, size_t bytes);
void wm_cu_dev_release(wm_cu_buf_t *b);
void wm_cu_host_release(wm_cu_buf_t *b);

#endif
