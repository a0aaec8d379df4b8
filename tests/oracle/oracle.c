/*
** oracle.c -- brute-force reference search (see oracle.h for the contract).
**
** Plain dynamic programming and naive scans, written to be read, not to be
** fast. Nothing from src/ is included or called: the only shared thing with
** the library is the public header's types.
**
**   search, edit distance:  the textbook semi-global DP (Sellers 1980) over
**       each record gives d(e) for every end e; for each e with d(e) <= k a
**       second, global DP of the reversed pattern against the reversed text
**       ending at e gives dist(P, T[e-j, e)) for every length j, and the
**       shortest j reaching d(e) gives the start.
**   search, Hamming: count mismatches of P against T[e-m, e) for every e.
**   oracle_search_naive: the definition itself, one full DP per (s, e).
*/
#include "oracle.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ==== characters ============================================================ */

static uint8_t ascii_lower(uint8_t c) { return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c; }
static uint8_t ascii_upper(uint8_t c) { return (c >= 'a' && c <= 'z') ? (uint8_t)(c - 32) : c; }

enum { BASE_A = 1, BASE_C = 2, BASE_G = 4, BASE_T = 8 };

unsigned oracle_iupac_set(uint8_t code) {
    switch (ascii_upper(code)) {
    case 'A': return BASE_A;
    case 'C': return BASE_C;
    case 'G': return BASE_G;
    case 'T': return BASE_T;
    case 'U': return BASE_T;
    case 'R': return BASE_A | BASE_G;          /* puRine */
    case 'Y': return BASE_C | BASE_T;          /* pYrimidine */
    case 'S': return BASE_C | BASE_G;          /* Strong */
    case 'W': return BASE_A | BASE_T;          /* Weak */
    case 'K': return BASE_G | BASE_T;          /* Keto */
    case 'M': return BASE_A | BASE_C;          /* aMino */
    case 'B': return BASE_C | BASE_G | BASE_T; /* not A */
    case 'D': return BASE_A | BASE_G | BASE_T; /* not C */
    case 'H': return BASE_A | BASE_C | BASE_T; /* not G */
    case 'V': return BASE_A | BASE_C | BASE_G; /* not T */
    case 'N': return BASE_A | BASE_C | BASE_G | BASE_T;
    default: return 0;
    }
}

uint8_t oracle_iupac_complement(uint8_t code) {
    uint8_t up = ascii_upper(code), r;
    switch (up) {
    case 'A': r = 'T'; break;
    case 'T': r = 'A'; break;
    case 'U': r = 'A'; break;
    case 'C': r = 'G'; break;
    case 'G': r = 'C'; break;
    case 'R': r = 'Y'; break;
    case 'Y': r = 'R'; break;
    case 'K': r = 'M'; break;
    case 'M': r = 'K'; break;
    case 'B': r = 'V'; break;
    case 'V': r = 'B'; break;
    case 'D': r = 'H'; break;
    case 'H': r = 'D'; break;
    case 'S': r = 'S'; break;
    case 'W': r = 'W'; break;
    case 'N': r = 'N'; break;
    default: return 0;
    }
    return (code == up) ? r : ascii_lower(r);
}

/* The base a text byte stands for in the DNA alphabet; 0 for anything else
** (N, gaps, IUPAC ambiguity letters and binary bytes match nothing). */
static unsigned text_base(uint8_t c) {
    switch (ascii_upper(c)) {
    case 'A': return BASE_A;
    case 'C': return BASE_C;
    case 'G': return BASE_G;
    case 'T': return BASE_T;
    case 'U': return BASE_T;
    default: return 0;
    }
}

int oracle_char_match(uint8_t p, uint8_t c, const wm_opts_t *o) {
    if (o != NULL && o->alphabet == WM_ALPHABET_DNA)
        return (oracle_iupac_set(p) & text_base(c)) != 0;
    if (p == c) return 1;
    return o != NULL && o->case_insensitive && ascii_lower(p) == ascii_lower(c);
}

/* ==== edit distance ========================================================= */

static size_t min3(size_t a, size_t b, size_t c) {
    size_t r = a < b ? a : b;
    return r < c ? r : c;
}

/* Global unit-cost edit distance of pattern p[0,m) against text t[0,n).
** o == NULL: plain byte equality; otherwise oracle_char_match(p, t, o). */
static size_t edit_distance_opts(const uint8_t *p, size_t m, const uint8_t *t, size_t n,
                                 const wm_opts_t *o) {
    /* D[i][j] = distance of p[0,i) and t[0,j); two rows suffice. */
    size_t *prev = malloc((n + 1) * sizeof *prev);
    size_t *cur = malloc((n + 1) * sizeof *cur);
    assert(prev != NULL && cur != NULL);
    for (size_t j = 0; j <= n; j++) prev[j] = j;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= n; j++) {
            int eq = o ? oracle_char_match(p[i - 1], t[j - 1], o) : p[i - 1] == t[j - 1];
            cur[j] = min3(prev[j - 1] + (eq ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
        }
        size_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    size_t d = prev[n];
    free(prev);
    free(cur);
    return d;
}

size_t oracle_edit_distance(const uint8_t *a, size_t n, const uint8_t *b, size_t m) {
    return edit_distance_opts(a, n, b, m, NULL);
}

/* ==== match list ============================================================ */

typedef struct {
    wm_match_t *a;
    size_t n, cap;
} match_list;

static void list_push(match_list *l, uint64_t rec, uint64_t start, uint64_t end, size_t errors,
                      uint32_t strand) {
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
    x->errors = (uint32_t)errors;
    x->strand = strand;
}

/* ==== the search ============================================================ */

/* Per-end results for one record and one strand: best[e] = d(e) (or SIZE_MAX
** when no substring ending at e counts, e.g. e < m under Hamming) and
** start[e] = the largest s reaching it. Index 0 is unused. */
typedef struct {
    size_t *best;
    size_t *start;
} end_table;

/* Edit distance: d(e) for every e by the semi-global DP, then the start of
** each hit by a global DP over the reversed strings. */
static void scan_edit(const uint8_t *p, size_t m, const uint8_t *t, size_t n, const wm_opts_t *o,
                      size_t k, end_table *out) {
    /* Column DP: col[i] = min over s of dist(p[0,i), t[s,j)) for the current j.
    ** Starting column (j = 0): col[i] = i. Free start: row 0 is 0 everywhere. */
    size_t *col = malloc((m + 1) * sizeof *col);
    size_t *nxt = malloc((m + 1) * sizeof *nxt);
    assert(col != NULL && nxt != NULL);
    for (size_t i = 0; i <= m; i++) col[i] = i;
    for (size_t j = 1; j <= n; j++) {
        nxt[0] = 0;
        for (size_t i = 1; i <= m; i++) {
            int eq = oracle_char_match(p[i - 1], t[j - 1], o);
            nxt[i] = min3(col[i - 1] + (eq ? 0 : 1), col[i] + 1, nxt[i - 1] + 1);
        }
        memcpy(col, nxt, (m + 1) * sizeof *col);
        out->best[j] = col[m];
        out->start[j] = SIZE_MAX;
    }
    free(col);
    free(nxt);

    /* Starts. A substring X with dist(P, X) = d <= k has |len(X) - m| <= d,
    ** so only lengths 0..m+k need looking at. */
    for (size_t e = 1; e <= n; e++) {
        size_t d = out->best[e];
        if (d > k) continue;
        size_t w = m + k < e ? m + k : e; /* longest substring ending at e */
        /* R[i][j] = dist(p[m-i, m), t[e-j, e)), rows i = 0..m, cols j = 0..w. */
        size_t *prev = malloc((w + 1) * sizeof *prev);
        size_t *cur = malloc((w + 1) * sizeof *cur);
        assert(prev != NULL && cur != NULL);
        for (size_t j = 0; j <= w; j++) prev[j] = j;
        for (size_t i = 1; i <= m; i++) {
            cur[0] = i;
            for (size_t j = 1; j <= w; j++) {
                int eq = oracle_char_match(p[m - i], t[e - j], o);
                cur[j] = min3(prev[j - 1] + (eq ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
            }
            size_t *tmp = prev;
            prev = cur;
            cur = tmp;
        }
        /* prev[j] = dist(P, t[e-j, e)); the shortest j reaching d is the
        ** largest start. One must exist: d(e) is attained by some s. */
        size_t j = 0;
        while (j <= w && prev[j] != d) j++;
        assert(j <= w);
        out->start[e] = e - j;
        free(prev);
        free(cur);
    }
}

/* Hamming distance: only the substring of length m ending at e counts. */
static void scan_hamming(const uint8_t *p, size_t m, const uint8_t *t, size_t n, const wm_opts_t *o,
                         end_table *out) {
    for (size_t e = 1; e <= n; e++) {
        out->best[e] = SIZE_MAX;
        out->start[e] = SIZE_MAX;
        if (e < m) continue;
        size_t s = e - m, mism = 0;
        for (size_t i = 0; i < m; i++)
            if (!oracle_char_match(p[i], t[s + i], o)) mism++;
        out->best[e] = mism;
        out->start[e] = s;
    }
}

/* The reverse complement of p (m bytes) into rc. */
static void reverse_complement(const uint8_t *p, size_t m, uint8_t *rc) {
    for (size_t i = 0; i < m; i++) {
        uint8_t c = oracle_iupac_complement(p[m - 1 - i]);
        assert(c != 0 && "revcomp of a pattern that is not IUPAC nucleotides");
        rc[i] = c;
    }
}

static wm_opts_t opts_or_default(const wm_opts_t *o) {
    wm_opts_t d;
    memset(&d, 0, sizeof d); /* k 0, edit, case-sensitive, bytes, no revcomp, auto */
    return o ? *o : d;
}

/* Record r of t as [*beg, *end) within t->seq; n_rec == 0 means one record. */
static size_t record_count(const wm_text_t *t) { return t->n_rec == 0 ? 1 : t->n_rec; }

static void record_span(const wm_text_t *t, size_t r, uint64_t *beg, uint64_t *end) {
    if (t->n_rec == 0 || t->rec_start == NULL) {
        *beg = 0;
        *end = t->len;
        return;
    }
    *beg = t->rec_start[r];
    *end = (r + 1 < t->n_rec) ? t->rec_start[r + 1] : t->len;
    assert(*beg <= *end && *end <= t->len);
}

size_t oracle_search(const uint8_t *pat, size_t m, const wm_opts_t *opts, const wm_text_t *t,
                     wm_match_t **out) {
    wm_opts_t o = opts_or_default(opts);
    size_t k = o.max_edits;
    assert(m > 0 && k < m);
    int n_strands = o.revcomp ? 2 : 1;

    const uint8_t *strand_pat[2] = { pat, NULL };
    uint8_t *rc = NULL;
    if (o.revcomp) {
        rc = malloc(m);
        assert(rc != NULL);
        reverse_complement(pat, m, rc);
        strand_pat[1] = rc;
    }

    match_list l = { NULL, 0, 0 };
    for (size_t r = 0; r < record_count(t); r++) {
        uint64_t beg, end;
        record_span(t, r, &beg, &end);
        size_t n = (size_t)(end - beg);
        const uint8_t *rec = t->seq + beg;

        end_table tab[2];
        for (int s = 0; s < n_strands; s++) {
            tab[s].best = malloc((n + 1) * sizeof(size_t));
            tab[s].start = malloc((n + 1) * sizeof(size_t));
            assert(tab[s].best != NULL && tab[s].start != NULL);
            if (o.metric == WM_METRIC_HAMMING) scan_hamming(strand_pat[s], m, rec, n, &o, &tab[s]);
            else scan_edit(strand_pat[s], m, rec, n, &o, k, &tab[s]);
        }
        for (size_t e = 1; e <= n; e++)
            for (int s = 0; s < n_strands; s++)
                if (tab[s].best[e] <= k)
                    list_push(&l, r, tab[s].start[e], e, tab[s].best[e], (uint32_t)s);
        for (int s = 0; s < n_strands; s++) {
            free(tab[s].best);
            free(tab[s].start);
        }
    }
    free(rc);
    *out = l.a;
    return l.n;
}

size_t oracle_search_naive(const uint8_t *pat, size_t m, const wm_opts_t *opts, const wm_text_t *t,
                           wm_match_t **out) {
    wm_opts_t o = opts_or_default(opts);
    size_t k = o.max_edits;
    assert(m > 0 && k < m);
    int n_strands = o.revcomp ? 2 : 1;

    const uint8_t *strand_pat[2] = { pat, NULL };
    uint8_t *rc = NULL;
    if (o.revcomp) {
        rc = malloc(m);
        assert(rc != NULL);
        reverse_complement(pat, m, rc);
        strand_pat[1] = rc;
    }

    match_list l = { NULL, 0, 0 };
    for (size_t r = 0; r < record_count(t); r++) {
        uint64_t beg, end;
        record_span(t, r, &beg, &end);
        size_t n = (size_t)(end - beg);
        const uint8_t *rec = t->seq + beg;
        for (size_t e = 1; e <= n; e++) {
            for (int st = 0; st < n_strands; st++) {
                const uint8_t *p = strand_pat[st];
                size_t best = SIZE_MAX, best_s = 0;
                for (size_t s = 0; s <= e; s++) { /* increasing s: ties go to larger s */
                    size_t d;
                    if (o.metric == WM_METRIC_HAMMING) {
                        if (e - s != m) continue;
                        d = 0;
                        for (size_t i = 0; i < m; i++)
                            d += !oracle_char_match(p[i], rec[s + i], &o);
                    } else {
                        d = edit_distance_opts(p, m, rec + s, e - s, &o);
                    }
                    if (d <= best) {
                        best = d;
                        best_s = s;
                    }
                }
                if (best <= k) list_push(&l, r, best_s, e, best, (uint32_t)st);
            }
        }
    }
    free(rc);
    *out = l.a;
    return l.n;
}
