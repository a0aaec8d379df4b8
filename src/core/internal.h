/*
** internal.h -- the ground floor every family builds on, and nothing else:
** the context (backend, threads, devices, the families' slots, tuning), the
** database handle (its body belongs to a family), the thread pool, the
** match vector, and the GPU device layer's entry points.
**
** Core knows no family: a family (search, multi, align, dtw) describes
** itself with a wm_family_t (core/family.h), keeps its caches in its slot of
** the context and its compiled patterns behind db->body. See docs/DESIGN.md,
** "How to add an algorithm" and "How to add a backend".
*/
#ifndef WM_CORE_INTERNAL_H
#define WM_CORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"
#include "core/family.h"
#include "core/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the database handle ----------------------------------------------------
** Compiled by a family (wm_compile: search, wm_compile_set: multi); core
** checks it, cuts its scans across devices and frees it through its ops. */
struct wm_db;
typedef struct wm_db_ops {
    const char *kind; /* "pattern", "set": what the body is */
    /* Scan text, owning the ends e with own_from < e (absolute offsets in the
    ** text; the bytes before are a halo another part owns, see core/plan.h).
    ** Listing when cb != NULL: matches in order to cb. Otherwise counting:
    ** *n_matches, and per_pattern[i] (zeroed by the caller) when not NULL.
    ** text->len > own_from; the arguments are checked. */
    wm_status (*scan)(wm_context_t *cx, const struct wm_db *db, const wm_text_t *text,
                      uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                      uint64_t *per_pattern);
    void (*free_body)(void *body);
} wm_db_ops_t;

struct wm_db {
    uint32_t magic;
    const wm_db_ops_t *ops; /* the family that owns the body */
    size_t n_patterns;      /* 1 for wm_compile */
    uint64_t halo;          /* the longest occurrence - 1 (core/plan.h) */
    wm_algo_t algo;         /* what the CPU runs (never AUTO) */
    wm_opts_t opts;         /* as given */
    void *body;             /* the family's */
};
#define WM_DB_MAGIC 0x776d6462u /* "wmdb" */

/* A handle for a compiled body: magic set, body owned from here on (freed by
** ops->free_body with the handle). NULL out of memory (the body is then freed). */
wm_db_t *wm_db_new(const wm_db_ops_t *ops, void *body, size_t n_patterns, uint64_t halo,
                   wm_algo_t algo, const wm_opts_t *opts);

/* The record starts of a text as one array of n_rec + 1 entries, the last
** its length (a text given as one record gets two); malloc'd, NULL out of
** memory. */
uint64_t *wm_text_record_starts(const wm_text_t *t, size_t *n_rec);

/* Seconds from a monotonic clock. */
double wm_now(void);

/* wm_search (cb != NULL: matches in order to cb), wm_count (*n_matches)
** and wm_count_per_pattern (per_pattern: zeroed here, one entry a pattern)
** for a part of a larger text: ends e <= own_from are not the caller's (the
** bytes before own_from are the halo a process or device before it owns,
** core/plan.h), so nothing of them is reported or counted. The arguments
** are checked as the public calls check them; own_from <= text->len. */
wm_status wm_scan_owned(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                        uint64_t *per_pattern);

/* ---- growable array of matches --------------------------------------------- */
typedef struct {
    wm_match_t *a;
    size_t n, cap;
} wm_matchvec_t;

int wm_matchvec_push(wm_matchvec_t *v, const wm_match_t *m); /* 0 or -1 */
/* Hand v's matches to cb in order: WM_OK, or WM_STOPPED when cb asked. */
wm_status wm_matchvec_deliver(const wm_matchvec_t *v, wm_match_cb cb, void *user);
/* The same for a[0, n): a run at once when cb is wm_batcher_one. */
wm_status wm_deliver_matches(const wm_match_t *a, size_t n, wm_match_cb cb, void *user);

/* ---- matches handed over in runs (wm_search_batches) ---------------------
** The drivers call a per-match callback; wm_search_batches gives them
** wm_batcher_one, which gathers single matches into runs, and a driver that
** holds a vector hands it over whole through wm_deliver_matches (after the
** matches gathered before it), so no match pays a call of its own. */
#define WM_BATCHER_RUN 256
typedef struct {
    wm_matches_cb cb;
    void *user;
    size_t n;
    wm_match_t run[WM_BATCHER_RUN];
} wm_batcher_t;
int wm_batcher_one(const wm_match_t *m, void *user); /* a wm_match_cb; user: the batcher */
int wm_batcher_flush(wm_batcher_t *b);               /* the caller's answer, or 0 */
/* wm_scan_owned's listing in runs (wm_search_batches is own_from = 0). */
wm_status wm_scan_owned_batches(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                                uint64_t own_from, wm_matches_cb cb, void *user);
void wm_matchvec_free(wm_matchvec_t *v);
/* Make room for need entries in an array of elem-byte items (doubling). 0 or -1. */
int wm_vec_grow(void **a, size_t *cap, size_t need, size_t elem);

/* ---- thread pool (kt_for style: run fn(arg, i, tid) for i in [0, n)) ---- */
typedef struct wm_pool wm_pool_t;
wm_pool_t *wm_pool_new(int n_threads);
void wm_pool_free(wm_pool_t *p);
int wm_pool_size(const wm_pool_t *p);
void wm_pool_for(wm_pool_t *p, size_t n, void (*fn)(void *arg, size_t i, int tid), void *arg);

/* ---- context ------------------------------------------------------------- */
struct wm_cuda_state; /* the device layer's (src/cuda/device.cu) */

struct wm_context {
    uint32_t magic;
    wm_context_opts_t opts;
    wm_backend_t backend; /* resolved: CPU or CUDA */
    int n_threads;
    wm_pool_t *pool;
    struct wm_cuda_state *cuda; /* the GPU, its streams; NULL unless CUDA */
    /* Per family (index in wm_families): its GPU table when the context runs
    ** on a GPU (chosen once, here; NULL on the CPU or when the family has no
    ** GPU code), and its cache (tables, device buffers), freed through it. */
    const void *gpu[WM_MAX_FAMILIES];
    void *cache[WM_MAX_FAMILIES];
    wm_tuning_t tuning; /* sizes the host glue uses (core/tuning.h) */
    wm_stats_t stats;   /* what the last calls measured */
    /* Many devices (src/core/shard.c): a context made with n_devices > 1
    ** owns n_sub ordinary contexts, one per device (or CPU shard), and each
    ** call is cut among them; it has no pool or GPU state of its own.
    ** n_sub = 0 for an ordinary context. */
    int n_sub;
    struct wm_context **sub;
    struct wm_shard_state *shard; /* the device list, progress (shard.c) */
    char errmsg[512];
    /* Out of GPU memory (src/core/recover.c): pieces are cut to 1/2^gpu_shrink
    ** of their size, and note says what was done. */
    int gpu_shrink;
    char note[256];
    int cpu_only; /* > 0: wm_context_gpu answers NULL (a fallback on the pool's threads) */
    /* The target of the call in progress (wm_search_target, wm_align_target;
    ** src/core/target.c), or NULL: the GPU code reads its bytes from the
    ** device copy instead of copying them (wm_cuda_target_view). */
    struct wm_target *resident;
    /* The bytes the caller said are a file's (wm_context_text_file); fd < 0:
    ** none. */
    struct {
        const uint8_t *p;
        uint64_t n, off;
        int fd;
    } file;
};

/* A target (include/warpmatch.h): the borrowed text, and its copy on the
** GPU of the context it belongs to, made at the first call that asks. */
struct wm_target {
    uint32_t magic;
    wm_context_t *cx;
    wm_text_t text;
    void *dev;      /* text.len + the kernels' padding on the device, or NULL */
    int dev_failed; /* it did not fit: calls copy as usual */
    int series;     /* made by wm_target_new_series: text is 8 n bytes of doubles */
    int finite;     /* a series: the checks of its samples a call made (dtw.c's bits) */
};

/* Make t the context's resident text for a call (NULL: none); returns the
** one it replaces, to be put back after the call. */
static inline struct wm_target *wm_target_swap(wm_context_t *cx, struct wm_target *t) {
    struct wm_target *old = cx->resident;
    cx->resident = t;
    return old;
}
#define WM_TARGET_MAGIC 0x776d7467u  /* "wmtg" */
#define WM_CONTEXT_MAGIC 0x776d6378u /* "wmcx" */

void wm_context_set_error(wm_context_t *cx, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* 1 when cx is a live context. */
static inline int wm_context_ok(const wm_context_t *cx) {
    return cx && cx->magic == WM_CONTEXT_MAGIC;
}

/* A family's GPU table (its own type), or NULL: run on the CPU. */
const void *wm_context_gpu(const wm_context_t *cx, const wm_family_t *f);
/* A family's cache: the object in its slot of the context, made zeroed
** (`bytes` of it) on first use; NULL out of memory. The family stores what
** it builds there and its free_cache releases it with the context. */
void *wm_context_cache(wm_context_t *cx, const wm_family_t *f, size_t bytes);

/* The context's tuning (defaults after wm_context_new; benchmarks and tests
** change fields before a call; a multi-device context hands its tuning to its
** sub-contexts at every call) and what its calls measured (with tuning.timing;
** a multi-device context's stats are its first sub-context's). */
wm_tuning_t *wm_context_tuning(wm_context_t *cx);
const wm_stats_t *wm_context_stats(const wm_context_t *cx);

/* ---- texts that are files (src/core/textfile.c) --------------------------------
** The caller (the tool, for a plain file it mapped) says that the bytes
** [p, p + n) are those of file fd from offset off, until it calls again with
** fd < 0 (before closing fd or unmapping p). A backend that copies such bytes
** into its own buffers (the GPU's staging, src/search/search_cuda.cu) then
** reads them from the file with pread instead: the page cache straight into
** the buffer, the mapping's pages never faulted in (then torn down) on the
** way. Given to the sub-contexts of a multi-device context too. */
void wm_context_text_file(wm_context_t *cx, const uint8_t *p, uint64_t n, int fd, uint64_t off);
/* The file of [src, src + n) when they lie inside the bytes said to be one:
** its descriptor, *off the file offset of src; else -1. */
int wm_context_file_of(const wm_context_t *cx, const uint8_t *src, uint64_t n, uint64_t *off);
/* n bytes of fd from offset off into dst, through pread (interrupted and
** short reads continued). 0, or -1 (a read error, or the file ended first:
** the caller copies from memory instead). */
int wm_read_at(int fd, void *dst, uint64_t n, uint64_t off);

/* ---- out of GPU memory (src/core/recover.c) ----------------------------------
** A family calls its GPU table in a loop:
**     do st = gpu->call(...); while (wm_gpu_retry(cx, &st));
**     if (wm_gpu_fall_back(cx, st, "search")) st = the CPU's call;
** and its GPU code sizes its pieces with wm_gpu_piece. A listing that
** delivered part of its output before failing goes on from where it got. */
/* 1 when st is WM_DEVICE_NOMEM and pieces can still shrink: every family's
** device buffers are freed, pieces halve; try again. 0 otherwise. */
int wm_gpu_retry(wm_context_t *cx, wm_status *st);
/* 1 when st is WM_DEVICE_NOMEM (retries spent): the caller runs `what` on
** the CPU; the note says so and the error message is cleared. */
int wm_gpu_fall_back(wm_context_t *cx, wm_status st, const char *what);
/* A piece of `bytes` (a batch, a chunk) cut by the context's shrink, never
** below floor (nor above bytes). */
uint64_t wm_gpu_piece(const wm_context_t *cx, uint64_t bytes, uint64_t floor);

/* ---- the GPU device layer (src/cuda/device.cu; src/cuda/device_none.c in a
** build without CUDA) ------------------------------------------------------- */
wm_status wm_cuda_context_init(wm_context_t *cx);
void wm_cuda_context_free(wm_context_t *cx);
/* Make the context's GPU the calling thread's current device: the CUDA
** runtime keeps one per host thread. Every public call that may reach the
** GPU binds first, since a context may be made on one thread and called on
** another (the CLI makes it on a thread of its own while it reads), and a
** multi-device call runs each sub-context on a thread of its own
** (src/core/shard.c). No-op on the CPU. */
void wm_cuda_context_bind(wm_context_t *cx);
/* The device address of the host bytes [p, p + n) when the call in progress
** has a target (cx->resident) holding them, uploading the target at its
** first use; NULL otherwise (no target, not its bytes, no room on the GPU:
** the caller copies as usual). The device bytes go on WM_CU_PAD past the
** text, as the kernels' reads do. */
const uint8_t *wm_cuda_target_view(wm_context_t *cx, const uint8_t *p, uint64_t n);
/* Free a target's device copy. */
void wm_cuda_target_release(struct wm_target *t);

#ifdef __cplusplus
}
#endif
#endif
