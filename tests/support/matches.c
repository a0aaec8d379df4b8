/*
** matches.c -- collecting and comparing match lists (matches.h).
*/
#include "matches.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "rng.h"

wm_db_t *compile_text(const char *pat, const wm_opts_t *o) {
    wm_db_t *db = NULL;
    int rc = wm_compile((const uint8_t *)pat, strlen(pat), o, &db);
    CHECK(rc == WM_OK && db != NULL, "wm_compile(\"%s\") returned %d (%s)", pat, rc,
          wm_strerror(rc));
    return rc == WM_OK ? db : NULL;
}

int collect(const wm_match_t *x, void *user) {
    match_vec *v = user;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 256;
        v->a = xrealloc(v->a, v->cap * sizeof *v->a);
    }
    v->a[v->n++] = *x;
    return v->stop_after != 0 && v->n >= v->stop_after;
}

int same_match(const wm_match_t *a, const wm_match_t *b) {
    return a->record == b->record && a->start == b->start && a->end == b->end &&
           a->errors == b->errors && a->strand == b->strand && a->pattern == b->pattern;
}

static int by_order(const void *a, const void *b) {
    const wm_match_t *x = a, *y = b;
    if (x->record != y->record) return x->record < y->record ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    if (x->pattern != y->pattern) return x->pattern < y->pattern ? -1 : 1;
    return x->strand < y->strand ? -1 : x->strand > y->strand;
}

void sort_matches(wm_match_t *a, size_t n) {
    if (n > 1) qsort(a, n, sizeof *a, by_order);
}

void print_match(FILE *f, const char *tag, const wm_match_t *x) {
    if (x == NULL) fprintf(f, "    %s: (none)\n", tag);
    else
        fprintf(f,
                "    %s: record %" PRIu64 " start %" PRIu64 " end %" PRIu64
                " errors %u strand %u pattern %u\n",
                tag, x->record, x->start, x->end, x->errors, x->strand, x->pattern);
}

int compare_matches(long idx, const void *c, const char *what, const wm_match_t *got, size_t n_got,
                    const wm_match_t *want, size_t n_want) {
    size_t i = 0;
    while (i < n_got && i < n_want && same_match(&got[i], &want[i])) i++;
    if (i == n_got && i == n_want) {
        g_passed++;
        return 1;
    }
    fail_fmt(idx, c, "%s: %zu matches, expected %zu; first difference at #%zu", what, n_got, n_want,
             i);
    if (g_failed <= MAX_DETAILED_FAILURES) {
        print_match(stdout, "expected", i < n_want ? &want[i] : NULL);
        print_match(stdout, "library ", i < n_got ? &got[i] : NULL);
    }
    return 0;
}

int search_checked(long idx, const void *c, const char *what, wm_context_t *cx, const wm_db_t *db,
                   const wm_text_t *t, match_vec *got, const wm_match_t *want, size_t n_want,
                   unsigned count_pct, double *t_search) {
    got->n = 0;
    double t0 = now_s();
    int rc = wm_search(cx, db, t, collect, got);
    if (t_search) *t_search += now_s() - t0;
    if (rc != WM_OK) {
        fail_fmt(idx, c, "%s: wm_search returned %d (%s): %s", what, rc, wm_strerror(rc),
                 wm_context_errmsg(cx));
        return rc;
    }
    compare_matches(idx, c, what, got->a, got->n, want, n_want);
    if (chance(count_pct)) {
        uint64_t cnt = 0;
        int crc = wm_count(cx, db, t, &cnt);
        if (crc != WM_OK || cnt != n_want)
            fail_fmt(idx, c, "%s: wm_count returned %d (%s), count %" PRIu64 ", expected %zu", what,
                     crc, wm_strerror(crc), cnt, n_want);
        else g_passed++;
    }
    return rc;
}

void note_matches(match_cover *cov, const wm_match_t *w, size_t n) {
    int s1 = 0, mr = 0;
    for (size_t i = 0; i < n; i++) {
        s1 |= w[i].strand == 1;
        mr |= w[i].record > 0;
    }
    cov->cases++;
    cov->matches += n;
    cov->with_matches += n > 0;
    cov->strand1 += s1;
    cov->multi_rec += mr;
}

void print_text(const uint8_t *text, size_t n, const uint64_t *rec_start, size_t n_rec) {
    printf("    text ");
    print_bytes(stdout, text, n, g_verbose ? (size_t)-1 : 80);
    printf("\n");
    if (n_rec && g_verbose) {
        printf("    rec_start");
        for (size_t i = 0; i < n_rec; i++) printf(" %" PRIu64, rec_start[i]);
        printf("\n");
    }
}
