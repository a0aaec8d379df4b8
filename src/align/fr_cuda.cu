/*
** fr_cuda.cu -- the compute step of paper 001's Four-Russians method on the
** GPU, for one pair: D cut into t-blocks, each block's right column and
** bottom row looked up in the table of fr_table.c (layout: fr.h), the blocks
** swept as an anti-diagonal wavefront, D[m][n] read off the last block row.
**
** How it maps to the paper. The paper computes the blocks of one
** anti-diagonal of blocks in parallel, one thread per block, and launches a
** kernel per anti-diagonal. We keep "one thread per block, the blocks of an
** anti-diagonal at the same time" but not the launches (m / t + n / t of
** them would cost more than the lookups):
**   - a warp owns a stripe of 32 consecutive block rows, lane i block row i;
**     lane i does block column u - i at step u, so the lanes of a warp are
**     always on one anti-diagonal, 32 of its blocks at once;
**   - a block's hout (its bottom row, one byte) is the hin of the block
**     below, which lane i + 1 needs one step later: __shfl_up_sync; its vout
**     (right column) is the vin of the lane's next block and stays in a
**     register;
**   - stripes chain through global memory: the last lane of stripe s writes
**     its hout for every block column into a byte array that stripe s + 1's
**     lane 0 reads, and publishes how many columns are there every 32
**     columns (fence, then a per-stripe counter). Lane 0 of stripe s + 1
**     waits for a whole chunk of 32 columns, the 32 lanes load its 32 bytes
**     at once, and a shuffle hands lane 0 one a step. Stripe s + 1 therefore
**     runs about 64 steps behind stripe s, and all resident stripes together
**     work on neighbouring anti-diagonals, as the paper's kernels do in turn;
**   - the table lives in shared memory when t <= 2 (at most 41 KB), in
**     global memory read through the read-only cache when t = 3 (6 MB, it
**     stays in L2) and t = 4 (860 MB);
**   - blocks the table cannot name are computed by a direct DP in the
**     kernel (fr_direct, the same semantics as wm_fr_block_direct): ragged
**     blocks of the last block row / column when t does not divide m / n,
**     and with the DNA key blocks holding a symbol other than A, C, G, T.
**
** Deadlock freedom. Stripe s waits only for stripe s - 1. Warp w of W takes
** stripes w, w + W, w + 2W, ... in order, and the launch is cooperative
** (all W warps resident at once, or the launch fails; on a GPU without
** cooperative launches, a grid no larger than the occupancy API says fits),
** so the lowest
** unfinished stripe always runs: its predecessor is finished. Its byte array
** is a ring of W + 1 slots: the slot stripe s writes was last read by stripe
** s - W, which is the same warp's previous stripe, finished. Every shuffle is
** executed by all 32 lanes with the full mask: lanes outside the matrix on a
** step (skew, a last stripe of fewer than 32 block rows) run the loop with
** nothing to do, and waits are warp-uniform (__all_sync / __any_sync).
**
** Limit. A lane tracks D along its block row's bottom row (D[r][0] = r plus
** the hout digits); every path crosses that row and D never falls along an
** optimal path, so a finished row whose minimum is above limit proves
** D[m][n] > limit: the lane publishes the minimum, every warp stops at its
** next 32-column chunk and that minimum is *d.
*/
#include <stdlib.h>
#include <string.h>

#include "align/fr.h"
#include "align/align_cuda.cuh"
#include "cuda/device.cuh"

#define FR_WARPS 8 /* warps (stripe workers) a thread block */
#define FR_FULL 0xffffffffu
#define FR_NONE 0xffu /* code of a symbol that matches nothing */
/* Loops over the t symbols of a block: unrolled on the device so that a
** block's cells stay in registers; the host copies (tests) need no pragma. */
#ifdef __CUDA_ARCH__
#define FR_UNROLL _Pragma("unroll")
#else
#define FR_UNROLL
#endif

__host__ __device__ constexpr uint32_t fr_pow3(int t) { return t ? 3u * fr_pow3(t - 1) : 1u; }

/* The job of one launch. Block row R is query rows [R t, R t + t), block
** column c target columns [c t, c t + t). */
typedef struct {
    const uint8_t *x;        /* query codes, BR t + 4 bytes (FR_NONE past m) */
    const uint8_t *y;        /* target codes, BC t + 4 bytes */
    const uint16_t *tab;     /* the table (entries vout | hout << 8) */
    uint32_t tab_entries;    /* copied to shared memory (t <= 2) */
    uint8_t *ring;           /* n_ring slots of BC bytes: a stripe's last hout */
    uint32_t *prog;          /* per stripe: block columns published (< 2^32:
                                only stripes with a successor publish, and
                                then m > 32 t, so BC <= 2^37 / (32 t^2)) */
    unsigned long long *out; /* [0] D[m][n], [1] a proof over limit; ~0: none */
    uint64_t m, n, BR, BC;
    uint32_t n_stripes, n_warps, n_ring;
    unsigned n_codes;
    int64_t limit; /* < 0: none */
} fr_job_t;

/* ---- one block (host and device: tests run these on the CPU) -------------- */

/* t one-byte codes of block `blk`, symbol 0 in the low byte. */
template <int T>
__host__ __device__ __forceinline__ uint32_t fr_load(const uint8_t *s, uint64_t blk) {
    const uint8_t *p = s + blk * T;
#ifdef __CUDA_ARCH__
    if (T == 4) return __ldg((const uint32_t *)p);
    if (T == 2) return __ldg((const uint16_t *)p);
    if (T == 1) return __ldg(p);
    return (uint32_t)__ldg(p) | (uint32_t)__ldg(p + 1) << 8 | (uint32_t)__ldg(p + 2) << 16;
#else
    uint32_t v = 0;
    for (int i = 0; i < T; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
#endif
}

/* The DNA key part of t packed codes (code 0 in the lowest two bits), or
** false when one of them has no 2-bit code. */
template <int T>
__host__ __device__ __forceinline__ bool fr_str_key(uint32_t codes, uint32_t *k) {
    const uint32_t high = T == 4 ? 0xfcfcfcfcu : 0xfcfcfcfcu & ((1u << (8 * T)) - 1);
    if (codes & high) return false;
    uint32_t v = 0;
    FR_UNROLL
    for (int j = 0; j < T; j++) v |= ((codes >> (8 * j)) & 3u) << (2 * j);
    *k = v;
    return true;
}

/* The match-matrix key: bit i t + j set when query symbol i equals target
** symbol j. */
template <int T>
__host__ __device__ __forceinline__ uint32_t fr_mat_key(uint32_t xq, uint32_t yq,
                                                        unsigned n_codes) {
    uint32_t k = 0;
    FR_UNROLL
    for (int i = 0; i < T; i++) {
        unsigned xc = (xq >> (8 * i)) & 0xffu;
        FR_UNROLL
        for (int j = 0; j < T; j++) {
            unsigned yc = (yq >> (8 * j)) & 0xffu;
            k |= (xc == yc && xc < n_codes ? 1u : 0u) << (i * T + j);
        }
    }
    return k;
}

/* One block by the plain DP from its borders, wm_fr_block_direct's
** semantics: rows <= T query symbols, cols <= T target symbols; digits of
** vin / hin past rows / cols are ignored, those of vout / hout are written
** as +1. Values are relative to the top-left corner. Past cols the top row
** and every row rise by one a column, so the right edge differs by the same
** as column cols does and no register array is indexed by a variable. */
template <int T>
__host__ __device__ __forceinline__ uint32_t fr_direct(uint32_t xq, unsigned rows, uint32_t yq,
                                                       unsigned cols, unsigned n_codes,
                                                       uint32_t vin, uint32_t hin, uint32_t *hout) {
    int prev[T + 1], cur[T + 1];
    prev[0] = 0;
    FR_UNROLL
    for (int j = 0; j < T; j++) {
        prev[j + 1] = prev[j] + ((unsigned)j < cols ? (int)(hin % 3) - 1 : 1);
        hin /= 3;
    }
    uint32_t vo = 0, place = 1;
    FR_UNROLL
    for (int i = 0; i < T; i++, place *= 3) {
        int dv = (int)(vin % 3) - 1;
        vin /= 3;
        if ((unsigned)i >= rows) {
            vo += 2 * place;
            continue;
        }
        unsigned xc = (xq >> (8 * i)) & 0xffu;
        cur[0] = prev[0] + dv;
        FR_UNROLL
        for (int j = 0; j < T; j++) {
            int v = cur[j] + 1;
            if ((unsigned)j < cols) {
                unsigned yc = (yq >> (8 * j)) & 0xffu;
                int dg = prev[j] + (xc == yc && xc < n_codes ? 0 : 1);
                int up = prev[j + 1] + 1;
                v = v < dg ? v : dg;
                v = v < up ? v : up;
            }
            cur[j + 1] = v;
        }
        vo += (uint32_t)(cur[T] - prev[T] + 1) * place;
        FR_UNROLL
        for (int j = 0; j <= T; j++) prev[j] = cur[j];
    }
    uint32_t ho = 0;
    place = 1;
    FR_UNROLL
    for (int j = 0; j < T; j++, place *= 3) ho += (uint32_t)(prev[j + 1] - prev[j] + 1) * place;
    *hout = ho;
    return vo;
}

template <bool SMEM>
__host__ __device__ __forceinline__ uint32_t fr_tab_at(const uint16_t *tab, uint32_t i) {
#ifdef __CUDA_ARCH__
    return SMEM ? tab[i] : __ldg(tab + i);
#else
    return tab[i];
#endif
}

/* ---- one lane ----------------------------------------------------------------- */

/* A lane's block row: constant over the stripe, plus the block it is on. */
typedef struct {
    uint64_t R;         /* block row */
    bool row_ok;        /* R < BR: the lane has a row */
    bool xdirect;       /* every block of the row is computed directly */
    unsigned rows;      /* query rows of the block row (ragged: m % t) */
    uint32_t xq, qkey;  /* its codes, and their DNA key part */
    uint32_t vin, hout; /* the next block's vin, the last block's hout */
    int64_t cur, mn;    /* D along the bottom row so far, and its minimum */
} fr_lane_t;

template <int T, bool STRINGS>
__host__ __device__ __forceinline__ void fr_lane_init(const fr_job_t &j, uint32_t s, unsigned lane,
                                                      fr_lane_t *L) {
    const uint32_t all_plus = fr_pow3(T) - 1; /* D[i][0] = i, D[0][j] = j */
    L->R = (uint64_t)s * 32 + lane;
    L->row_ok = L->R < j.BR;
    L->rows = L->R == j.BR - 1 && j.m % T ? (unsigned)(j.m % T) : (unsigned)T;
    L->xq = L->row_ok ? fr_load<T>(j.x, L->R) : 0;
    L->qkey = 0;
    L->xdirect = L->rows < (unsigned)T;
    if (STRINGS && !L->xdirect && !fr_str_key<T>(L->xq, &L->qkey)) L->xdirect = true;
    L->vin = all_plus;
    L->hout = all_plus;
    L->cur = L->mn = (int64_t)(L->R * T + L->rows); /* D[bottom row][0] */
}

/* Step u of a lane: the block (R, u - lane) when it is in the matrix, with
** hin its input from above. Returns the block column, or -1 for none. */
template <int T, bool STRINGS, bool SMEM>
__host__ __device__ __forceinline__ int64_t fr_lane_step(const fr_job_t &j, const uint16_t *tab,
                                                         fr_lane_t *L, uint64_t u, unsigned lane,
                                                         uint32_t hin) {
    const uint32_t P3 = fr_pow3(T);
    int64_t c = (int64_t)u - (int64_t)lane;
    if (!L->row_ok || c < 0 || (uint64_t)c >= j.BC) return -1;
    const unsigned cols = (uint64_t)c == j.BC - 1 && j.n % T ? (unsigned)(j.n % T) : (unsigned)T;
    const uint32_t yq = fr_load<T>(j.y, (uint64_t)c);
    bool direct = L->xdirect || cols < (unsigned)T;
    uint32_t key = 0;
    if (!direct) {
        if (STRINGS) {
            uint32_t yk;
            if (fr_str_key<T>(yq, &yk)) key = L->qkey << (2 * T) | yk;
            else direct = true;
        } else {
            key = fr_mat_key<T>(L->xq, yq, j.n_codes);
        }
    }
    uint32_t hout;
    if (direct) {
        L->vin = fr_direct<T>(L->xq, L->rows, yq, cols, j.n_codes, L->vin, hin, &hout);
    } else {
        uint32_t e = fr_tab_at<SMEM>(tab, (key * P3 + L->vin) * P3 + hin);
        L->vin = e & 0xffu;
        hout = e >> 8;
    }
    L->hout = hout;
    /* D along the bottom row: its first cols digits */
    uint32_t h = hout;
    int64_t cur = L->cur, mn = L->mn;
    FR_UNROLL
    for (int jj = 0; jj < T; jj++) {
        if ((unsigned)jj < cols) {
            cur += (int64_t)(h % 3) - 1;
            mn = cur < mn ? cur : mn;
        }
        h /= 3;
    }
    L->cur = cur;
    L->mn = mn;
    return c;
}

/* ---- the kernel --------------------------------------------------------------- */

__device__ __forceinline__ bool fr_stopped(const fr_job_t &j) {
    return *(volatile unsigned long long *)(j.out + 1) != ~0ull;
}

/* Stripe s on one warp. Returns false when the limit stopped the sweep. */
template <int T, bool STRINGS, bool SMEM>
__device__ bool fr_stripe(const fr_job_t &j, const uint16_t *tab, uint32_t s, unsigned lane) {
    const uint32_t all_plus = fr_pow3(T) - 1;
    fr_lane_t L;
    fr_lane_init<T, STRINGS>(j, s, lane, &L);
    const uint64_t rows_here = j.BR - (uint64_t)s * 32;
    const unsigned last_lane = rows_here < 32 ? (unsigned)rows_here - 1 : 31u;
    const bool has_prev = s > 0, publish = s + 1 < j.n_stripes; /* publish: 32 rows */
    const bool track = j.limit >= 0;
    const uint8_t *bin = has_prev ? j.ring + (uint64_t)((s - 1) % j.n_ring) * j.BC : NULL;
    uint8_t *bout = publish ? j.ring + (uint64_t)(s % j.n_ring) * j.BC : NULL;
    const volatile uint32_t *prev_prog = has_prev ? j.prog + (s - 1) : NULL;
    uint32_t chunk = all_plus; /* byte (u & 31) of the stripe above's chunk, for lane 0 */
    const uint64_t steps = j.BC + last_lane;
    for (uint64_t u = 0; u < steps; u++) {
        if ((u & 31) == 0) {
            if (track && __any_sync(FR_FULL, fr_stopped(j))) return false;
            if (has_prev && u < j.BC) {
                uint64_t want = u + 32 < j.BC ? u + 32 : j.BC;
                while (!__all_sync(FR_FULL, *prev_prog >= (uint32_t)want)) {
                    if (track && __any_sync(FR_FULL, fr_stopped(j))) return false;
                    __nanosleep(100);
                }
                __threadfence(); /* the bytes after the count that covers them */
                chunk = u + lane < j.BC ? __ldcg(bin + u + lane) : all_plus;
            }
        }
        uint32_t up = __shfl_up_sync(FR_FULL, L.hout, 1);
        uint32_t above = __shfl_sync(FR_FULL, chunk, (int)(u & 31));
        uint32_t hin = lane ? up : has_prev ? above : all_plus;
        int64_t c = fr_lane_step<T, STRINGS, SMEM>(j, tab, &L, u, lane, hin);
        if (c < 0) continue;
        if (publish && lane == 31) {
            bout[c] = (uint8_t)L.hout;
            if (((c + 1) & 31) == 0 || (uint64_t)c + 1 == j.BC) {
                __threadfence(); /* the bytes before the count */
                *(volatile uint32_t *)(j.prog + s) = (uint32_t)(c + 1);
            }
        }
        if ((uint64_t)c == j.BC - 1) {                                 /* the lane's row is done */
            if (L.R == j.BR - 1) j.out[0] = (unsigned long long)L.cur; /* D[m][n] */
            else if (track && L.mn > j.limit) atomicMin(j.out + 1, (unsigned long long)L.mn);
        }
    }
    return true;
}

template <int T, bool STRINGS, bool SMEM>
__global__ void __launch_bounds__(FR_WARPS * 32) k_fr(fr_job_t j) {
    extern __shared__ uint16_t s_tab[];
    const uint16_t *tab = j.tab;
    if (SMEM) {
        for (uint32_t i = threadIdx.x; i < j.tab_entries; i += blockDim.x) s_tab[i] = j.tab[i];
        __syncthreads();
        tab = s_tab;
    }
    const uint32_t w = blockIdx.x * FR_WARPS + threadIdx.x / 32;
    if (w >= j.n_warps) return; /* a whole warp */
    const unsigned lane = threadIdx.x & 31;
    for (uint32_t s = w; s < j.n_stripes; s += j.n_warps)
        if (!fr_stripe<T, STRINGS, SMEM>(j, tab, s, lane)) return;
}

/* ---- the host ------------------------------------------------------------------ */

typedef void (*fr_kernel_t)(fr_job_t);

static fr_kernel_t fr_kernel(unsigned t, int strings) {
    switch (t * 2 + (strings ? 1 : 0)) {
    case 2: return k_fr<1, false, true>;
    case 3: return k_fr<1, true, true>;
    case 4: return k_fr<2, false, true>;
    case 5: return k_fr<2, true, true>;
    case 6: return k_fr<3, false, false>;
    case 7: return k_fr<3, true, false>;
    case 8: return k_fr<4, false, false>;
    case 9: return k_fr<4, true, false>;
    default: return NULL;
    }
}

/* The table on the context's GPU, uploaded on first use and kept in tab->dev
** (the CPU cache owns the table and frees the copy through
** wm_cuda_fr_table_free before the CUDA context goes). */
static wm_status fr_table_upload(wm_context_t *cx, const wm_fr_table_t *ctab, int device) {
    wm_fr_table_t *tab = (wm_fr_table_t *)ctab; /* the cache's, shared by design */
    if (tab->dev && tab->dev_ordinal == device) return WM_OK;
    if (tab->dev) wm_cuda_fr_table_free(tab); /* made for another GPU */
    WM_CU(cx, cudaSetDevice(device));
    size_t bytes = (size_t)tab->entries * sizeof *tab->out;
    void *d = NULL;
    cudaError_t e = cudaMalloc(&d, bytes);
    if (e != cudaSuccess) {
        wm_status st = wm_cuda_fail(cx, e, "allocating the four-russians table on the GPU");
        wm_context_set_error(cx,
                             "four-russians: the t = %u table (%.0f MB) does not fit on the GPU",
                             tab->t, (double)bytes / 1e6);
        return st;
    }
    e = cudaMemcpy(d, tab->out, bytes, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        cudaFree(d);
        return wm_cuda_fail(cx, e, "uploading the four-russians table");
    }
    tab->dev = d;
    tab->dev_ordinal = device;
    return WM_OK;
}

void wm_cuda_fr_table_free(wm_fr_table_t *tab) {
    if (!tab || !tab->dev) return;
    int cur = -1;
    if (cudaGetDevice(&cur) != cudaSuccess) cur = -1;
    if (cudaSetDevice(tab->dev_ordinal) == cudaSuccess) cudaFree(tab->dev);
    if (cur >= 0) cudaSetDevice(cur);
    cudaGetLastError();
    tab->dev = NULL;
    tab->dev_ordinal = -1;
}

/* Codes of s[0, len) in blocks of t, padded with FR_NONE to blocks * t + 4. */
static void fr_codes(const wm_aq_t *aq, const uint8_t *s, uint64_t len, uint64_t padded,
                     uint8_t *out) {
    for (uint64_t i = 0; i < len; i++) {
        unsigned c = aq->code[s[i]];
        out[i] = c < aq->n_codes ? (uint8_t)c : FR_NONE;
    }
    memset(out + len, FR_NONE, padded - len);
}

static inline size_t fr_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* What the GPU sweep cannot take, said in the context's message. */
static wm_status fr_check(wm_context_t *cx, const wm_aq_t *aq, uint64_t m, uint64_t n,
                          const wm_fr_table_t *tab, fr_kernel_t kern) {
    if (!kern || !tab->out || tab->pow3 != fr_pow3((int)tab->t) ||
        tab->entries != (tab->strings ? 1ull << (4 * tab->t) : 1ull << (tab->t * tab->t)) *
                            tab->pow3 * tab->pow3) {
        wm_context_set_error(cx, "four-russians on the GPU: not a table of fr.h's layout");
        return WM_INVALID;
    }
    if (aq->n_codes > 256) {
        wm_context_set_error(cx,
                             "four-russians on the GPU takes at most 256 symbols, the query has %u",
                             aq->n_codes);
        return WM_INVALID;
    }
    const unsigned t = tab->t;
    if ((m + t - 1) / t > 32 && (n + t - 1) / t >= (1ull << 32)) { /* the progress counters */
        wm_context_set_error(cx, "four-russians on the GPU takes at most 2^32 block columns "
                                 "when the query has more than 32 block rows");
        return WM_UNSUPPORTED;
    }
    return WM_OK;
}

/* As many stripe warps as the GPU holds at once, as stripes need, and as the
** ring (W + 1 slots of BC bytes, at most 1 GiB or a quarter of free memory)
** allows: j's n_warps and n_ring, and the grid. */
static wm_status fr_warps(wm_context_t *cx, fr_kernel_t kern, size_t smem, fr_job_t *j,
                          unsigned *grid) {
    int per_sm = 0;
    WM_CU(cx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)kern,
                                                            FR_WARPS * 32, smem));
    if (per_sm < 1) {
        wm_context_set_error(cx, "four-russians on the GPU: no block fits on an SM");
        return WM_DEVICE;
    }
    size_t free_b = 0, total_b = 0;
    WM_CU(cx, cudaMemGetInfo(&free_b, &total_b));
    uint64_t ring_cap = free_b / 4 < (1ull << 30) ? free_b / 4 : (1ull << 30);
    uint64_t W = (uint64_t)per_sm * (uint64_t)cx->cuda->sm_count * FR_WARPS;
    if (W > j->n_stripes) W = j->n_stripes;
    if (ring_cap / j->BC < W + 1) W = ring_cap / j->BC > 2 ? ring_cap / j->BC - 1 : 1;
    if (W < 1) W = 1;
    j->n_warps = (uint32_t)W;
    j->n_ring = (uint32_t)W + 1;
    *grid = (unsigned)((W + FR_WARPS - 1) / FR_WARPS);
    return WM_OK;
}

/* One region of device memory (kept in the context): codes, ring, progress,
** results; the codes uploaded, the rest zeroed, then the sweep. */
static wm_status fr_run(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, fr_job_t *j,
                        fr_kernel_t kern, size_t smem, unsigned grid, unsigned t, uint64_t *d) {
    const uint64_t m = aq->m, n = j->n;
    size_t x_bytes = (size_t)(j->BR * t + 4), y_bytes = (size_t)(j->BC * t + 4);
    size_t ring_bytes = j->n_stripes > 1 ? (size_t)(j->n_ring * j->BC) : 0;
    size_t o_x = 0, o_y = fr_align(o_x + x_bytes), o_ring = fr_align(o_y + y_bytes);
    size_t o_prog = fr_align(o_ring + ring_bytes),
           o_out = fr_align(o_prog + 4 * (size_t)j->n_stripes);
    size_t total = o_out + 2 * sizeof(unsigned long long);
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    if (!B) return WM_NOMEM;
    wm_status st = wm_cu_dev_reserve(cx, &B->g[5], total);
    if (st != WM_OK) return st;
    uint8_t *h = (uint8_t *)calloc(1, o_ring);
    if (!h) return WM_NOMEM;
    fr_codes(aq, aq->q, m, x_bytes, h + o_x);
    fr_codes(aq, y, n, y_bytes, h + o_y);
    uint8_t *dmem = (uint8_t *)B->g[5].p;
    j->x = dmem + o_x;
    j->y = dmem + o_y;
    j->ring = dmem + o_ring;
    j->prog = (uint32_t *)(dmem + o_prog);
    j->out = (unsigned long long *)(dmem + o_out);
    cudaStream_t s = cx->cuda->stream[0];
    cudaError_t e = cudaMemcpyAsync(dmem, h, o_ring, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess) e = cudaMemsetAsync(j->prog, 0, 4 * (size_t)j->n_stripes, s);
    if (e == cudaSuccess) e = cudaMemsetAsync(j->out, 0xff, 2 * sizeof(unsigned long long), s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s); /* h is freed next */
    free(h);
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "uploading the four-russians sequences");
    int coop = 0;
    WM_CU(cx, cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, cx->cuda->device));
    if (coop) {
        void *args[] = { j };
        WM_CU(cx, cudaLaunchCooperativeKernel((const void *)kern, dim3(grid), dim3(FR_WARPS * 32),
                                              args, smem, s));
    } else {
        kern<<<grid, FR_WARPS * 32, smem, s>>>(*j);
        WM_CU(cx, cudaGetLastError());
    }
    unsigned long long h_out[2] = { ~0ull, ~0ull };
    WM_CU(cx, cudaMemcpyAsync(h_out, j->out, sizeof h_out, cudaMemcpyDeviceToHost, s));
    WM_CU(cx, cudaStreamSynchronize(s));
    if (h_out[0] != ~0ull) *d = h_out[0];
    else if (h_out[1] != ~0ull) *d = h_out[1]; /* stopped: a row above limit */
    else {
        wm_context_set_error(cx, "four-russians on the GPU: the kernel left no distance");
        return WM_DEVICE;
    }
    return WM_OK;
}

wm_status wm_cuda_global_fr(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                            const wm_fr_table_t *tab, int64_t limit, uint64_t *d) {
    const uint64_t m = aq->m;
    if (wm_global_trivial(m, n, limit, d)) return WM_OK;
    wm_cuda_state *cs = cx->cuda;
    fr_kernel_t kern = tab ? fr_kernel(tab->t, tab->strings) : NULL;
    wm_status st = fr_check(cx, aq, m, n, tab, kern);
    if (st == WM_OK) st = fr_table_upload(cx, tab, cs->device);
    if (st != WM_OK) return st;
    const unsigned t = tab->t;
    const bool smem_tab = t <= 2;
    fr_job_t j;
    memset(&j, 0, sizeof j);
    j.m = m;
    j.n = n;
    j.BR = (m + t - 1) / t;
    j.BC = (n + t - 1) / t;
    j.n_stripes = (uint32_t)((j.BR + 31) / 32); /* m <= WM_MAX_QUERY */
    j.n_codes = aq->n_codes;
    j.limit = limit;
    j.tab = (const uint16_t *)tab->dev;
    j.tab_entries = smem_tab ? (uint32_t)tab->entries : 0;
    size_t smem = smem_tab ? (size_t)tab->entries * sizeof(uint16_t) : 0;
    if (smem_tab) WM_CU(cx, wm_cu_allow_smem((const void *)kern, smem));
    unsigned grid = 0;
    st = fr_warps(cx, kern, smem, &j, &grid);
    if (st == WM_OK) st = fr_run(cx, aq, y, &j, kern, smem, grid, t, d);
    return st;
}
