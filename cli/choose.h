/*
** choose.h -- `--backend auto` per command invocation, and
** `--explain-backend` (choose.c). Each command describes its work to the
** library's cost model (wm_backend_choose) from what it knows before the
** scan: file sizes, pattern count, length and k, the thread count; the
** model's pick becomes the backend of the context the command makes.
**
** No CUDA context is made to decide (that is the 0.4 s start-up the model
** weighs): without the CUDA backend built the choice is the CPU and the
** GPU side is not predicted; with it, the model runs first and the device
** count is asked only when the GPU would win (0 GPUs: the CPU). Under MPI
** auto keeps the library's rule (each rank a GPU when one is found).
*/
#ifndef WM_CLI_CHOOSE_H
#define WM_CLI_CHOOSE_H

#include "warpmatch.h"
#include "align.h"
#include "dtw.h"
#include "flags.h"
#include "search.h"

/* Decide sh->co.backend for w (when it is AUTO: CPU, or left AUTO for the
** GPU, whose failure then falls back to the CPU quietly) and, with
** --explain-backend, print why on stderr. `unknown` names an input whose
** size could not be known ("standard input"), or is NULL. */
void wm_cli_choose_backend(wm_cli_shared_t *sh, wm_workload_t *w, const char *unknown);

/* The GPU with the CPU covering its start-up (search_cover.c), as the model
** c predicted the work of `bytes` text bytes: the CPU scans what its rate
** (c->work / c->cpu_rate for all of them) gets through in c->gpu_startup_s
** (*covered bytes), the GPU the rest, for its time less the covered bytes'
** share of its moves and kernels. Seconds, or -1 when there is no GPU side
** (c->gpu_s < 0), no work, or the CPU would be done before the GPU is ready
** (then the CPU alone is the better choice). */
double wm_cli_cover_seconds(const wm_backend_choice_t *c, double bytes, double *covered);

/* The commands' workloads, then wm_cli_choose_backend. search: the FILEs
** are argv[first, argc) (none: standard input), sized by stat (a gzip file
** counts 4x its size; standard input and pipes are unknown and count as 0:
** the CPU's worst case is bounded, the GPU's start-up is not). align and
** dtw: after their inputs are read, from the records themselves. */
void wm_cli_choose_search(wm_cli_search_args_t *a, int argc, char **argv, int first);
void wm_cli_choose_align(const wm_cli_align_run_t *r, wm_cli_shared_t *sh);
void wm_cli_choose_dtw(wm_cli_dtw_run_t *r);

/* Before `align --mode global --pairs Q T` reads its inputs: 1 when auto
** would likely choose the GPU, guessed from the files' sizes and the records
** of their first 64 KiB (0 for gzip, pipes and anything unclear), so that
** CUDA can start while the inputs are read, as under --backend cuda. The
** choice itself is still made from the records read (wm_cli_choose_align);
** a wrong guess costs waiting for the unused start-up to end. */
int wm_cli_align_gpu_likely(const wm_cli_align_args_t *a, const char *q, const char *t);

/* Before `search -f FILE -k K` reads its patterns: the same guess for a
** seeded set within k errors (these have no CPU cover), from the pattern
** files' first 64 KiB and the inputs' sizes. A wrong guess waits for the
** unused start-up to end and drops it (wm_cli_context_abandon). */
int wm_cli_search_gpu_likely(const wm_cli_search_args_t *a, int argc, char **argv, int first);

#endif
