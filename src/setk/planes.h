/*
** planes.h -- what planes.c shares with its vector variant (planes_avx512.c):
** a pattern and strand's masks, a tile of windows, and the pair test over a
** tile. Private to src/setk.
*/
#ifndef WM_SETK_PLANES_H
#define WM_SETK_PLANES_H

#include <string.h>

#include "setk/setk.h"

/* One pattern and strand: its masks, and which positions are the middle. */
typedef struct {
    uint64_t accept[4]; /* bit i: position i accepts base b (A, C, G, T) */
    uint64_t middle;    /* the positions counted as errors */
    uint64_t region;    /* the exact ones */
    uint32_t pat, strand, m;
} entry_t;

/* The windows of a group that passed its regions, tried against the group's
** patterns a pattern at a time: a pattern's masks stay in registers while
** the tile's windows (in L1) go by. Trying each window against every
** pattern instead read the patterns' masks (80 bytes each, 800 KB for
** 10,000 guides) once a window: 29 s for 10,000 guides on 16 threads. */
#define TILE 512

typedef struct {
    uint64_t w[4][TILE]; /* the window's bits on each base plane */
    uint64_t end[TILE];  /* its end, absolute */
    size_t n;
} tile_t;

/* A match of entry p in the window ending at end (absolute; record rec
** starts at rb). 0, or -1 out of memory. */
static inline int planes_push(wm_matchvec_t *out, const entry_t *p, uint64_t end, size_t rec,
                              uint64_t rb, uint32_t errors) {
    wm_match_t mt;
    memset(&mt, 0, sizeof mt);
    mt.record = rec;
    mt.start = end - p->m - rb;
    mt.end = end - rb;
    mt.errors = errors;
    mt.strand = p->strand;
    mt.pattern = p->pat;
    return wm_matchvec_push(out, &mt);
}

/* A group's pigeonhole index (planes_index.c). A window within k mismatches
** of a pattern matches one of any k + 1 disjoint blocks of the middle
** exactly, so it is tried only against the patterns listed under its
** blocks' keys (a block of w bases: 2w bits), about (k + 1) n / 4^w pairs a
** window instead of the group's n: 10,000 guides at k = 4 in blocks of 4
** bases, 195 instead of 10,000. A pattern is listed once a block under
** every key its bases accept (IUPAC codes: several); one whose block
** accepts more than IX_MAX_KEYS is left to the tile (loose). */
#define IX_MAX_W 6
#define IX_MAX_BLOCKS 65 /* k + 1 <= m <= 64 */
#define IX_MAX_KEYS 16

typedef struct {
    uint32_t n_blocks, w;
    uint32_t at[IX_MAX_BLOCKS];    /* block b's first position */
    uint64_t bmask[IX_MAX_BLOCKS]; /* its positions */
    uint64_t middle;               /* the group's middle (every entry's) */
    uint32_t *off;                 /* [n_blocks * 4^w + 1]: slots of (block, key) */
    uint64_t *acc[4];              /* a slot's pattern masks (accept[b]) */
    uint32_t *entry;               /* its entry (index in the entries) */
} ix_t;

/* Block b's key in a window (its 2w bits: base bit 0 then base bit 1), or
** -1 where a byte of the block is no base (nothing matches it exactly). */
static inline int64_t ix_key(const uint64_t w[4], uint32_t at, uint32_t wd) {
    uint64_t mask = (1ull << wd) - 1;
    if ((((w[0] | w[1] | w[2] | w[3]) >> at) & mask) != mask) return -1;
    uint64_t lo = ((w[1] | w[3]) >> at) & mask, hi = ((w[2] | w[3]) >> at) & mask;
    return (int64_t)(lo | hi << wd);
}

/* Whether a block before b is matched whole by hit (the pair was found
** there first: each pair is reported from its first exact block only). */
static inline int ix_seen(const ix_t *ix, uint32_t b, uint64_t hit) {
    for (uint32_t q = 0; q < b; q++)
        if ((hit & ix->bmask[q]) == ix->bmask[q]) return 1;
    return 0;
}

/* The index of entries [first, last) (one group), and which of them it
** leaves loose (*loose: 1 for each, in an array of last - first), or NULL:
** the group is not worth one (rule: planes_index in wm_tuning_t) or *failed
** (out of memory). */
ix_t *wm_setk_ix_new(const entry_t *first, const entry_t *last, uint32_t k, int rule,
                     uint8_t *loose, int *failed);
void wm_setk_ix_free(ix_t *ix);

/* The window w (ending at end) against the index's patterns: a match for each
** within k, into out. 0, or -1 out of memory. Three builds, as the tile's. */
int wm_setk_ix_probe(const ix_t *ix, const entry_t *e, const uint64_t w[4], uint64_t end,
                     size_t rec, uint64_t rb, uint32_t k, int popcnt, wm_matchvec_t *out);
int wm_setk_ix_probe_avx512(const ix_t *ix, const entry_t *e, const uint64_t w[4], uint64_t end,
                            size_t rec, uint64_t rb, uint32_t k, wm_matchvec_t *out);

/* The tile against patterns [first, last) of one group: a match for each
** (window, pattern) within k, into out; the tile emptied. 0, or -1 out of
** memory. The AVX-512 build (planes_avx512.c, with VPOPCNTDQ): eight
** windows a pattern at once; planes.c calls it where the CPU has both. */
int wm_setk_planes_flush_avx512(const entry_t *first, const entry_t *last, tile_t *t, size_t rec,
                                uint64_t rb, uint32_t k, wm_matchvec_t *out);

#endif
