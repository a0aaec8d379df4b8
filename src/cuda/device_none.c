/*
** device_none.c -- the GPU device layer of a build without CUDA: no GPU is
** ever found, and a context that asks for one is told why. (With CUDA,
** device.cu takes its place; the families then have GPU tables too.)
*/
#include "core/internal.h"

int wm_cuda_built(void) { return 0; }

int wm_cuda_device_count(void) { return 0; }

wm_status wm_cuda_device_info(int i, char *name, size_t name_len, uint64_t *total_mem,
                              uint64_t *free_mem, int *sm_count) {
    (void)i;
    (void)name;
    (void)name_len;
    (void)total_mem;
    (void)free_mem;
    (void)sm_count;
    return WM_UNSUPPORTED;
}

wm_status wm_cuda_context_init(wm_context_t *cx) {
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}

void wm_cuda_context_free(wm_context_t *cx) { (void)cx; }

void wm_cuda_context_bind(wm_context_t *cx) { (void)cx; }

const uint8_t *wm_cuda_target_view(wm_context_t *cx, const uint8_t *p, uint64_t n) {
    (void)cx;
    (void)p;
    (void)n;
    return NULL;
}

void wm_cuda_target_release(struct wm_target *t) { (void)t; }
