/*
** setcase.c -- setcase.h.
*/
#include "setcase.h"

#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "matches.h"
#include "moracle.h"
#include "rng.h"

uint64_t *setcase_records(size_t n_text, size_t *n_rec) {
    size_t n = chance(40) ? 1 : (size_t)range(2, 12);
    uint64_t *rs = malloc((n + 1) * sizeof *rs);
    rs[0] = 0;
    for (size_t r = 1; r < n; r++) rs[r] = below(n_text + 1);
    rs[n] = n_text;
    for (size_t r = 1; r < n; r++) /* sorted */
        for (size_t q = r; q > 1 && rs[q - 1] > rs[q]; q--) {
            uint64_t t = rs[q];
            rs[q] = rs[q - 1];
            rs[q - 1] = t;
        }
    *n_rec = n;
    return rs;
}

void setcase_other_case(uint8_t *text, size_t len) {
    for (size_t j = 0; j < len; j++)
        if (chance(50) && text[j] >= 'a' && text[j] <= 'z') text[j] -= 'a' - 'A';
}

void setcase_check(long idx, const void *c, const uint8_t *const *pats, const size_t *lens,
                   size_t np, int icase, const wm_text_t *t, wm_algo_t algo, const char *name,
                   const fixed_set *fixed) {
    wm_opts_t o = wm_opts_default();
    o.case_insensitive = icase;
    wm_match_t *want = NULL;
    size_t n_want = moracle_search(pats, lens, np, &o, t, &want);
    const wm_algo_t algos[] = { algo, WM_ALGO_AUTO };
    config cfgs[9];
    size_t n_cfg = 0;
    for (size_t j = 0; j < fixed->n && j < 8; j++) cfgs[n_cfg++] = fixed->cf[j];
    size_t n_fixed = n_cfg;
    if (make_context(&cfgs[n_cfg], WM_BACKEND_CPU, 3, range(1, 64))) n_cfg++;
    match_vec got = { 0 };
    for (size_t a = 0; a < 2; a++) {
        o.algo = algos[a];
        wm_db_t *db = NULL;
        char what[160];
        snprintf(what, sizeof what, "compile (%s)", a ? "auto" : name);
        int rc = wm_compile_set(pats, lens, np, &o, &db);
        check_case_status(idx, c, what, rc, WM_OK, NULL);
        if (rc != WM_OK) continue;
        for (size_t k = 0; k < n_cfg; k++) {
            snprintf(what, sizeof what, "%s (db %s), %s", a ? "auto" : name,
                     wm_algo_name(wm_db_algo(db)), cfgs[k].name);
            search_checked(idx, c, what, cfgs[k].cx, db, t, &got, want, n_want, 50, NULL);
        }
        wm_db_free(db);
    }
    free(got.a);
    close_configs(cfgs + n_fixed, n_cfg - n_fixed);
    free(want);
}

/* setcase_main's test, for its one_case */
static struct {
    void (*make)(setcase_t *);
    wm_algo_t algo;
    const char *name;
    fixed_set fixed;
} g_run;

static void one_case(long idx) {
    setcase_t c;
    g_run.make(&c);
    wm_text_t t = { c.text, c.n_text, c.rec_start, c.n_rec };
    setcase_check(idx, &c, (const uint8_t *const *)c.pats, c.lens, c.n_pats, c.icase, &t,
                  g_run.algo, g_run.name, &g_run.fixed);
    for (size_t i = 0; i < c.n_pats; i++) free(c.pats[i]);
    free(c.text);
    free(c.rec_start);
}

int setcase_main(const char *test, int argc, char **argv, uint64_t seed, long n,
                 void (*describe)(const void *), void (*make)(setcase_t *), wm_algo_t algo,
                 const char *name) {
    long only = -2;
    long n_cases = test_begin(test, argc, argv, seed, n, describe, &only);
    static const int threads[] = { 1, 3 };
    g_run.make = make;
    g_run.algo = algo;
    g_run.name = name;
    g_run.fixed.gpu = 0;
    g_run.fixed.n = 0;
    for (size_t i = 0; i < 2; i++)
        if (make_context(&g_run.fixed.cf[g_run.fixed.n], WM_BACKEND_CPU, threads[i], 0))
            g_run.fixed.n++;
    run_cases(n_cases, only, 7, 100, one_case);
    close_configs(g_run.fixed.cf, g_run.fixed.n);
    print_time_split();
    printf("\n");
    print_repro(argv[0], NULL);
    return test_finish();
}
