/*
** sdtw_cuda_stub.c -- the GPU DTW entry points of a build without CUDA. A
** context can only have the CUDA backend when CUDA is built, so these are
** never reached; they answer as the rest of the library does.
*/
#include "dtw/sdtw_cuda.h"

#if !WM_HAVE_CUDA
static wm_status no_cuda(wm_context_t *cx) {
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
wm_status wm_sdtw_cuda_best(wm_context_t *cx, const wm_sdtw_job_t *j, wm_sdtw_best_t *best) {
    (void)j; (void)best;
    return no_cuda(cx);
}
wm_status wm_sdtw_cuda_best_many(wm_context_t *cx, const wm_sdtw_job_t *j, size_t nq,
                                 wm_sdtw_best_t *best) {
    (void)j; (void)nq; (void)best;
    return no_cuda(cx);
}
wm_status wm_sdtw_cuda_row(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v, uint64_t *row_s) {
    (void)j; (void)row_v; (void)row_s;
    return no_cuda(cx);
}
wm_status wm_sdtw_cuda_corner_tracked(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner,
                                      uint64_t *start) {
    (void)j; (void)corner; (void)start;
    return no_cuda(cx);
}
wm_status wm_sdtw_cuda_corner(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner) {
    (void)j; (void)corner;
    return no_cuda(cx);
}
#endif
