/*
** planes.c -- the direct Hamming patterns of a set (too short to seed: a
** 20-nt guide at k = 4) scanned together on the CPU, as the GPU scans them
** (direct_cuda.cu): the text as four bit-planes (is byte j an A, C, G, T),
** a pattern and strand as four masks (does position i accept A, C, G, T),
** so a window's matching positions are OR over the bases of (window &
** mask) and its mismatches one popcount; exact regions are positions that
** must all match. A pattern and strand of up to 64 bases a word.
**
** Patterns of one shape (strand, length, regions' positions and codes: a
** guide set's NGG, and CCN on the other strand) form a group: a window is
** tried against a group's patterns only when the group's regions match
** there (1 in 16 for NGG). One pattern a pass over the text (bitap on the
** middle, then the regions checked at each end) took 14.3 s for 200 guides
** against chrX on 16 threads.
**
** What a window gives is what the pattern's own scan and finish give (scan.c:
** finish, wm_flanks_finish): with Hamming an occurrence is the m bytes
** before its end, its errors the middle's mismatches, its regions exact; a
** text byte that is no base (N, IUPAC codes) matches nothing.
*/
#include <stdlib.h>
#include <string.h>

#include "search/search.h"
#include "setk/planes.h"

/* A group: its entries [first, last), those of [loose, last) tried in tiles,
** the others through its index (NULL: none, loose = first). */
typedef struct {
    size_t first, loose, last;
    ix_t *ix;
} group_t;

struct wm_setk_planes {
    entry_t *e; /* sorted by shape: groups are runs */
    size_t n;
    group_t *group;
    size_t n_groups;
    uint32_t max_m;
    uint8_t *eligible; /* [s->n]: scanned here */
    uint8_t code[256]; /* a text byte's base (A 0, C 1, G 2, T/U 3), 4 for none */
    int variant;       /* the pair test's build: VARIANT_* */
};

enum { VARIANT_PLAIN, VARIANT_POPCNT, VARIANT_AVX512 };

int wm_setk_planes_takes(const wm_setk_planes_t *pl, uint32_t i) {
    return pl != NULL && pl->eligible[i];
}

/* The base bit of a text byte (A 0, C 1, G 2, T/U 3), 4 for no base. */
static uint8_t base_of(uint8_t c) {
    unsigned t = wm_iupac_bases(c);
    return t == 1 ? 0 : t == 2 ? 1 : t == 4 ? 2 : t == 8 ? 3 : 4;
}

/* Whether this CPU has popcnt (x86-64's baseline does not: flush()). */
static int has_popcnt(void) {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

#if WM_SIMD_X86
/* Whether this CPU runs planes_avx512.c (asked here, in the baseline build:
** code built with -mavx512f must not run before the answer). */
static int has_avx512_popcnt(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq");
}
#endif

static int by_shape(const void *x, const void *y) {
    const entry_t *a = x, *b = y;
    if (a->strand != b->strand) return a->strand < b->strand ? -1 : 1;
    if (a->m != b->m) return a->m < b->m ? -1 : 1;
    if (a->region != b->region) return a->region < b->region ? -1 : 1;
    for (int k = 0; k < 4; k++) {
        uint64_t p = a->accept[k] & a->region, q = b->accept[k] & b->region;
        if (p != q) return p < q ? -1 : 1;
    }
    if (a->pat != b->pat) return a->pat < b->pat ? -1 : 1;
    return 0;
}

static int same_shape(const entry_t *a, const entry_t *b) {
    if (a->strand != b->strand || a->m != b->m || a->region != b->region) return 0;
    for (int k = 0; k < 4; k++)
        if ((a->accept[k] & a->region) != (b->accept[k] & b->region)) return 0;
    return 1;
}

/* Each group's index, with its loose entries moved to its end (in pattern
** order still). 0, or -1 out of memory. */
static int index_groups(wm_setk_planes_t *pl, uint32_t k, int rule) {
    size_t most = pl->n ? pl->n : 1;
    uint8_t *loose = malloc(most);
    uint32_t *place = malloc(most * sizeof *place);
    entry_t *tmp = malloc(most * sizeof *tmp);
    int failed = !loose || !place || !tmp;
    for (size_t g = 0; g < pl->n_groups && !failed; g++) {
        group_t *G = &pl->group[g];
        entry_t *first = &pl->e[G->first];
        size_t n = G->last - G->first;
        G->ix = wm_setk_ix_new(first, first + n, k, rule, loose, &failed);
        G->loose = G->first;
        if (!G->ix) continue;
        /* the loose ones to the end, both parts in order, and the index's
        ** slots renumbered to the entries' new places */
        size_t a = 0, b = 0, n_fixed = 0;
        for (size_t x = 0; x < n; x++) n_fixed += !loose[x];
        for (size_t x = 0; x < n; x++) {
            size_t to = loose[x] ? n_fixed + b++ : a++;
            tmp[to] = first[x];
            place[x] = (uint32_t)to;
        }
        memcpy(first, tmp, n * sizeof *first);
        size_t slots = G->ix->off[(size_t)G->ix->n_blocks << 2 * G->ix->w];
        for (size_t x = 0; x < slots; x++) G->ix->entry[x] = place[G->ix->entry[x]];
        G->loose = G->first + a;
    }
    free(loose);
    free(place);
    free(tmp);
    return failed ? -1 : 0;
}

wm_setk_planes_t *wm_setk_planes_new(const wm_setk_t *s, wm_simd_isa_t isa, int rule, int *failed) {
    *failed = 0;
    if (!s->dna || s->opts.metric != WM_METRIC_HAMMING || s->n_direct == 0) return NULL;
    size_t n = 0, strands = s->opts.revcomp ? 2 : 1;
    for (size_t d = 0; d < s->n_direct; d++) n += s->len[s->direct[d]] <= 64;
    if (n == 0) return NULL;
    wm_setk_planes_t *pl = calloc(1, sizeof *pl);
    if (pl) pl->e = malloc(n * strands * sizeof *pl->e);
    if (pl) pl->eligible = calloc(s->n, 1);
    if (pl) pl->group = calloc(n * strands, sizeof *pl->group);
    if (!pl || !pl->e || !pl->eligible || !pl->group) {
        wm_setk_planes_free(pl);
        *failed = 1;
        return NULL;
    }
    for (size_t d = 0; d < s->n_direct; d++) {
        uint32_t i = s->direct[d];
        uint32_t m = (uint32_t)s->len[i];
        if (m > 64) continue;
        pl->eligible[i] = 1;
        if (m > pl->max_m) pl->max_m = m;
        for (uint32_t st = 0; st < strands; st++) {
            entry_t *e = &pl->e[pl->n++];
            memset(e, 0, sizeof *e);
            e->pat = i;
            e->strand = st;
            e->m = m;
            for (uint32_t j = 0; j < m; j++) {
                uint8_t c = st ? wm_iupac_complement(s->pat[i][m - 1 - j]) : s->pat[i][j];
                unsigned bases = wm_iupac_bases(c);
                for (int b = 0; b < 4; b++)
                    if (bases >> b & 1) e->accept[b] |= 1ull << j;
                if (j < s->pre[st] || j >= m - s->suf[st]) e->region |= 1ull << j;
                else e->middle |= 1ull << j;
            }
        }
    }
    for (int c = 0; c < 256; c++) pl->code[c] = base_of((uint8_t)c);
    pl->variant = has_popcnt() ? VARIANT_POPCNT : VARIANT_PLAIN;
#if WM_SIMD_X86
    if (isa >= WM_SIMD_AVX512 && has_avx512_popcnt()) pl->variant = VARIANT_AVX512;
#else
    (void)isa;
#endif
    qsort(pl->e, pl->n, sizeof *pl->e, by_shape);
    for (size_t x = 0; x < pl->n; x++) {
        if (x == 0 || !same_shape(&pl->e[x - 1], &pl->e[x])) pl->group[pl->n_groups++].first = x;
        pl->group[pl->n_groups - 1].last = x + 1;
    }
    if (index_groups(pl, s->opts.max_edits, rule)) {
        wm_setk_planes_free(pl);
        *failed = 1;
        return NULL;
    }
    return pl;
}

void wm_setk_planes_free(wm_setk_planes_t *pl) {
    if (!pl) return;
    for (size_t g = 0; pl->group && g < pl->n_groups; g++) wm_setk_ix_free(pl->group[g].ix);
    free(pl->e);
    free(pl->group);
    free(pl->eligible);
    free(pl);
}

/* Bits [at, at + 64) of a plane (at + 64 within its words + 1). */
static inline uint64_t window(const uint64_t *plane, uint64_t at) {
    uint64_t w = at >> 6, off = at & 63;
    return off ? plane[w] >> off | plane[w + 1] << (64 - off) : plane[w];
}

/* The tile against the group's patterns [first, last). Inlined into two
** builds: one with the popcnt instruction, which x86-64's baseline lacks
** (a call of libgcc's __popcountdi2 a pair: 62% of the time), one without. */
static inline __attribute__((always_inline)) int flush_body(const entry_t *first,
                                                            const entry_t *last, tile_t *t,
                                                            size_t rec, uint64_t rb, uint32_t k,
                                                            wm_matchvec_t *out) {
    for (const entry_t *p = first; p < last; p++) {
        const uint64_t a0 = p->accept[0], a1 = p->accept[1], a2 = p->accept[2], a3 = p->accept[3],
                       mid = p->middle;
        for (size_t x = 0; x < t->n; x++) {
            uint64_t hit =
                (t->w[0][x] & a0) | (t->w[1][x] & a1) | (t->w[2][x] & a2) | (t->w[3][x] & a3);
            uint32_t errors = (uint32_t)__builtin_popcountll(mid & ~hit);
            if (errors > k) continue;
            if (planes_push(out, p, t->end[x], rec, rb, errors)) return -1;
        }
    }
    t->n = 0;
    return 0;
}

static int flush_plain(const entry_t *first, const entry_t *last, tile_t *t, size_t rec,
                       uint64_t rb, uint32_t k, wm_matchvec_t *out) {
    return flush_body(first, last, t, rec, rb, k, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static int flush_popcnt(const entry_t *first, const entry_t *last,
                                                          tile_t *t, size_t rec, uint64_t rb,
                                                          uint32_t k, wm_matchvec_t *out) {
    return flush_body(first, last, t, rec, rb, k, out);
}
#else
#define flush_popcnt flush_plain
#endif

static int flush(const wm_setk_planes_t *pl, const entry_t *first, const entry_t *last, tile_t *t,
                 size_t rec, uint64_t rb, uint32_t k, wm_matchvec_t *out) {
#if WM_SIMD_X86
    if (pl->variant == VARIANT_AVX512)
        return wm_setk_planes_flush_avx512(first, last, t, rec, rb, k, out);
#endif
    return (pl->variant == VARIANT_POPCNT ? flush_popcnt : flush_plain)(first, last, t, rec, rb, k,
                                                                        out);
}

/* Of the 64 windows starting at at, at + 1, ..., which match the regions of
** entry p (its group's): bit i for the window at at + i. A region position j
** reads the OR of the planes of the bases it accepts at at + j, 64 windows a
** word, instead of each window's four planes. */
static uint64_t regions_pass(const uint64_t *const P[4], const entry_t *p, uint64_t at) {
    uint64_t pass = ~0ull;
    for (uint64_t R = p->region; R && pass; R &= R - 1) {
        uint32_t j = (uint32_t)__builtin_ctzll(R);
        uint64_t acc = 0;
        for (int b = 0; b < 4; b++)
            if (p->accept[b] >> j & 1) acc |= window(P[b], at + j);
        pass &= acc;
    }
    return pass;
}

static int probe(const wm_setk_planes_t *pl, const ix_t *ix, const entry_t *e, const uint64_t w[4],
                 uint64_t end, size_t rec, uint64_t rb, uint32_t k, wm_matchvec_t *out) {
#if WM_SIMD_X86
    if (pl->variant == VARIANT_AVX512)
        return wm_setk_ix_probe_avx512(ix, e, w, end, rec, rb, k, out);
#endif
    return wm_setk_ix_probe(ix, e, w, end, rec, rb, k, pl->variant == VARIANT_POPCNT, out);
}

int wm_setk_planes_scan(const wm_setk_planes_t *pl, const uint8_t *text, size_t rec, uint64_t rb,
                        uint64_t own_from, uint64_t own_to, uint32_t k, wm_matchvec_t *out) {
    /* the bytes the windows of ends (own_from, own_to] read, from the record's start */
    uint64_t from = own_from - rb > pl->max_m ? own_from - pl->max_m : rb;
    uint64_t len = own_to - from, words = len / 64 + 2;
    uint64_t *plane = calloc(4 * words, sizeof *plane); /* the last words stay 0 */
    tile_t *t = malloc(sizeof *t);
    if (!plane || !t) {
        free(plane);
        free(t);
        return -1;
    }
    /* 64 bytes a word: each byte's bit into its base's word (the fifth,
    ** for no base, is dropped) */
    for (uint64_t j0 = 0; j0 < len; j0 += 64) {
        uint64_t acc[5] = { 0 }, n = len - j0 < 64 ? len - j0 : 64;
        const uint8_t *p = text + from + j0;
        for (uint64_t j = 0; j < n; j++) acc[pl->code[p[j]]] |= 1ull << j;
        for (int b = 0; b < 4; b++) plane[b * words + (j0 >> 6)] = acc[b];
    }
    const uint64_t *P[4] = { plane, plane + words, plane + 2 * words, plane + 3 * words };
    int rc = 0;
    for (size_t g = 0; g < pl->n_groups && rc == 0; g++) {
        const group_t *G = &pl->group[g];
        const entry_t *first = &pl->e[G->first], *loose = &pl->e[G->loose], *last = &pl->e[G->last];
        uint32_t m = first->m;
        uint64_t R = first->region;
        t->n = 0;
        /* the window must start in the record; ends 64 at a time, those
        ** whose windows pass the regions picked by bits */
        for (uint64_t E = own_from + 1 > rb + m ? own_from + 1 : rb + m; E <= own_to && rc == 0;
             E += 64) {
            uint64_t pass = own_to - E >= 63 ? ~0ull : (1ull << (own_to - E + 1)) - 1;
            if (R) pass &= regions_pass(P, first, E - m - from);
            for (; pass && rc == 0; pass &= pass - 1) {
                uint64_t e = E + (uint64_t)__builtin_ctzll(pass), at = e - m - from;
                uint64_t w[4] = { window(P[0], at), window(P[1], at), window(P[2], at),
                                  window(P[3], at) };
                if (G->ix) rc = probe(pl, G->ix, first, w, e, rec, rb, k, out);
                if (loose == last || rc != 0) continue;
                size_t x = t->n++;
                for (int b = 0; b < 4; b++) t->w[b][x] = w[b];
                t->end[x] = e;
                if (t->n == TILE) rc = flush(pl, loose, last, t, rec, rb, k, out);
            }
        }
        if (rc == 0 && t->n > 0) rc = flush(pl, loose, last, t, rec, rb, k, out);
    }
    free(plane);
    free(t);
    return rc;
}
