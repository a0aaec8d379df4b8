/*
** scan.c -- wm_search (and its runs, wm_search_batches), wm_count and
** wm_count_per_pattern: the arguments are checked here once, a context over
** several devices cuts the text (src/core/shard.c), and otherwise the
** database's family scans it. A caller that owns only the ends after some
** offset (an MPI rank, a streamed batch) scans through wm_scan_owned (or
** wm_scan_owned_batches), and counts with no correction
** (db->ops->scan: src/search/driver.c for one pattern, src/multi/driver.c
** for a set).
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/shard.h"

uint64_t *wm_text_record_starts(const wm_text_t *t, size_t *n_rec) {
    size_t n = t->rec_start && t->n_rec ? t->n_rec : 1;
    uint64_t *rs = malloc((n + 1) * sizeof *rs);
    if (!rs) return NULL;
    if (t->rec_start && t->n_rec) memcpy(rs, t->rec_start, n * sizeof *rs);
    else rs[0] = 0;
    rs[n] = t->len;
    *n_rec = n;
    return rs;
}

static wm_status check_call(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text) {
    if (!wm_context_ok(cx) || !db || db->magic != WM_DB_MAGIC || !text ||
        (!text->seq && text->len > 0) || (text->n_rec > 0 && !text->rec_start))
        return WM_INVALID;
    if (text->rec_start && text->n_rec) {
        for (size_t r = 0; r < text->n_rec; r++)
            if (text->rec_start[r] > text->len ||
                (r && text->rec_start[r] < text->rec_start[r - 1]))
                return WM_INVALID;
        if (text->rec_start[0] != 0) return WM_INVALID;
    }
    cx->errmsg[0] = 0;
    wm_cuda_context_bind(cx);
    return WM_OK;
}

wm_status wm_scan_owned(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                        uint64_t *per_pattern) {
    wm_status st = check_call(cx, db, text);
    if (st != WM_OK) return st;
    if (own_from > text->len) return WM_INVALID;
    if (per_pattern) memset(per_pattern, 0, db->n_patterns * sizeof *per_pattern);
    if (n_matches) *n_matches = 0;
    if (text->len == own_from) return WM_OK;
    if (cx->n_sub > 1) /* many devices: cut the owned ends among them */
        return wm_shard_text(cx, db, text, own_from, cb, user, n_matches, per_pattern);
    return db->ops->scan(cx, db, text, own_from, cb, user, n_matches, per_pattern);
}

/* Listing (cb) or counting (n_matches, per_pattern or NULL) of a whole text. */
static wm_status scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, wm_match_cb cb,
                      void *user, uint64_t *n_matches, uint64_t *per_pattern) {
    return wm_scan_owned(cx, db, text, 0, cb, user, n_matches, per_pattern);
}

wm_status wm_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, wm_match_cb cb,
                    void *user) {
    if (!cb) return WM_INVALID;
    return scan(cx, db, text, cb, user, NULL, NULL);
}

wm_status wm_scan_owned_batches(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                                uint64_t own_from, wm_matches_cb cb, void *user) {
    if (!cb) return WM_INVALID;
    wm_batcher_t *b = malloc(sizeof *b);
    if (!b) return WM_NOMEM;
    b->cb = cb;
    b->user = user;
    b->n = 0;
    wm_status st = wm_scan_owned(cx, db, text, own_from, wm_batcher_one, b, NULL, NULL);
    /* what was gathered before the end (or a failure) goes out; a stop was
    ** the caller's answer to the run it was given */
    if (st != WM_STOPPED && wm_batcher_flush(b) && st == WM_OK) st = WM_STOPPED;
    free(b);
    return st;
}

wm_status wm_search_batches(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                            wm_matches_cb cb, void *user) {
    return wm_scan_owned_batches(cx, db, text, 0, cb, user);
}

wm_status wm_count(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, uint64_t *n) {
    if (!n) return WM_INVALID;
    *n = 0;
    uint64_t count = 0;
    wm_status st = scan(cx, db, text, NULL, NULL, &count, NULL);
    if (st == WM_OK) *n = count;
    return st;
}

wm_status wm_count_per_pattern(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                               uint64_t *counts) {
    if (!counts) return WM_INVALID;
    uint64_t total = 0;
    return scan(cx, db, text, NULL, NULL, &total, counts);
}
