/*
** moracle.c -- brute-force reference for pattern sets (see moracle.h for the
** contract). Nothing from src/ is included or called.
**
**   moracle_search_naive: the definition, literally: for every record, end,
**       pattern and strand (in that order, which is the output order), compare
**       the searched string byte by byte with moracle_char_match.
**   moracle_search / moracle_count_per_pattern: the same answers, quicker.
**       Every byte is first "folded" to a key byte such that
**           moracle_char_match(p, c, o)  <=>  fold(p) == fold(c)
**       (BYTES: the byte, lower-cased with case_insensitive; DNA: the base
**       1..4, U as T, 0 for a text byte that is no base -- never a pattern's).
**       So a match is exactly "the folded window equals the folded searched
**       string". The folded strings are grouped (equal strings together) in a
**       hash table keyed by (length, FNV-1a hash); at each text position the
**       window grows one byte at a time, its hash extended, and every length
**       some pattern has is looked up and confirmed with memcmp. The growth
**       stops early when the window's first bytes (up to PREFIX_CAP) are no
**       prefix of any folded string (a set of prefix hashes: absent means
**       surely absent, so no match is ever skipped).
*/
#include "moracle.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ==== characters ============================================================ */

static uint8_t ascii_lower(uint8_t c) { return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c; }

int moracle_is_nucleotide(uint8_t c) {
    switch (c) {
    case 'A':
    case 'C':
    case 'G':
    case 'T':
    case 'U':
    case 'a':
    case 'c':
    case 'g':
    case 't':
    case 'u': return 1;
    default: return 0;
    }
}

uint8_t moracle_complement(uint8_t c) {
    switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    case 'U': return 'A';
    case 'a': return 't';
    case 'c': return 'g';
    case 'g': return 'c';
    case 't': return 'a';
    case 'u': return 'a';
    default: return 0;
    }
}

/* The base a byte stands for in the DNA alphabet: 1 A, 2 C, 3 G, 4 T/U; 0 else. */
static uint8_t dna_base(uint8_t c) {
    switch (ascii_lower(c)) {
    case 'a': return 1;
    case 'c': return 2;
    case 'g': return 3;
    case 't': return 4;
    case 'u': return 4;
    default: return 0;
    }
}

static int is_dna(const wm_opts_t *o) { return o != NULL && o->alphabet == WM_ALPHABET_DNA; }
static int folds_case(const wm_opts_t *o) { return o != NULL && o->case_insensitive; }
static int both_strands(const wm_opts_t *o) { return o != NULL && o->revcomp; }

int moracle_char_match(uint8_t p, uint8_t c, const wm_opts_t *o) {
    if (is_dna(o)) return dna_base(p) != 0 && dna_base(p) == dna_base(c);
    if (p == c) return 1;
    return folds_case(o) && ascii_lower(p) == ascii_lower(c);
}

/* The key byte of fold(): see the file comment. */
static uint8_t fold(uint8_t c, const wm_opts_t *o) {
    if (is_dna(o)) return dna_base(c);
    return folds_case(o) ? ascii_lower(c) : c;
}

/* The string searched on `strand` for pattern p (m bytes), into out[0, m). */
static void searched_string(const uint8_t *p, size_t m, uint32_t strand, uint8_t *out) {
    for (size_t j = 0; j < m; j++) {
        if (strand == 0) {
            out[j] = p[j];
        } else {
            uint8_t x = moracle_complement(p[m - 1 - j]);
            assert(x != 0); /* revcomp needs A C G T U patterns */
            out[j] = x;
        }
    }
}

static void check_set(const uint8_t *const *pats, const size_t *lens, size_t n,
                      const wm_opts_t *o) {
    assert(n > 0 && pats != NULL && lens != NULL);
    for (size_t i = 0; i < n; i++) {
        assert(lens[i] > 0 && pats[i] != NULL);
        if (is_dna(o) || both_strands(o))
            for (size_t j = 0; j < lens[i]; j++) assert(moracle_is_nucleotide(pats[i][j]));
    }
}

/* ==== records =============================================================== */

static size_t record_count(const wm_text_t *t) { return t->n_rec ? t->n_rec : 1; }

static void record_span(const wm_text_t *t, size_t r, uint64_t *beg, uint64_t *end) {
    if (t->n_rec == 0) {
        *beg = 0;
        *end = t->len;
        return;
    }
    *beg = t->rec_start[r];
    *end = r + 1 < t->n_rec ? t->rec_start[r + 1] : t->len;
    assert(*beg <= *end && *end <= t->len);
}

/* ==== match list ============================================================ */

typedef struct {
    wm_match_t *a;
    size_t n, cap;
} match_list;

static void list_push(match_list *l, uint64_t rec, uint64_t start, uint64_t end, uint32_t strand,
                      uint32_t pattern) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->a = realloc(l->a, l->cap * sizeof *l->a);
        assert(l->a != NULL);
    }
    wm_match_t *x = &l->a[l->n++];
    memset(x, 0, sizeof *x);
    x->record = rec;
    x->start = start;
    x->end = end;
    x->errors = 0;
    x->strand = strand;
    x->pattern = pattern;
}

/* ==== the definition ======================================================== */

size_t moracle_search_naive(const uint8_t *const *pats, const size_t *lens, size_t n,
                            const wm_opts_t *o, const wm_text_t *t, wm_match_t **out) {
    check_set(pats, lens, n, o);
    uint32_t strands = both_strands(o) ? 2 : 1;
    match_list l = { NULL, 0, 0 };
    for (size_t r = 0; r < record_count(t); r++) {
        uint64_t beg, end;
        record_span(t, r, &beg, &end);
        const uint8_t *rec = t->seq + beg;
        uint64_t rlen = end - beg;
        for (uint64_t e = 1; e <= rlen; e++)
            for (size_t i = 0; i < n; i++)
                for (uint32_t st = 0; st < strands; st++) {
                    size_t m = lens[i];
                    if (m > e) continue;
                    uint64_t s = e - m;
                    uint8_t *p = malloc(m);
                    assert(p != NULL);
                    searched_string(pats[i], m, st, p);
                    int ok = 1;
                    for (size_t j = 0; j < m && ok; j++)
                        ok = moracle_char_match(p[j], rec[s + j], o);
                    free(p);
                    if (ok) list_push(&l, r, s, e, st, (uint32_t)i);
                }
    }
    *out = l.a;
    return l.n;
}

/* ==== the quicker search ==================================================== */

#define PREFIX_CAP 8 /* prefixes of folded strings remembered, by length */

typedef struct {
    const uint8_t *key; /* folded searched string */
    size_t len;
    uint32_t pattern, strand;
} entry;

typedef struct {
    const uint8_t *key; /* one folded string; entries ent[lo, hi) have it */
    size_t len;
    uint64_t h;
    size_t lo, hi;
} group;

typedef struct {
    const wm_opts_t *o;
    uint8_t *keys; /* every folded searched string, back to back */
    entry *ent;    /* sorted by (len, key, pattern, strand) */
    size_t n_ent;
    group *grp;
    size_t n_grp;
    size_t *slot; /* hash table of group index + 1 (0 = empty) */
    size_t slot_mask;
    uint64_t *pfx; /* set of prefix hashes (0 = empty) */
    size_t pfx_mask, pfx_n;
    unsigned char *len_used; /* len_used[L]: some folded string has length L */
    size_t max_len;
} mset;

static uint64_t fnv_start(void) { return 0xcbf29ce484222325ull; }
static uint64_t fnv_step(uint64_t h, uint8_t c) { return (h ^ c) * 0x100000001b3ull; }

/* (length, hash) as one table value, never 0. */
static uint64_t lh(size_t len, uint64_t h) {
    uint64_t v = h ^ ((uint64_t)len * 0x9E3779B97F4A7C15ull);
    v ^= v >> 29;
    return v ? v : 1;
}

static int entry_cmp(const void *a, const void *b) {
    const entry *x = a, *y = b;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    int c = memcmp(x->key, y->key, x->len);
    if (c) return c;
    if (x->pattern != y->pattern) return x->pattern < y->pattern ? -1 : 1;
    if (x->strand != y->strand) return x->strand < y->strand ? -1 : 1;
    return 0;
}

static size_t pow2_at_least(size_t n) {
    size_t p = 16;
    while (p < n) p *= 2;
    return p;
}

static void pfx_put(uint64_t *tab, size_t mask, uint64_t v) {
    size_t i = (size_t)(v * 0xff51afd7ed558ccdull >> 17) & mask;
    while (tab[i] != 0 && tab[i] != v) i = (i + 1) & mask;
    tab[i] = v;
}

/* Insert v, doubling the table when it is half full. */
static void pfx_insert(mset *s, uint64_t v) {
    if (2 * (s->pfx_n + 1) > s->pfx_mask + 1) {
        size_t size = 2 * (s->pfx_mask + 1);
        uint64_t *tab = calloc(size, sizeof *tab);
        assert(tab);
        for (size_t i = 0; i <= s->pfx_mask; i++)
            if (s->pfx[i] != 0) pfx_put(tab, size - 1, s->pfx[i]);
        free(s->pfx);
        s->pfx = tab;
        s->pfx_mask = size - 1;
    }
    size_t i = (size_t)(v * 0xff51afd7ed558ccdull >> 17) & s->pfx_mask;
    while (s->pfx[i] != 0 && s->pfx[i] != v) i = (i + 1) & s->pfx_mask;
    if (s->pfx[i] == 0) s->pfx_n++;
    s->pfx[i] = v;
}

static int pfx_has(const mset *s, uint64_t v) {
    size_t i = (size_t)(v * 0xff51afd7ed558ccdull >> 17) & s->pfx_mask;
    while (s->pfx[i] != 0) {
        if (s->pfx[i] == v) return 1;
        i = (i + 1) & s->pfx_mask;
    }
    return 0;
}

static void mset_build(mset *s, const uint8_t *const *pats, const size_t *lens, size_t n,
                       const wm_opts_t *o) {
    check_set(pats, lens, n, o);
    memset(s, 0, sizeof *s);
    s->o = o;
    uint32_t strands = both_strands(o) ? 2 : 1;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += lens[i];
        if (lens[i] > s->max_len) s->max_len = lens[i];
    }
    s->keys = malloc(total * strands + 1);
    s->ent = malloc(n * strands * sizeof *s->ent);
    s->len_used = calloc(s->max_len + 1, 1);
    assert(s->keys && s->ent && s->len_used);
    size_t at = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t st = 0; st < strands; st++) {
            uint8_t *k = s->keys + at;
            searched_string(pats[i], lens[i], st, k);
            for (size_t j = 0; j < lens[i]; j++) {
                k[j] = fold(k[j], o);
                assert(!is_dna(o) || k[j] != 0);
            }
            s->ent[s->n_ent++] = (entry){ k, lens[i], (uint32_t)i, st };
            s->len_used[lens[i]] = 1;
            at += lens[i];
        }
    qsort(s->ent, s->n_ent, sizeof *s->ent, entry_cmp);

    /* groups of equal folded strings */
    s->grp = malloc(s->n_ent * sizeof *s->grp);
    assert(s->grp);
    for (size_t lo = 0; lo < s->n_ent;) {
        size_t hi = lo + 1;
        while (hi < s->n_ent && s->ent[hi].len == s->ent[lo].len &&
               memcmp(s->ent[hi].key, s->ent[lo].key, s->ent[lo].len) == 0)
            hi++;
        uint64_t h = fnv_start();
        for (size_t j = 0; j < s->ent[lo].len; j++) h = fnv_step(h, s->ent[lo].key[j]);
        s->grp[s->n_grp++] = (group){ s->ent[lo].key, s->ent[lo].len, h, lo, hi };
        lo = hi;
    }

    /* hash table over the groups */
    size_t ns = pow2_at_least(2 * s->n_grp);
    s->slot = calloc(ns, sizeof *s->slot);
    assert(s->slot);
    s->slot_mask = ns - 1;
    for (size_t g = 0; g < s->n_grp; g++) {
        size_t i = (size_t)lh(s->grp[g].len, s->grp[g].h) & s->slot_mask;
        while (s->slot[i] != 0) i = (i + 1) & s->slot_mask;
        s->slot[i] = g + 1;
    }

    /* prefix hashes, lengths 1..PREFIX_CAP */
    s->pfx = calloc(1024, sizeof *s->pfx);
    assert(s->pfx);
    s->pfx_mask = 1023;
    for (size_t g = 0; g < s->n_grp; g++) {
        uint64_t h = fnv_start();
        for (size_t L = 1; L <= s->grp[g].len && L <= PREFIX_CAP; L++) {
            h = fnv_step(h, s->grp[g].key[L - 1]);
            pfx_insert(s, lh(L, h));
        }
    }
}

static void mset_free(mset *s) {
    free(s->keys);
    free(s->ent);
    free(s->grp);
    free(s->slot);
    free(s->pfx);
    free(s->len_used);
}

/* The group whose folded string is win[0, L) (hash h), or NULL. */
static const group *mset_find(const mset *s, const uint8_t *win, size_t L, uint64_t h) {
    size_t i = (size_t)lh(L, h) & s->slot_mask;
    while (s->slot[i] != 0) {
        const group *g = &s->grp[s->slot[i] - 1];
        if (g->len == L && g->h == h && memcmp(g->key, win, L) == 0) return g;
        i = (i + 1) & s->slot_mask;
    }
    return NULL;
}

/* Visit every match: list != NULL appends it, else counts[pattern]++. */
static void mset_scan(const mset *s, const wm_text_t *t, match_list *list, uint64_t *counts) {
    uint8_t *ft = malloc(t->len + 1); /* the folded text */
    assert(ft);
    for (uint64_t i = 0; i < t->len; i++) ft[i] = fold(t->seq[i], s->o);
    int dna = is_dna(s->o);
    for (size_t r = 0; r < record_count(t); r++) {
        uint64_t beg, end;
        record_span(t, r, &beg, &end);
        for (uint64_t p = beg; p < end; p++) {
            uint64_t h = fnv_start();
            for (size_t L = 1; L <= s->max_len && p + L <= end; L++) {
                uint8_t c = ft[p + L - 1];
                if (dna && c == 0) break; /* no base: nothing goes past it */
                h = fnv_step(h, c);
                if (L <= PREFIX_CAP && !pfx_has(s, lh(L, h)))
                    break; /* no folded string starts so */
                if (!s->len_used[L]) continue;
                const group *g = mset_find(s, ft + p, L, h);
                if (g == NULL) continue;
                for (size_t e = g->lo; e < g->hi; e++) {
                    if (list)
                        list_push(list, r, p - beg, p - beg + L, s->ent[e].strand,
                                  s->ent[e].pattern);
                    else counts[s->ent[e].pattern]++;
                }
            }
        }
    }
    free(ft);
}

static int match_cmp(const void *a, const void *b) {
    const wm_match_t *x = a, *y = b;
    if (x->record != y->record) return x->record < y->record ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    if (x->pattern != y->pattern) return x->pattern < y->pattern ? -1 : 1;
    if (x->strand != y->strand) return x->strand < y->strand ? -1 : 1;
    return 0;
}

size_t moracle_search(const uint8_t *const *pats, const size_t *lens, size_t n, const wm_opts_t *o,
                      const wm_text_t *t, wm_match_t **out) {
    mset s;
    mset_build(&s, pats, lens, n, o);
    match_list l = { NULL, 0, 0 };
    mset_scan(&s, t, &l, NULL);
    mset_free(&s);
    if (l.n > 1) qsort(l.a, l.n, sizeof *l.a, match_cmp);
    *out = l.a;
    return l.n;
}

uint64_t moracle_count_per_pattern(const uint8_t *const *pats, const size_t *lens, size_t n,
                                   const wm_opts_t *o, const wm_text_t *t, uint64_t *counts) {
    mset s;
    mset_build(&s, pats, lens, n, o);
    memset(counts, 0, n * sizeof *counts);
    mset_scan(&s, t, NULL, counts);
    mset_free(&s);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) total += counts[i];
    return total;
}

/* ==== what wm_compile_set must say ========================================== */

wm_status moracle_set_status(const uint8_t *const *pats, const size_t *lens, size_t n,
                             const wm_opts_t *o) {
    wm_opts_t z;
    memset(&z, 0, sizeof z);
    if (o == NULL) o = &z;
    if (n == 0) return WM_INVALID;
    if (o->max_edits > 0) return WM_INVALID;
    if (o->algo != WM_ALGO_AUTO && o->algo != WM_ALGO_AC && o->algo != WM_ALGO_PFAC &&
        o->algo != WM_ALGO_WUMANBER && o->algo != WM_ALGO_WUMANBER_PAPER &&
        o->algo != WM_ALGO_QGRAM && o->algo != WM_ALGO_TEDDY)
        return WM_INVALID;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] == 0) return WM_PATTERN_EMPTY;
        if (lens[i] > WM_MAX_PATTERN) return WM_PATTERN_TOO_LONG;
        if (is_dna(o) || both_strands(o))
            for (size_t j = 0; j < lens[i]; j++)
                if (!moracle_is_nucleotide(pats[i][j])) return WM_INVALID;
        if (o->algo == WM_ALGO_QGRAM && lens[i] < WM_QGRAM_MIN_LEN) return WM_INVALID;
    }
    if (o->algo == WM_ALGO_TEDDY && n > WM_TEDDY_MAX_PATTERNS) return WM_INVALID;
    return WM_OK;
}
