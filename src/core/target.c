/*
** target.c -- targets kept on the GPU across calls (include/warpmatch.h).
** A target is the borrowed text and, once a call has run on the GPU, its
** device copy. The calls are the ordinary ones with the target marked as the
** context's resident text for their duration: the GPU code of each family
** asks wm_cuda_target_view for the device address of the bytes it was about
** to copy, and skips the copy when it gets one. So nothing here knows a
** family, and a call on the CPU, or on a context of several devices (whose
** sub-contexts have no resident text), is the ordinary call.
*/
#include <stdlib.h>

#include "core/internal.h"

static int target_ok(const wm_context_t *cx, const wm_target_t *t) {
    return wm_context_ok(cx) && t && t->magic == WM_TARGET_MAGIC && t->cx == cx;
}

wm_status wm_target_new(wm_context_t *cx, const wm_text_t *text, wm_target_t **out) {
    if (out) *out = NULL;
    if (!wm_context_ok(cx) || !text || !out || (text->len > 0 && !text->seq)) return WM_INVALID;
    wm_target_t *t = calloc(1, sizeof *t);
    if (!t) return WM_NOMEM;
    t->magic = WM_TARGET_MAGIC;
    t->cx = cx;
    t->text = *text;
    *out = t;
    return WM_OK;
}

wm_status wm_target_new_series(wm_context_t *cx, const double *series, uint64_t n,
                               wm_target_t **out) {
    if (out) *out = NULL;
    if (n > UINT64_MAX / sizeof(double)) return WM_INVALID;
    wm_text_t text = { (const uint8_t *)series, n * sizeof(double), NULL, 0 };
    wm_status st = wm_target_new(cx, &text, out);
    if (st == WM_OK) (*out)->series = 1;
    return st;
}

void wm_target_free(wm_target_t *t) {
    if (!t || t->magic != WM_TARGET_MAGIC) return;
    wm_cuda_target_release(t);
    t->magic = 0;
    free(t);
}

int wm_target_resident(const wm_target_t *t) {
    return t && t->magic == WM_TARGET_MAGIC && t->dev != NULL;
}

/* Run one call with t as the context's resident text. */
#define WITH_TARGET(cx, t, call)                                                                   \
    do {                                                                                           \
        if (!target_ok(cx, t)) return WM_INVALID;                                                  \
        wm_target_t *saved_ = wm_target_swap((cx), (t));                                           \
        wm_status st_ = (call);                                                                    \
        wm_target_swap((cx), saved_);                                                              \
        return st_;                                                                                \
    } while (0)

wm_status wm_search_target(wm_context_t *cx, const wm_db_t *db, const wm_target_t *t,
                           wm_match_cb cb, void *user) {
    WITH_TARGET(cx, (wm_target_t *)t, wm_search(cx, db, &t->text, cb, user));
}

wm_status wm_search_target_batches(wm_context_t *cx, const wm_db_t *db, const wm_target_t *t,
                                   wm_matches_cb cb, void *user) {
    WITH_TARGET(cx, (wm_target_t *)t, wm_search_batches(cx, db, &t->text, cb, user));
}

wm_status wm_count_target(wm_context_t *cx, const wm_db_t *db, const wm_target_t *t,
                          uint64_t *n_matches) {
    WITH_TARGET(cx, (wm_target_t *)t, wm_count(cx, db, &t->text, n_matches));
}

wm_status wm_align_target(wm_context_t *cx, const uint8_t *query, size_t m, const wm_target_t *t,
                          uint64_t from, uint64_t to, const wm_align_opts_t *o,
                          wm_alignments_t *out) {
    if (target_ok(cx, t) && (from > to || to > t->text.len)) {
        wm_context_set_error(cx, "bytes [%llu, %llu) are not within the target's %llu",
                             (unsigned long long)from, (unsigned long long)to,
                             (unsigned long long)t->text.len);
        return WM_INVALID;
    }
    WITH_TARGET(cx, (wm_target_t *)t,
                wm_align(cx, query, m, t->text.seq ? t->text.seq + from : NULL, to - from, o, out));
}
