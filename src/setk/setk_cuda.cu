/*
** setk_cuda.cu -- a set within k errors on the GPU: the seeds found, paired,
** merged into windows and verified on the device; the host (scan.c) finds
** the starts and puts the hits in order.
**
** One batch of owned ends (lo, hi] at a time, its text copied with the
** halo before it and spread after (or read from the target's copy):
**   seed    each thread rolls the key over 64 positions, asks the bit
**           filter, probes the table, and appends (pattern, strand, end,
**           record, piece, need) for every seed whose window reaches the
**           batch (warp-aggregated atomics; a count over the buffer runs the
**           batch again with room);
**   sort    CUB radix sort by (pattern, strand, end);
**   pair    a seed asking two or three pieces is kept when seeds of one or
**           two other pieces of its pattern and strand put the end within
**           spread (setk.h);
**   select  CUB keeps the flagged ones;
**   verify  a thread for each run of windows closer than the pattern's halo
**           (the first of a run walks it): Myers' bit-vector over at most 4
**           words (m <= 256), or a direct count of mismatches (Hamming),
**           from the halo before the run, never before its record; every
**           end within k is a hit (pattern, strand, end, errors);
**   start   edits: each hit's start, as the resolver finds it on the CPU;
**   keys    on DNA: each hit as one 64-bit key (setk.h,
**           wm_setk_key_layout_t) sorted by CUB into wm_search's order,
**           with edits its occurrence's length beside it, so the host
**           copies 8 or 10 bytes a hit and sorts nothing (10,000 guides'
**           13 million hits were sorted twice on the host).
** The patterns too short to seed are scanned whole (direct_cuda.cu). DNA
** sets whose seeded patterns are at most 256 long, and whose direct ones
** that file takes, run here (supports); exact regions only with Hamming and
** nothing seeded. The CPU runs the others. Results are the CPU's: the same
** windows (a superset does not matter, every end is exact) and the same
** kernels' arithmetic.
*/
#include <cub/cub.cuh>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "setk/setk_dev.cuh"

#define SEED_SPAN 64 /* key positions a seed thread rolls over */
#define END_BITS 32

/* ---- the device tables of a database ------------------------------------------ */

typedef struct {
    uint64_t db_id; /* the wm_setk_t they were made from (its id: addresses are reused) */
    unsigned bits, filter_bits; /* the table's, as the host's would have them */
    size_t n_keys;
    wm_cu_buf_t filter, slot, key, first, seed, pat_off, pat_len, arena;
    wm_cu_buf_t text, rs, found_key, found_val, sorted_key, sorted_val, flags, kept_key, kept_val,
        n_kept, count, hits, sort_tmp, h_hits, key_in, key_out, len_in, len_out;
    setk_direct_t direct;
} setk_cache_t;

extern "C" void wm_setk_cuda_free_cache(wm_context_t *cx, void *cache) {
    (void)cx;
    setk_cache_t *c = (setk_cache_t *)cache;
    wm_cu_buf_t *dev[] = {
        &c->filter,    &c->slot,      &c->key,        &c->first,      &c->seed,
        &c->pat_off,   &c->pat_len,   &c->arena,      &c->text,       &c->rs,
        &c->found_key, &c->found_val, &c->sorted_key, &c->sorted_val, &c->flags,
        &c->kept_key,  &c->kept_val,  &c->n_kept,     &c->count,      &c->hits,
        &c->sort_tmp,  &c->key_in,    &c->key_out,    &c->len_in,     &c->len_out
    };
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++) wm_cu_dev_release(dev[i]);
    wm_cu_host_release(&c->h_hits);
    setk_direct_release(&c->direct);
    free(c);
}

static wm_status upload(wm_context_t *cx, wm_cu_buf_t *b, const void *src, size_t bytes) {
    wm_status st = wm_cu_dev_reserve(cx, b, bytes ? bytes : 8);
    if (st == WM_OK && bytes) WM_CU(cx, cudaMemcpy(b->p, src, bytes, cudaMemcpyHostToDevice));
    return st;
}

/* ---- device helpers ------------------------------------------------------------ */

typedef struct {
    const uint64_t *filter;
    const uint32_t *slot;
    const uint64_t *key;
    const uint32_t *first;
    const wm_seed_t *seed;
    const uint64_t *pat_off;
    const uint32_t *pat_len;
    const uint8_t *arena;
    unsigned bits, filter_bits, q;
    uint32_t spread, k;
    uint64_t reach; /* an end lies within this of its key's start: max_reach + spread */
    int hamming;
} dtables_t;

__device__ __forceinline__ uint64_t hash_slot(uint64_t code, unsigned bits) {
    return (code * 0x9E3779B97F4A7C15ull) >> (64 - bits);
}
__device__ __forceinline__ uint64_t hash_filter(uint64_t code, unsigned bits) {
    return ((code ^ code >> 29) * 0xD6E8FEB86659FD93ull) >> (64 - bits);
}

/* ---- the table ------------------------------------------------------------------ */

/* The table built on the device from the keyed seeds (setk.h): sorted by
** key code (CUB, stable: the seeds of a key stay in pattern, strand and
** piece order), each key's first seed marked and numbered, then each key
** put in its slot by linear probing (an atomic compare-and-swap a probe:
** any order of insertion gives a table linear probing reads alike) and its
** filter bit set. The host's build (seeds.c) took 0.3 s of a million
** reads' compile on 16 cores, and its 470 MB upload; the keyed seeds are
** 336 MB, sorted here in milliseconds. */
__global__ void split_keyed(const wm_setk_keyed_seed_t *k, uint64_t n, unsigned long long *code,
                            uint32_t *idx) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    code[i] = k[i].code;
    idx[i] = (uint32_t)i;
}

__global__ void seeds_in_order(const wm_setk_keyed_seed_t *k, const unsigned long long *code,
                               const uint32_t *idx, uint64_t n, wm_seed_t *seed, uint32_t *head) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    seed[i] = k[idx[i]].seed;
    head[i] = i == 0 || code[i] != code[i - 1];
}

__global__ void place_keys(const unsigned long long *code, const uint32_t *head,
                           const uint32_t *u_of, uint64_t n, unsigned bits, unsigned filter_bits,
                           uint64_t *key, uint32_t *first, uint32_t *slot,
                           unsigned long long *filter) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || !head[i]) return;
    uint32_t u = u_of[i];
    uint64_t c = code[i];
    key[u] = c;
    first[u] = (uint32_t)i;
    uint64_t f = hash_filter(c, filter_bits);
    atomicOr(&filter[f >> 6], 1ull << (f & 63));
    uint64_t mask = (1ull << bits) - 1;
    for (uint64_t h = hash_slot(c, bits);; h = (h + 1) & mask)
        if (atomicCAS(&slot[h], 0u, u + 1) == 0u) break;
}

static unsigned blocks_for(uint64_t n, unsigned threads) {
    return (unsigned)((n + threads - 1) / threads);
}

/* The table of s's n_seeds keyed seeds into c's filter, slot, key, first
** and seed (s's lock held: the keyed seeds stay). */
static wm_status build_table(wm_context_t *cx, setk_cache_t *c, const wm_setk_t *s,
                             cudaStream_t stream) {
    size_t n = s->n_seeds;
    wm_cu_buf_t keyed = { 0 }, code = { 0 }, code2 = { 0 }, idx = { 0 }, idx2 = { 0 }, head = { 0 },
                u_of = { 0 };
    wm_status st = wm_cu_dev_reserve(cx, &keyed, n * sizeof(wm_setk_keyed_seed_t) + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &code, n * 8 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &code2, n * 8 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &idx, n * 4 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &idx2, n * 4 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &head, n * 4 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &u_of, n * 4 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &c->seed, n * sizeof(wm_seed_t) + 8);
    unsigned long long *k1 = (unsigned long long *)code.p, *k2 = (unsigned long long *)code2.p;
    uint32_t *i1 = (uint32_t *)idx.p, *i2 = (uint32_t *)idx2.p, *hd = (uint32_t *)head.p,
             *uo = (uint32_t *)u_of.p;
    uint32_t last[2] = { 0, 0 }; /* the last seed's head and number */
    size_t nk = 0;
    if (st == WM_OK && n > 0) {
        WM_CU(cx, cudaMemcpyAsync(keyed.p, s->keyed, n * sizeof(wm_setk_keyed_seed_t),
                                  cudaMemcpyHostToDevice, stream));
        split_keyed<<<blocks_for(n, 256), 256, 0, stream>>>((const wm_setk_keyed_seed_t *)keyed.p,
                                                            n, k1, i1);
        WM_CU(cx, cudaGetLastError());
        int key_bits = (int)((s->dna ? 2 : 8) * s->q);
        size_t tmp = 0, tmp2 = 0;
        WM_CU(cx, cub::DeviceRadixSort::SortPairs(NULL, tmp, k1, k2, i1, i2, (int)n, 0, key_bits,
                                                  stream));
        WM_CU(cx, cub::DeviceScan::ExclusiveSum(NULL, tmp2, hd, uo, (int)n, stream));
        if ((st = wm_cu_dev_reserve(cx, &c->sort_tmp, tmp > tmp2 ? tmp : tmp2)) != WM_OK) goto out;
        tmp = c->sort_tmp.cap;
        WM_CU(cx, cub::DeviceRadixSort::SortPairs(c->sort_tmp.p, tmp, k1, k2, i1, i2, (int)n, 0,
                                                  key_bits, stream));
        seeds_in_order<<<blocks_for(n, 256), 256, 0, stream>>>(
            (const wm_setk_keyed_seed_t *)keyed.p, k2, i2, n, (wm_seed_t *)c->seed.p, hd);
        WM_CU(cx, cudaGetLastError());
        tmp = c->sort_tmp.cap;
        WM_CU(cx, cub::DeviceScan::ExclusiveSum(c->sort_tmp.p, tmp, hd, uo, (int)n, stream));
        WM_CU(cx, cudaMemcpyAsync(&last[0], hd + n - 1, 4, cudaMemcpyDeviceToHost, stream));
        WM_CU(cx, cudaMemcpyAsync(&last[1], uo + n - 1, 4, cudaMemcpyDeviceToHost, stream));
        WM_CU(cx, cudaStreamSynchronize(stream));
        nk = (size_t)last[0] + last[1];
    }
    c->bits = wm_setk_slot_bits(nk);
    c->filter_bits = wm_setk_filter_bits(nk);
    c->n_keys = nk;
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &c->slot, ((size_t)4 << c->bits));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &c->filter, ((size_t)1 << c->filter_bits) / 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &c->key, nk * 8 + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &c->first, nk * 4 + 8);
    if (st == WM_OK) {
        uint32_t nn = (uint32_t)n;
        WM_CU(cx, cudaMemsetAsync(c->slot.p, 0, (size_t)4 << c->bits, stream));
        WM_CU(cx, cudaMemsetAsync(c->filter.p, 0, ((size_t)1 << c->filter_bits) / 8, stream));
        WM_CU(cx,
              cudaMemcpyAsync((uint32_t *)c->first.p + nk, &nn, 4, cudaMemcpyHostToDevice, stream));
        if (n > 0) {
            place_keys<<<blocks_for(n, 256), 256, 0, stream>>>(
                k2, hd, uo, n, c->bits, c->filter_bits, (uint64_t *)c->key.p,
                (uint32_t *)c->first.p, (uint32_t *)c->slot.p, (unsigned long long *)c->filter.p);
            WM_CU(cx, cudaGetLastError());
        }
        WM_CU(cx, cudaStreamSynchronize(stream));
    }
out:
    wm_cu_dev_release(&keyed);
    wm_cu_dev_release(&code);
    wm_cu_dev_release(&code2);
    wm_cu_dev_release(&idx);
    wm_cu_dev_release(&idx2);
    wm_cu_dev_release(&head);
    wm_cu_dev_release(&u_of);
    return st;
}

/* The host's table, when a CPU scan built it. */
static wm_status upload_table(wm_context_t *cx, setk_cache_t *c, const wm_setk_t *s) {
    c->bits = s->bits;
    c->filter_bits = s->filter_bits;
    c->n_keys = s->n_keys;
    size_t fwords = ((size_t)1 << s->filter_bits) / 64;
    wm_status st = upload(cx, &c->filter, s->filter, fwords * sizeof *s->filter);
    if (st == WM_OK) st = upload(cx, &c->slot, s->slot, ((size_t)1 << s->bits) * sizeof *s->slot);
    if (st == WM_OK) st = upload(cx, &c->key, s->key, s->n_keys * sizeof *s->key);
    if (st == WM_OK) st = upload(cx, &c->first, s->first, (s->n_keys + 1) * sizeof *s->first);
    if (st == WM_OK) st = upload(cx, &c->seed, s->seed, s->n_seeds * sizeof *s->seed);
    return st;
}

/* The database's tables on the device, at its first batch: built here from
** the keyed seeds, or the host's uploaded when a CPU scan built it first. */
static wm_status tables(wm_context_t *cx, setk_cache_t *c, const wm_setk_t *s,
                        cudaStream_t stream) {
    if (c->db_id == s->id) return WM_OK;
    c->db_id = 0;
    uint64_t *off = (uint64_t *)malloc(s->n * sizeof *off);
    uint32_t *len = (uint32_t *)malloc(s->n * sizeof *len);
    if (!off || !len) {
        free(off);
        free(len);
        return WM_NOMEM;
    }
    size_t total = 0;
    for (size_t i = 0; i < s->n; i++) {
        off[i] = (uint64_t)(s->pat[i] - s->arena);
        len[i] = (uint32_t)s->len[i];
        total += s->len[i];
    }
    /* CUB counts in int: more seeds than that take the host's table */
    wm_status st = s->n_seeds > (size_t)INT32_MAX ? wm_setk_host_table(s, NULL) : WM_OK;
    pthread_mutex_t *lock = (pthread_mutex_t *)&s->lock;
    pthread_mutex_lock(lock);
    if (st == WM_OK) st = s->host_table ? upload_table(cx, c, s) : build_table(cx, c, s, stream);
    pthread_mutex_unlock(lock);
    if (st == WM_OK) st = upload(cx, &c->pat_off, off, s->n * sizeof *off);
    if (st == WM_OK) st = upload(cx, &c->pat_len, len, s->n * sizeof *len);
    if (st == WM_OK) st = upload(cx, &c->arena, s->arena, total);
    free(off);
    free(len);
    if (st == WM_OK) c->db_id = s->id;
    return st;
}

/* ---- seed ----------------------------------------------------------------------- */

typedef struct {
    unsigned long long *key, *val; /* val = record << 24 | piece << 8 | need */
    unsigned long long *count;
    uint64_t cap;
} dfound_t;

/* Whether seed sd of the key at ks gives a window of ends that meets
** [first, last]. */
__device__ __forceinline__ bool reaches(const dtables_t &t, const wm_seed_t &sd, uint64_t ks,
                                        int64_t first, int64_t last) {
    int64_t end = (int64_t)ks - (int64_t)sd.key_off + (int64_t)t.pat_len[sd.pat];
    return end + (int64_t)t.spread >= first && end - (int64_t)t.spread <= last;
}

/* A key found by a lane: its seeds [i0, i1), where it starts (ks), its
** record's index r in the batch, and the ends a window must meet. */
typedef struct {
    uint32_t i0, i1, r;
    uint64_t ks;
    int64_t first, last;
    bool all; /* every seed's window meets them (away from the edges) */
} dkey_t;

/* The lane's key at text position x (the key ends at x + 1), if any. */
__device__ __forceinline__ bool find_key(const dtables_t &t, const dbatch_t &b, uint64_t code,
                                         uint64_t x, dkey_t *k) {
    uint64_t f = hash_filter(code, t.filter_bits);
    if (!(t.filter[f >> 6] >> (f & 63) & 1)) return false;
    uint64_t smask = (1ull << t.bits) - 1;
    uint32_t u = 0;
    for (uint64_t h = hash_slot(code, t.bits);; h = (h + 1) & smask) {
        uint32_t v = t.slot[h];
        if (v == 0 || t.key[v - 1] == code) {
            u = v;
            break;
        }
    }
    if (u == 0) return false;
    k->ks = x + 1 - t.q; /* where the key starts */
    k->r = record_of(b, k->ks);
    uint64_t rb = b.rs[k->r], re = b.rs[k->r + 1];
    if (k->ks + t.q > re) return false; /* a key across a record border is no piece */
    k->first = (int64_t)(b.lo > rb ? b.lo : rb) + 1;
    k->last = (int64_t)(b.hi < re ? b.hi : re);
    k->i0 = t.first[u - 1];
    k->i1 = t.first[u];
    /* a seed's end lies after its key's start, by its pattern's length at
    ** most: only near the batch's or the record's edges can a window miss */
    k->all = (int64_t)k->ks - (int64_t)t.reach >= k->first &&
             (int64_t)k->ks + (int64_t)t.reach <= k->last;
    return true;
}

/* Each warp rolls 32 spans of SEED_SPAN key ends side by side, a lane a
** span, and the lanes that find a key at a step hand it to the warp: their
** seeds are written by all 32 lanes, coalesced, one atomic a step for all of
** them. Repeats make most seeds: 10^6 reads against chrX find 870 M, 81%
** from keys of 100 seeds or more (up to 4,090), and a lane that wrote its
** key's seeds alone, one atomic a seed, held its warp idle and serialised
** the GPU on one counter (1.05 s of the H100's 3.5 s). Keys end at x + 1
** for x in [x0, x1) of a lane's span (keys start at x + 1 - q >= seed_from). */
__global__ void seed_kernel(dtables_t t, dbatch_t b, uint64_t seed_from, uint64_t seed_to,
                            dfound_t o) {
    const unsigned FULL = 0xffffffffu, lane = threadIdx.x & 31;
    uint64_t span = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t x0 = seed_from + span * SEED_SPAN;
    if (__all_sync(FULL, x0 >= seed_to)) return;
    uint64_t x1 = x0 + SEED_SPAN < seed_to ? x0 + SEED_SPAN : seed_to;
    if (x0 >= seed_to) x1 = x0; /* a lane past the text: steps with the warp, finds nothing */
    uint64_t mask = t.q >= 32 ? ~0ull : (1ull << (2 * t.q)) - 1;
    uint64_t code = 0;
    unsigned run = 0;
    /* every lane takes q - 1 + SEED_SPAN steps, from the q - 1 bytes before
    ** x0 that its first keys hold (none before seed_from) */
    uint64_t w0 = x0 - (t.q - 1);
    for (unsigned step = 0; step < t.q - 1 + SEED_SPAN; step++) {
        uint64_t x = w0 + step;
        dkey_t k = { 0, 0, 0, 0, 0, 0, false };
        bool have = false;
        if (x + (t.q - 1) >= x0 && x >= seed_from && x < x1) { /* (x0 - (q - 1) may wrap) */
            int c = d_base[at(b, x)];
            if (c < 0) {
                run = 0;
            } else {
                code = (code << 2 | (uint64_t)c) & mask;
                if (++run >= t.q && x >= x0) have = find_key(t, b, code, x, &k);
            }
        }
        unsigned ball = __ballot_sync(FULL, have);
        if (ball == 0) continue;
        /* the lane's count (near an edge, the seeds whose windows meet it),
        ** the warp's exclusive scan of them, one atomic for the step */
        uint32_t n = 0;
        if (have) {
            if (k.all) n = k.i1 - k.i0;
            else
                for (uint32_t i = k.i0; i < k.i1; i++)
                    n += reaches(t, t.seed[i], k.ks, k.first, k.last);
        }
        uint32_t before = n;
        for (int d = 1; d < 32; d <<= 1) {
            uint32_t y = __shfl_up_sync(FULL, before, d);
            if ((int)lane >= d) before += y;
        }
        uint32_t total = __shfl_sync(FULL, before, 31);
        before -= n;
        unsigned long long base = 0;
        if (lane == 0 && total > 0) base = atomicAdd(o.count, (unsigned long long)total);
        base = __shfl_sync(FULL, base, 0);
        while (ball) { /* each key's seeds, by all the lanes */
            int src = __ffs(ball) - 1;
            ball &= ball - 1;
            uint32_t i0 = __shfl_sync(FULL, k.i0, src), i1 = __shfl_sync(FULL, k.i1, src);
            uint32_t r = __shfl_sync(FULL, k.r, src);
            uint64_t ks = __shfl_sync(FULL, k.ks, src);
            int64_t first = __shfl_sync(FULL, k.first, src), last = __shfl_sync(FULL, k.last, src);
            bool all = __shfl_sync(FULL, k.all, src);
            unsigned long long j = base + __shfl_sync(FULL, before, src);
            uint64_t origin = b.lo - (uint64_t)t.spread;
            uint64_t rec = (uint64_t)(b.r0 + r) << 24;
            for (uint32_t i = i0; i < i1; i += 32) {
                wm_seed_t sd;
                bool ok = i + lane < i1;
                if (ok) {
                    sd = t.seed[i + lane];
                    ok = all || reaches(t, sd, ks, first, last);
                }
                unsigned m = __ballot_sync(FULL, ok);
                unsigned long long at_j = j + __popc(m & ((1u << lane) - 1));
                j += __popc(m);
                if (!ok || at_j >= o.cap) continue;
                uint64_t end = ks - sd.key_off + t.pat_len[sd.pat];
                o.key[at_j] = (uint64_t)sd.pat << (END_BITS + 1) | (uint64_t)sd.strand << END_BITS |
                              (end - origin);
                o.val[at_j] = rec | (uint64_t)sd.piece << 8 | sd.need;
            }
        }
    }
}

/* ---- pair ------------------------------------------------------------------------ */

/* A seed asking `need` pieces (setk.h) is kept when seeds of need - 1 other
** pieces of its pattern and strand put the end within spread of its own (an
** occurrence leaves need pieces untouched, whose ends differ by the indels
** between them, k at most). Asking two at most had kept 164 M of a million
** reads' 870 M seeds against chrX, each a window to verify. */
__device__ __forceinline__ void pair_see(uint32_t p, uint32_t own, uint32_t *other,
                                         unsigned *found) {
    if (p == own || p == *other) return;
    if (*other == UINT32_MAX) *other = p;
    ++*found;
}

__global__ void pair_kernel(const unsigned long long *key, const unsigned long long *val,
                            uint64_t n, uint32_t spread, uint8_t *keep) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint64_t same = ~((1ull << END_BITS) - 1);
    uint64_t k = key[i];
    uint32_t piece = (uint32_t)(val[i] >> 8) & 0xffffu;
    unsigned need = (unsigned)(val[i] & 0xffu), found = 1;
    uint32_t other = UINT32_MAX; /* the first other piece seen */
    for (uint64_t j = i;
         found < need && j-- > 0 && (key[j] & same) == (k & same) && k - key[j] <= spread;)
        pair_see((uint32_t)(val[j] >> 8) & 0xffffu, piece, &other, &found);
    for (uint64_t j = i + 1;
         found < need && j < n && (key[j] & same) == (k & same) && key[j] - k <= spread; j++)
        pair_see((uint32_t)(val[j] >> 8) & 0xffffu, piece, &other, &found);
    keep[i] = found >= need;
}

/* ---- verify ---------------------------------------------------------------------- */

/* A kept seed's window of ends [*a, *b], cut to the batch and its record. */
__device__ __forceinline__ void window(const dtables_t &t, const dbatch_t &b, uint64_t key,
                                       uint64_t val, uint64_t *a, uint64_t *bb, uint64_t *rb) {
    int64_t end = (int64_t)(key & ((1ull << END_BITS) - 1)) + (int64_t)b.lo - (int64_t)t.spread;
    uint32_t r = (uint32_t)((val >> 24) - b.r0);
    uint64_t rstart = b.rs[r], rend = b.rs[r + 1];
    int64_t first = (int64_t)(b.lo > rstart ? b.lo : rstart) + 1;
    int64_t last = (int64_t)(b.hi < rend ? b.hi : rend);
    int64_t x = end - (int64_t)t.spread, y = end + (int64_t)t.spread;
    *a = (uint64_t)(x > first ? x : first);
    *bb = (uint64_t)(y < last ? y : last);
    *rb = rstart;
}

__global__ void verify_kernel(dtables_t t, dbatch_t b, const unsigned long long *key,
                              const unsigned long long *val, const unsigned long long *n_kept,
                              dhits_t o) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t n = *n_kept;
    if (i >= n) return;
    const uint64_t group = ~((1ull << END_BITS) - 1);
    uint32_t pat = (uint32_t)(key[i] >> (END_BITS + 1));
    uint32_t strand = (uint32_t)(key[i] >> END_BITS) & 1u;
    uint32_t m = t.pat_len[pat];
    uint64_t halo = m + (t.hamming ? 0 : t.k) - 1;
    uint64_t a, e, rb;
    window(t, b, key[i], val[i], &a, &e, &rb);
    /* the first window of a run verifies the run: windows of the same
    ** pattern, strand and record closer than the halo */
    if (i > 0 && (key[i - 1] & group) == (key[i] & group) && (val[i - 1] >> 24) == (val[i] >> 24)) {
        uint64_t pa, pb, prb;
        window(t, b, key[i - 1], val[i - 1], &pa, &pb, &prb);
        if (a <= pb + halo + 1) return;
    }
    for (uint64_t j = i + 1;
         j < n && (key[j] & group) == (key[i] & group) && (val[j] >> 24) == (val[i] >> 24); j++) {
        uint64_t ja, jb, jrb;
        window(t, b, key[j], val[j], &ja, &jb, &jrb);
        if (ja > e + halo + 1) break;
        if (jb > e) e = jb;
    }
    if (a > e) return;
    const uint8_t *p = t.arena + t.pat_off[pat];
    uint64_t own = a - 1, from = own - rb > halo ? own - halo : rb;
    if (t.hamming) {
        for (uint64_t end = a; end <= e; end++) {
            if (end - rb < m) continue;
            uint32_t d = 0;
            for (uint32_t j = 0; j < m && d <= t.k; j++) {
                uint8_t pc = strand ? d_comp[p[m - 1 - j]] : p[j];
                int c = d_base[at(b, end - m + j)];
                d += c < 0 || !(d_iupac[pc] >> c & 1);
            }
            if (d <= t.k) push_hit(o, end, pat, strand, d);
        }
        return;
    }
    uint64_t peq[4][4];
    setk_peq(p, m, strand, peq);
    setk_myers(b, peq, m, t.k, from, own, e, pat, strand, o);
}

/* ---- a batch ------------------------------------------------------------------------ */

static int supports(const wm_setk_t *s) {
    if (!s->dna || s->pat_bits > 30) return 0;
    /* exact regions: the direct Hamming scan only (seeded windows would
    ** need the strand's shift, and edits the regions' own DP) */
    if ((s->opts.exact_prefix || s->opts.exact_suffix) && s->n_seeds > 0) return 0;
    size_t d = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (d < s->n_direct && s->direct[d] == i) {
            d++;
            continue;
        }
        if (s->len[i] > SETK_GPU_MAX_LEN) return 0;
    }
    return s->n_direct == 0 || setk_direct_supports(s);
}

/* Read a device counter. */
static wm_status read_count(wm_context_t *cx, cudaStream_t st, const wm_cu_buf_t *b, uint64_t *n) {
    unsigned long long v = 0;
    WM_CU(cx, cudaMemcpyAsync(&v, b->p, sizeof v, cudaMemcpyDeviceToHost, st));
    WM_CU(cx, cudaStreamSynchronize(st));
    *n = v;
    return WM_OK;
}

/* The kept seeds of the batch, sorted by (pattern, strand, end), at
** c->kept_key / kept_val: *n_kept of them. */
static wm_status kept_seeds(wm_context_t *cx, setk_cache_t *c, const wm_setk_t *s,
                            const dtables_t &t, const dbatch_t &b, cudaStream_t stream,
                            uint64_t *n_kept) {
    *n_kept = 0;
    wm_status st;
    uint64_t lo = b.lo, from = b.from, to = b.to;
    /* seed, with room for every seed found (a first run counts them) */
    uint64_t seed_from = lo > s->max_reach - 1 ? lo - (s->max_reach - 1) : 0;
    if (seed_from < from) seed_from = from;
    uint64_t spans = (to - seed_from + SEED_SPAN - 1) / SEED_SPAN, n_found = 0;
    double t0 = wm_now();
    for (int pass = 0;; pass++) {
        dfound_t o = { (unsigned long long *)c->found_key.p, (unsigned long long *)c->found_val.p,
                       (unsigned long long *)c->count.p, c->found_key.cap / 8 };
        WM_CU(cx, cudaMemsetAsync(c->count.p, 0, sizeof(unsigned long long), stream));
        seed_kernel<<<blocks_for(spans, 256), 256, 0, stream>>>(t, b, seed_from, to, o);
        WM_CU(cx, cudaGetLastError());
        if ((st = read_count(cx, stream, &c->count, &n_found)) != WM_OK) return st;
        cx->stats.setk_gpu_seed_kernel_s += wm_now() - t0;
        if (n_found <= o.cap || pass > 0) break;
        size_t bytes = (n_found + n_found / 8 + 1024) * 8;
        if ((st = wm_cu_dev_reserve(cx, &c->found_key, bytes)) != WM_OK ||
            (st = wm_cu_dev_reserve(cx, &c->found_val, bytes)) != WM_OK)
            return st;
    }
    cx->stats.setk_gpu_seeds += n_found;
    if (n_found == 0) return WM_OK;
    if (n_found > (uint64_t)INT32_MAX)
        return WM_DEVICE_NOMEM; /* CUB counts in int: smaller batches */
    size_t bytes = n_found * 8;
    if ((st = wm_cu_dev_reserve(cx, &c->sorted_key, bytes)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &c->sorted_val, bytes)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &c->kept_key, bytes)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &c->kept_val, bytes)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &c->flags, n_found)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &c->n_kept, sizeof(unsigned long long))) != WM_OK)
        return st;
    unsigned long long *fk = (unsigned long long *)c->found_key.p,
                       *fv = (unsigned long long *)c->found_val.p,
                       *sk = (unsigned long long *)c->sorted_key.p,
                       *sv = (unsigned long long *)c->sorted_val.p,
                       *kk = (unsigned long long *)c->kept_key.p,
                       *kv = (unsigned long long *)c->kept_val.p,
                       *nk = (unsigned long long *)c->n_kept.p;
    uint8_t *flags = (uint8_t *)c->flags.p;
    int end_bit = END_BITS + 1 + (int)s->pat_bits, n = (int)n_found;
    size_t tmp_sort = 0, tmp_sel = 0;
    WM_CU(cx,
          cub::DeviceRadixSort::SortPairs(NULL, tmp_sort, fk, sk, fv, sv, n, 0, end_bit, stream));
    WM_CU(cx, cub::DeviceSelect::Flagged(NULL, tmp_sel, sk, flags, kk, nk, n, stream));
    size_t tmp = tmp_sort > tmp_sel ? tmp_sort : tmp_sel;
    if ((st = wm_cu_dev_reserve(cx, &c->sort_tmp, tmp)) != WM_OK) return st;
    tmp = c->sort_tmp.cap;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(c->sort_tmp.p, tmp, fk, sk, fv, sv, n, 0, end_bit,
                                              stream));
    pair_kernel<<<blocks_for(n_found, 256), 256, 0, stream>>>(sk, sv, n_found, s->spread, flags);
    WM_CU(cx, cudaGetLastError());
    tmp = c->sort_tmp.cap;
    WM_CU(cx, cub::DeviceSelect::Flagged(c->sort_tmp.p, tmp, sv, flags, kv, nk, n, stream));
    tmp = c->sort_tmp.cap;
    WM_CU(cx, cub::DeviceSelect::Flagged(c->sort_tmp.p, tmp, sk, flags, kk, nk, n, stream));
    st = read_count(cx, stream, &c->n_kept, n_kept);
    cx->stats.setk_gpu_kept += *n_kept;
    return st;
}

/* ---- starts (edits) ----------------------------------------------------------------- */

/* An edit hit's start as wm_resolve_end finds it (search/resolve.c): the
** pattern aligned backwards from the end, anchored there (Myers over W
** words on the reversed pattern, the top row growing by one a column);
** column j holds the distance to text[e - j, e), and the first j that
** reaches the hit's errors gives the shortest occurrence. The host had done
** this for every end: 17 s of one core for a million reads against chrX. */
template <int W>
__device__ bool start_w(const dbatch_t &b, const uint64_t (&rpeq)[4][4], uint32_t m, uint64_t e,
                        uint64_t J, uint32_t target, uint32_t *best, uint64_t *best_j) {
    uint64_t pv[W], mv[W];
#pragma unroll
    for (int w = 0; w < W; w++) {
        pv[w] = ~0ull;
        mv[w] = 0;
    }
    int score = (int)m;
    bool found = false;
    for (uint64_t j = 1; j <= J; j++) {
        /* row 0 grows: D[0][j] = j */
        score += setk_myers_column<W>(rpeq, d_base[at(b, e - j)], m, 1, pv, mv);
        if (!found || (uint32_t)score < *best) {
            *best = (uint32_t)score;
            *best_j = j;
            found = true;
            if ((uint32_t)score <= target) break;
        }
    }
    return found;
}

/* lens[i] = hit i's end - start; its errors those of that start. A hit
** with no start within k (none: the verification's errors are exact) gets
** end 0, which keys it out of the batch. */
__global__ void start_kernel(dtables_t t, dbatch_t b, dhit_t *h, uint64_t n, uint16_t *lens) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dhit_t x = h[i];
    uint32_t m = t.pat_len[x.pat];
    uint64_t rb = b.rs[record_of_end(b, x.end)];
    uint64_t J = m + t.k;
    if (x.end - rb < J) J = x.end - rb;
    if (x.end - b.from < J) J = x.end - b.from; /* never: the batch holds a halo before lo */
    /* the reversed pattern as searched on the strand: P[m - 1 - i], or on
    ** the reverse complement's strand the complement of P[i] */
    const uint8_t *p = t.arena + t.pat_off[x.pat];
    uint64_t rpeq[4][4];
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 4; w++) rpeq[c][w] = 0;
    for (uint32_t j = 0; j < m; j++) {
        unsigned set = d_iupac[x.strand ? d_comp[p[j]] : p[m - 1 - j]];
        for (int c = 0; c < 4; c++)
            if (set >> c & 1) rpeq[c][j / 64] |= 1ull << (j % 64);
    }
    uint32_t best = 0;
    uint64_t best_j = 0;
    bool found;
    switch ((m + 63) / 64) {
    case 1: found = start_w<1>(b, rpeq, m, x.end, J, x.errors, &best, &best_j); break;
    case 2: found = start_w<2>(b, rpeq, m, x.end, J, x.errors, &best, &best_j); break;
    case 3: found = start_w<3>(b, rpeq, m, x.end, J, x.errors, &best, &best_j); break;
    default: found = start_w<4>(b, rpeq, m, x.end, J, x.errors, &best, &best_j); break;
    }
    if (!found || best > t.k) {
        h[i].end = 0;
        lens[i] = 0;
        return;
    }
    h[i].errors = (uint16_t)best;
    lens[i] = (uint16_t)best_j;
}

/* A hit as its key (setk.h, wm_setk_key_layout_t): the final end's
** offset, the pattern, the strand, the errors; out of the batch, the span. */
__global__ void key_kernel(const dhit_t *h, uint64_t n, uint64_t lo, wm_setk_key_layout_t L,
                           unsigned long long *key) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dhit_t x = h[i];
    uint64_t e = x.end + L.suf[x.strand & 1]; /* the final end */
    uint64_t off = e > lo && e - lo <= L.span ? e - lo - 1 : L.span;
    key[i] = off == L.span ? L.span << L.end_shift
                           : off << L.end_shift | (uint64_t)x.pat << (L.err_bits + 1) |
                                 (uint64_t)(x.strand & 1) << L.err_bits | x.errors;
}

/* The batch's n hits as sorted keys, into out (setk.h); with L->lens their
** starts found first, the lengths sorted beside the keys. */
static wm_status sorted_keys(wm_context_t *cx, setk_cache_t *c, const dtables_t &t,
                             const dbatch_t &b, cudaStream_t stream, uint64_t n, uint64_t lo,
                             const wm_setk_key_layout_t *L, wm_setk_gpu_hits_t *out) {
    wm_status st;
    if (n > (uint64_t)INT32_MAX) return WM_DEVICE_NOMEM; /* CUB counts in int: smaller batches */
    if ((st = wm_cu_dev_reserve(cx, &c->key_in, n * 8)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &c->key_out, n * 8)) != WM_OK)
        return st;
    if (L->lens && ((st = wm_cu_dev_reserve(cx, &c->len_in, n * 2)) != WM_OK ||
                    (st = wm_cu_dev_reserve(cx, &c->len_out, n * 2)) != WM_OK))
        return st;
    unsigned long long *in = (unsigned long long *)c->key_in.p,
                       *sorted = (unsigned long long *)c->key_out.p;
    uint16_t *len_in = (uint16_t *)c->len_in.p, *len_out = (uint16_t *)c->len_out.p;
    if (L->lens) {
        start_kernel<<<blocks_for(n, 128), 128, 0, stream>>>(t, b, (dhit_t *)c->hits.p, n, len_in);
        WM_CU(cx, cudaGetLastError());
    }
    key_kernel<<<blocks_for(n, 256), 256, 0, stream>>>((const dhit_t *)c->hits.p, n, lo, *L, in);
    WM_CU(cx, cudaGetLastError());
    size_t tmp = 0;
    if (L->lens)
        WM_CU(cx, cub::DeviceRadixSort::SortPairs(NULL, tmp, in, sorted, len_in, len_out, (int)n,
                                                  (int)L->err_bits, (int)L->bits, stream));
    else
        WM_CU(cx, cub::DeviceRadixSort::SortKeys(NULL, tmp, in, sorted, (int)n, (int)L->err_bits,
                                                 (int)L->bits, stream));
    if ((st = wm_cu_dev_reserve(cx, &c->sort_tmp, tmp)) != WM_OK) return st;
    tmp = c->sort_tmp.cap;
    if (L->lens)
        WM_CU(cx, cub::DeviceRadixSort::SortPairs(c->sort_tmp.p, tmp, in, sorted, len_in, len_out,
                                                  (int)n, (int)L->err_bits, (int)L->bits, stream));
    else
        WM_CU(cx, cub::DeviceRadixSort::SortKeys(c->sort_tmp.p, tmp, in, sorted, (int)n,
                                                 (int)L->err_bits, (int)L->bits, stream));
    if (wm_setk_gpu_hits_reserve(out, n * (L->lens ? 10 : 8))) return WM_NOMEM;
    out->lens = L->lens ? (uint16_t *)((uint64_t *)out->buf + n) : NULL;
    WM_CU(cx, cudaMemcpyAsync(out->buf, sorted, n * 8, cudaMemcpyDeviceToHost, stream));
    if (L->lens)
        WM_CU(cx, cudaMemcpyAsync(out->lens, len_out, n * 2, cudaMemcpyDeviceToHost, stream));
    WM_CU(cx, cudaStreamSynchronize(stream));
    out->n = n;
    out->keyed = 1;
    return WM_OK;
}

static wm_status setk_gpu_batch(wm_context_t *cx, const wm_setk_t *s, const wm_text_t *text,
                                const uint64_t *rs, size_t n_rec, uint64_t lo, uint64_t hi,
                                const wm_setk_key_layout_t *layout, wm_setk_gpu_hits_t *out) {
    out->n = 0;
    out->keyed = 0;
    WM_CU(cx, cudaSetDevice(cx->cuda->device));
    setk_cache_t *c = (setk_cache_t *)wm_context_cache(cx, &wm_setk_family, sizeof(setk_cache_t));
    if (!c) return WM_NOMEM;
    cudaStream_t stream = cx->cuda->stream[0];
    wm_status st = tables(cx, c, s, stream);
    if (st == WM_OK) st = setk_constants(cx);
    if (st != WM_OK) return st;

    /* the bytes the seeds and the verification read */
    uint64_t reach = s->max_reach + s->spread + 1;
    uint64_t from = lo > reach ? lo - reach : 0;
    uint64_t to = hi + s->spread < text->len ? hi + s->spread : text->len;
    const uint8_t *d_text = wm_cuda_target_view(cx, text->seq + from, to - from);
    if (!d_text) {
        if ((st = wm_cu_dev_reserve(cx, &c->text, to - from + WM_CU_PAD)) != WM_OK) return st;
        WM_CU(cx, cudaMemcpyAsync(c->text.p, text->seq + from, to - from, cudaMemcpyHostToDevice,
                                  stream));
        d_text = (const uint8_t *)c->text.p;
    }
    size_t r0 = wm_plan_record_of_end(rs, n_rec, from + 1), r1 = r0;
    while (r1 + 1 < n_rec && rs[r1 + 1] < to) r1++;
    /* rs[r0 .. r1 + 1]: every record the bytes meet, and the end of the last */
    uint32_t n_rs = (uint32_t)(r1 - r0 + 1);
    if ((st = upload(cx, &c->rs, rs + r0, (n_rs + 1) * sizeof *rs)) != WM_OK) return st;

    dtables_t t;
    t.filter = (const uint64_t *)c->filter.p;
    t.slot = (const uint32_t *)c->slot.p;
    t.key = (const uint64_t *)c->key.p;
    t.first = (const uint32_t *)c->first.p;
    t.seed = (const wm_seed_t *)c->seed.p;
    t.pat_off = (const uint64_t *)c->pat_off.p;
    t.pat_len = (const uint32_t *)c->pat_len.p;
    t.arena = (const uint8_t *)c->arena.p;
    t.bits = c->bits;
    t.filter_bits = c->filter_bits;
    t.q = s->q;
    t.spread = s->spread;
    t.reach = s->max_reach + s->spread;
    t.k = s->opts.max_edits;
    t.hamming = s->opts.metric == WM_METRIC_HAMMING;
    dbatch_t b = { d_text, from, to, (const uint64_t *)c->rs.p, n_rs, r0, lo, hi };
    /* counters: seeds found, hits, direct candidates */
    if ((st = wm_cu_dev_reserve(cx, &c->count, 3 * sizeof(unsigned long long))) != WM_OK) return st;

    double t0 = wm_now(); /* the phases into cx->stats (a clock read a batch) */
    uint64_t n_kept = 0;
    if (c->n_keys > 0 && (st = kept_seeds(cx, c, s, t, b, stream, &n_kept)) != WM_OK) return st;
    double t1 = wm_now();
    cx->stats.setk_gpu_seed_s += t1 - t0;
    t0 = t1;
    if (n_kept == 0 && s->n_direct == 0) return WM_OK;
    const unsigned long long *kk = (const unsigned long long *)c->kept_key.p,
                             *kv = (const unsigned long long *)c->kept_val.p,
                             *nk = (const unsigned long long *)c->n_kept.p;

    /* verify, with room for every hit (a first run counts them) */
    uint64_t n_hits = 0;
    for (int pass = 0;; pass++) {
        dhits_t o = { (dhit_t *)c->hits.p, (unsigned long long *)c->count.p + 1,
                      c->hits.cap / sizeof(dhit_t) };
        WM_CU(cx, cudaMemsetAsync((unsigned long long *)c->count.p + 1, 0,
                                  sizeof(unsigned long long), stream));
        if (n_kept > 0) {
            verify_kernel<<<blocks_for(n_kept, 128), 128, 0, stream>>>(t, b, kk, kv, nk, o);
            WM_CU(cx, cudaGetLastError());
        }
        if (s->n_direct > 0 &&
            (st = setk_direct_batch(cx, &c->direct, s, b, o, (unsigned long long *)c->count.p + 2,
                                    stream)) != WM_OK)
            return st;
        wm_cu_buf_t second = { (unsigned long long *)c->count.p + 1, 8 };
        if ((st = read_count(cx, stream, &second, &n_hits)) != WM_OK) return st;
        if (n_hits <= o.cap || pass > 0) break;
        if ((st = wm_cu_dev_reserve(cx, &c->hits, (n_hits + n_hits / 8 + 1024) * sizeof(dhit_t))) !=
            WM_OK)
            return st;
    }
    t1 = wm_now();
    cx->stats.setk_gpu_verify_s += t1 - t0;
    t0 = t1;
    cx->stats.setk_gpu_hits += n_hits;
    if (n_hits == 0) return WM_OK;
    if (layout) { /* on DNA: sorted here (edits' starts found), the host sorts nothing */
        st = sorted_keys(cx, c, t, b, stream, n_hits, lo, layout, out);
        cx->stats.setk_gpu_copy_s += wm_now() - t0;
        return st;
    }
    if ((st = wm_cu_host_reserve(cx, &c->h_hits, n_hits * sizeof(dhit_t))) != WM_OK) return st;
    WM_CU(cx, cudaMemcpyAsync(c->h_hits.p, c->hits.p, n_hits * sizeof(dhit_t),
                              cudaMemcpyDeviceToHost, stream));
    WM_CU(cx, cudaStreamSynchronize(stream));
    /* the host's form (setk.h) */
    if (wm_setk_gpu_hits_reserve(out, n_hits * sizeof(wm_setk_hit_t))) return WM_NOMEM;
    wm_setk_hit_t *h = (wm_setk_hit_t *)out->buf;
    const dhit_t *d = (const dhit_t *)c->h_hits.p;
    for (uint64_t i = 0; i < n_hits; i++) {
        h[i].end = d[i].end;
        h[i].pat = d[i].pat;
        h[i].strand = d[i].strand;
        h[i].errors = d[i].errors;
    }
    out->n = n_hits;
    cx->stats.setk_gpu_copy_s += wm_now() - t0;
    return WM_OK;
}

extern "C" const wm_setk_gpu_t wm_setk_gpu_cuda = { supports, setk_gpu_batch };
