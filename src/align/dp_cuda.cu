/*
** dp_cuda.cu -- the global edit distance of one pair by the plain DP on
** anti-diagonals, on the GPU: the baseline of paper 001 ([20]: "computes the
** cells of each anti-diagonal in parallel").
**
** One persistent block of up to 1024 threads sweeps every anti-diagonal
** k = i + j in turn, a barrier between diagonals: the cells of one diagonal
** depend only on the two before it, so each thread takes every 1024th cell
** of it. A kernel launch per diagonal would cost more than the work (m + n
** launches of a few microseconds against ~1 ns of cells each at m = n =
** 10,000); a single block keeps the barrier an SM-local one. Three diagonals
** are kept, in shared memory when 3 (p + 1) cells fit (p up to ~17,000),
** else in global memory (they stay in L2; a barrier orders a block's global
** writes too).
**
** The layout is global_dp.c's: rows are the shorter sequence a (p symbols),
** columns the longer b (q), cell i of diagonal k is D[i][k - i], b's codes
** are stored reversed so that the threads of a diagonal read a and b at
** rising addresses (coalesced), and diagonal k stores D - max(0, k - 2p) so
** that 32-bit cells hold any shape. Symbols are one-byte codes, 0xff for one
** that matches nothing; equal = same code and code < n_codes.
**
** Limit. Every 64 diagonals the block takes the minimum of the last two
** (a path meets one of any two consecutive diagonals, and D never falls
** along it) and stops when it is above limit; that minimum is then *d.
*/
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "align/align_cuda.cuh"
#include "cuda/device.cuh"

#define DP_THREADS 1024
#define DP_CHECK_EVERY 64          /* diagonals between limit checks */
#define DP_SMEM_MAX (200u * 1024u) /* diagonals in shared memory up to this */

/* What every thread of a diagonal shares: its cells i = ilo .. ihi, the
** offset of its stored values, the move costs with the offsets folded in,
** and the value of its border cells D[0][k] / D[k][0]. */
typedef struct {
    uint64_t k, off;
    uint32_t ilo, ihi, a1, a2, edge;
} dp_diag_t;

__host__ __device__ __forceinline__ dp_diag_t dp_diag(uint64_t k, uint32_t p, uint64_t q,
                                                      uint64_t off1, uint64_t off2) {
    dp_diag_t g;
    g.k = k;
    g.off = k > 2 * (uint64_t)p ? k - 2 * (uint64_t)p : 0;
    g.ilo = k > q ? (uint32_t)(k - q) : 0;
    g.ihi = k < p ? (uint32_t)k : p;
    g.a1 = 1u - (uint32_t)(g.off - off1); /* offsets grow by 0 or 1 a diagonal */
    g.a2 = 0u - (uint32_t)(g.off - off2);
    g.edge = (uint32_t)(k - g.off); /* min(k, 2p) */
    return g;
}

/* The cells first, first + step, ... of diagonal g into E0, from the two
** diagonals before (E1: k - 1, E2: k - 2). a: p codes, br: b's q codes
** reversed (b[j - 1] = br[q - j]). */
__host__ __device__ __forceinline__ void
dp_cells(const uint8_t *__restrict__ a, const uint8_t *__restrict__ br, uint64_t q,
         unsigned n_codes, const uint32_t *E2, const uint32_t *E1, uint32_t *E0, const dp_diag_t &g,
         uint32_t first, uint32_t step) {
    for (uint32_t i = g.ilo + first; i <= g.ihi; i += step) {
        uint64_t jj = g.k - i;
        uint32_t v;
        if (i == 0 || jj == 0) {
            v = g.edge;
        } else {
            unsigned xa = a[i - 1], yb = br[q - jj];
            uint32_t dg = E2[i - 1] + (xa == yb && xa < n_codes ? 0u : 1u) + g.a2;
            uint32_t up = E1[i - 1] + g.a1, lf = E1[i] + g.a1;
            v = dg < up ? dg : up;
            v = v < lf ? v : lf;
        }
        E0[i] = v;
    }
}

/* The smallest D[i][k - i] of this thread's cells of diagonal g. */
__device__ __forceinline__ unsigned long long dp_min(const uint32_t *E, const dp_diag_t &g,
                                                     uint32_t first, uint32_t step) {
    unsigned long long mn = ~0ull;
    for (uint32_t i = g.ilo + first; i <= g.ihi; i += step) {
        unsigned long long v = (unsigned long long)E[i] + g.off;
        mn = v < mn ? v : mn;
    }
    return mn;
}

template <bool SMEM>
__global__ void __launch_bounds__(DP_THREADS)
    k_global_dp(const uint8_t *__restrict__ a, const uint8_t *__restrict__ br, uint32_t p,
                uint64_t q, unsigned n_codes, uint32_t *gbuf, uint32_t stride, int64_t limit,
                unsigned long long *out) {
    extern __shared__ uint32_t s_e[];
    __shared__ unsigned long long s_min;
    uint32_t *e = SMEM ? s_e : gbuf;
    const uint32_t tid = threadIdx.x, nt = blockDim.x;
    if (tid == 0) {
        e[0] = 0; /* diagonal 0: D[0][0] */
        s_min = ~0ull;
    }
    __syncthreads();
    uint32_t *E1 = e, *E0 = e + stride, *E2 = e + 2 * (size_t)stride;
    uint64_t off1 = 0, off2 = 0;
    const uint64_t K = (uint64_t)p + q;
    for (uint64_t k = 1; k <= K; k++) {
        dp_diag_t g = dp_diag(k, p, q, off1, off2);
        dp_cells(a, br, q, n_codes, E2, E1, E0, g, tid, nt);
        __syncthreads();
        if (limit >= 0 && k % DP_CHECK_EVERY == 0) {
            dp_diag_t g1 = dp_diag(k - 1, p, q, off2, off2); /* only its cells and offset */
            unsigned long long mn = dp_min(E0, g, tid, nt), m1 = dp_min(E1, g1, tid, nt);
            mn = m1 < mn ? m1 : mn;
            for (int o = 16; o > 0; o >>= 1) {
                unsigned long long x = __shfl_xor_sync(0xffffffffu, mn, o);
                mn = x < mn ? x : mn;
            }
            if ((tid & 31) == 0) atomicMin(&s_min, mn);
            __syncthreads();
            unsigned long long v = s_min;
            if (v > (unsigned long long)limit) { /* the same for every thread */
                if (tid == 0) *out = v;
                return;
            }
            __syncthreads(); /* all have read s_min */
            if (tid == 0) s_min = ~0ull;
        }
        uint32_t *t = E2;
        E2 = E1;
        E1 = E0;
        E0 = t;
        off2 = off1;
        off1 = g.off;
    }
    if (tid == 0) *out = (unsigned long long)E1[p] + off1; /* diagonal p + q: (p, q) */
}

/* One-byte codes: the symbol, or 0xff for one that matches nothing. */
static inline uint8_t dp_code8(const wm_aq_t *aq, uint8_t byte) {
    unsigned c = aq->code[byte];
    return c < aq->n_codes ? (uint8_t)c : 0xffu;
}

wm_status wm_cuda_global_dp(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                            int64_t limit, uint64_t *d) {
    uint64_t m = aq->m;
    if (wm_global_trivial(m, n, limit, d)) return WM_OK;
    wm_cuda_state *cs = cx->cuda;
    if (!cs) {
        wm_context_set_error(cx, "the plain DP on the GPU needs a context with the CUDA backend");
        return WM_INVALID;
    }
    if (aq->n_codes > 256) {
        wm_context_set_error(cx, "the GPU DP takes at most 256 symbols, the query has %u",
                             aq->n_codes);
        return WM_INVALID;
    }
    const uint8_t *sa = m <= n ? aq->q : y, *sb = m <= n ? y : aq->q;
    uint64_t p = m <= n ? m : n, q = m <= n ? n : m; /* p <= sqrt(WM_ALIGN_MAX_CELLS) */
    if (p >= (1ull << 31)) {
        wm_context_set_error(cx, "the GPU DP takes pairs whose shorter sequence is below 2^31");
        return WM_UNSUPPORTED;
    }
    WM_CU(cx, cudaSetDevice(cs->device));

    uint8_t *h = (uint8_t *)malloc(p + q);
    if (!h) return WM_NOMEM;
    for (uint64_t i = 0; i < p; i++) h[i] = dp_code8(aq, sa[i]);
    for (uint64_t x = 0; x < q; x++) h[p + x] = dp_code8(aq, sb[q - 1 - x]);

    uint32_t stride = (uint32_t)((p + 1 + 31) / 32 * 32);
    size_t ebytes = 3 * (size_t)stride * sizeof(uint32_t);
    int optin = 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, cs->device) !=
        cudaSuccess)
        optin = 48 * 1024;
    size_t smem_cap = (size_t)optin < DP_SMEM_MAX ? (size_t)optin : DP_SMEM_MAX;
    bool smem = ebytes + 64 <= smem_cap; /* 64: the static s_min, rounded */
    unsigned threads = p + 1 < DP_THREADS ? (unsigned)((p + 1 + 31) / 32 * 32) : DP_THREADS;

    /* the sequences, the result and (without shared memory) the diagonals,
    ** in buffers the context keeps */
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    wm_status st = B ? WM_OK : WM_NOMEM;
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[0], p + q);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[1], sizeof(unsigned long long));
    if (st == WM_OK && !smem) st = wm_cu_dev_reserve(cx, &B->g[2], ebytes);
    if (st != WM_OK) {
        free(h);
        return st;
    }
    uint8_t *d_codes = (uint8_t *)B->g[0].p;
    uint32_t *d_buf = smem ? NULL : (uint32_t *)B->g[2].p;
    unsigned long long *d_out = (unsigned long long *)B->g[1].p, h_out = ~0ull;
    cudaStream_t s = cs->stream[0];
    cudaError_t e = cudaMemcpyAsync(d_codes, h, p + q, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess) e = cudaMemsetAsync(d_out, 0xff, sizeof *d_out, s);
    if (e != cudaSuccess) {
        st = wm_cuda_fail(cx, e, "uploading the GPU DP's sequences");
        goto out;
    }
    if (smem) {
        e = wm_cu_allow_smem((const void *)k_global_dp<true>, ebytes);
        if (e == cudaSuccess) {
            k_global_dp<true><<<1, threads, ebytes, s>>>(d_codes, d_codes + p, (uint32_t)p, q,
                                                         aq->n_codes, NULL, stride, limit, d_out);
            e = cudaGetLastError();
        }
    } else {
        k_global_dp<false><<<1, threads, 0, s>>>(d_codes, d_codes + p, (uint32_t)p, q, aq->n_codes,
                                                 d_buf, stride, limit, d_out);
        e = cudaGetLastError();
    }
    if (e != cudaSuccess) {
        st = wm_cuda_fail(cx, e, "the GPU DP kernel launch");
        goto out;
    }
    e = cudaMemcpyAsync(&h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
        st = wm_cuda_fail(cx, e, "the GPU DP kernel");
        goto out;
    }
    if (h_out == ~0ull) {
        wm_context_set_error(cx, "the GPU DP kernel left no distance");
        st = WM_DEVICE;
        goto out;
    }
    *d = h_out;
out:
    free(h);
    return st;
}
