/*
** device.cu -- finding GPUs, describing them, the per-context GPU state (the
** device, its streams), buffers that grow, and CUDA errors turned into
** statuses and words.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_common.cuh"

extern "C" int wm_cuda_built(void) { return 1; }

extern "C" int wm_cuda_device_count(void) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no device: clear the sticky-free error */
        return 0;
    }
    return n;
}

extern "C" wm_status wm_cuda_device_info(int i, char *name, size_t name_len, uint64_t *total_mem,
                                         uint64_t *free_mem, int *sm_count) {
    int n = wm_cuda_device_count();
    if (i < 0 || i >= n) return WM_INVALID;
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) return WM_DEVICE;
    if (name && name_len) snprintf(name, name_len, "%s", p.name);
    if (sm_count) *sm_count = p.multiProcessorCount;
    if (total_mem) *total_mem = p.totalGlobalMem;
    if (free_mem) {
        size_t f = 0, t = 0;
        int prev = 0;
        cudaGetDevice(&prev);
        if (cudaSetDevice(i) == cudaSuccess && cudaMemGetInfo(&f, &t) == cudaSuccess) *free_mem = f;
        else *free_mem = 0;
        cudaSetDevice(prev);
    }
    return WM_OK;
}

wm_status wm_cuda_fail(wm_context_t *cx, cudaError_t e, const char *what) {
    wm_status st = e == cudaErrorMemoryAllocation                               ? WM_DEVICE_NOMEM
                   : e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? WM_NO_DEVICE
                                                                                : WM_DEVICE;
    wm_context_set_error(cx, "CUDA: %s (%s) in %s", cudaGetErrorString(e), cudaGetErrorName(e),
                         what);
    cudaGetLastError(); /* clear a non-sticky error so later calls can run */
    return st;
}

extern "C" wm_status wm_cuda_context_init(wm_context_t *cx) {
    int n = wm_cuda_device_count();
    if (n == 0) {
        wm_context_set_error(cx, "no CUDA GPU found");
        return WM_NO_DEVICE;
    }
    if (cx->opts.device >= n) {
        wm_context_set_error(cx, "GPU %d asked for, but %d found", cx->opts.device, n);
        return WM_NO_DEVICE;
    }
    wm_cuda_state *cs = (wm_cuda_state *)calloc(1, sizeof *cs);
    if (!cs) return WM_NOMEM;
    cx->cuda = cs;
    cs->device = cx->opts.device;
    WM_CU(cx, cudaSetDevice(cs->device));
    cudaDeviceProp p;
    WM_CU(cx, cudaGetDeviceProperties(&p, cs->device));
    cs->sm_count = p.multiProcessorCount;
    snprintf(cs->name, sizeof cs->name, "%s", p.name);
    for (int i = 0; i < WM_CU_STREAMS; i++)
        WM_CU(cx, cudaStreamCreateWithFlags(&cs->stream[i], cudaStreamNonBlocking));
    return WM_OK;
}

extern "C" void wm_cuda_context_bind(wm_context_t *cx) {
    if (cx && cx->cuda) cudaSetDevice(cx->cuda->device);
}

extern "C" void wm_cuda_context_free(wm_context_t *cx) {
    wm_cuda_state *cs = cx->cuda;
    if (!cs) return;
    cudaSetDevice(cs->device);
    for (int i = 0; i < WM_CU_STREAMS; i++)
        if (cs->stream[i]) cudaStreamDestroy(cs->stream[i]);
    free(cs);
    cx->cuda = NULL;
}

/* ---- buffers that grow ------------------------------------------------------- */

/* Grow b to hold bytes: device memory, or pinned host memory. */
static wm_status reserve(wm_context_t *cx, wm_cu_buf_t *b, size_t bytes, int pinned) {
    if (b->cap >= bytes && b->p) return WM_OK;
    if (pinned) cudaFreeHost(b->p);
    else cudaFree(b->p);
    b->p = NULL;
    b->cap = 0;
    size_t n = bytes ? bytes : 16;
    uint64_t limit = cx->tuning.gpu_alloc_limit;
    if (limit && n > limit) /* a full GPU, played (core/tuning.h) */
        return wm_cuda_fail(cx, cudaErrorMemoryAllocation,
                            pinned ? "cudaMallocHost" : "cudaMalloc");
    WM_CU(cx, pinned ? cudaMallocHost(&b->p, n) : cudaMalloc(&b->p, n));
    b->cap = bytes;
    return WM_OK;
}

wm_status wm_cu_dev_reserve(wm_context_t *cx, wm_cu_buf_t *b, size_t bytes) {
    return reserve(cx, b, bytes, 0);
}

wm_status wm_cu_host_reserve(wm_context_t *cx, wm_cu_buf_t *b, size_t bytes) {
    return reserve(cx, b, bytes, 1);
}

void wm_cu_dev_release(wm_cu_buf_t *b) {
    cudaFree(b->p);
    b->p = NULL;
    b->cap = 0;
}

void wm_cu_host_release(wm_cu_buf_t *b) {
    cudaFreeHost(b->p);
    b->p = NULL;
    b->cap = 0;
}

/* ---- targets kept on the device (core/target.c) --------------------------------- */

/* The upload: the text with WM_CU_PAD bytes after it (zeroed: the kernels
** read whole tiles past a piece's end, and initcheck wants those bytes
** defined), through the copy the runtime stages itself (pageable memory;
** once a target, so not worth pinned buffers). Out of memory, or over
** tuning.gpu_alloc_limit, is not an error: the target stays on the host. */
static wm_status target_upload(wm_context_t *cx, wm_target *t) {
    uint64_t n = t->text.len + WM_CU_PAD;
    uint64_t limit = cx->tuning.gpu_alloc_limit;
    double t0 = wm_now();
    void *d = NULL;
    cudaError_t e = limit && n > limit ? cudaErrorMemoryAllocation : cudaMalloc(&d, n);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError(); /* not sticky: clear it */
        t->dev_failed = 1;
        snprintf(cx->note, sizeof cx->note,
                 "the target (%llu bytes) does not fit on GPU %d: it is copied at each call",
                 (unsigned long long)t->text.len, cx->opts.device);
        return WM_OK;
    }
    WM_CU(cx, e);
    t->dev = d;
    uint8_t *b = (uint8_t *)d;
    WM_CU(cx, cudaMemcpy(b, t->text.seq, t->text.len, cudaMemcpyHostToDevice));
    WM_CU(cx, cudaMemset(b + t->text.len, 0, WM_CU_PAD));
    cx->stats.gpu_target_uploads++;
    cx->stats.gpu_target_upload_s += wm_now() - t0;
    return WM_OK;
}

extern "C" const uint8_t *wm_cuda_target_view(wm_context_t *cx, const uint8_t *p, uint64_t n) {
    wm_target *t = cx->resident;
    if (!t || !cx->cuda || t->cx != cx || t->dev_failed) return NULL;
    const uint8_t *host = t->text.seq;
    if (p < host || n > t->text.len || (uint64_t)(p - host) > t->text.len - n) return NULL;
    if (!t->dev) {
        if (target_upload(cx, t) != WM_OK) { /* a device error: copy as usual, said once */
            if (t->dev) cudaFree(t->dev);
            t->dev = NULL;
            t->dev_failed = 1;
            return NULL;
        }
        if (!t->dev) return NULL;
    }
    return (const uint8_t *)t->dev + (p - host);
}

extern "C" void wm_cuda_target_release(wm_target *t) {
    if (!t->dev) return;
    wm_cuda_context_bind(t->cx);
    cudaFree(t->dev);
    t->dev = NULL;
}

/* ---- dynamic shared memory limits ---------------------------------------------- */

typedef struct {
    const void *kernel;
    int device;
    size_t bytes;
} smem_limit_t;

static pthread_mutex_t smem_mu = PTHREAD_MUTEX_INITIALIZER;
static smem_limit_t smem_set[512];
static int smem_n;

cudaError_t wm_cu_allow_smem(const void *kernel, size_t bytes) {
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    pthread_mutex_lock(&smem_mu);
    smem_limit_t *hit = NULL;
    for (int i = 0; i < smem_n && !hit; i++)
        if (smem_set[i].kernel == kernel && smem_set[i].device == dev) hit = &smem_set[i];
    if (!hit || hit->bytes < bytes) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
        if (e == cudaSuccess && hit) hit->bytes = bytes;
        else if (e == cudaSuccess && smem_n < (int)(sizeof smem_set / sizeof *smem_set))
            smem_set[smem_n++] = (smem_limit_t){ kernel, dev, bytes };
    }
    pthread_mutex_unlock(&smem_mu);
    return e;
}
