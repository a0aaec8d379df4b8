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
#include <math_constants.h>
#include <stdint.h>

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

/* The smallest of a cell's three predecessors, dtw_min(dtw_min(a, b), c).
** float: the minimum of their bits as integers, which order non-negative
** floats and +inf as the floats do; every DP value is one of those (sums of
** |.| or squares, +0 at the fresh top, +inf), so the bits are the same, and
** sm_90 runs the two integer minima as one instruction (DPX) where two
** float minima take two. double: the two compares. */
__device__ __forceinline__ double dtw_min3(double a, double b, double c) {
    return dtw_min(dtw_min(a, b), c);
}
__device__ __forceinline__ float dtw_min3(float a, float b, float c) {
    return __int_as_float(__vimin3_s32(__float_as_int(a), __float_as_int(b), __float_as_int(c)));
}

template <bool SQ, typename T>
__device__ __forceinline__ T dtw_cell_cost(T x, T y) {
    T d = dtw_sub(x, y);
    return SQ ? dtw_mul(d, d) : dtw_abs(d);
}

/* (v1, s1) is better than (v2, s2): smaller, or equal (not +inf) with the
** larger start (sdtw.h's wm_sdtw_better). */
template <typename T>
__device__ __forceinline__ bool dtw_better(T v1, uint64_t s1, T v2, uint64_t s2) {
    return v1 < v2 || (v1 == v2 && v1 != (T)CUDART_INF && s1 > s2);
}

/* A cell with its start: each predecessor (the diagonal, up, left, in that
** order) plus the cost, and the best of them, as sdtw_tile.inc's tracked
** tile takes it. */
template <typename T>
__device__ __forceinline__ void dtw_cell_tracked(T d_v, uint64_t d_s, T u_v, uint64_t u_s, T l_v,
                                                 uint64_t l_s, T cst, T &v, uint64_t &s) {
    v = dtw_add(d_v, cst);
    s = d_s;
    T t = dtw_add(u_v, cst);
    if (dtw_better(t, u_s, v, s)) {
        v = t;
        s = u_s;
    }
    t = dtw_add(l_v, cst);
    if (dtw_better(t, l_s, v, s)) {
        v = t;
        s = l_s;
    }
}

#endif
