/*
** test_seqrange.c -- the byte-range reader (src/io/seqrange.c) against the
** whole-file reader (src/io/seqfile.c).
**
** Random FASTA, FASTQ and plain files (many short records, empty ones, CRLF,
** blank lines, long and one-byte lines, quality lines that start with '@' or
** '+', names of every length) are read in N parts, N = 1..7, each part a
** thread running wm_range_read with a barrier as its allgather - the same
** protocol MPI ranks run. Then, for every part and local record: the name is
** the global record's, every byte (halo included) is the global record's
** byte at its offset, the halo is as long as asked or reaches the record's
** start, and the owned bytes of all parts, in part order, tile each record
** exactly once. Broken files (binary bytes, headers without names, truncated
** FASTQ, data before the first header) must fail in the first part that
** fails with the message the whole-file reader gives.
** WM_SEED, WM_TEST_SCALE, WM_CASE and WM_VERBOSE (keeps a failing case's
** file) as the differential tests. Last line: "N passed, N failed".
*/
#include "io/seqrange.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "harness.h"
#include "rng.h"

/* ---- the threads' allgather ----------------------------------------------------- */

typedef struct {
    pthread_barrier_t bar;
    size_t n;
    unsigned char slots[8][256];
} group_t;

typedef struct {
    group_t *g;
    size_t part;
} member_t;

static void thread_allgather(void *user, const void *mine, size_t bytes, void *all) {
    member_t *me = user;
    group_t *g = me->g;
    memcpy(g->slots[me->part], mine, bytes);
    pthread_barrier_wait(&g->bar);
    for (size_t q = 0; q < g->n; q++) memcpy((unsigned char *)all + q * bytes, g->slots[q], bytes);
    pthread_barrier_wait(&g->bar);
}

typedef struct {
    member_t me;
    const char *path;
    wm_range_mode_t mode;
    uint64_t halo;
    wm_range_t R;
    wm_status st;
    char err[1024];
} job_t;

static void *run_part(void *arg) {
    job_t *j = arg;
    j->st = wm_range_read(&j->R, j->path, j->mode, j->me.part, j->me.g->n, j->halo,
                          thread_allgather, &j->me, j->err, sizeof j->err);
    return NULL;
}

/* ---- random files ----------------------------------------------------------------- */

typedef struct {
    char *p;
    size_t n, cap;
} sbuf_t;

static void put(sbuf_t *b, const void *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void puts_(sbuf_t *b, const char *s) { put(b, s, strlen(s)); }
static void putc_(sbuf_t *b, char c) { put(b, &c, 1); }

static void newline(sbuf_t *b, int crlf) { puts_(b, crlf ? "\r\n" : "\n"); }

static void random_name(sbuf_t *b) {
    size_t len = chance(5) ? range(100, 400) : range(1, 12);
    for (size_t i = 0; i < len; i++) putc_(b, (char)('a' + below(26)));
    if (chance(30)) puts_(b, " some description");
}

static void random_seq_lines(sbuf_t *b, size_t len, int crlf) {
    size_t width = chance(20) ? 1 : chance(50) ? range(2, 10) : range(30, 200);
    for (size_t i = 0; i < len; i++) {
        putc_(b, "ACGTN"[below(chance(95) ? 4 : 5)]);
        if ((i + 1) % width == 0 && i + 1 < len) newline(b, crlf);
    }
    newline(b, crlf);
}

static void make_fasta(sbuf_t *b) {
    int crlf = chance(20);
    size_t n_rec = chance(10) ? 1 : range(1, 40);
    if (chance(20)) newline(b, crlf);
    for (size_t r = 0; r < n_rec; r++) {
        putc_(b, '>');
        random_name(b);
        newline(b, crlf);
        size_t len = chance(15) ? 0 : chance(10) ? range(500, 5000) : range(1, 120);
        if (len) random_seq_lines(b, len, crlf);
        if (chance(10)) newline(b, crlf);
    }
}

static void make_fastq(sbuf_t *b) {
    size_t n_rec = range(1, 60);
    for (size_t r = 0; r < n_rec; r++) {
        putc_(b, '@');
        random_name(b);
        putc_(b, '\n');
        size_t len = chance(10) ? 0 : range(1, 150);
        int multi = chance(30);
        for (size_t i = 0; i < len; i++) {
            putc_(b, "ACGT"[below(4)]);
            if (multi && (i + 1) % 37 == 0 && i + 1 < len) putc_(b, '\n');
        }
        puts_(b, "\n+\n");
        /* Qualities that look like headers and '+' lines, on purpose. */
        for (size_t i = 0; i < len; i++) {
            char q = chance(10) ? '@' : chance(10) ? '+' : (char)('!' + below(40));
            putc_(b, q);
            if (multi && (i + 1) % 37 == 0 && i + 1 < len) putc_(b, '\n');
        }
        if (len > 0 || chance(50)) putc_(b, '\n');
        if (chance(5)) putc_(b, '\n');
    }
}

static void make_plain(sbuf_t *b) {
    size_t len = range(0, 3000);
    for (size_t i = 0; i < len; i++)
        putc_(b, chance(5)   ? '\n'
                 : chance(3) ? ' '
                 : chance(1) ? (char)below(256)
                             : (char)('a' + below(4)));
}

/* Damage a file so that reading fails somewhere in it. */
static void damage(sbuf_t *b, int fmt) {
    if (b->n == 0) return;
    size_t at = (size_t)below(b->n);
    switch (below(3)) {
    case 0: b->p[at] = (char)0x01; break; /* a binary byte */
    case 1:
        if (fmt == 2) b->n = at;
        else b->p[at] = (char)0x7f;
        break; /* truncate */
    default:
        if (fmt == 1) { /* data before a header */
            memmove(b->p + 4, b->p, b->n);
            memcpy(b->p, "ACG\n", 4);
            b->n += 4;
        } else {
            b->p[at] = (char)0x02;
        }
    }
}

/* ---- one case ---------------------------------------------------------------------- */

static int check_case(const char *path, wm_range_mode_t mode, size_t n_parts, uint64_t halo,
                      const char *what) {
    long fails_before = g_failed;
    wm_seqfile_t sf;
    char err[1024] = "";
    wm_status st = wm_seqfile_read(path, 0, &sf, err, sizeof err);

    /* The reference for a plain file read as one sequence: blanks dropped. */
    uint8_t *joined = NULL;
    uint64_t joined_len = 0;
    int joined_bad = 0;
    if (st == WM_OK && mode == WM_RANGE_SEQUENCE && sf.format == WM_FMT_PLAIN) {
        joined = malloc(sf.text.len + 1);
        for (uint64_t i = 0; i < sf.text.len; i++) {
            uint8_t c = sf.text.seq[i];
            if (c > 0x20 && c < 0x7f) joined[joined_len++] = c;
            else if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')) {
                joined_bad = 1;
                break;
            }
        }
    }

    group_t g;
    g.n = n_parts;
    pthread_barrier_init(&g.bar, NULL, (unsigned)n_parts);
    job_t jobs[8];
    pthread_t th[8];
    for (size_t p = 0; p < n_parts; p++) {
        memset(&jobs[p], 0, sizeof jobs[p]);
        jobs[p].me.g = &g;
        jobs[p].me.part = p;
        jobs[p].path = path;
        jobs[p].mode = mode;
        jobs[p].halo = halo;
        pthread_create(&th[p], NULL, run_part, &jobs[p]);
    }
    for (size_t p = 0; p < n_parts; p++) pthread_join(th[p], NULL);
    pthread_barrier_destroy(&g.bar);

    size_t first_bad = n_parts;
    for (size_t p = 0; p < n_parts; p++)
        if (jobs[p].st != WM_OK) {
            first_bad = p;
            break;
        }
    if (st != WM_OK || joined_bad) {
        CHECK(first_bad < n_parts, "%s: the whole read fails (%s), no part does", what, err);
        if (first_bad < n_parts && !joined_bad)
            CHECK(strcmp(jobs[first_bad].err, err) == 0, "%s: part %zu says '%s', whole '%s'", what,
                  first_bad, jobs[first_bad].err, err);
        goto out;
    }
    CHECK(first_bad == n_parts, "%s: part %zu fails: %s", what, first_bad,
          first_bad < n_parts ? jobs[first_bad].err : "");
    if (first_bad < n_parts) goto out;
    for (size_t p = 0; p < n_parts; p++)
        CHECK(jobs[p].R.unread == (mode == WM_RANGE_RECORDS_UNREAD) &&
                  jobs[p].R.mode ==
                      (mode == WM_RANGE_SEQUENCE ? WM_RANGE_SEQUENCE : WM_RANGE_RECORDS),
              "%s: part %zu reads in mode %d (unread %d)", what, p, (int)jobs[p].R.mode,
              jobs[p].R.unread);

    int joinedmode = joined != NULL;
    size_t n_rec = joinedmode ? 1 : (sf.text.n_rec ? sf.text.n_rec : 1);
    uint64_t *next = calloc(n_rec, sizeof *next); /* next owned offset per record */
    int *seen = calloc(n_rec, sizeof *seen);      /* the record's own piece seen */
    for (size_t p = 0; p < n_parts; p++) {
        wm_range_t *R = &jobs[p].R;
        for (size_t r = 0; r < R->text.n_rec; r++) {
            uint64_t g = R->grec[r];
            if (g >= n_rec) {
                CHECK(0, "%s: part %zu record %zu: global index %llu of %zu", what, p, r,
                      (unsigned long long)g, n_rec);
                continue;
            }
            const char *want_name = joinedmode ? path : sf.names[g];
            CHECK(strcmp(R->names[r], want_name) == 0,
                  "%s: part %zu record %zu: name '%s' "
                  "want '%s'",
                  what, p, r, R->names[r], want_name);
            const uint8_t *gs = joinedmode ? joined : sf.text.seq + sf.text.rec_start[g];
            uint64_t glen = joinedmode
                                ? joined_len
                                : (g + 1 < sf.text.n_rec ? sf.text.rec_start[g + 1] : sf.text.len) -
                                      sf.text.rec_start[g];
            if (sf.text.n_rec == 0 && !joinedmode) {
                gs = sf.text.seq;
                glen = sf.text.len;
            }
            uint64_t a = R->text.rec_start[r], e = R->text.rec_start[r + 1];
            uint64_t base = R->base[r];
            CHECK(base + (e - a) <= glen, "%s: part %zu record %zu runs past its record", what, p,
                  r);
            if (base + (e - a) > glen) continue;
            CHECK(memcmp(R->text.seq + a, gs + base, (size_t)(e - a)) == 0,
                  "%s: part %zu record %zu: bytes differ", what, p, r);
            uint64_t own = (r == 0 && R->continues) ? R->halo : 0;
            if (r == 0 && R->continues) {
                uint64_t want_h = base + R->halo < halo ? base + R->halo : halo;
                CHECK(R->halo == want_h, "%s: part %zu: halo %llu, want %llu", what, p,
                      (unsigned long long)R->halo, (unsigned long long)want_h);
                CHECK(seen[g], "%s: part %zu continues record %llu before its start", what, p,
                      (unsigned long long)g);
            } else {
                CHECK(!seen[g], "%s: record %llu begins twice", what, (unsigned long long)g);
                seen[g] = 1;
            }
            CHECK(base + own == next[g], "%s: part %zu record %zu owns from %llu, want %llu", what,
                  p, r, (unsigned long long)(base + own), (unsigned long long)next[g]);
            next[g] = base + (e - a);
        }
    }
    for (size_t g = 0; g < n_rec; g++) {
        uint64_t glen = joinedmode ? joined_len
                        : sf.text.n_rec == 0
                            ? sf.text.len
                            : (g + 1 < sf.text.n_rec ? sf.text.rec_start[g + 1] : sf.text.len) -
                                  sf.text.rec_start[g];
        int needs_piece = !(joinedmode || sf.format == WM_FMT_PLAIN) || glen > 0 || g == 0;
        if (needs_piece && !(sf.format == WM_FMT_PLAIN && glen == 0 && !seen[g]))
            CHECK(seen[g], "%s: record %zu never begins", what, g);
        CHECK(next[g] == glen, "%s: record %zu covered to %llu of %llu", what, g,
              (unsigned long long)next[g], (unsigned long long)glen);
    }
    free(next);
    free(seen);
out:
    for (size_t p = 0; p < n_parts; p++) wm_range_close(&jobs[p].R);
    wm_seqfile_close(&sf);
    free(joined);
    if (g_failed > fails_before && g_verbose) {
        printf("  (file kept: %s)\n", path);
        tmp_keep();
    }
    return g_failed == fails_before;
}

/* Every sequence file of tests/fuzz/regress/ (the inputs of fixed findings:
** issue 21), in 1..8 parts, both modes, halos 0, 1 and 64: the parts must
** read what the whole-file reader reads, or fail as it fails. */
static void check_regress(void) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/../tests/fuzz/regress", repo_data_dir());
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot ||
            (strcmp(dot, ".fa") != 0 && strcmp(dot, ".fq") != 0 && strcmp(dot, ".txt") != 0))
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        static const uint64_t halos[] = { 0, 1, 64 };
        for (int mode = 0; mode < 2; mode++)
            for (size_t h = 0; h < sizeof halos / sizeof halos[0]; h++)
                for (size_t n = 1; n <= 8; n++) {
                    char what[4600];
                    snprintf(what, sizeof what, "regress %s (%s, %zu parts, halo %llu)", e->d_name,
                             mode ? "sequence" : "records", n, (unsigned long long)halos[h]);
                    check_case(path, mode ? WM_RANGE_SEQUENCE : WM_RANGE_RECORDS, n, halos[h],
                               what);
                }
    }
    closedir(d);
}

int main(int argc, char **argv) {
    /* One generator for the whole run (the cases' files follow one another
    ** in its stream): WM_CASE still makes every file, and checks only its. */
    double scale;
    long only = -1;
    test_settings(argc, argv, 20261122ull, &scale, &only);
    g_rng = g_seed;
    size_t cases = (size_t)(400 * scale + 0.5);
    for (size_t c = 0; c < cases; c++) {
        sbuf_t b = { 0 };
        int fmt = (int)below(3); /* 0 plain, 1 FASTA, 2 FASTQ */
        if (fmt == 0) make_plain(&b);
        else if (fmt == 1) make_fasta(&b);
        else make_fastq(&b);
        int broken = chance(15);
        if (broken) damage(&b, fmt);
        uint64_t halo = chance(20) ? 0 : chance(50) ? range(1, 8) : range(9, 400);
        /* unread: the pages are left for the caller's pread, the text the same */
        wm_range_mode_t mode = chance(30)   ? WM_RANGE_SEQUENCE
                               : chance(50) ? WM_RANGE_RECORDS_UNREAD
                                            : WM_RANGE_RECORDS;
        if (only >= 0 && (long)c != only) {
            free(b.p);
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "case%zu.%s", c, fmt == 0 ? "txt" : fmt == 1 ? "fa" : "fq");
        const char *path = tmp_named(name, b.p, b.n);
        free(b.p);
        for (size_t n = 1; n <= 7; n++) {
            char what[400];
            snprintf(what, sizeof what, "case %zu (%s, %s, %zu parts, halo %llu)", c, path,
                     mode == WM_RANGE_SEQUENCE         ? "sequence"
                     : mode == WM_RANGE_RECORDS_UNREAD ? "records, unread"
                                                       : "records",
                     n, (unsigned long long)halo);
            if (!check_case(path, mode, n, halo, what)) break;
        }
        if (g_failed == 0 || !g_verbose) unlink(path);
    }
    if (only < 0) check_regress();
    print_repro(argv[0], NULL);
    return test_finish();
}
