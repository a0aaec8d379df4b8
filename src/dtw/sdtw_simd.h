/*
** sdtw_simd.h -- the SIMD strips of sdtw (sdtw_strip.inc), one translation
** unit per instruction set (sdtw_strip_sse2.c, _avx2.c, _avx512.c, each
** built with its own flags), and what their dispatcher (sdtw_simd.c) needs
** to call them. Only the dispatcher calls them, and only on a CPU that has
** the set: the files exist in the build where WM_SIMD_X86 is 1.
*/
#ifndef WM_DTW_SDTW_SIMD_H
#define WM_DTW_SDTW_SIMD_H

#include "dtw/sdtw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Columns [a, b) of the untracked DP, the query in strips of 4 vectors of
** rows; the arguments of wm_sdtw_tile_simd, plus scratch of
** 3 (b - a) + 3 * 32 + 8 doubles. */
typedef void (*wm_sdtw_strip_fn)(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                                 double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);

void wm_sdtw_strip_sse2(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                        double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);
void wm_sdtw_strip_avx2(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                        double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);
void wm_sdtw_strip_avx512(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                          double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);
/* The same in float32 (j->f32): twice the rows a vector. */
void wm_sdtw_strip_sse2_f32(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                            double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);
void wm_sdtw_strip_avx2_f32(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                            double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);
void wm_sdtw_strip_avx512_f32(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                              double *col, double *bot_v, wm_sdtw_best_t *best, double *scratch);

#ifdef __cplusplus
}
#endif
#endif /* WM_DTW_SDTW_SIMD_H */
