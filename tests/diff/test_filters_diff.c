/*
** test_filters_diff.c -- the filters against the kernels they stand in front of.
**
** With the algorithm left to AUTO, the CPU searches k >= 1 through the
** pigeonhole filter (exact pieces, then windows verified by the kernel) and,
** for m > 64, through the 64-position suffix filter; the GPU uses its own
** 32-position suffix filter. Those paths only engage on long spans, which the
** oracle is too slow to check. The explicit algorithms (bitap, Myers) run no
** filter and are checked against the oracle in test_search_diff; here AUTO
** must give exactly their output, on texts of 20 kB to 220 kB with copies of
** the pattern planted with up to k + 1 errors, across chunk sizes, on the CPU
** and (when there is one) the GPU.
**
** Usage: test_filters_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of cases [1.0]
**        WM_CASE        run only this case (reproduce a failure)
**        WM_VERBOSE     print each failing case's pattern in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"
#include "warpmatch.h"

typedef struct {
    uint8_t p[400];
    size_t m;
    uint32_t k;
    int hamming, sigma;
    uint8_t *t;
    size_t n;
} fcase;

static void describe(const void *p) {
    const fcase *c = p;
    printf("    m %zu, k %u, %s, %d letters, n %zu\n    pattern ", c->m, c->k,
           c->hamming ? "hamming" : "edit", c->sigma, c->n);
    print_bytes(stdout, c->p, c->m, g_verbose ? (size_t)-1 : 80);
    printf("\n");
}

static void gen_case(fcase *c) {
    c->sigma = chance(50) ? 4 : 20;
    c->m = 16 + (size_t)below(chance(67) ? 100 : 300);
    c->k = 1 + (uint32_t)below(6);
    c->hamming = chance(25);
    c->n = 20000 + (size_t)below(200000);
    c->t = xmalloc(c->n);
    for (size_t i = 0; i < c->m; i++) c->p[i] = (uint8_t)('A' + below((uint64_t)c->sigma));
    for (size_t i = 0; i < c->n; i++) c->t[i] = (uint8_t)('A' + below((uint64_t)c->sigma));
    for (int x = 0; x < 40; x++) { /* copies with 0..k+1 errors */
        size_t at = (size_t)below(c->n - c->m - 8);
        memcpy(c->t + at, c->p, c->m);
        uint32_t e = (uint32_t)below(c->k + 2);
        for (uint32_t y = 0; y < e; y++) {
            size_t pos = (size_t)below(c->m);
            if (c->hamming || chance(33))
                c->t[at + pos] = (uint8_t)('A' + below((uint64_t)c->sigma));
            else memmove(c->t + at + pos, c->t + at + pos + 1, c->m - pos);
        }
    }
}

/* Search c with o on a fresh context (2 threads, the chunk given); the
** list in *out. Returns the status of the first call that failed. */
static int run(const fcase *c, const wm_opts_t *o, wm_backend_t be, uint64_t chunk,
               match_vec *out) {
    wm_db_t *db = NULL;
    int rc = wm_compile(c->p, c->m, o, &db);
    if (rc != WM_OK) return rc;
    config cf;
    out->n = 0;
    if (!make_context(&cf, be, 2, chunk)) rc = WM_INVALID;
    wm_text_t tx = { c->t, c->n, NULL, 0 };
    if (rc == WM_OK) rc = wm_search(cf.cx, db, &tx, collect, out);
    close_configs(&cf, 1);
    wm_db_free(db);
    return rc;
}

int main(int argc, char **argv) {
    double scale;
    long only = -1;
    g_describe = describe;
    test_settings(argc, argv, 20261122ull, &scale, &only);
    long cases = (long)(120 * scale);
    if (cases < 1) cases = 1;
    int gpu = wm_cuda_device_count() > 0;
    printf("test_filters_diff: seed %llu, %ld cases; cuda: %s\n", (unsigned long long)g_seed, cases,
           gpu ? "testing the CUDA backend too" : "skipped (no GPU)");
    match_vec want = { 0 }, got = { 0 };
    for (long i = 0; i < cases; i++) {
        if (only >= 0 && i != only) continue;
        seed_case(i, 5);
        fcase c;
        gen_case(&c);
        wm_opts_t o = wm_opts_default();
        o.max_edits = c.k;
        o.metric = c.hamming ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
        o.algo = c.hamming ? WM_ALGO_BITAP : WM_ALGO_MYERS;
        int rc = run(&c, &o, WM_BACKEND_CPU, 0, &want);
        if (rc != WM_OK) {
            fail_fmt(i, &c, "the reference run (%s) returned %d (%s)", wm_algo_name(o.algo), rc,
                     wm_strerror(rc));
            free(c.t);
            continue;
        }
        o.algo = WM_ALGO_AUTO;
        for (int cfg = 0; cfg < (gpu ? 4 : 2); cfg++) {
            wm_backend_t be = cfg < 2 ? WM_BACKEND_CPU : WM_BACKEND_CUDA;
            uint64_t chunk = cfg % 2 ? 3000 + below(40000) : 0;
            char what[160];
            snprintf(what, sizeof what, "auto on %s, chunk %llu against %s",
                     be == WM_BACKEND_CPU ? "cpu" : "cuda", (unsigned long long)chunk,
                     c.hamming ? "bitap" : "myers");
            rc = run(&c, &o, be, chunk, &got);
            if (rc != WM_OK)
                fail_fmt(i, &c, "%s: wm_search returned %d (%s)", what, rc, wm_strerror(rc));
            else compare_matches(i, &c, what, got.a, got.n, want.a, want.n);
        }
        free(c.t);
    }
    free(want.a);
    free(got.a);
    print_repro(argv[0], NULL);
    return test_finish();
}
