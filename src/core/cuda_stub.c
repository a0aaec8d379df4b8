/*
** cuda_stub.c -- the CUDA entry points of a build without CUDA: they say so.
*/
#include "core/internal.h"
#include "core/msearch.h"
#include "align/align.h"
#include "align/fr.h"

#if !WM_HAVE_CUDA
int wm_cuda_built(void) { return 0; }
int wm_cuda_device_count(void) { return 0; }
wm_status wm_cuda_device_info(int i, char *name, size_t name_len, uint64_t *total_mem,
                              uint64_t *free_mem, int *sm_count) {
    (void)i; (void)name; (void)name_len; (void)total_mem; (void)free_mem; (void)sm_count;
    return WM_UNSUPPORTED;
}
wm_status wm_cuda_context_init(wm_context_t *cx) {
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
void wm_cuda_context_free(wm_context_t *cx) { (void)cx; }
void wm_cuda_context_bind(wm_context_t *cx) { (void)cx; }
int wm_cuda_supports(const wm_db_t *db) { (void)db; return 0; }
wm_status wm_cuda_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                         wm_hit_batch_fn sink, void *user) {
    (void)db; (void)text; (void)sink; (void)user;
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
int wm_cuda_mset_supports(const wm_db_t *db) { (void)db; return 0; }
wm_status wm_cuda_mset_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                              wm_mhit_batch_fn sink, void *user, uint64_t *uid_counts,
                              uint64_t *total) {
    (void)db; (void)text; (void)sink; (void)user; (void)uid_counts; (void)total;
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
wm_status wm_cuda_infix(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                        wm_align_algo_t algo, int64_t limit, int64_t report_le,
                        wm_endvec_t *ends, wm_best_t *best) {
    (void)aq; (void)t; (void)n; (void)algo; (void)limit; (void)report_le; (void)ends; (void)best;
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
wm_status wm_cuda_global(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                         int64_t limit, uint64_t *d) {
    (void)aq; (void)y; (void)n; (void)limit; (void)d;
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
wm_status wm_cuda_global_dp(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                            int64_t limit, uint64_t *d) {
    return wm_cuda_global(cx, aq, y, n, limit, d);
}
wm_status wm_cuda_global_fr(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                            const wm_fr_table_t *tab, int64_t limit, uint64_t *d) {
    (void)tab;
    return wm_cuda_global(cx, aq, y, n, limit, d);
}
void wm_cuda_fr_table_free(wm_fr_table_t *tab) { (void)tab; }
wm_status wm_cuda_global_ckpts(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                               uint64_t d, const wm_tb_plan_t *plan, wm_tb_ckpts_t *ck) {
    (void)aq; (void)y; (void)n; (void)d; (void)plan; (void)ck;
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
wm_status wm_cuda_pairs(wm_context_t *cx, const wm_pair_t *pairs, const size_t *idx, size_t n_idx,
                        const wm_align_opts_t *o, wm_alignment_t *out) {
    (void)pairs; (void)idx; (void)n_idx; (void)o; (void)out;
    wm_context_set_error(cx, "this warpmatch was built without CUDA");
    return WM_UNSUPPORTED;
}
#endif
