/*
** search_cover.c -- the CPU covers the GPU's start-up: while `search` waits
** for its CUDA context (0.2-0.4 s of driver and context, made on a thread
** of its own: args.c), the file it has read is not left idle. Its owned
** ends are scanned in parts on a CPU context of all the threads, from the
** front, until the CUDA context is ready; the rest then goes to the GPU in
** one call (core/part.h: each part scans the halo before it, so the parts'
** matches, concatenated, and their counts, added, are one scan's).
**
** Chosen by `--backend auto` when its model predicts the cover faster than
** the CPU alone (choose.c: the CPU takes what it can in the start-up, the
** GPU the rest); `--backend cuda` is the GPU alone, as asked. Not for the
** streamed inputs (standard input, gzip, FASTQ: they wait as before), MPI,
** nor --progress (its bar is one call's).
**
** The parts grow to about PART_SECONDS of the CPU's measured rate, so that a
** ready context waits at most that long whatever the family's speed. Once it
** is ready, the rest stays on the CPU when the CPU's measured rate finishes
** it sooner than the model's GPU set-up and rate would.
**
** For the tests without a GPU, WM_TEST_COVER=PARTS,BYTES[,1] makes any
** backend cover: exactly PARTS parts of BYTES bytes on the CPU, then the
** rest on the command's own context (with ",1": on the CPU).
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "core/internal.h"
#include "core/part.h"
#include "io/seqfile.h"
#include "cli.h"
#include "search.h"

#define PART_SECONDS 0.02
#define PART_MIN (8u << 20)
#define PART_MAX (1u << 30)

/* The test hook, read once. */
typedef struct {
    int on;
    unsigned long parts, bytes;
    int finish_on_cpu;
} test_cover_t;

static test_cover_t test_cover(void) {
    test_cover_t t = { 0, 0, 0, 0 };
    const char *s = getenv("WM_TEST_COVER");
    if (s == NULL || sscanf(s, "%lu,%lu,%d", &t.parts, &t.bytes, &t.finish_on_cpu) < 2 ||
        t.bytes == 0)
        return t;
    t.on = 1;
    return t;
}

int wm_cli_search_cover_wanted(const wm_cli_search_args_t *a) {
    if (a->sh.co.progress != NULL) return 0;
    return a->cover || test_cover().on;
}

/* The counts of one part added to the file's. */
typedef struct {
    uint64_t n;
    uint64_t *per_pattern; /* NULL unless counting per pattern */
} tally_t;

/* Part (lo, hi] of t on cx: listing through runs, or counting into *sum. */
static wm_status scan_part(wm_context_t *cx, const wm_db_t *db, const wm_text_t *t,
                           const uint64_t *rs, size_t n_rec, uint64_t lo, uint64_t hi,
                           wm_matches_cb runs, void *user, tally_t *sum, uint64_t *scratch) {
    wm_part_t p;
    if (wm_part_layout(&p, t, rs, n_rec, lo, hi, db->halo)) return WM_NOMEM;
    uint64_t n = 0;
    wm_status st =
        wm_part_scan(cx, db, &p, runs, user, runs ? NULL : &n, sum->per_pattern ? scratch : NULL);
    wm_part_free(&p);
    if (st != WM_OK || runs) return st;
    sum->n += n;
    for (size_t i = 0; sum->per_pattern && i < db->n_patterns; i++)
        sum->per_pattern[i] += scratch[i];
    return WM_OK;
}

/* The CPU context of the cover, made the first time (microseconds). */
static wm_context_t *cover_context(wm_cli_search_run_t *r) {
    if (r->cover_cx != NULL) return r->cover_cx;
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    co.threads = r->a->sh.co.threads;
    co.chunk_bytes = r->a->sh.co.chunk_bytes;
    if (wm_cli_context_new(&co, &r->cover_cx) != WM_OK) return NULL;
    return r->cover_cx;
}

static void tune(wm_cli_search_run_t *r, wm_context_t *cx) {
    if (r->loci_starts >= 0) wm_context_tuning(cx)->loci_starts = r->loci_starts;
}

int wm_cli_stage_by_pread(void) {
    static int on = -1;
    if (on < 0) on = !(getenv("WM_STAGE_MAPPED") && atoi(getenv("WM_STAGE_MAPPED")) > 0);
    return on;
}

int wm_cli_search_reads_file(const wm_cli_search_run_t *r, const wm_seqfile_t *sf) {
    /* one pattern: the GPU's staging reads the file (sets copy from memory) */
    return wm_cli_stage_by_pread() && !r->a->is_set && sf->map_base != NULL &&
           sf->format == WM_FMT_PLAIN && !sf->gzipped && (const void *)sf->text.seq == sf->map_base;
}

/* One file's scan: its text, where the output goes, how far it is done. */
typedef struct {
    const wm_db_t *db;
    const wm_text_t *t;
    uint64_t *rs; /* record starts (wm_text_record_starts), for the parts */
    size_t n_rec;
    wm_matches_cb runs; /* listing, else counting into sum */
    void *user;
    tally_t sum;
    uint64_t *scratch; /* one part's counts per pattern */
    uint64_t done;     /* the owned ends (0, done] are scanned */
    uint64_t part;     /* bytes of the next part */
} scan_t;

/* The front of the file on the CPU, part after part, while the context is
** being made (under the test hook: its number of parts). Returns the status
** and the seconds spent. */
static wm_status cover_front(wm_cli_search_run_t *r, wm_context_t *cpu, scan_t *S,
                             const test_cover_t *test, double *seconds) {
    wm_status st = WM_OK;
    unsigned long parts = 0;
    double t0 = wm_cli_now();
    if (r->cover_from < 0) r->cover_from = t0 - r->bg.started;
    while (st == WM_OK && S->done < S->t->len &&
           (test->on ? parts < test->parts : !__atomic_load_n(&r->bg.ready, __ATOMIC_ACQUIRE))) {
        uint64_t hi = S->t->len - S->done > S->part ? S->done + S->part : S->t->len;
        st = scan_part(cpu, S->db, S->t, S->rs, S->n_rec, S->done, hi, S->runs, S->user, &S->sum,
                       S->scratch);
        S->done = hi;
        parts++;
        double spent = wm_cli_now() - t0;
        if (!test->on && spent > 0) { /* the next part: PART_SECONDS at the rate so far */
            double next = (double)S->done / spent * PART_SECONDS;
            S->part = next < PART_MIN ? PART_MIN : next > PART_MAX ? PART_MAX : (uint64_t)next;
        }
    }
    *seconds = wm_cli_now() - t0;
    r->cover_bytes += S->done;
    r->t_cover += *seconds;
    if (st != WM_OK) r->msg_cx = cpu;
    return st;
}

/* The rest of the file, (done, len], once the context is ready: on it, or
** on the CPU (cpu, when covering) when the CPU's measured rate (cpu_s for the
** bytes done) finishes it before the model's GPU set-up and rate would. */
static wm_status scan_rest(wm_cli_search_run_t *r, wm_context_t *cpu, scan_t *S,
                           const test_cover_t *test, double cpu_s, int fd) {
    const wm_text_t *t = S->t;
    /* the pages left are faulted in while waiting, unless the GPU's staging
    ** reads them from the file */
    if (r->cx == NULL && wm_cli_context_wait_warm(&r->bg, &r->cx, fd >= 0 ? NULL : t->seq + S->done,
                                                  t->len - S->done) != WM_OK) {
        r->fatal = r->said = 1; /* printed */
        return WM_DEVICE;
    }
    tune(r, r->cx);
    if (fd >= 0) wm_context_text_file(r->cx, t->seq, t->len, fd, 0);
    wm_status st;
    if (cpu == NULL) { /* no cover: the whole text, as one call */
        st = S->runs ? wm_scan_owned_batches(r->cx, S->db, t, 0, S->runs, S->user)
                     : wm_scan_owned(r->cx, S->db, t, 0, NULL, NULL, &S->sum.n, S->sum.per_pattern);
        if (st != WM_OK) r->msg_cx = r->cx;
        return st;
    }
    if (r->cover_ready < 0) r->cover_ready = wm_cli_now() - r->bg.started;
    uint64_t rest = t->len - S->done;
    int stay = test->on ? test->finish_on_cpu
                        : S->done > 0 && (double)rest * cpu_s / (double)S->done <
                                             r->a->cover_gpu_fixed_s +
                                                 (double)rest * r->a->cover_gpu_s_per_byte;
    wm_context_t *cx = stay ? cpu : r->cx;
    if (!stay) S->part = rest; /* the GPU's: one call */
    for (st = WM_OK; st == WM_OK && S->done < t->len; S->done += S->part) {
        if (t->len - S->done < S->part) S->part = t->len - S->done;
        st = scan_part(cx, S->db, t, S->rs, S->n_rec, S->done, S->done + S->part, S->runs, S->user,
                       &S->sum, S->scratch);
    }
    if (st != WM_OK) r->msg_cx = cx;
    return st;
}

wm_status wm_cli_search_scan(wm_cli_search_run_t *r, const wm_db_t *db, const char *path,
                             const wm_seqfile_t *sf, wm_matches_cb runs, void *user,
                             uint64_t *n_matches, uint64_t *per_pattern) {
    r->msg_cx = NULL;
    test_cover_t test = test_cover();
    scan_t S = { db, &sf->text, NULL, 0, runs, user, { 0, per_pattern }, NULL, 0, 0 };
    S.part = test.on ? test.bytes : PART_MIN;
    wm_context_t *cpu = NULL;
    if (r->cx == NULL && r->cover && S.t->len > 0 && (cpu = cover_context(r)) == NULL) {
        r->fatal = r->said = 1; /* printed */
        return WM_NOMEM;
    }
    if (per_pattern) memset(per_pattern, 0, db->n_patterns * sizeof *per_pattern);
    if (cpu != NULL &&
        ((per_pattern && !(S.scratch = malloc(db->n_patterns * sizeof *S.scratch))) ||
         !(S.rs = wm_text_record_starts(S.t, &S.n_rec)))) {
        free(S.scratch);
        return WM_NOMEM;
    }
    int fd = wm_cli_search_reads_file(r, sf) ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    wm_status st = WM_OK;
    double cpu_s = 0;
    if (cpu != NULL) {
        tune(r, cpu);
        st = cover_front(r, cpu, &S, &test, &cpu_s);
    }
    if (st == WM_OK && (S.done < S.t->len || cpu == NULL))
        st = scan_rest(r, cpu, &S, &test, cpu_s, fd);
    if (fd >= 0) {
        if (r->cx != NULL) wm_context_text_file(r->cx, NULL, 0, -1, 0);
        close(fd);
    }
    if (n_matches) *n_matches = S.sum.n;
    free(S.rs);
    free(S.scratch);
    return st;
}

void wm_cli_search_cover_free(wm_cli_search_run_t *r) {
    if (r->cover_cx == NULL) return;
    if (wm_cli_timing_on())
        fprintf(stderr,
                "cover: %llu bytes scanned on the CPU in %.4f s before the context (the first "
                "part %.4f s after the context was started, the context ready after %.4f s)\n",
                (unsigned long long)r->cover_bytes, r->t_cover, r->cover_from, r->cover_ready);
    wm_context_free(r->cover_cx);
    r->cover_cx = NULL;
}
