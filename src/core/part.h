/*
** part.h -- a text's owned ends (lo, hi] scanned as their own call, with
** the matches in the whole text's coordinates (src/core/part.c).
**
** The layout is core/plan.h's rule: the part scans the records that hold
** its ends, the first one from `halo` bytes before lo (never before the
** record's start), and tells the family that the ends up to lo are not its
** own. So the parts of a cut, scanned one after another and their matches
** concatenated (their counts added), give byte for byte what one scan of the
** whole text gives. Used by core/shard.c (a part a device, at once) and by
** the tool's start-up cover (a part at a time, on whichever context is
** ready: cli/search_cover.c).
*/
#ifndef WM_CORE_PART_H
#define WM_CORE_PART_H

#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t lo, hi; /* owned ends: lo < e <= hi (absolute) */
    uint64_t w_lo;   /* the part's text is seq[w_lo, hi) */
    size_t r0;       /* the global index of its first record */
    uint64_t clip;   /* w_lo - start of record r0: the offset of local
                        record 0 in its record */
    uint64_t *rs;    /* its record starts, from w_lo (owned, wm_part_free) */
    wm_text_t text;  /* the part's text: what the family scans */
} wm_part_t;

/* Lay out part [lo, hi) of text t, whose record starts are rs (n_rec + 1 of
** them, wm_text_record_starts), for a database of this halo. lo == hi lays
** out nothing (the part owns no end). Returns 0, or -1 out of memory. */
int wm_part_layout(wm_part_t *p, const wm_text_t *t, const uint64_t *rs, size_t n_rec, uint64_t lo,
                   uint64_t hi, uint64_t halo);
void wm_part_free(wm_part_t *p);

/* A match of the part's text in the whole text's coordinates. Only local
** record 0 starts before the part (in its halo) and is clipped. */
static inline wm_match_t wm_part_to_global(const wm_part_t *p, const wm_match_t *m) {
    wm_match_t g = *m;
    g.record = p->r0 + m->record;
    if (m->record == 0) {
        g.start += p->clip;
        g.end += p->clip;
    }
    return g;
}

/* Scan part p (laid out over the text being searched) on cx: listing in
** runs (runs != NULL: the part's matches, in order, in the whole text's
** coordinates, through runs(m, n, user), which returns non-zero to stop:
** WM_STOPPED), or counting (*n_matches; per_pattern, when not NULL, zeroed
** here, one entry a pattern of db). A part that owns nothing is WM_OK with
** nothing listed or counted. */
wm_status wm_part_scan(wm_context_t *cx, const wm_db_t *db, const wm_part_t *p, wm_matches_cb runs,
                       void *user, uint64_t *n_matches, uint64_t *per_pattern);

#ifdef __cplusplus
}
#endif
#endif
