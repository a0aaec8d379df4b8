/*
** test_global_diff.c -- wm_align and wm_align_pairs in global mode (the edit
** distance of two whole sequences) against the brute-force oracle
** (tests/oracle/goracle.c), on every algorithm and backend.
**
** The contract: the distance D[m][n] and, with opts.cigar, the canonical
** CIGAR (goracle.h: the traceback from (m, n) preferring diagonal, then I,
** then D), byte for byte the same on every algorithm (auto, dp, bitvector,
** four-russians with every block size t), thread count and backend; start 0
** and end n; nothing when the distance is over max_distance.
**
** 1. The oracle checks itself: hand-worked examples (kitten/sitting, empty
**    sequences, ties that put the gap first, DNA with N and U, case folding),
**    the CIGAR replayer on good and bad CIGARs, then random tiny cases where
**    the definition (a search of every alignment in move order) must agree
**    with the full matrix, the band and the two-row distance, and random
**    medium cases where the band (at d, above d, below d) must agree with the
**    full matrix. Every random case of part 3 repeats the band check.
** 2. On every context (CUDA included): empty sequences (NULL with length 0
**    too) on every algorithm, CIGARs "", "3D", "3I"; WM_UNSUPPORTED, at
**    once and with a message, for dp and four-russians (t = 0, 1, 3) on
**    400,000 x 400,000 (over WM_ALIGN_MAX_CELLS), by wm_align and
**    wm_align_pairs, while bitvector and auto align the same (near-identical)
**    pair, checked against the banded oracle. The arguments of wm_align,
**    wm_align_pairs and wm_align_fr_info in global mode are
**    tests/unit/test_api_align.c's.
** 3. Seeded random pairs (2,000 at WM_TEST_SCALE=1). Alphabets: 2 symbols
**    (sometimes bytes 0/1), ACGT bytes, 20 amino acids, all 256 bytes (NUL
**    included), letters of both cases with case_insensitive, one symbol with
**    rare defects, and the DNA alphabet (lower case, U/u, N/n, IUPAC codes and
**    junk bytes; case_insensitive at random, which must change nothing).
**    Families: unrelated; a few edits apart (the common real case; sometimes
**    up to m/10 or m/3); identical (disguised by case flips and T/U where
**    they compare equal); one the reverse of the other; one empty; both
**    empty; one much longer than the other (sometimes containing it); both
**    periodic (ACACAC..., period 1..4, different phases and lengths); one a
**    prefix / suffix / piece of the other; a block of 1..80 symbols inserted
**    or deleted (the bit-vector band must grow). Lengths 0..1,500 (most
**    under 400; the bit-vector word borders 31/32/33 ... 255/256/257 often).
**    Each case runs every algorithm (auto, dp, bitvector, four-russians with
**    t = 1, 2, 3; t = 4 at WM_TEST_SCALE >= 3 on the 3-thread context only:
**    its 860 MB table takes a while) on the CPU with 1 thread, 3 threads, 3
**    threads and a small chunk (short cases), and CUDA when a GPU is found,
**    all with a CIGAR, a random max_distance (INT64_MAX included) and
**    all_ends at random (one end in global mode: it must change nothing);
**    then a sweep on one configuration (every one when m * n <= 2,000),
**    every algorithm: max_distance d - 1 (nothing), d, d + 1 and -1, with
**    and without a CIGAR (d - 1 and d only when m * n > 250,000).
**    Every result must be the oracle's distance, [0, n) and CIGAR byte for
**    byte (a wrong CIGAR is also replayed, to say how it is wrong). CUDA
**    also takes every case without a bound or a CIGAR, where one pair's
**    distance is computed from both ends (tuning.global_meet_min, drawn a
**    case: every pair, from 64 columns, the library's 2,048, never), met on
**    a stair where it fits or at n / 2 (tuning.global_meet_cut, drawn).
** 4. Long pairs (8 at WM_TEST_SCALE=1): lengths 2,000 to 5,000, against the
**    full-matrix oracle; every algorithm and configuration with a CIGAR, then
**    max_distance d - 1 and d.
** 5. wm_align_pairs: batches of 1, 2, 3, 5, 17, 64, 100, 250, 1,000 and
**    5,000 pairs plus random sizes, lengths 0..300 mostly (some to 2,000, the
**    GPU pair kernel's 1,024 border included), a random algorithm, CIGAR and
**    max_distance per batch; element-wise against the oracle on the CPU (1
**    and 3 threads) and CUDA (distance WM_ALIGN_NONE, [0, 0) and no CIGAR
**    when over max_distance).
** 6. Big pairs of random DNA with ~1 % planted edits, against the banded
**    oracle (band = the edits planted >= the distance: exact): 20,000 x
**    20,000 on dp, four-russians t = 2, 3, bitvector and auto (1 and 3
**    threads, CUDA; max_distance d - 1 and d); 100,000 x 100,000 on
**    bitvector with a CIGAR (1 and 3 threads, CUDA), without, and auto,
**    max_distance d - 1 and d, and at WM_TEST_SCALE >= 2 also dp and
**    four-russians t = 3 (10^10 cells). At WM_TEST_SCALE >= 2, 1,000,000 x
**    1,000,000 at ~1 %: too big for any oracle here, so bitvector with a CIGAR
**    must replay with a distance between half the edits planted and all of
**    them, equal the distance without a CIGAR, give nothing at max_distance
**    d - 1, and be the same CIGAR on 3 threads, with auto and on CUDA.
**
** Readings of the contract this test takes (include/warpmatch.h): an fr_t
** outside 0..WM_FR_MAX_T is WM_INVALID whatever the algorithm; all_ends in
** global mode still gives the one alignment (there is one end); with
** opts.cigar the CIGAR of two empty sequences is "" (not NULL); the
** WM_UNSUPPORTED of a pair over WM_ALIGN_MAX_CELLS comes before any work
** (checked: under 2 s for 1.6 * 10^11 cells); wm_align_pairs' message for a
** bad pair contains its 0-based index.
**
** Timing (2 cores shared with other builds, CPU backend, library as of this
** writing): WM_TEST_SCALE=1 in Release ~20 s of CPU (~33 s wall); under
** ASan + UBSan (RelWithDebInfo) ~64 s of CPU (~77 s wall); WM_TEST_SCALE=3
** in Release (as CI runs it; the t = 4 tables take 1.7 GB) ~100 s of CPU
** (~150 s wall). The last lines split the wall time between the oracle and
** the library, by algorithm.
**
** Usage: test_global_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of random cases [1.0]
**        WM_CASE        run only this random case of part 3 (reproduce a
**                       failure; -1: every part but 3)
**        WM_VERBOSE     print each failing case's sequences in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "goracle.h"
#include "warpmatch.h"

#include "alphabet.h"
#include "contexts.h"
#include "harness.h"
#include "rng.h"

/* ==== algorithms and configurations ========================================= */

typedef struct {
    wm_align_algo_t algo;
    int fr_t;
    const char *name;
} algo_spec;

static const algo_spec ALGOS[] = {
    { WM_ALIGN_ALGO_AUTO, 0, "auto" },
    { WM_ALIGN_ALGO_DP, 0, "dp" },
    { WM_ALIGN_ALGO_BITVECTOR, 0, "bitvector" },
    { WM_ALIGN_ALGO_FOUR_RUSSIANS, 1, "four-russians t=1" },
    { WM_ALIGN_ALGO_FOUR_RUSSIANS, 2, "four-russians t=2" },
    { WM_ALIGN_ALGO_FOUR_RUSSIANS, 3, "four-russians t=3" },
    { WM_ALIGN_ALGO_FOUR_RUSSIANS, 4, "four-russians t=4" },
};
#define ALGO_T4 6
static size_t g_n_algos = 6;         /* 7 (t = 4 too) at WM_TEST_SCALE >= 3 */
static double g_t_algo[N_OF(ALGOS)]; /* library wall time by algorithm */

/* The marks of config.flags: which cases a context takes. */
#define CF_SHORT_ONLY 1u /* only cases with m + n <= SHORT_SUM */
#define CF_T4 2u         /* four-russians t = 4 too */
#define SHORT_SUM 600

static int algo_allowed(const config *cf, size_t a) { return a != ALGO_T4 || (cf->flags & CF_T4); }

/* ==== a case ================================================================ */

typedef enum {
    F_RANDOM,
    F_EDITED,
    F_IDENTICAL,
    F_REVERSE,
    F_ONE_EMPTY,
    F_BOTH_EMPTY,
    F_LOPSIDED,
    F_PERIODIC,
    F_AFFIX,
    F_BLOCK,
    F_COUNT
} family;

static const char *const F_NAME[F_COUNT] = { "unrelated",           "a few edits",
                                             "identical",           "reverse",
                                             "one empty",           "both empty",
                                             "one much longer",     "periodic",
                                             "prefix/suffix/piece", "block indel" };

typedef struct {
    alphabet_t a;
    family fam;
    wm_align_opts_t o; /* alphabet and case_insensitive, from a */
    uint8_t *q, *t;
    size_t m, n;
    size_t n_edits;
    char desc[160];
} gcase;

static void free_case(gcase *c) {
    free(c->q);
    free(c->t);
    c->q = c->t = NULL;
}

static void describe_case(const void *p) {
    const gcase *c = p;
    printf("    alphabet %s%s, %s%s%s, m %zu, n %zu\n", AK_NAME[c->a.kind],
           c->o.case_insensitive ? " case_insensitive" : "", F_NAME[c->fam], c->desc[0] ? ": " : "",
           c->desc, c->m, c->n);
    printf("    query  ");
    print_bytes(stdout, c->q, c->m, g_verbose ? (size_t)-1 : 120);
    printf("\n    target ");
    print_bytes(stdout, c->t, c->n, g_verbose ? (size_t)-1 : 120);
    printf("\n");
}

/* ==== symbols and edits ===================================================== */

static size_t pick_edits(size_t m) {
    uint64_t r = below(100);
    if (r < 15) return 0;
    if (r < 60) return (size_t)range(1, 3);
    if (r < 85) return (size_t)range(1, m / 10 + 1);
    return (size_t)range(1, m / 3 + 1);
}

static size_t pick_len(void) {
    static const size_t edges[] = { 31,  32,  33,  63,  64,  65,  127, 128,
                                    129, 191, 192, 193, 255, 256, 257 };
    uint64_t r = below(100);
    if (r < 8) return (size_t)below(4);
    if (r < 40) return (size_t)range(4, 64);
    if (r < 54) return edges[below(N_OF(edges))] + (chance(70) ? 0 : (size_t)range(0, 2));
    if (r < 88) return (size_t)range(65, 400);
    return (size_t)range(401, 1500);
}

static void pick_alphabet(gcase *c) {
    static const weighted_t KINDS[] = {
        { AK_BIN, 10 }, { AK_ACGT, 30 }, { AK_PROT20, 40 }, { AK_BYTE256, 50 },
        { AK_CI, 58 },  { AK_ONE, 62 },  { AK_DNA, 100 },
    };
    static const alphabet_style_t STYLE = { 98, 0, 4 };
    alphabet_pick(&c->a, KINDS, N_OF(KINDS), &STYLE);
    c->o = wm_align_opts_default();
    c->o.mode = WM_ALIGN_GLOBAL;
    c->o.alphabet = c->a.kind == AK_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.case_insensitive = c->a.fold;
}

static uint8_t *rand_seq(const gcase *c, size_t len) {
    uint8_t *s = xmalloc(len);
    for (size_t i = 0; i < len; i++) s[i] = alphabet_byte(&c->a);
    return s;
}

/* The sequences of family c->fam; m0 and n0 are suggested lengths. */
static void gen_family(gcase *c, size_t m0, size_t n0) {
    size_t cap;
    uint8_t *tmp;
    c->desc[0] = '\0';
    switch (c->fam) {
    case F_RANDOM:
        c->m = m0;
        c->n = n0;
        c->q = rand_seq(c, c->m);
        c->t = rand_seq(c, c->n);
        break;
    case F_EDITED:
    case F_IDENTICAL:
        c->m = m0;
        c->q = rand_seq(c, c->m);
        c->n_edits = c->fam == F_IDENTICAL ? 0 : pick_edits(c->m);
        c->t = xmalloc(c->m + c->n_edits + 1);
        c->n = alphabet_mutate(&c->a, c->q, c->m, c->n_edits, c->t);
        snprintf(c->desc, sizeof c->desc, "%zu edits", c->n_edits);
        break;
    case F_REVERSE:
        c->m = m0;
        c->n = m0;
        c->q = rand_seq(c, c->m);
        c->t = xmalloc(c->n);
        for (size_t i = 0; i < c->n; i++) c->t[i] = alphabet_disguise(&c->a, c->q[c->m - 1 - i]);
        break;
    case F_ONE_EMPTY:
        if (chance(50)) {
            c->m = 0;
            c->n = n0 ? n0 : 1;
        } else {
            c->m = m0 ? m0 : 1;
            c->n = 0;
        }
        c->q = rand_seq(c, c->m);
        c->t = rand_seq(c, c->n);
        break;
    case F_BOTH_EMPTY:
        c->m = c->n = 0;
        c->q = rand_seq(c, 0);
        c->t = rand_seq(c, 0);
        break;
    case F_LOPSIDED: {
        size_t a = (size_t)below(21), b = (size_t)range(200, 3000);
        uint8_t *s_short = rand_seq(c, a), *s_long = rand_seq(c, b);
        if (a > 0 && chance(50)) { /* the short one inside the long one */
            size_t at = (size_t)below(b - a + 1);
            for (size_t i = 0; i < a; i++) s_long[at + i] = alphabet_disguise(&c->a, s_short[i]);
            snprintf(c->desc, sizeof c->desc, "the short one at %zu of the long one", at);
        }
        if (chance(50)) {
            c->q = s_short;
            c->m = a;
            c->t = s_long;
            c->n = b;
        } else {
            c->q = s_long;
            c->m = b;
            c->t = s_short;
            c->n = a;
        }
        break;
    }
    case F_PERIODIC: {
        size_t p = (size_t)range(1, 4);
        uint8_t unit[4];
        for (size_t i = 0; i < p; i++) unit[i] = alphabet_byte(&c->a);
        size_t ph_q = (size_t)below(p), ph_t = (size_t)below(p);
        c->m = m0;
        c->n = chance(50) ? m0 + (size_t)below(7) : n0;
        if (chance(30) && c->n > 3) c->n -= (size_t)below(4);
        c->q = xmalloc(c->m);
        c->t = xmalloc(c->n);
        for (size_t i = 0; i < c->m; i++) c->q[i] = unit[(ph_q + i) % p];
        for (size_t i = 0; i < c->n; i++) c->t[i] = alphabet_disguise(&c->a, unit[(ph_t + i) % p]);
        for (size_t i = 0; i < c->m; i++)
            if (chance(1)) c->q[i] = alphabet_byte(&c->a);
        for (size_t i = 0; i < c->n; i++)
            if (chance(1)) c->t[i] = alphabet_byte(&c->a);
        snprintf(c->desc, sizeof c->desc, "period %zu, phases %zu / %zu", p, ph_q, ph_t);
        break;
    }
    case F_AFFIX: {
        size_t base = m0 ? m0 : 1, extra = (size_t)range(1, 60);
        uint8_t *s = rand_seq(c, base + extra);
        uint64_t w = below(3);
        size_t off = w == 0 ? 0 : w == 1 ? extra : (size_t)below(extra + 1);
        uint8_t *piece = xmalloc(base);
        for (size_t i = 0; i < base; i++) piece[i] = alphabet_disguise(&c->a, s[off + i]);
        if (chance(50)) {
            c->q = s;
            c->m = base + extra;
            c->t = piece;
            c->n = base;
        } else {
            c->q = piece;
            c->m = base;
            c->t = s;
            c->n = base + extra;
        }
        snprintf(c->desc, sizeof c->desc, "%s of %zu extra symbols",
                 w == 0   ? "the piece is a prefix"
                 : w == 1 ? "the piece is a suffix"
                          : "a piece",
                 extra);
        break;
    }
    case F_BLOCK: {
        c->m = m0 ? m0 : 1;
        c->q = rand_seq(c, c->m);
        size_t blk = (size_t)range(1, 80);
        cap = c->m + blk + 4;
        tmp = xmalloc(cap);
        if (chance(50) || c->m <= blk) { /* insert a block into the target */
            size_t at = (size_t)below(c->m + 1);
            memcpy(tmp, c->q, at);
            for (size_t i = 0; i < blk; i++) tmp[at + i] = alphabet_byte(&c->a);
            memcpy(tmp + at + blk, c->q + at, c->m - at);
            c->n = c->m + blk;
            snprintf(c->desc, sizeof c->desc, "%zu symbols inserted at %zu", blk, at);
        } else { /* delete a block */
            size_t at = (size_t)below(c->m - blk + 1);
            memcpy(tmp, c->q, at);
            memcpy(tmp + at, c->q + at + blk, c->m - at - blk);
            c->n = c->m - blk;
            snprintf(c->desc, sizeof c->desc, "%zu symbols deleted at %zu", blk, at);
        }
        for (size_t i = 0; i < c->n; i++) tmp[i] = alphabet_disguise(&c->a, tmp[i]);
        c->t = tmp;
        if (chance(30) && c->n > 0) /* and a point edit */
            c->t[below(c->n)] = alphabet_byte(&c->a);
        break;
    }
    default: break;
    }
}

static void gen_case(gcase *c) {
    memset(c, 0, sizeof *c);
    pick_alphabet(c);
    uint64_t r = below(100);
    if (r < 14) c->fam = F_RANDOM;
    else if (r < 42) c->fam = F_EDITED;
    else if (r < 48) c->fam = F_IDENTICAL;
    else if (r < 53) c->fam = F_REVERSE;
    else if (r < 57) c->fam = F_ONE_EMPTY;
    else if (r < 59) c->fam = F_BOTH_EMPTY;
    else if (r < 65) c->fam = F_LOPSIDED;
    else if (r < 77) c->fam = F_PERIODIC;
    else if (r < 87) c->fam = F_AFFIX;
    else c->fam = F_BLOCK;
    size_t m0 = pick_len(), n0 = chance(30) ? m0 : pick_len();
    gen_family(c, m0, n0);
}

/* ==== checking one result =================================================== */

/* A short picture of where two CIGARs part. */
static void cigar_diff(char *buf, size_t len, const char *got, const char *want) {
    size_t i = 0;
    while (got[i] && got[i] == want[i]) i++;
    size_t from = i > 20 ? i - 20 : 0;
    snprintf(buf, len, "CIGARs part at char %zu: got ...%.60s, oracle ...%.60s (lengths %zu, %zu)",
             i, got + from, want + from, strlen(got), strlen(want));
}

/* One wm_align result: distance d and CIGAR `want` from the oracle. */
static void check_result(long idx, const gcase *c, const char *cfg, const algo_spec *a,
                         const wm_align_opts_t *o, int rc, const wm_alignments_t *got, uint64_t d,
                         const char *want, const char *errmsg) {
    char buf[1200], what[200];
    snprintf(what, sizeof what, "%s, algo %s, max_distance %" PRId64 ", cigar %d%s", cfg, a->name,
             o->max_distance, o->cigar, o->all_ends ? ", all_ends" : "");
    if (rc != WM_OK) {
        snprintf(buf, sizeof buf, "%s: wm_align returned %d (%s): %s", what, rc, wm_strerror(rc),
                 errmsg ? errmsg : "");
        fail_msg(idx, c, buf);
        return;
    }
    size_t n_want = (o->max_distance >= 0 && d > (uint64_t)o->max_distance) ? 0 : 1;
    if (got->n != n_want || (got->n > 0 && got->a == NULL)) {
        snprintf(buf, sizeof buf,
                 "%s: %zu alignments, expected %zu (oracle distance %" PRIu64 ")%s%" PRIu64, what,
                 got->n, n_want, d, got->n > 0 && got->a ? "; the library's distance " : "",
                 got->n > 0 && got->a ? got->a[0].distance : (uint64_t)0);
        fail_msg(idx, c, buf);
        return;
    }
    if (n_want == 0) {
        g_passed++;
        return;
    }
    const wm_alignment_t *al = &got->a[0];
    if (al->distance != d || al->start != 0 || al->end != c->n) {
        snprintf(buf, sizeof buf,
                 "%s: distance %" PRIu64 " [%" PRIu64 ",%" PRIu64 "), oracle "
                 "distance %" PRIu64 " [0,%zu)",
                 what, al->distance, al->start, al->end, d, c->n);
        fail_msg(idx, c, buf);
        return;
    }
    if (!o->cigar) {
        if (al->cigar != NULL) {
            snprintf(buf, sizeof buf, "%s: a CIGAR (%.60s) without opts.cigar", what, al->cigar);
            fail_msg(idx, c, buf);
            return;
        }
        g_passed++;
        return;
    }
    if (al->cigar == NULL) {
        snprintf(buf, sizeof buf, "%s: no CIGAR (NULL); the oracle's is \"%.100s\"", what, want);
        fail_msg(idx, c, buf);
        return;
    }
    if (strcmp(al->cigar, want) != 0) {
        char why[300] = "it replays (a valid optimal alignment, not the canonical one)", diff[300];
        goracle_cigar_replay(al->cigar, c->q, c->m, c->t, c->n, d, &c->o, NULL, why, sizeof why);
        cigar_diff(diff, sizeof diff, al->cigar, want);
        snprintf(buf, sizeof buf, "%s: the CIGAR is not the canonical one: %s; %s", what, diff,
                 why);
        fail_msg(idx, c, buf);
        return;
    }
    g_passed++;
}

/* Run one wm_align and check it. */
static void run_one(long idx, const gcase *c, config *cf, size_t ai, wm_align_opts_t o, uint64_t d,
                    const char *want) {
    o.algo = ALGOS[ai].algo;
    o.fr_t = ALGOS[ai].fr_t;
    wm_alignments_t got;
    memset(&got, 0, sizeof got);
    double t0 = now_s();
    int rc = wm_align(cf->cx, c->q, c->m, c->t, c->n, &o, &got);
    double dt = now_s() - t0;
    g_t_lib += dt;
    g_t_algo[ai] += dt;
    check_result(idx, c, cf->name, &ALGOS[ai], &o, rc, &got, d, want, wm_context_errmsg(cf->cx));
    if (rc == WM_OK) wm_alignments_free(&got);
}

static int64_t pick_k(uint64_t d, size_t m, size_t n) {
    uint64_t r = below(100);
    if (r < 3) return INT64_MAX;
    if (r < 35) return -1;
    if (r < 45) return 0;
    if (r < 60) return (int64_t)d;
    if (r < 72) return d > 0 ? (int64_t)d - 1 : 0;
    if (r < 85) return (int64_t)(d + range(1, 3));
    if (r < 92) return (int64_t)(m + n + range(0, 5));
    return (int64_t)range(0, m + n);
}

/* ==== 1. the oracle checks itself =========================================== */

static void oracle_fail(const char *method, const char *name, const char *detail) {
    self_fail++;
    printf("oracle self-check FAILED (%s): %s: %s\n", method, name, detail);
}

/* Every method on one pair: the distance want_d (UINT64_MAX: not known) and
** the CIGAR want_cigar (NULL: not known); the methods must agree. */
static void expect_global(const char *name, const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                          const wm_align_opts_t *o, uint64_t want_d, const char *want_cigar) {
    char buf[600], why[200];
    uint64_t d = 0, d2 = 0;
    char *cg = goracle_full(q, m, t, n, o, &d);
    if ((want_d != UINT64_MAX && d != want_d) || (want_cigar && strcmp(cg, want_cigar) != 0)) {
        snprintf(buf, sizeof buf, "distance %" PRIu64 " CIGAR \"%s\", want %" PRIu64 " \"%s\"", d,
                 cg, want_d, want_cigar);
        oracle_fail("goracle_full", name, buf);
    }
    if (!goracle_cigar_replay(cg, q, m, t, n, d, o, NULL, why, sizeof why)) {
        snprintf(buf, sizeof buf, "its CIGAR \"%.200s\" does not replay: %s", cg, why);
        oracle_fail("goracle_full", name, buf);
    }
    if ((d2 = goracle_distance(q, m, t, n, o)) != d) {
        snprintf(buf, sizeof buf, "two rows give %" PRIu64 ", the full matrix %" PRIu64, d2, d);
        oracle_fail("goracle_distance", name, buf);
    }
    if (m <= GORACLE_DEF_MAX && n <= GORACLE_DEF_MAX) {
        char *cd = goracle_definition(q, m, t, n, o, &d2);
        if (d2 != d || strcmp(cd, cg) != 0) {
            snprintf(buf, sizeof buf,
                     "the definition gives %" PRIu64 " \"%s\", the full matrix %" PRIu64 " \"%s\"",
                     d2, cd, d, cg);
            oracle_fail("goracle_definition", name, buf);
        }
        free(cd);
    }
    /* the band: exact at d, d + 1, d + 7 and m + n; below d it must say so */
    uint64_t bands[4] = { d, d + 1, d + 7, (uint64_t)m + n };
    for (size_t b = 0; b < 4; b++) {
        char *cb = NULL;
        int exact = goracle_banded(q, m, t, n, o, bands[b], &d2, &cb);
        if (!exact || d2 != d || cb == NULL || strcmp(cb, cg) != 0) {
            snprintf(buf, sizeof buf,
                     "band %" PRIu64 ": exact %d, distance %" PRIu64 " \"%.150s\","
                     " the full matrix %" PRIu64 " \"%.150s\"",
                     bands[b], exact, d2, cb ? cb : "(NULL)", d, cg);
            oracle_fail("goracle_banded", name, buf);
        }
        free(cb);
    }
    if (d > 0) {
        char *cb = NULL;
        int exact = goracle_banded(q, m, t, n, o, d - 1, &d2, &cb);
        if (exact || cb != NULL || d2 <= d - 1) {
            snprintf(buf, sizeof buf,
                     "band d - 1 = %" PRIu64 ": exact %d, value %" PRIu64
                     " (must be 0 and over the band)",
                     d - 1, exact, d2);
            oracle_fail("goracle_banded", name, buf);
        }
        free(cb);
    }
    free(cg);
}

static void expect_replay(const char *name, const char *cigar, const char *q, const char *t,
                          uint64_t dist, const wm_align_opts_t *o, int want_ok) {
    char why[200] = "";
    int ok = goracle_cigar_replay(cigar, (const uint8_t *)q, strlen(q), (const uint8_t *)t,
                                  strlen(t), dist, o, NULL, why, sizeof why);
    if (ok != want_ok) {
        char buf[400];
        snprintf(buf, sizeof buf, "\"%s\" %s (%s)", cigar ? cigar : "(NULL)",
                 ok ? "replays" : "does not replay", why);
        oracle_fail("goracle_cigar_replay", name, buf);
    }
}

#define S(s) (const uint8_t *)(s), (sizeof(s) - 1)

static void oracle_hand_examples(void) {
    wm_align_opts_t o = wm_align_opts_default(), dna = o, ci = o;
    o.mode = dna.mode = ci.mode = WM_ALIGN_GLOBAL;
    dna.alphabet = WM_ALPHABET_DNA;
    ci.case_insensitive = 1;

    expect_global("empty/empty", S(""), S(""), &o, 0, "");
    expect_global("empty/ACG", S(""), S("ACG"), &o, 3, "3D");
    expect_global("ACG/empty", S("ACG"), S(""), &o, 3, "3I");
    expect_global("A/A", S("A"), S("A"), &o, 0, "1=");
    expect_global("A/C", S("A"), S("C"), &o, 1, "1X");
    /* ACGT/ACT: D row 4 is 4 3 2 1; from (4,3) '=' (T), then at (3,2) the
    ** diagonal G/C costs 2 > 1 and the 'I' of G reaches 1: 2=1I1=. */
    expect_global("ACGT/ACT", S("ACGT"), S("ACT"), &o, 1, "2=1I1=");
    /* the diagonal is taken as late as possible in query order: the gap
    ** comes first */
    expect_global("AA/A", S("AA"), S("A"), &o, 1, "1I1=");
    expect_global("A/AA", S("A"), S("AA"), &o, 1, "1D1=");
    expect_global("AAA/AA", S("AAA"), S("AA"), &o, 1, "1I2=");
    expect_global("AB/BA", S("AB"), S("BA"), &o, 2, "2X");
    /* kitten/sitting, the full table by hand: D[6][7] = 3; (6,7) n/g: neither
    ** the diagonal (D[5][6] = 3) nor I (D[5][7] = 4) reaches 3, so D; then
    ** n=n, e/i X, t t i =, k/s X. */
    expect_global("kitten/sitting", S("kitten"), S("sitting"), &o, 3, "1X3=1X1=1D");
    expect_global("DNA ACNT/ACNT: N matches nothing", S("ACNT"), S("ACNT"), &dna, 1, "2=1X1=");
    expect_global("DNA acgu/ACGT", S("acgu"), S("ACGT"), &dna, 0, "4=");
    expect_global("bytes acgt/ACGT", S("acgt"), S("ACGT"), &o, 4, "4X");
    expect_global("bytes acgt/ACGT -i", S("acgt"), S("ACGT"), &ci, 0, "4=");
    expect_global("bytes @/` -i (not letters)", S("@"), S("`"), &ci, 1, "1X");
    expect_global("NUL bytes", (const uint8_t *)"\0\1\0", 3, (const uint8_t *)"\1\0", 2, &o, 1,
                  "1I2=");
    expect_global("GATTACA/GCATGCU", S("GATTACA"), S("GCATGCU"), &o, 4, NULL);

    expect_replay("good", "2=1I1=", "ACGT", "ACT", 1, &o, 1);
    expect_replay("empty on empty", "", "", "", 0, &o, 1);
    expect_replay("empty on non-empty", "", "A", "", 1, &o, 0);
    expect_replay("unmerged runs", "1=1=1I1=", "ACGT", "ACT", 1, &o, 0);
    expect_replay("leading zero", "02=1I1=", "ACGT", "ACT", 1, &o, 0);
    expect_replay("count 0", "2=0D1I1=", "ACGT", "ACT", 1, &o, 0);
    expect_replay("= on unequal", "3=1I", "ACGT", "ACT", 1, &o, 0);
    expect_replay("X on equal", "1X1=1I1=", "ACGT", "ACT", 2, &o, 0);
    expect_replay("cost != distance", "2=1I1=", "ACGT", "ACT", 2, &o, 0);
    expect_replay("query not consumed", "2=1X", "ACGT", "ACT", 1, &o, 0);
    expect_replay("target not consumed", "2=1I", "ACGT", "ACT", 1, &o, 0);
    expect_replay("I past the query", "2=3I", "ACGT", "AC", 3, &o, 0);
    expect_replay("D past the target", "2=1D", "AC", "ACT", 1, &o, 1);
    expect_replay("D past the target 2", "2=2D", "AC", "ACT", 2, &o, 0);
    expect_replay("M is not ours", "4M", "ACGT", "ACGT", 0, &o, 0);
    expect_replay("no count", "2==1I", "ACGT", "ACT", 1, &o, 0);
    expect_replay("count without op", "2=1I1", "ACGT", "ACT", 1, &o, 0);
    expect_replay("NULL", NULL, "A", "A", 0, &o, 0);
    expect_replay("huge count", "99999999999999999999999=", "A", "A", 0, &o, 0);
    expect_replay("a valid non-canonical one", "1=1I", "AA", "A", 1, &o, 1);
    expect_replay("DNA N/N X", "1X", "N", "N", 1, &dna, 1);
    expect_replay("DNA N/N =", "1=", "N", "N", 0, &dna, 0);
    expect_replay("DNA U/t =", "1=", "U", "t", 0, &dna, 1);
    expect_replay("-i", "2=", "Ab", "aB", 0, &ci, 1);
    expect_replay("no -i", "2X", "Ab", "aB", 2, &o, 1);
}

/* Random tiny cases (the definition can run) and medium ones (the band). */
static void oracle_random_self_check(void) {
    g_rng = g_seed ^ 0x60ac1eull;
    char name[80];
    for (int i = 0; i < 600; i++) {
        gcase c;
        memset(&c, 0, sizeof c);
        pick_alphabet(&c);
        if (chance(40)) { /* tiny alphabets make ties */
            alphabet_of(&c.a, AK_BIN, "ab");
            c.o.alphabet = WM_ALPHABET_BYTES;
            c.o.case_insensitive = 0;
        }
        c.fam = (family)below(F_COUNT);
        gen_family(&c, (size_t)below(9), (size_t)below(9));
        if (c.m > 8 || c.n > 8) { /* families that grow: cut back */
            if (c.m > 8) c.m = (size_t)below(9);
            if (c.n > 8) c.n = (size_t)below(9);
        }
        snprintf(name, sizeof name, "random tiny case %d", i);
        int before = self_fail;
        expect_global(name, c.q, c.m, c.t, c.n, &c.o, UINT64_MAX, NULL);
        if (self_fail != before) describe_case(&c);
        free_case(&c);
    }
    for (int i = 0; i < 150; i++) {
        gcase c;
        gen_case(&c);
        if (c.m > 250) c.m = 250;
        if (c.n > 250) c.n = 250;
        snprintf(name, sizeof name, "random medium case %d", i);
        int before = self_fail;
        expect_global(name, c.q, c.m, c.t, c.n, &c.o, UINT64_MAX, NULL);
        if (self_fail != before) describe_case(&c);
        free_case(&c);
    }
}

/* ==== 3. random cases ======================================================= */

static struct { long cases, d0, d_max, empty_one, empty_both, m_big, t_ragged; } g_cov;

/* The oracle for a case: the full matrix, checked against the band at d. */
static char *oracle_case(long idx, const gcase *c, uint64_t *d) {
    double t0 = now_s();
    char *cg = goracle_full(c->q, c->m, c->t, c->n, &c->o, d);
    if ((uint64_t)(c->m + 1) * (*d + 1) <= 4000000u) {
        uint64_t db = 0;
        char *cb = NULL;
        int exact = goracle_banded(c->q, c->m, c->t, c->n, &c->o, *d, &db, &cb);
        if (!exact || db != *d || strcmp(cb, cg) != 0) {
            self_fail++;
            char buf[500];
            snprintf(buf, sizeof buf,
                     "ORACLE self-check: full matrix %" PRIu64 " \"%.150s\", band"
                     " %" PRIu64 " \"%.150s\"",
                     *d, cg, db, cb ? cb : "(NULL)");
            fail_msg(idx, c, buf);
        }
        free(cb);
    }
    g_t_oracle += now_s() - t0;
    return cg;
}

static int is_short(const gcase *c) { return c->m + c->n <= SHORT_SUM; }

static void run_case(long idx, const gcase *c, config *cfgs, size_t n_cfg, int light) {
    uint64_t d;
    char *want = oracle_case(idx, c, &d);
    g_cov.cases++;
    g_cov.d0 += d == 0;
    g_cov.d_max += d == (c->m > c->n ? c->m : c->n) && d > 0;
    g_cov.empty_one += (c->m == 0) != (c->n == 0);
    g_cov.empty_both += c->m == 0 && c->n == 0;
    g_cov.m_big += c->m > 1000 || c->n > 1000;
    g_cov.t_ragged += c->m % 3 != 0 || c->n % 3 != 0;

    /* every configuration, every algorithm, with a CIGAR, a random k; a
    ** CUDA context takes a long pair's checkpoints by each rule in turn:
    ** the CPU's forward pass, kept by the distance pass (else a second
    ** pass), a second pass always, and the library's choice */
    wm_align_opts_t o = c->o;
    o.mode = WM_ALIGN_GLOBAL;
    o.cigar = 1;
    for (size_t ci = 0; ci < n_cfg; ci++)
        if (cfgs[ci].backend == WM_BACKEND_CUDA) {
            wm_context_tuning(cfgs[ci].cx)->global_ckpts = (int[]){ -1, 1, 2, 0 }[idx & 3];
            /* a distance without a bound from both ends: on every pair, from
            ** 64 columns, the library's 2,048, never */
            wm_context_tuning(cfgs[ci].cx)->global_meet_min =
                (uint64_t[]){ 1, 64, 0, UINT64_MAX }[(idx >> 2) & 3];
            /* and there on a stair where it fits, or cut at n / 2 */
            wm_context_tuning(cfgs[ci].cx)->global_meet_cut = (int)((idx >> 4) & 1);
        }
    for (size_t ci = 0; ci < n_cfg; ci++) {
        if ((cfgs[ci].flags & CF_SHORT_ONLY) && !is_short(c)) continue;
        for (size_t a = 0; a < g_n_algos; a++) {
            if (!algo_allowed(&cfgs[ci], a)) continue;
            o.max_distance = pick_k(d, c->m, c->n);
            o.all_ends = chance(30); /* one end in global mode: no change */
            run_one(idx, c, &cfgs[ci], a, o, d, want);
        }
    }

    /* the sweep: k = d - 1 (nothing), d, d + 1 and -1, CIGAR or not; every
    ** configuration on small cases, one on others; long ones: d - 1 and d */
    int every = (uint64_t)c->m * c->n <= 2000;
    size_t pick = (size_t)below(n_cfg);
    for (size_t ci = 0; ci < n_cfg; ci++) {
        if (!every && ci != pick) continue;
        if ((cfgs[ci].flags & CF_SHORT_ONLY) && !is_short(c)) continue;
        for (size_t a = 0; a < g_n_algos; a++) {
            if (!algo_allowed(&cfgs[ci], a)) continue;
            for (int step = 0; step < (light ? 2 : 4); step++) {
                if (step == 0 && d == 0) continue;
                static const int64_t delta[4] = { -1, 0, 1, 0 };
                o.max_distance = step == 3 ? -1 : (int64_t)d + delta[step];
                o.cigar = (step == 1) || (step != 3 && chance(50));
                run_one(idx, c, &cfgs[ci], a, o, d, want);
            }
        }
    }
    /* CUDA without a bound and without a CIGAR on every case (a long pair's
    ** distance from both ends), where the sweep did not take it */
    for (size_t ci = 0; ci < n_cfg; ci++) {
        if (cfgs[ci].backend != WM_BACKEND_CUDA || every || ci == pick) continue;
        if ((cfgs[ci].flags & CF_SHORT_ONLY) && !is_short(c)) continue;
        o.max_distance = -1;
        o.cigar = 0;
        for (size_t a = 0; a < g_n_algos; a++)
            if (algo_allowed(&cfgs[ci], a)) run_one(idx, c, &cfgs[ci], a, o, d, want);
    }
    free(want);
}

/* ==== 4. long pairs ========================================================= */

static void long_cases(config *cfgs, size_t n_cfg, double scale) {
    long n_long = (long)(8 * scale + 0.5);
    for (long i = 0; i < n_long; i++) {
        g_rng = g_seed ^ (0x10a6ull + (uint64_t)i * 0x9E3779B97F4A7C15ull);
        gcase c;
        memset(&c, 0, sizeof c);
        pick_alphabet(&c);
        size_t L = (size_t)range(2000, 5000);
        switch (i % 8) {
        case 0:
            c.fam = F_EDITED;
            L = 5000;
            break; /* 5,000 x ~5,000 */
        case 1: c.fam = F_EDITED; break;
        case 2: c.fam = F_ONE_EMPTY; break;
        case 3: c.fam = F_RANDOM; break;
        case 4: c.fam = F_PERIODIC; break;
        case 5: c.fam = F_BLOCK; break;
        case 6: c.fam = F_REVERSE; break;
        default: c.fam = F_AFFIX; break;
        }
        size_t n0 = (i % 8 == 3) ? (size_t)range(2000, 5000) : L;
        gen_family(&c, L, n0);
        if (c.fam == F_EDITED && i % 8 == 0) {
            /* the common case at its largest: a few edits */
            free_case(&c);
            c.fam = F_EDITED;
            c.m = 5000;
            c.q = rand_seq(&c, c.m);
            c.n_edits = (size_t)range(1, 60);
            c.t = xmalloc(c.m + c.n_edits);
            c.n = alphabet_mutate(&c.a, c.q, c.m, c.n_edits, c.t);
            snprintf(c.desc, sizeof c.desc, "%zu edits", c.n_edits);
        }
        printf("long case %ld: %s, %s, m %zu, n %zu\n", i, AK_NAME[c.a.kind], F_NAME[c.fam], c.m,
               c.n);
        fflush(stdout);
        run_case(-1000 - i, &c, cfgs, n_cfg, 1);
        free_case(&c);
    }
}

/* ==== 5. wm_align_pairs ===================================================== */

static size_t pair_len(int big_batch) {
    static const size_t edges[] = { 63, 64, 65, 127, 128, 129, 1023, 1024, 1025 };
    uint64_t r = below(1000);
    if (r < 80) return (size_t)below(11);
    if (r < 880) return (size_t)range(11, 300);
    if (r < 910) return edges[below(N_OF(edges))];
    if (r < 990) return (size_t)range(301, big_batch ? 600 : 800);
    return big_batch && chance(80) ? (size_t)range(301, 600) : (size_t)range(801, 2000);
}

/* Every result of a batch against the oracle's; the number wrong. */
static long check_pair_results(const char *what, const gcase *cs, size_t n_pairs,
                               const wm_align_opts_t *op, const uint64_t *d, char **want,
                               const wm_alignment_t *out) {
    const wm_align_opts_t o = *op;
    char buf[1200];
    long bad = 0;
    for (size_t i = 0; i < n_pairs; i++) {
        const gcase *c = &cs[i];
        const wm_alignment_t *al = &out[i];
        int over = o.max_distance >= 0 && d[i] > (uint64_t)o.max_distance;
        const char *problem = NULL;
        char pb[600];
        if (over) {
            if (al->distance != WM_ALIGN_NONE || al->start != 0 || al->end != 0 ||
                al->cigar != NULL) {
                snprintf(pb, sizeof pb,
                         "over max_distance (oracle %" PRIu64 ") but distance %" PRIu64 " [%" PRIu64
                         ",%" PRIu64 ") CIGAR %s",
                         d[i], al->distance, al->start, al->end, al->cigar ? "set" : "NULL");
                problem = pb;
            }
        } else if (al->distance != d[i] || al->start != 0 || al->end != c->n) {
            snprintf(pb, sizeof pb,
                     "distance %" PRIu64 " [%" PRIu64 ",%" PRIu64 "), oracle %" PRIu64 " [0,%zu)",
                     al->distance, al->start, al->end, d[i], c->n);
            problem = pb;
        } else if (!o.cigar && al->cigar != NULL) {
            snprintf(pb, sizeof pb, "a CIGAR without opts.cigar");
            problem = pb;
        } else if (o.cigar && (al->cigar == NULL || strcmp(al->cigar, want[i]) != 0)) {
            char diff[300] = "no CIGAR (NULL)", why[200] = "it replays";
            if (al->cigar) {
                cigar_diff(diff, sizeof diff, al->cigar, want[i]);
                goracle_cigar_replay(al->cigar, c->q, c->m, c->t, c->n, d[i], &c->o, NULL, why,
                                     sizeof why);
            }
            snprintf(pb, sizeof pb, "not the canonical CIGAR: %s; %s", diff, why);
            problem = pb;
        }
        if (problem) {
            if (bad < 3) {
                snprintf(buf, sizeof buf, "%s: pair %zu: %s", what, i, problem);
                fail_msg(-1, c, buf);
            } else {
                g_failed++;
            }
            bad++;
        } else {
            g_passed++;
        }
    }
    if (bad > 3) printf("  (%s: %ld pairs wrong in all)\n", what, bad);
    return bad;
}

/* The same pairs as columns through wm_align_pairs_packed: each result as
** the oracle's, viewed as a wm_alignment_t. */
static void packed_batch(config *cf, const char *what0, const gcase *cs, const wm_pair_t *pairs,
                         size_t n_pairs, const wm_align_opts_t *o, const uint64_t *d, char **want) {
    uint64_t *qo = xcalloc(n_pairs + 1, sizeof *qo), *to = xcalloc(n_pairs + 1, sizeof *to);
    for (size_t i = 0; i < n_pairs; i++) {
        qo[i + 1] = qo[i] + pairs[i].m;
        to[i + 1] = to[i] + pairs[i].n;
    }
    uint8_t *qb = xcalloc(qo[n_pairs] + 1, 1), *tb = xcalloc(to[n_pairs] + 1, 1);
    for (size_t i = 0; i < n_pairs; i++) {
        if (pairs[i].m) memcpy(qb + qo[i], pairs[i].query, pairs[i].m);
        if (pairs[i].n) memcpy(tb + to[i], pairs[i].target, pairs[i].n);
    }
    wm_pairs_packed_t in = { n_pairs, qb, qo, tb, to };
    wm_pair_results_t res;
    char what[300], buf[600];
    snprintf(what, sizeof what, "%s, packed", what0);
    int rc = wm_align_pairs_packed(cf->cx, &in, o, &res);
    if (rc != WM_OK) {
        snprintf(buf, sizeof buf, "%s: returned %d (%s): %s", what, rc, wm_strerror(rc),
                 wm_context_errmsg(cf->cx));
        fail_msg(-1, NULL, buf);
    } else {
        wm_alignment_t *view = xcalloc(n_pairs, sizeof *view);
        int shape =
            res.n == n_pairs && (!o->cigar) == (res.cigar_off == NULL) &&
            (!o->cigar || (res.cigar_off[0] == 0 && res.cigar[res.cigar_off[n_pairs]] == 0));
        snprintf(buf, sizeof buf, "%s: n, offsets from 0, a NUL after the last CIGAR", what);
        check_true(buf, shape);
        for (size_t i = 0; shape && i < n_pairs; i++) {
            view[i].distance = res.distance[i];
            view[i].start = res.start[i];
            view[i].end = res.end[i];
            if (!o->cigar || res.distance[i] == WM_ALIGN_NONE) continue;
            size_t len = (size_t)(res.cigar_off[i + 1] - res.cigar_off[i]);
            view[i].cigar = xcalloc(len + 1, 1);
            memcpy(view[i].cigar, res.cigar + res.cigar_off[i], len);
        }
        if (shape) check_pair_results(what, cs, n_pairs, o, d, want, view);
        wm_alignment_clear(view, n_pairs);
        free(view);
        wm_pair_results_free(&res);
    }
    free(qo);
    free(to);
    free(qb);
    free(tb);
}

/* A batch's cases, pairs, distances and CIGARs, freed. */
static void free_batch(gcase *cs, wm_pair_t *pairs, uint64_t *d, char **want, size_t n_pairs) {
    for (size_t i = 0; i < n_pairs; i++) {
        free_case(&cs[i]);
        free(want[i]);
    }
    free(cs);
    free(pairs);
    free(d);
    free(want);
}

/* Batch b's pairs (cases cs, distances d, CIGARs want) on every context:
** wm_align_pairs and the columns, element-wise against the oracle. */
static void run_pairs(long b, const gcase *cs, const wm_pair_t *pairs, size_t n_pairs,
                      const wm_align_opts_t *op, size_t ai, const uint64_t *d, char **want,
                      config *cfgs, size_t n_cfg) {
    const wm_align_opts_t o = *op;
    const char *alpha = AK_NAME[cs[0].a.kind];
    double t0;
    char buf[1200], what[240];
    /* the GPU's batches: the default, or a few pairs a batch so that a call
    ** crosses many batches and both slots */
    static const uint64_t batch_sizes[] = { 0, 1, 2, 7, 64 };
    uint64_t gpu_batch = batch_sizes[below(N_OF(batch_sizes))];
    for (size_t ci = 0; ci < n_cfg; ci++) {
        config *cf = &cfgs[ci];
        if ((cf->flags & CF_SHORT_ONLY)) continue;
        wm_alignment_t *out = xcalloc(n_pairs, sizeof *out);
        wm_context_tuning(cf->cx)->pairs_batch = gpu_batch;
        snprintf(what, sizeof what,
                 "wm_align_pairs batch %ld (%zu pairs, %s), %s, algo %s, "
                 "max_distance %" PRId64 ", cigar %d, GPU batches of %" PRIu64,
                 b, n_pairs, alpha, cf->name, ALGOS[ai].name, o.max_distance, o.cigar, gpu_batch);
        t0 = now_s();
        int rc = wm_align_pairs(cf->cx, pairs, n_pairs, &o, out);
        double dt = now_s() - t0;
        g_t_lib += dt;
        g_t_algo[ai] += dt;
        if (rc != WM_OK) {
            snprintf(buf, sizeof buf, "%s: returned %d (%s): %s", what, rc, wm_strerror(rc),
                     wm_context_errmsg(cf->cx));
            fail_msg(-1, NULL, buf);
            free(out);
            continue;
        }
        check_pair_results(what, cs, n_pairs, &o, d, want, out);
        wm_alignment_clear(out, n_pairs);
        int zero = 1;
        for (size_t i = 0; i < n_pairs && zero; i++)
            zero = out[i].distance == 0 && out[i].start == 0 && out[i].end == 0 &&
                   out[i].cigar == NULL;
        snprintf(buf, sizeof buf, "%s: wm_alignment_clear leaves every field 0 / NULL", what);
        check_true(buf, zero);
        free(out);
        packed_batch(cf, what, cs, pairs, n_pairs, &o, d, want);
        /* the pairs every GPU thread takes (1 .. 256 a side), alone: the
        ** columns then go to the GPU without a view of them */
        gcase *fc = xcalloc(n_pairs + 1, sizeof *fc);
        wm_pair_t *fp = xcalloc(n_pairs + 1, sizeof *fp);
        uint64_t *fd = xcalloc(n_pairs + 1, sizeof *fd);
        char **fw = xcalloc(n_pairs + 1, sizeof *fw);
        size_t nf = 0;
        for (size_t i = 0; i < n_pairs; i++)
            if (pairs[i].m >= 1 && pairs[i].m <= 256 && pairs[i].n >= 1 && pairs[i].n <= 1024) {
                fc[nf] = cs[i];
                fp[nf] = pairs[i];
                fd[nf] = d[i];
                fw[nf++] = want[i];
            }
        if (nf && nf < n_pairs) {
            char w2[300];
            snprintf(w2, sizeof w2, "%s, the %zu pairs of 1..256 x 1..1024", what, nf);
            packed_batch(cf, w2, fc, fp, nf, &o, fd, fw);
        }
        free(fc);
        free(fp);
        free(fd);
        free(fw);
        wm_context_tuning(cf->cx)->pairs_batch = 0;
    }
}

static void pairs_batch(long b, size_t n_pairs, config *cfgs, size_t n_cfg) {
    g_rng = g_seed ^ (0xba7c4ull + (uint64_t)b * 0xD1B54A32D192ED03ull);
    gcase proto;
    memset(&proto, 0, sizeof proto);
    pick_alphabet(&proto);
    int big = n_pairs > 500;
    gcase *cs = xcalloc(n_pairs, sizeof *cs);
    wm_pair_t *pairs = xcalloc(n_pairs, sizeof *pairs);
    uint64_t *d = xcalloc(n_pairs, sizeof *d);
    char **want = xcalloc(n_pairs, sizeof *want);

    wm_align_opts_t o = proto.o;
    o.mode = WM_ALIGN_GLOBAL;
    /* t = 4 never here; big batches mostly auto / bitvector (the GPU's
    ** one-pair-a-thread kernel) */
    size_t ai = n_pairs >= 250 && chance(80) ? (chance(50) ? 0 : 2) : (size_t)below(6);
    o.algo = ALGOS[ai].algo;
    o.fr_t = ALGOS[ai].fr_t;
    o.cigar = chance(75);
    o.all_ends = chance(20); /* ignored by wm_align_pairs */
    uint64_t kr = below(100);
    o.max_distance = kr < 40 ? -1 : kr < 55 ? 0 : (int64_t)range(1, 40);

    double t0 = now_s();
    for (size_t i = 0; i < n_pairs; i++) {
        gcase *c = &cs[i];
        *c = proto;
        c->q = c->t = NULL;
        uint64_t r = below(100);
        c->fam = r < 25   ? F_RANDOM
                 : r < 70 ? F_EDITED
                 : r < 78 ? F_IDENTICAL
                 : r < 84 ? F_ONE_EMPTY
                 : r < 86 ? F_BOTH_EMPTY
                 : r < 93 ? F_PERIODIC
                          : F_BLOCK;
        size_t m0 = pair_len(big);
        gen_family(c, m0, chance(40) ? m0 : pair_len(big));
        pairs[i].query = c->m ? c->q : (chance(50) ? NULL : c->q); /* NULL with length 0 */
        pairs[i].m = c->m;
        pairs[i].target = c->n ? c->t : (chance(50) ? NULL : c->t);
        pairs[i].n = c->n;
        if (o.cigar) want[i] = goracle_full(c->q, c->m, c->t, c->n, &c->o, &d[i]);
        else d[i] = goracle_distance(c->q, c->m, c->t, c->n, &c->o);
    }
    g_t_oracle += now_s() - t0;

    run_pairs(b, cs, pairs, n_pairs, &o, ai, d, want, cfgs, n_cfg);
    free_batch(cs, pairs, d, want, n_pairs);
}

static void pairs_part(config *cfgs, size_t n_cfg, double scale) {
    static const size_t sizes[] = { 1, 2, 3, 5, 17, 64, 100, 250, 1000, 5000 };
    long b = 0;
    double t0 = now_s();
    long f0 = g_failed;
    for (size_t i = 0; i < N_OF(sizes); i++) pairs_batch(b++, sizes[i], cfgs, n_cfg);
    long n_rand = (long)(12 * scale + 0.5);
    for (long i = 0; i < n_rand; i++) {
        g_rng = g_seed ^ (0x5123ull + (uint64_t)i);
        size_t n = chance(80) ? (size_t)range(1, 64) : (size_t)range(65, 700);
        pairs_batch(b++, n, cfgs, n_cfg);
    }
    printf("pairs: %ld batches, %.1f s, %ld failures\n", b, now_s() - t0, g_failed - f0);
    fflush(stdout);
}

/* ==== 5b. pairs past a GPU thread ============================================ */

/* DNA pairs around the GPU's tiers (pairs_cuda.cu): queries of 1,025 ..
** 8,192 take a warp, shorter ones a thread however long the target (up to
** 65,536), and longer ones run on the CPU threads; lengths at every
** border, CIGARs (up to 4,200 a side: the oracle's full matrix) and not. */
static size_t warp_len(void) {
    static const size_t edges[] = { 1,    64,   1023, 1024, 1025, 1026, 2047, 2048,
                                    2049, 4095, 4096, 4097, 8191, 8192, 8193 };
    uint64_t r = below(100);
    if (r < 45) return edges[below(N_OF(edges))];
    if (r < 85) return (size_t)range(1025, 4200);
    return (size_t)range(4201, 8300);
}

static void warp_batch(long b, size_t n_pairs, config *cfgs, size_t n_cfg) {
    g_rng = g_seed ^ (0x3a4b5ull + (uint64_t)b * 0x9E3779B97F4A7C15ull);
    static const weighted_t DNA_ONLY[] = { { AK_DNA, 100 } };
    static const alphabet_style_t STYLE = { 98, 0, 4 };
    gcase proto;
    memset(&proto, 0, sizeof proto);
    alphabet_pick(&proto.a, DNA_ONLY, N_OF(DNA_ONLY), &STYLE);
    proto.o = wm_align_opts_default();
    proto.o.mode = WM_ALIGN_GLOBAL;
    proto.o.alphabet = WM_ALPHABET_DNA;
    proto.o.case_insensitive = proto.a.fold;
    wm_align_opts_t o = proto.o;
    size_t ai = chance(50) ? 0 : 2; /* auto or bitvector: the GPU's pair kernels */
    o.algo = ALGOS[ai].algo;
    o.cigar = chance(30);
    gcase *cs = xcalloc(n_pairs, sizeof *cs);
    wm_pair_t *pairs = xcalloc(n_pairs, sizeof *pairs);
    uint64_t *d = xcalloc(n_pairs, sizeof *d);
    char **want = xcalloc(n_pairs, sizeof *want);
    double t0 = now_s();
    for (size_t i = 0; i < n_pairs; i++) {
        gcase *c = &cs[i];
        *c = proto;
        uint64_t r = below(100);
        c->fam = r < 50   ? F_EDITED
                 : r < 65 ? F_RANDOM
                 : r < 75 ? F_IDENTICAL
                 : r < 85 ? F_PERIODIC
                          : F_BLOCK;
        size_t m0 = warp_len(), n0 = chance(50) ? m0 : warp_len();
        if (chance(15)) { /* a thread's query against a long target */
            m0 = (size_t)range(1, 1024);
            n0 = (size_t)range(1025, 20000);
        } else if (chance(5)) { /* a warp's query against a target past its bound, or not */
            m0 = (size_t)range(1025, 1500);
            n0 = (size_t)range(60000, 66000);
        }
        if (o.cigar) { /* the full matrix's oracle: keep it small */
            m0 = m0 > 4200 ? (size_t)range(1000, 4200) : m0;
            n0 = n0 > 4200 ? (size_t)range(1000, 4200) : n0;
        }
        gen_family(c, m0, n0);
        if (chance(4) && c->m) memset(c->q, chance(50) ? 'N' : 'n', c->m); /* N matches nothing */
        pairs[i].query = c->q;
        pairs[i].m = c->m;
        pairs[i].target = c->t;
        pairs[i].n = c->n;
        if (o.cigar) want[i] = goracle_full(c->q, c->m, c->t, c->n, &c->o, &d[i]);
        else d[i] = goracle_distance(c->q, c->m, c->t, c->n, &c->o);
    }
    g_t_oracle += now_s() - t0;
    /* no limit, or one at a pair's distance - 1, d or d + 1 */
    uint64_t dk = d[below(n_pairs)];
    o.max_distance = chance(40) ? -1 : (int64_t)dk + (int64_t)range(0, 2) - (dk > 0);
    run_pairs(b, cs, pairs, n_pairs, &o, ai, d, want, cfgs, n_cfg);
    free_batch(cs, pairs, d, want, n_pairs);
}

static void warp_part(config *cfgs, size_t n_cfg, double scale) {
    double t0 = now_s();
    long f0 = g_failed, n = (long)(16 * scale + 0.5);
    for (long b = 0; b < n; b++) warp_batch(b, b == 0 ? 1 : (size_t)range(2, 16), cfgs, n_cfg);
    printf("pairs past a GPU thread: %ld batches, %.1f s, %ld failures\n", n, now_s() - t0,
           g_failed - f0);
    fflush(stdout);
}

/* ==== 2. every context ======================================================= */

/* The checks every context must pass (CUDA included): empty sequences on
** every algorithm, and the cell limit of dp and four-russians. */
static void api_per_context(config *cf) {
    char what[300];
    wm_alignments_t out;
    wm_align_opts_t g = wm_align_opts_default();
    g.mode = WM_ALIGN_GLOBAL;
    const uint8_t *q = (const uint8_t *)"ACGT", *t = (const uint8_t *)"ACT";

    /* empty sequences: NULL with length 0 is fine */
    {
        static const struct {
            const char *q, *t;
            uint64_t d;
            const char *cigar;
        } e[] = {
            { "", "", 0, "" },
            { "", "ACG", 3, "3D" },
            { "ACG", "", 3, "3I" },
        };
        for (size_t i = 0; i < N_OF(e); i++)
            for (int nul = 0; nul < 2; nul++)
                for (size_t a = 0; a < g_n_algos; a++) {
                    if (!algo_allowed(cf, a)) continue;
                    wm_align_opts_t b = g;
                    b.algo = ALGOS[a].algo;
                    b.fr_t = ALGOS[a].fr_t;
                    b.cigar = 1;
                    size_t m = strlen(e[i].q), n = strlen(e[i].t);
                    const uint8_t *qq = (nul && m == 0) ? NULL : (const uint8_t *)e[i].q;
                    const uint8_t *tt = (nul && n == 0) ? NULL : (const uint8_t *)e[i].t;
                    memset(&out, 0, sizeof out);
                    int rc = wm_align(cf->cx, qq, m, tt, n, &b, &out);
                    snprintf(what, sizeof what,
                             "global \"%s\" / \"%s\"%s, %s: WM_OK, distance %" PRIu64
                             " [0,%zu), CIGAR \"%s\"",
                             e[i].q, e[i].t, nul ? " (NULL pointers)" : "", ALGOS[a].name, e[i].d,
                             n, e[i].cigar);
                    check_true(what, rc == WM_OK && out.n == 1 && out.a[0].distance == e[i].d &&
                                         out.a[0].start == 0 && out.a[0].end == n &&
                                         out.a[0].cigar && strcmp(out.a[0].cigar, e[i].cigar) == 0);
                    if (rc == WM_OK) wm_alignments_free(&out);
                }
    }
    /* over WM_ALIGN_MAX_CELLS: dp and four-russians refuse at once; bitvector
    ** and auto align (the pair is near-identical, so that is quick) */
    {
        const size_t L = 400000; /* 1.6e11 cells > 2^37 */
        uint8_t *a = xmalloc(L), *bb = xmalloc(L);
        g_rng = g_seed ^ 0xb16ull;
        for (size_t i = 0; i < L; i++) a[i] = (uint8_t) "ACGT"[below(4)];
        memcpy(bb, a, L);
        for (int k = 0; k < 3; k++) { /* three substitutions */
            size_t at = (size_t)range(1000, L - 1000);
            bb[at] = (uint8_t)(a[at] == 'A' ? 'C' : 'A');
        }
        check_true("the over-the-limit pair is over WM_ALIGN_MAX_CELLS",
                   (uint64_t)L * L > WM_ALIGN_MAX_CELLS);
        static const algo_spec over[] = {
            { WM_ALIGN_ALGO_DP, 0, "dp" },
            { WM_ALIGN_ALGO_FOUR_RUSSIANS, 0, "four-russians t=0" },
            { WM_ALIGN_ALGO_FOUR_RUSSIANS, 1, "four-russians t=1" },
            { WM_ALIGN_ALGO_FOUR_RUSSIANS, 3, "four-russians t=3" },
        };
        for (size_t i = 0; i < N_OF(over); i++)
            for (int cg = 0; cg < 2; cg++) {
                wm_align_opts_t b = g;
                b.algo = over[i].algo;
                b.fr_t = over[i].fr_t;
                b.cigar = cg;
                memset(&out, 0, sizeof out);
                double t0 = now_s();
                int rc = wm_align(cf->cx, a, L, bb, L, &b, &out);
                double dt = now_s() - t0;
                const char *msg = wm_context_errmsg(cf->cx);
                snprintf(what, sizeof what,
                         "%s on %zu x %zu (cigar %d): WM_UNSUPPORTED at once"
                         " (took %.2f s) with a message (\"%.120s\")",
                         over[i].name, L, L, cg, dt, msg ? msg : "(NULL)");
                check_true(what, rc == WM_UNSUPPORTED && dt < 2.0 && msg && msg[0]);
                if (rc == WM_OK) wm_alignments_free(&out);
            }
        {
            wm_align_opts_t b = g;
            b.algo = WM_ALIGN_ALGO_DP;
            b.cigar = 1;
            wm_pair_t p[3] = { { q, 4, t, 3 }, { a, L, bb, L }, { q, 4, t, 3 } };
            wm_alignment_t o3[3];
            memset(o3, 0, sizeof o3);
            double t0 = now_s();
            int rc = wm_align_pairs(cf->cx, p, 3, &b, o3);
            double dt = now_s() - t0;
            snprintf(what, sizeof what,
                     "wm_align_pairs, dp, pair 1 over WM_ALIGN_MAX_CELLS: "
                     "WM_UNSUPPORTED at once (%.2f s), a message, nothing allocated",
                     dt);
            check_true(what, rc == WM_UNSUPPORTED && dt < 2.0 && wm_context_errmsg(cf->cx)[0] &&
                                 o3[0].cigar == NULL && o3[2].cigar == NULL);
            /* the same as columns: the message names pair 1, nothing is left */
            uint64_t qo[4] = { 0, 4, 4 + L, 8 + L }, to[4] = { 0, 3, 3 + L, 6 + L };
            uint8_t *qb = xcalloc(8 + L, 1), *tb = xcalloc(6 + L, 1);
            memcpy(qb, q, 4), memcpy(qb + 4, a, L), memcpy(qb + 4 + L, q, 4);
            memcpy(tb, t, 3), memcpy(tb + 3, bb, L), memcpy(tb + 3 + L, t, 3);
            wm_pairs_packed_t in = { 3, qb, qo, tb, to };
            wm_pair_results_t res;
            rc = wm_align_pairs_packed(cf->cx, &in, &b, &res);
            snprintf(what, sizeof what,
                     "wm_align_pairs_packed, dp, pair 1 over WM_ALIGN_MAX_CELLS: WM_UNSUPPORTED, "
                     "'pair 1: ...' (\"%.80s\"), results empty",
                     wm_context_errmsg(cf->cx));
            check_true(what, rc == WM_UNSUPPORTED &&
                                 strncmp(wm_context_errmsg(cf->cx), "pair 1: ", 8) == 0 &&
                                 res.n == 0 && !res.distance && !res.cigar && !res.cigar_off);
            /* offsets that decrease, NULL offsets, no pairs */
            uint64_t down[4] = { 0, 4, 2, 8 };
            wm_pairs_packed_t bad = { 3, qb, down, tb, to };
            rc = wm_align_pairs_packed(cf->cx, &bad, &b, &res);
            snprintf(what, sizeof what,
                     "wm_align_pairs_packed, query offsets 4 then 2: WM_INVALID naming pair 1 "
                     "(\"%.80s\")",
                     wm_context_errmsg(cf->cx));
            check_true(what, rc == WM_INVALID &&
                                 strncmp(wm_context_errmsg(cf->cx), "pair 1: ", 8) == 0 &&
                                 res.distance == NULL);
            wm_pairs_packed_t none = { 3, qb, NULL, tb, to };
            rc = wm_align_pairs_packed(cf->cx, &none, &b, &res);
            check_true("wm_align_pairs_packed, NULL query offsets: WM_INVALID", rc == WM_INVALID);
            wm_pairs_packed_t zero = { 0, NULL, NULL, NULL, NULL };
            b.algo = WM_ALIGN_ALGO_AUTO;
            rc = wm_align_pairs_packed(cf->cx, &zero, &b, &res);
            check_true("wm_align_pairs_packed, no pairs: WM_OK, n = 0, cigar_off[0] = 0, \"\"",
                       rc == WM_OK && res.n == 0 && res.cigar_off && res.cigar_off[0] == 0 &&
                           res.cigar && res.cigar[0] == 0);
            wm_pair_results_free(&res);
            free(qb);
            free(tb);
        }
        uint64_t d_or = 0;
        char *c_or = NULL;
        gcase pc;
        memset(&pc, 0, sizeof pc);
        pc.o = g;
        pc.q = a;
        pc.m = L;
        pc.t = bb;
        pc.n = L;
        pc.a.kind = AK_ACGT;
        pc.fam = F_EDITED;
        snprintf(pc.desc, sizeof pc.desc, "3 substitutions");
        double t0 = now_s();
        int exact = goracle_banded(a, L, bb, L, &g, 3, &d_or, &c_or);
        g_t_oracle += now_s() - t0;
        check_true("banded oracle on the 400,000 pair with band 3 is exact", exact);
        static const size_t ok_algos[] = { 0, 2 }; /* auto, bitvector */
        for (size_t i = 0; exact && i < N_OF(ok_algos); i++) {
            wm_align_opts_t b = g;
            b.cigar = 1;
            run_one(-1, &pc, cf, ok_algos[i], b, d_or, c_or);
        }
        free(c_or);
        free(a);
        free(bb);
    }
}

/* ==== 6. big pairs ========================================================== */

/* Random ACGT of length L and a copy with about per_10k / 10,000 edits per
** base (substitutions by another base, insertions, deletions, a third each).
** Returns the edits made: an upper bound of the distance. */
static size_t plant(size_t L, unsigned per_10k, uint8_t **q, uint8_t **t, size_t *n) {
    static const char BASES[] = "ACGT";
    uint8_t *a = xmalloc(L);
    for (size_t i = 0; i < L; i++) a[i] = (uint8_t) "ACGT"[below(4)];
    uint8_t *b = xmalloc(L + L / 50 + 16);
    size_t j = 0, edits = 0;
    for (size_t i = 0; i < L; i++) {
        if (below(10000) < per_10k) {
            edits++;
            uint64_t w = below(3);
            if (w == 0) { /* another base */
                size_t x = (size_t)(strchr(BASES, a[i]) - BASES);
                b[j++] = (uint8_t)BASES[(x + 1 + (size_t)below(3)) % 4];
                continue;
            }
            if (w == 1) {
                b[j++] = (uint8_t) "ACGT"[below(4)];
                b[j++] = a[i];
                continue;
            }
            continue; /* deletion */
        }
        b[j++] = a[i];
    }
    *q = a;
    *t = b;
    *n = j;
    return edits;
}

typedef struct {
    config *cf;
    size_t algo; /* index in ALGOS */
    int cigar;
    int64_t k; /* K_D_MINUS_1, K_D: relative to the distance */
} brun;
#define K_D_MINUS_1 (-100)
#define K_D (-101)

/* A random ACGT pair of length L with about per_10k edits per 10,000 bases,
** checked against the banded oracle (band = the edits planted, >= the
** distance, so exact), then each run of runs[0, n_runs). */
static void big_vs_banded(const char *label, size_t L, unsigned per_10k, uint64_t salt,
                          const brun *runs, size_t n_runs) {
    g_rng = g_seed ^ salt;
    gcase c;
    memset(&c, 0, sizeof c);
    c.a.kind = AK_DNA;
    c.fam = F_EDITED;
    c.o = wm_align_opts_default();
    c.o.mode = WM_ALIGN_GLOBAL;
    c.o.alphabet = WM_ALPHABET_DNA;
    size_t E = plant(L, per_10k, &c.q, &c.t, &c.n);
    c.m = L;
    c.n_edits = E;
    snprintf(c.desc, sizeof c.desc, "%s, %zu edits planted", label, E);
    double t0 = now_s();
    uint64_t d = 0;
    char *want = NULL;
    int exact = goracle_banded(c.q, c.m, c.t, c.n, &c.o, E, &d, &want);
    double dt = now_s() - t0;
    g_t_oracle += dt;
    printf("big pair %s: %zu x %zu, %zu edits planted: banded oracle distance %" PRIu64
           " (%.2f s)\n",
           label, c.m, c.n, E, d, dt);
    fflush(stdout);
    char buf[200];
    snprintf(buf, sizeof buf,
             "big pair %s: the banded oracle is exact with band = the edits"
             " planted",
             label);
    check_true(buf, exact && d <= E);
    for (size_t r = 0; exact && r < n_runs; r++) {
        if (runs[r].cf == NULL) continue;
        wm_align_opts_t o = c.o;
        o.cigar = runs[r].cigar;
        o.max_distance = runs[r].k == K_D_MINUS_1 ? (int64_t)d - 1
                         : runs[r].k == K_D       ? (int64_t)d
                                                  : runs[r].k;
        t0 = now_s();
        run_one(-1, &c, runs[r].cf, runs[r].algo, o, d, want);
        printf("  %s, %s, cigar %d, max_distance %" PRId64 ": %.2f s\n", runs[r].cf->name,
               ALGOS[runs[r].algo].name, runs[r].cigar, o.max_distance, now_s() - t0);
        fflush(stdout);
    }
    free(want);
    free_case(&c);
}

static void big_pairs(config *cfgs, size_t n_cfg, double scale) {
    config *cpu1 = &cfgs[0], *cpu3 = &cfgs[1], *cuda = NULL;
    for (size_t i = 0; i < n_cfg; i++)
        if (cfgs[i].backend == WM_BACKEND_CUDA) cuda = &cfgs[i];
    wm_align_opts_t g = wm_align_opts_default();
    g.mode = WM_ALIGN_GLOBAL;
    g.alphabet = WM_ALPHABET_DNA;

    /* 20,000 at ~1 %: every algorithm over 4 * 10^8 cells, many blocks and
    ** anti-diagonals for the threads; CUDA's CIGARs from a second GPU pass
    ** (the estimate would take the CPU's for so narrow a band) */
    if (cuda) {
        wm_context_tuning(cuda->cx)->global_ckpts = 2;
        wm_context_tuning(cuda->cx)->global_meet_min = 0; /* the library's: from both ends */
    }
    {
        const brun runs[] = {
            { cpu3, 1, 1, -1 },          { cpu3, 4, 0, -1 },          { cpu3, 5, 1, -1 },
            { cpu1, 5, 0, K_D_MINUS_1 }, { cpu1, 1, 0, K_D },         { cpu3, 2, 1, K_D },
            { cpu3, 0, 1, -1 },          { cuda, 1, 1, -1 },          { cuda, 5, 1, -1 },
            { cuda, 2, 1, -1 },          { cuda, 4, 0, K_D_MINUS_1 },
        };
        big_vs_banded("20,000", 20000, 100, 0x20000ull, runs, N_OF(runs));
    }
    /* 100,000 at ~1 %: bitvector and auto; dp and four-russians t = 3 (10^10
    ** cells) at WM_TEST_SCALE >= 2; CUDA's checkpoints as the library
    ** picks them, kept by the distance pass (and below, for 1,000,000) */
    if (cuda) {
        wm_context_tuning(cuda->cx)->global_ckpts = 0;
        wm_context_tuning(cuda->cx)->timing = 1; /* to count the kept checkpoints */
        memset((void *)wm_context_stats(cuda->cx), 0, sizeof(wm_stats_t));
    }
    {
        int big = scale >= 2;
        const brun runs[] = {
            { cpu1, 2, 1, -1 },
            { cpu1, 2, 0, -1 },
            { cpu3, 2, 1, -1 },
            { cpu3, 0, 1, -1 },
            { cpu1, 2, 0, K_D_MINUS_1 },
            { cpu1, 2, 1, K_D },
            { cuda, 2, 1, -1 },
            { cuda, 0, 0, -1 },
            { big ? cpu3 : NULL, 1, 0, -1 },
            { big ? cpu3 : NULL, 5, 0, -1 },
            { big ? cuda : NULL, 5, 0, -1 },
            { big ? cuda : NULL, 1, 0, -1 },
        };
        big_vs_banded("100,000", 100000, 100, 0x100000ull, runs, N_OF(runs));
    }
    if (cuda) { /* the CIGAR's run above took the checkpoints its distance pass kept */
        const wm_stats_t *s = wm_context_stats(cuda->cx);
        wm_context_tuning(cuda->cx)->timing = 0;
        if (s->global_gpu_ckpts_kept == 0) {
            printf("FAIL: 100,000 on CUDA: no CIGAR took the checkpoints its distance pass kept\n");
            g_failed++;
        } else g_passed++;
    }

    if (scale < 2) return;
    /* 1,000,000 at ~1 %: no oracle; replay and agreement */
    {
        g_rng = g_seed ^ 0x1000000ull;
        gcase c;
        memset(&c, 0, sizeof c);
        c.a.kind = AK_DNA;
        c.fam = F_EDITED;
        c.o = g;
        size_t E = plant(1000000, 100, &c.q, &c.t, &c.n);
        c.m = 1000000;
        snprintf(c.desc, sizeof c.desc, "%zu edits planted", E);
        wm_align_opts_t o = g;
        o.algo = WM_ALIGN_ALGO_BITVECTOR;
        o.cigar = 1;
        wm_alignments_t r0;
        memset(&r0, 0, sizeof r0);
        double t0 = now_s();
        int rc = wm_align(cpu1->cx, c.q, c.m, c.t, c.n, &o, &r0);
        double dt = now_s() - t0;
        g_t_lib += dt;
        printf("big pair: 1,000,000 x %zu, %zu edits planted: bitvector with CIGAR %.2f s, "
               "distance %" PRIu64 "\n",
               c.n, E, dt, rc == WM_OK && r0.n == 1 ? r0.a[0].distance : (uint64_t)0);
        fflush(stdout);
        char why[200] = "", buf[600];
        int ok = rc == WM_OK && r0.n == 1 && r0.a[0].cigar != NULL && r0.a[0].distance <= E &&
                 r0.a[0].distance >= E / 2 && r0.a[0].start == 0 && r0.a[0].end == c.n &&
                 goracle_cigar_replay(r0.a[0].cigar, c.q, c.m, c.t, c.n, r0.a[0].distance, &c.o,
                                      NULL, why, sizeof why);
        snprintf(buf, sizeof buf,
                 "1,000,000 pair, bitvector, cigar: WM_OK (%d), [0,n), distance "
                 "<= %zu planted (and >= half of them), the CIGAR replays (%s)",
                 rc, E, why);
        check_true(buf, ok);
        if (ok) {
            uint64_t d = r0.a[0].distance;
            brun runs[6];
            size_t nr = 0;
            runs[nr++] = (brun){ cpu1, 2, 0, -1 };
            runs[nr++] = (brun){ cpu1, 2, 0, (int64_t)d - 1 };
            runs[nr++] = (brun){ cpu1, 2, 0, (int64_t)d };
            runs[nr++] = (brun){ cpu3, 2, 1, -1 };
            runs[nr++] = (brun){ cpu3, 0, 1, -1 };
            if (cuda) runs[nr++] = (brun){ cuda, 2, 1, -1 };
            for (size_t r = 0; r < nr; r++) {
                wm_align_opts_t oo = g;
                oo.cigar = runs[r].cigar;
                oo.max_distance = runs[r].k;
                t0 = now_s();
                run_one(-1, &c, runs[r].cf, runs[r].algo, oo, d, r0.a[0].cigar);
                printf("  %s, %s, cigar %d, max_distance %" PRId64 ": %.2f s\n", runs[r].cf->name,
                       ALGOS[runs[r].algo].name, runs[r].cigar, runs[r].k, now_s() - t0);
                fflush(stdout);
            }
        }
        if (rc == WM_OK) wm_alignments_free(&r0);
        free_case(&c);
    }
}

/* ==== main ================================================================== */

/* The contexts of every case. */
static config g_cfgs[4];
static size_t g_n_cfg;

static void one_case(long idx) {
    gcase c;
    gen_case(&c);
    run_case(idx, &c, g_cfgs, g_n_cfg, (uint64_t)c.m * c.n > 250000);
    free_case(&c);
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases =
        test_begin("test_global_diff", argc, argv, 20240705ull, 2000, describe_case, &only);
    double scale = g_scale;
    if (scale >= 3) g_n_algos = N_OF(ALGOS);

    /* 1. the oracle */
    oracle_hand_examples();
    if (only < 0) oracle_random_self_check();
    if (oracle_verdict()) return 1;

    /* contexts: cpu 1 thread, cpu 3 threads (t = 4 here only), cpu 3 threads
    ** with a small chunk (short cases), cuda when a GPU is found */
    if (make_context(&g_cfgs[g_n_cfg], WM_BACKEND_CPU, 1, 0)) g_n_cfg++;
    if (make_context(&g_cfgs[g_n_cfg], WM_BACKEND_CPU, 3, 0)) g_cfgs[g_n_cfg++].flags = CF_T4;
    if (make_context(&g_cfgs[g_n_cfg], WM_BACKEND_CPU, 3, 97))
        g_cfgs[g_n_cfg++].flags = CF_SHORT_ONLY;
    if (g_n_cfg < 3) return test_finish();
    if (cuda_present(NULL) && make_context(&g_cfgs[g_n_cfg], WM_BACKEND_CUDA, 1, 0)) g_n_cfg++;

    /* 2. every context */
    if (only < 0) {
        for (size_t i = 0; i < g_n_cfg; i++)
            if (!(g_cfgs[i].flags & CF_SHORT_ONLY)) api_per_context(&g_cfgs[i]);
        part_done("every context");
    }

    /* 3. random cases */
    run_cases(n_cases, only, 7, 500, one_case);

    if (only < 0 && !self_fail) {
        double t0 = now_s();
        long_cases(g_cfgs, g_n_cfg, scale); /* 4 */
        printf("long cases: %.1f s\n", now_s() - t0);
        pairs_part(g_cfgs, g_n_cfg, scale); /* 5 */
        warp_part(g_cfgs, g_n_cfg, scale);  /* 5b */
        t0 = now_s();
        big_pairs(g_cfgs, g_n_cfg, scale); /* 6 */
        printf("big pairs: %.1f s\n", now_s() - t0);
    }

    close_configs(g_cfgs, g_n_cfg);

    printf("coverage: %ld cases; d = 0 %ld, d = max(m, n) %ld, one empty %ld, both empty %ld,"
           " m or n > 1000 %ld, a length not a multiple of 3 %ld\n",
           g_cov.cases, g_cov.d0, g_cov.d_max, g_cov.empty_one, g_cov.empty_both, g_cov.m_big,
           g_cov.t_ragged);
    print_time_split();
    printf(" (");
    for (size_t a = 0; a < g_n_algos; a++)
        printf("%s%s %.1f s", a ? ", " : "", ALGOS[a].name, g_t_algo[a]);
    printf(")\n");
    print_repro(argv[0], "every part but the random cases");
    return test_finish();
}
