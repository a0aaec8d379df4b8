/*
** dist.h -- the tool's processes as one job: MPI when the tool was started by
** an MPI launcher (mpirun, mpiexec, srun), else a job of one.
**
** Only the command-line tool links this (the library never depends on MPI).
** Every call below is collective: all ranks make the same calls in the same
** order, whatever happened to them, so a rank that fails reports it at the
** next call that agrees on failures (wm_dist_first_failure) instead of
** leaving the others waiting. A rank that dies outright (a signal) is the
** launcher's to handle: mpirun ends the whole job.
**
** Built without MPI (dist_none.c) the same calls work for one process.
*/
#ifndef WM_DIST_H
#define WM_DIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    int active;                 /* started under an MPI launcher */
    int rank, size;             /* in the job */
    int local_rank, local_size; /* among the ranks of this host (GPU choice) */
} wm_dist_t;

/* The job, set up by wm_dist_init (size 1 until then). */
extern wm_dist_t wm_dist;

/* Start MPI when an MPI launcher started us (its environment says so), else
** stay a job of one. Returns 0, or -1 with a message on stderr. */
int wm_dist_init(int *argc, char ***argv);
void wm_dist_finalize(void);

/* Stop every rank now (exit status `code`): for states where the ranks can
** no longer agree, such as a failure inside an exchange. */
void wm_dist_abort(int code);

/* Every rank's `bytes` of `mine`, in rank order, into all (size * bytes). */
void wm_dist_allgather(const void *mine, size_t bytes, void *all);

/* Adapter with the signature wm_range_read wants (user is unused). */
void wm_dist_allgather_cb(void *user, const void *mine, size_t bytes, void *all);

/* Sums over all ranks, returned on every rank. */
uint64_t wm_dist_sum(uint64_t v);
void wm_dist_sum_array(uint64_t *v, size_t n); /* in place, on every rank */
int wm_dist_any(int flag);                     /* logical or */
int wm_dist_bcast_int(int v);                  /* rank 0's v, everywhere */

/* Rank 0's bytes (*buf, *len) on every rank: the others get a malloc'd copy
** in *buf (the caller frees it). Returns 0, or -1 when out of memory (then
** on every rank). */
int wm_dist_bcast_bytes(void **buf, uint64_t *len);

/* Agree on failures: every rank says whether it failed and why. Returns -1
** when none failed, else the lowest failing rank, with its message copied
** into msg (on every rank). */
int wm_dist_first_failure(int failed, const char *why, char *msg, size_t msglen);

/* Rank 0 writes to `out` its own bytes, then every other rank's, in rank
** order; other ranks send theirs (out is not used there). Returns 0, or -1
** when rank 0's write failed (errno set). */
int wm_dist_write_ordered(const void *buf, uint64_t len, FILE *out);

/* Every rank's bytes, in rank order, at rank 0: *all (malloc'd, the caller
** frees) and lens[size]. Other ranks get *all = NULL. Returns 0, -1 when
** rank 0 is out of memory (then every rank should stop). */
int wm_dist_gather(const void *buf, uint64_t len, void **all, uint64_t *lens);

/* WM_DIST_TIMING=1 in the environment: the commands time their phases
** (read, search, merge) on every rank and rank 0 prints them on stderr,
** one line per input: "timing: SOURCE read R search S merge M total T",
** each the slowest rank's seconds, then the fastest rank's in brackets. */
double wm_dist_now(void);
void wm_dist_report(const char *source, double read_s, double search_s, double merge_s);

#endif
