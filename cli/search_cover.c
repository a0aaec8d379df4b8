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

/* A plain file the seqfile mapped as it is: its descriptor for the GPU's
** staging to read (core/internal.h, wm_context_text_file), else -1. */
static int text_file(const char *path, const wm_seqfile_t *sf) {
    if (sf->map_base == NULL || sf->format != WM_FMT_PLAIN || sf->gzipped ||
        (const void *)sf->text.seq != sf->map_base)
        return -1;
    return open(path, O_RDONLY | O_CLOEXEC);
}

int wm_cli_search_reads_file(const wm_cli_search_run_t *r, const wm_seqfile_t *sf) {
    /* one pattern: the GPU's staging reads the file (sets copy from memory) */
    return !r->a->is_set && sf->map_base != NULL && sf->format == WM_FMT_PLAIN && !sf->gzipped &&
           (const void *)sf->text.seq == sf->map_base;
}

static wm_status scan_text(wm_cli_search_run_t *r, const wm_db_t *db, const wm_seqfile_t *sf,
                           int fd, wm_matches_cb runs, void *user, uint64_t *n_matches,
                           uint64_t *per_pattern);

wm_status wm_cli_search_scan(wm_cli_search_run_t *r, const wm_db_t *db, const char *path,
                             const wm_seqfile_t *sf, wm_matches_cb runs, void *user,
                             uint64_t *n_matches, uint64_t *per_pattern) {
    int fd = wm_cli_search_reads_file(r, sf) ? text_file(path, sf) : -1;
    wm_status st = scan_text(r, db, sf, fd, runs, user, n_matches, per_pattern);
    if (fd >= 0) {
        if (r->cx != NULL) wm_context_text_file(r->cx, NULL, 0, -1, 0);
        close(fd);
    }
    return st;
}

static wm_status scan_text(wm_cli_search_run_t *r, const wm_db_t *db, const wm_seqfile_t *sf,
                           int fd, wm_matches_cb runs, void *user, uint64_t *n_matches,
                           uint64_t *per_pattern) {
    const wm_text_t *t = &sf->text;
    r->msg_cx = NULL;
    test_cover_t test = test_cover();
    wm_context_t *cpu = NULL;
    if (r->cx == NULL && r->cover && t->len > 0 && (cpu = cover_context(r)) == NULL) {
        r->fatal = r->said = 1; /* printed */
        return WM_NOMEM;
    }
    tally_t sum = { 0, per_pattern };
    uint64_t *scratch = NULL;
    if (per_pattern) {
        memset(per_pattern, 0, db->n_patterns * sizeof *per_pattern);
        if (cpu != NULL && !(scratch = malloc(db->n_patterns * sizeof *scratch))) return WM_NOMEM;
    }
    size_t n_rec = 0;
    uint64_t *rs = NULL;
    if (cpu != NULL && !(rs = wm_text_record_starts(t, &n_rec))) {
        free(scratch);
        return WM_NOMEM;
    }
    wm_status st = WM_OK;
    uint64_t done = 0, part = test.on ? test.bytes : PART_MIN;
    unsigned long parts = 0;
    double t0 = wm_cli_now();
    if (cpu != NULL) {
        tune(r, cpu);
        if (r->cover_from < 0) r->cover_from = t0 - r->bg.started;
    }
    /* the CPU while the context is being made */
    while (cpu != NULL && st == WM_OK && done < t->len &&
           (test.on ? parts < test.parts : !__atomic_load_n(&r->bg.ready, __ATOMIC_ACQUIRE))) {
        uint64_t hi = t->len - done > part ? done + part : t->len;
        st = scan_part(cpu, db, t, rs, n_rec, done, hi, runs, user, &sum, scratch);
        done = hi;
        parts++;
        double spent = wm_cli_now() - t0;
        if (!test.on && spent > 0) { /* the next part: PART_SECONDS at the rate so far */
            double next = (double)done / spent * PART_SECONDS;
            part = next < PART_MIN ? PART_MIN : next > PART_MAX ? PART_MAX : (uint64_t)next;
        }
    }
    double cpu_s = wm_cli_now() - t0;
    r->cover_bytes += done;
    r->t_cover += cpu_s;
    if (st != WM_OK) r->msg_cx = cpu;
    /* the rest on the context, once ready */
    if (st == WM_OK && (done < t->len || cpu == NULL)) {
        /* the pages left are faulted in while waiting, unless the GPU's
        ** staging reads them from the file */
        if (r->cx == NULL &&
            wm_cli_context_wait_warm(&r->bg, &r->cx, fd >= 0 ? NULL : t->seq + done,
                                     t->len - done) != WM_OK) {
            r->fatal = r->said = 1; /* printed */
            st = WM_DEVICE;
        } else {
            tune(r, r->cx);
            if (r->cover_ready < 0 && cpu != NULL) r->cover_ready = wm_cli_now() - r->bg.started;
            if (fd >= 0) wm_context_text_file(r->cx, t->seq, t->len, fd, 0);
            /* Stay on the CPU when its rate finishes the rest before the
            ** GPU's set-up and rate would (the model's figures). */
            uint64_t rest = t->len - done;
            int stay = cpu != NULL &&
                       (test.on ? test.finish_on_cpu
                                : done > 0 && (double)rest * cpu_s / (double)done <
                                                  r->a->cover_gpu_fixed_s +
                                                      (double)rest * r->a->cover_gpu_s_per_byte);
            if (cpu == NULL) { /* no cover: the whole text, as one call */
                if (runs) st = wm_scan_owned_batches(r->cx, db, t, 0, runs, user);
                else st = wm_scan_owned(r->cx, db, t, 0, NULL, NULL, &sum.n, per_pattern);
            } else if (stay) {
                for (; st == WM_OK && done < t->len; done += part) {
                    if (t->len - done < part) part = t->len - done;
                    st = scan_part(cpu, db, t, rs, n_rec, done, done + part, runs, user, &sum,
                                   scratch);
                }
                if (st != WM_OK) r->msg_cx = cpu;
            } else {
                st = scan_part(r->cx, db, t, rs, n_rec, done, t->len, runs, user, &sum, scratch);
            }
            if (st != WM_OK && r->msg_cx == NULL) r->msg_cx = r->cx;
        }
    }
    if (n_matches) *n_matches = sum.n;
    free(rs);
    free(scratch);
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
