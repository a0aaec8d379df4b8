/*
** choose.h -- the cost model behind wm_backend_choose (choose.c): its
** constants as a table, so that tests can run the model on constants of
** their own and the calibration (bench/calibrate_auto.sh) can name what it
** refits.
**
** Every prediction has one form. W units of work (text bytes for a search,
** DP cells for align and dtw) and B bytes of input:
**     cpu = cpu_fixed + W / min(threads x cpu_thread_rate, cpu_cap_rate) + W / both_rate
**     gpu = startup + gpu_fixed + n_calls x gpu_call + B / gpu_move_rate
**           + W / gpu_rate + W / both_rate
** both_rate is host work either backend does alike (parsing pairs, printing
** them): it never changes the choice, only the times printed.
*/
#ifndef WM_CORE_CHOOSE_H
#define WM_CORE_CHOOSE_H

#include "warpmatch.h"

/* The rows of the table, one per algorithm class. */
typedef enum {
    WM_COST_SEARCH_K0,
    WM_COST_SEARCH_K1,
    WM_COST_SEARCH_K2,
    WM_COST_SEARCH_K3, /* k >= 3 (k > 3 scaled by 4 / (k + 1)) */
    WM_COST_SET,
    WM_COST_INFIX,
    WM_COST_PAIRS,
    WM_COST_PAIRS_CIGAR,
    WM_COST_DTW,
    WM_COST_SETK_SEEDED, /* a set within k errors, pieces of 12+ symbols */
    WM_COST_SETK_DIRECT, /* ... whose patterns are too short to seed */
    WM_COST_SETK_PLANES, /* ... those with Hamming on DNA (setk/planes.c) */
    WM_COST_N_ROWS
} wm_cost_row_id_t;

typedef struct {
    const char *name;       /* "search k=0": how --explain-backend names it */
    double cpu_fixed_s;     /* a CPU run's own cost: process, pool, mapping */
    double cpu_thread_rate; /* units/s of one thread */
    double cpu_cap_rate;    /* units/s that no thread count passes (memory) */
    double gpu_fixed_s;     /* the GPU path's set-up after the CUDA start-up */
    double gpu_call_s;      /* per query (infix: one wm_align call each) */
    double gpu_move_rate;   /* input bytes/s from host memory to the device */
    double gpu_rate;        /* units/s of the kernels with their host work */
    double both_rate;       /* units/s of host work both backends do; 0: none */
    double cpu_call_s;      /* per query or pattern on the CPU threads (sets within k:
                               reading, seeding and finishing a read) */
} wm_cost_row_t;

/* Pairs besides their row (whose gpu_call_s is a pair's cost on the GPU):
** what a pair costs besides its cells on the CPU (in cells, so that it
** scales with the threads) and in the host work of both backends (in
** bytes; the row's both_rate is then bytes/s), and the longest mean side a
** GPU pair kernel takes (longer ones run on the CPU threads under the GPU
** backend too, src/align/pairs.c). Pairs of more than alone_cells each run
** alone: on a CPU thread each at alone_cpu_rate cells/s, on the GPU one
** after the other through the long-pair kernel at alone_gpu_rate. */
typedef struct {
    double pair_cells, pair_both_bytes, gpu_max_side;
    double alone_cells, alone_cpu_rate, alone_gpu_rate;
} wm_cost_pairs_t;

typedef struct {
    double gpu_startup_s; /* CUDA start-up of a process */
    wm_cost_row_t row[WM_COST_N_ROWS];
    wm_cost_pairs_t pairs[2]; /* distances, with CIGARs */
} wm_cost_model_t;

/* The measured constants (choose.c). */
extern const wm_cost_model_t wm_cost_model_default;

/* wm_backend_choose with the constants of `model`; online = the CPU threads
** to assume when w->threads is 0. */
wm_status wm_backend_choose_with(const wm_cost_model_t *model, const wm_workload_t *w, int online,
                                 wm_backend_choice_t *out);

#endif
