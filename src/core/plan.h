/*
** plan.h -- the one ownership planner: how any piece of work over a text
** (a CPU chunk, a GPU batch, a GPU shard, an MPI rank, a dtw piece) is cut,
** which end positions each part owns, and where its scan must begin.
**
** The rule every family relies on for exact results across cuts:
**
**   A part [lo, hi) of the text's bytes OWNS the end positions e with
**   lo < e <= hi: the matches whose last byte lies in [lo, hi). Parts of one
**   plan are disjoint and cover (from, to], so every end is owned once.
**
**   A match ending at e depends only on the `halo + 1` bytes before e inside
**   its record (halo = the longest occurrence - 1: m - 1 exact, m + k - 1
**   with k edits, the longest pattern - 1 for a set). So a part scans from
**
**       scan_from = max(record start, own_from - halo)
**
**   where own_from = max(lo, record start): never before its record's start
**   (matches never cross a record border), and ends <= own_from that the
**   scan meets are not the part's (another part owns them).
**
** Families state their halo; nothing here knows an algorithm. A family that
** also owns end 0 (align infix: an empty alignment at the target's start)
** gives it to the part with lo == from.
*/
#ifndef WM_CORE_PLAN_H
#define WM_CORE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A cut of the bytes [from, to) into n parts: `n` nearly equal parts
** (wm_plan_even: the first (to - from) % n of them one byte longer), or
** parts of `size` bytes, the last one shorter (wm_plan_sized). */
typedef struct {
    uint64_t from, to;
    uint64_t n;    /* parts: even, as asked (empty parts included);
                      sized, ceil((to - from) / size), 0 when
                      from == to */
    uint64_t size; /* sized plans: bytes per part; even: 0 */
} wm_plan_t;

/* n >= 1 parts of nearly equal size: with len = to - from, part i has
** len / n + (i < len % n) bytes, so parts are empty only when len < n (the
** last n - len of them). */
wm_plan_t wm_plan_even(uint64_t from, uint64_t to, uint64_t n);
/* parts of `size` >= 1 bytes. */
wm_plan_t wm_plan_sized(uint64_t from, uint64_t to, uint64_t size);
/* The bytes [*lo, *hi) of part i < p->n. */
void wm_plan_part(const wm_plan_t *p, uint64_t i, uint64_t *lo, uint64_t *hi);
/* The part that owns end e (from < e <= to). */
uint64_t wm_plan_owner(const wm_plan_t *p, uint64_t e);

/* Where a scan that owns ends after own_from must start: halo bytes before,
** never before rec_begin (own_from >= rec_begin). */
static inline uint64_t wm_plan_scan_from(uint64_t rec_begin, uint64_t own_from, uint64_t halo) {
    return own_from - rec_begin > halo ? own_from - halo : rec_begin;
}

/* ---- parts over a text of records ------------------------------------------
** rs: record starts, n_rec + 1 entries, rs[0] = 0, non-decreasing, rs[n_rec] =
** the text's length (empty records allowed). A part [lo, hi) meets the
** records that hold one of its ends; for each, a piece says what to scan. */
typedef struct {
    size_t rec;         /* record index */
    uint64_t scan_from; /* absolute: first byte the scan reads */
    uint64_t own_from;  /* absolute: ends e with own_from < e <= own_to */
    uint64_t own_to;    /*   are this piece's (own_to <= the record end) */
} wm_piece_t;

/* The record holding end e (rs[r] < e <= rs[r + 1]), for 0 < e <= rs[n_rec]:
** the last record that starts before e, so never an empty one (an empty
** record holds no end, wherever it lies). */
size_t wm_plan_record_of_end(const uint64_t *rs, size_t n_rec, uint64_t e);

/* Walk the pieces of part [lo, hi): start with *r = wm_plan_first_record(...)
** and call wm_plan_next_piece until it returns 0. Records that hold no end of
** the part (empty ones, those before lo or after hi) yield no piece.
** wm_plan_first_record gives the first record that ends after lo (n_rec when
** none does); pieces come in record order, and a part with lo == hi has none. */
size_t wm_plan_first_record(const uint64_t *rs, size_t n_rec, uint64_t lo);
int wm_plan_next_piece(const uint64_t *rs, size_t n_rec, uint64_t halo, uint64_t lo, uint64_t hi,
                       size_t *r, wm_piece_t *piece);

#ifdef __cplusplus
}
#endif
#endif
