/*
** dtw.h -- what the files of `warpmatch dtw` share: its options, the run,
** and who does which job.
**
**     cmd_dtw.c     its own flags, reading and checking the signals, the
**                   queries in groups of one band radius, the exit status
**     dist_dtw.c    the queries shared out over the ranks of an MPI job
**     dtwio.c       reading a signal file
**     out_dtw.c     the lines (TSV, JSON Lines), a labelled query's label
**     cmd_dtw_matrix.c  --mode matrix: distance matrices and nearest neighbours
*/
#ifndef WM_CLI_DTW_H
#define WM_CLI_DTW_H

#include <stdio.h>

#include "warpmatch.h"
#include "io/signal.h"
#include "flags.h"
#include "progress.h"

typedef struct {
    wm_cli_shared_t sh; /* the flags every command shares */
    wm_dtw_opts_t o;
    int cost_given, top_given, maxd_given, length_given;
    int window_kind; /* 0 none, 1 samples (o.window), 2 a fraction */
    double window_frac;
    int fmt_given, qfmt_given, dtype_given;
    wm_sigfmt_t fmt, qfmt, dtype; /* --series-format, --query-format, --dtype */
    const char *column, *qcolumn;
    int sqrt_out;     /* --sqrt: print the root of the (squared-cost) distance */
    double maxd_root; /* --sqrt with --max-distance: D as given (o.max_distance is D^2) */
    int labels;       /* 1 --labels, -1 --no-labels, 0 by the name (.tsv) */
    int force_raw;    /* --force-raw */
    int progress;     /* 0 after --no-progress */
    int matrix;       /* --mode matrix (o.mode is then global) */
    uint64_t knn;     /* --knn K; 0: print the matrix */
    const char *npy;  /* --npy FILE */
} wm_cli_dtw_args_t;

typedef struct {
    wm_cli_dtw_args_t *a;      /* not const: auto's choice sets a->sh.co (choose.c) */
    const char *qpath, *spath; /* as given */
    wm_sigs_t q, s;            /* the queries; the series is s.a[0] */
    int64_t *radius;           /* each query's band radius, -1 = none */
    wm_dtw_matches_t *res;     /* each query's matches */
    wm_context_t *cx;
    uint64_t n_printed;
    size_t next_print;             /* one process: the first query whose rows are not out yet */
    double t_flush;                /* when stdout was last flushed */
    int write_failed, write_errno; /* a write failed, with this errno */
    wm_progress_t pg;              /* the progress line: DP cells of the queries done */
} wm_cli_dtw_run_t;

/* ---- cmd_dtw.c --------------------------------------------------------------- */

/* Read both files and check what the library would refuse, so that the
** message can name the file and the query; then pick --backend auto's
** backend for them (choose.c). Returns 0 or -1 (printed). */
int wm_cli_dtw_prepare(wm_cli_dtw_run_t *r);

/* Match queries [from, to) into r->res. Returns 0, or -1 after a library
** error (message printed). */
int wm_cli_dtw_match(wm_cli_dtw_run_t *r, size_t from, size_t to);

/* Print the matches of queries [from, to) to out; add them to n_printed. */
void wm_cli_dtw_print(wm_cli_dtw_run_t *r, FILE *out, size_t from, size_t to);

/* ---- out_dtw.c --------------------------------------------------------------- */

/* One line of query q (its index in QUERY): TSV or JSON Lines as out.h's
** wm_out_dtw_match, and q's label (a labelled QUERY) as the last column,
** or the key "label" after "query". */
void wm_out_dtw_row(FILE *out, int json, const wm_sig_t *q, size_t index, const wm_dtw_match_t *m,
                    int path, int f32);

/* ---- cmd_dtw_matrix.c ---------------------------------------------------------- */

/* `warpmatch dtw --mode matrix A [B]` with the parsed options and the n_args
** file arguments. Returns the exit status. */
int wm_cli_dtw_matrix(wm_cli_dtw_args_t *a, int n_args, char **args);

/* ---- dist_dtw.c -------------------------------------------------------------- */

/* The run, over the ranks of an MPI job or in one process: read, match
** this rank's share of the queries, print in query order on rank 0.
** Returns 0 or -1 (printed). */
int wm_cli_dtw_dist(wm_cli_dtw_run_t *r);

#endif
