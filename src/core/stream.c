/*
** stream.c -- the streaming search (wm_stream_*): blocks fed one after
** another are searched as one text, with the matches wm_search would give
** on their concatenation, at offsets in the whole stream.
**
** The carry-over is the planner's rule (core/plan.h) applied in time rather
** than space: a match ending at e depends only on the halo + 1 bytes before
** e, so each feed owns the ends inside its block, lo < e <= lo + len (lo =
** the bytes fed before it), and needs the halo bytes before lo. The stream
** keeps those in `seam` and searches a block in two parts:
**
**   the seam:  the kept tail + the block's first min(halo, len) bytes,
**              copied together, owning the ends in those first bytes;
**   the body:  the block where it lies, owning its ends after `halo` bytes
**              (each has its halo inside the block).
**
** Both go through wm_scan_owned, so every family, backend and device list
** searches them as it searches any part of a text; nothing here knows an
** algorithm. The seam's matches all end before the body's, so they come out
** in wm_search's order.
*/
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/plan.h"

struct wm_stream {
    uint32_t magic;
    wm_context_t *cx;
    const wm_db_t *db;
    wm_match_cb cb;
    void *user;
    uint64_t fed;    /* bytes fed so far: the absolute offset of the next one */
    uint64_t halo;   /* db->halo */
    uint8_t *seam;   /* 2 * halo bytes: the kept tail, then a block's head */
    uint64_t n_tail; /* the kept tail: seam[0, n_tail), min(halo, fed) bytes */
    wm_status state; /* WM_OK, or what ended the stream (WM_STOPPED, an error) */
    int closed;
    int busy; /* inside a feed: cb must not re-enter */
};
#define WM_STREAM_MAGIC 0x776d7374u /* "wmst" */

/* A part being searched: where its offset 0 lies in the stream. */
typedef struct {
    const wm_stream_t *st;
    uint64_t base;
} part_t;

/* Matches of a part, moved to stream offsets, to the caller's callback. */
static int deliver(const wm_match_t *m, void *user) {
    const part_t *p = user;
    wm_match_t out = *m;
    out.record = 0;
    out.start += p->base;
    out.end += p->base;
    return p->st->cb(&out, p->st->user);
}

/* Search text (stream offset base) for its ends after own_from. */
static wm_status search_part(wm_stream_t *st, const uint8_t *seq, uint64_t len, uint64_t base,
                             uint64_t own_from) {
    if (len <= own_from) return WM_OK;
    wm_text_t t = { seq, len, NULL, 0 };
    part_t p = { st, base };
    return wm_scan_owned(st->cx, st->db, &t, own_from, deliver, &p, NULL, NULL);
}

wm_status wm_stream_open(wm_context_t *cx, const wm_db_t *db, wm_match_cb cb, void *user,
                         wm_stream_t **out) {
    if (out) *out = NULL;
    if (!wm_context_ok(cx) || !db || db->magic != WM_DB_MAGIC || !cb || !out) return WM_INVALID;
    /* The halo is under WM_MAX_PATTERN + k (k < m): the seam is small. */
    wm_stream_t *st = calloc(1, sizeof *st);
    if (!st) return WM_NOMEM;
    st->seam = malloc(db->halo ? 2 * db->halo : 1);
    if (!st->seam) {
        free(st);
        return WM_NOMEM;
    }
    st->magic = WM_STREAM_MAGIC;
    st->cx = cx;
    st->db = db;
    st->cb = cb;
    st->user = user;
    st->halo = db->halo;
    st->state = WM_OK;
    *out = st;
    return WM_OK;
}

/* After a feed of the stream's bytes [lo, fed) (block), keep what the next
** feed needs before its first end: the bytes from wm_plan_scan_from(0, fed,
** halo), the planner's rule for a part that starts at `fed`. */
static void keep_tail(wm_stream_t *st, const uint8_t *block, uint64_t lo) {
    uint64_t from = wm_plan_scan_from(0, st->fed, st->halo);
    if (from >= lo) { /* all in the block */
        memcpy(st->seam, block + (from - lo), st->fed - from);
    } else { /* a block shorter than the halo, all of it in the seam after the old tail */
        assert(st->fed - lo < st->halo);
        memmove(st->seam, st->seam + (from - (lo - st->n_tail)), st->fed - from);
    }
    st->n_tail = st->fed - from;
}

/* Why a stream cannot take a call now, or NULL. */
static const char *refused(const wm_stream_t *st) {
    if (st->busy) return "called from inside its own match callback";
    if (st->closed) return "the stream is closed";
    return NULL;
}

wm_status wm_stream_feed(wm_stream_t *st, const uint8_t *block, size_t len) {
    if (!st || st->magic != WM_STREAM_MAGIC) return WM_INVALID;
    const char *why = refused(st);
    if (why || (!block && len > 0)) {
        wm_context_set_error(st->cx, "wm_stream_feed: %s", why ? why : "block is NULL");
        return WM_INVALID;
    }
    if (st->state != WM_OK || len == 0) return st->state;
    wm_cuda_context_bind(st->cx);
    uint64_t lo = st->fed, head = len < st->halo ? len : st->halo;
    assert(lo - st->n_tail == wm_plan_scan_from(0, lo, st->halo));
    st->busy = 1;
    /* The seam: the tail and the head, owning the head's ends. */
    memcpy(st->seam + st->n_tail, block, head);
    wm_status rc = search_part(st, st->seam, st->n_tail + head, lo - st->n_tail, st->n_tail);
    /* The body: the block itself, owning its ends after the halo. */
    if (rc == WM_OK) rc = search_part(st, block, len, lo, st->halo);
    st->busy = 0;
    st->fed += len;
    keep_tail(st, block, lo);
    st->state = rc;
    return rc;
}

wm_status wm_stream_close(wm_stream_t *st) {
    if (!st || st->magic != WM_STREAM_MAGIC) return WM_INVALID;
    const char *why = refused(st);
    if (why) {
        wm_context_set_error(st->cx, "wm_stream_close: %s", why);
        return WM_INVALID;
    }
    /* Nothing is pending: every match was delivered by the feed of its end. */
    st->closed = 1;
    return st->state;
}

uint64_t wm_stream_offset(const wm_stream_t *st) {
    return st && st->magic == WM_STREAM_MAGIC ? st->fed : 0;
}

void wm_stream_free(wm_stream_t *st) {
    /* From inside its own callback the feed still uses it: refused (kept). */
    if (!st || st->magic != WM_STREAM_MAGIC || st->busy) return;
    st->magic = 0;
    free(st->seam);
    free(st);
}
