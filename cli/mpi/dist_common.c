/*
** dist_common.c -- the parts of dist.h that need no MPI of their own: the
** adapter for wm_range_read and the phase timings (WM_DIST_TIMING).
*/
#include "dist.h"

#include <stdlib.h>
#include <time.h>

void wm_dist_allgather_cb(void *user, const void *mine, size_t bytes, void *all) {
    (void)user;
    wm_dist_allgather(mine, bytes, all);
}

double wm_dist_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void wm_dist_report(const char *source, double read_s, double search_s, double merge_s) {
    static int on = -1;
    if (on < 0) on = getenv("WM_DIST_TIMING") != NULL && atoi(getenv("WM_DIST_TIMING")) > 0;
    if (!on) return;
    double mine[4] = { read_s, search_s, merge_s, read_s + search_s + merge_s };
    double *all = malloc((size_t)wm_dist.size * sizeof mine);
    if (!all) return;
    wm_dist_allgather(mine, sizeof mine, all);
    double hi[4] = { 0, 0, 0, 0 }, lo[4] = { 1e30, 1e30, 1e30, 1e30 };
    for (int r = 0; r < wm_dist.size; r++)
        for (int k = 0; k < 4; k++) {
            if (all[4 * r + k] > hi[k]) hi[k] = all[4 * r + k];
            if (all[4 * r + k] < lo[k]) lo[k] = all[4 * r + k];
        }
    free(all);
    if (wm_dist.rank == 0)
        fprintf(stderr,
                "timing: %s ranks %d read %.4f search %.4f merge %.4f total %.4f "
                "[fastest rank: %.4f %.4f %.4f %.4f]\n",
                source, wm_dist.size, hi[0], hi[1], hi[2], hi[3], lo[0], lo[1], lo[2], lo[3]);
}
