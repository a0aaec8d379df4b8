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

struct wm_setk_planes {
    entry_t *e; /* sorted by shape: groups are runs */
    size_t n;
    size_t *group; /* [n_groups + 1]: where each group's entries start */
    size_t n_groups;
    uint32_t max_m;
    uint8_t *eligible; /* [s->n]: scanned here */
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

wm_setk_planes_t *wm_setk_planes_new(const wm_setk_t *s, wm_simd_isa_t isa, int *failed) {
    *failed = 0;
    if (!s->dna || s->opts.metric != WM_METRIC_HAMMING || s->n_direct == 0) return NULL;
    size_t n = 0, strands = s->opts.revcomp ? 2 : 1;
    for (size_t d = 0; d < s->n_direct; d++) n += s->len[s->direct[d]] <= 64;
    if (n == 0) return NULL;
    wm_setk_planes_t *pl = calloc(1, sizeof *pl);
    if (pl) pl->e = malloc(n * strands * sizeof *pl->e);
    if (pl) pl->eligible = calloc(s->n, 1);
    if (pl) pl->group = malloc((n * strands + 1) * sizeof *pl->group);
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
    pl->variant = has_popcnt() ? VARIANT_POPCNT : VARIANT_PLAIN;
#if WM_SIMD_X86
    if (isa >= WM_SIMD_AVX512 && has_avx512_popcnt()) pl->variant = VARIANT_AVX512;
#else
    (void)isa;
#endif
    qsort(pl->e, pl->n, sizeof *pl->e, by_shape);
    for (size_t x = 0; x < pl->n; x++)
        if (x == 0 || !same_shape(&pl->e[x - 1], &pl->e[x])) pl->group[pl->n_groups++] = x;
    pl->group[pl->n_groups] = pl->n;
    return pl;
}

void wm_setk_planes_free(wm_setk_planes_t *pl) {
    if (!pl) return;
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
            wm_match_t mt;
            memset(&mt, 0, sizeof mt);
            mt.record = rec;
            mt.start = t->end[x] - p->m - rb;
            mt.end = t->end[x] - rb;
            mt.errors = errors;
            mt.strand = p->strand;
            mt.pattern = p->pat;
            if (wm_matchvec_push(out, &mt)) return -1;
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

int wm_setk_planes_scan(const wm_setk_planes_t *pl, const uint8_t *text, size_t rec, uint64_t rb,
                        uint64_t own_from, uint64_t own_to, uint32_t k, wm_matchvec_t *out) {
    /* the bytes the windows of ends (own_from, own_to] read, from the record's start */
    uint64_t from = own_from - rb > pl->max_m ? own_from - pl->max_m : rb;
    uint64_t len = own_to - from, words = len / 64 + 2;
    uint64_t *plane = calloc(4 * words, sizeof *plane);
    tile_t *t = malloc(sizeof *t);
    if (!plane || !t) {
        free(plane);
        free(t);
        return -1;
    }
    for (uint64_t j = 0; j < len; j++) {
        uint8_t b = base_of(text[from + j]);
        if (b < 4) plane[b * words + (j >> 6)] |= 1ull << (j & 63);
    }
    const uint64_t *P[4] = { plane, plane + words, plane + 2 * words, plane + 3 * words };
    int rc = 0;
    for (size_t g = 0; g < pl->n_groups && rc == 0; g++) {
        const entry_t *first = &pl->e[pl->group[g]], *last = &pl->e[pl->group[g + 1]];
        uint32_t m = first->m;
        uint64_t R = first->region;
        t->n = 0;
        /* the window must start in the record */
        uint64_t e = own_from + 1 > rb + m ? own_from + 1 : rb + m;
        for (; e <= own_to && rc == 0; e++) {
            uint64_t at = e - m - from;
            uint64_t w0 = window(P[0], at), w1 = window(P[1], at), w2 = window(P[2], at),
                     w3 = window(P[3], at);
            if (R && ((w0 & first->accept[0]) | (w1 & first->accept[1]) | (w2 & first->accept[2]) |
                      (w3 & first->accept[3]) | ~R) != ~0ull)
                continue; /* the group's regions do not match here */
            size_t x = t->n++;
            t->w[0][x] = w0;
            t->w[1][x] = w1;
            t->w[2][x] = w2;
            t->w[3][x] = w3;
            t->end[x] = e;
            if (t->n == TILE) rc = flush(pl, first, last, t, rec, rb, k, out);
        }
        if (rc == 0 && t->n > 0) rc = flush(pl, first, last, t, rec, rb, k, out);
    }
    free(plane);
    free(t);
    return rc;
}
