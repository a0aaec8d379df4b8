/*
** gen.c -- the generators of gen.h.
*/
#include "gen.h"

#include <string.h>

#include "harness.h"

uint8_t flip_case(uint8_t c) {
    if (c >= 'a' && c <= 'z') return (uint8_t)(c - 32);
    if (c >= 'A' && c <= 'Z') return (uint8_t)(c + 32);
    return c;
}

/* ---- bytes of DNA ------------------------------------------------------------------- */

const dna_mix_t DNA_FILE = { 820, 920, 950, 970, 990, "RYKMSWBDHV-*." };
const dna_mix_t DNA_SOFTMASKED = { 800, 930, 960, 975, 990, "-XRY*." };

uint8_t rand_dna_mix(const dna_mix_t *mix) {
    uint64_t r = below(1000);
    if (r < mix->upper) return (uint8_t) "ACGT"[below(4)];
    if (r < mix->lower) return (uint8_t) "acgt"[below(4)];
    if (r < mix->n) return chance(70) ? 'N' : 'n';
    if (r < mix->u) return chance(50) ? 'U' : 'u';
    if (r < mix->other) return (uint8_t)mix->others[below(strlen(mix->others))];
    return (uint8_t)below(256);
}

uint8_t rand_dna_byte(void) { return rand_dna_mix(&DNA_FILE); }

void random_symbols(uint8_t *sym, size_t n) {
    uint8_t all[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    for (size_t i = 0; i < n && i < 256; i++) {
        size_t j = i + (size_t)below(256 - i);
        uint8_t x = all[i];
        all[i] = all[j];
        all[j] = x;
        sym[i] = all[i];
    }
}

/* ---- records and plants --------------------------------------------------------------- */

/* Record layouts and how often each comes. */
enum { RECS_NONE, RECS_ONE, RECS_FEW, RECS_SOME, RECS_MANY };
static const weighted_t LAYOUTS[] = {
    { RECS_NONE, 40 }, { RECS_ONE, 50 }, { RECS_FEW, 80 }, { RECS_SOME, 96 }, { RECS_MANY, 100 },
};

size_t split_records(size_t n, size_t typical_len, uint64_t **rec_start) {
    size_t nr;
    switch (pick_weighted(LAYOUTS, N_OF(LAYOUTS))) {
    case RECS_NONE: *rec_start = NULL; return 0; /* rec_start NULL: one record */
    case RECS_ONE: nr = 1; break;
    case RECS_FEW: nr = (size_t)range(2, 8); break;
    case RECS_SOME: nr = (size_t)range(2, 60); break;
    default: nr = (size_t)range(100, 2000); break; /* many tiny records per chunk */
    }
    uint64_t *rs = xmalloc(nr * sizeof *rs);
    rs[0] = 0;
    int short_recs = chance(25); /* records mostly shorter than typical_len */
    for (size_t i = 1; i < nr; i++) {
        uint64_t step;
        if (chance(15)) step = 0; /* an empty record */
        else if (short_recs) step = below(typical_len + 1);
        else step = below(2 * (n / nr) + 2);
        uint64_t s = rs[i - 1] + step;
        rs[i] = s > n ? n : s;
    }
    *rec_start = rs;
    return nr;
}

size_t plant_pos(size_t n, const uint64_t *rec_start, size_t n_rec, size_t m) {
    size_t r = n_rec ? (size_t)below(n_rec) : 0;
    uint64_t beg = n_rec ? rec_start[r] : 0;
    uint64_t end = (n_rec && r + 1 < n_rec) ? rec_start[r + 1] : n;
    uint64_t w = below(4);
    if (w == 0) return (size_t)beg;                                      /* record start */
    if (w == 1) return end >= beg + m ? (size_t)(end - m) : (size_t)beg; /* record end */
    if (w == 2) return end > m / 2 ? (size_t)(end - m / 2) : 0;          /* across its end */
    return (size_t)below(n);
}
