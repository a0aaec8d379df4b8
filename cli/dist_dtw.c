/*
** dist_dtw.c -- the run of `warpmatch dtw`, over the ranks of an MPI job
** (a job of one without it): every rank reads both signals (while its
** CUDA context is made, under --backend cuda) and matches its
** share of the queries (contiguous, in QUERY order); rank 0 prints every
** rank's lines in rank order, which is query order. Standard input is rank
** 0's alone: with it, rank 0 does all the work and the others wait.
** Failures are agreed on at each step, so that no rank is left waiting.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "warpmatch.h"
#include "mpi/dist.h"
#include "cli.h"
#include "dtw.h"

int wm_cli_dtw_dist(wm_cli_dtw_run_t *r) {
    int stdin_used = strcmp(r->qpath, "-") == 0 || strcmp(r->spath, "-") == 0;
    int idle = stdin_used && wm_dist.rank != 0;
    double t0 = wm_dist_now();
    /* --backend cuda: CUDA starts (0.3-1 s) while the signals are read and
    ** parsed; auto decides from the signals, and makes its context after. */
    wm_cli_context_bg_t bg;
    int early = !idle && wm_cli_context_start_cuda(&bg, &r->a->sh.co);
    if (wm_cli_dist_agree(!idle && wm_cli_dtw_prepare(r) < 0)) {
        /* alone, the process ends without waiting for the driver */
        if (early && (wm_dist.active || !wm_cli_context_leave(&bg))) wm_cli_context_abandon(&bg);
        return -1;
    }
    if (wm_cli_dist_agree(!idle && wm_cli_context_take(&bg, early, &r->a->sh.co, &r->cx) != WM_OK))
        return -1;
    double t1 = wm_dist_now(); /* read: the signals and the context */
    size_t lo = 0, hi = 0;
    int failed = 0;
    if (!idle) {
        wm_cli_dist_share(r->q.n, stdin_used, &lo, &hi);
        failed = wm_cli_dtw_match(r, lo, hi) < 0;
    }
    if (wm_cli_dist_agree(failed)) return -1;
    double t2 = wm_dist_now(); /* search: the matching (and, alone, the lines printed so far) */

    wm_cli_lines_t lines;
    FILE *out = wm_dist.active ? wm_cli_lines_open(&lines) : stdout;
    wm_cli_dtw_print(r, out, wm_dist.active ? lo : r->next_print, hi); /* what is left */
    if (out != stdout) {
        if (wm_cli_lines_write(&lines, stdout) < 0) {
            r->write_failed = 1;
            r->write_errno = errno;
        }
        r->n_printed = wm_dist_sum(r->n_printed);
    }
    if (ferror(stdout)) {
        r->write_failed = 1; /* e.g. a closed pipe */
        r->write_errno = errno;
    }
    wm_dist_report(r->spath, t1 - t0, t2 - t1, wm_dist_now() - t2);
    return 0;
}
