/*
** internal.h -- what the library's layers share and users never see:
** the compiled database, the context, the hit lists that backends fill,
** and the entry points of each backend.
*/
#ifndef WM_CORE_INTERNAL_H
#define WM_CORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_WORD_BITS 64

/* One strand's pattern, compiled. peq[c * n_words + w] has bit i of word w
** set when pattern position 64*w+i matches text byte c (Shift-And / Myers
** convention: 1 = match). */
typedef struct {
    uint8_t *bytes;          /* the pattern as searched on this strand  */
    uint64_t *peq;           /* 256 * n_words words                     */
    uint64_t *rpeq;          /* the same for the pattern read backwards  */
} wm_strand_t;

struct wm_db {
    uint32_t magic;
    size_t m;                /* pattern length                          */
    uint32_t k;              /* errors allowed                          */
    wm_metric_t metric;
    wm_algo_t algo;          /* chosen for the CPU (never AUTO)         */
    wm_opts_t opts;          /* as given                                */
    int n_strands;           /* 1, or 2 with revcomp                    */
    size_t n_words;          /* ceil(m / 64)                            */
    wm_strand_t strand[2];
    /* For m > 64 and small k, the CPU scans the last 64 positions of each
    ** strand (this database's own suffix) as a filter and verifies each end
    ** it finds against the whole pattern: a match within k errors contains
    ** its suffix within k errors. NULL when not used. */
    struct wm_db *suffix;
    /* A pattern set (wm_compile_set): everything lives here and the fields
    ** above other than m (the longest pattern), opts, algo and n_strands are
    ** unused. NULL for one pattern. */
    struct wm_mset *set;
};
#define WM_SUFFIX_FILTER_MAX_K 8
#define WM_DB_MAGIC 0x776d6462u   /* "wmdb" */

/* A hit as a scanning kernel reports it: the end offset in the whole text
** buffer (exclusive), the errors there, and the strand. */
typedef struct {
    uint64_t end;
    uint32_t errors;
    uint32_t strand;
} wm_hit_t;

/* A growable array of resolved matches. */
typedef struct {
    wm_match_t *a;
    size_t n, cap;
} wm_matchvec_t;

int wm_matchvec_push(wm_matchvec_t *v, const wm_match_t *m);   /* 0 or -1 */
void wm_matchvec_free(wm_matchvec_t *v);

/* A growable array of raw hits. */
typedef struct {
    wm_hit_t *a;
    size_t n, cap;
} wm_hitvec_t;

int wm_hitvec_push(wm_hitvec_t *v, uint64_t end, uint32_t errors, uint32_t strand);
void wm_hitvec_free(wm_hitvec_t *v);

/* ---- thread pool (kt_for style: run fn(arg, i, tid) for i in [0, n)) ---- */
typedef struct wm_pool wm_pool_t;
wm_pool_t *wm_pool_new(int n_threads);
void wm_pool_free(wm_pool_t *p);
int wm_pool_size(const wm_pool_t *p);
void wm_pool_for(wm_pool_t *p, size_t n, void (*fn)(void *arg, size_t i, int tid), void *arg);

/* ---- context ------------------------------------------------------------- */
struct wm_cuda_state;   /* defined by the CUDA backend */

struct wm_context {
    uint32_t magic;
    wm_context_opts_t opts;
    wm_backend_t backend;          /* resolved: CPU or CUDA */
    int n_threads;
    wm_pool_t *pool;
    struct wm_cuda_state *cuda;    /* NULL unless backend is CUDA */
    struct wm_fr_table *fr[2][5];  /* Four-Russians tables built so far, by
                                      [strings][t] (src/align/fr_table.c)        */
    /* Many devices (issue 7, src/core/shard.c): a context made with
    ** n_devices > 1 owns n_sub ordinary contexts, one per device (or CPU
    ** shard), and each call is cut among them; it has no pool or GPU state
    ** of its own. n_sub = 0 for an ordinary context. */
    int n_sub;
    struct wm_context **sub;
    struct wm_shard_state *shard;  /* the device list, progress (shard.c)   */
    char errmsg[512];
};
#define WM_CONTEXT_MAGIC 0x776d6378u   /* "wmcx" */

void wm_context_set_error(wm_context_t *cx, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- match finishing: starts, record borders ------------------------------ */

/* The halo a scan needs before the first end it reports: the longest
** occurrence (m + k) minus one. */
static inline uint64_t wm_db_halo(const wm_db_t *db) {
    return (uint64_t)db->m + (db->metric == WM_METRIC_EDIT ? db->k : 0) - 1;
}

/* Resolve one candidate end. text[rec_begin, e) is the part of its record
** before e. errors_hint is the errors the scan found (exact when the scan
** started at the record's beginning or at least halo bytes before e), or -1
** when it may be low (the scan ran across a record border). Returns 1 and
** sets *start (absolute) and *errors when within k, else 0. */
int wm_resolve_end(const wm_db_t *db, int strand, const uint8_t *text,
                   uint64_t rec_begin, uint64_t e, int errors_hint,
                   uint64_t *start, uint32_t *errors);

/* ---- CPU scanning kernels (src/search/, one file per algorithm) ------------
** Each scans text[scan_from, to) starting from a fresh state and pushes every
** end e with own_from < e <= to whose distance is within k. */
typedef int (*wm_cpu_scan_fn)(const wm_db_t *db, int strand, const uint8_t *text,
                              uint64_t scan_from, uint64_t own_from, uint64_t to,
                              wm_hitvec_t *out);
int wm_shiftor_scan(const wm_db_t *db, int strand, const uint8_t *text,
                    uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out);
int wm_bitap_scan(const wm_db_t *db, int strand, const uint8_t *text,
                  uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out);
int wm_myers_scan(const wm_db_t *db, int strand, const uint8_t *text,
                  uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out);
/* k >= 1: find the ends through exact pieces (pigeonhole), verifying windows
** with `verify`. Returns 0 when done, 1 when the filter does not pay here (the
** caller scans the span itself; nothing was pushed), -1 out of memory. */
int wm_pigeonhole_scan(const wm_db_t *db, int strand, wm_cpu_scan_fn verify, const uint8_t *text,
                       uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out);

/* ---- CUDA backend (src/search/search_cuda.cu, src/cuda/) ------------------
** Built only with CUDA; the stubs in src/core/cuda_stub.c stand in otherwise. */
wm_status wm_cuda_context_init(wm_context_t *cx);
void wm_cuda_context_free(wm_context_t *cx);
/* Make the context's GPU the calling thread's current device: the CUDA
** runtime keeps one per host thread, and a multi-device call runs each
** sub-context on a thread of its own (src/core/shard.c). No-op on the CPU. */
void wm_cuda_context_bind(wm_context_t *cx);
/* Find the raw hits of a whole text on the GPU (records ignored: hits within
** halo of a record start are candidates the host re-checks). Calls sink with
** batches of hits in increasing end order (strand 0 before 1 on equal ends). */
/* 1 when the GPU runs this database; others run on the CPU even with CUDA. */
int wm_cuda_supports(const wm_db_t *db);
typedef wm_status (*wm_hit_batch_fn)(const wm_hit_t *hits, size_t n, void *user);
wm_status wm_cuda_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                         wm_hit_batch_fn sink, void *user);

#ifdef __cplusplus
}
#endif
#endif
