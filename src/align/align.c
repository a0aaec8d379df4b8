/*
** align.c -- wm_align: checks the arguments, finds the best end(s) of an
** infix alignment on the chosen backend, then turns each end into a start
** and a CIGAR on the CPU (the same code for every backend, so that CPU and
** GPU print the same bytes).
**
** Finding ends on the CPU: the target is cut into pieces that own disjoint
** ranges of ends and each scan starts m + min(k, m) columns before its first
** end (an alignment with at most that many edits is never longer), so every
** distance that matters is exact. Pieces run on the pool; the best distance
** found so far is shared, so pieces that start later prune harder. With
** all_ends a second pass collects every end at the best distance.
**
** A context over several devices cuts the target in align_shard.c (after
** the checks here) and calls back in here once per device.
*/
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "align/fr.h"
#include "core/plan.h"
#include "core/shard.h"

wm_align_opts_t wm_align_opts_default(void) {
    wm_align_opts_t o;
    memset(&o, 0, sizeof o);
    o.mode = WM_ALIGN_INFIX;
    o.algo = WM_ALIGN_ALGO_AUTO;
    o.max_distance = -1;
    o.alphabet = WM_ALPHABET_BYTES;
    return o;
}

const char *wm_align_algo_name(wm_align_algo_t a) {
    switch (a) {
    case WM_ALIGN_ALGO_AUTO: return "auto";
    case WM_ALIGN_ALGO_WAVEFRONT: return "wavefront";
    case WM_ALIGN_ALGO_BITVECTOR: return "bitvector";
    case WM_ALIGN_ALGO_FOUR_RUSSIANS: return "four-russians";
    default: return "unknown";
    }
}

void wm_alignment_clear(wm_alignment_t *a, size_t n) {
    for (size_t i = 0; a && i < n; i++) {
        free(a[i].cigar);
        memset(&a[i], 0, sizeof a[i]);
    }
}

void wm_alignments_free(wm_alignments_t *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) free(r->a[i].cigar);
    free(r->a);
    r->a = NULL;
    r->n = 0;
}

/* ---- ends on the CPU ------------------------------------------------------ */

typedef struct {
    const wm_aq_t *aq;
    const uint8_t *t;
    wm_plan_t plan; /* pieces of the ends (0, n] */
    uint64_t halo;
    wm_infix_scan_fn scan;
    int64_t limit, report_le;
    int want_ends;
    wm_best_t *bests;  /* one per piece */
    wm_endvec_t *ends; /* one per piece, pass 2 */
    atomic_uint_fast64_t shared_d;
    atomic_int failed;
    size_t first; /* the window's first piece (progress runs the pieces in windows) */
} pieces_t;

static void run_piece(void *arg, size_t i, int tid) {
    (void)tid;
    pieces_t *P = arg;
    i += P->first;
    uint64_t own_from, to;
    wm_plan_part(&P->plan, i, &own_from, &to);
    uint64_t scan_from = wm_plan_scan_from(0, own_from, P->halo);
    wm_best_t *b = &P->bests[i];
    b->d = UINT64_MAX;
    b->end = UINT64_MAX;
    if (!P->want_ends) b->d = atomic_load(&P->shared_d); /* prune to what others found */
    int rc = P->scan(P->aq, P->t, scan_from, own_from, to, P->limit, P->report_le,
                     P->want_ends ? &P->ends[i] : NULL, b);
    if (rc) atomic_store(&P->failed, 1);
    if (b->end == UINT64_MAX) return;
    uint64_t cur = atomic_load(&P->shared_d);
    while (b->d < cur && !atomic_compare_exchange_weak(&P->shared_d, &cur, b->d)) {}
}

static uint64_t piece_size(const wm_context_t *cx, uint64_t n, uint64_t halo) {
    if (cx->opts.chunk_bytes) return cx->opts.chunk_bytes;
    uint64_t threads = (uint64_t)cx->n_threads;
    /* with a progress callback, pieces small enough for ~32 reports a call
    ** (one a window of `threads` pieces), within the halo's bound below */
    uint64_t piece = n / (threads * (cx->opts.progress ? 32 : 4)) + 1;
    if (piece < 8 * halo) piece = 8 * halo; /* the halo costs at most 1/8 */
    if (piece < (1u << 16)) piece = 1u << 16;
    if ((n + piece - 1) / piece < threads) piece = n / threads + 1;
    return piece;
}

static wm_status cpu_ends(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                          wm_align_algo_t algo, int64_t limit, uint64_t halo, int64_t report_le,
                          wm_endvec_t *ends, wm_best_t *best) {
    if (n == 0) return WM_OK;
    pieces_t P;
    memset(&P, 0, sizeof P);
    P.aq = aq;
    P.t = t;
    P.halo = halo;
    P.plan = wm_plan_sized(0, n, piece_size(cx, n, halo));
    P.scan = algo == WM_ALIGN_ALGO_WAVEFRONT ? wm_infix_dp_scan : wm_infix_bv_scan;
    P.limit = limit;
    P.report_le = report_le;
    P.want_ends = ends != NULL;
    atomic_init(&P.shared_d, best->d);
    atomic_init(&P.failed, 0);
    size_t np = (size_t)P.plan.n;
    P.bests = calloc(np, sizeof *P.bests);
    P.ends = ends ? calloc(np, sizeof *P.ends) : NULL;
    wm_status st = WM_OK;
    if (!P.bests || (ends && !P.ends)) {
        st = WM_NOMEM;
        goto out;
    }
    /* All pieces at once; with a progress callback, a window of one piece a
    ** thread at a time, the target's bytes done reported after each (from
    ** this thread, as the other families report). The pruning bound is
    ** shared across windows all the same. */
    size_t window = cx->opts.progress ? (size_t)wm_pool_size(cx->pool) : np;
    for (P.first = 0; P.first < np && !atomic_load(&P.failed); P.first += window) {
        size_t k = np - P.first < window ? np - P.first : window;
        wm_pool_for(cx->pool, k, run_piece, &P);
        if (cx->opts.progress) {
            uint64_t lo, hi;
            wm_plan_part(&P.plan, P.first + k - 1, &lo, &hi);
            cx->opts.progress(hi, n, cx->opts.progress_user);
        }
    }
    if (atomic_load(&P.failed)) {
        st = WM_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < np; i++) {
        if (P.bests[i].end != UINT64_MAX) wm_best_take(best, P.bests[i].d, P.bests[i].end);
        if (!ends) continue;
        for (size_t j = 0; j < P.ends[i].n; j++)
            if (wm_endvec_push(ends, P.ends[i].a[j])) {
                st = WM_NOMEM;
                goto out;
            }
    }
out:
    if (P.ends)
        for (size_t i = 0; i < np; i++) wm_endvec_free(&P.ends[i]);
    free(P.ends);
    free(P.bests);
    return st;
}

static wm_status find_ends(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                           wm_align_algo_t algo, int64_t limit, uint64_t halo, int64_t report_le,
                           wm_endvec_t *ends, wm_best_t *best) {
    const wm_align_gpu_t *gpu = wm_align_gpu(cx);
    if (gpu && n > 0 && !(algo == WM_ALIGN_ALGO_BITVECTOR && aq->m > WM_CU_BV_MAX_M)) {
        /* Out of GPU memory: smaller batches, then the CPU. Each try starts
        ** over: the ends found so far are dropped (a best is a minimum, so
        ** taking it again changes nothing). */
        size_t n0 = ends ? ends->n : 0;
        wm_status st;
        do {
            if (ends) ends->n = n0;
            st = gpu->infix(cx, aq, t, n, algo, limit, report_le, ends, best);
        } while (wm_gpu_retry(cx, &st));
        if (!wm_gpu_fall_back(cx, st, "align")) return st;
        if (ends) ends->n = n0;
    }
    return cpu_ends(cx, aq, t, n, algo, limit, halo, report_le, ends, best);
}

/* ---- from ends to alignments ---------------------------------------------- */

typedef struct {
    const wm_aq_t *aq;
    const uint8_t *t;
    wm_alignment_t *a;
    int cigar;
    atomic_int failed; /* 1 out of memory, 2 a CIGAR that disagrees */
} finish_t;

static void finish_one(void *arg, size_t i, int tid) {
    (void)tid;
    finish_t *F = arg;
    wm_alignment_t *a = &F->a[i];
    a->start = wm_align_start(F->aq, F->t, a->end, a->distance);
    if (a->start == UINT64_MAX) { /* its tables could not be allocated */
        a->start = a->end;
        atomic_store(&F->failed, 1);
        return;
    }
    if (!F->cigar) return;
    uint64_t d = 0;
    a->cigar = wm_align_cigar(F->aq, F->t + a->start, a->end - a->start, a->distance, &d);
    if (!a->cigar) atomic_store(&F->failed, 1);
    else if (d != a->distance) atomic_store(&F->failed, 2);
}

wm_status wm_align_check_opts(wm_context_t *cx, const wm_align_opts_t *o) {
    if ((unsigned)o->mode > WM_ALIGN_GLOBAL || (unsigned)o->algo > WM_ALIGN_ALGO_FOUR_RUSSIANS ||
        (unsigned)o->alphabet > WM_ALPHABET_DNA || o->max_distance < -1) {
        wm_context_set_error(cx, "invalid alignment options");
        return WM_INVALID;
    }
    if (o->fr_t < 0 || o->fr_t > WM_FR_MAX_T) {
        wm_context_set_error(cx,
                             "four-russians block size t = %d; it is 1 to %d (t = 5 "
                             "would need a table of at least 124 GB)",
                             o->fr_t, WM_FR_MAX_T);
        return WM_INVALID;
    }
    if (o->algo == WM_ALIGN_ALGO_FOUR_RUSSIANS && o->mode != WM_ALIGN_GLOBAL) {
        wm_context_set_error(cx, "four-russians computes global edit distances only "
                                 "(use --mode global)");
        return WM_INVALID;
    }
    return WM_OK;
}

wm_status wm_align_check_pair(wm_context_t *cx, const uint8_t *query, size_t m,
                              const uint8_t *target, uint64_t n, const wm_align_opts_t *o,
                              const char *which) {
    if (m == 0 && o->mode != WM_ALIGN_GLOBAL) {
        wm_context_set_error(cx, "%sthe query is empty", which);
        return WM_PATTERN_EMPTY;
    }
    if (m > WM_MAX_QUERY) {
        wm_context_set_error(cx, "%sthe query has %zu symbols; at most %u are aligned", which, m,
                             WM_MAX_QUERY);
        return WM_PATTERN_TOO_LONG;
    }
    if ((!query && m > 0) || (!target && n > 0)) {
        wm_context_set_error(cx, "%sNULL query or target", which);
        return WM_INVALID;
    }
    int every_cell = o->mode == WM_ALIGN_GLOBAL &&
                     (o->algo == WM_ALIGN_ALGO_WAVEFRONT || o->algo == WM_ALIGN_ALGO_FOUR_RUSSIANS);
    if (every_cell && m > 0 && n > WM_ALIGN_MAX_CELLS / m) {
        wm_context_set_error(cx,
                             "%s%zu x %llu = %.3g cells: %s visits every cell and takes "
                             "at most 2^37 (%.3g); use --algo bitvector",
                             which, m, (unsigned long long)n, (double)m * (double)n,
                             o->algo == WM_ALIGN_ALGO_WAVEFRONT ? "the plain DP" : "four-russians",
                             (double)WM_ALIGN_MAX_CELLS);
        return WM_UNSUPPORTED;
    }
    return WM_OK;
}

/* ---- global mode ---------------------------------------------------------- */

/* The distance of one pair by the chosen algorithm on the context's backend.
** limit >= 0: exact when <= limit, else some value > limit. S_keep != NULL:
** a CIGAR follows; the GPU's bit-vector run keeps its checkpoints every
** *S_keep columns where they fit (0: none kept). */
static wm_status global_distance(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                                 const wm_align_opts_t *o, int64_t limit, uint64_t *d,
                                 uint64_t *S_keep) {
    uint64_t m = aq->m;
    if (m == 0 || n == 0) {
        *d = m + n;
        return WM_OK;
    }
    const wm_align_gpu_t *gpu = wm_align_gpu(cx);
    int fr = o->algo == WM_ALIGN_ALGO_FOUR_RUSSIANS;
    const wm_fr_table_t *tab = NULL;
    wm_status st = WM_OK;
    if (gpu) { /* out of GPU memory: try again smaller, then the CPU */
        do {
            /* the table again each time: a retry frees the cache that holds it */
            if (fr && (st = wm_fr_table_get(cx, wm_fr_pick_t(o), wm_fr_pick_strings(aq), &tab)))
                continue;
            switch (o->algo) {
            case WM_ALIGN_ALGO_WAVEFRONT: st = gpu->global_dp(cx, aq, y, n, limit, d); break;
            case WM_ALIGN_ALGO_FOUR_RUSSIANS:
                st = gpu->global_fr(cx, aq, y, n, tab, limit, d);
                break;
            default:
                st = S_keep ? gpu->global_keep(cx, aq, y, n, limit, S_keep, d)
                            : gpu->global(cx, aq, y, n, limit, d);
                break;
            }
        } while (wm_gpu_retry(cx, &st));
        if (!wm_gpu_fall_back(cx, st, "global alignment")) return st;
    }
    if (fr && (st = wm_fr_table_get(cx, wm_fr_pick_t(o), wm_fr_pick_strings(aq), &tab)) != WM_OK)
        return st;
    switch (o->algo) {
    case WM_ALIGN_ALGO_WAVEFRONT: return wm_global_dp(aq, y, n, limit, d);
    case WM_ALIGN_ALGO_FOUR_RUSSIANS: return wm_global_fr(cx, aq, y, n, tab, limit, d);
    default: *d = wm_global_distance(aq, y, n, limit); return *d == UINT64_MAX ? WM_NOMEM : WM_OK;
    }
}

/* The smallest pair whose CIGAR's checkpoints the GPU's distance pass keeps
** by default (below, a second pass or the CPU's, by estimate). */
#define KEEP_MIN_CELLS 5e7

/* The CIGAR always comes from the canonical traceback (traceback.c), whatever
** found the distance. */
wm_status wm_align_global_one(wm_context_t *cx, const uint8_t *query, size_t m, const uint8_t *y,
                              uint64_t n, const wm_align_opts_t *o, wm_alignment_t *a, int *found,
                              int use_pool) {
    wm_aq_t aq;
    wm_status st = wm_aq_make(&aq, query, m, o);
    if (st != WM_OK) return st;
    uint64_t d, S_keep = 0;
    *found = 0;
    /* A CIGAR on the GPU: the distance pass keeps the checkpoints, unless
    ** the tuning says where they come from, or the pair is small enough
    ** that the CPU's forward pass over a narrow band may well cost less
    ** than keeping them (10 kb a side at 5%: 1.48 ms kept against 1.43 ms
    ** from the CPU; 5 kb at 5%: 0.84 against 0.68; a random 10 kb pair:
    ** 3.6 against 5.2 by a second pass; BENCHMARKS.md 24e) */
    const int rule = cx->tuning.global_ckpts;
    const int keep = o->cigar && wm_align_gpu(cx) != NULL &&
                     (rule == 1 || (rule == 0 && (double)m * (double)n >= KEEP_MIN_CELLS));
    /* A short pair's CIGAR on the CPU: the distance and the walk's deltas
    ** in one unbanded pass (cigar_small.c). With a bound, the banded
    ** distance first says whether a CIGAR is wanted at all. */
    const int small = o->cigar && wm_align_gpu(cx) == NULL && o->algo != WM_ALIGN_ALGO_WAVEFRONT &&
                      o->algo != WM_ALIGN_ALGO_FOUR_RUSSIANS && wm_small_cigar_fits(&aq, n);
    double distance_s = 0; /* the GPU's pass, when it ran there */
    char *small_cigar = NULL;
    if (!small || o->max_distance >= 0) {
        const double t0 = wm_now();
        st = global_distance(cx, &aq, y, n, o, o->max_distance, &d, keep ? &S_keep : NULL);
        distance_s = wm_now() - t0;
        if (st != WM_OK || (o->max_distance >= 0 && d > (uint64_t)o->max_distance)) goto done;
    }
    if (small && (st = wm_global_small_cigar(&aq, y, n, &d, &small_cigar)) != WM_OK) goto done;
    *found = 1;
    a->distance = d;
    a->start = 0;
    a->end = n;
    a->cigar = small_cigar;
    if (o->cigar && !small) {
        wm_pool_t *pool = use_pool ? cx->pool : NULL;
        const wm_align_gpu_t *gpu = wm_align_gpu(cx);
        int on_gpu = gpu && m > 0 && n > 0 && n <= WM_CU_GLOBAL_MAX_N;
        wm_tb_plan_t plan;
        const int threads = pool ? wm_pool_size(pool) : 1;
        if (on_gpu) {
            /* The checkpoints the distance pass kept cost nothing more: they
            ** are taken whenever the plan's segments can be cut to their
            ** spacing. Otherwise they come from a second GPU pass, as long
            ** as the distance's, or from the CPU's forward pass over the
            ** band, whichever is the shorter: a narrow band (few edits) is
            ** cheaper here (10 kb at 5%: 18 words, 0.2-0.4 ms on a thread
            ** against the GPU's 0.95 ms, BENCHMARKS.md 24). About 1.5 ns a
            ** word of the band and a column (3.7 ns a word that pruning
            ** keeps, about a quarter of a similar pair's band). The bytes
            ** are the same either way. */
            wm_tb_plan(&plan, m, n, d, aq.n_words, threads);
            int kept = 0;
            if (S_keep > 0) {
                wm_tb_plan_t fit = plan;
                wm_tb_plan_spread(&fit, threads);
                if (wm_tb_plan_fit(&fit, S_keep) == 0) {
                    plan = fit;
                    kept = 1;
                }
            }
            if (!kept && (rule < 0 ||
                          (rule == 0 && 1.5e-9 * (double)plan.band_words * (double)n < distance_s)))
                on_gpu = 0;
            if (cx->tuning.timing) {
                cx->stats.global_gpu_distance_s += distance_s;
                cx->stats.global_gpu_ckpts_on_cpu += !on_gpu;
            }
        }
        if (on_gpu) {
            /* the forward pass on the GPU, the segments and the walk here */
            wm_tb_ckpts_t ck = { 0 };
            wm_tb_plan_spread(&plan, threads);
            const double t1 = wm_now();
            if (wm_tb_ckpts_alloc(&ck, &plan) < 0) st = WM_NOMEM;
            else {
                do st = gpu->global_ckpts(cx, &aq, y, n, d, &plan, &ck);
                while (wm_gpu_retry(cx, &st));
            }
            const double t2 = wm_now();
            if (st == WM_OK) {
                a->cigar = wm_align_cigar_ex(&aq, y, n, d, pool, &plan, &ck);
                if (!a->cigar) st = WM_NOMEM;
            }
            if (cx->tuning.timing) {
                cx->stats.global_gpu_ckpts_s += t2 - t1;
                cx->stats.global_gpu_cigar_s += wm_now() - t2;
            }
            wm_tb_ckpts_free(&ck);
            if (wm_gpu_fall_back(cx, st, "the alignment's traceback")) {
                on_gpu = 0;
                st = WM_OK;
            }
        }
        if (!on_gpu) {
            a->cigar = wm_align_cigar_ex(&aq, y, n, d, pool, NULL, NULL);
            if (!a->cigar) st = WM_NOMEM;
        }
        if (st != WM_OK) {
            free(a->cigar);
            a->cigar = NULL;
            *found = 0;
        }
    }
done:
    wm_aq_free(&aq);
    return st;
}

wm_status wm_align(wm_context_t *cx, const uint8_t *query, size_t m, const uint8_t *target,
                   uint64_t n, const wm_align_opts_t *o, wm_alignments_t *out) {
    if (!wm_context_ok(cx) || !out) return WM_INVALID;
    wm_cuda_context_bind(cx);
    out->a = NULL;
    out->n = 0;
    cx->errmsg[0] = 0;
    wm_align_opts_t opts = o ? *o : wm_align_opts_default();
    wm_status st = wm_align_check_opts(cx, &opts);
    if (st == WM_OK) st = wm_align_check_pair(cx, query, m, target, n, &opts, "");
    if (st != WM_OK) return st;
    if (cx->n_sub > 1 && opts.mode == WM_ALIGN_GLOBAL) { /* one pair: the first device */
        st = wm_align(wm_shard_first(cx), query, m, target, n, &opts, out);
        return st == WM_OK ? st : wm_shard_error(cx, 0, st, NULL, 0, 0);
    }
    if (cx->n_sub > 1) /* many devices: align_shard.c cuts the target */
        return wm_align_shard_infix(cx, query, m, target, n, &opts, out);
    if (opts.mode == WM_ALIGN_GLOBAL) {
        wm_alignment_t one;
        int found = 0;
        st = wm_align_global_one(cx, query, m, target, n, &opts, &one, &found, 1);
        if (st != WM_OK || !found) return st;
        out->a = malloc(sizeof *out->a);
        if (!out->a) {
            free(one.cigar);
            return WM_NOMEM;
        }
        out->a[0] = one;
        out->n = 1;
        return WM_OK;
    }
    wm_align_algo_t algo = opts.algo == WM_ALIGN_ALGO_AUTO ? WM_ALIGN_ALGO_BITVECTOR : opts.algo;

    wm_aq_t aq;
    if ((st = wm_aq_make(&aq, query, m, &opts)) != WM_OK) return st;
    int64_t limit = opts.max_distance;
    uint64_t kcap = (limit < 0 || (uint64_t)limit > m) ? m : (uint64_t)limit;
    wm_best_t best = { UINT64_MAX, UINT64_MAX };
    wm_endvec_t ends = { 0 };

    {
        /* End 0, the empty substring, costs m. */
        if (limit < 0 || m <= (uint64_t)limit) best = (wm_best_t){ m, 0 };
        st = find_ends(cx, &aq, target, n, algo, limit, m + kcap, -1, NULL, &best);
        if (st != WM_OK || best.end == UINT64_MAX) goto done;
        if (opts.all_ends) {
            if (best.d == m && wm_endvec_push(&ends, 0)) {
                st = WM_NOMEM;
                goto done;
            }
            wm_best_t again = { UINT64_MAX, UINT64_MAX };
            st = find_ends(cx, &aq, target, n, algo, (int64_t)best.d, m + kcap, (int64_t)best.d,
                           &ends, &again);
            if (st != WM_OK) goto done;
        } else if (wm_endvec_push(&ends, best.end)) {
            st = WM_NOMEM;
            goto done;
        }
    }

    out->a = calloc(ends.n, sizeof *out->a);
    if (!out->a) {
        st = WM_NOMEM;
        goto done;
    }
    out->n = ends.n;
    for (size_t i = 0; i < ends.n; i++) {
        out->a[i].distance = best.d;
        out->a[i].end = ends.a[i];
        out->a[i].start = 0;
    }
    finish_t F = { &aq, target, out->a, opts.cigar, 0 };
    atomic_init(&F.failed, 0);
    wm_pool_for(cx->pool, out->n, finish_one, &F);
    int failed = atomic_load(&F.failed);
    if (failed) {
        st = failed == 1 ? WM_NOMEM : WM_INVALID;
        if (failed == 2)
            wm_context_set_error(cx, "internal error: a CIGAR disagrees with the distance");
        wm_alignments_free(out);
    }
done:
    wm_endvec_free(&ends);
    wm_aq_free(&aq);
    return st;
}

/* ---- the family ------------------------------------------------------------- */

wm_align_cache_t *wm_align_cache(wm_context_t *cx) {
    return wm_context_cache(cx, &wm_align_family, sizeof(wm_align_cache_t));
}

static void free_cache(wm_context_t *cx, void *cache) {
    wm_align_cache_t *c = cache;
    const wm_align_gpu_t *gpu = wm_align_gpu(cx);
    wm_fr_cache_free(c, gpu);
    if (gpu && c->gpu) gpu->free_cache(c->gpu);
    free(c);
}

/* The GPU table exists only with CUDA. */
const wm_family_t wm_align_family = {
    "align",
#if WM_HAVE_CUDA
    &wm_align_gpu_cuda,
#else
    NULL,
#endif
    free_cache,
};
