/*
** test_dtw_diff.c -- wm_dtw and wm_dtw_many (dynamic time warping:
** subsequence, global and ucr modes) against the brute-force oracle
** (tests/oracle/doracle.c), on the CPU backend with 1 and 3 threads and many
** piece sizes, and on CUDA when a GPU is found.
**
** The contract (include/warpmatch.h, "dynamic time warping"; doracle.h says
** it cell by cell): subsequence and global distances bit for bit the
** oracle's on every backend, thread count and piece size; ucr distances
** within 1e-9 * max(1, |d|) (the ones that are not bit-identical are
** counted and printed); start, end, the number of matches and, with
** opts.path, every cell of the canonical path always identical.
**
** 1. The oracle checks itself: the paper's Figure 4 (X = 1,3,5,3,1 against
**    Y = 1,2,3,4,4,2,1,2, abs cost: distance 4); global DTW of a signal with
**    itself = 0 (every band, both costs); ucr of a window identical to the
**    query = 0 and chosen; hand-made flat cases whose best match is known;
**    the whole matrix against one column at a time (subsequence and global,
**    bit for bit); the band at radius >= max(m, n) against no band, and a
**    narrower band never below; z-normalisation (constant -> zeros, mean ~0,
**    sd ~1); the definition on tiny cases by exhaustive enumeration: for
**    every end e, the subsequence distance equals min over s of the global
**    DTW of (query, series[s, e)) and the start is the largest s reaching it
**    (exactly so on quantised signals, where no sum rounds; on other signals
**    the start must reach it); every oracle path is a valid warping path
**    whose costs, summed left to right, give the distance exactly.
** 2. The arguments of wm_dtw and wm_dtw_many, one at a time, on the
**    same kinds of contexts: tests/unit/test_api_dtw.c.
** 3. The paper's example on the library, every context (start/end printed).
** 4. Seeded random cases (2,000 at WM_TEST_SCALE=1). Modes: subsequence
**    (60 %), global (20 %), ucr (20 %); both costs; znorm on/off. Signals:
**    Gaussian noise, random walks, plateaus (long constant stretches), one
**    constant, spikes, quantised values (multiples of 1/8: exact ties),
**    the query cut from the series (time-warped, with noise from none to
**    heavy; for ucr also scaled and shifted), a query stretched into the
**    series (some samples repeated hundreds or thousands of times, so that
**    the optimal path is far longer than 2m), and flat series with rare
**    edges that a short query must bridge. m 1..500 (mostly short), n
**    1..~25,000 (mostly under 3,000), m > n sometimes. Per case, several
**    option sets on the same oracle candidates: top 1; top K (2..10);
**    top 0 with max_distance at a quantile of the oracle's distances
**    (exactly one of them, or just below it); top K with max_distance;
**    top UINT64_MAX (every non-overlapping match, rank order); global:
**    window -1, 0, 1, 10 or random, max_distance d / just below d / -1 /
**    +inf, top 0, 1 or 3; ucr: L = m (0 or explicit) and L != m, bands.
**    opts.path on for a quarter of them (small enough cases). Each option set
**    runs on the 1-thread default context, two more CPU contexts picked at
**    random (1, 2 or 3 threads; chunk_bytes 0, 8, 16, 56, 264, 1,600, a
**    random multiple of 8 and a random non-multiple: pieces of 1, 2, 7, 33,
**    200, ... samples; pieces of 1 and 2 samples only up to 150,000 and
**    300,000 cells, they are slow) and every CUDA context (chunk_bytes 0,
**    264, 8, and 0 with every start's window on the GPU's pipelined window
**    kernel, sdtw_window_cuda.cu); small cases (m * n <= 4,000) on every
**    context. A third of the subsequence and global cases run in float32
**    against the float32 oracle.
** 5. Adversarial flat cases on every context, the brief's own among them:
**    query [0, 5, 0] in 5,000 zeros, a 5, 5,000 zeros; [-5, 0, 5] against
**    -5, 5,000 zeros, 5 (the match must be all 5,002 samples: 5,002 pieces
**    of one sample, 2,501 of two); a stretch of 20,000; a query stretched
**    by thousands inside noise; and two sums that round to the same double
**    through different cells (q = 3.6, 1, 3, 5 against y = 1.3, 3: the
**    match is [0, 2), never [1, 2), whatever the pieces). The oracle's answer
**    is checked against the one known by hand, then every context against
**    the oracle.
** 6. wm_dtw_many: 100 batches of 1..7 queries of different lengths (some cut
**    from the series) in every mode, each query's matches against
**    doracle_dtw, on the 1-thread context, one random CPU context and CUDA.
** 7. Long series: at WM_TEST_SCALE=1 two of 20,000 / 30,000 samples (m 64,
**    200), three tall queries (m 1,000, 2,500 and 4,000 against 6,000 to
**    9,000 samples), and global DTW with the path of 30 x 4,000 (no band, band 50) and
**    4 x 20,000 (every context: the path crosses every piece); at
**    WM_TEST_SCALE >= 2 also 100,000 x 500 (noise, walk) and a
**    100,000-sample flat series with a 50,000-sample stretched match. Then
**    12 x WM_TEST_SCALE (4 at least) ucr cases of 200-600 samples with a
**    band, which the GPU runs in stripes and abandons windows in, top 1
**    with max_distance none / the best / just under / twice (ucr_stripes).
**
** The one exception the contract allows is taken as it is written: a best
** match (top 1, subsequence) whose start a window read as a larger one,
** where two paths' sums differ only by rounding, is accepted when its path
** from that start gives the distance (counted and printed).
**
** Readings of the contract this test takes: top does not matter in global
** mode (one match at most: [0, n)); opts.znorm changes nothing in ucr mode;
** length is only read in ucr mode (left 0 elsewhere); wm_dtw_many with 0
** queries is WM_OK, with an empty query WM_PATTERN_EMPTY; on its errors
** every out[i] is { NULL, 0 }; with opts.path = 0 path is NULL and
** path_len 0; with top == 0 the matches are in start order, otherwise in
** rank order; the message of a bad sample contains its 0-based index, that
** of wm_dtw_many's bad query its 0-based index.
**
** Timing (2 cores shared with other builds, load 4-7, CPU backend, library
** as of this writing): WM_TEST_SCALE=1 in Release ~39 s wall (~34 s of CPU);
** under ASan + UBSan (RelWithDebInfo) ~140 s wall (~115 s of CPU);
** WM_TEST_SCALE=2 ~110-140 s wall. The last lines split the library's wall
** time by context (the one- and two-sample pieces take most of it).
**
** Usage: test_dtw_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of random cases [1.0]
**        WM_CASE        run only this random case of part 4 (reproduce a
**                       failure; -1: every part but 4)
**        WM_VERBOSE     print each failing case's signals in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doracle.h"
#include "warpmatch.h"

#include "contexts.h"
#include "core/internal.h"
#include "harness.h"
#include "rng.h"

/* ==== counters ================================================================ */

static long g_calls;                      /* library calls made */
static long g_ucr_results, g_ucr_inexact; /* ucr distances compared / not bit-identical */
static double g_ucr_worst;                /* largest relative ucr difference seen */

static double *dup_doubles(const double *v, uint64_t n) {
    double *p = xmalloc((size_t)n * sizeof *p);
    memcpy(p, v, (size_t)n * sizeof *p);
    return p;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* ==== contexts ============================================================== */

/* A context made of its settings; cases of more than max_cells cells skip
** it (pieces of one or two samples cost the library microseconds a cell). */
static int dtw_context(config *cf, wm_backend_t be, int threads, uint64_t chunk,
                       uint64_t max_cells) {
    if (!make_context(cf, be, threads, chunk)) return 0;
    cf->max_cells = max_cells;
    return 1;
}

static config g_cfg[16];
static double g_t_cfg[16]; /* library wall time by context */
static size_t g_n_cfg;
static size_t g_n_cpu; /* g_cfg[0, g_n_cpu) are CPU contexts */

static int cfg_ok(const config *cf, size_t m, uint64_t n) {
    return cf->cx != NULL && (uint64_t)m * n <= cf->max_cells;
}

/* ==== a case ================================================================ */

typedef enum {
    K_NOISE,
    K_WALK,
    K_PLATEAU,
    K_CONST,
    K_SPIKES,
    K_QUANT,
    K_CUT,
    K_STRETCH,
    K_FLAT,
    K_COUNT
} kind_t;

static const char *const K_NAME[K_COUNT] = { "noise",
                                             "random walk",
                                             "plateaus",
                                             "constant series",
                                             "spikes",
                                             "quantised (1/8)",
                                             "query cut from the series",
                                             "query stretched into the series",
                                             "flat with edges" };

static const char *const MODE_NAME[3] = { "subsequence", "global", "ucr" };

typedef struct {
    kind_t kind;
    double *q, *y;
    size_t m;
    uint64_t n;
    wm_dtw_opts_t o; /* mode, cost, znorm, window, length */
    char desc[240];
} dcase;

static void free_case(dcase *c) {
    free(c->q);
    free(c->y);
    c->q = c->y = NULL;
}

static void print_signal(const char *label, const double *v, uint64_t n) {
    uint64_t lim = g_verbose ? n : 24;
    printf("    %s (%" PRIu64 "): ", label, n);
    for (uint64_t k = 0; k < n && k < lim; k++) printf("%s%.17g", k ? ", " : "", v[k]);
    if (n > lim) printf(", ... (WM_VERBOSE=1 prints all)");
    printf("\n");
}

static void describe_case(const void *p) {
    const dcase *c = p;
    printf("    %s; %s, m %zu, n %" PRIu64 "%s%s\n", MODE_NAME[c->o.mode], K_NAME[c->kind], c->m,
           c->n, c->desc[0] ? "; " : "", c->desc);
    print_signal("query", c->q, c->m);
    print_signal("series", c->y, c->n);
}

static void opts_str(char *buf, size_t len, const wm_dtw_opts_t *o) {
    snprintf(buf, len,
             "mode %s, cost %s, znorm %d, window %" PRId64 ", top %" PRIu64
             ", max_distance %.17g, length %" PRIu64 ", path %d, precision %s",
             (unsigned)o->mode < 3 ? MODE_NAME[o->mode] : "?",
             o->cost == WM_DTW_SQUARED ? "squared" : "abs", o->znorm, o->window, o->top,
             o->max_distance, o->length, o->path, o->precision == WM_DTW_F32 ? "f32" : "f64");
}

static void oracle_fail(const char *name, const char *detail) {
    self_fail++;
    printf("oracle self-check FAILED: %s: %s\n", name, detail);
    fflush(stdout);
}

/* ==== signals =============================================================== */

static double pick_scale(void) {
    uint64_t r = below(100);
    if (r < 60) return 1.0;
    if (r < 75) return pow(10.0, -(double)range(1, 3));
    if (r < 95) return pow(10.0, (double)range(1, 3));
    return 1e4;
}

static double quant(int64_t half) {
    return (double)((int64_t)below((uint64_t)(2 * half + 1)) - half) / 8.0;
}

/* v[0, len) of one of the base kinds (noise, walk, plateaus, constant,
** spikes, quantised). */
static void gen_base(kind_t kind, double *v, uint64_t len, double scale) {
    double off = chance(50) ? 0.0 : scale * (double)((int64_t)below(21) - 10);
    switch (kind) {
    case K_WALK: {
        double x = off;
        int q = chance(30); /* steps of 1/8: exact sums */
        for (uint64_t k = 0; k < len; k++) {
            x += q ? quant(8) : scale * gauss();
            v[k] = x;
        }
        break;
    }
    case K_PLATEAU: {
        uint64_t k = 0;
        int q = chance(50);
        uint64_t div = range(1, 12);
        while (k < len) {
            uint64_t seg = range(1, len / div + 1);
            double val = q ? quant(16) : off + scale * gauss();
            for (uint64_t t = 0; t < seg && k < len; t++) v[k++] = val;
        }
        break;
    }
    case K_CONST: {
        double val = chance(50) ? quant(16) : off + scale * gauss();
        for (uint64_t k = 0; k < len; k++) v[k] = val;
        break;
    }
    case K_SPIKES: {
        int noisy = chance(50);
        unsigned pct = (unsigned)range(1, 6);
        for (uint64_t k = 0; k < len; k++) {
            v[k] = noisy ? 0.01 * scale * gauss() : 0.0;
            if (chance(pct)) v[k] += (chance(50) ? 1 : -1) * scale * (double)range(5, 100);
        }
        break;
    }
    case K_QUANT: {
        int64_t half = chance(50) ? 8 : chance(50) ? 2 : 32;
        for (uint64_t k = 0; k < len; k++) v[k] = quant(half);
        break;
    }
    case K_NOISE:
    default:
        for (uint64_t k = 0; k < len; k++) v[k] = off + scale * gauss();
        break;
    }
}

static kind_t random_base_kind(void) {
    static const kind_t b[] = { K_NOISE, K_WALK, K_PLATEAU, K_CONST, K_SPIKES, K_QUANT };
    return b[below(N_OF(b))];
}

static size_t pick_m(void) {
    static const span_t M[] = { { 35, 1, 8 }, { 70, 9, 40 }, { 92, 41, 120 }, { 100, 121, 500 } };
    return (size_t)pick_span(M, N_OF(M), 100);
}

static uint64_t pick_n(void) {
    static const span_t N[] = {
        { 8, 1, 12 },
        { 60, 13, 600 },
        { 92, 601, 3000 },
        { 100, 3001, 25000 },
    };
    return pick_span(N, N_OF(N), 100);
}

/* query[0, m) cut from y[0, n) at a random place, time-warped a little, with
** noise of level sigma. */
static void cut_query(double *q, size_t m, const double *y, uint64_t n, double sigma, int warp) {
    uint64_t at = below(n);
    for (size_t i = 0; i < m; i++) {
        q[i] = y[at] + (sigma > 0 ? sigma * gauss() : 0.0);
        uint64_t step = warp ? (chance(12) ? 0 : chance(12) ? 2 : 1) : 1;
        at += step;
        if (at >= n) at = n - 1;
    }
}

static double pick_sigma(double scale) {
    uint64_t r = below(100);
    if (r < 35) return 0;
    if (r < 55) return 1e-6 * scale;
    if (r < 80) return 0.05 * scale;
    return 0.5 * scale;
}

/* A query stretched into a background: the series is background, then the
** query with sample i repeated r_i times (a few r_i in the hundreds or
** thousands), then background. Returns the series (its length in *n) and
** writes where the stretched copy lies to *at / *len. */
static double *stretch_series(const double *q, size_t m, uint64_t max_stretch, double scale,
                              double noise, uint64_t *n, uint64_t *at, uint64_t *len) {
    uint64_t *rep = xmalloc(m * sizeof *rep), total = 0;
    for (size_t i = 0; i < m; i++) rep[i] = range(1, 3);
    size_t n_long = (size_t)range(1, m < 3 ? m : 3);
    for (size_t k = 0; k < n_long; k++) rep[below(m)] = range(50, max_stretch);
    for (size_t i = 0; i < m; i++) total += rep[i];
    uint64_t before = range(0, 300), after = range(0, 300);
    *n = before + total + after;
    double *y = xmalloc((size_t)*n * sizeof *y);
    kind_t bg = chance(50) ? K_NOISE : chance(50) ? K_WALK : K_CONST;
    gen_base(bg, y, *n, scale);
    uint64_t p = before;
    for (size_t i = 0; i < m; i++)
        for (uint64_t t = 0; t < rep[i]; t++) y[p++] = q[i] + (noise > 0 ? noise * gauss() : 0);
    *at = before;
    *len = total;
    free(rep);
    return y;
}

/* ==== generating a case ===================================================== */

/* The query and the series of m and n samples, for mode. */
static void alloc_signals(dcase *c, wm_dtw_mode_t mode, size_t m, uint64_t n) {
    c->o.mode = mode;
    c->m = m;
    c->n = n;
    c->q = xmalloc(m * sizeof *c->q);
    c->y = xmalloc((size_t)n * sizeof *c->y);
}

/* first of the case's kind, second mostly so too (else another base kind). */
static void gen_related(dcase *c, double *first, uint64_t n_first, double *second,
                        uint64_t n_second, double scale) {
    gen_base(c->kind, first, n_first, scale);
    gen_base(chance(70) ? c->kind : random_base_kind(), second, n_second, scale);
}

/* The signal kinds of each mode and how often each comes. */
static const weighted_t SUBSEQUENCE_KINDS[] = {
    { K_NOISE, 11 }, { K_WALK, 24 }, { K_PLATEAU, 36 }, { K_CONST, 41 }, { K_SPIKES, 49 },
    { K_QUANT, 62 }, { K_CUT, 82 },  { K_STRETCH, 92 }, { K_FLAT, 100 },
};
static const weighted_t GLOBAL_KINDS[] = {
    { K_NOISE, 15 },  { K_WALK, 30 },  { K_PLATEAU, 40 }, { K_CONST, 45 },
    { K_SPIKES, 52 }, { K_QUANT, 65 }, { K_CUT, 100 },
};
static const weighted_t UCR_KINDS[] = {
    { K_NOISE, 15 },  { K_WALK, 30 },  { K_PLATEAU, 42 }, { K_CONST, 46 },
    { K_SPIKES, 54 }, { K_QUANT, 66 }, { K_CUT, 100 },
};

/* The gen_* of each mode fill a case whose kind is drawn already. */
static void gen_subsequence(dcase *c) {
    size_t m = pick_m();
    uint64_t n = pick_n();
    if (chance(4)) n = range(1, m); /* the query longer than the series */
    while ((uint64_t)m * n > 2500000) n /= 2;
    if (n == 0) n = 1;
    double scale = pick_scale();
    c->o.mode = WM_DTW_SUBSEQUENCE;
    c->m = m;
    c->q = xmalloc(m * sizeof *c->q);
    switch (c->kind) {
    case K_CUT: {
        kind_t b = random_base_kind();
        c->n = n;
        c->y = xmalloc((size_t)n * sizeof *c->y);
        gen_base(b, c->y, n, scale);
        double sg = pick_sigma(scale);
        int warp = chance(60);
        cut_query(c->q, m, c->y, n, sg, warp);
        snprintf(c->desc, sizeof c->desc, "series %s, noise %g, %swarped", K_NAME[b], sg,
                 warp ? "" : "not ");
        break;
    }
    case K_STRETCH: {
        if (m < 2) {
            m = c->m = (size_t)range(2, 12);
            c->q = realloc(c->q, m * sizeof *c->q);
        }
        if (m > 60) { m = c->m = (size_t)range(2, 60); }
        gen_base(chance(50) ? K_WALK : K_NOISE, c->q, m, scale);
        uint64_t at, len;
        double noise = chance(50) ? 0 : 1e-3 * scale;
        c->y = stretch_series(c->q, m, chance(70) ? 800 : 4000, scale, noise, &c->n, &at, &len);
        snprintf(c->desc, sizeof c->desc, "stretched copy at [%" PRIu64 ", %" PRIu64 "), noise %g",
                 at, at + len, noise);
        break;
    }
    case K_FLAT: {
        /* flat base b with events A, b * run, B; the query A, b..., B */
        double b = chance(50) ? 0.0 : quant(8);
        double A = b + (double)range(1, 40) / 8.0, B = b - (double)range(1, 40) / 8.0;
        if (chance(50)) {
            double t = A;
            A = B;
            B = t;
        }
        size_t inner = (size_t)range(1, 3);
        m = c->m = inner + 2;
        c->q = realloc(c->q, m * sizeof *c->q);
        c->q[0] = A;
        for (size_t i = 1; i <= inner; i++) c->q[i] = b;
        c->q[m - 1] = B;
        if (chance(30)) c->q[1 + below(inner)] += 0.25; /* not quite flat */
        uint64_t events = range(1, 4), cap = 0;
        uint64_t *run = xmalloc(events * sizeof *run);
        for (uint64_t k = 0; k < events; k++) {
            run[k] = chance(50) ? range(50, 600) : range(600, 5000);
            cap += run[k] + 2 + 200;
        }
        c->y = xmalloc((size_t)cap * sizeof *c->y);
        uint64_t p = 0;
        for (uint64_t k = 0; k < events; k++) {
            uint64_t gap = range(0, 200);
            for (uint64_t t = 0; t < gap; t++) c->y[p++] = b;
            c->y[p++] = chance(80) ? A : A + 0.125;
            for (uint64_t t = 0; t < run[k]; t++) c->y[p++] = b;
            c->y[p++] = chance(80) ? B : B - 0.125;
        }
        c->n = p;
        snprintf(c->desc, sizeof c->desc,
                 "%" PRIu64 " flat events, the first %" PRIu64 " samples long", events, run[0]);
        free(run);
        break;
    }
    default: {
        c->n = n;
        c->y = xmalloc((size_t)n * sizeof *c->y);
        gen_base(c->kind, c->y, n, scale);
        kind_t qk = chance(70) ? c->kind : random_base_kind();
        if (c->kind == K_CONST && chance(40)) {
            for (size_t i = 0; i < m; i++) c->q[i] = c->y[0];
        } else {
            gen_base(qk, c->q, m, scale);
        }
        if (qk != c->kind) snprintf(c->desc, sizeof c->desc, "query %s", K_NAME[qk]);
        break;
    }
    }
}

static void gen_global(dcase *c) {
    double scale = pick_scale();
    size_t m = chance(40) ? (size_t)range(1, 40) : (size_t)range(41, 600);
    uint64_t n = chance(20) ? m : chance(40) ? range(1, 40) : range(41, 600);
    if (n == m && chance(70)) n = m + range(1, 30); /* m != n mostly */
    alloc_signals(c, WM_DTW_GLOBAL, m, n);
    if (c->kind == K_CUT) {
        /* the series a warped, noisy copy of the query */
        kind_t b = random_base_kind();
        gen_base(b, c->q, m, scale);
        double sg = pick_sigma(scale);
        for (uint64_t j = 0; j < n; j++) {
            uint64_t i = n > 1 ? (uint64_t)((double)j * (double)(m - 1) / (double)(n - 1)) : 0;
            if (chance(10) && i + 1 < m) i++;
            c->y[j] = c->q[i] + (sg > 0 ? sg * gauss() : 0);
        }
        snprintf(c->desc, sizeof c->desc, "series = query %s resampled, noise %g", K_NAME[b], sg);
    } else {
        gen_related(c, c->q, m, c->y, n, scale);
    }
    uint64_t w = below(100);
    c->o.window = w < 25   ? -1
                  : w < 40 ? 0
                  : w < 55 ? 1
                  : w < 70 ? 10
                           : (int64_t)range(0, m > n ? m : n);
}

static void gen_ucr(dcase *c) {
    double scale = pick_scale();
    size_t m = chance(40)   ? (size_t)range(1, 12)
               : chance(80) ? (size_t)range(13, 48)
                            : (size_t)range(49, 128);
    uint64_t L = m;
    uint64_t r = below(100);
    c->o.length = 0;
    if (r >= 50 && r < 60) c->o.length = m;
    else if (r >= 60) {
        L = range(m / 2 > 0 ? m / 2 : 1, 2 * m + 3);
        c->o.length = L;
    }
    uint64_t n = L + (chance(15) ? range(0, 5) : range(0, 1500));
    while ((n - L + 1) * m * L > 1500000 && n > L) n = L + (n - L) / 2;
    alloc_signals(c, WM_DTW_UCR, m, n);
    if (c->kind == K_CUT) {
        kind_t b = random_base_kind();
        gen_base(b, c->y, n, scale);
        double sg = pick_sigma(scale);
        int warp = chance(50);
        cut_query(c->q, m, c->y, n, sg, warp);
        double a = 1.0, off = 0.0;
        if (chance(40)) { /* z-normalisation undoes it (nearly) */
            a = chance(50) ? 2.0 : 0.37;
            off = (double)((int64_t)below(11) - 5);
            for (size_t i = 0; i < m; i++) c->q[i] = a * c->q[i] + off;
        }
        snprintf(c->desc, sizeof c->desc, "series %s, noise %g, %swarped, query * %g + %g",
                 K_NAME[b], sg, warp ? "" : "not ", a, off);
    } else {
        gen_related(c, c->y, n, c->q, m, scale);
    }
    uint64_t w = below(100);
    c->o.window = w < 30   ? -1
                  : w < 45 ? 0
                  : w < 60 ? 1
                  : w < 75 ? (int64_t)(L / 10)
                           : (int64_t)range(0, L);
    if (chance(10)) c->o.window = 10;
}

static void gen_case(dcase *c) {
    memset(c, 0, sizeof *c);
    c->o = wm_dtw_opts_default();
    uint64_t r = below(100);
    if (r < 60) {
        c->kind = (kind_t)pick_weighted(SUBSEQUENCE_KINDS, N_OF(SUBSEQUENCE_KINDS));
        gen_subsequence(c);
    } else if (r < 80) {
        c->kind = (kind_t)pick_weighted(GLOBAL_KINDS, N_OF(GLOBAL_KINDS));
        gen_global(c);
    } else {
        c->kind = (kind_t)pick_weighted(UCR_KINDS, N_OF(UCR_KINDS));
        gen_ucr(c);
    }
    c->o.cost = chance(50) ? WM_DTW_ABS : WM_DTW_SQUARED;
    c->o.znorm = chance(25);
    /* float32 (not ucr, which is float64 only): its own oracle */
    if (c->o.mode != WM_DTW_UCR && chance(35)) c->o.precision = WM_DTW_F32;
}

/* ==== the oracle's answer for one option set ================================ */

/* From the candidates (copied, not changed): selection and paths. */
static void oracle_answer(const dcase *c, const doracle_cand_t *cand, size_t nc,
                          const wm_dtw_opts_t *o, wm_dtw_matches_t *want) {
    double t0 = now_s();
    doracle_cand_t *cc = xmalloc(nc * sizeof *cc);
    memcpy(cc, cand, nc * sizeof *cc);
    size_t k = doracle_select(cc, nc, o->top, o->max_distance);
    want->n = k;
    want->a = k ? xcalloc(k, sizeof *want->a) : NULL;
    for (size_t r = 0; r < k; r++) {
        want->a[r].start = cc[r].start;
        want->a[r].end = cc[r].end;
        want->a[r].distance = cc[r].distance;
        if (o->path) {
            size_t len = 0;
            double v = 0;
            want->a[r].path =
                doracle_path(c->q, c->m, c->y, c->n, o, cc[r].start, cc[r].end, &len, &v);
            want->a[r].path_len = len;
            if (!same_bits(v, cc[r].distance)) {
                char buf[300];
                snprintf(buf, sizeof buf,
                         "the path DP of [%" PRIu64 ", %" PRIu64 ") ends at "
                         "%.17g, the candidate says %.17g",
                         cc[r].start, cc[r].end, v, cc[r].distance);
                oracle_fail("doracle_path", buf);
            }
        }
    }
    free(cc);
    g_t_oracle += now_s() - t0;
}

/* ==== checking one result =================================================== */

/* The signals paths are costed on, for a whole result: the query and the
** series, z-normalised with o->znorm (subsequence, global); NULL in ucr mode,
** where each window is normalised on its own (path_problem does it). */
typedef struct {
    double *qq, *yy;
} path_sig;

static path_sig path_sig_make(const dcase *c, const wm_dtw_opts_t *o) {
    path_sig ps = { NULL, NULL };
    if (o->mode == WM_DTW_UCR) return ps;
    ps.qq = dup_doubles(c->q, c->m);
    ps.yy = dup_doubles(c->y, c->n);
    if (o->znorm) {
        doracle_znorm(c->q, c->m, ps.qq);
        doracle_znorm(c->y, c->n, ps.yy);
    }
    return ps;
}

static void path_sig_free(path_sig *ps) {
    free(ps->qq);
    free(ps->yy);
    ps->qq = ps->yy = NULL;
}

/* Is a's path a valid warping path of [start, end) (band included) whose
** costs, summed left to right, give its distance (exactly; ucr within the
** tolerance)? NULL when so, else why (in buf). */
static const char *path_problem(char *buf, size_t len, const dcase *c, const wm_dtw_opts_t *o,
                                const path_sig *ps, const wm_dtw_match_t *a) {
    if (a->path == NULL || a->path_len == 0) {
        snprintf(buf, len, "no path (path %p, path_len %" PRIu64 ")", (void *)a->path, a->path_len);
        return buf;
    }
    uint64_t w = a->end - a->start, m = c->m, P = a->path_len;
    if (a->end <= a->start || a->end > c->n) {
        snprintf(buf, len, "bad match [%" PRIu64 ", %" PRIu64 ")", a->start, a->end);
        return buf;
    }
    if (P < (m > w ? m : w) || P > m + w - 1) {
        snprintf(buf, len, "path_len %" PRIu64 " impossible for %" PRIu64 " x %" PRIu64, P, m, w);
        return buf;
    }
    const uint64_t *p = a->path;
    if (p[0] != 0 || p[1] != a->start || p[2 * (P - 1)] != m - 1 ||
        p[2 * (P - 1) + 1] != a->end - 1) {
        snprintf(buf, len,
                 "the path runs (%" PRIu64 ", %" PRIu64 ") .. (%" PRIu64 ", %" PRIu64
                 "), not (0, %" PRIu64 ") .. (%" PRIu64 ", %" PRIu64 ")",
                 p[0], p[1], p[2 * (P - 1)], p[2 * (P - 1) + 1], a->start, m - 1, a->end - 1);
        return buf;
    }
    for (uint64_t k = 1; k < P; k++) {
        uint64_t di = p[2 * k] - p[2 * k - 2], dj = p[2 * k + 1] - p[2 * k - 1];
        if (!((di == 1 && dj == 0) || (di == 0 && dj == 1) || (di == 1 && dj == 1))) {
            snprintf(buf, len,
                     "step %" PRIu64 ": (%" PRIu64 ", %" PRIu64 ") -> (%" PRIu64 ", %" PRIu64 ")",
                     k, p[2 * k - 2], p[2 * k - 1], p[2 * k], p[2 * k + 1]);
            return buf;
        }
    }
    if (o->mode != WM_DTW_SUBSEQUENCE)
        for (uint64_t k = 0; k < P; k++)
            if (!doracle_in_band(o->window, m, w, p[2 * k], p[2 * k + 1] - a->start)) {
                snprintf(buf, len,
                         "cell %" PRIu64 " (%" PRIu64 ", %" PRIu64 ") outside the band %" PRId64, k,
                         p[2 * k], p[2 * k + 1], o->window);
                return buf;
            }
    double *qz = NULL, *wz = NULL;
    const double *qq = ps->qq, *yy = ps->yy ? ps->yy + a->start : NULL;
    if (o->mode == WM_DTW_UCR) {
        qz = xmalloc(c->m * sizeof *qz);
        wz = xmalloc((size_t)w * sizeof *wz);
        doracle_znorm(c->q, c->m, qz);
        doracle_znorm(c->y + a->start, w, wz);
        qq = qz;
        yy = wz;
    }
    double sum = 0; /* in the match's precision (float32 sums of float32 costs) */
    doracle_precision(o->precision);
    for (uint64_t k = 0; k < P; k++)
        sum = doracle_add(sum, doracle_cost(o->cost, qq[p[2 * k]], yy[p[2 * k + 1] - a->start]));
    free(qz);
    free(wz);
    int ok = o->mode == WM_DTW_UCR
                 ? fabs(sum - a->distance) <= 1e-9 * (fabs(sum) > 1 ? fabs(sum) : 1)
                 : same_bits(sum, a->distance);
    if (!ok) {
        snprintf(buf, len, "the path's costs sum to %.17g, the distance is %.17g", sum,
                 a->distance);
        return buf;
    }
    return NULL;
}

typedef struct {
    uint64_t start, end;
} extent_t;

static int cmp_span(const void *pa, const void *pb) {
    const extent_t *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

static void print_matches(const char *label, const wm_dtw_matches_t *r) {
    printf("    %s: %zu match%s", label, r->n, r->n == 1 ? "" : "es");
    for (size_t k = 0; k < r->n && k < 6 && r->a; k++)
        printf("%s(%.17g, [%" PRIu64 ", %" PRIu64 "))", k ? ", " : ": ", r->a[k].distance,
               r->a[k].start, r->a[k].end);
    if (r->n > 6) printf(", ...");
    printf("\n");
}

/* The start of a best match (top 1, subsequence) is read from the tracked
** DP of windows [end - w, end) (include/warpmatch.h): where two paths'
** sums differ only by rounding -- the oracle's DP keeps the smaller at the
** cell where they meet, and the later additions round them to the same
** value -- the window finds the larger start, whose path's own sum is the
** distance. The contract says so; seen with float32 on plateaus. Accepted
** when that is the case (counted in g_start_rounding): the same end and
** distance, a larger start, and the global DP of the query against
** series[start, end) (normalised as the match was) gives the distance. */
static long g_start_rounding;

static int start_by_rounding(const dcase *c, const wm_dtw_opts_t *o, const wm_dtw_match_t *g,
                             const wm_dtw_match_t *w) {
    if (o->mode != WM_DTW_SUBSEQUENCE || o->top != 1 || g->end != w->end || g->start <= w->start ||
        !same_bits(g->distance, w->distance))
        return 0;
    const double *q = c->q, *y = c->y;
    double *qn = NULL, *yn = NULL;
    if (o->znorm) {
        qn = xmalloc(c->m * sizeof *qn);
        yn = xmalloc((size_t)c->n * sizeof *yn);
        doracle_znorm(c->q, c->m, qn);
        doracle_znorm(c->y, c->n, yn);
        q = qn;
        y = yn;
    }
    doracle_precision(o->precision);
    double d = doracle_global_cols(q, c->m, y + g->start, g->end - g->start, o->cost, -1);
    free(qn);
    free(yn);
    return same_bits(d, g->distance);
}

/* Compare got (rc) with want; one check. */
static void check_result(long idx, const dcase *c, const char *cfg, const wm_dtw_opts_t *o, int rc,
                         const char *errmsg, const wm_dtw_matches_t *got,
                         const wm_dtw_matches_t *want) {
    char what[400], os[300], buf[1400], pb[600];
    opts_str(os, sizeof os, o);
    snprintf(what, sizeof what, "%s; %s", cfg, os);
    const char *problem = NULL;
    path_sig ps = { NULL, NULL };
    if (o->path && rc == WM_OK) ps = path_sig_make(c, o);
    if (rc != WM_OK) {
        snprintf(pb, sizeof pb, "returned %d (%s): %s", rc, wm_strerror(rc), errmsg ? errmsg : "");
        problem = pb;
    } else if (got->n != want->n || (got->n > 0 && got->a == NULL)) {
        snprintf(pb, sizeof pb, "%zu matches, the oracle %zu", got->n, want->n);
        problem = pb;
    }
    for (size_t k = 0; !problem && k < want->n; k++) {
        const wm_dtw_match_t *g = &got->a[k], *w = &want->a[k];
        const int rounded = g->start != w->start && start_by_rounding(c, o, g, w);
        g_start_rounding += rounded;
        if ((g->start != w->start && !rounded) || g->end != w->end) {
            snprintf(pb, sizeof pb,
                     "match %zu: [%" PRIu64 ", %" PRIu64 ") distance %.17g, the "
                     "oracle [%" PRIu64 ", %" PRIu64 ") distance %.17g",
                     k, g->start, g->end, g->distance, w->start, w->end, w->distance);
            problem = pb;
            break;
        }
        if (o->mode == WM_DTW_UCR) {
            g_ucr_results++;
            if (!same_bits(g->distance, w->distance)) {
                g_ucr_inexact++;
                double rel = fabs(g->distance - w->distance) /
                             (fabs(w->distance) > 1 ? fabs(w->distance) : 1);
                if (rel > g_ucr_worst) g_ucr_worst = rel;
                if (!(rel <= 1e-9)) {
                    snprintf(pb, sizeof pb,
                             "match %zu [%" PRIu64 ", %" PRIu64 "): distance "
                             "%.17g, the oracle %.17g (relative difference %.3g > 1e-9)",
                             k, g->start, g->end, g->distance, w->distance, rel);
                    problem = pb;
                    break;
                }
            }
        } else if (!same_bits(g->distance, w->distance)) {
            snprintf(pb, sizeof pb,
                     "match %zu [%" PRIu64 ", %" PRIu64 "): distance %.17g "
                     "(%a), the oracle %.17g (%a): not bit-identical",
                     k, g->start, g->end, g->distance, g->distance, w->distance, w->distance);
            problem = pb;
            break;
        }
        if (!o->path) {
            if (g->path != NULL || g->path_len != 0) {
                snprintf(pb, sizeof pb, "match %zu: a path (len %" PRIu64 ") without opts.path", k,
                         g->path_len);
                problem = pb;
            }
            continue;
        }
        char why[400];
        const char *bad = path_problem(why, sizeof why, c, o, &ps, g);
        if (rounded) { /* another start: its path need only be valid */
            if (bad) {
                snprintf(pb, sizeof pb, "match %zu (a start by rounding): %s", k, bad);
                problem = pb;
                break;
            }
            continue;
        }
        if (g->path_len != w->path_len || g->path == NULL ||
            memcmp(g->path, w->path, 2 * w->path_len * sizeof *w->path) != 0) {
            uint64_t at = 0;
            while (g->path && at < g->path_len && at < w->path_len &&
                   g->path[2 * at] == w->path[2 * at] && g->path[2 * at + 1] == w->path[2 * at + 1])
                at++;
            snprintf(pb, sizeof pb,
                     "match %zu [%" PRIu64 ", %" PRIu64 "): not the canonical path"
                     " (%" PRIu64 " cells, the oracle %zu; first difference at cell %" PRIu64
                     ": got (%" PRIu64 ", %" PRIu64 "), the oracle (%" PRIu64 ", %" PRIu64 ")); "
                     "%s",
                     k, g->start, g->end, g->path_len, (size_t)w->path_len, at,
                     g->path && at < g->path_len ? g->path[2 * at] : 0,
                     g->path && at < g->path_len ? g->path[2 * at + 1] : 0,
                     at < w->path_len ? w->path[2 * at] : 0,
                     at < w->path_len ? w->path[2 * at + 1] : 0,
                     bad ? bad : "it is a valid optimal path");
            problem = pb;
            break;
        }
        if (bad) {
            snprintf(pb, sizeof pb, "match %zu: the oracle's own path fails: %s", k, bad);
            problem = pb;
            break;
        }
    }
    /* independent of the oracle: no overlap, within max_distance, the order */
    if (!problem && rc == WM_OK) {
        extent_t *sp = xmalloc(got->n * sizeof *sp);
        for (size_t k = 0; k < got->n && !problem; k++) {
            const wm_dtw_match_t *a = &got->a[k];
            sp[k].start = a->start;
            sp[k].end = a->end;
            if (!(a->distance <= o->max_distance) || (o->top && got->n > o->top) ||
                a->start >= a->end || a->end > c->n) {
                snprintf(pb, sizeof pb,
                         "match %zu [%" PRIu64 ", %" PRIu64 ") %.17g: empty, past "
                         "the series, over max_distance or more than top",
                         k, a->start, a->end, a->distance);
                problem = pb;
            } else if (o->top == 0 && k > 0 && !(got->a[k - 1].start < a->start)) {
                snprintf(pb, sizeof pb, "top 0: matches %zu and %zu not in start order", k - 1, k);
                problem = pb;
            }
        }
        qsort(sp, got->n, sizeof *sp, cmp_span);
        for (size_t k = 1; k < got->n && !problem; k++)
            if (sp[k].start < sp[k - 1].end) {
                snprintf(pb, sizeof pb,
                         "matches [%" PRIu64 ", %" PRIu64 ") and [%" PRIu64 ", %" PRIu64
                         ") overlap",
                         sp[k - 1].start, sp[k - 1].end, sp[k].start, sp[k].end);
                problem = pb;
            }
        free(sp);
    }
    path_sig_free(&ps);
    if (problem) {
        snprintf(buf, sizeof buf, "%s: %s", what, problem);
        fail_msg(idx, c, buf);
        if (g_failed <= MAX_DETAILED_FAILURES) {
            print_matches("oracle", want);
            if (rc == WM_OK) print_matches("library", got);
        }
        return;
    }
    g_passed++;
}

static int lib_dtw(config *cf, const dcase *c, const wm_dtw_opts_t *o, wm_dtw_matches_t *got) {
    memset(got, 0, sizeof *got);
    double t0 = now_s();
    int rc = wm_dtw(cf->cx, c->q, c->m, c->y, c->n, o, got);
    double dt = now_s() - t0;
    g_t_lib += dt;
    g_t_cfg[cf - g_cfg] += dt;
    g_calls++;
    return rc;
}

static void run_one(long idx, const dcase *c, config *cf, const wm_dtw_opts_t *o,
                    const wm_dtw_matches_t *want) {
    wm_dtw_matches_t got;
    int rc = lib_dtw(cf, c, o, &got);
    check_result(idx, c, cf->name, o, rc, wm_context_errmsg(cf->cx), &got, want);
    if (rc == WM_OK) wm_dtw_matches_free(&got);
}

/* ==== 1. the oracle checks itself =========================================== */

static void expect_best(const char *name, const double *q, size_t m, const double *y, uint64_t n,
                        const wm_dtw_opts_t *o, double d, uint64_t s, uint64_t e) {
    wm_dtw_matches_t r;
    doracle_dtw(q, m, y, n, o, &r);
    if (r.n < 1 || r.a[0].distance != d || r.a[0].start != s || r.a[0].end != e) {
        char buf[300];
        snprintf(buf, sizeof buf,
                 "%zu matches, the first %.17g [%" PRIu64 ", %" PRIu64 "); want "
                 "%.17g [%" PRIu64 ", %" PRIu64 ")",
                 r.n, r.n ? r.a[0].distance : 0.0, r.n ? r.a[0].start : 0, r.n ? r.a[0].end : 0, d,
                 s, e);
        oracle_fail(name, buf);
    }
    doracle_matches_free(&r);
}

/* Every oracle path of r valid (as the library's are checked). */
static void oracle_paths_valid(const char *name, const dcase *c, const wm_dtw_opts_t *o,
                               const wm_dtw_matches_t *r) {
    char why[400];
    path_sig ps = path_sig_make(c, o);
    for (size_t k = 0; k < r->n; k++) {
        const char *bad = path_problem(why, sizeof why, c, o, &ps, &r->a[k]);
        if (bad) {
            char buf[600];
            snprintf(buf, sizeof buf, "match %zu: %s", k, bad);
            oracle_fail(name, buf);
            describe_case(c);
            break;
        }
    }
    path_sig_free(&ps);
}

static void oracle_self_check(void) {
    char name[120], buf[400];
    wm_dtw_opts_t o = wm_dtw_opts_default();

    /* the paper's Figure 4 */
    {
        static const double X[] = { 1, 3, 5, 3, 1 }, Y[] = { 1, 2, 3, 4, 4, 2, 1, 2 };
        wm_dtw_matches_t r;
        o.path = 1;
        doracle_dtw(X, 5, Y, 8, &o, &r);
        if (r.n != 1 || r.a[0].distance != 4.0) {
            snprintf(buf, sizeof buf, "%zu matches, distance %.17g (want 4)", r.n,
                     r.n ? r.a[0].distance : -1.0);
            oracle_fail("Figure 4", buf);
        } else {
            printf("oracle: Figure 4: distance %g at [%" PRIu64 ", %" PRIu64 "), path",
                   r.a[0].distance, r.a[0].start, r.a[0].end);
            for (uint64_t k = 0; k < r.a[0].path_len; k++)
                printf(" (%" PRIu64 ",%" PRIu64 ")", r.a[0].path[2 * k], r.a[0].path[2 * k + 1]);
            printf("\n");
        }
        dcase c = { K_QUANT, (double *)X, (double *)Y, 5, 8, o, "Figure 4" };
        oracle_paths_valid("Figure 4 path", &c, &o, &r);
        doracle_matches_free(&r);
        /* every end, by hand: D[5][e] = 8 6 5 6 6 4 4 5 */
        static const double col[] = { 8, 6, 5, 6, 6, 4, 4, 5 };
        double dist[8];
        uint64_t st[8];
        doracle_subseq_full(X, 5, Y, 8, WM_DTW_ABS, dist, st);
        for (int e = 0; e < 8; e++)
            if (dist[e] != col[e]) {
                snprintf(buf, sizeof buf, "D[5][%d] = %g, by hand %g", e + 1, dist[e], col[e]);
                oracle_fail("Figure 4, every end", buf);
            }
        o.path = 0;
    }

    /* hand-made flat cases */
    {
        double *y = xcalloc(10001, sizeof *y);
        y[5000] = 5;
        static const double q1[] = { 0, 5, 0 };
        o = wm_dtw_opts_default();
        expect_best("[0,5,0] in zeros, a 5, zeros", q1, 3, y, 10001, &o, 0, 4999, 5002);
        memset(y, 0, 10001 * sizeof *y);
        y[0] = -5;
        y[5001] = 5;
        static const double q2[] = { -5, 0, 5 };
        expect_best("[-5,0,5] against -5, 5,000 zeros, 5", q2, 3, y, 5002, &o, 0, 0, 5002);
        o.cost = WM_DTW_SQUARED;
        expect_best("[-5,0,5] against -5, 5,000 zeros, 5 (squared)", q2, 3, y, 5002, &o, 0, 0,
                    5002);
        /* global of that pair: 0 as well; with a band of 0 (+ the widening
        ** by n - m) still 0 */
        o = wm_dtw_opts_default();
        o.mode = WM_DTW_GLOBAL;
        o.window = 0;
        expect_best("global [-5,0,5] against the 5,002", q2, 3, y, 5002, &o, 0, 0, 5002);
        free(y);
    }

    /* global of a signal with itself = 0; ucr of an identical window = 0 */
    g_rng = g_seed ^ 0x5e1full;
    for (int t = 0; t < 60; t++) {
        size_t m = (size_t)range(1, 80);
        double *q = xmalloc(m * sizeof *q);
        gen_base(random_base_kind(), q, m, pick_scale());
        o = wm_dtw_opts_default();
        o.mode = WM_DTW_GLOBAL;
        o.cost = chance(50) ? WM_DTW_ABS : WM_DTW_SQUARED;
        o.window = chance(50) ? -1 : (int64_t)range(0, 3);
        o.znorm = chance(30);
        snprintf(name, sizeof name, "global of a signal with itself (m %zu, window %" PRId64 ")", m,
                 o.window);
        expect_best(name, q, m, q, m, &o, 0, 0, m);
        /* ucr: the query copied exactly into noise at `at`, the only 0 */
        uint64_t n = m + range(0, 300), at = below(n - m + 1);
        double *y = xmalloc((size_t)n * sizeof *y);
        gen_base(K_NOISE, y, n, 1.0);
        memcpy(y + at, q, m * sizeof *q);
        o.mode = WM_DTW_UCR;
        o.znorm = 0;
        o.window = chance(50) ? -1 : (int64_t)range(0, 3);
        wm_dtw_matches_t r;
        doracle_dtw(q, m, y, n, &o, &r);
        /* the copy is a 0; an earlier window may be 0 too (a constant query
        ** in a window that z-normalises to the same), never a smaller one */
        if (r.n != 1 || r.a[0].distance != 0 || r.a[0].start > at) {
            snprintf(buf, sizeof buf,
                     "ucr, query copied at %" PRIu64 " (m %zu, n %" PRIu64 "): %zu"
                     " matches, the first %.17g at %" PRIu64,
                     at, m, n, r.n, r.n ? r.a[0].distance : -1.0, r.n ? r.a[0].start : 0);
            oracle_fail("ucr identical window", buf);
        }
        doracle_matches_free(&r);
        free(q);
        free(y);
    }

    /* z-normalisation */
    {
        double v[5] = { 3, 3, 3, 3, 3 }, z[5];
        doracle_znorm(v, 5, z);
        for (int k = 0; k < 5; k++)
            if (!same_bits(z[k], 0.0)) oracle_fail("znorm of a constant", "not +0");
        for (int t = 0; t < 40; t++) {
            uint64_t n = range(2, 500);
            double *a = xmalloc((size_t)n * sizeof *a), *b = xmalloc((size_t)n * sizeof *b);
            gen_base(K_NOISE, a, n, pick_scale());
            a[0] += 1.0; /* not constant */
            doracle_znorm(a, n, b);
            double s = 0, ss = 0;
            for (uint64_t k = 0; k < n; k++) s += b[k];
            for (uint64_t k = 0; k < n; k++) ss += (b[k] - s / n) * (b[k] - s / n);
            if (fabs(s / n) > 1e-9 || fabs(sqrt(ss / n) - 1) > 1e-9) {
                snprintf(buf, sizeof buf, "n %" PRIu64 ": mean %g, sd %g", n, s / n, sqrt(ss / n));
                oracle_fail("znorm", buf);
            }
            free(a);
            free(b);
        }
    }

    /* the whole matrix against one column at a time; the band */
    g_rng = g_seed ^ 0xc01dull;
    for (int t = 0; t < 300; t++) {
        size_t m = (size_t)range(1, 60);
        uint64_t n = range(1, 400);
        double *q = xmalloc(m * sizeof *q), *y = xmalloc((size_t)n * sizeof *y);
        kind_t k = random_base_kind();
        double sc = pick_scale();
        gen_base(k, q, m, sc);
        gen_base(k, y, n, sc);
        wm_dtw_cost_t cost = chance(50) ? WM_DTW_ABS : WM_DTW_SQUARED;
        double *d1 = xmalloc((size_t)n * sizeof *d1), *d2 = xmalloc((size_t)n * sizeof *d2);
        uint64_t *s1 = xmalloc((size_t)n * sizeof *s1), *s2 = xmalloc((size_t)n * sizeof *s2);
        doracle_subseq_full(q, m, y, n, cost, d1, s1);
        doracle_subseq_cols(q, m, y, n, cost, d2, s2);
        for (uint64_t e = 0; e < n; e++)
            if (!same_bits(d1[e], d2[e]) || s1[e] != s2[e]) {
                snprintf(buf, sizeof buf,
                         "m %zu n %" PRIu64 " end %" PRIu64 ": full %.17g from %" PRIu64
                         ", columns %.17g from %" PRIu64,
                         m, n, e + 1, d1[e], s1[e], d2[e], s2[e]);
                oracle_fail("subsequence full vs columns", buf);
                break;
            }
        int64_t win = chance(30) ? -1 : (int64_t)range(0, 20);
        double g1 = doracle_global_full(q, m, y, n, cost, win);
        double g2 = doracle_global_cols(q, m, y, n, cost, win);
        double gn = doracle_global_full(q, m, y, n, cost, -1);
        double gw = doracle_global_full(q, m, y, n, cost, (int64_t)(m > n ? m : n));
        if (!same_bits(g1, g2) || !same_bits(gn, gw) || !(g1 >= gn) || !isfinite(g1)) {
            snprintf(buf, sizeof buf,
                     "m %zu n %" PRIu64 " window %" PRId64 ": full %.17g, columns"
                     " %.17g, no band %.17g, band max(m,n) %.17g",
                     m, n, win, g1, g2, gn, gw);
            oracle_fail("global full vs columns vs band", buf);
        }
        /* the best subsequence is never above the global DTW of any window */
        uint64_t a = below(n), b = range(a + 1, n);
        double best = INFINITY;
        for (uint64_t e = 0; e < n; e++) best = d1[e] < best ? d1[e] : best;
        double gw2 = doracle_global_full(q, m, y + a, b - a, cost, -1);
        if (!(best <= gw2) || !(d1[b - 1] <= gw2)) {
            snprintf(buf, sizeof buf,
                     "best %.17g, D[m][%" PRIu64 "] %.17g, global of [%" PRIu64 ", %" PRIu64
                     ") %.17g",
                     best, b, d1[b - 1], a, b, gw2);
            oracle_fail("subsequence <= global of a window", buf);
        }
        free(q);
        free(y);
        free(d1);
        free(d2);
        free(s1);
        free(s2);
    }

    /* the definition, exhaustively, on tiny cases */
    g_rng = g_seed ^ 0xe4a057ull;
    long not_largest = 0;
    for (int t = 0; t < 1500; t++) {
        size_t m = (size_t)range(1, 5);
        uint64_t n = range(1, 10);
        double q[5], y[10], d[10];
        uint64_t st[10];
        int exact = chance(70);
        kind_t k = exact ? (chance(50) ? K_QUANT : K_PLATEAU) : random_base_kind();
        if (exact) {
            int64_t half = chance(50) ? 1 : 4; /* few values: many ties */
            for (size_t i = 0; i < m; i++) q[i] = quant(half);
            for (uint64_t j = 0; j < n; j++) y[j] = quant(half);
        } else {
            gen_base(k, q, m, 1.0);
            gen_base(k, y, n, 1.0);
        }
        wm_dtw_cost_t cost = chance(50) ? WM_DTW_ABS : WM_DTW_SQUARED;
        doracle_subseq_full(q, m, y, n, cost, d, st);
        for (uint64_t e = 1; e <= n; e++) {
            uint64_t smax = 0;
            double dn = doracle_subseq_naive(q, m, y, e, cost, &smax);
            double at_start = doracle_global_full(q, m, y + st[e - 1], e - st[e - 1], cost, -1);
            int bad = !same_bits(dn, d[e - 1]) || !same_bits(at_start, d[e - 1]) ||
                      (exact && st[e - 1] != smax);
            if (!exact && st[e - 1] != smax) not_largest++;
            if (bad) {
                snprintf(buf, sizeof buf,
                         "tiny case %d (%s), end %" PRIu64 ": DP %.17g from %" PRIu64
                         " (global from there %.17g); definition %.17g, largest start %" PRIu64,
                         t, exact ? "exact" : "inexact", e, d[e - 1], st[e - 1], at_start, dn,
                         smax);
                oracle_fail("the definition", buf);
                dcase c = { k, q, y, m, n, wm_dtw_opts_default(), "" };
                describe_case(&c);
                break;
            }
        }
        /* the best match (top 1) is the minimum over every (s, e) of the
        ** global DTW of (q, y[s, e)), at the leftmost e reaching it, with
        ** the largest s there (exact cases; else the s must reach it) */
        double best = INFINITY;
        uint64_t bs = 0, be = 0;
        for (uint64_t e = 1; e <= n; e++)
            for (uint64_t s0 = 0; s0 < e; s0++) {
                double g = doracle_global_full(q, m, y + s0, e - s0, cost, -1);
                if (g < best || (g == best && e == be && s0 > bs)) {
                    best = g;
                    bs = s0;
                    be = e;
                }
            }
        wm_dtw_opts_t o1 = wm_dtw_opts_default();
        o1.cost = cost;
        wm_dtw_matches_t r1;
        doracle_dtw(q, m, y, n, &o1, &r1);
        int ok = r1.n == 1 && same_bits(r1.a[0].distance, best) && r1.a[0].end == be &&
                 (exact ? r1.a[0].start == bs
                        : same_bits(doracle_global_full(q, m, y + r1.a[0].start, be - r1.a[0].start,
                                                        cost, -1),
                                    best));
        if (!ok) {
            snprintf(buf, sizeof buf,
                     "tiny case %d: top 1 %.17g [%" PRIu64 ", %" PRIu64 "), "
                     "every (s, e) %.17g [%" PRIu64 ", %" PRIu64 ")",
                     t, r1.n ? r1.a[0].distance : -1.0, r1.n ? r1.a[0].start : 0,
                     r1.n ? r1.a[0].end : 0, best, bs, be);
            oracle_fail("the definition, top 1", buf);
        }
        doracle_matches_free(&r1);
    }
    if (not_largest)
        printf("oracle: %ld ends of inexact tiny cases where the cell rule's start is not the "
               "largest start reaching the distance (rounding; allowed)\n",
               not_largest);

    /* oracle paths valid on random small cases of every mode */
    g_rng = g_seed ^ 0x9a7bull;
    for (int t = 0; t < 300; t++) {
        dcase c;
        gen_case(&c);
        if ((uint64_t)c.m * c.n > 200000) {
            free_case(&c);
            continue;
        }
        wm_dtw_opts_t oo = c.o;
        oo.path = 1;
        oo.top = chance(50) ? 1 : range(2, 5);
        wm_dtw_matches_t r;
        doracle_dtw(c.q, c.m, c.y, c.n, &oo, &r);
        snprintf(name, sizeof name, "oracle path, random case %d", t);
        oracle_paths_valid(name, &c, &oo, &r);
        doracle_matches_free(&r);
        free_case(&c);
    }
}

/* ==== 3. the paper's example on the library ================================= */

static void figure4_library(void) {
    static const double X[] = { 1, 3, 5, 3, 1 }, Y[] = { 1, 2, 3, 4, 4, 2, 1, 2 };
    dcase c = { K_QUANT, (double *)X, (double *)Y, 5, 8, wm_dtw_opts_default(), "Figure 4" };
    wm_dtw_opts_t o = wm_dtw_opts_default();
    for (int path = 0; path < 2; path++) {
        o.path = path;
        wm_dtw_matches_t want;
        doracle_dtw(X, 5, Y, 8, &o, &want);
        for (size_t i = 0; i < g_n_cfg; i++) {
            wm_dtw_matches_t got;
            int rc = lib_dtw(&g_cfg[i], &c, &o, &got);
            if (path == 0 && i == 0) {
                if (rc == WM_OK && got.n >= 1)
                    printf("library: Figure 4 (%s): distance %.17g at [%" PRIu64 ", %" PRIu64 ")\n",
                           g_cfg[i].name, got.a[0].distance, got.a[0].start, got.a[0].end);
                else
                    printf("library: Figure 4 (%s): rc %d, %zu matches\n", g_cfg[i].name, rc,
                           rc == WM_OK ? got.n : 0);
            }
            char what[300];
            snprintf(what, sizeof what, "Figure 4 on %.80s: distance 4", g_cfg[i].name);
            check_true(what, rc == WM_OK && got.n == 1 && got.a[0].distance == 4.0);
            check_result(-1, &c, g_cfg[i].name, &o, rc, wm_context_errmsg(g_cfg[i].cx), &got,
                         &want);
            if (rc == WM_OK) wm_dtw_matches_free(&got);
        }
        doracle_matches_free(&want);
    }
}

/* ==== 4. random cases ======================================================= */

static struct {
    long cases, by_mode[3], by_kind[K_COUNT], optsets, paths, long_span, many_pieces, m_gt_n;
    uint64_t longest_span;
} g_cov;

/* The configurations an option set runs on: the 1-thread one, `extra`
** random other CPU ones (all CPU ones when all_cpu) and every CUDA one. */
static void run_on_configs(long idx, const dcase *c, const wm_dtw_opts_t *o,
                           const wm_dtw_matches_t *want, int extra, int all_cpu) {
    int use[16] = { 0 };
    use[0] = 1;
    if (all_cpu) {
        for (size_t i = 1; i < g_n_cpu; i++) use[i] = 1;
    } else {
        for (int k = 0; k < extra && g_n_cpu > 1; k++) use[1 + below(g_n_cpu - 1)] = 1;
    }
    for (size_t i = g_n_cpu; i < g_n_cfg; i++) use[i] = 1;
    for (size_t i = 0; i < g_n_cfg; i++)
        if (use[i] && cfg_ok(&g_cfg[i], c->m, c->n)) run_one(idx, c, &g_cfg[i], o, want);
}

static double quantile(const double *sorted, size_t n, double p) {
    size_t k = (size_t)(p * (double)(n - 1));
    return sorted[k];
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void note_span(const dcase *c, const wm_dtw_matches_t *want) {
    for (size_t k = 0; k < want->n; k++) {
        uint64_t span = want->a[k].end - want->a[k].start;
        if (span > g_cov.longest_span) g_cov.longest_span = span;
        if (span > 2 * (uint64_t)c->m && span > 100) g_cov.long_span++;
        if (span >= 1000) g_cov.many_pieces++; /* >= 125 pieces of 8 samples */
    }
}

static void run_case(long idx, const dcase *c) {
    g_cov.cases++;
    g_cov.by_mode[c->o.mode]++;
    g_cov.by_kind[c->kind]++;
    g_cov.m_gt_n += c->m > c->n;
    double t0 = now_s();
    doracle_cand_t *cand = NULL;
    size_t nc = doracle_candidates(c->q, c->m, c->y, c->n, &c->o, &cand);
    double *ds = xmalloc(nc * sizeof *ds);
    for (size_t k = 0; k < nc; k++) ds[k] = cand[k].distance;
    qsort(ds, nc, sizeof *ds, cmp_double);
    g_t_oracle += now_s() - t0;

    uint64_t w = c->o.mode == WM_DTW_UCR ? (c->o.length ? c->o.length : c->m) : c->n;
    int path_ok = (uint64_t)c->m * w <= 1000000;
    int small = (uint64_t)c->m * c->n <= 4000;

    wm_dtw_opts_t sets[6];
    size_t ns = 0;
    wm_dtw_opts_t o = c->o;
    if (c->o.mode == WM_DTW_GLOBAL) {
        double d = ds[0];
        o.top = chance(70) ? 1 : chance(50) ? 0 : 3;
        sets[ns++] = o;
        o.top = 1;
        uint64_t r = below(100);
        o.max_distance = r < 40 ? d : r < 75 ? nextafter(d, -INFINITY) : r < 85 ? -1.0 : d * 2;
        sets[ns++] = o;
    } else {
        o.top = 1;
        sets[ns++] = o;
        o.top = range(2, 10);
        sets[ns++] = o;
        static const double P[] = { 0, 0.001, 0.01, 0.1, 0.5, 1.0 };
        o.top = 0;
        o.max_distance = quantile(ds, nc, P[below(N_OF(P))]);
        if (chance(20)) o.max_distance = nextafter(o.max_distance, -INFINITY);
        sets[ns++] = o;
        if (chance(30)) {
            o.top = range(2, 10);
            o.max_distance = quantile(ds, nc, P[below(N_OF(P))]);
            sets[ns++] = o;
        }
        if (chance(5) && nc <= 5000) {
            o.top = UINT64_MAX;
            o.max_distance = INFINITY;
            sets[ns++] = o;
        }
    }
    for (size_t s = 0; s < ns; s++) {
        wm_dtw_opts_t os = sets[s];
        os.path = path_ok && chance(25);
        if (c->o.mode == WM_DTW_UCR) os.znorm = chance(50); /* ucr: must change nothing */
        wm_dtw_matches_t want;
        oracle_answer(c, cand, nc, &os, &want);
        g_cov.optsets++;
        g_cov.paths += os.path;
        if (s == 0) note_span(c, &want);
        run_on_configs(idx, c, &os, &want, 2, small && s == 0);
        doracle_matches_free(&want);
    }
    free(cand);
    free(ds);
}

/* ==== 5. adversarial flat cases ============================================= */

static void adversarial(void) {
    struct {
        const char *name;
        double q[8];
        size_t m;
        double fill, first, last; /* series: first, fill * run, last (padded) */
        uint64_t run, pad;
        double d; /* the known best match */
        uint64_t s, e;
    } F[] = {
        /* the brief's case: the 5 in the middle; the best is the tightest */
        { "[0,5,0] in zeros, a 5, zeros", { 0, 5, 0 }, 3, 0, 0, 0, 5000, 0, 0, 4999, 5002 },
        { "[-5,0,5] against -5, 5,000 zeros, 5", { -5, 0, 5 }, 3, 0, -5, 5, 5000, 0, 0, 0, 5002 },
        { "[1,2,3] against 1, 20,000 twos, 3", { 1, 2, 3 }, 3, 2, 1, 3, 20000, 0, 0, 0, 20002 },
        { "[-5,0,0,5] against -5, 3,001 zeros, 5 in noise",
          { -5, 0, 0, 5 },
          4,
          0,
          -5,
          5,
          3001,
          700,
          0,
          700,
          700 + 3003 },
    };
    for (size_t f = 0; f < N_OF(F); f++) {
        dcase c;
        memset(&c, 0, sizeof c);
        c.kind = K_FLAT;
        c.m = F[f].m;
        c.q = dup_doubles(F[f].q, c.m);
        if (F[f].s == 4999) { /* zeros, a 5, zeros */
            c.n = 10001;
            c.y = xcalloc(c.n, sizeof *c.y);
            c.y[5000] = 5;
        } else {
            c.n = F[f].pad + 1 + F[f].run + 1 + F[f].pad;
            c.y = xmalloc((size_t)c.n * sizeof *c.y);
            g_rng = g_seed ^ (0xf1a7ull + f);
            for (uint64_t j = 0; j < c.n; j++) c.y[j] = 10 + gauss(); /* far from it all */
            c.y[F[f].pad] = F[f].first;
            for (uint64_t j = 0; j < F[f].run; j++) c.y[F[f].pad + 1 + j] = F[f].fill;
            c.y[F[f].pad + 1 + F[f].run] = F[f].last;
        }
        snprintf(c.desc, sizeof c.desc, "%s", F[f].name);
        c.o = wm_dtw_opts_default();
        for (int it = 0; it < 4; it++) { /* both costs, both precisions */
            const int cost = it % 2;
            c.o.cost = (wm_dtw_cost_t)cost;
            c.o.precision = it >= 2 ? WM_DTW_F32 : WM_DTW_F64;
            doracle_cand_t *cand;
            size_t nc = doracle_candidates(c.q, c.m, c.y, c.n, &c.o, &cand);
            wm_dtw_opts_t sets[4];
            sets[0] = c.o; /* top 1, with the path */
            sets[0].path = 1;
            sets[1] = c.o; /* top 5 */
            sets[1].top = 5;
            sets[2] = c.o; /* every 0 */
            sets[2].top = 0;
            sets[2].max_distance = 0;
            sets[3] = c.o; /* top 0, within 5 */
            sets[3].top = 0;
            sets[3].max_distance = 5;
            for (size_t s = 0; s < 4; s++) {
                wm_dtw_matches_t want;
                oracle_answer(&c, cand, nc, &sets[s], &want);
                if (s == 0) {
                    char name[200];
                    snprintf(name, sizeof name, "adversarial %s (%s, %s)", F[f].name,
                             cost ? "squared" : "abs", it >= 2 ? "f32" : "f64");
                    /* the hand-made distances are small integers: exact in float too */
                    if (want.n != 1 || want.a[0].distance != F[f].d || want.a[0].start != F[f].s ||
                        want.a[0].end != F[f].e) {
                        char buf[300];
                        snprintf(buf, sizeof buf,
                                 "%zu matches, [%" PRIu64 ", %" PRIu64 ") %.17g;"
                                 " by hand [%" PRIu64 ", %" PRIu64 ") %g",
                                 want.n, want.n ? want.a[0].start : 0, want.n ? want.a[0].end : 0,
                                 want.n ? want.a[0].distance : -1.0, F[f].s, F[f].e, F[f].d);
                        oracle_fail(name, buf);
                    }
                    note_span(&c, &want);
                }
                for (size_t i = 0; i < g_n_cfg; i++) {
                    if (!cfg_ok(&g_cfg[i], c.m, c.n)) continue;
                    wm_dtw_matches_t got;
                    int rc = lib_dtw(&g_cfg[i], &c, &sets[s], &got);
                    if (s == 0 && it == 0 && rc == WM_OK && got.n >= 1 &&
                        (g_cfg[i].chunk == 8 || i == 0))
                        printf("  %s, %s: [%" PRIu64 ", %" PRIu64 ") distance %g (%s pieces)\n",
                               F[f].name, g_cfg[i].name, got.a[0].start, got.a[0].end,
                               got.a[0].distance, g_cfg[i].chunk == 8 ? "one-sample" : "default");
                    check_result(-2 - (long)f, &c, g_cfg[i].name, &sets[s], rc,
                                 wm_context_errmsg(g_cfg[i].cx), &got, &want);
                    if (rc == WM_OK) wm_dtw_matches_free(&got);
                }
                doracle_matches_free(&want);
            }
            free(cand);
        }
        free_case(&c);
    }

    /* Two sums that round to the same double through different cells: q =
    ** 3.6, 1, 3, 5 against y = 1.3, 3 (abs). Column 0: 2.3, then 2.3 + 0.3 =
    ** 2.5999999999999996. Column 1: the fresh start 0.6, 0.6 + 2 = 2.6; row 3
    ** (cost 0) takes the diagonal 2.5999999999999996 (start 0) over up 2.6
    ** (start 1); row 4: 2.5999999999999996 + 2 = 4.6 (start 0). The path from
    ** start 1 (2.6 + 2) rounds to the same 4.6, but the cell rule never sees
    ** it: [0, 2) at 4.6, and nothing else fits beside it. A library that
    ** computes column 1 first from fresh starts alone and then merges in the
    ** border column keeps start 1 on the tie. */
    {
        static const double q[] = { 3.6, 1, 3, 5 }, y[] = { 1.3, 3 };
        dcase c;
        memset(&c, 0, sizeof c);
        c.kind = K_QUANT;
        c.m = 4;
        c.n = 2;
        c.q = dup_doubles(q, 4);
        c.y = dup_doubles(y, 2);
        snprintf(c.desc, sizeof c.desc, "a rounding tie at a piece border");
        c.o = wm_dtw_opts_default();
        const uint64_t tops[] = { 1, 10, 0 };
        for (size_t t = 0; t < N_OF(tops); t++) {
            wm_dtw_opts_t o = c.o;
            o.top = tops[t];
            o.path = t == 2;
            wm_dtw_matches_t want;
            doracle_dtw(c.q, c.m, c.y, c.n, &o, &want);
            if (want.n != 1 || want.a[0].start != 0 || want.a[0].end != 2 ||
                want.a[0].distance != 2.5999999999999996 + 2)
                oracle_fail("rounding tie at a piece border", "not [0, 2) at 4.6");
            for (size_t i = 0; i < g_n_cfg; i++) run_one(-20, &c, &g_cfg[i], &o, &want);
            doracle_matches_free(&want);
        }
        free_case(&c);
    }

    /* queries stretched by thousands inside noise, every context */
    for (int t = 0; t < 6; t++) {
        g_rng = g_seed ^ (0x57e7c4ull + (uint64_t)t * 0x9E3779B97F4A7C15ull);
        dcase c;
        memset(&c, 0, sizeof c);
        c.kind = K_STRETCH;
        c.o = wm_dtw_opts_default();
        c.o.cost = t % 2 ? WM_DTW_SQUARED : WM_DTW_ABS;
        c.o.znorm = t == 5;
        c.o.precision = t == 2 || t == 5 ? WM_DTW_F32 : WM_DTW_F64;
        c.m = (size_t)range(3, 30);
        c.q = xmalloc(c.m * sizeof *c.q);
        gen_base(K_WALK, c.q, c.m, 1.0);
        uint64_t at, len;
        c.y = stretch_series(c.q, c.m, 6000, 1.0, t >= 3 ? 1e-3 : 0, &c.n, &at, &len);
        snprintf(c.desc, sizeof c.desc, "stretched copy at [%" PRIu64 ", %" PRIu64 ")", at,
                 at + len);
        doracle_cand_t *cand;
        size_t nc = doracle_candidates(c.q, c.m, c.y, c.n, &c.o, &cand);
        wm_dtw_opts_t sets[2] = { c.o, c.o };
        sets[0].path = 1;
        sets[1].top = 4;
        for (size_t s = 0; s < 2; s++) {
            wm_dtw_matches_t want;
            oracle_answer(&c, cand, nc, &sets[s], &want);
            if (s == 0) {
                note_span(&c, &want);
                printf("  stretched query %d: m %zu, n %" PRIu64 ", copy [%" PRIu64 ", %" PRIu64
                       "), the oracle's best [%" PRIu64 ", %" PRIu64 ") %.6g\n",
                       t, c.m, c.n, at, at + len, want.a[0].start, want.a[0].end,
                       want.a[0].distance);
            }
            for (size_t i = 0; i < g_n_cfg; i++)
                if (cfg_ok(&g_cfg[i], c.m, c.n)) run_one(-10 - t, &c, &g_cfg[i], &sets[s], &want);
            doracle_matches_free(&want);
        }
        free(cand);
        free_case(&c);
    }
}

/* ==== 6. wm_dtw_many ======================================================== */

static void many_batch(long b) {
    g_rng = g_seed ^ (0x3a4f00ull + (uint64_t)b * 0xD1B54A32D192ED03ull);
    size_t nq = (size_t)range(1, 7);
    dcase c;
    gen_case(&c); /* the series, mode, cost, znorm, window, length */
    if ((uint64_t)c.n > 4000 && c.o.mode != WM_DTW_UCR)
        c.n = 4000; /* (ucr series are short already) */
    double **qs = xcalloc(nq, sizeof *qs);
    size_t *lens = xcalloc(nq, sizeof *lens);
    uint64_t Lfix = c.o.mode == WM_DTW_UCR ? c.o.length : 0;
    for (size_t k = 0; k < nq; k++) {
        size_t m = chance(50) ? (size_t)range(1, 16) : (size_t)range(17, 160);
        if (c.o.mode == WM_DTW_UCR && Lfix == 0 && m > c.n) m = (size_t)c.n;
        if (c.o.mode == WM_DTW_UCR) {
            uint64_t L = Lfix ? Lfix : m;
            while ((c.n - L + 1) * m * L > 600000 && m > 1) {
                m /= 2;
                if (!Lfix) L = m;
            }
        }
        lens[k] = m;
        qs[k] = xmalloc(m * sizeof *qs[k]);
        if (chance(50)) cut_query(qs[k], m, c.y, c.n, chance(50) ? 0 : 0.01, chance(50));
        else gen_base(random_base_kind(), qs[k], m, 1.0);
    }
    wm_dtw_opts_t o = c.o;
    uint64_t r = below(100);
    o.top = r < 50 ? 1 : r < 80 ? range(2, 6) : 0;
    o.max_distance = INFINITY;
    o.path = chance(20);
    wm_dtw_matches_t *want = xcalloc(nq, sizeof *want);
    for (size_t k = 0; k < nq; k++) {
        double t0 = now_s();
        if (o.top == 0) {
            /* a quantile of this query's distances */
            doracle_cand_t *cand;
            size_t nc = doracle_candidates(qs[k], lens[k], c.y, c.n, &o, &cand);
            double *ds = xmalloc(nc * sizeof *ds);
            for (size_t t = 0; t < nc; t++) ds[t] = cand[t].distance;
            qsort(ds, nc, sizeof *ds, cmp_double);
            if (k == 0) o.max_distance = quantile(ds, nc, 0.05);
            free(ds);
            free(cand);
        }
        g_t_oracle += now_s() - t0;
    }
    for (size_t k = 0; k < nq; k++) {
        double t0 = now_s();
        doracle_dtw(qs[k], lens[k], c.y, c.n, &o, &want[k]);
        g_t_oracle += now_s() - t0;
    }
    int use[16] = { 0 };
    use[0] = 1;
    if (g_n_cpu > 1) use[1 + below(g_n_cpu - 1)] = 1;
    for (size_t i = g_n_cpu; i < g_n_cfg; i++) use[i] = 1;
    for (size_t i = 0; i < g_n_cfg; i++) {
        if (!use[i] || !cfg_ok(&g_cfg[i], 1, c.n)) continue;
        config *cf = &g_cfg[i];
        wm_dtw_matches_t *out = xcalloc(nq, sizeof *out);
        double t0 = now_s();
        int rc = wm_dtw_many(cf->cx, (const double *const *)qs, lens, nq, c.y, c.n, &o, out);
        g_t_lib += now_s() - t0;
        g_t_cfg[i] += now_s() - t0;
        g_calls++;
        char name[200];
        for (size_t k = 0; k < nq; k++) {
            snprintf(name, sizeof name, "wm_dtw_many batch %ld (%zu queries), query %zu, %s", b, nq,
                     k, cf->name);
            dcase one = c;
            one.q = qs[k];
            one.m = lens[k];
            check_result(-1, &one, name, &o, rc, wm_context_errmsg(cf->cx), &out[k], &want[k]);
            if (rc == WM_OK) wm_dtw_matches_free(&out[k]);
            if (rc != WM_OK) break;
        }
        free(out);
    }
    for (size_t k = 0; k < nq; k++) {
        doracle_matches_free(&want[k]);
        free(qs[k]);
    }
    free(want);
    free(qs);
    free(lens);
    free_case(&c);
}

/* ==== 7. long series ======================================================== */

/* all_cfg: 0 the first two CPU contexts for the top-8 set, 1 every context,
** 2 the first CPU context and the CUDA ones (tall queries, slow on the
** CPU's tiny pieces) */
static void long_case(long i, size_t m, uint64_t n, kind_t kind, int all_cfg) {
    g_rng = g_seed ^ (0x10e6ull + (uint64_t)i * 0x9E3779B97F4A7C15ull);
    dcase c;
    memset(&c, 0, sizeof c);
    c.o = wm_dtw_opts_default();
    c.o.cost = i % 2 ? WM_DTW_SQUARED : WM_DTW_ABS;
    c.o.precision = i % 3 == 2 ? WM_DTW_F32 : WM_DTW_F64;
    c.kind = kind;
    c.m = m;
    c.q = xmalloc(m * sizeof *c.q);
    if (kind == K_STRETCH) {
        gen_base(K_WALK, c.q, m, 1.0);
        /* a flat series with one copy stretched to about n / 2 */
        uint64_t *rep = xmalloc(m * sizeof *rep), tot = 0;
        for (size_t k = 0; k < m; k++) {
            rep[k] = range(1, 3);
            tot += rep[k];
        }
        rep[m / 2] += n / 2;
        tot += n / 2;
        c.n = n;
        c.y = xmalloc((size_t)n * sizeof *c.y);
        for (uint64_t j = 0; j < n; j++) c.y[j] = 100.0;
        uint64_t p = n / 8;
        for (size_t k = 0; k < m; k++)
            for (uint64_t t = 0; t < rep[k]; t++) c.y[p++] = c.q[k];
        snprintf(c.desc, sizeof c.desc,
                 "flat 100 with a copy stretched over [%" PRIu64 ", %" PRIu64 ")", n / 8,
                 n / 8 + tot);
        free(rep);
    } else {
        c.n = n;
        c.y = xmalloc((size_t)n * sizeof *c.y);
        gen_base(kind, c.y, n, 1.0);
        cut_query(c.q, m, c.y, n, 0.05, 1);
        snprintf(c.desc, sizeof c.desc, "long series, query cut with noise");
    }
    double t0 = now_s();
    doracle_cand_t *cand;
    size_t nc = doracle_candidates(c.q, c.m, c.y, c.n, &c.o, &cand);
    double dt = now_s() - t0;
    g_t_oracle += dt;
    wm_dtw_opts_t sets[2] = { c.o, c.o };
    sets[1].top = 8;
    for (size_t s = 0; s < 2; s++) {
        wm_dtw_matches_t want;
        oracle_answer(&c, cand, nc, &sets[s], &want);
        if (s == 0) {
            note_span(&c, &want);
            printf("long case %ld: %s, m %zu, n %" PRIu64 ": oracle %.2f s, best [%" PRIu64
                   ", %" PRIu64 ") %.6g\n",
                   i, K_NAME[kind], m, n, dt, want.a[0].start, want.a[0].end, want.a[0].distance);
        }
        for (size_t k = 0; k < g_n_cfg; k++) {
            if (!cfg_ok(&g_cfg[k], c.m, c.n)) continue;
            if (!all_cfg && k != 0 && k != 1 && k < g_n_cpu && s == 1) continue;
            if (all_cfg == 2 && k != 0 && k < g_n_cpu) continue; /* tall: one CPU context */
            double t1 = now_s();
            run_one(-100 - i, &c, &g_cfg[k], &sets[s], &want);
            if (g_verbose) printf("    %s: %.2f s\n", g_cfg[k].name, now_s() - t1);
        }
        doracle_matches_free(&want);
    }
    free(cand);
    free_case(&c);
    fflush(stdout);
}

/* ucr with queries tall enough that the GPU runs them in stripes (m of
** 200-600 with a band: stripes of 64-128 rows), top 1 with max_distance
** at the best, just under it, twice it and none: the GPU abandons windows
** by its rest-of-path bound inside a stripe and at each stripe's end
** (with L != m, one case in four, by the rows alone), which must never
** drop the best. On every context. */
static void ucr_stripes(long i) {
    g_rng = g_seed ^ (0x5712ull + (uint64_t)i * 0x9E3779B97F4A7C15ull);
    dcase c;
    memset(&c, 0, sizeof c);
    c.o = wm_dtw_opts_default();
    c.kind = K_CUT;
    size_t m = (size_t)range(200, 600);
    uint64_t n = m + range(20, 80);
    alloc_signals(&c, WM_DTW_UCR, m, n);
    c.o.cost = i % 2 ? WM_DTW_SQUARED : WM_DTW_ABS;
    c.o.window = (int64_t)(m / (i % 3 == 0 ? 20 : 10));
    if (i % 4 == 3) c.o.length = m + range(1, 19); /* L != m: no envelope, the rows alone */
    kind_t b = i % 2 ? K_WALK : K_NOISE;
    gen_base(b, c.y, n, 1.0);
    cut_query(c.q, m, c.y, n, 0.1, 1);
    snprintf(c.desc, sizeof c.desc, "ucr in stripes: series %s, m %zu, window %" PRId64, K_NAME[b],
             m, c.o.window);
    doracle_cand_t *cand = NULL;
    size_t nc = doracle_candidates(c.q, c.m, c.y, c.n, &c.o, &cand);
    double best = INFINITY;
    for (size_t k = 0; k < nc; k++)
        if (cand[k].distance < best) best = cand[k].distance;
    const double maxd[] = { INFINITY, best, nextafter(best, -INFINITY), 2 * best };
    for (size_t s = 0; s < N_OF(maxd); s++) {
        wm_dtw_opts_t o = c.o;
        o.top = 1;
        o.max_distance = maxd[s];
        wm_dtw_matches_t want;
        oracle_answer(&c, cand, nc, &o, &want);
        g_cov.optsets++;
        run_on_configs(-300 - i, &c, &o, &want, 1, 0);
        doracle_matches_free(&want);
    }
    free(cand);
    free_case(&c);
}

/* Global DTW of a short query and a long series (each query sample held
** for ~n/m series samples: the path crosses every piece), with the path,
** on every context. */
static void global_long(long i, size_t m, uint64_t n, int64_t window) {
    g_rng = g_seed ^ (0x610b0ull + (uint64_t)i * 0x9E3779B97F4A7C15ull);
    dcase c;
    memset(&c, 0, sizeof c);
    c.o = wm_dtw_opts_default();
    c.o.mode = WM_DTW_GLOBAL;
    c.o.window = window;
    c.o.cost = i % 2 ? WM_DTW_SQUARED : WM_DTW_ABS;
    c.o.precision = i % 3 == 1 ? WM_DTW_F32 : WM_DTW_F64;
    c.kind = K_CUT;
    c.m = m;
    c.n = n;
    c.q = xmalloc(m * sizeof *c.q);
    c.y = xmalloc((size_t)n * sizeof *c.y);
    gen_base(K_WALK, c.q, m, 1.0);
    for (uint64_t j = 0; j < n; j++)
        c.y[j] = c.q[(size_t)(j * m / n)] + (chance(20) ? 0.01 * gauss() : 0);
    snprintf(c.desc, sizeof c.desc, "series = the query, each sample held ~%" PRIu64 " times",
             n / m);
    wm_dtw_opts_t o = c.o;
    o.path = 1;
    wm_dtw_matches_t want;
    doracle_dtw(c.q, c.m, c.y, c.n, &o, &want);
    for (size_t k = 0; k < g_n_cfg; k++)
        if (cfg_ok(&g_cfg[k], c.m, c.n)) run_one(-200 - i, &c, &g_cfg[k], &o, &want);
    doracle_matches_free(&want);
    free_case(&c);
}

/* ==== main ================================================================== */

/* WM_CASE named one case: print it before running it. */
static int g_one;

static void one_case(long idx) {
    dcase c;
    gen_case(&c);
    if (g_one) {
        char os[300];
        opts_str(os, sizeof os, &c.o);
        printf("case %ld: %s\n", idx, os);
        describe_case(&c);
    }
    run_case(idx, &c);
    free_case(&c);
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases = test_begin("test_dtw_diff", argc, argv, 20240720ull, 2000, describe_case, &only);
    double scale = g_scale;

    /* 1. the oracle */
    oracle_self_check();
    if (oracle_verdict()) return 1;

    /* contexts: cpu 1 thread; cpu 3 threads with default and tiny pieces;
    ** cuda when a GPU is found */
    g_rng = g_seed ^ 0xc4f9ull;
    uint64_t r1 = 8 * range(3, 3000), r2 = 8 * range(1, 40) + range(1, 7);
    /* pieces of one and two samples only up to 150,000 / 300,000 cells: they
    ** cost the library about 4 / 2 microseconds a cell */
    struct {
        int threads;
        uint64_t chunk, max_cells;
    } cpu[] = {
        { 1, 0, UINT64_MAX },    { 3, 0, UINT64_MAX },  { 3, 8, 150000 },
        { 3, 16, 300000 },       { 1, 56, UINT64_MAX }, { 3, 264, UINT64_MAX },
        { 3, 1600, UINT64_MAX }, { 3, r1, UINT64_MAX }, { 2, r2, UINT64_MAX },
    };
    for (size_t i = 0; i < N_OF(cpu); i++)
        if (dtw_context(&g_cfg[g_n_cfg], WM_BACKEND_CPU, cpu[i].threads, cpu[i].chunk,
                        cpu[i].max_cells))
            g_n_cfg++;
    /* the CPU strips of every instruction set, not only the CPU's best: the
    ** context's SIMD ceiling (core/tuning.h) */
    struct {
        int threads;
        wm_simd_isa_t simd;
        const char *name;
    } isa[] = {
        { 3, WM_SIMD_NONE, "scalar" },
        { 3, WM_SIMD_SSE2, "sse2" },
        { 1, WM_SIMD_AVX2, "avx2" },
    };
    for (size_t i = 0; i < N_OF(isa); i++)
        if (dtw_context(&g_cfg[g_n_cfg], WM_BACKEND_CPU, isa[i].threads, 0, UINT64_MAX)) {
            config *cf = &g_cfg[g_n_cfg++];
            wm_context_tuning(cf->cx)->simd = isa[i].simd;
            size_t len = strlen(cf->name);
            snprintf(cf->name + len, sizeof cf->name - len, ", simd %s", isa[i].name);
        }
    g_n_cpu = g_n_cfg;
    if (g_n_cfg < 2) return test_finish();
    if (cuda_present(NULL)) {
        if (dtw_context(&g_cfg[g_n_cfg], WM_BACKEND_CUDA, 1, 0, UINT64_MAX)) g_n_cfg++;
        /* ucr's windows without the rows' bound (LB_Keogh EC) here, with it
        ** in the others; its series copied in pieces of 37 samples, each
        ** piece's windows ranked as it arrives */
        if (dtw_context(&g_cfg[g_n_cfg], WM_BACKEND_CUDA, 1, 8 * 33, UINT64_MAX)) {
            config *cf = &g_cfg[g_n_cfg++];
            wm_context_tuning(cf->cx)->dtw_ucr_ec = -1;
            wm_context_tuning(cf->cx)->dtw_ucr_piece = 37;
            size_t len = strlen(cf->name);
            snprintf(cf->name + len, sizeof cf->name - len, ", ucr without EC, pieces of 37");
        }
        if (dtw_context(&g_cfg[g_n_cfg], WM_BACKEND_CUDA, 1, 8, 40000)) { /* ucr: pieces of 1,000 */
            config *cf = &g_cfg[g_n_cfg++];
            wm_context_tuning(cf->cx)->dtw_ucr_piece = 1000;
        }
        /* every start's window on the GPU (sdtw_window_cuda.cu), however small */
        if (dtw_context(&g_cfg[g_n_cfg], WM_BACKEND_CUDA, 1, 0, UINT64_MAX)) {
            config *cf = &g_cfg[g_n_cfg++];
            wm_context_tuning(cf->cx)->dtw_start_gpu_cells = 1;
            size_t len = strlen(cf->name);
            snprintf(cf->name + len, sizeof cf->name - len, ", starts on the GPU");
        }
    }
    printf("contexts:");
    for (size_t i = 0; i < g_n_cfg; i++) printf("%s %s", i ? ";" : "", g_cfg[i].name);
    printf("\n");
    fflush(stdout);

    /* 3. the paper's example (2, the arguments: tests/unit/test_api_dtw.c) */
    if (only < 0) {
        figure4_library();
        part_done("Figure 4");
    }

    /* 4. random cases */
    g_one = only >= 0;
    run_cases(n_cases, only, 11, 500, one_case);

    if (only < 0 && !self_fail) {
        double t0 = now_s();
        adversarial(); /* 5 */
        printf("adversarial cases: %.1f s\n", now_s() - t0);
        fflush(stdout);
        t0 = now_s();
        long n_many = (long)(100 * scale + 0.5);
        for (long b = 0; b < n_many; b++) many_batch(b); /* 6 */
        printf("wm_dtw_many: %ld batches, %.1f s\n", n_many, now_s() - t0);
        fflush(stdout);
        t0 = now_s(); /* 7 */
        long_case(0, 64, 20000, K_WALK, 0);
        long_case(1, 200, 30000, K_NOISE, 0);
        global_long(0, 30, 4000, -1);
        global_long(1, 30, 4000, 50);
        global_long(2, 4, 20000, -1);
        /* tall queries: the GPU's start windows with 32 warps of one row a
        ** lane, and 20 and 32 warps of four (the last in float32) */
        long_case(6, 1000, 6000, K_WALK, 2);
        long_case(7, 2500, 8000, K_NOISE, 2);
        long_case(8, 4000, 9000, K_WALK, 2);
        for (long u = 0; u < (long)(12 * scale + 0.5) || u < 4; u++) ucr_stripes(u);
        if (scale >= 2) {
            long_case(2, 500, 100000, K_NOISE, 0);
            long_case(3, 500, 100000, K_WALK, 0);
            long_case(4, 20, 100000, K_STRETCH, 1);
            long_case(5, 120, 100000, K_PLATEAU, 0);
        }
        printf("long cases: %.1f s\n", now_s() - t0);
    }

    close_configs(g_cfg, g_n_cfg);
    printf("library wall time by context:");
    for (size_t i = 0; i < g_n_cfg; i++)
        printf("%s %s %.1f s", i ? ";" : "", g_cfg[i].name, g_t_cfg[i]);
    printf("\n");

    printf("coverage: %ld cases (subsequence %ld, global %ld, ucr %ld; m > n %ld), %ld option "
           "sets, %ld with paths, %ld library calls; kinds:",
           g_cov.cases, g_cov.by_mode[0], g_cov.by_mode[1], g_cov.by_mode[2], g_cov.m_gt_n,
           g_cov.optsets, g_cov.paths, g_calls);
    for (int k = 0; k < K_COUNT; k++)
        printf("%s %s %ld", k ? "," : "", K_NAME[k], g_cov.by_kind[k]);
    printf("\ncoverage: best matches longer than 2m (and 100) %ld, of 1,000+ samples %ld, the "
           "longest %" PRIu64 "\n",
           g_cov.long_span, g_cov.many_pieces, g_cov.longest_span);
    printf("ucr: %ld distances compared, %ld not bit-identical to the oracle (largest relative "
           "difference %.3g)\n",
           g_ucr_results, g_ucr_inexact, g_ucr_worst);
    printf("best matches whose start a window read by rounding (the contract's exception): %ld\n",
           g_start_rounding);
    print_time_split();
    printf("\n");
    print_repro(argv[0], "every part but the random cases");
    return test_finish();
}
