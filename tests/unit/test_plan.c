/*
** test_plan.c -- the ownership planner (src/core/plan.c) against a brute
** force that looks at every end position one by one.
**
** Small texts (n = 0..70) are swept exhaustively: every record layout below
** (one record, many short ones, empty records at the start, the end and in
** the middle, several at one offset, random mixes with records shorter and
** longer than the halo) x halo 0..12 x sub-ranges [from, to) x even plans of
** 1..9 parts (and more parts than bytes) x sized plans of 1..len+1 bytes.
** For each, the brute force gives every end e its owner (the part whose
** bytes hold e - 1), its record (the one r with rs[r] < e <= rs[r + 1]) and
** the window [e - halo - 1, e) its match may read, and checks:
**   - parts in order, disjoint, covering [from, to), sized as plan.h says;
**     wm_plan_owner agrees for every end;
**   - every end in (from, to] is owned by exactly one piece of exactly one
**     part, in the right record; ends outside by none; a part has one piece
**     per record that holds one of its ends and no other;
**   - own_from/own_to are the piece's first end - 1 and its last end;
**     scan_from is the latest start that still covers every owned end's
**     window clipped to its record;
**   - wm_plan_record_of_end and wm_plan_first_record for every position.
** Texts near 2^40 and near UINT64_MAX check the arithmetic at sampled parts
** and ends (halos up to UINT64_MAX), with 128-bit arithmetic on this side.
** Prints "N checks passed", or the failures (every parameter of the case)
** and exits 1.
*/
#include "core/plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

#define MAXN 80     /* small texts: n < MAXN */
#define MAXREC 160  /* records of a layout */
#define MAXPARTS 96 /* parts of a small plan */

/* The case being checked, printed with a failure. */
typedef struct {
    const char *what;
    uint64_t n, from, to, halo, part;
    int has_plan, sized, has_halo, has_part;
    uint64_t parts_or_size;
    const uint64_t *rs;
    size_t n_rec;
} case_t;
static case_t C;

static void describe(void) {
    fprintf(stderr, "  case: %s, text %" PRIu64, C.what, C.n);
    if (C.has_plan) fprintf(stderr, ", [from, to) = [%" PRIu64 ", %" PRIu64 "), ", C.from, C.to);
    if (C.has_plan)
        fprintf(stderr, "%s %" PRIu64, C.sized ? "sized plan, size" : "even plan, parts",
                C.parts_or_size);
    if (C.has_part) fprintf(stderr, ", part %" PRIu64, C.part);
    if (C.has_halo) fprintf(stderr, ", halo %" PRIu64, C.halo);
    if (C.rs) {
        fprintf(stderr, ", rs (%zu records) = {", C.n_rec);
        for (size_t r = 0; r <= C.n_rec; r++) fprintf(stderr, "%s%" PRIu64, r ? ", " : "", C.rs[r]);
        fputc('}', stderr);
    }
    fputc('\n', stderr);
}

/* The harness's CHECK, with the case described after the first failures. */
#undef CHECK
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!check_at((cond) != 0, __FILE__, __LINE__, #cond, __VA_ARGS__) &&                      \
            g_failed <= MAX_DETAILED_FAILURES)                                                     \
            describe();                                                                            \
    } while (0)

#define U(x) ((unsigned long long)(x))

/* splitmix64: layouts and samples only; fixed seed, so runs repeat. */
static uint64_t g_rng = 20260415;
static uint64_t rnd(void) {
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) { return rnd() % n; }

/* ---- record layouts ---------------------------------------------------------- */

typedef struct {
    const char *name;
    uint64_t rs[MAXREC + 1];
    size_t n_rec;
} layout_t;

static void add_start(layout_t *L, uint64_t at) { L->rs[L->n_rec++] = at; }
/* Close the layout at the text's length n. */
static void close_at(layout_t *L, uint64_t n) { L->rs[L->n_rec] = n; }

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The layouts of a text of n bytes; returns how many. */
static size_t make_layouts(uint64_t n, layout_t *out) {
    size_t k = 0;
    layout_t *L;
    if (n == 0) {
        L = &out[k++];
        *L = (layout_t){ .name = "no records" };
        close_at(L, 0);
    }
    L = &out[k++];
    *L = (layout_t){ .name = "one record" };
    add_start(L, 0);
    close_at(L, n);
    static const uint64_t steps[] = { 1, 2, 3, 7, 13 };
    for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
        if (steps[s] > n && s > 0) break;
        L = &out[k++];
        *L = (layout_t){ .name = "short records of equal length" };
        for (uint64_t at = 0; at < n || at == 0; at += steps[s]) add_start(L, at);
        close_at(L, n);
    }
    L = &out[k++];
    *L = (layout_t){ .name = "empty records at the start" };
    add_start(L, 0);
    add_start(L, 0);
    add_start(L, 0);
    close_at(L, n);
    L = &out[k++];
    *L = (layout_t){ .name = "empty records at the end" };
    add_start(L, 0);
    add_start(L, n);
    add_start(L, n);
    add_start(L, n);
    close_at(L, n);
    L = &out[k++];
    *L = (layout_t){ .name = "empty records in the middle" };
    add_start(L, 0);
    add_start(L, n / 2);
    add_start(L, n / 2);
    add_start(L, n / 2);
    add_start(L, n / 2 + (n > 2));
    close_at(L, n);
    L = &out[k++];
    *L = (layout_t){ .name = "empty records everywhere" };
    for (uint64_t at = 0; at <= n; at += 4) {
        add_start(L, at);
        add_start(L, at);
    }
    close_at(L, n);
    /* Random mixes: cut points with repeats (empty records), so record
    ** lengths run from 0 past the largest halo. */
    for (int m = 0; m < 6; m++) {
        L = &out[k++];
        *L = (layout_t){ .name = "random mix" };
        size_t cuts = n ? (size_t)below(m < 3 ? 6 : n + 1) : (size_t)below(4);
        uint64_t tmp[MAXREC];
        for (size_t c = 0; c < cuts; c++)
            tmp[c] = (m & 1) && below(3) == 0 ? (below(2) ? 0 : n) : below(n + 1);
        qsort(tmp, cuts, sizeof *tmp, cmp_u64);
        add_start(L, 0);
        for (size_t c = 0; c < cuts; c++) add_start(L, tmp[c]);
        close_at(L, n);
    }
    return k;
}

/* ---- the brute force ------------------------------------------------------------- */

/* The record of end e: the one r with rs[r] < e <= rs[r + 1]; SIZE_MAX when
** none is, and it must be unique. */
static size_t brute_record(const uint64_t *rs, size_t n_rec, uint64_t e, int *unique) {
    size_t found = SIZE_MAX, hits = 0;
    for (size_t r = 0; r < n_rec; r++)
        if (rs[r] < e && e <= rs[r + 1]) {
            found = r;
            hits++;
        }
    *unique = hits == 1;
    return found;
}

/* ---- small texts ---------------------------------------------------------------- */

typedef struct {
    wm_plan_t p;
    uint64_t lo[MAXPARTS], hi[MAXPARTS];
    uint64_t owner[MAXN + 1]; /* owner[e] for from < e <= to */
} small_plan_t;

/* The plan's parts follow the documented rule and wm_plan_owner agrees with
** them. Returns 0 when the parts are too broken to go on. */
static int check_plan(small_plan_t *S, int sized, uint64_t k) {
    const wm_plan_t *p = &S->p;
    uint64_t from = C.from, to = C.to, len = to - from;
    CHECK(p->from == from && p->to == to, "plan covers [%llu, %llu)", U(p->from), U(p->to));
    uint64_t want_n;
    if (sized) {
        want_n = 0;
        for (uint64_t x = 0; x < len; x += k) want_n++;
    } else {
        want_n = k;
    }
    CHECK(p->n == want_n, "plan has %llu parts, want %llu", U(p->n), U(want_n));
    if (p->n != want_n || want_n > MAXPARTS) return 0;
    uint64_t at = from;
    int ok = 1;
    for (uint64_t i = 0; i < p->n; i++) {
        C.part = i;
        C.has_part = 1;
        uint64_t lo = 0, hi = 0;
        wm_plan_part(p, i, &lo, &hi);
        S->lo[i] = lo;
        S->hi[i] = hi;
        uint64_t want_size;
        if (sized) want_size = i + 1 < p->n ? k : len - k * (p->n - 1);
        else want_size = len / k + (i < len % k);
        CHECK(lo == at, "part starts at %llu, the one before ended at %llu", U(lo), U(at));
        CHECK(hi >= lo && hi - lo == want_size, "part [%llu, %llu), want %llu bytes", U(lo), U(hi),
              U(want_size));
        if (sized) CHECK(hi > lo, "empty part [%llu, %llu) in a sized plan", U(lo), U(hi));
        else
            CHECK(hi > lo || len < k, "empty part [%llu, %llu) with %llu bytes in %llu parts",
                  U(lo), U(hi), U(len), U(k));
        if (lo != at || hi < lo || hi > to) ok = 0;
        at = hi;
    }
    C.has_part = 0;
    CHECK(at == to, "parts end at %llu, not at %llu", U(at), U(to));
    if (!ok || at != to) return 0;
    /* The brute owner: the part whose bytes hold e - 1. */
    for (uint64_t e = from + 1; e <= to; e++) {
        uint64_t hits = 0, who = 0;
        for (uint64_t i = 0; i < p->n; i++)
            if (S->lo[i] <= e - 1 && e - 1 < S->hi[i]) {
                hits++;
                who = i;
            }
        CHECK(hits == 1, "end %llu lies in %llu parts", U(e), U(hits));
        S->owner[e] = who;
        uint64_t got = wm_plan_owner(p, e);
        CHECK(got == who, "wm_plan_owner(%llu) = %llu, the bytes say %llu", U(e), U(got), U(who));
    }
    return 1;
}

/* Every part's pieces over layout L with this halo, against the brute force. */
static void check_pieces(const small_plan_t *S, const layout_t *L, const size_t *rec_of) {
    const uint64_t *rs = L->rs;
    size_t n_rec = L->n_rec;
    uint64_t n = rs[n_rec], halo = C.halo;
    unsigned owned[MAXN + 1];
    memset(owned, 0, sizeof owned);
    for (uint64_t i = 0; i < S->p.n; i++) {
        C.part = i;
        C.has_part = 1;
        uint64_t lo = S->lo[i], hi = S->hi[i];
        /* The records holding one of the part's ends, by the brute force:
        ** rec_of is non-decreasing, so each shows up as one run of ends
        ** [first, last]. */
        size_t run_rec[MAXN], n_runs = 0;
        uint64_t run_first[MAXN], run_last[MAXN];
        for (uint64_t e = lo + 1; e <= hi; e++) {
            if (n_runs == 0 || rec_of[e] != run_rec[n_runs - 1]) {
                run_rec[n_runs] = rec_of[e];
                run_first[n_runs++] = e;
            }
            run_last[n_runs - 1] = e;
        }
        size_t r = wm_plan_first_record(rs, n_rec, lo);
        size_t k = 0; /* pieces seen */
        wm_piece_t pc;
        while (k <= n_rec && wm_plan_next_piece(rs, n_rec, halo, lo, hi, &r, &pc)) {
            k++;
            CHECK(k <= n_runs,
                  "piece %zu (record %zu, owns (%llu, %llu]), but the part's "
                  "ends lie in %zu records",
                  k - 1, pc.rec, U(pc.own_from), U(pc.own_to), n_runs);
            if (k > n_runs) continue;
            size_t want_rec = run_rec[k - 1];
            uint64_t first = run_first[k - 1], last = run_last[k - 1];
            CHECK(pc.rec == want_rec && pc.own_from == first - 1 && pc.own_to == last,
                  "piece %zu: record %zu, owns (%llu, %llu]; want record %zu, (%llu, %llu]", k - 1,
                  pc.rec, U(pc.own_from), U(pc.own_to), want_rec, U(first - 1), U(last));
            if (!(pc.own_from < pc.own_to && lo <= pc.own_from && pc.own_to <= hi &&
                  pc.rec < n_rec))
                continue;
            /* The latest start that covers every owned end's window
            ** [e - halo - 1, e) clipped to the record. */
            int64_t want_scan = INT64_MAX;
            for (uint64_t e = pc.own_from + 1; e <= pc.own_to; e++) {
                owned[e]++;
                CHECK(rec_of[e] == pc.rec && S->owner[e] == i,
                      "end %llu: piece of record %zu in part %llu, brute force: record %zu, "
                      "part %llu",
                      U(e), pc.rec, U(i), rec_of[e], U(S->owner[e]));
                int64_t w = (int64_t)e - (int64_t)halo - 1;
                if (w < (int64_t)rs[pc.rec]) w = (int64_t)rs[pc.rec];
                if (w < want_scan) want_scan = w;
            }
            CHECK((int64_t)pc.scan_from == want_scan && pc.scan_from <= pc.own_from,
                  "record %zu, owns (%llu, %llu]: scan_from %llu, want %lld", pc.rec,
                  U(pc.own_from), U(pc.own_to), U(pc.scan_from), (long long)want_scan);
        }
        CHECK(k == n_runs, "%zu pieces, the part's ends lie in %zu records", k, n_runs);
    }
    C.has_part = 0;
    for (uint64_t e = 1; e <= n; e++) {
        unsigned want = C.from < e && e <= C.to;
        CHECK(owned[e] == want, "end %llu owned by %u pieces, want %u", U(e), owned[e], want);
    }
}

/* Record lookups over one layout, for every end and every part start. */
static void check_layout(const layout_t *L, size_t *rec_of) {
    const uint64_t *rs = L->rs;
    size_t n_rec = L->n_rec;
    uint64_t n = rs[n_rec];
    for (uint64_t e = 1; e <= n; e++) {
        int unique;
        size_t want = brute_record(rs, n_rec, e, &unique);
        CHECK(unique, "end %llu lies in no record or several", U(e));
        rec_of[e] = want;
        size_t got = wm_plan_record_of_end(rs, n_rec, e);
        CHECK(got == want, "wm_plan_record_of_end(%llu) = %zu, want %zu", U(e), got, want);
    }
    for (uint64_t lo = 0; lo <= n; lo++) {
        size_t want = n_rec;
        for (size_t r = 0; r < n_rec; r++)
            if (rs[r + 1] > lo) {
                want = r;
                break;
            }
        size_t got = wm_plan_first_record(rs, n_rec, lo);
        CHECK(got == want, "wm_plan_first_record(%llu) = %zu, want %zu", U(lo), got, want);
    }
}

static void sweep_small(void) {
    static layout_t layouts[32];
    static size_t rec_of[32][MAXN + 1];
    static small_plan_t S;
    for (uint64_t n = 0; n <= 70; n++) {
        C = (case_t){ .what = "small text", .n = n };
        size_t n_layouts = make_layouts(n, layouts);
        for (size_t l = 0; l < n_layouts; l++) {
            C.rs = layouts[l].rs;
            C.n_rec = layouts[l].n_rec;
            check_layout(&layouts[l], rec_of[l]);
        }
        C.rs = NULL;
        /* Sub-ranges: all of them for short texts, a few shapes for longer. */
        uint64_t ranges[64][2];
        size_t n_ranges = 0;
        if (n <= 9) {
            for (uint64_t a = 0; a <= n; a++)
                for (uint64_t b = a; b <= n; b++) {
                    ranges[n_ranges][0] = a;
                    ranges[n_ranges++][1] = b;
                }
        } else {
            const uint64_t shapes[][2] = { { 0, n },         { 1, n },
                                           { 0, n - 1 },     { n / 3, 2 * n / 3 },
                                           { n / 2, n / 2 }, { 5, n - 3 },
                                           { n - 1, n } };
            for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
                ranges[n_ranges][0] = shapes[s][0];
                ranges[n_ranges++][1] = shapes[s][1];
            }
        }
        for (size_t g = 0; g < n_ranges; g++) {
            uint64_t from = ranges[g][0], to = ranges[g][1], len = to - from;
            for (int sized = 0; sized <= 1; sized++) {
                uint64_t k_max = sized ? len + 1 : 9;
                for (uint64_t k = 1; k <= k_max + (sized ? 0 : 2); k++) {
                    /* Even plans: 1..9 parts, then more parts than bytes. */
                    uint64_t kk = !sized && k > 9 ? len + (k - 9) : k;
                    if (kk == 0 || kk > MAXPARTS) continue;
                    C.from = from;
                    C.to = to;
                    C.has_plan = 1;
                    C.sized = sized;
                    C.parts_or_size = kk;
                    C.has_halo = C.has_part = 0;
                    C.rs = NULL;
                    S.p = sized ? wm_plan_sized(from, to, kk) : wm_plan_even(from, to, kk);
                    if (!check_plan(&S, sized, kk)) continue;
                    for (size_t l = 0; l < n_layouts; l++) {
                        C.rs = layouts[l].rs;
                        C.n_rec = layouts[l].n_rec;
                        for (uint64_t halo = 0; halo <= 12; halo++) {
                            C.halo = halo;
                            C.has_halo = 1;
                            check_pieces(&S, &layouts[l], rec_of[l]);
                        }
                        C.has_halo = 0;
                    }
                }
            }
        }
    }
}

/* ---- large offsets: sampled parts and ends ---------------------------------------- */

/* Part i of the plan by the documented rule, in 128 bits. */
static void rule_part(const wm_plan_t *p, uint64_t i, int sized, uint64_t k, u128 *lo, u128 *hi) {
    u128 len = (u128)p->to - p->from;
    if (sized) {
        *lo = (u128)p->from + (u128)i * k;
        *hi = *lo + k > (u128)p->to ? (u128)p->to : *lo + k;
    } else {
        u128 q = len / k, r = len % k;
        *lo = (u128)p->from + (u128)i * q + ((u128)i < r ? (u128)i : r);
        *hi = *lo + q + ((u128)i < r);
    }
}

/* Pieces of part [lo, hi) by looking at every record (few of them here). */
static void check_large_pieces(uint64_t lo, uint64_t hi, const uint64_t *rs, size_t n_rec) {
    static const uint64_t halos[] = {
        0, 1, 12, (uint64_t)1 << 33, (uint64_t)1 << 62, UINT64_MAX - 1, UINT64_MAX
    };
    for (size_t h = 0; h < sizeof halos / sizeof *halos; h++) {
        C.halo = halos[h];
        C.has_halo = 1;
        size_t r = wm_plan_first_record(rs, n_rec, lo);
        size_t want_first = n_rec;
        for (size_t q = 0; q < n_rec; q++)
            if (rs[q + 1] > lo) {
                want_first = q;
                break;
            }
        CHECK(r == want_first, "wm_plan_first_record(%llu) = %zu, want %zu", U(lo), r, want_first);
        wm_piece_t pc;
        for (size_t q = 0; q < n_rec; q++) {
            u128 own_from = rs[q] > lo ? rs[q] : lo, own_to = rs[q + 1] < hi ? rs[q + 1] : hi;
            if (own_to <= own_from) continue; /* no end of the part here */
            i128 scan = (i128)own_from - (i128)halos[h];
            if (scan < (i128)rs[q]) scan = (i128)rs[q];
            int got = wm_plan_next_piece(rs, n_rec, halos[h], lo, hi, &r, &pc);
            CHECK(got, "no piece for record %zu", q);
            if (!got) return;
            CHECK(pc.rec == q && pc.own_from == own_from && pc.own_to == own_to &&
                      (i128)pc.scan_from == scan,
                  "piece {rec %zu, scan %llu, own (%llu, %llu]}, want {rec %zu, scan %llu, "
                  "own (%llu, %llu]}",
                  pc.rec, U(pc.scan_from), U(pc.own_from), U(pc.own_to), q, U(scan), U(own_from),
                  U(own_to));
        }
        CHECK(!wm_plan_next_piece(rs, n_rec, halos[h], lo, hi, &r, &pc),
              "a piece of record %zu after the last one", pc.rec);
    }
    C.has_halo = 0;
}

static void check_large_plan(wm_plan_t p, int sized, uint64_t k, const uint64_t *rs, size_t n_rec) {
    C.has_plan = 1;
    C.sized = sized;
    C.parts_or_size = k;
    C.has_part = C.has_halo = 0;
    u128 len = (u128)p.to - p.from;
    u128 want_n = sized ? (len + k - 1) / k : k;
    CHECK(p.from == C.from && p.to == C.to && p.n == want_n, "plan [%llu, %llu), %llu parts",
          U(p.from), U(p.to), U(p.n));
    if (p.n != want_n || p.n == 0) return;
    /* Sampled parts: the first and last few, the middle, some at random. */
    uint64_t idx[40];
    size_t n_idx = 0;
    for (uint64_t i = 0; i < 8 && i < p.n; i++) idx[n_idx++] = i;
    for (uint64_t i = 0; i < 8 && i < p.n; i++) idx[n_idx++] = p.n - 1 - i;
    idx[n_idx++] = p.n / 2;
    if (!sized) idx[n_idx++] = (uint64_t)(len % k); /* the first short part */
    if (!sized && len % k) idx[n_idx++] = (uint64_t)(len % k) - 1;
    while (n_idx < 40) idx[n_idx++] = below(p.n);
    for (size_t t = 0; t < n_idx; t++) {
        uint64_t i = idx[t];
        if (i >= p.n) continue;
        C.part = i;
        C.has_part = 1;
        uint64_t lo, hi;
        wm_plan_part(&p, i, &lo, &hi);
        u128 wlo, whi;
        rule_part(&p, i, sized, k, &wlo, &whi);
        CHECK(lo == wlo && hi == whi, "part [%llu, %llu), the rule says [%llu, %llu)", U(lo), U(hi),
              U(wlo), U(whi));
        if (i > 0) {
            uint64_t plo, phi;
            wm_plan_part(&p, i - 1, &plo, &phi);
            CHECK(phi == lo, "part %llu ends at %llu, the next starts at %llu", U(i - 1), U(phi),
                  U(lo));
        }
        if (i == 0) CHECK(lo == p.from, "part 0 starts at %llu", U(lo));
        if (i == p.n - 1) CHECK(hi == p.to, "the last part ends at %llu", U(hi));
        if (lo != wlo || hi != whi) continue;
        if (hi > lo) {
            uint64_t es[] = { lo + 1, hi, lo + 1 + (hi - lo) / 2, hi - (hi - lo > 1),
                              lo + 1 + below(hi - lo) };
            for (size_t j = 0; j < sizeof es / sizeof *es; j++)
                CHECK(wm_plan_owner(&p, es[j]) == i, "wm_plan_owner(%llu) = %llu", U(es[j]),
                      U(wm_plan_owner(&p, es[j])));
        }
        check_large_pieces(lo, hi, rs, n_rec);
    }
    C.has_part = 0;
    /* Random ends: the owner's bytes hold e - 1. */
    for (int t = 0; t < 200; t++) {
        uint64_t e = p.from + 1 + below((uint64_t)len);
        uint64_t i = wm_plan_owner(&p, e);
        CHECK(i < p.n, "wm_plan_owner(%llu) = %llu of %llu parts", U(e), U(i), U(p.n));
        if (i >= p.n) continue;
        uint64_t lo, hi;
        wm_plan_part(&p, i, &lo, &hi);
        CHECK(lo < e && e <= hi, "wm_plan_owner(%llu) = %llu, whose bytes are [%llu, %llu)", U(e),
              U(i), U(lo), U(hi));
    }
}

static void sweep_large(void) {
    const uint64_t T40 = (uint64_t)1 << 40, M = UINT64_MAX;
    static const uint64_t spans[][2] = {
        { 0, ((uint64_t)1 << 40) + 7 },
        { ((uint64_t)1 << 40) - 3, ((uint64_t)1 << 41) + 5 },
        { 0, UINT64_MAX },
        { 5, UINT64_MAX - 1 },
        { UINT64_MAX - 100, UINT64_MAX },
        { UINT64_MAX / 2 + 1, UINT64_MAX },
    };
    for (size_t s = 0; s < sizeof spans / sizeof *spans; s++) {
        uint64_t from = spans[s][0], to = spans[s][1], len = to - from;
        /* The text is [0, to): records with borders at and around the span's
        ** ends and middle, empty ones among them. */
        uint64_t mid = from + len / 2;
        uint64_t cand[] = { from,    from,   from + 1, mid - 3, mid, mid,  mid + 1,
                            to - 40, to - 2, to,       to,      T40, M / 3 };
        uint64_t rs[32];
        size_t n_rec = 0;
        rs[n_rec++] = 0;
        for (size_t c = 0; c < sizeof cand / sizeof *cand; c++)
            if (cand[c] <= to) rs[n_rec++] = cand[c];
        qsort(rs, n_rec, sizeof *rs, cmp_u64);
        rs[n_rec] = to;
        C = (case_t){
            .what = "large text", .n = to, .from = from, .to = to, .rs = rs, .n_rec = n_rec
        };
        /* Record lookups at every border and between. */
        for (size_t r = 0; r < n_rec; r++) {
            if (rs[r + 1] == rs[r]) continue;
            uint64_t es[] = { rs[r] + 1, rs[r + 1], rs[r] + 1 + (rs[r + 1] - rs[r]) / 2,
                              rs[r] + 1 + below(rs[r + 1] - rs[r]) };
            for (size_t j = 0; j < sizeof es / sizeof *es; j++) {
                int unique;
                size_t want = brute_record(rs, n_rec, es[j], &unique);
                size_t got = wm_plan_record_of_end(rs, n_rec, es[j]);
                CHECK(unique && got == want, "wm_plan_record_of_end(%llu) = %zu, want %zu",
                      U(es[j]), got, want);
            }
        }
        uint64_t parts[] = { 1,
                             2,
                             3,
                             7,
                             9,
                             1000,
                             ((uint64_t)1 << 32) + 1,
                             len / 3 + 1,
                             len ? len : 1,
                             len + (len < M) };
        for (size_t j = 0; j < sizeof parts / sizeof *parts; j++)
            check_large_plan(wm_plan_even(from, to, parts[j]), 0, parts[j], rs, n_rec);
        uint64_t sizes[] = { 1, 2, 3, len / 7, len / 7 + 1, len - 1, len, len + (len < M), T40, M };
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
            if (sizes[j] >= 1)
                check_large_plan(wm_plan_sized(from, to, sizes[j]), 1, sizes[j], rs, n_rec);
    }
    /* wm_plan_scan_from at the edges of the range. */
    C = (case_t){ .what = "wm_plan_scan_from" };
    CHECK(wm_plan_scan_from(0, M, M) == 0, "scan_from(0, max, max)");
    CHECK(wm_plan_scan_from(0, M, M - 1) == 1, "scan_from(0, max, max - 1)");
    CHECK(wm_plan_scan_from(5, M, M - 5) == 5, "scan_from(5, max, max - 5)");
    CHECK(wm_plan_scan_from(M, M, 0) == M, "scan_from(max, max, 0)");
    CHECK(wm_plan_scan_from(M - 1, M, 0) == M, "scan_from(max - 1, max, 0)");
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 20260415ull, NULL, NULL);
    sweep_small();
    sweep_large();
    return test_finish();
}
