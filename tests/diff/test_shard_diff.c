/*
** test_shard_diff.c -- one call over several devices (wm_context_opts_t's
** devices / n_devices, src/core/shard.c) against one device.
**
** The reference is a plain CPU context with one thread; its answers are
** checked against the oracles by the other differential tests, so here
** every multi-device context must give exactly its bytes. Contexts under
** test: the CPU backend cut into 2, 3, 4 and 7 shards (devices all 0; the
** threads shared out, tiny chunks so that chunk borders fall inside the
** shards too), AUTO into 3 when no GPU is found (it must fall back to CPU
** shards), a one-entry list (an ordinary context), and with a GPU the CUDA
** backend on devices {0, 0} and {0, 0, 0} (two and three contexts on one
** GPU); without one the CUDA runs are skipped with a message.
**
** 1. The API: a one-entry list is an ordinary context; NULL devices with
**    n_devices > 1 too; a negative ordinal is WM_INVALID with a message (the
**    context handed back); {0, 99} with the CUDA backend is what one device
**    gives for a missing GPU (no GPU: WM_NO_DEVICE or WM_UNSUPPORTED, the same
**    message) or WM_INVALID naming 99 and the count (GPUs); AUTO falls back
**    to CPU shards without a GPU; the caller's list may be freed after
**    wm_context_new; bad arguments give one device's status and message
**    (a bad pair and an empty dtw query in the middle of a list, bad record
**    starts); the progress callback is never entered twice at once, never
**    goes back, and ends at the text's length; with a GPU, a pair that fails
**    on a device is named by its index in the whole list, after which comes
**    "device 0: ".
** 2. Texts (wm_search, wm_count, wm_count_per_pattern): single patterns
**    (k = 0 .. m - 1, edit and Hamming, every algorithm valid for them,
**    revcomp, case folding, the DNA alphabet) and pattern sets (ac, pfac,
**    qgram, wumanber, wumanber-paper, auto; DNA and bytes, revcomp, case).
**    Texts of 0 .. 3,000 bytes, mostly many short records (empty ones too)
**    whose borders are put at, just before and just after the shard borders
**    of 2, 3, 4 and 7 shards; periodic dense texts ("ACACAC..."), occurrences
**    planted ending at and straddling shard borders, patterns longer than a
**    shard and than the text. Each case compares the full match list, the
**    count and the per-pattern counts, and a callback that stops after N
**    matches (WM_STOPPED after exactly the reference's first N).
** 3. wm_align, infix: 2- to 4-letter alphabets, the DNA alphabet, case
**    folding; random, periodic (best ends tie across shard borders) and
**    planted targets, targets shorter than the query, queries longer than a
**    shard; all_ends on and off, CIGARs, max_distance -1 and small; every
**    infix algorithm. A tenth of the cases are global (the first device).
** 4. wm_align_pairs: batches of 1 .. 40 pairs, global (every algorithm,
**    four-russians t = 1 .. 3) and infix, CIGARs, max_distance.
** 5. wm_dtw_many and wm_dtw: 1 .. 9 queries, subsequence (top 0, 1, 3,
**    max_distance), global and ucr (windows), znorm, paths; distances
**    compared bit for bit.
**
** Cases at WM_TEST_SCALE=1: 3,000 texts, 1,500 alignments, 300 batches of
** pairs, 400 dtw lists. Long patterns with a large k (k + 1 words a byte)
** and every tiny chunk rescanning their halo would take minutes: those
** cases (about a sixth) run on the same splits with larger chunks.
** Timing (2 cores, CPU only): Release about 12 s of CPU (25 s wall with the
** machine busy); ASan + UBSan about 35 s of CPU.
**
** Usage: test_shard_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of random cases [1.0]
**        WM_CASE        run only this random case (the numbers run on across
**                       parts 2 to 5; -1: the API checks only)
**        WM_VERBOSE     print failing cases in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"
#include "core/internal.h" /* n_sub: is a context cut or not */

#include "contexts.h"
#include "gen.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"

#define BIG_TEXT 3000

/* ==== contexts =============================================================== */

static config g_ref;      /* CPU, one thread */
static double g_t_cfg[8]; /* seconds in the text calls, by context */
static config g_cfg[8];
static size_t g_n_cfg;
/* The same splits with larger chunks, for patterns whose halo (m + k) makes
** every tiny chunk rescan hundreds of bytes with k + 1 words a byte. */
static config g_heavy[8];
static size_t g_n_heavy;

/* ==== 1. the API ============================================================= */

typedef struct {
    atomic_int inside;
    int overlapped, went_back;
    long calls;
    uint64_t last_done, last_total;
} progress_log;

static void on_progress(uint64_t done, uint64_t total, void *user) {
    progress_log *p = user;
    if (atomic_fetch_add(&p->inside, 1) != 0) p->overlapped = 1;
    if (p->calls && done < p->last_done) p->went_back = 1;
    p->calls++;
    p->last_done = done;
    p->last_total = total;
    atomic_fetch_sub(&p->inside, 1);
}

static int count_cb(const wm_match_t *m, void *user) {
    (void)m;
    ++*(uint64_t *)user;
    return 0;
}

static void api_progress(void) {
    static const int zeros[4] = { 0, 0, 0, 0 };
    size_t n = 20000;
    uint8_t *t = xmalloc(n);
    for (size_t i = 0; i < n; i++) t[i] = (uint8_t) "ACGT"[below(4)];
    wm_text_t text = { t, n, NULL, 0 };
    wm_db_t *db = NULL;
    wm_opts_t o = wm_opts_default();
    o.max_edits = 1;
    check_status("progress: compile", wm_compile((const uint8_t *)"ACGTA", 5, &o, &db), WM_OK,
                 NULL);
    for (int what = 0; what < 2 && db; what++) {
        progress_log log;
        memset(&log, 0, sizeof log);
        atomic_init(&log.inside, 0);
        wm_context_opts_t co = wm_context_opts_default();
        co.backend = WM_BACKEND_CPU;
        co.threads = 4;
        co.chunk_bytes = 300;
        co.devices = zeros;
        co.n_devices = 4;
        co.progress = on_progress;
        co.progress_user = &log;
        wm_context_t *cx = NULL;
        check_status("progress: context", wm_context_new(&co, &cx), WM_OK, cx);
        uint64_t got = 0;
        int st =
            what == 0 ? wm_search(cx, db, &text, count_cb, &got) : wm_count(cx, db, &text, &got);
        check_status(what == 0 ? "progress: wm_search" : "progress: wm_count", st, WM_OK, cx);
        check_true("progress: called", log.calls > 0);
        check_true("progress: never two calls at once", !log.overlapped);
        check_true("progress: never goes back", !log.went_back);
        check_true("progress: total is the text's length", log.last_total == n);
        check_true("progress: ends at the total", log.last_done == n);
        wm_context_free(cx);
    }
    wm_db_free(db);
    free(t);
}

/* The same status and message from a multi-device context as from one. */
static void same_error(const char *what, int got, wm_context_t *cx, int want, wm_context_t *ref) {
    check_status(what, got, want, cx);
    const char *a = wm_context_errmsg(cx), *b = wm_context_errmsg(ref);
    if (strcmp(a, b) != 0) {
        char buf[700];
        snprintf(buf, sizeof buf, "%s: message \"%.250s\", one device says \"%.250s\"", what, a, b);
        fail_msg(-1, NULL, buf);
    } else {
        g_passed++;
    }
}

static void api_bad_arguments(wm_context_t *multi, wm_context_t *ref) {
    /* a bad pair in the middle of a list */
    wm_pair_t pairs[9];
    wm_alignment_t out[9];
    for (int i = 0; i < 9; i++)
        pairs[i] = (wm_pair_t){ (const uint8_t *)"ACGT", 4, (const uint8_t *)"AGT", 3 };
    pairs[5].m = 0;
    wm_align_opts_t ao = wm_align_opts_default();
    int w = wm_align_pairs(ref, pairs, 9, &ao, out);
    int g = wm_align_pairs(multi, pairs, 9, &ao, out);
    same_error("wm_align_pairs, empty query 5", g, multi, w, ref);
    int all_zero = 1;
    for (int i = 0; i < 9; i++) all_zero &= out[i].cigar == NULL;
    check_true("wm_align_pairs error: nothing left allocated", all_zero);

    /* an empty dtw query in the middle */
    double q[4] = { 1, 2, 3, 4 }, s[20];
    for (int i = 0; i < 20; i++) s[i] = i % 5;
    const double *qs[6] = { q, q, q, q, q, q };
    size_t lens[6] = { 4, 4, 4, 0, 4, 4 };
    wm_dtw_matches_t dm[6];
    w = wm_dtw_many(ref, qs, lens, 6, s, 20, NULL, dm);
    g = wm_dtw_many(multi, qs, lens, 6, s, 20, NULL, dm);
    same_error("wm_dtw_many, empty query 3", g, multi, w, ref);

    /* record starts that do not begin at 0 */
    uint64_t rs[2] = { 1, 3 };
    wm_text_t t = { (const uint8_t *)"ACGTACGT", 8, rs, 2 };
    wm_db_t *db = NULL;
    wm_compile((const uint8_t *)"AC", 2, NULL, &db);
    uint64_t n = 0;
    w = wm_count(ref, db, &t, &n);
    g = wm_count(multi, db, &t, &n);
    check_status("wm_count, bad record starts", g, w, multi);
    wm_db_free(db);

    /* infix with an empty query, global four-russians in infix mode */
    wm_alignments_t r = { 0 };
    w = wm_align(ref, (const uint8_t *)"", 0, (const uint8_t *)"AC", 2, NULL, &r);
    g = wm_align(multi, (const uint8_t *)"", 0, (const uint8_t *)"AC", 2, NULL, &r);
    same_error("wm_align, empty query", g, multi, w, ref);
    ao.algo = WM_ALIGN_ALGO_FOUR_RUSSIANS;
    w = wm_align(ref, (const uint8_t *)"A", 1, (const uint8_t *)"AC", 2, &ao, &r);
    g = wm_align(multi, (const uint8_t *)"A", 1, (const uint8_t *)"AC", 2, &ao, &r);
    same_error("wm_align, four-russians infix", g, multi, w, ref);

    /* wm_align_fr_info runs on the first device */
    wm_fr_info_t fa, fb;
    ao = wm_align_opts_default();
    ao.fr_t = 2;
    w = wm_align_fr_info(ref, &ao, &fa);
    g = wm_align_fr_info(multi, &ao, &fb);
    check_status("wm_align_fr_info", g, w, multi);
    check_true("wm_align_fr_info: the same table",
               w != WM_OK || (fa.t == fb.t && fa.entries == fb.entries && fa.bytes == fb.bytes &&
                              fa.key_strings == fb.key_strings));
}

static void api_checks(int gpus) {
    wm_context_t *cx = NULL;
    wm_context_opts_t co = wm_context_opts_default();

    /* a list of one is an ordinary context (on that device) */
    int one[1] = { 0 };
    co.backend = WM_BACKEND_CPU;
    co.devices = one;
    co.n_devices = 1;
    check_status("one device in the list", wm_context_new(&co, &cx), WM_OK, cx);
    check_true("one device in the list: an ordinary context", cx && cx->n_sub == 0 && cx->pool);
    check_true("one device in the list: the caller's list is not kept",
               cx && cx->opts.devices == NULL);
    wm_context_free(cx);
    /* NULL devices: n_devices means nothing */
    co.devices = NULL;
    co.n_devices = 5;
    check_status("NULL devices, n_devices 5", wm_context_new(&co, &cx), WM_OK, cx);
    check_true("NULL devices, n_devices 5: an ordinary context", cx && cx->n_sub == 0);
    wm_context_free(cx);

    /* a negative ordinal */
    int neg[3] = { 0, -1, 0 };
    co.devices = neg;
    co.n_devices = 3;
    cx = NULL;
    check_status("ordinal -1", wm_context_new(&co, &cx), WM_INVALID, cx);
    check_true("ordinal -1: the context is handed back with a message naming it",
               cx && strstr(wm_context_errmsg(cx), "-1") != NULL);
    wm_context_free(cx);

    /* {0, 99} on CUDA: as one device without a GPU, else WM_INVALID */
    int bad[2] = { 0, 99 };
    co.backend = WM_BACKEND_CUDA;
    co.devices = bad;
    co.n_devices = 2;
    cx = NULL;
    int st = wm_context_new(&co, &cx);
    if (!gpus) {
        wm_context_opts_t c1 = wm_context_opts_default();
        c1.backend = WM_BACKEND_CUDA;
        wm_context_t *single = NULL;
        int want = wm_context_new(&c1, &single);
        check_true("no GPU: one CUDA device fails", want != WM_OK);
        same_error("{0, 99} on CUDA without a GPU", st, cx, want, single);
        check_true("{0, 99} on CUDA without a GPU: the context is handed back", cx != NULL);
        wm_context_free(single);
    } else {
        check_status("{0, 99} on CUDA", st, WM_INVALID, cx);
        char count[16];
        snprintf(count, sizeof count, "%d", gpus);
        check_true("{0, 99} on CUDA: the message names 99 and the GPUs found",
                   cx && strstr(wm_context_errmsg(cx), "99") &&
                       strstr(wm_context_errmsg(cx), count));
    }
    wm_context_free(cx);

    /* AUTO: without a GPU, CPU shards */
    co.backend = WM_BACKEND_AUTO;
    cx = NULL;
    st = wm_context_new(&co, &cx);
    if (!gpus) {
        check_status("{0, 99} on AUTO without a GPU", st, WM_OK, cx);
        check_true("{0, 99} on AUTO without a GPU: two CPU shards",
                   cx && wm_context_backend(cx) == WM_BACKEND_CPU && cx->n_sub == 2);
    } else {
        check_status("{0, 99} on AUTO", st, WM_INVALID, cx);
    }
    wm_context_free(cx);

    /* the caller's list may go once the context is made */
    int *heap = xmalloc(3 * sizeof *heap);
    heap[0] = heap[1] = heap[2] = 0;
    co.backend = WM_BACKEND_CPU;
    co.devices = heap;
    co.n_devices = 3;
    cx = NULL;
    check_status("a list freed after wm_context_new", wm_context_new(&co, &cx), WM_OK, cx);
    heap[1] = -7;
    free(heap);
    if (cx) {
        check_true("three CPU shards", cx->n_sub == 3 && wm_context_backend(cx) == WM_BACKEND_CPU);
        wm_db_t *db = NULL;
        wm_compile((const uint8_t *)"GTA", 3, NULL, &db);
        wm_text_t t = { (const uint8_t *)"ACGTACGTACGTAGTA", 16, NULL, 0 };
        uint64_t n = 0;
        check_status("a list freed after wm_context_new: wm_count", wm_count(cx, db, &t, &n), WM_OK,
                     cx);
        check_true("a list freed after wm_context_new: 4 matches", n == 4);
        wm_db_free(db);
        api_bad_arguments(cx, g_ref.cx);
    }
    wm_context_free(cx);
    wm_context_free(NULL);

    api_progress();
}

/* With a GPU: a pair that fails on a device, named in the whole list. */
static void api_gpu_failure(void) {
    static const int two[2] = { 0, 0 };
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CUDA;
    wm_context_t *one = NULL, *multi = NULL;
    check_status("cuda: one device", wm_context_new(&co, &one), WM_OK, one);
    co.devices = two;
    co.n_devices = 2;
    check_status("cuda: {0, 0}", wm_context_new(&co, &multi), WM_OK, multi);
    if (!one || !multi) {
        wm_context_free(one);
        wm_context_free(multi);
        return;
    }
    /* the GPU wavefront takes queries of at most 16,384 symbols */
    size_t m = 20000;
    uint8_t *q = xmalloc(m), t[64];
    for (size_t i = 0; i < m; i++) q[i] = (uint8_t) "ACGT"[below(4)];
    for (size_t i = 0; i < sizeof t; i++) t[i] = (uint8_t) "ACGT"[below(4)];
    wm_pair_t pairs[5];
    for (int i = 0; i < 5; i++) pairs[i] = (wm_pair_t){ q, 10, t, sizeof t };
    pairs[3].m = m;
    wm_align_opts_t ao = wm_align_opts_default();
    ao.algo = WM_ALIGN_ALGO_WAVEFRONT;
    wm_alignment_t out[5];
    int want = wm_align_pairs(one, pairs, 5, &ao, out);
    int got = wm_align_pairs(multi, pairs, 5, &ao, out);
    check_status("cuda: a pair the GPU refuses", got, want, multi);
    if (want != WM_OK) {
        char expect[700];
        const char *w = wm_context_errmsg(one);
        snprintf(expect, sizeof expect, "pair 3: device 0: %s",
                 strncmp(w, "pair 3: ", 8) == 0 ? w + 8 : w);
        if (strcmp(expect, wm_context_errmsg(multi)) != 0) {
            char buf[900];
            snprintf(buf, sizeof buf,
                     "cuda: a failing pair's message \"%.300s\", expected \"%.300s\"",
                     wm_context_errmsg(multi), expect);
            fail_msg(-1, NULL, buf);
        } else {
            g_passed++;
        }
    }
    free(q);
    wm_context_free(one);
    wm_context_free(multi);
}

/* ==== 2. texts =============================================================== */

typedef struct {
    uint8_t *text;
    uint64_t len;
    uint64_t *rs;
    size_t n_rec;
    int set;
    uint8_t **pats;
    size_t *lens;
    size_t n_pats;
    wm_opts_t o;
    const char *family;
} tcase;

static const int SPLITS[] = { 2, 3, 4, 7 };

/* The shard borders of every split the contexts use (as shard.c cuts). */
static size_t shard_borders(uint64_t len, uint64_t *out) {
    size_t n = 0;
    for (size_t s = 0; s < N_OF(SPLITS); s++) {
        uint64_t parts = (uint64_t)SPLITS[s], q = len / parts, r = len % parts;
        for (uint64_t i = 1; i < parts; i++) out[n++] = q * i + (i < r ? i : r);
    }
    return n;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void describe_text(const void *p) {
    const tcase *c = p;
    printf("    %s, len %" PRIu64 ", %zu records, %s, metric %s, k %u, alphabet %s, revcomp %d, "
           "case %d, algo %s\n",
           c->family, c->len, c->n_rec, c->set ? "set" : "one pattern",
           c->o.metric == WM_METRIC_HAMMING ? "hamming" : "edit", c->o.max_edits,
           c->o.alphabet == WM_ALPHABET_DNA ? "dna" : "bytes", c->o.revcomp, c->o.case_insensitive,
           wm_algo_name(c->o.algo));
    for (size_t i = 0; i < c->n_pats && (i < 4 || g_verbose); i++) {
        printf("    pattern %zu: ", i);
        print_bytes(stdout, c->pats[i], c->lens[i], g_verbose ? 1u << 20 : 80);
        printf("\n");
    }
    printf("    text: ");
    print_bytes(stdout, c->text, c->len, g_verbose ? 1u << 20 : 120);
    printf("\n    record starts:");
    for (size_t r = 0; r < c->n_rec && (r < 40 || g_verbose); r++) printf(" %" PRIu64, c->rs[r]);
    printf("\n");
}

static uint8_t text_byte(int dna, int letters) {
    if (dna) return rand_dna_byte();
    if (letters) return (uint8_t) "acgtACGT"[below(8)];
    return (uint8_t) "ACGT"[below(4)];
}

/* Record starts: at, before and after shard borders, random ones, repeats
** (empty records), sometimes one at the very end. */
static void gen_records(tcase *c) {
    if (c->len == 0 || chance(25)) {
        if (chance(50)) {
            c->n_rec = 1;
            c->rs = xmalloc(sizeof *c->rs);
            c->rs[0] = 0;
        }
        return;
    }
    uint64_t b[32];
    size_t nb = shard_borders(c->len, b);
    size_t cap = 64 + (size_t)c->len / 2;
    uint64_t *rs = xmalloc(cap * sizeof *rs);
    size_t n = 0;
    rs[n++] = 0;
    int around = chance(70);
    for (size_t i = 0; around && i < nb && n + 6 < cap; i++) {
        if (!chance(60)) continue;
        int64_t d = (int64_t)range(0, 4) - 2;
        int64_t at = (int64_t)b[i] + d;
        if (at >= 0 && (uint64_t)at <= c->len) rs[n++] = (uint64_t)at;
        if (chance(30)) rs[n++] = b[i]; /* an empty record at the border */
    }
    size_t extra = chance(50) ? (size_t)below(c->len / 3 + 2) : (size_t)below(6);
    for (size_t i = 0; i < extra && n < cap; i++) rs[n++] = below(c->len + 1);
    if (chance(15) && n < cap) rs[n++] = c->len;
    qsort(rs, n, sizeof *rs, cmp_u64);
    c->rs = rs;
    c->n_rec = n;
}

/* Copy (a mutated) pattern so that it ends at e, if it fits. */
static void plant_at(tcase *c, const uint8_t *p, size_t m, uint64_t e) {
    if (e < m || e > c->len) return;
    uint8_t *at = c->text + (e - m);
    memcpy(at, p, m);
    if (c->o.max_edits && m > 1 && chance(50)) at[below(m)] = text_byte(0, 0);
}

static void plant_near_borders(tcase *c, const uint8_t *p, size_t m) {
    uint64_t b[32];
    size_t nb = shard_borders(c->len, b);
    for (size_t i = 0; i < nb; i++) {
        if (!chance(50)) continue;
        uint64_t w = below(5);
        uint64_t e = w == 0   ? b[i]
                     : w == 1 ? b[i] + 1
                     : w == 2 ? b[i] + m / 2
                     : w == 3 ? b[i] + m
                              : b[i] - 1;
        plant_at(c, p, m, e);
    }
}

static size_t pick_len(void) {
    static const span_t LEN[] = { { 15, 0, 20 }, { 55, 20, 200 }, { 100, 200, BIG_TEXT } };
    return (size_t)pick_span(LEN, N_OF(LEN), 100);
}

static void gen_one_pattern(tcase *c) {
    int dna = chance(25);
    int nuc_bytes = !dna && chance(15);
    c->o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.revcomp = (dna && chance(50)) || nuc_bytes;
    c->o.case_insensitive = !dna && chance(30);
    c->o.metric = chance(35) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    size_t m;
    uint64_t r = below(100);
    if (r < 50) m = (size_t)range(1, 8);
    else if (r < 80) m = (size_t)range(8, 40);
    else if (r < 90) m = (size_t)range(60, 140);  /* > 64: the suffix filter */
    else m = (size_t)(c->len / 2 + range(1, 20)); /* longer than a shard */
    c->n_pats = 1;
    c->pats = xcalloc(1, sizeof *c->pats);
    c->lens = xcalloc(1, sizeof *c->lens);
    c->pats[0] = xmalloc(m);
    c->lens[0] = m;
    uint8_t *p = c->pats[0];
    if (c->len >= m && chance(60)) {
        memcpy(p, c->text + below(c->len - m + 1), m);
        for (size_t i = 0; i < m; i++)
            if (dna && !strchr("ACGTUacgtuNn", p[i])) p[i] = 'A';
    } else {
        for (size_t i = 0; i < m; i++) p[i] = text_byte(0, c->o.case_insensitive);
    }
    if (dna && chance(20)) p[below(m)] = (uint8_t) "RYSWKMBDHVN"[below(11)];
    if (nuc_bytes)
        for (size_t i = 0; i < m; i++)
            if (!strchr("ACGTacgt", p[i])) p[i] = 'C';
    uint64_t kr = below(100);
    uint32_t k = kr < 35 ? 0 : kr < 80 ? (uint32_t)range(1, 3) : (uint32_t)below(m);
    if (m > 40 && k > 16) k = (uint32_t)range(4, 16); /* k + 1 words a byte: keep it quick */
    if (k >= m) k = (uint32_t)(m - 1);
    c->o.max_edits = k;
    uint64_t ar = below(100);
    if (ar < 55) c->o.algo = WM_ALGO_AUTO;
    else if (ar < 65 && k == 0) c->o.algo = WM_ALGO_SHIFTOR;
    else if (ar < 85 || c->o.metric == WM_METRIC_HAMMING) c->o.algo = WM_ALGO_BITAP;
    else c->o.algo = WM_ALGO_MYERS;
    plant_near_borders(c, p, m);
}

static void gen_set(tcase *c) {
    c->set = 1;
    int dna = chance(35);
    c->o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.revcomp = chance(30); /* patterns of A, C, G, T only */
    c->o.case_insensitive = chance(25);
    size_t np = (size_t)(chance(20) ? range(1, 2) : range(2, 14));
    int qgram = chance(30);
    c->n_pats = np;
    c->pats = xcalloc(np, sizeof *c->pats);
    c->lens = xcalloc(np, sizeof *c->lens);
    for (size_t i = 0; i < np; i++) {
        size_t m = qgram        ? (size_t)range(4, 12)
                   : chance(15) ? (size_t)range(20, 60)
                                : (size_t)range(1, 8);
        c->pats[i] = xmalloc(m);
        c->lens[i] = m;
        if (i > 0 && chance(15)) { /* a duplicate or a prefix of one before */
            size_t j = (size_t)below(i);
            size_t l = c->lens[j] < m ? c->lens[j] : m;
            if (qgram && l < 4) l = c->lens[j];
            c->lens[i] = l;
            memcpy(c->pats[i], c->pats[j], l);
            continue;
        }
        if (c->len >= m && chance(70)) memcpy(c->pats[i], c->text + below(c->len - m + 1), m);
        else
            for (size_t x = 0; x < m; x++) c->pats[i][x] = text_byte(0, 0);
        for (size_t x = 0; x < m; x++) /* sets take A, C, G, T (either case) only */
            if (!strchr("ACGTacgt", c->pats[i][x])) c->pats[i][x] = 'G';
    }
    uint64_t ar = below(7);
    static const wm_algo_t algos[] = { WM_ALGO_AUTO,           WM_ALGO_AC,
                                       WM_ALGO_PFAC,           WM_ALGO_WUMANBER,
                                       WM_ALGO_WUMANBER_PAPER, WM_ALGO_QGRAM,
                                       WM_ALGO_TEDDY };
    c->o.algo = algos[ar];
    if (c->o.algo == WM_ALGO_QGRAM && !qgram) c->o.algo = WM_ALGO_AC;
    if (c->o.algo == WM_ALGO_TEDDY && np > WM_TEDDY_MAX_PATTERNS) c->o.algo = WM_ALGO_AC;
    for (size_t i = 0; i < np && i < 3; i++) plant_near_borders(c, c->pats[i], c->lens[i]);
}

static void gen_text_case(void *p) {
    tcase *c = p;
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();
    c->len = pick_len();
    c->text = xmalloc((size_t)c->len + 1);
    uint64_t fr = below(100);
    int letters = chance(20);
    if (fr < 15) {
        c->family = "periodic";
        size_t period = (size_t)range(1, 3);
        uint8_t unit[3];
        for (size_t i = 0; i < period; i++) unit[i] = text_byte(0, letters);
        for (uint64_t i = 0; i < c->len; i++) c->text[i] = unit[i % period];
        for (uint64_t i = 0; i < c->len; i++)
            if (chance(2)) c->text[i] = text_byte(0, letters);
    } else if (fr < 35) {
        c->family = "dna";
        for (uint64_t i = 0; i < c->len; i++) c->text[i] = rand_dna_byte();
    } else if (fr < 45) {
        c->family = "binary";
        for (uint64_t i = 0; i < c->len; i++) c->text[i] = (uint8_t) "AC"[below(2)];
    } else {
        c->family = "random";
        for (uint64_t i = 0; i < c->len; i++) c->text[i] = text_byte(0, letters);
    }
    if (chance(30)) gen_set(c);
    else gen_one_pattern(c);
    gen_records(c);
}

static void free_text_case(void *p) {
    tcase *c = p;
    for (size_t i = 0; i < c->n_pats; i++) free(c->pats[i]);
    free(c->pats);
    free(c->lens);
    free(c->text);
    free(c->rs);
}

static struct {
    long text_cases, sets, skipped, with_matches, stops, straddling, heavy;
    uint64_t matches;
    long align_cases, align_all_ends, align_halo_best, align_none, pair_batches, dtw_cases;
} g_cov;

/* Matches that cross a shard border of some split (coverage only). */
static void note_straddling(const tcase *c, const match_vec *l) {
    uint64_t b[32];
    size_t nb = shard_borders(c->len, b);
    for (size_t x = 0; x < l->n; x++) {
        uint64_t base = c->rs ? c->rs[l->a[x].record] : 0;
        uint64_t s = base + l->a[x].start, e = base + l->a[x].end;
        for (size_t i = 0; i < nb; i++)
            if (s < b[i] && e > b[i]) {
                g_cov.straddling++;
                return;
            }
    }
}

static void run_text_case(long idx, void *p) {
    tcase *c = p;
    wm_db_t *db = NULL;
    int st = c->set
                 ? wm_compile_set((const uint8_t *const *)c->pats, c->lens, c->n_pats, &c->o, &db)
                 : wm_compile(c->pats[0], c->lens[0], &c->o, &db);
    if (st != WM_OK) {
        g_cov.skipped++;
        return;
    }
    g_cov.text_cases++;
    g_cov.sets += c->set;
    wm_text_t t = { c->text, c->len, c->rs, c->n_rec };
    match_vec ref = { 0 };
    size_t np = wm_db_pattern_count(db);
    uint64_t *ref_pp = xcalloc(np, sizeof *ref_pp), *pp = xcalloc(np, sizeof *pp);
    uint64_t ref_n = 0, n = 0;
    int ref_st = wm_search(g_ref.cx, db, &t, collect, &ref);
    int ref_cst = wm_count(g_ref.cx, db, &t, &ref_n);
    int ref_pst = wm_count_per_pattern(g_ref.cx, db, &t, ref_pp);
    if (ref_st != WM_OK || ref_cst != WM_OK || ref_pst != WM_OK || ref_n != ref.n) {
        fail_msg(idx, c, "the reference context failed or its count disagrees with its list");
        goto done;
    }
    g_cov.matches += ref.n;
    g_cov.with_matches += ref.n > 0;
    note_straddling(c, &ref);
    size_t halo = c->set ? 0 : c->lens[0] + c->o.max_edits;
    int heavy = halo * (c->o.max_edits + 1) > 96;
    config *cfgs = heavy ? g_heavy : g_cfg;
    size_t n_cfgs = heavy ? g_n_heavy : g_n_cfg;
    g_cov.heavy += heavy;
    for (size_t i = 0; i < n_cfgs; i++) {
        config *cf = &cfgs[i];
        char what[1024];
        match_vec got = { 0 };
        double t0 = now_s();
        st = wm_search(cf->cx, db, &t, collect, &got);
        snprintf(what, sizeof what, "%s: wm_search status %d (%s)", cf->name, st,
                 wm_context_errmsg(cf->cx));
        if (st != WM_OK) fail_msg(idx, c, what);
        else {
            snprintf(what, sizeof what, "%s: wm_search", cf->name);
            compare_matches(idx, c, what, got.a, got.n, ref.a, ref.n);
        }
        free(got.a);

        n = 0;
        st = wm_count(cf->cx, db, &t, &n);
        snprintf(what, sizeof what, "%s: wm_count status %d, %" PRIu64 " matches, want %" PRIu64,
                 cf->name, st, n, ref_n);
        if (st != WM_OK || n != ref_n) fail_msg(idx, c, what);
        else g_passed++;

        st = wm_count_per_pattern(cf->cx, db, &t, pp);
        int same = st == WM_OK && memcmp(pp, ref_pp, np * sizeof *pp) == 0;
        snprintf(what, sizeof what, "%s: wm_count_per_pattern status %d, counts %s", cf->name, st,
                 same ? "equal" : "differ");
        if (!same) fail_msg(idx, c, what);
        else g_passed++;

        if (ref.n > 0) { /* stop after N matches */
            match_vec part = { 0 };
            part.stop_after = (size_t)(chance(20) ? ref.n : range(1, ref.n));
            st = wm_search(cf->cx, db, &t, collect, &part);
            g_cov.stops++;
            snprintf(what, sizeof what, "%s: a search stopped after %zu matches returned %d",
                     cf->name, part.stop_after, st);
            if (st != WM_STOPPED) fail_msg(idx, c, what);
            else {
                snprintf(what, sizeof what, "%s: a search stopped after %zu matches", cf->name,
                         part.stop_after);
                compare_matches(idx, c, what, part.a, part.n, ref.a, part.stop_after);
            }
            free(part.a);
        }
        g_t_lib += now_s() - t0;
        if (!heavy) g_t_cfg[i] += now_s() - t0;
    }
done:
    free(ref.a);
    free(ref_pp);
    free(pp);
    wm_db_free(db);
}

/* ==== 3. wm_align ============================================================ */

typedef struct {
    uint8_t *q, *t;
    size_t m;
    uint64_t n;
    wm_align_opts_t o;
    const char *family;
} acase;

static void describe_align(const void *p) {
    const acase *c = p;
    printf("    %s, mode %s, algo %s, m %zu, n %" PRIu64 ", max_distance %" PRId64 ", all_ends %d, "
           "cigar %d, alphabet %s, case %d\n",
           c->family, c->o.mode == WM_ALIGN_GLOBAL ? "global" : "infix",
           wm_align_algo_name(c->o.algo), c->m, c->n, c->o.max_distance, c->o.all_ends, c->o.cigar,
           c->o.alphabet == WM_ALPHABET_DNA ? "dna" : "bytes", c->o.case_insensitive);
    printf("    query: ");
    print_bytes(stdout, c->q, c->m, g_verbose ? 1u << 20 : 100);
    printf("\n    target: ");
    print_bytes(stdout, c->t, (size_t)c->n, g_verbose ? 1u << 20 : 160);
    printf("\n");
}

static uint8_t align_byte(const acase *c, int n_sym) {
    if (c->o.alphabet == WM_ALPHABET_DNA) return rand_dna_byte();
    uint8_t b = (uint8_t) "ACGT"[below((uint64_t)n_sym)];
    return c->o.case_insensitive && chance(30) ? flip_case(b) : b;
}

static void gen_align_case(void *p) {
    acase *c = p;
    memset(c, 0, sizeof *c);
    c->o = wm_align_opts_default();
    c->o.alphabet = chance(20) ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.case_insensitive = chance(25);
    int n_sym = (int)range(2, 4);
    c->m = chance(75) ? (size_t)range(1, 20) : (size_t)range(20, 120);
    uint64_t nr = below(100);
    c->n = nr < 10 ? below(c->m + 1) : nr < 60 ? range(10, 300) : range(300, 1500);
    c->q = xmalloc(c->m);
    c->t = xmalloc((size_t)c->n + 1);
    for (size_t i = 0; i < c->m; i++) c->q[i] = align_byte(c, n_sym);
    uint64_t fr = below(100);
    if (fr < 35) {
        c->family = "periodic";
        size_t period = (size_t)range(1, 4);
        uint8_t unit[4];
        for (size_t i = 0; i < period; i++) unit[i] = align_byte(c, n_sym);
        for (uint64_t i = 0; i < c->n; i++) c->t[i] = unit[i % period];
        if (chance(50))
            for (size_t i = 0; i < c->m; i++) c->q[i] = unit[(i + below(2)) % period];
    } else {
        c->family = "random";
        for (uint64_t i = 0; i < c->n; i++) c->t[i] = align_byte(c, n_sym);
    }
    if (chance(60) && c->n >= c->m) { /* copies ending near shard borders */
        uint64_t b[32];
        size_t nb = shard_borders(c->n, b);
        for (size_t i = 0; i < nb; i++) {
            if (!chance(50)) continue;
            int64_t e = (int64_t)b[i] + (int64_t)range(0, 2 * c->m + 2) - (int64_t)(c->m + 1);
            if (e < (int64_t)c->m || (uint64_t)e > c->n) continue;
            memcpy(c->t + e - (int64_t)c->m, c->q, c->m);
            if (chance(50)) c->t[e - 1 - (int64_t)below(c->m)] = align_byte(c, n_sym);
        }
    }
    c->o.all_ends = chance(50);
    c->o.cigar = chance(80);
    uint64_t kr = below(100);
    c->o.max_distance = kr < 40 ? -1 : kr < 80 ? (int64_t)below(4) : (int64_t)below(c->m + 3);
    uint64_t ar = below(3);
    c->o.algo = ar == 0   ? WM_ALIGN_ALGO_AUTO
                : ar == 1 ? WM_ALIGN_ALGO_BITVECTOR
                          : WM_ALIGN_ALGO_WAVEFRONT;
    if (chance(10)) {
        c->o.mode = WM_ALIGN_GLOBAL;
        if (chance(30)) {
            c->o.algo = WM_ALIGN_ALGO_FOUR_RUSSIANS;
            c->o.fr_t = (int)range(1, 3);
        }
    }
}

static void free_align_case(void *p) {
    acase *c = p;
    free(c->q);
    free(c->t);
}

static int same_alignment(const wm_alignment_t *a, const wm_alignment_t *b) {
    if (a->distance != b->distance || a->start != b->start || a->end != b->end) return 0;
    if (!a->cigar || !b->cigar) return a->cigar == b->cigar;
    return strcmp(a->cigar, b->cigar) == 0;
}

static void compare_alignments(long idx, const void *c, const char *name, const wm_alignment_t *got,
                               size_t n_got, const wm_alignment_t *want, size_t n_want) {
    size_t x = 0;
    while (x < n_got && x < n_want && same_alignment(&got[x], &want[x])) x++;
    if (x == n_got && x == n_want) {
        g_passed++;
        return;
    }
    char buf[700];
    const wm_alignment_t *g = x < n_got ? &got[x] : NULL, *w = x < n_want ? &want[x] : NULL;
    snprintf(buf, sizeof buf,
             "%s: %zu alignments, want %zu; first difference at %zu: got d %" PRIu64 " [%" PRIu64
             ", %" PRIu64 ") %.60s, want d %" PRIu64 " [%" PRIu64 ", %" PRIu64 ") %.60s",
             name, n_got, n_want, x, g ? g->distance : 0, g ? g->start : 0, g ? g->end : 0,
             g && g->cigar ? g->cigar : "-", w ? w->distance : 0, w ? w->start : 0, w ? w->end : 0,
             w && w->cigar ? w->cigar : "-");
    fail_msg(idx, c, buf);
}

/* Coverage: an end at the best distance in some shard's halo. */
static void note_halo_best(const acase *c) {
    wm_align_opts_t o = c->o;
    o.all_ends = 1;
    o.cigar = 0;
    wm_alignments_t r = { 0 };
    if (wm_align(g_ref.cx, c->q, c->m, c->t, c->n, &o, &r) != WM_OK) return;
    g_cov.align_none += r.n == 0;
    uint64_t kcap = c->o.max_distance < 0 || (uint64_t)c->o.max_distance > c->m
                        ? c->m
                        : (uint64_t)c->o.max_distance;
    uint64_t b[32];
    size_t nb = shard_borders(c->n, b);
    int hit = 0;
    for (size_t x = 0; x < r.n && !hit; x++)
        for (size_t i = 0; i < nb && !hit; i++)
            hit = r.a[x].end <= b[i] && r.a[x].end + c->m + kcap > b[i];
    g_cov.align_halo_best += hit;
    wm_alignments_free(&r);
}

static void run_align_case(long idx, void *p) {
    acase *c = p;
    g_cov.align_cases++;
    g_cov.align_all_ends += c->o.all_ends;
    wm_alignments_t ref = { 0 };
    int ref_st = wm_align(g_ref.cx, c->q, c->m, c->t, c->n, &c->o, &ref);
    if (c->o.mode == WM_ALIGN_INFIX) note_halo_best(c);
    for (size_t i = 0; i < g_n_cfg; i++) {
        config *cf = &g_cfg[i];
        wm_alignments_t got = { 0 };
        double t0 = now_s();
        int st = wm_align(cf->cx, c->q, c->m, c->t, c->n, &c->o, &got);
        g_t_lib += now_s() - t0;
        char what[1024];
        if (st != ref_st) {
            snprintf(what, sizeof what, "%s: wm_align returned %d (%s), one device %d", cf->name,
                     st, wm_context_errmsg(cf->cx), ref_st);
            fail_msg(idx, c, what);
        } else {
            snprintf(what, sizeof what, "%s: wm_align", cf->name);
            compare_alignments(idx, c, what, got.a, got.n, ref.a, ref.n);
        }
        wm_alignments_free(&got);
    }
    wm_alignments_free(&ref);
}

/* ==== 4. wm_align_pairs ===================================================== */

typedef struct {
    wm_pair_t *p;
    uint8_t **bufs;
    size_t n;
    wm_align_opts_t o;
} pcase;

static void describe_pairs(const void *p) {
    const pcase *c = p;
    printf("    %zu pairs, mode %s, algo %s, t %d, max_distance %" PRId64 ", cigar %d\n", c->n,
           c->o.mode == WM_ALIGN_GLOBAL ? "global" : "infix", wm_align_algo_name(c->o.algo),
           c->o.fr_t, c->o.max_distance, c->o.cigar);
}

static void gen_pairs_case(void *p) {
    pcase *c = p;
    memset(c, 0, sizeof *c);
    c->n = (size_t)(chance(20) ? range(1, 3) : range(4, 40));
    c->p = xcalloc(c->n, sizeof *c->p);
    c->bufs = xcalloc(2 * c->n, sizeof *c->bufs);
    c->o = wm_align_opts_default();
    c->o.mode = chance(60) ? WM_ALIGN_GLOBAL : WM_ALIGN_INFIX;
    uint64_t ar = below(4);
    if (c->o.mode == WM_ALIGN_GLOBAL) {
        c->o.algo = ar == 0   ? WM_ALIGN_ALGO_AUTO
                    : ar == 1 ? WM_ALIGN_ALGO_BITVECTOR
                    : ar == 2 ? WM_ALIGN_ALGO_WAVEFRONT
                              : WM_ALIGN_ALGO_FOUR_RUSSIANS;
        if (c->o.algo == WM_ALIGN_ALGO_FOUR_RUSSIANS) c->o.fr_t = (int)range(1, 3);
    } else {
        c->o.algo = ar == 0   ? WM_ALIGN_ALGO_AUTO
                    : ar == 1 ? WM_ALIGN_ALGO_BITVECTOR
                              : WM_ALIGN_ALGO_WAVEFRONT;
    }
    c->o.alphabet = chance(20) ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.cigar = chance(70);
    c->o.max_distance = chance(50) ? -1 : (int64_t)below(30);
    for (size_t i = 0; i < c->n; i++) {
        size_t m = (size_t)(chance(10) ? 0 : range(1, chance(80) ? 60 : 200));
        size_t n = (size_t)(chance(10) ? 0 : range(1, chance(80) ? 80 : 250));
        if (c->o.mode == WM_ALIGN_INFIX && m == 0) m = 1;
        uint8_t *q = xmalloc(m + 1), *t = xmalloc(n + 1);
        for (size_t x = 0; x < m; x++) q[x] = (uint8_t) "ACGT"[below(3)];
        for (size_t x = 0; x < n; x++)
            t[x] = chance(70) && x < m ? q[x] : (uint8_t) "ACGT"[below(3)];
        c->bufs[2 * i] = q;
        c->bufs[2 * i + 1] = t;
        c->p[i] = (wm_pair_t){ q, m, t, n };
    }
}

static void free_pairs_case(void *p) {
    pcase *c = p;
    for (size_t i = 0; i < 2 * c->n; i++) free(c->bufs[i]);
    free(c->bufs);
    free(c->p);
}

static void run_pairs_case(long idx, void *p) {
    pcase *c = p;
    g_cov.pair_batches++;
    wm_alignment_t *ref = xcalloc(c->n, sizeof *ref), *got = xcalloc(c->n, sizeof *got);
    int ref_st = wm_align_pairs(g_ref.cx, c->p, c->n, &c->o, ref);
    for (size_t i = 0; i < g_n_cfg; i++) {
        config *cf = &g_cfg[i];
        double t0 = now_s();
        int st = wm_align_pairs(cf->cx, c->p, c->n, &c->o, got);
        g_t_lib += now_s() - t0;
        char what[1024];
        if (st != ref_st) {
            snprintf(what, sizeof what, "%s: wm_align_pairs returned %d (%s), one device %d",
                     cf->name, st, wm_context_errmsg(cf->cx), ref_st);
            fail_msg(idx, c, what);
        } else {
            snprintf(what, sizeof what, "%s: wm_align_pairs", cf->name);
            compare_alignments(idx, c, what, got, c->n, ref, c->n);
        }
        wm_alignment_clear(got, c->n);
    }
    wm_alignment_clear(ref, c->n);
    free(ref);
    free(got);
}

/* ==== 5. dtw ================================================================= */

typedef struct {
    double **q;
    size_t *lens;
    size_t nq;
    double *y;
    uint64_t n;
    wm_dtw_opts_t o;
} dcase;

static void describe_dtw(const void *p) {
    const dcase *c = p;
    printf("    %zu queries, series of %" PRIu64 ", mode %d, cost %d, window %" PRId64
           ", znorm %d, "
           "top %" PRIu64 ", max_distance %g, path %d\n",
           c->nq, c->n, (int)c->o.mode, (int)c->o.cost, c->o.window, c->o.znorm, c->o.top,
           c->o.max_distance, c->o.path);
}

static double sample(int ints) {
    return ints ? (double)below(5) : (double)(int64_t)below(2001) / 100.0 - 10.0;
}

static void gen_dtw_case(void *p) {
    dcase *c = p;
    memset(c, 0, sizeof *c);
    int ints = chance(50);
    c->o = wm_dtw_opts_default();
    uint64_t mr = below(100);
    c->o.mode = mr < 60 ? WM_DTW_SUBSEQUENCE : mr < 80 ? WM_DTW_GLOBAL : WM_DTW_UCR;
    c->o.cost = chance(50) ? WM_DTW_ABS : WM_DTW_SQUARED;
    c->n = range(1, chance(70) ? 150 : 400);
    c->y = xmalloc((size_t)c->n * sizeof *c->y);
    for (uint64_t i = 0; i < c->n; i++) c->y[i] = chance(20) && i ? c->y[i - 1] : sample(ints);
    c->nq = (size_t)(chance(20) ? 1 : range(2, 9));
    c->q = xcalloc(c->nq, sizeof *c->q);
    c->lens = xcalloc(c->nq, sizeof *c->lens);
    for (size_t k = 0; k < c->nq; k++) {
        size_t m = (size_t)range(1, 25);
        if (c->o.mode == WM_DTW_UCR && m > c->n) m = (size_t)c->n;
        c->lens[k] = m;
        c->q[k] = xmalloc(m * sizeof **c->q);
        uint64_t at = c->n > m ? below(c->n - m + 1) : 0;
        for (size_t i = 0; i < m; i++)
            c->q[k][i] = chance(60) && at + i < c->n ? c->y[at + i] : sample(ints);
    }
    if (c->o.mode != WM_DTW_SUBSEQUENCE && chance(50)) c->o.window = (int64_t)below(6);
    if (c->o.mode != WM_DTW_UCR) c->o.znorm = chance(20);
    uint64_t tr = below(4);
    c->o.top = tr == 0 ? 0 : tr == 1 ? 1 : tr == 2 ? 1 : 3;
    if (chance(30)) c->o.max_distance = (double)below(30);
    c->o.path = chance(40);
}

static void free_dtw_case(void *p) {
    dcase *c = p;
    for (size_t k = 0; k < c->nq; k++) free(c->q[k]);
    free(c->q);
    free(c->lens);
    free(c->y);
}

static int same_dtw(const wm_dtw_matches_t *a, const wm_dtw_matches_t *b) {
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const wm_dtw_match_t *x = &a->a[i], *y = &b->a[i];
        if (x->start != y->start || x->end != y->end ||
            memcmp(&x->distance, &y->distance, sizeof x->distance) || x->path_len != y->path_len)
            return 0;
        if (x->path_len && memcmp(x->path, y->path, 2 * x->path_len * sizeof *x->path)) return 0;
    }
    return 1;
}

static void run_dtw_case(long idx, void *p) {
    dcase *c = p;
    g_cov.dtw_cases++;
    wm_dtw_matches_t *ref = xcalloc(c->nq, sizeof *ref), *got = xcalloc(c->nq, sizeof *got);
    const double *const *qs = (const double *const *)c->q;
    int ref_st = wm_dtw_many(g_ref.cx, qs, c->lens, c->nq, c->y, c->n, &c->o, ref);
    for (size_t i = 0; i < g_n_cfg; i++) {
        config *cf = &g_cfg[i];
        char what[1024];
        double t0 = now_s();
        int st = wm_dtw_many(cf->cx, qs, c->lens, c->nq, c->y, c->n, &c->o, got);
        g_t_lib += now_s() - t0;
        if (st != ref_st) {
            snprintf(what, sizeof what, "%s: wm_dtw_many returned %d (%s), one device %d", cf->name,
                     st, wm_context_errmsg(cf->cx), ref_st);
            fail_msg(idx, c, what);
        } else {
            size_t k = 0;
            while (k < c->nq && same_dtw(&got[k], &ref[k])) k++;
            snprintf(what, sizeof what, "%s: wm_dtw_many: query %zu differs", cf->name, k);
            if (k < c->nq) fail_msg(idx, c, what);
            else g_passed++;
        }
        for (size_t k = 0; k < c->nq; k++) wm_dtw_matches_free(&got[k]);
        /* one query alone: wm_dtw, the first device */
        wm_dtw_matches_t one = { 0 };
        st = wm_dtw(cf->cx, c->q[0], c->lens[0], c->y, c->n, &c->o, &one);
        snprintf(what, sizeof what, "%s: wm_dtw of query 0 returned %d", cf->name, st);
        if (st != ref_st && ref_st == WM_OK) fail_msg(idx, c, what);
        else if (st == WM_OK && !same_dtw(&one, &ref[0])) fail_msg(idx, c, "wm_dtw differs");
        else g_passed++;
        wm_dtw_matches_free(&one);
    }
    for (size_t k = 0; k < c->nq; k++) wm_dtw_matches_free(&ref[k]);
    free(ref);
    free(got);
}

/* ==== main =================================================================== */

/* A part of the random cases: its case type's size and functions. */
typedef struct {
    const char *name;
    long n;
    size_t size;
    void (*gen)(void *c);
    void (*run)(long idx, void *c);
    void (*release)(void *c);
    void (*describe)(const void *c);
} part_t;

/* One random case of a part: made from the case's seed, run, freed. */
static void part_case(const part_t *part, long idx) {
    void *c = xcalloc(1, part->size);
    part->gen(c);
    part->run(idx, c);
    part->release(c);
    free(c);
}

/* The contexts under test and the reference's settings. */
typedef struct {
    const char *name;
    wm_backend_t be;
    int threads;
    uint64_t chunk;
    int n_devices;
} cfg_spec;

static const cfg_spec CPU_SPLITS[] = {
    { "cpu x2, 2 threads", WM_BACKEND_CPU, 2, 0, 2 },
    { "cpu x3, 3 threads, chunk 5", WM_BACKEND_CPU, 3, 5, 3 },
    { "cpu x4, 1 thread, chunk 1", WM_BACKEND_CPU, 1, 1, 4 },
    { "cpu x7, 2 threads, chunk 13", WM_BACKEND_CPU, 2, 13, 7 },
    { "cpu, list of one, chunk 29", WM_BACKEND_CPU, 2, 29, 1 },
};
static const cfg_spec AUTO_SPLIT = { "auto x3 (no GPU: cpu)", WM_BACKEND_AUTO, 2, 7, 3 };
static const cfg_spec HEAVY_SPLITS[] = {
    { "cpu x2, 2 threads, chunk 61", WM_BACKEND_CPU, 2, 61, 2 },
    { "cpu x3, 3 threads, chunk 200", WM_BACKEND_CPU, 3, 200, 3 },
    { "cpu x4, 1 thread", WM_BACKEND_CPU, 1, 0, 4 },
    { "cpu x7, 2 threads, chunk 97", WM_BACKEND_CPU, 2, 97, 7 },
};
static const cfg_spec GPU_SPLITS[] = {
    { "cuda {0, 0}", WM_BACKEND_CUDA, 2, 0, 2 },
    { "cuda {0, 0, 0}, chunk 4096", WM_BACKEND_CUDA, 3, 4096, 3 },
};

/* Opens the contexts of spec[0, n) on device 0 (each list all zeros) at
** cfgs + *count, counting those that opened. */
static void open_specs(config *cfgs, size_t *count, const cfg_spec *spec, size_t n) {
    static const int zeros[8] = { 0 };
    for (size_t i = 0; i < n; i++)
        if (open_config(&cfgs[*count], spec[i].name, spec[i].be, spec[i].threads, spec[i].chunk,
                        zeros, spec[i].n_devices))
            ++*count;
}

int main(int argc, char **argv) {
    double scale;
    long only = -2;
    test_settings(argc, argv, 20240707ull, &scale, &only);
    long n_text = (long)(3000 * scale + 0.5), n_align = (long)(1500 * scale + 0.5);
    long n_pairs = (long)(300 * scale + 0.5), n_dtw = (long)(400 * scale + 0.5);
    printf("test_shard_diff: seed %" PRIu64 ", %ld text, %ld align, %ld pairs and %ld dtw cases "
           "(WM_TEST_SCALE %g), warpmatch %s\n",
           g_seed, n_text, n_align, n_pairs, n_dtw, scale, wm_version());
    fflush(stdout);
    int gpus = wm_cuda_device_count();

    if (!open_config(&g_ref, "cpu, one device, 1 thread", WM_BACKEND_CPU, 1, 0, NULL, 0))
        return test_finish();
    open_specs(g_cfg, &g_n_cfg, CPU_SPLITS, N_OF(CPU_SPLITS));
    if (!gpus) open_specs(g_cfg, &g_n_cfg, &AUTO_SPLIT, 1);
    open_specs(g_heavy, &g_n_heavy, HEAVY_SPLITS, N_OF(HEAVY_SPLITS));
    size_t first_gpu = g_n_cfg;
    if (cuda_present("{0, 0} and {0, 0, 0}")) {
        open_specs(g_cfg, &g_n_cfg, GPU_SPLITS, N_OF(GPU_SPLITS));
        for (size_t i = first_gpu; i < g_n_cfg; i++) g_heavy[g_n_heavy++] = g_cfg[i];
    }
    for (size_t i = 0; i < g_n_cfg; i++) {
        int n = g_cfg[i].n_devices;
        int want = n > 1 ? n : 0;
        check_true("a context has as many sub-contexts as devices", g_cfg[i].cx->n_sub == want);
    }

    if (only < 0) {
        seed_case(-1, 11);
        api_checks(gpus);
        if (gpus) api_gpu_failure();
        part_done("api checks");
    }

    /* the random cases, numbered on from part to part */
    const part_t parts[] = {
        { "texts", n_text, sizeof(tcase), gen_text_case, run_text_case, free_text_case,
          describe_text },
        { "wm_align", n_align, sizeof(acase), gen_align_case, run_align_case, free_align_case,
          describe_align },
        { "wm_align_pairs", n_pairs, sizeof(pcase), gen_pairs_case, run_pairs_case, free_pairs_case,
          describe_pairs },
        { "wm_dtw_many", n_dtw, sizeof(dcase), gen_dtw_case, run_dtw_case, free_dtw_case,
          describe_dtw },
    };
    long base = 0;
    for (size_t p = 0; p < N_OF(parts); p++) {
        double t0 = now_s();
        g_describe = parts[p].describe;
        for (long i = base; i < base + parts[p].n; i++) {
            if (only >= -1 && i != only) continue;
            seed_case(i, 11);
            part_case(&parts[p], i);
        }
        printf("%s (cases %ld..%ld): %.1f s", parts[p].name, base, base + parts[p].n - 1,
               now_s() - t0);
        if (p == 0) {
            printf(" (");
            for (size_t i = 0; i < g_n_cfg; i++)
                printf("%s%s %.1f s", i ? ", " : "", g_cfg[i].name, g_t_cfg[i]);
            printf(")");
        }
        printf("\n");
        base += parts[p].n;
    }

    wm_context_free(g_ref.cx);
    close_configs(g_cfg, g_n_cfg);
    for (size_t i = 0; i < g_n_heavy; i++)
        if (g_heavy[i].backend != WM_BACKEND_CUDA) /* the GPU ones are g_cfg's */
            wm_context_free(g_heavy[i].cx);
    printf("coverage: %ld text cases (%ld sets, %ld skipped: options the library refuses, %ld "
           "with larger chunks), %ld with matches, %" PRIu64 " matches, %ld with a match across a"
           " shard border, %ld stopped searches; %ld align cases (%ld all_ends, %ld none within"
           " k, %ld a best end in a shard's halo), %ld pair batches, %ld dtw cases\n",
           g_cov.text_cases, g_cov.sets, g_cov.skipped, g_cov.heavy, g_cov.with_matches,
           g_cov.matches, g_cov.straddling, g_cov.stops, g_cov.align_cases, g_cov.align_all_ends,
           g_cov.align_none, g_cov.align_halo_best, g_cov.pair_batches, g_cov.dtw_cases);
    printf("seed %" PRIu64 ": %.1f s wall, %.1f s in the multi-device calls\n", g_seed,
           now_s() - g_t_start, g_t_lib);
    print_repro(argv[0], "the API checks only");
    return test_finish();
}
