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
** Env: WM_TEST_SCALE multiplies the number of cases [1.0]. Seed: argv[1].
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"

static uint64_t rng;
static uint64_t next(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

typedef struct { wm_match_t *a; size_t n, cap; } list_t;

static int collect(const wm_match_t *m, void *user) {
    list_t *l = user;
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 1024;
        wm_match_t *a = realloc(l->a, c * sizeof *a);
        if (!a) return 1;
        l->a = a; l->cap = c;
    }
    l->a[l->n++] = *m;
    return 0;
}

static int run(const uint8_t *p, size_t m, const wm_opts_t *o, const uint8_t *t, size_t n,
               wm_backend_t be, uint64_t chunk, list_t *out) {
    wm_db_t *db;
    if (wm_compile(p, m, o, &db) != WM_OK) return -1;
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = be;
    co.threads = 2;
    co.chunk_bytes = chunk;
    wm_context_t *cx;
    int rc = wm_context_new(&co, &cx) == WM_OK ? 0 : -1;
    wm_text_t tx = { t, n, NULL, 0 };
    out->n = 0;
    if (rc == 0 && wm_search(cx, db, &tx, collect, out) != WM_OK) rc = -1;
    wm_context_free(cx);
    wm_db_free(db);
    return rc;
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 20261122;
    double scale = getenv("WM_TEST_SCALE") ? atof(getenv("WM_TEST_SCALE")) : 1.0;
    int cases = (int)(120 * scale);
    if (cases < 1) cases = 1;
    rng = seed * 2654435761u + 1;
    int gpu = wm_cuda_device_count() > 0;
    printf("test_filters_diff: seed %llu, %d cases; cuda: %s\n", (unsigned long long)seed, cases,
           gpu ? "testing the CUDA backend too" : "skipped (no GPU)");
    int passed = 0, failed = 0;
    list_t want = {0}, got = {0};
    for (int c = 0; c < cases; c++) {
        int sigma = next() % 2 ? 4 : 20;
        size_t m = 16 + next() % (next() % 3 ? 100 : 300);
        uint32_t k = 1 + (uint32_t)(next() % 6);
        int hamming = next() % 4 == 0;
        size_t n = 20000 + next() % 200000;
        uint8_t *t = malloc(n), p[400];
        for (size_t i = 0; i < m; i++) p[i] = (uint8_t)('A' + next() % sigma);
        for (size_t i = 0; i < n; i++) t[i] = (uint8_t)('A' + next() % sigma);
        for (int x = 0; x < 40; x++) {          /* copies with 0..k+1 errors */
            size_t at = next() % (n - m - 8);
            memcpy(t + at, p, m);
            uint32_t e = (uint32_t)(next() % (k + 2));
            for (uint32_t y = 0; y < e; y++) {
                size_t pos = next() % m;
                if (hamming || next() % 3 == 0) t[at + pos] = (uint8_t)('A' + next() % sigma);
                else memmove(t + at + pos, t + at + pos + 1, m - pos);
            }
        }
        wm_opts_t o = wm_opts_default();
        o.max_edits = k;
        o.metric = hamming ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
        o.algo = hamming ? WM_ALGO_BITAP : WM_ALGO_MYERS;
        if (run(p, m, &o, t, n, WM_BACKEND_CPU, 0, &want) != 0) { printf("FAIL case %d: reference run\n", c); failed++; free(t); continue; }
        o.algo = WM_ALGO_AUTO;
        for (int cfg = 0; cfg < (gpu ? 4 : 2); cfg++) {
            wm_backend_t be = cfg < 2 ? WM_BACKEND_CPU : WM_BACKEND_CUDA;
            uint64_t chunk = cfg % 2 ? 3000 + next() % 40000 : 0;
            int ok = run(p, m, &o, t, n, be, chunk, &got) == 0 && got.n == want.n;
            for (size_t i = 0; ok && i < got.n; i++) ok = !memcmp(&got.a[i], &want.a[i], sizeof got.a[i]);
            if (ok) { passed++; continue; }
            failed++;
            printf("FAIL seed %llu case %d: %s chunk %llu, m %zu k %u %s sigma %d n %zu: %zu matches, expected %zu\n",
                   (unsigned long long)seed, c, be == WM_BACKEND_CPU ? "cpu" : "cuda", (unsigned long long)chunk, m, k,
                   hamming ? "hamming" : "edit", sigma, n, got.n, want.n);
        }
        free(t);
    }
    free(want.a);
    free(got.a);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
