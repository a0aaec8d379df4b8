/*
** bench_setk_finish.c -- the host's half of a set within k errors on the GPU
** (src/setk/gpu_finish.c) on its own, on any machine: a table standing in
** for a GPU hands wm_setk_gpu_scan H synthetic hits of a
** Hamming set of guides (random patterns, ends and strands over a random
** text of one record), as a guide set's GPU run hands the host 10 M of them
** (BENCHMARKS.md 17b). Two ways, as the GPU's code gives them: hits in any
** order, which the host sorts by segment, finishes on the pool (start = end
** - m for Hamming), sorts by end and delivers; and keys the GPU sorted
** (setk.h, wm_setk_key_layout_t), which the host only finishes and
** delivers. Prints the median of R runs of each, counting and listing.
**
** Usage: bench_setk_finish [HITS [PATTERNS [REPEATS]]]   [10000000 10000 3]
**
** bench_setk_finish --reads READS.fa GENOME.fa [K [REPEATS]]   [4 3]: the
** reads as a set within K edits, both strands; every end the CPU finds
** (wm_search) is what a GPU's batches hand the host (each batch its own
** ends). Times the host's half listing them three ways: every start found
** on the host; with tuning.loci_starts (the CLI's --best-per-locus: starts
** only where a locus reads them, setk/loci.c); and as the GPU now hands edit
** hits over, keys sorted with their occurrences' lengths (setk.h), the
** starts found on the device. Prints the median of each and the sum of the
** starts delivered (the first and the third must agree).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"
#include "io/seqfile.h"
#include "setk_reads.h"
#include "setk/setk.h"
#include "warpmatch.h"

#define TEXT_LEN 60000000ull
#define M 23

static wm_setk_hit_t *g_hits;
static uint16_t *g_lens; /* --reads: each end's occurrence length, the CPU's */
static size_t g_n;

static int supports(const wm_setk_t *s) {
    (void)s;
    return 1;
}

/* Each batch gets the ends it owns, (lo, hi], as the GPU's batches do: as
** hits in any order, or (g_keyed, when the host asks a layout) as the keys
** the GPU sorts, taken in order from g_hits sorted once by end. */
static int g_keyed;
static wm_status own_batch(wm_context_t *cx, const wm_setk_t *s, const wm_text_t *t,
                           const uint64_t *rs, size_t n_rec, uint64_t lo, uint64_t hi,
                           const wm_setk_key_layout_t *L, wm_setk_gpu_hits_t *out) {
    (void)cx, (void)s, (void)t, (void)rs, (void)n_rec;
    out->n = 0;
    out->keyed = g_keyed && L;
    if (out->keyed) {
        size_t a = 0, b = g_n;
        while (a < b) { /* the first end past lo */
            size_t mid = a + (b - a) / 2;
            if (g_hits[mid].end <= lo) a = mid + 1;
            else b = mid;
        }
        size_t most = g_n - a + 1;
        if (wm_setk_gpu_hits_reserve(out, most * (sizeof(uint64_t) + sizeof(uint16_t))))
            return WM_NOMEM;
        uint64_t *k = out->buf;
        out->lens = L->lens ? (uint16_t *)(k + most) : NULL; /* edits: the starts the GPU finds */
        for (size_t x = a; x < g_n && g_hits[x].end <= hi; x++) { /* no regions: the final end */
            if (out->lens) out->lens[out->n] = g_lens[x];
            k[out->n++] = (g_hits[x].end - lo - 1) << L->end_shift |
                          (uint64_t)g_hits[x].pat << (L->err_bits + 1) |
                          (uint64_t)g_hits[x].strand << L->err_bits | g_hits[x].errors;
        }
        return WM_OK;
    }
    if (wm_setk_gpu_hits_reserve(out, (g_n ? g_n : 1) * sizeof(wm_setk_hit_t))) return WM_NOMEM;
    wm_setk_hit_t *h = out->buf;
    for (size_t x = 0; x < g_n; x++)
        if (g_hits[x].end > lo && g_hits[x].end <= hi) h[out->n++] = g_hits[x];
    return WM_OK;
}

/* (end, pattern, strand): the keys' order */
static int by_end(const void *a, const void *b) {
    const wm_setk_hit_t *x = a, *y = b;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    if (x->pat != y->pat) return x->pat < y->pat ? -1 : 1;
    return (x->strand > y->strand) - (x->strand < y->strand);
}

static const wm_setk_gpu_t g_own = { supports, own_batch };

static const uint64_t *g_rs;
static size_t g_cap;
static int keep_end(const wm_match_t *m, void *user) {
    (void)user;
    if (g_n == g_cap) {
        g_cap = g_cap ? 2 * g_cap : 1024;
        if (!(g_hits = realloc(g_hits, g_cap * sizeof *g_hits)) ||
            !(g_lens = realloc(g_lens, g_cap * sizeof *g_lens)))
            return 1;
    }
    g_lens[g_n] = (uint16_t)(m->end - m->start);
    wm_setk_hit_t *h = &g_hits[g_n++];
    h->end = g_rs[m->record] + m->end;
    h->pat = m->pattern;
    h->strand = m->strand;
    h->errors = m->errors;
    return 0;
}

static uint64_t g_state = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) { /* splitmix64 */
    uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int on_match(const wm_match_t *m, void *user) {
    *(uint64_t *)user += m->start;
    return 0;
}

static int by_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int by_double(const void *a, const void *b);

/* A DNA set of np patterns within k (both strands) and a CPU context. */
static int set_up(const uint8_t **pp, const size_t *len, size_t np, uint32_t k, wm_metric_t metric,
                  wm_db_t **db, wm_context_t **cx) {
    wm_opts_t o = wm_opts_default();
    o.alphabet = WM_ALPHABET_DNA;
    o.max_edits = k;
    o.metric = metric;
    o.revcomp = 1;
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    if (wm_compile_set(pp, len, np, &o, db) != WM_OK || wm_context_new(&co, cx) != WM_OK) {
        fprintf(stderr, "bench_setk_finish: set-up failed\n");
        return -1;
    }
    return 0;
}

/* --reads READS GENOME [K [REPEATS]] */
static int reads_mode(int argc, char **argv) {
    uint32_t k = argc > 4 ? (uint32_t)atoi(argv[4]) : 4;
    int reps = argc > 5 ? atoi(argv[5]) : 3;
    if (argc < 4 || reps < 1 || reps > 99) {
        fprintf(stderr, "usage: bench_setk_finish --reads READS.fa GENOME.fa [K [REPEATS]]\n");
        return 2;
    }
    wm_seqfile_t rf, gf;
    const uint8_t **pp;
    size_t *len, np;
    if (setk_read_inputs("bench_setk_finish", argv[2], argv[3], &rf, &gf, &pp, &len, &np)) return 1;
    wm_db_t *db = NULL;
    wm_context_t *cx = NULL;
    if (set_up(pp, len, np, k, WM_METRIC_EDIT, &db, &cx)) return 1;
    size_t n_rec = 0;
    uint64_t *rs = wm_text_record_starts(&gf.text, &n_rec);
    g_rs = rs;
    if (!rs || wm_search(cx, db, &gf.text, keep_end, NULL) != WM_OK) {
        fprintf(stderr, "bench_setk_finish: the CPU's ends failed\n");
        return 1;
    }
    printf("bench_setk_finish --reads: %zu reads, k = %u edits, both strands, against %llu bases: "
           "%zu ends, %d threads, median of %d\n",
           np, k, (unsigned long long)gf.text.len, g_n, wm_pool_size(cx->pool), reps);
    /* 0: hits, every start found here; 1: the same with loci_starts; 2:
    ** keys with their starts, as the GPU now gives edit hits (setk.h) */
    static const char *const mode_name[] = { "listing, every start", "listing, loci_starts",
                                             "listing, the GPU's starts" };
    for (int mode = 0; mode < 3; mode++) {
        wm_context_tuning(cx)->loci_starts = mode == 1;
        g_keyed = mode == 2;
        double s[99];
        uint64_t sum = 0;
        for (int r = 0; r < reps; r++) {
            uint64_t done = 0;
            sum = 0;
            wm_setk_sink_t dv = { on_match, &sum, NULL, 0, 0 };
            double t0 = now();
            wm_status st =
                wm_setk_gpu_scan(cx, &g_own, db->body, &gf.text, rs, n_rec, 0, &dv, &done);
            s[r] = now() - t0;
            if (st != WM_OK) {
                fprintf(stderr, "bench_setk_finish: status %d\n", (int)st);
                return 1;
            }
        }
        qsort(s, (size_t)reps, sizeof *s, by_double);
        printf("%-28s %zu matches  %.3f s  (%.2f M ends/s), starts summed %llu\n", mode_name[mode],
               g_n, s[reps / 2], (double)g_n / s[reps / 2] / 1e6, (unsigned long long)sum);
    }
    g_keyed = 0;
    free(rs);
    wm_db_free(db);
    wm_context_free(cx);
    free(g_hits);
    free(g_lens);
    free(pp);
    free(len);
    wm_seqfile_close(&rf);
    wm_seqfile_close(&gf);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--reads")) return reads_mode(argc, argv);
    g_n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
    size_t np = argc > 2 ? strtoull(argv[2], NULL, 10) : 10000;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (np == 0 || reps < 1 || reps > 99) {
        fprintf(stderr, "usage: bench_setk_finish [HITS [PATTERNS [REPEATS]]]\n");
        return 2;
    }
    uint8_t *text = malloc(TEXT_LEN), *arena = malloc(np * M);
    const uint8_t **pp = malloc(np * sizeof *pp);
    size_t *len = malloc(np * sizeof *len);
    g_hits = malloc((g_n ? g_n : 1) * sizeof *g_hits);
    if (!text || !arena || !pp || !len || !g_hits) return 1;
    for (uint64_t i = 0; i < TEXT_LEN; i++) text[i] = (uint8_t) "ACGT"[next() & 3];
    for (size_t i = 0; i < np; i++) {
        for (int j = 0; j < M; j++) arena[i * M + j] = (uint8_t) "ACGT"[next() & 3];
        pp[i] = arena + i * M;
        len[i] = M;
    }
    for (size_t x = 0; x < g_n; x++) {
        g_hits[x].end = M + next() % (TEXT_LEN - M);
        g_hits[x].pat = (uint32_t)(next() % np);
        g_hits[x].strand = (uint32_t)(next() & 1);
        g_hits[x].errors = (uint32_t)(next() % 5);
    }
    wm_db_t *db = NULL;
    wm_context_t *cx = NULL;
    if (set_up(pp, len, np, 4, WM_METRIC_HAMMING, &db, &cx)) return 1;
    wm_text_t t = { text, TEXT_LEN, NULL, 0 };
    size_t n_rec = 0;
    uint64_t *rs = wm_text_record_starts(&t, &n_rec);
    printf("bench_setk_finish: %zu hits of %zu patterns (%d bases, Hamming k = 4, both strands),"
           " %d threads, median of %d\n",
           g_n, np, M, wm_pool_size(cx->pool), reps);
    /* the same hits by end: the hits' order does not change the host's work,
    ** and the keys are taken from them in order */
    qsort(g_hits, g_n, sizeof *g_hits, by_end);
    for (int run = 0; run < 4; run++) {
        int listing = run & 1;
        g_keyed = run >> 1;
        double s[99];
        uint64_t matches = 0;
        for (int r = 0; r < reps; r++) {
            uint64_t sum = 0, done = 0;
            wm_setk_sink_t dv = { listing ? on_match : NULL, &sum, NULL, 0, 0 };
            double t0 = now();
            wm_status st = wm_setk_gpu_scan(cx, &g_own, db->body, &t, rs, n_rec, 0, &dv, &done);
            s[r] = now() - t0;
            if (st != WM_OK) {
                fprintf(stderr, "bench_setk_finish: status %d\n", (int)st);
                return 1;
            }
            matches = dv.count;
        }
        qsort(s, (size_t)reps, sizeof *s, by_double);
        printf("%-9s %-30s %llu matches  %.3f s  (%.1f M hits/s)\n",
               listing ? "listing" : "counting",
               g_keyed ? "keys sorted by the GPU" : "hits in any order, sorted here",
               (unsigned long long)matches, s[reps / 2], (double)g_n / s[reps / 2] / 1e6);
    }
    free(rs);
    wm_db_free(db);
    wm_context_free(cx);
    free(g_hits);
    free(text);
    free(arena);
    free(pp);
    free(len);
    return 0;
}
