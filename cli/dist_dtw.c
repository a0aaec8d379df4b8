/*
** dist_dtw.c -- the run of `warpmatch dtw`, over the ranks of an MPI job
** (a job of one without it): every rank reads both signals and matches its
** share of the queries (contiguous, in QUERY order); rank 0 prints every
** rank's lines in rank order, which is query order. Standard input is rank
** 0's alone: with it, rank 0 does all the work and the others wait.
** Failures are agreed on at each step, so that no rank is left waiting.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"
#include "mpi/dist.h"
#include "cli.h"
#include "dtw.h"

int wm_cli_dtw_dist(wm_cli_dtw_run_t *r) {
    int stdin_used = strcmp(r->qpath, "-") == 0 || strcmp(r->spath, "-") == 0;
    int idle = stdin_used && wm_dist.rank != 0;
    int failed = !idle && wm_cli_dtw_prepare(r) < 0;
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1))
        return -1;
    failed = !idle && wm_cli_context_new(&r->a->sh.co, &r->cx) != WM_OK;
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1))
        return -1;
    size_t lo = 0, hi = 0;
    if (!idle) {
        uint64_t parts = stdin_used ? 1 : (uint64_t)wm_dist.size;
        uint64_t me = (uint64_t)wm_dist.rank;
        lo = (size_t)((unsigned __int128)r->q.n * me / parts);
        hi = (size_t)((unsigned __int128)r->q.n * (me + 1) / parts);
        failed = wm_cli_dtw_match(r, lo, hi) < 0;
    }
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1))
        return -1;

    char *mem = NULL;
    size_t mem_len = 0;
    FILE *out = wm_dist.active ? open_memstream(&mem, &mem_len) : stdout;
    if (out == NULL)
        wm_dist_abort(WM_EXIT_ERROR);
    wm_cli_dtw_print(r, out, lo, hi);
    if (out != stdout) {
        fclose(out);
        if (wm_dist_write_ordered(mem, mem_len, stdout) < 0) {
            r->write_failed = 1;
            r->write_errno = errno;
        }
        free(mem);
        r->n_printed = wm_dist_sum(r->n_printed);
    }
    if (ferror(stdout)) {
        r->write_failed = 1;                    /* e.g. a closed pipe */
        r->write_errno = errno;
    }
    return 0;
}
