/*
** align.h -- what the parts of `align` share: a query compiled for the
** dynamic programme (its symbol map and match masks), the scans that find the
** best ends of an infix alignment, and the CPU passes that turn an end into a
** start and a CIGAR.
**
** Conventions. D[i][j] is the edit distance of query[0, i) and the best
** substring of target ending at j (infix: D[0][j] = 0) or of target[0, j)
** (global: D[0][j] = j). D[i][0] = i. An "end" e is a column: the substring
** is target[start, e).
*/
#ifndef WM_ALIGN_ALIGN_H
#define WM_ALIGN_ALIGN_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"
#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A query compiled for the DP. Symbols are small codes; code n_codes is the
** symbol that matches nothing (DNA's N, IUPAC codes, any non-ACGT byte), and
** its row of peq is all zeros. Two bytes a, b are equal iff
** code[a] == code[b] && code[a] < n_codes. */
typedef struct {
    const uint8_t *q; /* the caller's bytes (not owned) */
    size_t m;
    size_t n_words;     /* ceil(m / 64) */
    uint16_t code[256]; /* byte -> symbol */
    unsigned n_codes;   /* 256 for bytes, 4 for DNA */
    uint64_t *peq;      /* (n_codes + 1) rows of n_words: bit i of row c is
                           set when query[i] has symbol c; in `small` when
                           it fits (a DNA query of up to 512 bases: no
                           allocation for each of a million pairs), so a
                           wm_aq_t is never copied */
    uint64_t small[40];
} wm_aq_t;

wm_status wm_aq_make(wm_aq_t *aq, const uint8_t *q, size_t m, const wm_align_opts_t *o);
void wm_aq_free(wm_aq_t *aq);

static inline int wm_aq_eq(const wm_aq_t *aq, uint8_t a, uint8_t b) {
    return aq->code[a] == aq->code[b] && aq->code[a] < aq->n_codes;
}

/* Match masks for x[0, len) (or x read backwards when reverse), in aq's
** symbols: (aq->n_codes + 1) rows of ceil(len / 64) words, zeroed first. */
void wm_aq_peq_fill(const wm_aq_t *aq, const uint8_t *x, size_t len, int reverse, uint64_t *peq);

/* ---- finding the best ends (infix) -------------------------------------- */

/* The best of a set of ends: the smallest distance, and the leftmost end that
** reaches it. d == UINT64_MAX: none (every end was above the limit). */
typedef struct {
    uint64_t d;
    uint64_t end;
} wm_best_t;

static inline void wm_best_take(wm_best_t *b, uint64_t d, uint64_t end) {
    if (d < b->d || (d == b->d && end < b->end)) {
        b->d = d;
        b->end = end;
    }
}

/* Ends reaching a threshold, pushed in increasing order. */
typedef struct {
    uint64_t *a;
    size_t n, cap;
} wm_endvec_t;
int wm_endvec_push(wm_endvec_t *v, uint64_t e); /* 0, or -1 out of memory */
void wm_endvec_free(wm_endvec_t *v);

/* One scan of target[scan_from, to) from a fresh first column (D[i][scan_from] = i).
** It owns the ends e with own_from < e <= to: their distances are exact when
** the best alignment ending at e starts at or after scan_from (the driver puts
** scan_from m + min(k, m) before own_from, the longest an optimal alignment
** can be). For owned ends it keeps the best in *best (only distances <= limit)
** and, when ends != NULL, pushes every e with D[m][e] <= report_le.
** limit < 0: no limit. Both prune rows by it (Ukkonen's cutoff). Returns 0,
** or -1 out of memory. */
typedef int (*wm_infix_scan_fn)(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from,
                                uint64_t own_from, uint64_t to, int64_t limit, int64_t report_le,
                                wm_endvec_t *ends, wm_best_t *best);
int wm_infix_bv_scan(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                     uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                     wm_best_t *best);
int wm_infix_dp_scan(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                     uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                     wm_best_t *best);

/* The longest query each GPU kernel takes: the bit-vector kernel's chunk is
** one block of at most 1024 threads holding 8 words of 32 rows (longer
** queries run on the CPU, same output); the wavefront keeps 3 (m + 1) cells
** in shared memory (longer queries are refused). */
#define WM_CU_BV_MAX_M (1024u * 8u * 32u)
#define WM_CU_WAVEFRONT_MAX_M 16384u

/* ---- from an end to an alignment (CPU, every backend) ------------------- */

/* The largest start s with edit(query, t[s, end)) == d, where d is the best
** distance of any substring ending at end. Memory: one table of match masks
** of the reversed query ((n_codes + 3) * ceil(m / 64) words). UINT64_MAX when
** that cannot be allocated. */
uint64_t wm_align_start(const wm_aq_t *aq, const uint8_t *t, uint64_t end, uint64_t d);

/* ---- the driver's checks and one global pair (align.c), shared by wm_align
** and wm_align_pairs (pairs.c) ---------------------------------------------- */
struct wm_context;
wm_status wm_align_check_opts(struct wm_context *cx, const wm_align_opts_t *o);
/* One pair's sizes against what the mode and algorithm take; `which` prefixes
** messages ("" for wm_align, "pair 12: " for wm_align_pairs). */
wm_status wm_align_check_pair(struct wm_context *cx, const uint8_t *query, size_t m,
                              const uint8_t *target, uint64_t n, const wm_align_opts_t *o,
                              const char *which);
/* One global pair on the context's backend into *a (its CIGAR malloc'd when
** o->cigar); *found = 0 when it is over o->max_distance. use_pool: the
** CIGAR's segments may use the context's threads (not from a pool task). */
wm_status wm_align_global_one(struct wm_context *cx, const uint8_t *query, size_t m,
                              const uint8_t *y, uint64_t n, const wm_align_opts_t *o,
                              wm_alignment_t *a, int *found, int use_pool);

/* ---- global mode ---------------------------------------------------------- */

/* The distance of a global pair when no DP is needed: a side is empty (the
** distance is the other's length) or the lengths differ by more than limit
** (>= 0; the difference is then "some value over limit"). 1 with *d set,
** else 0. */
static inline int wm_global_trivial(uint64_t m, uint64_t n, int64_t limit, uint64_t *d) {
    uint64_t diff = m > n ? m - n : n - m;
    if (m > 0 && n > 0 && (limit < 0 || diff <= (uint64_t)limit)) return 0;
    *d = diff;
    return 1;
}

/* Global edit distance of query and y[0, n) by the bit-vector DP, Ukkonen-
** banded. limit < 0: the exact distance (the band grows until the answer
** fits). limit >= 0: the band is limit and the result is exact when <= limit,
** else some value > limit (stops there). UINT64_MAX when the 2 * ceil(m / 64)
** words of Pv / Mv cannot be had. */
uint64_t wm_global_distance(const wm_aq_t *aq, const uint8_t *y, uint64_t n, int64_t limit);

/* The same by the plain DP on anti-diagonals (global_dp.c; one thread, three
** diagonals of min(m, n) + 1 cells). With limit >= 0 it stops once two
** consecutive anti-diagonals are wholly above limit (every path crosses one
** of them; *d is then some value > limit). */
wm_status wm_global_dp(const wm_aq_t *aq, const uint8_t *y, uint64_t n, int64_t limit, uint64_t *d);

/* The CIGAR ('=', 'X', 'I', 'D'; SAM convention, target = reference) of the
** canonical optimal global alignment of the whole query with y[0, n): the one
** the traceback from (m, n) takes when at every cell it prefers the diagonal
** ('=' or 'X'), then 'I' (up), then 'D' (left) -- the first move whose cell
** value plus its cost equals the current cell's. Every backend and kernel
** that writes CIGARs (this one, the GPU pair kernel) follows this rule, so
** all print the same bytes. Memory: the band's Pv / Mv at checkpoints and
** for one segment of columns at a time (traceback.c). d_known: the distance
** when the caller knows it (sets the band), else UINT64_MAX. *d_out gets the
** distance. Returns a malloc'd string, or NULL out of memory. */
char *wm_align_cigar(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t d_known,
                     uint64_t *d_out);

/* The traceback's plan for one pair of distance d: the band (diagonals
** dlo .. dhi), its widest column in words, and checkpoints every S columns
** (n_seg of them, at columns 0, S, 2S, ...), with segments sized for
** `threads` recomputing at once. S is a multiple of 8 (the GPU tests for a
** checkpoint once every 8 columns) unless it is n, one segment. */
typedef struct {
    uint64_t m, n;
    int64_t dlo, dhi;
    size_t band_words;
    uint64_t S, n_seg;
} wm_tb_plan_t;
void wm_tb_plan(wm_tb_plan_t *p, uint64_t m, uint64_t n, uint64_t d, size_t n_words, int threads);
/* Shorter segments, two a thread at least, where checkpoints cost the CPU
** nothing (the GPU writes them): every thread recomputes at once, and a
** segment's history stays small enough to stay in cache. */
void wm_tb_plan_spread(wm_tb_plan_t *p, int threads);
/* Segments a multiple of S_keep columns long (checkpoints some run kept
** every S_keep columns), no longer than now: 0, or -1 when they are
** shorter than S_keep (the plan stays). */
int wm_tb_plan_fit(wm_tb_plan_t *p, uint64_t S_keep);
/* The query blocks live at column j: fb .. lb. */
size_t wm_tb_fb(const wm_tb_plan_t *p, uint64_t j);
size_t wm_tb_lb(const wm_tb_plan_t *p, uint64_t j);
/* Checkpoint k: top[k] = D[64 fb][k S], and Pv then Mv of blocks fb .. lb of
** column k S at w + off[k]. */
typedef struct {
    uint64_t n;
    uint64_t *top;
    size_t *off;
    uint64_t *w;
} wm_tb_ckpts_t;
int wm_tb_ckpts_alloc(wm_tb_ckpts_t *c, const wm_tb_plan_t *p); /* 0 or -1 */
void wm_tb_ckpts_free(wm_tb_ckpts_t *c);
/* wm_align_cigar with the distance known, segments recomputed on `pool`
** (NULL: this thread), and optionally a plan and its checkpoints made
** elsewhere (the GPU); NULL: made here. */
struct wm_pool;
char *wm_align_cigar_ex(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t d,
                        struct wm_pool *pool, const wm_tb_plan_t *plan, const wm_tb_ckpts_t *ckpts);

/* The canonical walk's step off a mismatch at (*i, *j), whose value is
** *cur, given the values of (i - 1, j - 1) and (i - 1, j): diagonal, then
** up, then left (whose value is then *cur - 1). Returns the op. */
static inline char wm_tb_step(uint64_t *cur, uint64_t *i, uint64_t *j, uint64_t diag, uint64_t up) {
    if (diag + 1 == *cur) {
        --*i, --*j;
        *cur = diag;
        return 'X';
    }
    if (up + 1 == *cur) {
        --*i;
        *cur = up;
        return 'I';
    }
    --*j, --*cur;
    return 'D';
}
/* The walk's end at (i, j), a side used up: the other side's symbols as I's
** (query) then D's (target) after ops[0 .. n_ops), and the CIGAR text of
** them all, written from the end back, in runs ("3=1X..."); malloc'd, NULL
** out of memory. ops has room for them (m + n). */
char *wm_tb_finish(char *ops, size_t n_ops, uint64_t i, uint64_t j);

/* Two pairs' global distances with no bound, their whole DPs interleaved on
** one thread (global.c), when both are non-empty and their queries have the
** same number of words, at most 4: 1 with *da and *db set, else 0 (nothing
** done). */
int wm_global_distance2(const wm_aq_t *a, const uint8_t *ya, uint64_t na, const wm_aq_t *b,
                        const uint8_t *yb, uint64_t nb, uint64_t *da, uint64_t *db);

/* A short pair's distance and canonical CIGAR in one unbanded pass that
** keeps every column's deltas (cigar_small.c): a query of at most 4 words
** (256 symbols) against a target of at most WM_SMALL_CIGAR_MAX_N. The bytes
** are wm_align_cigar_ex's. WM_OK, or WM_NOMEM. */
#define WM_SMALL_CIGAR_MAX_N 4096
static inline int wm_small_cigar_fits(const wm_aq_t *aq, uint64_t n) {
    return aq->m > 0 && n > 0 && aq->n_words <= 4 && n <= WM_SMALL_CIGAR_MAX_N;
}
wm_status wm_global_small_cigar(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t *d,
                                char **cigar);

/* The GPU kernel counts columns in 32 bits: longer targets run on the CPU. */
#define WM_CU_GLOBAL_MAX_N ((uint64_t)INT32_MAX - 64)
/* Pairs of at most this many symbols a side run one pair per GPU thread;
** a byte-alphabet query keeps 256 rows of masks, so at most
** WM_CU_PAIR_MAX_BYTE_M of it. DNA goes further: a query of up to
** WM_CU_PAIR_WARP_MAX_M takes a warp (pairs_cuda.cu), a shorter one a
** thread, against a target of up to WM_CU_PAIR_WARP_MAX_N; the others run
** on the CPU threads or alone (WM_CU_PAIR_POOL_CELLS). Empty sides are
** answered on the host. */
#define WM_CU_PAIR_MAX_LEN 1024u
#define WM_CU_PAIR_MAX_BYTE_M 256u
#define WM_CU_PAIR_WARP_MAX_M 8192u
#define WM_CU_PAIR_WARP_MAX_N 65536u
/* A pair that no pair kernel takes runs on the pool's threads (pairs.c) up to
** this many cells (m x n), beyond them alone on the GPU. */
#define WM_CU_PAIR_POOL_CELLS 1.0e9
static inline int wm_cu_pair_fits(uint64_t m, uint64_t n, int dna) {
    if (m == 0 || n == 0) return 0;
    if (n <= WM_CU_PAIR_MAX_LEN && m <= (dna ? WM_CU_PAIR_MAX_LEN : WM_CU_PAIR_MAX_BYTE_M))
        return 1;
    return dna && m <= WM_CU_PAIR_WARP_MAX_M && n <= WM_CU_PAIR_WARP_MAX_N;
}

/* The pairs a GPU call takes, each fitting a thread (wm_cu_pair_fits):
** item i < n is pairs[idx[i]], or, with cols, the columns' pair first + i
** (min_m, max_m and max_n bound the columns' lengths). */
typedef struct {
    const wm_pair_t *pairs;
    const size_t *idx;
    const wm_pairs_packed_t *cols;
    size_t first, n;
    uint64_t min_m, max_m, max_n;
} wm_pairs_src_t;

/* What the GPU's pair batches hand back, batch after batch in item order:
** items [from, from + ns), dist[k] (UINT32_MAX: over the limit) and, with
** CIGARs, item k's text[text_off[k] .. + clen[k]) (no NUL; text NULL
** without), text_off increasing from 0. The arrays live until the next
** batch. Runs on the calling thread while the GPU works on the next batch. */
typedef wm_status (*wm_pairs_deliver_t)(void *user, size_t from, size_t ns, const uint32_t *dist,
                                        const char *text, const uint64_t *text_off,
                                        const uint32_t *clen);

/* ---- the family ------------------------------------------------------------ */

struct wm_fr_table;
/* What align keeps in a context (its cache slot): the Four-Russians tables
** built so far, by [key kind][t] (fr_table.c), and the GPU's buffers. */
typedef struct {
    struct wm_fr_table *fr[2][5];
    void *gpu; /* the GPU table's own, freed through it */
} wm_align_cache_t;
wm_align_cache_t *wm_align_cache(struct wm_context *cx); /* NULL out of memory */

/* The GPU table (align_cuda.cu with global_cuda.cu, dp_cuda.cu, fr_cuda.cu,
** pairs_cuda.cu). A context on a GPU runs through it; each call has the
** contract of its CPU twin:
**   infix: one scan over the whole target, ends (0, n]: the best within
**     limit in *best, and with ends != NULL every end with distance <=
**     report_le, in increasing order (batches overlap by m + min(limit, m));
**     algo WAVEFRONT or BITVECTOR; bit-vector queries up to WM_CU_BV_MAX_M.
**   global, global_dp, global_fr: one pair's distance (limit as
**     wm_global_distance) by the bit-vector wavefront of warps, the plain DP
**     or the Four-Russians sweep (tab uploaded once and kept with it).
**   global_keep: global's distance by the bit-vector run that also keeps,
**     on the device, its band's words every *S_keep columns (a multiple of
**     8; 0: it kept none, past its memory budget), for the CIGAR of the same
**     pair that follows: no second pass then.
**   global_ckpts: the traceback's checkpoints (plan, for distance d): those
**     global_keep kept for this pair, when plan->S is a multiple of S_keep,
**     else from a bit-vector run with the plan's band. Either gives values
**     between the exact ones and the CPU forward pass's upper bounds, equal
**     on every cell of an alignment of cost d, so the walk takes the same
**     moves (traceback.c).
**   pairs: the items of src, one pair per thread, in batches whose
**     packing, kernels and results overlap; deliver gets each batch's
**     distances and, with o->cigar, the canonical CIGARs, in item order. An
**     error leaves what was delivered delivered.
**   fr_table_free: the device copy of a table; free_cache: cache->gpu. */
typedef struct {
    wm_status (*infix)(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                       wm_align_algo_t algo, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                       wm_best_t *best);
    wm_status (*global)(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                        int64_t limit, uint64_t *d);
    wm_status (*global_dp)(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                           int64_t limit, uint64_t *d);
    wm_status (*global_fr)(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                           const struct wm_fr_table *tab, int64_t limit, uint64_t *d);
    wm_status (*global_keep)(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                             int64_t limit, uint64_t *S_keep, uint64_t *d);
    wm_status (*global_ckpts)(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y,
                              uint64_t n, uint64_t d, const wm_tb_plan_t *plan, wm_tb_ckpts_t *ck);
    wm_status (*pairs)(struct wm_context *cx, const wm_pairs_src_t *src, const wm_align_opts_t *o,
                       wm_pairs_deliver_t deliver, void *user);
    void (*fr_table_free)(struct wm_fr_table *tab);
    void (*free_cache)(void *gpu_cache);
} wm_align_gpu_t;
extern const wm_align_gpu_t wm_align_gpu_cuda;
extern const wm_family_t wm_align_family;

/* The GPU table of cx, or NULL: run on the CPU. */
static inline const wm_align_gpu_t *wm_align_gpu(const struct wm_context *cx) {
    return (const wm_align_gpu_t *)wm_context_gpu(cx, &wm_align_family);
}

/* wm_align's infix mode over several devices (align_shard.c). */
wm_status wm_align_shard_infix(struct wm_context *cx, const uint8_t *query, size_t m,
                               const uint8_t *target, uint64_t n, const wm_align_opts_t *o,
                               wm_alignments_t *out);

#ifdef __cplusplus
}
#endif
#endif
