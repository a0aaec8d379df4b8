/*
** fuzz_seqrange.c -- the byte-range reader of MPI jobs, src/io/seqrange.c,
** against the whole-file reader, wm_seqfile_read.
**
** The input is a file. It is read in N parts, in both modes (records;
** sequence: a plain file is one sequence, blanks dropped):
**   - by wm_range_read itself, one thread per part with a barrier as the
**     allgather (what MPI ranks run), N = 2, 3 and 4..8 (by the input's
**     size), the parts cut where the library cuts them (even shares);
**   - by the same protocol run step by step in one thread (open, FASTQ
**     start walk, parse, exchange of summaries, finish: wm_range_read's
**     order), the cuts at offsets taken from the input's bytes, so that
**     the fuzzer moves them; N = 2..9.
** Oracle: the whole-file reader fails exactly when some part fails, and
** then the first part that fails says what the whole reader says (the
** same message; in sequence mode a plain file's binary byte fails the
** parts only). Else the parts' records, in part order, joined by global
** record index from each one's offset (base), rebuild every record of the
** whole read exactly once - bytes and names - and each part's halo is the
** record's bytes just before its slice, as many as asked or up to the
** record's start.
*/
#include <pthread.h>
#include <string.h>

#include "fuzz.h"
#include "io/seqparse.h"
#include "io/seqrange.h"

#define MAX_PARTS 9

typedef struct {
    wm_range_t R;
    wm_status st;
    char err[1024];
} part_t;

/* ---- the whole read, and what the parts must rebuild ------------------------ */

typedef struct {
    wm_status st;
    char err[1024];
    wm_seqfile_t sf;
    int joined_mode, joined_bad;
    uint8_t *joined;
    uint64_t joined_len;
} whole_t;

static size_t whole_n_rec(const whole_t *w) {
    return w->joined_mode ? 1 : (w->sf.text.n_rec ? w->sf.text.n_rec : 1);
}

static const uint8_t *whole_rec(const whole_t *w, size_t g, uint64_t *len) {
    if (w->joined_mode) {
        *len = w->joined_len;
        return w->joined;
    }
    const wm_text_t *t = &w->sf.text;
    if (t->n_rec == 0) {
        *len = t->len;
        return t->seq;
    }
    *len = t->rec_start[g + 1] - t->rec_start[g];
    return t->seq + t->rec_start[g];
}

static void check_parts(const whole_t *w, part_t *P, size_t N, uint64_t halo, const char *path,
                        const char *what) {
    size_t first_bad = N;
    for (size_t p = 0; p < N; p++)
        if (P[p].st != WM_OK) {
            first_bad = p;
            break;
        }
    if (w->st != WM_OK || w->joined_bad) {
        FZ_CHECK(first_bad < N, "%s: the whole read fails (%s), no part does", what,
                 w->joined_bad ? "binary byte in a plain sequence" : w->err);
        if (!w->joined_bad)
            FZ_CHECK(strcmp(P[first_bad].err, w->err) == 0,
                     "%s: part %zu says\n  '%s'\nwhole:\n  '%s'", what, first_bad, P[first_bad].err,
                     w->err);
        return;
    }
    FZ_CHECK(first_bad == N, "%s: the whole read succeeds, part %zu fails: %s", what, first_bad,
             first_bad < N ? P[first_bad].err : "");

    size_t n_rec = whole_n_rec(w);
    uint64_t *next = calloc(n_rec, sizeof *next);
    char *seen = calloc(n_rec, 1);
    if (!next || !seen) abort();
    for (size_t p = 0; p < N; p++) {
        const wm_range_t *R = &P[p].R;
        for (size_t r = 0; r < R->text.n_rec; r++) {
            uint64_t g = R->grec[r], glen;
            FZ_CHECK(g < n_rec, "%s: part %zu record %zu: global index %llu of %zu", what, p, r,
                     (unsigned long long)g, n_rec);
            const uint8_t *gs = whole_rec(w, g, &glen);
            const char *want = w->joined_mode ? path : w->sf.names[g];
            FZ_CHECK(strcmp(R->names[r], want) == 0,
                     "%s: part %zu record %zu named '%s', want '%s'", what, p, r, R->names[r],
                     want);
            uint64_t a = R->text.rec_start[r], e = R->text.rec_start[r + 1], base = R->base[r];
            FZ_CHECK(a <= e && base + (e - a) <= glen,
                     "%s: part %zu record %zu runs past its record", what, p, r);
            FZ_CHECK(e == a || memcmp(R->text.seq + a, gs + base, (size_t)(e - a)) == 0,
                     "%s: part %zu record %zu: bytes differ from the record's at %llu", what, p, r,
                     (unsigned long long)base);
            uint64_t own = 0;
            if (r == 0 && R->continues) {
                own = R->halo;
                uint64_t want_h = base + R->halo < halo ? base + R->halo : halo;
                FZ_CHECK(R->halo == want_h, "%s: part %zu: halo %llu, want %llu", what, p,
                         (unsigned long long)R->halo, (unsigned long long)want_h);
                FZ_CHECK(seen[g], "%s: part %zu continues record %llu before its start", what, p,
                         (unsigned long long)g);
            } else {
                FZ_CHECK(!seen[g], "%s: record %llu begins twice", what, (unsigned long long)g);
                seen[g] = 1;
            }
            FZ_CHECK(base + own == next[g], "%s: part %zu record %zu owns from %llu, want %llu",
                     what, p, r, (unsigned long long)(base + own), (unsigned long long)next[g]);
            next[g] = base + (e - a);
        }
    }
    int plain = w->joined_mode || w->sf.format == WM_FMT_PLAIN;
    for (size_t g = 0; g < n_rec; g++) {
        uint64_t glen;
        (void)whole_rec(w, g, &glen);
        /* An empty plain input may have no piece at all. */
        if (!(plain && glen == 0))
            FZ_CHECK(seen[g], "%s: record %zu (of %zu) is in no part", what, g, n_rec);
        FZ_CHECK(next[g] == glen, "%s: record %zu rebuilt to %llu of %llu bytes", what, g,
                 (unsigned long long)next[g], (unsigned long long)glen);
    }
    free(next);
    free(seen);
}

static void whole_read(whole_t *w, const char *path, wm_range_mode_t mode) {
    memset(w, 0, sizeof *w);
    w->st = wm_seqfile_read(path, 0, &w->sf, w->err, sizeof w->err);
    if (w->st != WM_OK || mode != WM_RANGE_SEQUENCE || w->sf.format != WM_FMT_PLAIN) return;
    /* A plain file read as one sequence: blanks dropped, binary bytes refused. */
    w->joined_mode = 1;
    w->joined = malloc(w->sf.text.len + 1);
    if (!w->joined) abort();
    for (uint64_t i = 0; i < w->sf.text.len; i++) {
        uint8_t c = w->sf.text.seq[i];
        if (c > 0x20 && c < 0x7f) w->joined[w->joined_len++] = c;
        else if (!is_blank(c)) w->joined_bad = 1;
    }
}

static void whole_free(whole_t *w) {
    wm_seqfile_close(&w->sf);
    free(w->joined);
}

/* ---- wm_range_read in threads ------------------------------------------------------- */

typedef struct {
    pthread_barrier_t bar;
    size_t n;
    unsigned char slots[MAX_PARTS][256];
} group_t;

typedef struct {
    group_t *g;
    size_t part;
    part_t *P;
    const char *path;
    wm_range_mode_t mode;
    uint64_t halo;
} member_t;

static void thread_allgather(void *user, const void *mine, size_t bytes, void *all) {
    member_t *me = user;
    group_t *g = me->g;
    if (bytes > sizeof g->slots[0]) abort();
    memcpy(g->slots[me->part], mine, bytes);
    pthread_barrier_wait(&g->bar);
    for (size_t q = 0; q < g->n; q++) memcpy((unsigned char *)all + q * bytes, g->slots[q], bytes);
    pthread_barrier_wait(&g->bar);
}

static void *run_part(void *arg) {
    member_t *me = arg;
    part_t *p = &me->P[me->part];
    p->st = wm_range_read(&p->R, me->path, me->mode, me->part, me->g->n, me->halo, thread_allgather,
                          me, p->err, sizeof p->err);
    return NULL;
}

static void threaded(part_t *P, size_t N, const char *path, wm_range_mode_t mode, uint64_t halo) {
    group_t g;
    member_t m[MAX_PARTS];
    pthread_t th[MAX_PARTS];
    g.n = N;
    pthread_barrier_init(&g.bar, NULL, (unsigned)N);
    for (size_t p = 0; p < N; p++) {
        memset(&P[p], 0, sizeof P[p]);
        m[p] = (member_t){ &g, p, P, path, mode, halo };
        if (pthread_create(&th[p], NULL, run_part, &m[p]) != 0) abort();
    }
    for (size_t p = 0; p < N; p++) pthread_join(th[p], NULL);
    pthread_barrier_destroy(&g.bar);
}

/* ---- the protocol step by step, cuts chosen by the input ----------------------------- */

static void stepwise(part_t *P, size_t N, const uint64_t *lo, const char *path,
                     wm_range_mode_t mode, uint64_t halo, const uint8_t *f, uint64_t size) {
    uint64_t starts[MAX_PARTS + 1];
    wm_range_summary_t sums[MAX_PARTS];
    int whole = 0;
    for (size_t q = 0; q < N; q++) {
        memset(&P[q], 0, sizeof P[q]);
        P[q].R.fd = -1; /* closed by wm_range_close even if never opened */
    }
    for (size_t q = 0; q < N; q++) {
        P[q].st = wm_range_open(&P[q].R, path, mode, q, N, P[q].err, sizeof P[q].err);
        if (P[q].st != WM_OK) return;
        whole |= P[q].R.whole;
    }
    if (whole) {
        for (size_t q = 0; q < N; q++) {
            P[q].R.whole = 1;
            P[q].st = wm_range_read_whole(&P[q].R, q, P[q].err, sizeof P[q].err);
        }
        return;
    }
    wm_format_t fmt = P[0].R.format;
    starts[0] = 0;
    for (size_t q = 1; q < N; q++) {
        uint64_t g = lo[q];
        if (fmt == WM_FMT_FASTA) g = wm_range_line_start(f, size, g);
        else if (fmt == WM_FMT_FASTQ) {
            g = wm_range_line_start(f, size, g);
            while (g < size && !wm_range_fastq_starts_at(f, size, g))
                g = wm_range_line_start(f, size, g + 1);
        }
        starts[q] = g;
    }
    starts[N] = size;
    for (size_t q = 1; q <= N; q++)
        if (starts[q] < starts[q - 1]) starts[q] = starts[q - 1];
    for (size_t round = 0; fmt == WM_FMT_FASTQ && round <= N; round++) {
        uint64_t next[MAX_PARTS];
        for (size_t q = 0; q + 1 < N; q++) {
            next[q] = starts[q + 1];
            if (starts[q] < starts[q + 1])
                wm_range_fastq_next(&P[q].R, starts[q], starts[q + 1], &next[q], P[q].err,
                                    sizeof P[q].err);
        }
        int moved = 0;
        for (size_t q = 0; q + 1 < N; q++)
            if (next[q] != starts[q + 1]) {
                starts[q + 1] = next[q];
                moved = 1;
            }
        for (size_t q = 1; q <= N; q++)
            if (starts[q] < starts[q - 1]) starts[q] = starts[q - 1];
        if (!moved) break;
    }
    for (size_t q = 0; q < N; q++) {
        P[q].err[0] = '\0';
        P[q].st =
            wm_range_parse(&P[q].R, starts[q], starts[q + 1], halo, P[q].err, sizeof P[q].err);
        if (P[q].st != WM_OK) return;
        sums[q] = P[q].R.sum;
    }
    for (size_t q = 0; q < N; q++)
        P[q].st = wm_range_finish(&P[q].R, sums, N, q, halo, P[q].err, sizeof P[q].err);
}

/* ---- the input ------------------------------------------------------------------------ */

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[400], what[200];
    part_t P[MAX_PARTS];
    snprintf(path, sizeof path, "%s", fz_path("in"));
    fz_write(path, data, size);

    /* A seed from the bytes: halos and cuts follow the input. */
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ULL;

    for (int m = 0; m < 2; m++) {
        wm_range_mode_t mode = m ? WM_RANGE_SEQUENCE : WM_RANGE_RECORDS;
        whole_t w;
        whole_read(&w, path, mode);
        static const size_t fixed[2] = { 2, 3 };
        for (int k = 0; k < 3; k++) {
            size_t N = k < 2 ? fixed[k] : 4 + size % 5;
            uint64_t halo = mix(h + (uint64_t)k) % 4 == 0 ? 0 : mix(h ^ (uint64_t)k) % 40;
            snprintf(what, sizeof what, "wm_range_read, %s mode, %zu parts, halo %llu",
                     m ? "sequence" : "records", N, (unsigned long long)halo);
            threaded(P, N, path, mode, halo);
            check_parts(&w, P, N, halo, path, what);
            for (size_t p = 0; p < N; p++) wm_range_close(&P[p].R);
        }
        /* Cuts from the input: N - 1 offsets, sorted. */
        size_t N = 2 + (size_t)(mix(h) % 8);
        uint64_t lo[MAX_PARTS], halo = mix(h + 7) % 20;
        lo[0] = 0;
        for (size_t q = 1; q < N; q++) lo[q] = size ? mix(h + 100 + q) % (size + 1) : 0;
        for (size_t q = 1; q < N; q++) /* insertion sort */
            for (size_t j = q; j > 1 && lo[j] < lo[j - 1]; j--) {
                uint64_t t = lo[j];
                lo[j] = lo[j - 1];
                lo[j - 1] = t;
            }
        snprintf(what, sizeof what,
                 "step by step, %s mode, %zu parts cut at %llu %llu %llu..., halo %llu",
                 m ? "sequence" : "records", N, (unsigned long long)lo[1],
                 (unsigned long long)(N > 2 ? lo[2] : 0), (unsigned long long)(N > 3 ? lo[3] : 0),
                 (unsigned long long)halo);
        stepwise(P, N, lo, path, mode, halo, data, size);
        check_parts(&w, P, N, halo, path, what);
        for (size_t p = 0; p < N; p++) wm_range_close(&P[p].R);
        whole_free(&w);
    }
    return 0;
}
