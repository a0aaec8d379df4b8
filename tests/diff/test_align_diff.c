/*
** test_align_diff.c -- wm_align in infix (ASM) mode against the brute-force
** oracle (tests/oracle/aoracle.c).
**
** 1. The oracle checks itself: hand-worked examples (the leftmost end is not
**    always the longest match; the largest start; ties; the empty substring
**    e = 0; a query longer than the target; an empty target; DNA with N, U and
**    lower case; case folding; NUL bytes), the CIGAR replayer on good and bad
**    CIGARs, then random tiny cases on which its four methods (column DP
**    carrying starts, the definition over every (s, e), a reversed DP per end,
**    the full matrix with traceback) must agree, every traceback CIGAR
**    replaying. The random cases of part 3 repeat the cross-checks (full
**    traceback on the first and a random end when the matrix is small, the
**    reversed DP on the first end always and on a random one unless m is
**    large).
** 2. Small cases worked out by hand, on every max_distance / cigar /
**    all_ends / algorithm, against the oracle: an empty target (d = m,
**    [0, 0), CIGAR "mI"), a query longer than the target, case folding, DNA
**    with N and U, NUL bytes. The arguments of wm_align (NULLs, bad enums,
**    empty and too long queries) are tests/unit/test_api_align.c's.
** 3. Seeded random cases (1,500 at WM_TEST_SCALE=1). Families:
**    - alphabets: 2 symbols ('0'/'1' or bytes 0/1), ACGT bytes, 20 amino
**      acids, all 256 bytes (NUL included; letter-heavy with case folding a
**      quarter of the time), 3..16 random bytes, one symbol (with rare
**      defects), letters of both cases with case_insensitive (plus '@' '`'
**      '[' '{', which differ by 0x20 but do not fold), and the DNA alphabet
**      (lower case, U/u, N/n, IUPAC codes and junk bytes in query and target;
**      case_insensitive set at random, which must change nothing);
**    - m 1..2,000 (1; 2..16; 17..64; 31/32/33, 63/64/65, ... 255/256/257 for
**      the bit-vector word borders; 65..400; 401..2,000), n 0..100,000, with
**      m * n held under 400,000 cells (2 million when m > 1,000, 4 million in
**      4% of the cases) by shortening one of them, so both m = 2,000 and
**      n = 100,000 occur;
**    - targets: random; edited copies of the query (0, 1..3, up to m/10 or
**      m/3 substitutions, insertions, deletions; case flips and T/U swaps that
**      change nothing) planted at the very start, the very end, the middle
**      and straddling chunk borders of the case's tiny chunk sizes; the same
**      copy at both ends (ties: the leftmost end wins); the same copy at 2..6
**      places; periodic targets with a periodic query (many equal ends);
**      a target shorter than the query (n < m, built from a piece of it);
**      the query itself with edits; 2..4 edited copies back to back (0..3
**      bytes apart; m > 64 favoured: the bit-vector band must follow a match
**      that begins right where another ended); an empty target;
**    - options: max_distance -1, 0, d - 1 (nothing reported), d, d + 1..3,
**      >= m, random; all_ends and cigar on or off.
**    Each case runs algorithms AUTO, WAVEFRONT and BITVECTOR on the CPU with
**    1 thread and the default chunk, 1 thread and a tiny chunk (1..300 bytes,
**    larger when m is large so that the 2m overlap of each chunk stays
**    affordable), 3 threads and another tiny chunk; on CUDA (default and tiny
**    chunk) when a GPU is present. Every run must give the oracle's distance,
**    start and end (every end with all_ends), nothing when d > max_distance,
**    CIGAR NULL without opts.cigar; every CIGAR must replay (ops, counts,
**    consumption, cost = distance) and be the same string on every backend,
**    algorithm, thread count and chunk size. Then a sweep on one
**    configuration, every algorithm: max_distance d - 1 gives nothing and
**    max_distance d gives the answer.
** 4. One long case: a random ACGT query planted with 5% edits (substitutions,
**    insertions, deletions) in a random ACGT target -- 100,000 in 250,000
**    bases at WM_TEST_SCALE >= 2, 20,000 in 50,000 below. Too large for the
**    oracle's O(mn) DP, so: AUTO (no limit) and BITVECTOR (max_distance = the
**    edits planted) and, at scale < 2, AUTO with 3 threads and chunks of
**    n/4 + 7 bytes (so that chunk borders cut the alignment) must agree; the
**    distance is at most the edits planted, start and end lie within that
**    many bytes of the plant, and the CIGAR replays with the distance.
**
** Readings of the contract this test takes (include/warpmatch.h): unknown
** enum values in the options are WM_INVALID; a NULL query or target with a
** non-zero length is WM_INVALID; the length of the query is checked before
** its bytes are read; with all_ends the list is every end reaching the best
** distance (not every end within max_distance); the CIGAR of an end is the
** same string for every backend and algorithm given the same options.
**
** Timing (2 cores, CPU backend; aimed for: under 60 s wall for each CI run,
** measured on a machine busy with other builds): WM_TEST_SCALE=1 in Release
** about 8 s; WM_TEST_SCALE=3 in Release about 23 s of CPU (32 s wall); scale
** 1 under ASan + UBSan about 20 s of CPU (28 s wall). The last lines split
** the wall time between the oracle and the library and name the slowest
** cases.
**
** Usage: test_align_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of random cases [1.0]
**        WM_CASE        run only this random case index (reproduce a failure;
**                       -1: only parts 1, 2 and 4)
**        WM_VERBOSE     print each failing case's query and target in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aoracle.h"
#include "warpmatch.h"

#include "alphabet.h"
#include "contexts.h"
#include "harness.h"
#include "rng.h"

/* ==== timing and coverage =================================================== */

static double g_t_cfg[8];  /* wall seconds in wm_align, by configuration */
static double g_slow_t[3]; /* the three slowest random cases */
static long g_slow_i[3] = { -1, -1, -1 };

static struct {
    long cases, d0, d_eq_m, end0, at_target_end, at_target_start, ties, many_ends, shorter, empty,
        across_chunk, pruned, m_big, n_big, full_checked;
    uint64_t ends, cigars;
} g_cov;

static const char *algo_str(wm_align_algo_t a) {
    switch (a) {
    case WM_ALIGN_ALGO_AUTO: return "auto";
    case WM_ALIGN_ALGO_WAVEFRONT: return "wavefront";
    case WM_ALIGN_ALGO_BITVECTOR: return "bitvector";
    default: return "?";
    }
}

static const wm_align_algo_t ALGOS[] = { WM_ALIGN_ALGO_AUTO, WM_ALIGN_ALGO_WAVEFRONT,
                                         WM_ALIGN_ALGO_BITVECTOR };

/* Options with every field zero: infix, auto, BYTES... and k = 0, so callers
** set max_distance. Not wm_align_opts_default(): the oracle stands alone. */
static wm_align_opts_t zero_opts(void) {
    wm_align_opts_t o;
    memset(&o, 0, sizeof o);
    o.max_distance = -1;
    return o;
}

/* ==== 1. oracle self-check ================================================== */

typedef struct {
    uint64_t start, end;
} span;

#define B(s) (const uint8_t *)(s), (sizeof(s) - 1)

/* One hand-worked example: q in t must give distance d and exactly the ends
** `want` (with their starts). cigar0: the CIGAR of the first end when it is
** the only optimal one (NULL: just replay). Every method is checked. */
static void expect_infix(const char *name, const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                         const wm_align_opts_t *o, uint64_t d, const span *want, size_t n_want,
                         const char *cigar0) {
    for (int way = 0; way < 2; way++) {
        aoracle_infix_t r;
        if (way == 0) aoracle_infix(q, m, t, n, o, &r);
        else aoracle_naive(q, m, t, n, o, &r);
        int ok = r.d == d && r.n_ends == n_want;
        for (size_t i = 0; ok && i < n_want; i++)
            ok = r.start[i] == want[i].start && r.end[i] == want[i].end;
        if (!ok) {
            self_fail++;
            printf("oracle self-check FAILED (%s): %s: d %" PRIu64 " (want %" PRIu64 "), %zu"
                   " ends (want %zu):",
                   way == 0 ? "aoracle_infix" : "aoracle_naive", name, r.d, d, r.n_ends, n_want);
            for (size_t i = 0; i < r.n_ends; i++)
                printf(" [%" PRIu64 ",%" PRIu64 ")", r.start[i], r.end[i]);
            printf("\n");
        }
        aoracle_infix_free(&r);
    }
    for (size_t i = 0; i < n_want; i++) {
        uint64_t de = 0, s = aoracle_start(q, m, t, want[i].end, o, &de);
        if (de != d || s != want[i].start) {
            self_fail++;
            printf("oracle self-check FAILED (aoracle_start): %s: end %" PRIu64 ": d %" PRIu64
                   " start %" PRIu64 ", want %" PRIu64 " %" PRIu64 "\n",
                   name, want[i].end, de, s, d, want[i].start);
        }
        char *cg = NULL, why[200];
        aoracle_full(q, m, t, n, want[i].end, o, &de, &s, &cg);
        if (de != d || s != want[i].start ||
            !aoracle_cigar_replay(cg, q, m, t, n, s, want[i].end, d, o, why, sizeof why) ||
            (i == 0 && cigar0 && strcmp(cg, cigar0) != 0)) {
            self_fail++;
            printf("oracle self-check FAILED (aoracle_full): %s: end %" PRIu64 ": d %" PRIu64
                   " start %" PRIu64 " CIGAR %s, want %" PRIu64 " %" PRIu64 " %s\n",
                   name, want[i].end, de, s, cg, d, want[i].start, i == 0 && cigar0 ? cigar0 : "");
        }
        free(cg);
    }
}

static void expect_replay(const char *name, const char *cigar, const uint8_t *q, size_t m,
                          const uint8_t *t, size_t n, uint64_t start, uint64_t end, uint64_t dist,
                          const wm_align_opts_t *o, int want_ok) {
    char why[200] = "";
    int ok = aoracle_cigar_replay(cigar, q, m, t, n, start, end, dist, o, why, sizeof why);
    if (ok != want_ok) {
        self_fail++;
        printf("oracle self-check FAILED (aoracle_cigar_replay): %s: \"%s\" %s (%s)\n", name,
               cigar ? cigar : "(NULL)", ok ? "replays" : "does not replay", why);
    }
}

static void oracle_hand_examples(void) {
    wm_align_opts_t o = zero_opts();

    /* "ACGT" in "xxACTGTxx" (x0 x1 A2 C3 T4 G5 T6 x7 x8). No exact match.
    ** t[2,5) = "ACT" is ACGT with its G deleted: 1, so D[4][5] = 1 and e = 5
    ** is the leftmost end at distance 1 (no e <= 4 can reach 1: t[2,4) = "AC"
    ** is 2 away). Starts: "CT" is 2 away, so s = 2. CIGAR 2=1I1= (the only
    ** way at cost 1). t[2,7) = "ACTGT" is ACGT with a T inserted: 1 again,
    ** e = 7; "CTGT" is 2 away, start 2. e = 6 ("...ACTG") and e = 8, 9 (ending
    ** in x) cost 2. */
    {
        span w[] = { { 2, 5 }, { 2, 7 } };
        expect_infix("ACGT in xxACTGTxx", B("ACGT"), B("xxACTGTxx"), &o, 1, w, N_OF(w), "2=1I1=");
        expect_infix("ACGT in ACTGT", B("ACGT"), B("ACTGT"), &o, 1, (span[]){ { 0, 3 }, { 0, 5 } },
                     2, "2=1I1=");
    }
    /* exact, twice: "abc" in "zabcabc": [1,4) and [4,7) */
    {
        span w[] = { { 1, 4 }, { 4, 7 } };
        expect_infix("abc in zabcabc", B("abc"), B("zabcabc"), &o, 0, w, N_OF(w), "3=");
    }
    /* query longer than the target: "ABCDE" in "BD": "BD" costs 3 (A, C, E
    ** left out), "D" or "B" 4, "" 5: d 3, [0,2), CIGAR 1I1=1I1=1I. */
    expect_infix("ABCDE in BD", B("ABCDE"), B("BD"), &o, 3, (span[]){ { 0, 2 } }, 1, "1I1=1I1=1I");
    /* empty target: d = m at e = 0 */
    expect_infix("A in empty", B("A"), (const uint8_t *)"", 0, &o, 1, (span[]){ { 0, 0 } }, 1,
                 "1I");
    /* nothing matches: "A" in "C": D[1][0] = 1 = D[1][1]; the leftmost end is
    ** e = 0; at e = 1 the largest start is 1 (the empty substring, 1I beats
    ** nothing, 1X ties but starts earlier). */
    expect_infix("A in C", B("A"), B("C"), &o, 1, (span[]){ { 0, 0 }, { 1, 1 } }, 2, "1I");
    /* "AA" in "A": "A" costs 1, "" 2: [0,1) */
    expect_infix("AA in A", B("AA"), B("A"), &o, 1, (span[]){ { 0, 1 } }, 1, NULL);
    /* "AB" in "AXB": e = 1: "A" = 1 (B left out); e = 2: "AX" 1 (X for B),
    ** "X" 2, "" 2 -> start 0; e = 3: "AXB" 1, "XB" 1, "B" 1 -> start 2.
    ** e = 0 costs 2. */
    expect_infix("AB in AXB", B("AB"), B("AXB"), &o, 1, (span[]){ { 0, 1 }, { 0, 2 }, { 2, 3 } }, 3,
                 "1=1I");
    /* periodic: "aba" in "ababa": [0,3) and [2,5) */
    expect_infix("aba in ababa", B("aba"), B("ababa"), &o, 0, (span[]){ { 0, 3 }, { 2, 5 } }, 2,
                 "3=");
    /* NUL bytes: "\0\1" in "\1\0\1\0": [1,3) */
    expect_infix("NUL bytes", B("\0\1"), B("\1\0\1\0"), &o, 0, (span[]){ { 1, 3 } }, 1, "2=");
    /* case: "AbC" and "xaBc" have no byte in common, so every substring costs
    ** max(3, length) >= 3 and the empty one 3: every end 0..4 with start = end.
    ** Folded: [1,4) exactly. '@' (0x40) and '`' (0x60) do not fold. */
    {
        span w[] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 } };
        expect_infix("AbC in xaBc", B("AbC"), B("xaBc"), &o, 3, w, N_OF(w), "3I");
        wm_align_opts_t ci = o;
        ci.case_insensitive = 1;
        expect_infix("AbC in xaBc -i", B("AbC"), B("xaBc"), &ci, 0, (span[]){ { 1, 4 } }, 1, "3=");
        expect_infix("@ in ` -i", B("@"), B("`"), &ci, 1, (span[]){ { 0, 0 }, { 1, 1 } }, 2, "1I");
    }
    /* DNA: N matches nothing, not even N. "ACGN" in "acgn": e = 3: "acg" 1
    ** (N left out); e = 4: "acgn" 1 (N for n is a mismatch), "cgn" 2 -> start 0.
    ** e = 2 "ac" 2. */
    {
        wm_align_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        expect_infix("DNA ACGN in acgn", B("ACGN"), B("acgn"), &d, 1,
                     (span[]){ { 0, 3 }, { 0, 4 } }, 2, "3=1I");
        /* U reads as T on both sides, case folded: "ACU" in "xact" at [1,4) */
        expect_infix("DNA ACU in xact", B("ACU"), B("xact"), &d, 0, (span[]){ { 1, 4 } }, 1, "3=");
        expect_infix("DNA uT in Tu", B("uT"), B("Tu"), &d, 0, (span[]){ { 0, 2 } }, 1, "2=");
        /* "N" in "N": no match at all: ends 0 and 1, empty substrings */
        expect_infix("DNA N in N", B("N"), B("N"), &d, 1, (span[]){ { 0, 0 }, { 1, 1 } }, 2, "1I");
        /* case_insensitive changes nothing in DNA */
        d.case_insensitive = 1;
        expect_infix("DNA -i N in n", B("N"), B("n"), &d, 1, (span[]){ { 0, 0 }, { 1, 1 } }, 2,
                     "1I");
        /* BYTES: N is N */
        expect_infix("BYTES NN in NN", B("NN"), B("NN"), &o, 0, (span[]){ { 0, 2 } }, 1, "2=");
    }

    /* the CIGAR replayer */
    {
        const uint8_t *q = (const uint8_t *)"ACGT", *t = (const uint8_t *)"xxACTGTxx";
        expect_replay("ok D", "2=1D2=", q, 4, t, 9, 2, 7, 1, &o, 1);
        expect_replay("ok I", "2=1I1=", q, 4, t, 9, 2, 5, 1, &o, 1);
        expect_replay("ok XX", "2=2X", q, 4, t, 9, 2, 6, 2, &o, 1);
        expect_replay("unmerged runs", "1=1=1I1=", q, 4, t, 9, 2, 5, 1, &o, 1);
        expect_replay("= on unequal", "4=", q, 4, t, 9, 2, 6, 0, &o, 0);
        expect_replay("X on equal", "1X1=1I1=", q, 4, t, 9, 2, 5, 2, &o, 0);
        expect_replay("cost != distance", "2=2X", q, 4, t, 9, 2, 6, 1, &o, 0);
        expect_replay("no count", "2==1I1=", q, 4, t, 9, 2, 5, 1, &o, 0);
        expect_replay("count 0", "2=0D1I1=", q, 4, t, 9, 2, 5, 1, &o, 0);
        expect_replay("count without op", "2=1D2", q, 4, t, 9, 2, 7, 1, &o, 0);
        expect_replay("I past the query", "2=1D2=1I", q, 4, t, 9, 2, 7, 2, &o, 0);
        expect_replay("query not consumed", "2=1D1=", q, 4, t, 9, 2, 6, 1, &o, 0);
        expect_replay("target not consumed", "2=1D2=", q, 4, t, 9, 2, 8, 1, &o, 0);
        expect_replay("D past the end", "2=3D2=", q, 4, t, 9, 2, 7, 3, &o, 0);
        expect_replay("unknown op", "2=1P2=", q, 4, t, 9, 2, 7, 1, &o, 0);
        expect_replay("M is not ours", "5M", q, 4, t, 9, 2, 7, 1, &o, 0);
        expect_replay("empty", "", q, 4, t, 9, 2, 2, 4, &o, 0);
        expect_replay("NULL", NULL, q, 4, t, 9, 2, 5, 1, &o, 0);
        expect_replay("start > end", "4I", q, 4, t, 9, 5, 4, 4, &o, 0);
        expect_replay("end > n", "4I", q, 4, t, 9, 10, 10, 4, &o, 0);
        expect_replay("huge count", "99999999999999999999999=", q, 4, t, 9, 2, 6, 0, &o, 0);
        expect_replay("all I at n", "4I", q, 4, t, 9, 9, 9, 4, &o, 1);
        wm_align_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        expect_replay("DNA N X", "1X", (const uint8_t *)"N", 1, (const uint8_t *)"N", 1, 0, 1, 1,
                      &d, 1);
        expect_replay("DNA N =", "1=", (const uint8_t *)"N", 1, (const uint8_t *)"N", 1, 0, 1, 0,
                      &d, 0);
        expect_replay("DNA U =", "3=", (const uint8_t *)"ACU", 3, (const uint8_t *)"act", 3, 0, 3,
                      0, &d, 1);
        wm_align_opts_t ci = o;
        ci.case_insensitive = 1;
        expect_replay("-i =", "2=", (const uint8_t *)"Ab", 2, (const uint8_t *)"aB", 2, 0, 2, 0,
                      &ci, 1);
        expect_replay("no -i X", "2X", (const uint8_t *)"Ab", 2, (const uint8_t *)"aB", 2, 0, 2, 2,
                      &o, 1);
    }
}

/* ==== case generation ======================================================= */

typedef enum {
    F_RANDOM,    /* random target */
    F_PLANT,     /* edited copies at the start, end, middle, chunk borders */
    F_BOTH_ENDS, /* the same copy at both ends */
    F_REPEAT,    /* the same copy at 2..6 places */
    F_PERIODIC,  /* periodic target and query */
    F_SHORT,     /* n < m, from a piece of the query */
    F_SELF,      /* the query with edits */
    F_TANDEM,    /* 2..4 edited copies back to back */
    F_EMPTY,     /* n = 0 */
    F_COUNT
} family;

static const char *const F_NAME[F_COUNT] = { "random",       "planted",       "both ends",
                                             "repeated",     "periodic",      "target shorter",
                                             "query edited", "tandem copies", "empty target" };

typedef struct {
    alphabet_t a; /* the symbols of random bytes */
    family fam;
    wm_align_opts_t o; /* alphabet and case_insensitive, from a */
    uint8_t *q;
    size_t m;
    uint8_t *t;
    size_t n;
    uint64_t chunk[2]; /* the tiny chunk sizes of the case */
    size_t n_edits;    /* edits of the planted copies */
    char plants[160];  /* where copies went, for reports */
} acase;

static size_t pick_edits(size_t m) {
    uint64_t r = below(100);
    if (r < 25) return 0;
    if (r < 60) return (size_t)range(1, 3);
    if (r < 85) return (size_t)range(0, m / 10 + 1);
    return (size_t)range(0, m / 3 + 1);
}

static size_t pick_m(void) {
    static const size_t edges[] = { 31,  32,  33,  63,  64,  65,  127, 128,
                                    129, 191, 192, 193, 255, 256, 257 };
    uint64_t r = below(100);
    if (r < 6) return 1;
    if (r < 35) return (size_t)range(2, 16);
    if (r < 60) return (size_t)range(17, 64);
    if (r < 72) return edges[below(N_OF(edges))];
    if (r < 91) return (size_t)range(65, 400);
    return (size_t)range(401, 2000);
}

static size_t pick_n(size_t m) {
    const span_t N[] = {
        { 45, 0, 4 * m + 50 },
        { 80, 1, 5000 },
        { 95, 5001, 30000 },
        { 100, 30001, 100000 },
    };
    return (size_t)pick_span(N, N_OF(N), 100);
}

#define CELL_CAP 400000u         /* m * n per case, most cases */
#define CELL_CAP_LONG_Q 2000000u /* when m > 1,000 (so that n reaches m and more) */
#define CELL_CAP_BIG 4000000u    /* in 4% of the cases */
#define CIGAR_CAP 150000u        /* ends * m with all_ends and cigar (else cigar off) */

/* A tiny chunk: 1..300 bytes (often 1..16), grown when the many chunks'
** overlaps (about 2m columns each) would cost much more than the scan. */
static uint64_t tiny_chunk(size_t m, size_t n) {
    uint64_t ch = chance(30) ? range(1, 16) : range(1, 300);
    double over = (double)(n / ch + 1) * 2.0 * (double)m * (double)m;
    double allowed = 1.5 * (double)n * (double)m + 100000.0;
    if (over > allowed) {
        uint64_t min_ch = (uint64_t)(2.0 * (double)m * (double)m * (double)n / allowed) + 1;
        ch = min_ch + below(min_ch / 2 + 1);
    }
    return ch;
}

/* Where a copy of length len goes: the very start, the very end, straddling
** a border of one of the tiny chunks, or anywhere. */
static size_t plant_pos(const acase *c, size_t len, char *tag) {
    size_t n = c->n;
    size_t room = n > len ? n - len : 0;
    uint64_t w = below(4);
    if (w == 0) {
        *tag = 's';
        return 0;
    }
    if (w == 1) {
        *tag = 'e';
        return room;
    }
    if (w == 2) {
        uint64_t ch = c->chunk[below(2)];
        uint64_t n_borders = n / ch;
        if (n_borders > 0) {
            uint64_t b = ch * range(1, n_borders);
            size_t back = len > 1 ? (size_t)below(len) : 0;
            size_t p = b > back ? (size_t)(b - back) : 0;
            *tag = 'b';
            return p < room ? p : room;
        }
    }
    *tag = 'r';
    return (size_t)below(room + 1);
}

static void write_at(acase *c, size_t pos, const uint8_t *x, size_t len) {
    for (size_t k = 0; k < len && pos + k < c->n; k++) c->t[pos + k] = x[k];
}

static void note_plant(acase *c, char tag, size_t pos) {
    size_t l = strlen(c->plants);
    if (l + 24 < sizeof c->plants)
        snprintf(c->plants + l, sizeof c->plants - l, "%s%c@%zu", l ? " " : "", tag, pos);
}

static void gen_case(acase *c) {
    memset(c, 0, sizeof *c);
    c->o = zero_opts();

    /* the alphabet */
    static const weighted_t KINDS[] = {
        { AK_BIN, 10 },   { AK_ACGT, 28 }, { AK_PROT20, 38 }, { AK_BYTE256, 50 },
        { AK_SMALL, 57 }, { AK_ONE, 61 },  { AK_CI, 70 },     { AK_DNA, 100 },
    };
    static const alphabet_style_t STYLE = { 99, 1, 5 };
    alphabet_pick(&c->a, KINDS, N_OF(KINDS), &STYLE);
    c->o.alphabet = c->a.kind == AK_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.case_insensitive = c->a.fold;
    static const weighted_t FAMILIES[] = {
        { F_RANDOM, 12 }, { F_PLANT, 42 },    { F_BOTH_ENDS, 50 },
        { F_REPEAT, 58 }, { F_PERIODIC, 65 }, { F_SHORT, 74 },
        { F_SELF, 82 },   { F_TANDEM, 97 },   { F_EMPTY, 100 },
    };
    c->fam = (family)pick_weighted(FAMILIES, N_OF(FAMILIES));

    /* sizes, m * n under the cap */
    c->m = pick_m();
    if (c->fam == F_TANDEM && c->m <= 64 && chance(80)) /* several words a column */
        c->m = (size_t)range(65, chance(80) ? 300 : 1200);
    if (c->fam == F_EMPTY) c->n = 0;
    else if (c->fam == F_SHORT) c->n = (size_t)below(c->m);
    else if (c->fam == F_SELF) c->n = (size_t)range(c->m / 2, c->m + c->m / 2 + 5);
    else if (c->fam == F_TANDEM) c->n = (size_t)range(2 * c->m, 6 * c->m + 100);
    else c->n = pick_n(c->m);
    uint64_t cap = chance(4) ? CELL_CAP_BIG : c->m > 1000 ? CELL_CAP_LONG_Q : CELL_CAP;
    if ((uint64_t)c->m * c->n > cap) {
        if (chance(50) && c->fam != F_SHORT && c->fam != F_SELF)
            c->m = (size_t)(cap / c->n) > 0 ? (size_t)(cap / c->n) : 1;
        else c->n = (size_t)(cap / c->m);
    }
    c->chunk[0] = tiny_chunk(c->m, c->n);
    c->chunk[1] = tiny_chunk(c->m, c->n);

    /* the query */
    c->q = malloc(c->m);
    assert(c->q != NULL);
    size_t period = (size_t)range(1, 4);
    uint8_t unit[4];
    for (size_t i = 0; i < period; i++) unit[i] = alphabet_byte(&c->a);
    if (c->fam == F_PERIODIC) {
        size_t off = (size_t)below(period);
        for (size_t i = 0; i < c->m; i++) c->q[i] = unit[(off + i) % period];
        for (size_t i = 0; i < c->m; i++)
            if (chance(2)) c->q[i] = alphabet_byte(&c->a);
    } else {
        for (size_t i = 0; i < c->m; i++) c->q[i] = alphabet_byte(&c->a);
    }

    /* the target */
    c->n_edits = pick_edits(c->m);
    size_t cap_copy = c->m + c->n_edits + c->m / 3 + 8; /* room for any later edits */
    uint8_t *copy = malloc(cap_copy);
    c->t = malloc(c->n + 1);
    assert(copy != NULL && c->t != NULL);
    if (c->fam == F_PERIODIC) {
        for (size_t i = 0; i < c->n; i++) c->t[i] = alphabet_disguise(&c->a, unit[i % period]);
        for (size_t i = 0; i < c->n; i++)
            if (chance(1)) c->t[i] = alphabet_byte(&c->a);
    } else {
        for (size_t i = 0; i < c->n; i++) c->t[i] = alphabet_byte(&c->a);
    }
    char tag;
    size_t len, pos;
    switch (c->fam) {
    case F_PLANT: {
        size_t k = (size_t)range(1, 3);
        for (size_t i = 0; i < k; i++) {
            len = alphabet_mutate(&c->a, c->q, c->m, i == 0 ? c->n_edits : pick_edits(c->m), copy);
            pos = plant_pos(c, len, &tag);
            write_at(c, pos, copy, len);
            note_plant(c, tag, pos);
        }
        break;
    }
    case F_BOTH_ENDS:
        len = alphabet_mutate(&c->a, c->q, c->m, c->n_edits, copy);
        write_at(c, 0, copy, len);
        pos = c->n > len ? c->n - len : 0;
        for (size_t k = 0; k < len; k++) /* the same bytes, disguised anew */
            copy[k] = alphabet_disguise(&c->a, copy[k]);
        write_at(c, pos, copy, len);
        note_plant(c, 's', 0);
        note_plant(c, 'e', pos);
        break;
    case F_REPEAT: {
        len = alphabet_mutate(&c->a, c->q, c->m, c->n_edits, copy);
        size_t k = (size_t)range(2, 6);
        for (size_t i = 0; i < k; i++) {
            pos = plant_pos(c, len, &tag);
            write_at(c, pos, copy, len);
            note_plant(c, tag, pos);
        }
        break;
    }
    case F_PERIODIC:
        if (chance(50) && c->n > 0) { /* one better (or equal) copy */
            len = alphabet_mutate(&c->a, c->q, c->m, (size_t)below(3), copy);
            pos = plant_pos(c, len, &tag);
            write_at(c, pos, copy, len);
            note_plant(c, tag, pos);
        }
        break;
    case F_SHORT:
        if (c->n > 0 && chance(80)) { /* a piece of the query, edited */
            size_t from = (size_t)below(c->m - c->n + 1);
            len = alphabet_mutate(&c->a, c->q + from, c->n, (size_t)below(c->n / 8 + 2), copy);
            write_at(c, 0, copy, len);
            note_plant(c, 'p', from);
        }
        break;
    case F_TANDEM: { /* copies back to back, 0..3 apart */
        size_t k = (size_t)range(2, 4);
        pos = (size_t)below(c->n / 4 + 1);
        for (size_t i = 0; i < k && pos < c->n; i++) {
            len = alphabet_mutate(&c->a, c->q, c->m, chance(40) ? 0 : (size_t)range(1, 3), copy);
            write_at(c, pos, copy, len);
            note_plant(c, 't', pos);
            pos += len + (chance(70) ? 0 : (size_t)range(1, 3));
        }
        break;
    }
    case F_SELF:
        len = alphabet_mutate(&c->a, c->q, c->m, c->n_edits, copy);
        if (len > c->n) len = c->n;
        pos = (size_t)below(c->n - len + 1);
        write_at(c, pos, copy, len);
        note_plant(c, 'r', pos);
        break;
    default: break;
    }
    free(copy);
}

static void free_case(acase *c) {
    free(c->q);
    free(c->t);
    c->q = c->t = NULL;
}

/* ==== running the library =================================================== */

static void describe_case(const void *p) {
    const acase *c = p;
    printf("    alphabet %s%s, family %s (%s), m %zu, n %zu, edits %zu, tiny chunks %" PRIu64
           " and %" PRIu64 "\n",
           AK_NAME[c->a.kind], c->o.case_insensitive ? " case_insensitive" : "", F_NAME[c->fam],
           c->plants[0] ? c->plants : "-", c->m, c->n, c->n_edits, c->chunk[0], c->chunk[1]);
    printf("    query  ");
    print_bytes(stdout, c->q, c->m, g_verbose ? (size_t)-1 : 100);
    printf("\n    target ");
    print_bytes(stdout, c->t, c->n, g_verbose ? (size_t)-1 : 100);
    printf("\n");
}

static void opts_str(char *buf, size_t len, const wm_align_opts_t *o) {
    snprintf(buf, len, "algo %s, max_distance %" PRId64 ", cigar %d, all_ends %d",
             algo_str(o->algo), o->max_distance, o->cigar, o->all_ends);
}

/* The CIGARs of the first configuration that ran a set of options, which
** every later one must repeat (index: alignment number). */
typedef struct {
    char **s;
    size_t n;
    int set;
} cigar_ref;

static void cigar_ref_clear(cigar_ref *r) {
    for (size_t i = 0; i < r->n; i++) free(r->s[i]);
    free(r->s);
    memset(r, 0, sizeof *r);
}

/* Check one wm_align result against the oracle's answer `want` for options
** o; ref: the CIGARs to repeat (filled by the first correct run). */
static void check_result(long idx, const acase *c, const char *cfg, const wm_align_opts_t *o,
                         int rc, const wm_alignments_t *got, const aoracle_infix_t *want,
                         cigar_ref *ref, const char *ctx_msg) {
    char os[160], buf[700];
    opts_str(os, sizeof os, o);
    if (rc != WM_OK) {
        snprintf(buf, sizeof buf, "%s, %s: wm_align returned %d (%s): %s", cfg, os, rc,
                 wm_strerror(rc), ctx_msg ? ctx_msg : "");
        fail_msg(idx, c, buf);
        return;
    }
    int none = o->max_distance >= 0 && want->d > (uint64_t)o->max_distance;
    size_t n_want = none ? 0 : o->all_ends ? want->n_ends : 1;
    if (got->n != n_want || (got->n > 0 && got->a == NULL)) {
        snprintf(buf, sizeof buf,
                 "%s, %s: %zu alignments, expected %zu (oracle d %" PRIu64 ", first end [%" PRIu64
                 ",%" PRIu64 "), %zu ends)",
                 cfg, os, got->n, n_want, want->d, want->start[0], want->end[0], want->n_ends);
        fail_msg(idx, c, buf);
        if (g_failed <= MAX_DETAILED_FAILURES && got->a != NULL)
            for (size_t i = 0; i < got->n && i < 3; i++)
                printf("    library #%zu: distance %" PRIu64 " [%" PRIu64 ",%" PRIu64 ") %s\n", i,
                       got->a[i].distance, got->a[i].start, got->a[i].end,
                       got->a[i].cigar ? got->a[i].cigar : "");
        return;
    }
    for (size_t i = 0; i < n_want; i++) {
        const wm_alignment_t *a = &got->a[i];
        if (a->distance != want->d || a->start != want->start[i] || a->end != want->end[i]) {
            snprintf(buf, sizeof buf,
                     "%s, %s: alignment #%zu: distance %" PRIu64 " [%" PRIu64 ",%" PRIu64
                     "), oracle distance %" PRIu64 " [%" PRIu64 ",%" PRIu64 ")",
                     cfg, os, i, a->distance, a->start, a->end, want->d, want->start[i],
                     want->end[i]);
            fail_msg(idx, c, buf);
            return;
        }
        if (!o->cigar) {
            if (a->cigar != NULL) {
                snprintf(buf, sizeof buf,
                         "%s, %s: alignment #%zu: a CIGAR (%.60s) without "
                         "opts.cigar",
                         cfg, os, i, a->cigar);
                fail_msg(idx, c, buf);
                return;
            }
            continue;
        }
        char why[200];
        if (!aoracle_cigar_replay(a->cigar, c->q, c->m, c->t, c->n, a->start, a->end, a->distance,
                                  &c->o, why, sizeof why)) {
            snprintf(buf, sizeof buf,
                     "%s, %s: alignment #%zu [%" PRIu64 ",%" PRIu64 ") distance"
                     " %" PRIu64 ": CIGAR %.200s does not replay: %s",
                     cfg, os, i, a->start, a->end, a->distance, a->cigar ? a->cigar : "(NULL)",
                     why);
            fail_msg(idx, c, buf);
            return;
        }
        g_cov.cigars++;
        if (ref->set && (i >= ref->n || strcmp(ref->s[i], a->cigar) != 0)) {
            snprintf(buf, sizeof buf,
                     "%s, %s: alignment #%zu [%" PRIu64 ",%" PRIu64 "): CIGAR"
                     " %.200s differs from the first configuration's %.200s",
                     cfg, os, i, a->start, a->end, a->cigar, i < ref->n ? ref->s[i] : "(none)");
            fail_msg(idx, c, buf);
            return;
        }
    }
    g_passed++;
    if (o->cigar && !ref->set) {
        ref->set = 1;
        ref->n = n_want;
        ref->s = calloc(n_want ? n_want : 1, sizeof *ref->s);
        assert(ref->s != NULL);
        for (size_t i = 0; i < n_want; i++) {
            ref->s[i] = strdup(got->a[i].cigar);
            assert(ref->s[i] != NULL);
        }
    }
}

static void run_one(long idx, const acase *c, config *cf, size_t cfg_i, const wm_align_opts_t *o,
                    const aoracle_infix_t *want, cigar_ref *ref) {
    wm_alignments_t got;
    memset(&got, 0, sizeof got);
    double t0 = now_s();
    int rc = wm_align(cf->cx, c->q, c->m, c->t, c->n, o, &got);
    double dt = now_s() - t0;
    g_t_lib += dt;
    g_t_cfg[cfg_i < N_OF(g_t_cfg) ? cfg_i : N_OF(g_t_cfg) - 1] += dt;
    check_result(idx, c, cf->name, o, rc, &got, want, ref, wm_context_errmsg(cf->cx));
    wm_alignments_free(&got);
}

/* The main run's max_distance, relative to the oracle's d. */
static int64_t pick_k(uint64_t d, size_t m) {
    uint64_t r = below(100);
    if (r < 35) return -1;
    if (r < 45) return 0;
    if (r < 60) return (int64_t)d;
    if (r < 70) return d > 0 ? (int64_t)d - 1 : 0;
    if (r < 80) return (int64_t)(d + range(1, 3));
    if (r < 90) return (int64_t)(m + range(0, 5));
    return (int64_t)range(0, m);
}

/* Does [s, e) contain a border of chunk size ch (a multiple strictly inside)? */
static int crosses(uint64_t s, uint64_t e, uint64_t ch) {
    return ch > 0 && e > s + 1 && (e - 1) / ch > s / ch;
}

static void run_case(long idx, acase *c, config *cfgs, size_t n_cfg) {
    double t0 = now_s();
    aoracle_infix_t want;
    aoracle_infix(c->q, c->m, c->t, c->n, &c->o, &want);

    /* the oracle's other methods on this case: the reversed DP on two ends,
    ** the full traceback on the first end and one more when small enough */
    for (int rep = 0; rep < 2; rep++) {
        size_t i = rep == 0 ? 0 : (size_t)below(want.n_ends);
        uint64_t span_e = want.end[i] < 2 * (uint64_t)c->m ? want.end[i] : 2 * (uint64_t)c->m;
        if (rep == 1 && (uint64_t)c->m * span_e > 1000000)
            break; /* one such check is enough for large m */
        uint64_t de, s = aoracle_start(c->q, c->m, c->t, want.end[i], &c->o, &de);
        if (de != want.d || s != want.start[i]) {
            self_fail++;
            char buf[300];
            snprintf(buf, sizeof buf,
                     "ORACLE self-check: end %" PRIu64 ": column DP d %" PRIu64 " start %" PRIu64
                     ", reversed DP d %" PRIu64 " start %" PRIu64,
                     want.end[i], want.d, want.start[i], de, s);
            fail_msg(idx, c, buf);
        }
        if ((uint64_t)(c->m + 1) * (c->n + 1) <= 300000) {
            char *cg = NULL, why[200] = "";
            aoracle_full(c->q, c->m, c->t, c->n, want.end[i], &c->o, &de, &s, &cg);
            if (de != want.d || s != want.start[i] ||
                !aoracle_cigar_replay(cg, c->q, c->m, c->t, c->n, s, want.end[i], de, &c->o, why,
                                      sizeof why)) {
                self_fail++;
                char buf[500];
                snprintf(buf, sizeof buf,
                         "ORACLE self-check: end %" PRIu64 ": column DP d %" PRIu64
                         " start %" PRIu64 ", full matrix d %" PRIu64 " start %" PRIu64
                         " CIGAR %.100s (%s)",
                         want.end[i], want.d, want.start[i], de, s, cg, why);
                fail_msg(idx, c, buf);
            }
            free(cg);
            g_cov.full_checked += rep == 0;
        }
    }
    g_t_oracle += now_s() - t0;

    /* coverage */
    g_cov.cases++;
    g_cov.ends += want.n_ends;
    g_cov.d0 += want.d == 0;
    g_cov.d_eq_m += want.d == c->m;
    g_cov.end0 += want.end[0] == 0;
    g_cov.at_target_start += want.start[0] == 0 && want.end[0] > 0;
    g_cov.at_target_end += want.end[want.n_ends - 1] == c->n && c->n > 0 && want.d < c->m;
    g_cov.ties += want.n_ends > 1;
    g_cov.many_ends += want.n_ends > 100;
    g_cov.shorter += c->n < c->m;
    g_cov.empty += c->n == 0;
    g_cov.across_chunk += crosses(want.start[0], want.end[0], c->chunk[0]) ||
                          crosses(want.start[0], want.end[0], c->chunk[1]);
    g_cov.m_big += c->m > 1000;
    g_cov.n_big += c->n > 30000;

    /* the main run: every configuration, every algorithm, the same options */
    wm_align_opts_t o = wm_align_opts_default();
    o.alphabet = c->o.alphabet;
    o.case_insensitive = c->o.case_insensitive;
    o.max_distance = pick_k(want.d, c->m);
    o.cigar = chance(50);
    o.all_ends = chance(35);
    /* a case with very many ends and CIGARs would cost O(ends * m) to replay */
    if (o.all_ends && o.cigar && (uint64_t)want.n_ends * c->m > CIGAR_CAP) o.cigar = 0;
    g_cov.pruned += o.max_distance >= 0 && want.d > (uint64_t)o.max_distance;
    cigar_ref ref;
    memset(&ref, 0, sizeof ref);
    for (size_t a = 0; a < N_OF(ALGOS); a++) {
        o.algo = ALGOS[a];
        for (size_t i = 0; i < n_cfg; i++) run_one(idx, c, &cfgs[i], i, &o, &want, &ref);
    }
    cigar_ref_clear(&ref);

    /* the sweep: one configuration, max_distance d - 1 (nothing) and d */
    size_t ci = (size_t)below(n_cfg);
    for (int step = 0; step < 2; step++) {
        if (step == 0 && want.d == 0) continue;
        o.max_distance = (int64_t)want.d - (step == 0 ? 1 : 0);
        o.all_ends = chance(35);
        o.cigar = chance(30) && !(o.all_ends && (uint64_t)want.n_ends * c->m > CIGAR_CAP);
        for (size_t a = 0; a < N_OF(ALGOS); a++) {
            o.algo = ALGOS[a];
            run_one(idx, c, &cfgs[ci], ci, &o, &want, &ref);
        }
        cigar_ref_clear(&ref);
    }
    aoracle_infix_free(&want);
}

/* ==== 2. small cases by hand ================================================= */

/* Align and compare with the oracle on every algorithm of a context. */
static void api_align_vs_oracle(const char *name, config *cf, const uint8_t *q, size_t m,
                                const uint8_t *t, size_t n, const wm_align_opts_t *base) {
    acase c;
    memset(&c, 0, sizeof c);
    c.q = (uint8_t *)q;
    c.m = m;
    c.t = (uint8_t *)t;
    c.n = n;
    c.o = *base;
    c.a.kind = base->alphabet == WM_ALPHABET_DNA ? AK_DNA : AK_ACGT;
    snprintf(c.plants, sizeof c.plants, "%s", name);
    aoracle_infix_t want;
    aoracle_infix(q, m, t, n, base, &want);
    static const int64_t ks[] = { -1, 0, 1, 2, 3, 5, 100 };
    for (size_t k = 0; k < N_OF(ks); k++) {
        for (int flags = 0; flags < 4; flags++) {
            wm_align_opts_t o = *base;
            o.max_distance = ks[k];
            o.cigar = flags & 1;
            o.all_ends = (flags >> 1) & 1;
            cigar_ref ref;
            memset(&ref, 0, sizeof ref);
            for (size_t a = 0; a < N_OF(ALGOS); a++) {
                o.algo = ALGOS[a];
                run_one(-1, &c, cf, 0, &o, &want, &ref);
            }
            cigar_ref_clear(&ref);
        }
    }
    aoracle_infix_free(&want);
}

/* Small cases the hand examples worked out, on every k / cigar / all_ends /
** algo, against the oracle; the arguments of wm_align are
** tests/unit/test_api_align.c's. */
static void hand_cases(config *cf) {
    wm_alignments_t out;
    wm_align_opts_t o = wm_align_opts_default();
    const uint8_t *q = (const uint8_t *)"ACGT", *t = (const uint8_t *)"xxACTGTxx";

    /* an empty target, a query longer than the target, and small cases that
    ** the hand examples worked out, every k / cigar / all_ends / algo */
    api_align_vs_oracle("empty target", cf, (const uint8_t *)"ACG", 3, (const uint8_t *)"", 0, &o);
    {
        memset(&out, 0, sizeof out);
        wm_align_opts_t e = o;
        e.cigar = 1;
        int rc = wm_align(cf->cx, (const uint8_t *)"ACG", 3, (const uint8_t *)"", 0, &e, &out);
        check_true("\"ACG\" in an empty target: [0,0), distance 3, CIGAR 3I",
                   rc == WM_OK && out.n == 1 && out.a[0].distance == 3 && out.a[0].start == 0 &&
                       out.a[0].end == 0 && out.a[0].cigar && !strcmp(out.a[0].cigar, "3I"));
        if (rc == WM_OK) wm_alignments_free(&out);
    }
    api_align_vs_oracle("query longer", cf, (const uint8_t *)"ABCDE", 5, (const uint8_t *)"BD", 2,
                        &o);
    api_align_vs_oracle("query longer 2", cf, (const uint8_t *)"ACGTACGTAC", 10,
                        (const uint8_t *)"GTTACG", 6, &o);
    api_align_vs_oracle("ACGT in xxACTGTxx", cf, q, 4, t, 9, &o);
    api_align_vs_oracle("AB in AXB", cf, (const uint8_t *)"AB", 2, (const uint8_t *)"AXB", 3, &o);
    api_align_vs_oracle("A in C", cf, (const uint8_t *)"A", 1, (const uint8_t *)"C", 1, &o);
    api_align_vs_oracle("AbC in xaBc", cf, (const uint8_t *)"AbC", 3, (const uint8_t *)"xaBc", 4,
                        &o);
    {
        wm_align_opts_t ci = o;
        ci.case_insensitive = 1;
        api_align_vs_oracle("AbC in xaBc -i", cf, (const uint8_t *)"AbC", 3,
                            (const uint8_t *)"xaBc", 4, &ci);
        wm_align_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        api_align_vs_oracle("DNA ACGN in acgn", cf, (const uint8_t *)"ACGN", 4,
                            (const uint8_t *)"acgn", 4, &d);
        api_align_vs_oracle("DNA N in N", cf, (const uint8_t *)"N", 1, (const uint8_t *)"N", 1, &d);
        api_align_vs_oracle("DNA ACU in xact", cf, (const uint8_t *)"ACU", 3,
                            (const uint8_t *)"xact", 4, &d);
    }
    api_align_vs_oracle("NUL bytes", cf, (const uint8_t *)"\0\1", 2, (const uint8_t *)"\1\0\1\0", 4,
                        &o);
}

/* ==== 4. one long case ====================================================== */

static void long_case(config *fixed, size_t n_fixed, double scale) {
    size_t m = scale >= 2 ? 100000 : 20000, n = scale >= 2 ? 250000 : 50000;
    size_t edits = m / 20;
    g_rng = g_seed ^ 0x10ca1e5ull;
    acase c;
    memset(&c, 0, sizeof c);
    alphabet_of(&c.a, AK_ACGT, "ACGT");
    c.fam = F_PLANT;
    c.o = zero_opts();
    c.m = m;
    c.n = n;
    c.n_edits = edits;
    c.q = malloc(m);
    c.t = malloc(n);
    uint8_t *copy = malloc(m + edits + 1);
    assert(c.q && c.t && copy);
    for (size_t i = 0; i < m; i++) c.q[i] = (uint8_t) "ACGT"[below(4)];
    for (size_t i = 0; i < n; i++) c.t[i] = (uint8_t) "ACGT"[below(4)];
    size_t len = alphabet_mutate(&c.a, c.q, m, edits, copy);
    size_t pos = n / 3 + (size_t)below(1000);
    write_at(&c, pos, copy, len);
    snprintf(c.plants, sizeof c.plants, "long case: %zu-byte copy with %zu edits at %zu", len,
             edits, pos);
    free(copy);

    typedef struct {
        config *cf;
        wm_align_opts_t o;
        config own;
        int own_ctx;
    } lrun;
    lrun runs[4];
    size_t n_runs = 0;
    wm_align_opts_t o = wm_align_opts_default();
    o.cigar = 1;
    runs[n_runs].cf = &fixed[0];
    runs[n_runs].o = o;
    runs[n_runs++].own_ctx = 0;
    o.algo = WM_ALIGN_ALGO_BITVECTOR;
    o.max_distance = (int64_t)edits;
    runs[n_runs].cf = &fixed[0];
    runs[n_runs].o = o;
    runs[n_runs++].own_ctx = 0;
    if (scale < 2) {
        o = wm_align_opts_default();
        o.cigar = 1;
        runs[n_runs].o = o;
        runs[n_runs].own_ctx = 1;
        if (make_context(&runs[n_runs].own, WM_BACKEND_CPU, 3, n / 4 + 7)) {
            runs[n_runs].cf = &runs[n_runs].own;
            n_runs++;
        }
    }
    for (size_t j = 1; j < n_fixed; j++) /* CUDA, when there */
        if (fixed[j].backend == WM_BACKEND_CUDA) {
            o = wm_align_opts_default();
            o.cigar = 1;
            runs[n_runs].cf = &fixed[j];
            runs[n_runs].o = o;
            runs[n_runs++].own_ctx = 0;
            break;
        }

    wm_alignment_t first;
    memset(&first, 0, sizeof first);
    char buf[700], os[160];
    for (size_t r = 0; r < n_runs; r++) {
        wm_alignments_t got;
        memset(&got, 0, sizeof got);
        double t0 = now_s();
        int rc = wm_align(runs[r].cf->cx, c.q, m, c.t, n, &runs[r].o, &got);
        double dt = now_s() - t0;
        g_t_lib += dt;
        opts_str(os, sizeof os, &runs[r].o);
        printf("long case: %zu in %zu, %s, %s: %.2f s", m, n, runs[r].cf->name, os, dt);
        if (rc == WM_OK && got.n == 1)
            printf(", distance %" PRIu64 " [%" PRIu64 ",%" PRIu64 ")", got.a[0].distance,
                   got.a[0].start, got.a[0].end);
        printf("\n");
        fflush(stdout);
        if (rc != WM_OK || got.n != 1) {
            snprintf(buf, sizeof buf,
                     "long case, %s, %s: wm_align returned %d (%s), %zu "
                     "alignments (expected WM_OK, 1)",
                     runs[r].cf->name, os, rc, wm_strerror(rc), got.n);
            fail_msg(-1, &c, buf);
            if (rc == WM_OK) wm_alignments_free(&got);
            continue;
        }
        const wm_alignment_t *a = &got.a[0];
        char why[200] = "";
        int ok = a->distance <= edits;
        ok = ok && a->start + edits >= pos && a->start <= pos + edits;
        ok = ok && a->end + edits >= pos + len && a->end <= pos + len + edits;
        if (!ok) {
            snprintf(buf, sizeof buf,
                     "long case, %s, %s: distance %" PRIu64 " [%" PRIu64 ",%" PRIu64
                     "): want distance <= %zu and both ends within %zu of the plant [%zu,"
                     "%zu)",
                     runs[r].cf->name, os, a->distance, a->start, a->end, edits, edits, pos,
                     pos + len);
            fail_msg(-1, &c, buf);
        } else if (!aoracle_cigar_replay(a->cigar, c.q, m, c.t, n, a->start, a->end, a->distance,
                                         &c.o, why, sizeof why)) {
            snprintf(buf, sizeof buf, "long case, %s, %s: the CIGAR does not replay: %s",
                     runs[r].cf->name, os, why);
            fail_msg(-1, &c, buf);
        } else if (r > 0 && first.cigar != NULL &&
                   (a->distance != first.distance || a->start != first.start ||
                    a->end != first.end || strcmp(a->cigar, first.cigar) != 0)) {
            snprintf(buf, sizeof buf,
                     "long case, %s, %s: distance %" PRIu64 " [%" PRIu64 ",%" PRIu64
                     ") or its CIGAR differs from the first run's: distance %" PRIu64 " [%" PRIu64
                     ",%" PRIu64 ")",
                     runs[r].cf->name, os, a->distance, a->start, a->end, first.distance,
                     first.start, first.end);
            fail_msg(-1, &c, buf);
        } else {
            g_passed++;
        }
        if (r == 0) {
            first = *a;
            first.cigar = a->cigar ? strdup(a->cigar) : NULL;
        }
        wm_alignments_free(&got);
    }
    for (size_t r = 0; r < n_runs; r++)
        if (runs[r].own_ctx) wm_context_free(runs[r].own.cx);
    free(first.cigar);
    free_case(&c);
}

/* ==== main ================================================================== */

/* Random tiny cases: the oracle's four methods agree. */
static void oracle_random_self_check(void) {
    g_rng = g_seed ^ 0x5eedf00dull;
    for (int i = 0; i < 400; i++) {
        acase c;
        gen_case(&c);
        if (c.m > 8) c.m = (size_t)range(1, 8);
        if (c.n > 24) c.n = (size_t)below(25);
        aoracle_infix_t a, b;
        aoracle_infix(c.q, c.m, c.t, c.n, &c.o, &a);
        aoracle_naive(c.q, c.m, c.t, c.n, &c.o, &b);
        int ok = a.d == b.d && a.n_ends == b.n_ends;
        for (size_t j = 0; ok && j < a.n_ends; j++)
            ok = a.end[j] == b.end[j] && a.start[j] == b.start[j];
        for (size_t j = 0; ok && j < a.n_ends; j++) {
            uint64_t de, s = aoracle_start(c.q, c.m, c.t, a.end[j], &c.o, &de);
            ok = de == a.d && s == a.start[j];
            char *cg = NULL;
            aoracle_full(c.q, c.m, c.t, c.n, a.end[j], &c.o, &de, &s, &cg);
            ok = ok && de == a.d && s == a.start[j] &&
                 aoracle_cigar_replay(cg, c.q, c.m, c.t, c.n, s, a.end[j], de, &c.o, NULL, 0);
            free(cg);
        }
        if (!ok) {
            self_fail++;
            printf("oracle self-check FAILED: random tiny case %d: the four methods disagree\n", i);
            describe_case(&c);
        }
        aoracle_infix_free(&a);
        aoracle_infix_free(&b);
        free_case(&c);
    }
}

/* The contexts every case runs on, besides its own tiny-chunk ones. */
static fixed_set g_fixed;

/* The three slowest cases so far, for the last lines. */
static void note_time(long idx, const acase *c, double t) {
    for (int s = 0; s < 3; s++)
        if (t > g_slow_t[s]) {
            for (int u = 2; u > s; u--) {
                g_slow_t[u] = g_slow_t[u - 1];
                g_slow_i[u] = g_slow_i[u - 1];
            }
            g_slow_t[s] = t;
            g_slow_i[s] = idx;
            if (g_verbose)
                printf("  (case %ld: m %zu, n %zu, %s, %.2f s)\n", idx, c->m, c->n, F_NAME[c->fam],
                       t);
            break;
        }
}

/* One random case on the CPU with the default chunk and the case's two
** tiny ones, and on CUDA with the default and the first tiny one. */
static void one_case(long idx) {
    acase c;
    gen_case(&c);
    config cfgs[6];
    int owned[6] = { 0 };
    size_t n_cfg = 0;
    cfgs[n_cfg++] = g_fixed.cf[0];
    if (make_context(&cfgs[n_cfg], WM_BACKEND_CPU, 1, c.chunk[0])) owned[n_cfg++] = 1;
    if (make_context(&cfgs[n_cfg], WM_BACKEND_CPU, 3, c.chunk[1])) owned[n_cfg++] = 1;
    if (g_fixed.gpu && g_fixed.n > 1) {
        cfgs[n_cfg++] = g_fixed.cf[1];
        if (make_context(&cfgs[n_cfg], WM_BACKEND_CUDA, 1, c.chunk[0])) owned[n_cfg++] = 1;
    }
    double t0 = now_s();
    run_case(idx, &c, cfgs, n_cfg);
    note_time(idx, &c, now_s() - t0);
    for (size_t j = 0; j < n_cfg; j++)
        if (owned[j]) wm_context_free(cfgs[j].cx);
    free_case(&c);
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases =
        test_begin("test_align_diff", argc, argv, 20240613ull, 1500, describe_case, &only);
    double scale = g_scale;

    /* 1. the oracle against hand-worked examples and itself */
    oracle_hand_examples();
    if (only < 0) oracle_random_self_check();
    if (oracle_verdict()) return 1;

    /* contexts: CPU, 1 thread, default chunk; tiny chunks are made per case.
    ** CUDA likewise when a GPU is there. */
    static const int threads[] = { 1 };
    open_fixed(&g_fixed, threads, N_OF(threads));
    if (g_fixed.n == 0 || g_fixed.cf[0].backend != WM_BACKEND_CPU) return test_finish();

    /* 2. small cases by hand */
    if (only < 0) {
        hand_cases(&g_fixed.cf[0]);
        part_done("small cases");
    }

    /* 3. the random cases */
    run_cases(n_cases, only, 1, 250, one_case);

    /* 4. the long case */
    if (only < 0) long_case(g_fixed.cf, g_fixed.n, scale);

    close_configs(g_fixed.cf, g_fixed.n);

    printf("coverage: %ld cases, %" PRIu64 " oracle ends, %" PRIu64 " CIGARs replayed; d = 0 %ld,"
           " d = m %ld, first end 0 %ld, best at the target's start %ld, an end at the target's"
           " end %ld, ties (> 1 end) %ld, > 100 ends %ld, n < m %ld, n = 0 %ld, best across a"
           " tiny chunk border %ld, pruned by max_distance %ld, m > 1000 %ld, n > 30000 %ld;"
           " full-matrix oracle check %ld\n",
           g_cov.cases, g_cov.ends, g_cov.cigars, g_cov.d0, g_cov.d_eq_m, g_cov.end0,
           g_cov.at_target_start, g_cov.at_target_end, g_cov.ties, g_cov.many_ends, g_cov.shorter,
           g_cov.empty, g_cov.across_chunk, g_cov.pruned, g_cov.m_big, g_cov.n_big,
           g_cov.full_checked);
    print_time_split();
    printf(" (cpu 1 thread default chunk %.1f s, 1 thread tiny chunk %.1f s, 3 threads tiny"
           " chunk %.1f s%s)\n",
           g_t_cfg[0], g_t_cfg[1], g_t_cfg[2], g_fixed.gpu ? ", cuda in the rest" : "");
    printf("slowest cases:");
    for (int s = 0; s < 3; s++)
        if (g_slow_i[s] >= 0) printf(" %ld (%.2f s)", g_slow_i[s], g_slow_t[s]);
    printf("\n");
    print_repro(argv[0], "the checks outside the random cases");
    return test_finish();
}
