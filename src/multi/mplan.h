/*
** mplan.h -- a set made ready for the GPU (multi_cuda.cu): the device
** tables of the kernel chosen for it, and that kernel's launcher. The
** benchmark uses it too, to time kernels over a text already on the device.
*/
#ifndef WM_MULTI_MPLAN_H
#define WM_MULTI_MPLAN_H

#include "core/internal.h"
#include "multi/mcuda.h"

typedef struct {
    wm_cu_mplan_t p;
    wm_algo_t algo; /* the kernel: QGRAM, PFAC, AC or WUMANBER_PAPER */
    wm_cu_mlaunch_fn launch;
    void *allocs[32]; /* device memory to free */
    int n_allocs;
} wm_cu_mplan_host_t;

wm_status wm_cu_mplan_make(wm_context_t *cx, const wm_mset_t *s, wm_cu_mplan_host_t *plan);
void wm_cu_mplan_free(wm_cu_mplan_host_t *plan);

#endif
