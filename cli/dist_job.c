/*
** dist_job.c -- what the commands' MPI paths (dist_search.c, dist_align.c,
** dist_dtw.c) share: each rank's GPU and threads, agreeing on a failure,
** each rank's share of a list, and a rank's lines printed by rank 0 in
** rank order. Run as a job of one, every step is the one-process step.
*/
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/plan.h"
#include "mpi/dist.h"

void wm_cli_dist_device(wm_context_opts_t *co) {
    if (!wm_dist.active) return;
    if (co->threads == 0) {
        /* The host's cores shared by its ranks, and never more than the
        ** launcher let this rank run on (Open MPI binds to a core or socket). */
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        long share = online > 0 ? online / (wm_dist.local_size > 0 ? wm_dist.local_size : 1) : 1;
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) < share)
            share = CPU_COUNT(&set);
        co->threads = share > 0 ? (int)share : 1;
    }
    if (co->n_devices > 0) {
        /* Under mpirun --gpus names the GPUs this host's ranks take in turn. */
        co->device = co->devices[wm_dist.local_rank % co->n_devices];
        co->devices = NULL;
        co->n_devices = 0;
    } else if (co->backend != WM_BACKEND_CPU && wm_cuda_device_count() > 0) {
        co->device = wm_dist.local_rank % wm_cuda_device_count();
    }
}

int wm_cli_dist_failed(int failed, const char *why, int rank0_printed) {
    char msg[2048];
    int bad = wm_dist_first_failure(failed, why, msg, sizeof msg);
    if (bad < 0) return 0;
    if (bad == 0 && rank0_printed) return 1;
    if (wm_dist.active) wm_cli_error("rank %d: %s", bad, msg);
    else wm_cli_error("%s", msg);
    return 1;
}

int wm_cli_dist_agree(int failed) { return wm_cli_dist_failed(failed, wm_cli_last_error(), 1); }

void wm_cli_dist_share(size_t n, int alone, size_t *lo, size_t *hi) {
    uint64_t parts = alone ? 1 : (uint64_t)wm_dist.size, me = (uint64_t)wm_dist.rank;
    if (alone && me != 0) {
        *lo = *hi = 0;
        return;
    }
    /* the even cut of core/plan.h, as GPU shards cut a list */
    wm_plan_t plan = wm_plan_even(0, n, parts);
    uint64_t a, b;
    wm_plan_part(&plan, alone ? 0 : me, &a, &b);
    *lo = (size_t)a;
    *hi = (size_t)b;
}

/* The lines' stream appends to one buffer grown by realloc, which moves a
** large buffer by remapping its pages. open_memstream's buffer grows by a
** new allocation and a copy instead: a rank's 1 GB of pairs' rows took 1.75
** s to write at one rank against 0.53 s into a file (BENCHMARKS.md 27). */
static ssize_t lines_put(void *cookie, const char *buf, size_t n) {
    wm_cli_lines_t *b = cookie;
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : (size_t)1 << 20;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) {
                errno = ENOMEM;
                return -1;
            }
            cap *= 2;
        }
        char *m = realloc(b->mem, cap);
        if (m == NULL) {
            errno = ENOMEM;
            return -1;
        }
        b->mem = m;
        b->cap = cap;
    }
    memcpy(b->mem + b->len, buf, n);
    b->len += n;
    return (ssize_t)n;
}

FILE *wm_cli_lines_open(wm_cli_lines_t *b) {
    b->mem = NULL;
    b->len = b->cap = 0;
    cookie_io_functions_t io = { NULL, lines_put, NULL, NULL };
    b->f = fopencookie(b, "w", io);
    if (b->f == NULL) wm_dist_abort(WM_EXIT_ERROR); /* the ranks could no longer agree */
    return b->f;
}

int wm_cli_lines_write(wm_cli_lines_t *b, FILE *out) {
    int lost = ferror(b->f);
    if (fclose(b->f) != 0 || lost) { /* lines found no memory: never print a part */
        wm_cli_error("out of memory for this rank's %zu bytes of lines", b->len);
        wm_dist_abort(WM_EXIT_ERROR);
    }
    b->f = NULL;
    int rc = wm_cli_output_write(b->mem ? b->mem : "", b->len, out);
    int e = errno; /* the write's, for the caller */
    free(b->mem);
    b->mem = NULL;
    errno = e;
    return rc;
}
