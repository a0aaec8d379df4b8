/*
** test_api_batches.c -- wm_search_batches and wm_search_target_batches: the
** matches of wm_search, in its order, handed over in runs.
**
** Every family that lists matches (one pattern exact and within k, an exact
** set, sets within k by edits and by Hamming distance with exact regions)
** is searched over random DNA of several records, dense with matches, on
** every context of tests/support/contexts.h's kinds: the CPU with 1 and 3
** threads, default and tiny chunks, two CPU devices (the text cut among
** them: core/shard.c), and CUDA when a GPU is found. For each:
**   - the runs, joined, are wm_search's list, field by field; no run is
**     empty;
**   - a driver that holds its matches in vectors hands them over whole:
**     where there are thousands of matches on one device, they come in far
**     fewer runs than matches (the point of the call);
**   - a callback that stops on run j ends the call with WM_STOPPED after
**     exactly j runs, which are the first matches;
**   - the target's call gives the same runs' matches;
**   - the text cut at random ends into parts (core/part.h: what the tool's
**     start-up cover scans one after another, on whichever context), each
**     part listed in runs, counted and counted per pattern: the parts'
**     matches joined are wm_search's list, their counts add up to
**     wm_count's and wm_count_per_pattern's; cuts inside the halo, at
**     record starts, of one byte and of none are among them;
**   - no callback, or no database, is WM_INVALID.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "core/part.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"
#include "warpmatch.h"

typedef struct {
    match_vec got;
    size_t runs, empty_runs, longest;
    size_t stop_on; /* return non-zero on this run (1-based); 0: never */
} runs_t;

static int on_run(const wm_match_t *m, size_t n, void *user) {
    runs_t *r = user;
    r->runs++;
    if (n == 0) r->empty_runs++;
    if (n > r->longest) r->longest = n;
    for (size_t i = 0; i < n; i++) collect(&m[i], &r->got);
    return r->stop_on != 0 && r->runs >= r->stop_on;
}

/* ---- the text and the databases ------------------------------------------------ */

#define TEXT_LEN 200000
#define N_REC 5

static uint8_t g_text[TEXT_LEN];
static uint64_t g_rec[N_REC];

/* Random DNA with planted copies of `site` (and its reverse complement's
** shape: the same bases read backwards and complemented) every few hundred
** bytes, some with a base changed, so every database below has thousands of
** matches. */
static void make_text(void) {
    static const char site[] = "GACGTTCAGGCATTGACCAGG";
    size_t m = sizeof site - 1;
    for (size_t i = 0; i < TEXT_LEN; i++) g_text[i] = (uint8_t) "ACGT"[below(4)];
    for (size_t at = below(50); at + m < TEXT_LEN; at += 40 + below(200)) {
        for (size_t j = 0; j < m; j++) {
            uint8_t b = (uint8_t)site[j];
            if ((at & 1) != 0) { /* the reverse complement */
                char c = site[m - 1 - j];
                b = (uint8_t)(c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : 'A');
            }
            g_text[at + j] = b;
        }
        if (below(3) == 0) g_text[at + 2 + below(m - 6)] = (uint8_t) "ACGT"[below(4)];
    }
    for (size_t r = 0; r < N_REC; r++) g_rec[r] = r * (TEXT_LEN / N_REC) + (r ? below(1000) : 0);
}

typedef struct {
    const char *name;
    wm_db_t *db;
} db_case;

static wm_db_t *set_db(const char *const *pats, size_t n, const wm_opts_t *o) {
    const uint8_t *pp[8];
    size_t len[8];
    for (size_t i = 0; i < n; i++) {
        pp[i] = (const uint8_t *)pats[i];
        len[i] = strlen(pats[i]);
    }
    wm_db_t *db = NULL;
    wm_status st = wm_compile_set(pp, len, n, o, &db);
    CHECK(st == WM_OK, "wm_compile_set: %s", wm_strerror(st));
    return st == WM_OK ? db : NULL;
}

static size_t make_dbs(db_case *d) {
    size_t n = 0;
    wm_opts_t o = wm_opts_default();
    d[n++] = (db_case){ "one pattern, exact", compile_text("CAGG", &o) };
    o.max_edits = 1;
    d[n++] = (db_case){ "one pattern, k 1", compile_text("GACGTTCA", &o) };
    o = wm_opts_default();
    static const char *const exact[] = { "CAGG", "GTTC", "ACG", "TTGACC" };
    d[n++] = (db_case){ "exact set", set_db(exact, N_OF(exact), &o) };
    o.max_edits = 2;
    o.revcomp = 1;
    static const char *const reads[] = { "GACGTTCAGGCATTGACC", "CATTGACCAGGAC", "TTTTTTTTTTTTTT" };
    d[n++] = (db_case){ "set within 2 edits, both strands", set_db(reads, N_OF(reads), &o) };
    o = wm_opts_default();
    o.alphabet = WM_ALPHABET_DNA; /* N and R are IUPAC codes */
    o.metric = WM_METRIC_HAMMING;
    o.max_edits = 3;
    o.revcomp = 1;
    o.exact_suffix = 3;
    static const char *const guides[] = { "GACGTTCAGGCATTGACCNGG", "ACGTTCAGGCATTGACCANRG",
                                          "CCCCGGGGAAAATTTTCCNGG" };
    d[n++] = (db_case){ "guides, Hamming 3, NGG", set_db(guides, N_OF(guides), &o) };
    return n;
}

/* ---- the checks ------------------------------------------------------------------ */

static long g_case;

/* Ends to cut the text at (besides 0 and the length): random ones, record
** starts and the bytes around them, and pairs one byte apart. Sorted, may
** repeat (an empty part). */
static size_t make_cuts(uint64_t *cut, size_t cap) {
    size_t n = 0;
    cut[n++] = 0;
    for (size_t r = 1; r < N_REC && n + 3 < cap; r++) {
        cut[n++] = g_rec[r];
        cut[n++] = g_rec[r] + 1 + below(20); /* inside the next record's first halo */
    }
    while (n + 2 < cap) {
        uint64_t at = below(TEXT_LEN);
        cut[n++] = at;
        if (below(4) == 0) cut[n++] = at + 1 < TEXT_LEN ? at + 1 : at;
    }
    cut[n++] = TEXT_LEN;
    for (size_t i = 1; i < n; i++) /* insertion sort: a few dozen */
        for (size_t j = i; j > 0 && cut[j - 1] > cut[j]; j--) {
            uint64_t x = cut[j];
            cut[j] = cut[j - 1];
            cut[j - 1] = x;
        }
    return n;
}

static void check_parts(const config *cf, const db_case *d, const wm_text_t *t,
                        const match_vec *want, long idx) {
    uint64_t cut[40];
    size_t n_cut = make_cuts(cut, sizeof cut / sizeof cut[0]);
    size_t n_rec, np = wm_db_pattern_count(d->db);
    uint64_t *rs = wm_text_record_starts(t, &n_rec);
    uint64_t *per = calloc(np, sizeof *per), *sum = calloc(np, sizeof *sum);
    uint64_t whole = 0, *whole_per = calloc(np, sizeof *whole_per);
    if (!CHECK(rs && per && sum && whole_per, "out of memory")) goto done;
    CHECK_RC(wm_count(cf->cx, d->db, t, &whole), WM_OK);
    CHECK_RC(wm_count_per_pattern(cf->cx, d->db, t, whole_per), WM_OK);
    runs_t r = { 0 };
    uint64_t total = 0;
    for (size_t i = 0; i + 1 < n_cut; i++) {
        wm_part_t p;
        if (!CHECK(wm_part_layout(&p, t, rs, n_rec, cut[i], cut[i + 1], d->db->halo) == 0,
                   "out of memory"))
            break;
        wm_status st = wm_part_scan(cf->cx, d->db, &p, on_run, &r, NULL, NULL);
        CHECK(st == WM_OK, "%s, %s: part (%" PRIu64 ", %" PRIu64 "]: %s", cf->name, d->name, cut[i],
              cut[i + 1], wm_strerror(st));
        uint64_t n = 0;
        st = wm_part_scan(cf->cx, d->db, &p, NULL, NULL, &n, per);
        CHECK(st == WM_OK, "%s, %s: counting part (%" PRIu64 ", %" PRIu64 "]: %s", cf->name,
              d->name, cut[i], cut[i + 1], wm_strerror(st));
        total += n;
        for (size_t j = 0; j < np; j++) sum[j] += per[j];
        wm_part_free(&p);
    }
    char what[200];
    snprintf(what, sizeof what, "%s, %s: %zu parts joined", cf->name, d->name, n_cut - 1);
    compare_matches(idx, NULL, what, r.got.a, r.got.n, want->a, want->n);
    CHECK(total == whole && whole == want->n,
          "%s, %s: the parts count %" PRIu64 ", wm_count %" PRIu64 ", listed %zu", cf->name,
          d->name, total, whole, want->n);
    CHECK(memcmp(sum, whole_per, np * sizeof *sum) == 0,
          "%s, %s: the parts' counts per pattern differ from wm_count_per_pattern's", cf->name,
          d->name);
    free(r.got.a);
done:
    free(rs);
    free(per);
    free(sum);
    free(whole_per);
}

static void check_db(const config *cf, const db_case *d, const wm_text_t *t) {
    long idx = g_case++;
    match_vec want = { 0 };
    wm_status st = wm_search(cf->cx, d->db, t, collect, &want);
    if (!CHECK(st == WM_OK, "%s, %s: wm_search: %s", cf->name, d->name, wm_strerror(st))) return;

    runs_t r = { 0 };
    st = wm_search_batches(cf->cx, d->db, t, on_run, &r);
    CHECK(st == WM_OK, "%s, %s: wm_search_batches: %s", cf->name, d->name, wm_strerror(st));
    char what[200];
    snprintf(what, sizeof what, "%s, %s: the runs joined", cf->name, d->name);
    compare_matches(idx, NULL, what, r.got.a, r.got.n, want.a, want.n);
    CHECK(r.empty_runs == 0, "%s, %s: %zu empty runs", cf->name, d->name, r.empty_runs);
    CHECK(want.n >= 1000, "%s, %s: only %zu matches: the text should be dense", cf->name, d->name,
          want.n);
    /* the drivers hand their vectors over whole: on the CPU's one device
    ** with chunks of a given size, a run is a chunk's matches (those whose
    ** end falls in it), not the 256 the gatherer would have made */
    if (cf->backend == WM_BACKEND_CPU && cf->n_devices <= 1 && cf->chunk > 0) {
        size_t chunks = 0;
        uint64_t last = UINT64_MAX;
        for (size_t i = 0; i < want.n; i++) {
            uint64_t c = (g_rec[want.a[i].record] + want.a[i].end - 1) / cf->chunk;
            chunks += c != last;
            last = c;
        }
        CHECK(r.runs == chunks, "%s, %s: %zu runs, %zu chunks with matches", cf->name, d->name,
              r.runs, chunks);
    }
    CHECK(r.runs * 4 <= want.n, "%s, %s: %zu matches came in %zu runs", cf->name, d->name, want.n,
          r.runs);
    if (getenv("WM_VERBOSE"))
        printf("%s, %s: %zu matches in %zu runs, the longest %zu\n", cf->name, d->name, want.n,
               r.runs, r.longest);
    free(r.got.a);
    r.got.a = NULL;

    /* stopping on run j: exactly j runs, the first matches */
    for (size_t j = 1; j <= 2 && j <= r.runs; j++) {
        runs_t s = { 0 };
        s.stop_on = j;
        st = wm_search_batches(cf->cx, d->db, t, on_run, &s);
        CHECK(st == WM_STOPPED, "%s, %s: stop on run %zu: status %s", cf->name, d->name, j,
              wm_strerror(st));
        CHECK(s.runs == j, "%s, %s: stop on run %zu: %zu runs", cf->name, d->name, j, s.runs);
        CHECK(s.got.n > 0 && s.got.n <= want.n &&
                  memcmp(s.got.a, want.a, s.got.n * sizeof *want.a) == 0,
              "%s, %s: stop on run %zu: the %zu matches delivered are not the first", cf->name,
              d->name, j, s.got.n);
        free(s.got.a);
    }

    /* the target's call */
    wm_target_t *tg = NULL;
    if (CHECK_RC(wm_target_new(cf->cx, t, &tg), WM_OK)) {
        runs_t q = { 0 };
        st = wm_search_target_batches(cf->cx, d->db, tg, on_run, &q);
        CHECK(st == WM_OK, "%s, %s: wm_search_target_batches: %s", cf->name, d->name,
              wm_strerror(st));
        snprintf(what, sizeof what, "%s, %s: the target's runs joined", cf->name, d->name);
        compare_matches(idx, NULL, what, q.got.a, q.got.n, want.a, want.n);
        free(q.got.a);
    }
    wm_target_free(tg);
    check_parts(cf, d, t, &want, idx);
    free(want.a);
}

static void check_arguments(wm_context_t *cx, const wm_db_t *db, const wm_text_t *t) {
    runs_t r = { 0 };
    CHECK_RC(wm_search_batches(cx, db, t, NULL, &r), WM_INVALID);
    CHECK_RC(wm_search_batches(cx, NULL, t, on_run, &r), WM_INVALID);
    CHECK_RC(wm_search_batches(NULL, db, t, on_run, &r), WM_INVALID);
    CHECK_RC(wm_search_batches(cx, db, NULL, on_run, &r), WM_INVALID);
    CHECK(r.runs == 0, "a refused call ran the callback %zu times", r.runs);
    /* an empty text: no run at all */
    wm_text_t empty = { g_text, 0, NULL, 0 };
    CHECK_RC(wm_search_batches(cx, db, &empty, on_run, &r), WM_OK);
    CHECK(r.runs == 0, "an empty text gave %zu runs", r.runs);
}

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261127ull, &scale, &only);
    seed_case(0, 0xba7c4e5);
    make_text();
    wm_text_t t = { g_text, TEXT_LEN, g_rec, N_REC };
    db_case dbs[8];
    size_t n_db = make_dbs(dbs);

    config cf[8];
    size_t n = 0;
    static const int two[] = { 0, 1 };
    n += (size_t)make_context(&cf[n], WM_BACKEND_CPU, 1, 0);
    n += (size_t)make_context(&cf[n], WM_BACKEND_CPU, 3, 0);
    n += (size_t)make_context(&cf[n], WM_BACKEND_CPU, 3, 4096);
    n += (size_t)open_config(&cf[n], "cpu, 2 devices of 2 threads", WM_BACKEND_CPU, 2, 0, two, 2);
    if (cuda_present(NULL)) n += (size_t)make_context(&cf[n], WM_BACKEND_CUDA, 3, 0);

    if (n > 0 && dbs[0].db) check_arguments(cf[0].cx, dbs[0].db, &t);
    for (size_t x = 0; x < n; x++)
        for (size_t d = 0; d < n_db; d++)
            if (dbs[d].db) check_db(&cf[x], &dbs[d], &t);
    for (size_t d = 0; d < n_db; d++) wm_db_free(dbs[d].db);
    close_configs(cf, n);
    return test_finish();
}
