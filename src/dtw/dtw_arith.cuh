/*
** dtw_arith.cuh -- a DTW cell's operations on the GPU in either precision
** (opts.precision), each rounded once as the CPU rounds it (no fused
** multiply-add: the kernels are built with -fmad=false, and these name the
** rounding): the difference, its square or absolute value, the min of the
** predecessors, the addition. Included by the DTW kernels' files.
*/
#ifndef WM_DTW_DTW_ARITH_CUH
#define WM_DTW_DTW_ARITH_CUH

#include <cuda_runtime.h>

__device__ __forceinline__ double dtw_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float dtw_sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double dtw_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float dtw_add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double dtw_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float dtw_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double dtw_abs(double a) { return fabs(a); }
__device__ __forceinline__ float dtw_abs(float a) { return fabsf(a); }
/* The smaller, as the CPU's a < b ? a : b. float: one FMNMX instruction,
** which differs from that only for NaN and for -0 against +0, and neither
** reaches a cell (no NaN sample; costs and sums of them are never -0).
** double: a compare and a select (sm_90 has no float64 min instruction). */
__device__ __forceinline__ double dtw_min(double a, double b) { return a < b ? a : b; }
__device__ __forceinline__ float dtw_min(float a, float b) { return fminf(a, b); }

template <bool SQ, typename T>
__device__ __forceinline__ T dtw_cell_cost(T x, T y) {
    T d = dtw_sub(x, y);
    return SQ ? dtw_mul(d, d) : dtw_abs(d);
}

#endif
