/*
** dist_pairs.c -- `align --pairs QUERY TARGET` over the ranks of an MPI job,
** each rank reading only its share of the two FASTA files.
**
** Record i of QUERY goes with record i of TARGET, so a rank's pairs are the
** same records of both files, which lie at different bytes in each. Every
** rank scans its even share of each file's bytes for record headers (a '>'
** at a line start: in FASTA every such line is a header), and the ranks
** exchange their counts: each header's global index is then known to the
** rank that found it. The pairs are cut among the ranks as align_share cuts
** them (wm_plan_even over the pair count), and the rank that holds header
** lo_s of a file gives the byte where rank s's records start (a sum over
** the ranks, each offset known to one). A rank then parses only the bytes
** [start of its first record, start of the next rank's) of each file,
** rank 0 from byte 0 so that whatever comes before the first header is
** read as the whole file reads it.
**
** FASTQ has no such line rule (a quality line may start with '@'), so its
** ranks first agree on where their shares' records start, as MPI search's
** readers do (io/seqrange.h): each guesses the first record start in its
** share, the rank before checks the guess by walking whole records from its
** own start, and the guesses move until every walk lands on the next one;
** each rank then walks its share's records for their headers.
**
** The whole files decide what the whole files decide in one process: the
** alphabet from the first WM_SNIFF_BYTES sequence bytes (each rank sniffs
** the part of that budget its records hold, after the ranks before it), and
** whether every query is IUPAC. Anything else that the whole read would
** report (counts that differ, a record empty or too long, a parse error,
** gzip input) sends every rank back to reading the whole files,
** which prints the one-process message; so the split changes where bytes
** are read, never what is printed.
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/plan.h"
#include "io/seqrange.h"
#include "io/zsrc.h"
#include "mpi/dist.h"
#include "cli.h"
#include "align.h"

/* One file's headers in this rank's share of its bytes. */
typedef struct {
    const uint8_t *map;
    uint64_t size;
    int fastq;    /* FASTQ (its headers found by fastq_heads), else FASTA */
    uint64_t *at; /* offsets of the headers found, in order */
    size_t n, cap;
} heads_t;

static void heads_free(heads_t *h) {
    if (h->map) munmap((void *)h->map, h->size);
    free(h->at);
    memset(h, 0, sizeof *h);
}

static int heads_push(heads_t *h, uint64_t at) {
    if (wm_vec_grow((void **)&h->at, &h->cap, h->n + 1, sizeof *h->at)) return -1;
    h->at[h->n++] = at;
    return 0;
}

static int heads_push_cb(void *user, uint64_t at) { return heads_push(user, at); }

/* A FASTA share's headers found by threads: piece i keeps the line starts
** in its bytes that hold '>', and the pieces are joined in order. On one
** thread a rank's scan of 1.7 GB (its pages faulted in one by one) took
** longer than one process's parallel parse of the whole file. */
typedef struct {
    const uint8_t *f;
    uint64_t lo, hi, piece;
    heads_t *part; /* one a piece */
    int failed;    /* a piece ran out of memory (atomic) */
} scan_job_t;

static void scan_piece(void *arg, size_t i, int tid) {
    (void)tid;
    scan_job_t *J = arg;
    const uint8_t *f = J->f;
    uint64_t a = J->lo + (uint64_t)i * J->piece, b = J->hi - a > J->piece ? a + J->piece : J->hi;
    /* its line starts p in [a, b): p = 0 or f[p - 1] = '\n'; a line may run past b */
    uint64_t p = a;
    if (p > 0 && f[p - 1] != '\n') {
        const uint8_t *nl = memchr(f + p, '\n', (size_t)(b - p));
        p = nl ? (uint64_t)(nl - f) + 1 : b;
    }
    while (p < b) {
        if (f[p] == '>' && heads_push(&J->part[i], p) < 0) {
            __atomic_store_n(&J->failed, 1, __ATOMIC_RELAXED);
            return;
        }
        const uint8_t *nl = memchr(f + p, '\n', (size_t)(J->hi - p));
        p = nl ? (uint64_t)(nl - f) + 1 : J->hi;
    }
}

static int fasta_heads(heads_t *h, uint64_t lo, uint64_t hi, wm_pool_t *pool) {
    const uint64_t min_piece = 4096; /* small files too: the tests' borders fall in pieces */
    uint64_t n = hi - lo, pieces = 4 * (uint64_t)wm_pool_size(pool);
    if (pieces > (n + min_piece - 1) / min_piece) pieces = (n + min_piece - 1) / min_piece;
    if (pieces == 0) return 0;
    scan_job_t J = {
        h->map, lo, hi, (n + pieces - 1) / pieces, calloc(pieces, sizeof(heads_t)), 0
    };
    if (!J.part) return -1;
    wm_pool_for(pool, (size_t)pieces, scan_piece, &J);
    size_t total = 0;
    for (uint64_t i = 0; i < pieces; i++) total += J.part[i].n;
    int rc = J.failed || wm_vec_grow((void **)&h->at, &h->cap, total, sizeof *h->at) ? -1 : 0;
    for (uint64_t i = 0; i < pieces; i++) {
        if (rc == 0 && J.part[i].n > 0) { /* none: h->at may still be NULL */
            memcpy(h->at + h->n, J.part[i].at, J.part[i].n * sizeof *h->at);
            h->n += J.part[i].n;
        }
        free(J.part[i].at);
    }
    free(J.part);
    return rc;
}

/* Map path and, for FASTA, find the headers in this rank's share of it on
** the pool's threads (FASTQ's need every rank: fastq_heads). Returns 0, or
** -1 when the file is not an uncompressed FASTA or FASTQ file that can be
** mapped, or out of memory. */
static int heads_scan(heads_t *h, const char *path, wm_pool_t *pool) {
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
        close(fd);
        return -1;
    }
    h->size = (uint64_t)st.st_size;
    void *m = mmap(NULL, (size_t)h->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        h->size = 0;
        return -1;
    }
    h->map = m;
    const uint8_t *f = h->map;
    const char *what;
    if (wm_zmagic(f, h->size < WM_ZMAGIC_LEN ? h->size : WM_ZMAGIC_LEN, &what) != WM_Z_PLAIN)
        return -1;
    uint64_t i = 0; /* FASTA as wm_seqfile_read detects it: the first non-blank byte */
    while (i < h->size && (f[i] == ' ' || f[i] == '\t' || f[i] == '\r' || f[i] == '\n' ||
                           f[i] == '\v' || f[i] == '\f'))
        i++;
    if (i == h->size || (f[i] != '>' && f[i] != '@')) return -1;
    h->fastq = f[i] == '@';
    if (h->fastq) return 0;
    wm_plan_t plan = wm_plan_even(0, h->size, (uint64_t)wm_dist.size);
    uint64_t lo, hi;
    wm_plan_part(&plan, (uint64_t)wm_dist.rank, &lo, &hi);
    return fasta_heads(h, lo, hi, pool);
}

/* FASTQ: the ranks' record starts agreed (wm_range_fastq_agree, the rounds
** MPI search's readers make), then this rank's headers: the records its
** walk passes. Every rank calls it, in
** the same order, whatever its file held. Returns 0, or -1 when a record did
** not parse or memory ran out (the whole read then says what is wrong). */
static int fastq_heads(heads_t *h) {
    const uint64_t N = (uint64_t)wm_dist.size, me = (uint64_t)wm_dist.rank;
    uint64_t *starts = malloc(((size_t)N + 1) * sizeof *starts),
             *all = malloc((size_t)N * sizeof *all);
    if (!starts || !all) wm_dist_abort(WM_EXIT_ERROR); /* the ranks could no longer agree */
    wm_plan_t plan = wm_plan_even(0, h->size, N);
    uint64_t lo, hi;
    wm_plan_part(&plan, me, &lo, &hi);
    uint64_t guess = me == 0 ? 0 : wm_range_fastq_guess(h->map, h->size, lo);
    wm_dist_allgather(&guess, sizeof guess, all);
    for (uint64_t q = 0; q < N; q++) starts[q] = q == 0 ? 0 : all[q];
    starts[N] = h->size;
    wm_range_fastq_agree(h->map, h->size, me, N, starts, all, wm_dist_allgather_cb, NULL);
    int broken = 0;
    wm_range_fastq_walk(h->map, h->size, starts[me], starts[me + 1], heads_push_cb, h, &broken);
    free(starts);
    free(all);
    return broken ? -1 : 0;
}

/* Where each rank's records of one file start: starts[s] for every rank s
** (header lo_s, which one rank found; the file's size when s has none;
** rank 0 at byte 0), starts[size] = the file's size. first: the global
** index of this rank's first header. cuts[s]: rank s's first pair. */
static void rank_starts(const heads_t *h, uint64_t first, const uint64_t *cuts, uint64_t n_pairs,
                        uint64_t *starts) {
    const uint64_t N = (uint64_t)wm_dist.size;
    for (uint64_t s = 0; s <= N; s++) {
        uint64_t k = cuts[s];
        starts[s] = s < N && k >= first && k < first + h->n ? h->at[k - first] : 0;
    }
    wm_dist_sum_array(starts, (size_t)N + 1);
    for (uint64_t s = 0; s < N; s++)
        if (cuts[s] >= n_pairs) starts[s] = h->size;
    starts[0] = 0;
    starts[N] = h->size;
}

/* The sniff of this rank's records, as the whole input's first
** WM_SNIFF_BYTES would count them: the budget the ranks before it left. */
static void sniff_share(const wm_cli_input_t *in, wm_sniff_t *whole) {
    const uint64_t N = (uint64_t)wm_dist.size;
    const uint64_t len = in->n_rec ? in->starts[in->n_rec] - in->starts[0] : 0;
    wm_sniff_t own;
    memset(&own, 0, sizeof own);
    if (len) wm_sniff_add(&own, in->seq + in->starts[0], len);
    uint64_t *seen = malloc((size_t)N * sizeof *seen);
    if (!seen) wm_dist_abort(WM_EXIT_ERROR); /* the ranks could no longer agree */
    wm_dist_allgather(&own.seen, sizeof own.seen, seen);
    uint64_t before = 0;
    for (uint64_t s = 0; s < (uint64_t)wm_dist.rank; s++) before += seen[s];
    free(seen);
    wm_sniff_t mine;
    memset(&mine, 0, sizeof mine);
    if (before < WM_SNIFF_BYTES && len) {
        mine.seen = before; /* the budget left after the ranks before */
        wm_sniff_add(&mine, in->seq + in->starts[0], len);
        mine.seen -= before;
    }
    uint64_t v[2] = { mine.seen, mine.nuc };
    wm_dist_sum_array(v, 2);
    whole->seen = v[0];
    whole->nuc = v[1];
}

int wm_cli_dist_pairs_read(wm_cli_align_run_t *r, const char *qarg, const char *targ, size_t *lo,
                           size_t *hi) {
    const wm_cli_align_args_t *a = r->a;
    const uint64_t N = (uint64_t)wm_dist.size, me = (uint64_t)wm_dist.rank;
    if (!wm_dist.active || N < 2 || !a->pairs || !targ || a->sh.format == WM_OUT_SAM ||
        strcmp(qarg, "-") == 0 || strcmp(targ, "-") == 0)
        return 0; /* the same on every rank: no exchange needed */
    heads_t hq, ht;
    memset(&hq, 0, sizeof hq);
    memset(&ht, 0, sizeof ht);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    wm_pool_t *pool = wm_pool_new(a->sh.co.threads > 0 ? a->sh.co.threads
                                  : cores > 0          ? (int)cores
                                                       : 1);
    if (!pool) wm_dist_abort(WM_EXIT_ERROR); /* the ranks could no longer agree */
    int bad = heads_scan(&hq, qarg, pool) < 0 || heads_scan(&ht, targ, pool) < 0;
    wm_pool_free(pool);
    /* FASTQ's headers take every rank, so all must know the files are read so */
    if (!wm_dist_any(bad)) {
        int q_bad = hq.fastq && fastq_heads(&hq) < 0;
        int t_bad = ht.fastq && fastq_heads(&ht) < 0;
        bad = q_bad || t_bad;
    }
    uint64_t *cnt = malloc(2 * (size_t)N * sizeof *cnt),
             *cuts = malloc(((size_t)N + 1) * sizeof *cuts),
             *sq = malloc(((size_t)N + 1) * sizeof *sq), *st = malloc(((size_t)N + 1) * sizeof *st);
    if (!cnt || !cuts || !sq || !st) wm_dist_abort(WM_EXIT_ERROR);
    uint64_t mine[2] = { hq.n, ht.n };
    wm_dist_allgather(mine, sizeof mine, cnt);
    uint64_t nq = 0, nt = 0, fq = 0, ft = 0;
    for (uint64_t s = 0; s < N; s++) {
        if (s == me) {
            fq = nq;
            ft = nt;
        }
        nq += cnt[2 * s];
        nt += cnt[2 * s + 1];
    }
    /* counts that differ (a missing mate), or no records: the whole read says so */
    int ok = !wm_dist_any(bad) && nq == nt && nq > 0;
    if (ok) {
        wm_plan_t plan = wm_plan_even(0, nq, N);
        for (uint64_t s = 0; s < N; s++) {
            uint64_t b, e;
            wm_plan_part(&plan, s, &b, &e);
            cuts[s] = b;
        }
        cuts[N] = nq;
        rank_starts(&hq, fq, cuts, nq, sq);
        rank_starts(&ht, ft, cuts, nq, st);
        *lo = (size_t)cuts[me];
        *hi = (size_t)cuts[me + 1];
    }
    heads_free(&hq);
    heads_free(&ht);
    if (ok) {
        r->q.allow_empty = r->t.allow_empty = a->o.mode == WM_ALIGN_GLOBAL;
        r->q.threads = r->t.threads = a->sh.co.threads;
        int failed =
            wm_cli_input_open_range(&r->q, "query", qarg, sq[me], sq[me + 1], WM_MAX_QUERY) < 0 ||
            wm_cli_input_open_range(&r->t, "target", targ, st[me], st[me + 1], 0) < 0 ||
            r->q.n_rec != *hi - *lo || r->t.n_rec != *hi - *lo;
        ok = !wm_dist_any(failed);
    }
    const char *timing = getenv("WM_DIST_TIMING");
    if (timing != NULL && atoi(timing) > 0 && wm_dist.rank == 0)
        fprintf(stderr, "align --pairs: %s\n",
                ok ? "each rank read its pairs' records" : "every rank read the whole files");
    int rc = ok;
    if (ok) {
        wm_sniff_t tsn, qsn;
        sniff_share(&r->t, &tsn);
        sniff_share(&r->q, &qsn);
        int q_iupac = !wm_dist_any(!wm_cli_input_iupac(&r->q));
        int failed = wm_cli_align_prepare_read(r, qarg, targ, &tsn, &qsn, q_iupac) < 0;
        if (wm_dist_any(failed)) rc = -1; /* its message is printed; every rank stops */
    } else {
        wm_cli_input_close(&r->q);
        wm_cli_input_close(&r->t);
    }
    free(cnt);
    free(cuts);
    free(sq);
    free(st);
    return rc;
}
