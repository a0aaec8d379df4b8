/*
** planes.h -- what planes.c shares with its vector variant (planes_avx512.c):
** a pattern and strand's masks, a tile of windows, and the pair test over a
** tile. Private to src/setk.
*/
#ifndef WM_SETK_PLANES_H
#define WM_SETK_PLANES_H

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

/* The tile against patterns [first, last) of one group: a match for each
** (window, pattern) within k, into out; the tile emptied. 0, or -1 out of
** memory. The AVX-512 build (planes_avx512.c, with VPOPCNTDQ): eight
** windows a pattern at once; planes.c calls it where the CPU has both. */
int wm_setk_planes_flush_avx512(const entry_t *first, const entry_t *last, tile_t *t, size_t rec,
                                uint64_t rb, uint32_t k, wm_matchvec_t *out);

#endif
