/*
** shard.c -- one call over several devices of one host (issue 7).
**
** A context made with n_devices > 1 owns that many ordinary contexts, its
** "subs" (one per CUDA device of the list, or CPU shards), and a call that
** has work to cut is cut here, run on the subs at once (a host thread each,
** the first on the caller's own) and merged so that its output is byte for
** byte one device's. The subs are driven through the public calls, so what
** each runs (GPU kernels, its CPU pool, fallbacks) is what one device runs.
**
** Texts (search, count). The bytes [0, len) are cut into n_sub ranges
** [lo, hi) of about equal size. Shard i owns the matches whose end e
** (absolute: record start + end) has lo < e <= hi, i.e. whose last byte lies
** in [lo, hi). It searches the records that meet its range, clipped to
** [lo - H, hi), where the halo H = m + k (the longest occurrence; a set: its
** longest pattern) reaches back only inside the record. A match ending at e
** depends on nothing but the H bytes before e in its record (its errors are
** the least over starts s >= e - H, its start the largest s at that
** distance), so each owned match is found as a single run finds it. Matches
** that end in the halo belong to the shard before and are dropped (counts:
** the halo alone is counted and subtracted). The shards are in text order
** and each one's matches come sorted by (record, end, pattern, strand), so
** their concatenation is the global order.
**
** Infix alignment. The ends 0 .. n are cut the same way (shard 0 also owns
** end 0) and shard i aligns against target[lo - h, hi), h = min(lo, m +
** min(k, m)): an owned end's distance is exact there (an alignment with
** d <= min(k, m) edits is at most m + d long) and a halo end's can only be
** too large. So a shard whose best (leftmost) end is owned has the best of
** its own ends. One whose best end e_h lies in the halo, at distance d,
** has owned ends at d or worse; e_h's true distance is <= d, and e_h belongs
** to a shard before. Without all_ends such a shard gives nothing: if the
** answer's distance is d, e_h (or an end before it) reaches it left of every
** end here. With all_ends its list holds every end at d: it keeps the owned
** ones (at the answer's distance d they are part of the answer). So no shard
** ever runs twice. The answer: the smallest distance the shards give; the
** lowest shard's end at it, or with all_ends every shard's ends at it, in
** shard order.
**
** Pairs and dtw queries: contiguous ranges of the list, one per sub.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/shard.h"

/* A sub's progress during a text call: the bytes done of the range it owns
** (its halo comes first and does not count). */
typedef struct {
    wm_context_t *parent;
    uint64_t halo, own, done;
    int muted;                 /* the halo's own count is running */
} progress_slot_t;

struct wm_shard_state {
    int *devices;              /* the caller's list, copied           */
    pthread_mutex_t mu;        /* one progress report at a time       */
    uint64_t total;            /* bytes of the current call's text    */
    progress_slot_t *slot;     /* one per sub, when opts.progress     */
};

/* [lo, hi) of part i when n items are cut into `parts` nearly equal parts,
** the first n % parts of them one longer. */
static void split(uint64_t n, int parts, int i, uint64_t *lo, uint64_t *hi) {
    uint64_t q = n / (uint64_t)parts, r = n % (uint64_t)parts, u = (uint64_t)i;
    *lo = q * u + (u < r ? u : r);
    *hi = *lo + q + (u < r);
}

/* ---- the context ----------------------------------------------------------------- */

static void on_sub_progress(uint64_t done, uint64_t total, void *user) {
    (void)total;
    progress_slot_t *p = user;
    wm_context_t *cx = p->parent;
    struct wm_shard_state *S = cx->shard;
    pthread_mutex_lock(&S->mu);
    if (!p->muted) {
        uint64_t own_done = done > p->halo ? done - p->halo : 0;
        p->done = own_done < p->own ? own_done : p->own;
        uint64_t sum = 0;
        for (int i = 0; i < cx->n_sub; i++) sum += S->slot[i].done;
        cx->opts.progress(sum, S->total, cx->opts.progress_user);
    }
    pthread_mutex_unlock(&S->mu);
}

static void set_muted(wm_context_t *cx, int i, int muted) {
    struct wm_shard_state *S = cx->shard;
    if (!S->slot) return;
    pthread_mutex_lock(&S->mu);
    S->slot[i].muted = muted;
    pthread_mutex_unlock(&S->mu);
}

static void free_subs(wm_context_t *cx, int n) {
    for (int i = 0; cx->sub && i < n; i++) wm_context_free(cx->sub[i]);
    free(cx->sub);
    cx->sub = NULL;
    cx->n_sub = 0;
}

/* One ordinary context per entry of the list, the threads shared out. */
static wm_status open_subs(wm_context_t *cx, wm_backend_t backend) {
    int n = cx->opts.n_devices, T = cx->n_threads;
    struct wm_shard_state *S = cx->shard;
    cx->sub = calloc((size_t)n, sizeof *cx->sub);
    if (!cx->sub) return WM_NOMEM;
    for (int i = 0; i < n; i++) {
        wm_context_opts_t so = wm_context_opts_default();
        so.backend = backend;
        so.threads = T / n + (i < T % n);
        if (so.threads < 1) so.threads = 1;
        so.device = S->devices[i];
        so.chunk_bytes = cx->opts.chunk_bytes;
        if (S->slot) {
            so.progress = on_sub_progress;
            so.progress_user = &S->slot[i];
        }
        wm_status st = wm_context_new(&so, &cx->sub[i]);
        if (st != WM_OK) {
            const char *why = cx->sub[i] ? wm_context_errmsg(cx->sub[i]) : "";
            wm_context_set_error(cx, "%s %d: %s", backend == WM_BACKEND_CUDA ? "device" : "shard",
                                 backend == WM_BACKEND_CUDA ? S->devices[i] : i,
                                 why[0] ? why : wm_strerror(st));
            free_subs(cx, i + 1);
            return st;
        }
    }
    cx->n_sub = n;
    return WM_OK;
}

/* The CUDA subs, after the checks one device would make (no GPU at all) and
** those of the list (an ordinal no GPU has). */
static wm_status open_gpus(wm_context_t *cx) {
    int count = wm_cuda_device_count();
    if (count == 0) return wm_cuda_context_init(cx);   /* says why; allocates nothing */
    for (int i = 0; i < cx->opts.n_devices; i++) {
        int d = cx->shard->devices[i];
        if (d >= count) {
            wm_context_set_error(cx, "GPU %d is in the list of devices, but %d GPU%s found "
                                 "(ordinals 0 to %d)", d, count, count == 1 ? " was" : "s were",
                                 count - 1);
            return WM_INVALID;
        }
    }
    return open_subs(cx, WM_BACKEND_CUDA);
}

wm_status wm_shard_context_init(wm_context_t *cx, int *hand_back) {
    int n = cx->opts.n_devices;
    *hand_back = 0;
    for (int i = 0; i < n; i++)
        if (cx->opts.devices[i] < 0) {
            wm_context_set_error(cx, "device %d in the list of devices: ordinals are 0 or more",
                                 cx->opts.devices[i]);
            cx->opts.devices = NULL;   /* the caller's: not kept */
            *hand_back = 1;
            return WM_INVALID;
        }
    struct wm_shard_state *S = calloc(1, sizeof *S);
    if (!S) return WM_NOMEM;
    cx->shard = S;
    pthread_mutex_init(&S->mu, NULL);
    S->devices = malloc((size_t)n * sizeof *S->devices);
    if (!S->devices) return WM_NOMEM;
    memcpy(S->devices, cx->opts.devices, (size_t)n * sizeof *S->devices);
    cx->opts.devices = S->devices;
    if (cx->opts.progress) {
        if (!(S->slot = calloc((size_t)n, sizeof *S->slot))) return WM_NOMEM;
        for (int i = 0; i < n; i++) S->slot[i].parent = cx;
    }

    wm_backend_t want = cx->opts.backend;
    if (want == WM_BACKEND_AUTO) want = wm_cuda_device_count() > 0 ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
    if (want == WM_BACKEND_CUDA) {
        wm_status st = open_gpus(cx);
        if (st == WM_OK) {
            cx->backend = WM_BACKEND_CUDA;
            return WM_OK;
        }
        /* As for one device: CUDA asked for hands the context back to say
        ** why, and so does a bad list; AUTO falls back to the CPU quietly. */
        if (cx->opts.backend == WM_BACKEND_CUDA || st == WM_INVALID) {
            cx->backend = WM_BACKEND_CPU;
            *hand_back = 1;
            return st;
        }
        cx->errmsg[0] = 0;
    }
    cx->backend = WM_BACKEND_CPU;
    return open_subs(cx, WM_BACKEND_CPU);
}

void wm_shard_context_free(wm_context_t *cx) {
    free_subs(cx, cx->n_sub);
    struct wm_shard_state *S = cx->shard;
    if (!S) return;
    pthread_mutex_destroy(&S->mu);
    free(S->devices);
    free(S->slot);
    free(S);
    cx->shard = NULL;
    cx->opts.devices = NULL;
}

/* ---- running the shards ---------------------------------------------------------- */

typedef void (*shard_fn)(void *job, int i);

typedef struct {
    wm_context_t *cx;
    shard_fn fn;
    void *job;
    int i;
    int started;
    pthread_t tid;
} shard_thread_t;

static void run_one_shard(wm_context_t *cx, shard_fn fn, void *job, int i) {
    wm_cuda_context_bind(cx->sub[i]);    /* the runtime's device is per host thread */
    cx->sub[i]->errmsg[0] = 0;           /* not every call clears it               */
    fn(job, i);
}

static void *shard_main(void *arg) {
    shard_thread_t *t = arg;
    run_one_shard(t->cx, t->fn, t->job, t->i);
    return NULL;
}

/* fn(job, i) for every shard at once: a thread each, shard 0 on the calling
** thread (wm_search hands its matches to the caller from there). A shard
** whose thread cannot be started runs here afterwards. */
static void run_shards(wm_context_t *cx, shard_fn fn, void *job) {
    int n = cx->n_sub;
    shard_thread_t *th = calloc((size_t)n, sizeof *th);
    for (int i = 1; th && i < n; i++) {
        th[i].cx = cx;
        th[i].fn = fn;
        th[i].job = job;
        th[i].i = i;
        th[i].started = pthread_create(&th[i].tid, NULL, shard_main, &th[i]) == 0;
    }
    run_one_shard(cx, fn, job, 0);
    for (int i = 1; i < n; i++) {
        if (th && th[i].started) pthread_join(th[i].tid, NULL);
        else run_one_shard(cx, fn, job, i);
    }
    free(th);
}

/* If msg starts "<word> N: ", N and the length of that prefix. */
static int leading_index(const char *msg, const char *word, size_t *idx, size_t *used) {
    size_t w = strlen(word);
    if (strncmp(msg, word, w) != 0 || msg[w] != ' ' || msg[w + 1] < '0' || msg[w + 1] > '9')
        return 0;
    char *end;
    unsigned long long v = strtoull(msg + w + 1, &end, 10);
    if (end[0] != ':' || end[1] != ' ') return 0;
    *idx = (size_t)v;
    *used = (size_t)(end + 2 - msg);
    return 1;
}

/* Sub i failed with st: the context's message becomes the sub's (or
** wm_strerror(st)) behind "device N: " (CUDA, N the ordinal) or "shard N: "
** (CPU). A leading "<word> N: " naming an item of the sub's range (pairs,
** queries, whose range starts at item `first`) is renumbered for the whole
** call and kept in front, where callers look for it; name_single: the sub
** had one item of several, which its message cannot name. Returns st. */
static wm_status take_error(wm_context_t *cx, int i, wm_status st, const char *word, size_t first,
                            int name_single) {
    char own[sizeof cx->errmsg];
    const char *msg = wm_context_errmsg(cx->sub[i]);
    snprintf(own, sizeof own, "%s", msg[0] ? msg : wm_strerror(st));
    char where[32];
    if (cx->backend == WM_BACKEND_CUDA) snprintf(where, sizeof where, "device %d: ", cx->shard->devices[i]);
    else snprintf(where, sizeof where, "shard %d: ", i);
    size_t idx, used;
    if (word && leading_index(own, word, &idx, &used))
        wm_context_set_error(cx, "%s %zu: %s%s", word, first + idx, where, own + used);
    else if (word && name_single)
        wm_context_set_error(cx, "%s %zu: %s%s", word, first, where, own);
    else
        wm_context_set_error(cx, "%s%s", where, own);
    return st;
}

/* The first sub on the calling thread, for calls that are not cut. */
static wm_context_t *first_sub(wm_context_t *cx) {
    wm_cuda_context_bind(cx->sub[0]);
    cx->sub[0]->errmsg[0] = 0;
    return cx->sub[0];
}

/* ---- texts: search, count, count per pattern -------------------------------------------- */

static size_t n_records(const wm_text_t *t) { return t->rec_start && t->n_rec ? t->n_rec : 1; }

static uint64_t rec_begin(const wm_text_t *t, size_t r) {
    return t->rec_start && t->n_rec ? t->rec_start[r] : 0;
}

static uint64_t rec_end(const wm_text_t *t, size_t r) {
    return r + 1 < n_records(t) ? t->rec_start[r + 1] : t->len;
}

/* The first record with ends past lo (rec_end > lo; lo < len). */
static size_t first_record(const wm_text_t *t, uint64_t lo) {
    size_t a = 0, b = n_records(t) - 1;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (rec_end(t, mid) > lo) b = mid;
        else a = mid + 1;
    }
    return a;
}

/* The last record that starts before hi (record 0 starts at 0 < hi). */
static size_t last_record(const wm_text_t *t, uint64_t hi) {
    size_t a = 0, b = n_records(t) - 1;
    while (a < b) {
        size_t mid = a + (b - a + 1) / 2;
        if (rec_begin(t, mid) < hi) a = mid;
        else b = mid - 1;
    }
    return a;
}

typedef struct {
    uint64_t lo, hi;           /* owned ends: lo < e <= hi (absolute)           */
    uint64_t w_lo;             /* the shard's text is seq[w_lo, hi)             */
    size_t r0;                 /* the global index of its first record          */
    uint64_t clip;             /* w_lo - start of record r0: the offset of local
                                  record 0 in its record                         */
    uint64_t *rs;              /* its record starts, from w_lo                   */
    wm_text_t text;
    wm_matchvec_t found;       /* listing, shards after the first: owned matches */
    int push_failed;
    uint64_t count;            /* counting                                       */
    uint64_t *counts;          /* counting per pattern                           */
    wm_status st;
} text_shard_t;

typedef struct {
    wm_context_t *cx;
    const wm_db_t *db;
    text_shard_t *sh;
    wm_match_cb cb;            /* the caller's; NULL when counting               */
    void *user;
    size_t n_patterns;         /* counting per pattern: entries of counts, else 0 */
    atomic_int user_stopped;   /* the caller's callback returned non-zero        */
    atomic_int first_failed;   /* the lowest shard that failed; n_sub: none      */
} text_job_t;

typedef struct {
    text_job_t *job;
    int i;
} collector_t;

/* Shard s's part of text t: the records that meet (lo, hi], the first one
** clipped to at most `halo` bytes before lo. Returns 0, or -1 out of memory. */
static int text_shard_layout(text_shard_t *s, const wm_text_t *t, uint64_t halo) {
    if (s->lo == s->hi) return 0;              /* owns nothing */
    size_t r0 = first_record(t, s->lo), r1 = last_record(t, s->hi);
    uint64_t b0 = rec_begin(t, r0);            /* <= lo: record r0 - 1 ends by lo */
    s->w_lo = s->lo - b0 > halo ? s->lo - halo : b0;
    s->r0 = r0;
    s->clip = s->w_lo - b0;
    size_t nr = r1 - r0 + 1;
    if (!(s->rs = malloc(nr * sizeof *s->rs))) return -1;
    s->rs[0] = 0;
    for (size_t j = 1; j < nr; j++) s->rs[j] = rec_begin(t, r0 + j) - s->w_lo;
    s->text = (wm_text_t){t->seq + s->w_lo, s->hi - s->w_lo, s->rs, nr};
    return 0;
}

/* A match of shard s's text in the whole text's coordinates; 0 when it ends
** in the halo (the shard before owns it). Only local record 0 has a halo:
** every later record starts after lo. */
static int to_global(const text_shard_t *s, const wm_match_t *m, wm_match_t *g) {
    *g = *m;
    g->record = s->r0 + m->record;
    if (m->record == 0) {
        if (s->w_lo + m->end <= s->lo) return 0;
        g->start += s->clip;
        g->end += s->clip;
    }
    return 1;
}

static void note_failure(text_job_t *J, int i) {
    int cur = atomic_load(&J->first_failed);
    while (i < cur && !atomic_compare_exchange_weak(&J->first_failed, &cur, i)) {}
}

/* The sub's callback: shard 0 hands owned matches straight to the caller
** (it runs on the caller's thread); the others keep theirs for later and
** stop early once nothing of theirs will be delivered. */
static int collect(const wm_match_t *m, void *arg) {
    collector_t *c = arg;
    text_job_t *J = c->job;
    text_shard_t *s = &J->sh[c->i];
    wm_match_t g;
    if (!to_global(s, m, &g)) return 0;
    if (c->i == 0) {
        if (!J->cb(&g, J->user)) return 0;
        atomic_store(&J->user_stopped, 1);
        return 1;
    }
    if (atomic_load(&J->user_stopped) || atomic_load(&J->first_failed) < c->i) return 1;
    if (wm_matchvec_push(&s->found, &g)) {
        s->push_failed = 1;
        return 1;
    }
    return 0;
}

/* Counting: the shard's text less its halo alone (the matches ending in
** the halo are exactly the halo's own, as they read nothing after it). */
static wm_status count_shard(text_job_t *J, int i) {
    text_shard_t *s = &J->sh[i];
    wm_context_t *sub = J->cx->sub[i];
    wm_text_t halo = {s->text.seq, s->lo - s->w_lo, NULL, 0};
    size_t np = J->n_patterns;
    wm_status st;
    if (np == 0) {
        st = wm_count(sub, J->db, &s->text, &s->count);
        if (st != WM_OK || halo.len == 0) return st;
        uint64_t in_halo = 0;
        set_muted(J->cx, i, 1);
        st = wm_count(sub, J->db, &halo, &in_halo);
        set_muted(J->cx, i, 0);
        s->count -= in_halo;
        return st;
    }
    uint64_t *in_halo = halo.len ? calloc(np, sizeof *in_halo) : NULL;
    if (!(s->counts = calloc(np, sizeof *s->counts)) || (halo.len && !in_halo)) {
        free(in_halo);
        return WM_NOMEM;
    }
    st = wm_count_per_pattern(sub, J->db, &s->text, s->counts);
    if (st == WM_OK && halo.len) {
        set_muted(J->cx, i, 1);
        st = wm_count_per_pattern(sub, J->db, &halo, in_halo);
        set_muted(J->cx, i, 0);
        for (size_t p = 0; p < np; p++) s->counts[p] -= in_halo[p];
    }
    free(in_halo);
    return st;
}

static void text_shard_run(void *arg, int i) {
    text_job_t *J = arg;
    text_shard_t *s = &J->sh[i];
    if (s->lo == s->hi) return;
    if (J->cb) {
        collector_t c = {J, i};
        s->st = wm_search(J->cx->sub[i], J->db, &s->text, collect, &c);
        if (s->push_failed) s->st = WM_NOMEM;
    } else {
        s->st = count_shard(J, i);
    }
    if (s->st < 0) note_failure(J, i);
}

/* Listing: shard 0 has delivered already; the others in order. A failed
** shard ends the call with its error after the matches before it. */
static wm_status deliver_in_order(text_job_t *J) {
    if (atomic_load(&J->user_stopped)) return WM_STOPPED;
    for (int i = 0; i < J->cx->n_sub; i++) {
        text_shard_t *s = &J->sh[i];
        if (s->st < 0) return take_error(J->cx, i, s->st, NULL, 0, 0);
        if (i == 0) continue;
        for (size_t x = 0; x < s->found.n; x++)
            if (J->cb(&s->found.a[x], J->user)) return WM_STOPPED;
    }
    return WM_OK;
}

static wm_status add_counts(text_job_t *J, uint64_t *n_matches, uint64_t *per_pattern) {
    for (int i = 0; i < J->cx->n_sub; i++)
        if (J->sh[i].st < 0) return take_error(J->cx, i, J->sh[i].st, NULL, 0, 0);
    uint64_t total = 0;
    for (int i = 0; i < J->cx->n_sub; i++) {
        const text_shard_t *s = &J->sh[i];
        if (s->lo == s->hi) continue;
        if (!J->n_patterns) {
            total += s->count;
            continue;
        }
        for (size_t p = 0; p < J->n_patterns; p++) {
            per_pattern[p] += s->counts[p];
            total += s->counts[p];
        }
    }
    if (n_matches) *n_matches = total;
    return WM_OK;
}

wm_status wm_shard_text(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        wm_match_cb cb, void *user, uint64_t *n_matches, uint64_t *per_pattern) {
    int n = cx->n_sub;
    text_job_t J;
    memset(&J, 0, sizeof J);
    J.cx = cx;
    J.db = db;
    J.cb = cb;
    J.user = user;
    J.n_patterns = per_pattern ? wm_db_pattern_count(db) : 0;
    atomic_init(&J.user_stopped, 0);
    atomic_init(&J.first_failed, n);
    wm_status st = WM_OK;
    if (!(J.sh = calloc((size_t)n, sizeof *J.sh))) return WM_NOMEM;
    uint64_t halo = wm_db_halo(db) + 1;        /* the longest occurrence */
    for (int i = 0; i < n && st == WM_OK; i++) {
        split(text->len, n, i, &J.sh[i].lo, &J.sh[i].hi);
        if (text_shard_layout(&J.sh[i], text, halo)) st = WM_NOMEM;
    }
    struct wm_shard_state *S = cx->shard;
    if (st == WM_OK && S->slot) {
        S->total = text->len;
        for (int i = 0; i < n; i++) {
            S->slot[i].halo = J.sh[i].lo - J.sh[i].w_lo;
            S->slot[i].own = J.sh[i].hi - J.sh[i].lo;
            S->slot[i].done = 0;
            S->slot[i].muted = 0;
        }
    }
    if (st == WM_OK) {
        run_shards(cx, text_shard_run, &J);
        st = cb ? deliver_in_order(&J) : add_counts(&J, n_matches, per_pattern);
    }
    for (int i = 0; i < n; i++) {
        free(J.sh[i].rs);
        free(J.sh[i].counts);
        wm_matchvec_free(&J.sh[i].found);
    }
    free(J.sh);
    return st;
}

/* ---- infix alignment ------------------------------------------------------------- */

typedef struct {
    uint64_t lo, hi;           /* owned ends: lo < e <= hi, and shard 0 owns 0 */
    uint64_t base;             /* the shard's target is target[base, hi)       */
    wm_alignments_t got;       /* its part of the answer, global coordinates:
                                  all at one distance                          */
    wm_status st;
} align_shard_t;

typedef struct {
    wm_context_t *cx;
    const uint8_t *query;
    size_t m;
    const uint8_t *target;
    const wm_align_opts_t *o;
    align_shard_t *sh;
} align_job_t;

static int owns_end(const align_shard_t *s, uint64_t e) {
    return (e > s->lo && e <= s->hi) || (s->lo == 0 && e == 0);
}

/* Keep the alignments of r from index `from` on, moved by `shift`. */
static void keep_from(wm_alignments_t *r, size_t from, uint64_t shift) {
    for (size_t x = 0; x < from; x++) free(r->a[x].cigar);
    memmove(r->a, r->a + from, (r->n - from) * sizeof *r->a);
    r->n -= from;
    for (size_t x = 0; x < r->n; x++) {
        r->a[x].start += shift;
        r->a[x].end += shift;
    }
}

static void align_shard_run(void *arg, int i) {
    align_job_t *J = arg;
    align_shard_t *s = &J->sh[i];
    if (i > 0 && s->lo == s->hi) return;        /* shard 0 runs even for n = 0: end 0 */
    const uint8_t *t = J->target ? J->target + s->base : NULL;
    s->st = wm_align(J->cx->sub[i], J->query, J->m, t, s->hi - s->base, J->o, &s->got);
    if (s->st != WM_OK || s->got.n == 0) return;
    /* Keep the owned ends: they come in increasing order, the halo's first.
    ** Without all_ends there is one end, so a best end in the halo leaves
    ** nothing, as it should (the file's head says why). */
    size_t x = 0;
    while (x < s->got.n && !owns_end(s, s->got.a[x].end + s->base)) x++;
    keep_from(&s->got, x, s->base);
}

/* The answer: the best distance over the shards' parts; without all_ends
** the part of the lowest shard that has it (its leftmost end), with
** all_ends every part at that distance, in shard order (= end order). */
static wm_status merge_alignments(align_job_t *J, wm_alignments_t *out) {
    int n = J->cx->n_sub;
    uint64_t best = UINT64_MAX;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        if (J->sh[i].got.n && J->sh[i].got.a[0].distance < best) best = J->sh[i].got.a[0].distance;
    for (int i = 0; i < n; i++)
        if (J->sh[i].got.n && J->sh[i].got.a[0].distance == best) total += J->sh[i].got.n;
    if (total == 0) return WM_OK;
    if (!J->o->all_ends) total = 1;
    if (!(out->a = malloc(total * sizeof *out->a))) return WM_NOMEM;
    for (int i = 0; i < n && out->n < total; i++) {
        wm_alignments_t *g = &J->sh[i].got;
        if (!g->n || g->a[0].distance != best) continue;
        memcpy(out->a + out->n, g->a, g->n * sizeof *g->a);   /* the CIGARs move too */
        out->n += g->n;
        free(g->a);
        g->a = NULL;
        g->n = 0;
    }
    return WM_OK;
}

wm_status wm_shard_align(wm_context_t *cx, const uint8_t *query, size_t m, const uint8_t *target,
                         uint64_t n, const wm_align_opts_t *o, wm_alignments_t *out) {
    if (o->mode == WM_ALIGN_GLOBAL) {          /* one pair: the first device */
        wm_status st = wm_align(first_sub(cx), query, m, target, n, o, out);
        return st == WM_OK ? st : take_error(cx, 0, st, NULL, 0, 0);
    }
    int ns = cx->n_sub;
    align_job_t J = {cx, query, m, target, o, NULL};
    if (!(J.sh = calloc((size_t)ns, sizeof *J.sh))) return WM_NOMEM;
    int64_t k = o->max_distance;
    uint64_t reach = m + ((k < 0 || (uint64_t)k > m) ? m : (uint64_t)k);
    for (int i = 0; i < ns; i++) {
        align_shard_t *s = &J.sh[i];
        split(n, ns, i, &s->lo, &s->hi);
        s->base = s->lo > reach ? s->lo - reach : 0;
    }
    run_shards(cx, align_shard_run, &J);
    wm_status st = WM_OK;
    for (int i = 0; i < ns && st == WM_OK; i++)
        if (J.sh[i].st != WM_OK) st = take_error(cx, i, J.sh[i].st, NULL, 0, 0);
    if (st == WM_OK) st = merge_alignments(&J, out);
    for (int i = 0; i < ns; i++) wm_alignments_free(&J.sh[i].got);
    free(J.sh);
    return st;
}

wm_status wm_shard_fr_info(wm_context_t *cx, const wm_align_opts_t *o, wm_fr_info_t *info) {
    wm_status st = wm_align_fr_info(first_sub(cx), o, info);
    return st == WM_OK ? st : take_error(cx, 0, st, NULL, 0, 0);
}

/* ---- lists: pairs, dtw queries ----------------------------------------------------- */

typedef struct {
    wm_context_t *cx;
    size_t n;                  /* items in the whole call                      */
    const wm_pair_t *pairs;    /* align_pairs                                  */
    const wm_align_opts_t *ao;
    wm_alignment_t *aout;
    const double *const *queries;   /* dtw_many                                */
    const size_t *lens;
    const double *series;
    uint64_t series_n;
    const wm_dtw_opts_t *dopts;
    wm_dtw_matches_t *dout;
    wm_status *st;             /* one per shard                                */
} list_job_t;

static void pairs_shard_run(void *arg, int i) {
    list_job_t *J = arg;
    uint64_t lo, hi;
    split(J->n, J->cx->n_sub, i, &lo, &hi);
    if (lo < hi)
        J->st[i] = wm_align_pairs(J->cx->sub[i], J->pairs + lo, (size_t)(hi - lo), J->ao,
                                  J->aout + lo);
}

static void dtw_shard_run(void *arg, int i) {
    list_job_t *J = arg;
    uint64_t lo, hi;
    split(J->n, J->cx->n_sub, i, &lo, &hi);
    if (lo < hi)
        J->st[i] = wm_dtw_many(J->cx->sub[i], J->queries + lo, J->lens + lo, (size_t)(hi - lo),
                               J->series, J->series_n, J->dopts, J->dout + lo);
}

/* Run a list job; on a failure, the lowest failing shard's status and its
** message, the item renumbered. */
static wm_status run_list(list_job_t *J, shard_fn fn, const char *word) {
    int n = J->cx->n_sub;
    if (!(J->st = calloc((size_t)n, sizeof *J->st))) return WM_NOMEM;
    run_shards(J->cx, fn, J);
    wm_status st = WM_OK;
    for (int i = 0; i < n && st == WM_OK; i++) {
        if (J->st[i] == WM_OK) continue;
        uint64_t lo, hi;
        split(J->n, n, i, &lo, &hi);
        st = take_error(J->cx, i, J->st[i], word, (size_t)lo, hi - lo == 1 && J->n > 1);
    }
    free(J->st);
    return st;
}

wm_status wm_shard_align_pairs(wm_context_t *cx, const wm_pair_t *pairs, size_t n_pairs,
                               const wm_align_opts_t *o, wm_alignment_t *out) {
    if (n_pairs == 0) return WM_OK;
    list_job_t J;
    memset(&J, 0, sizeof J);
    J.cx = cx;
    J.n = n_pairs;
    J.pairs = pairs;
    J.ao = o;
    J.aout = out;
    wm_status st = run_list(&J, pairs_shard_run, "pair");
    if (st != WM_OK) wm_alignment_clear(out, n_pairs);   /* nothing left allocated */
    return st;
}

wm_status wm_shard_dtw_many(wm_context_t *cx, const double *const *queries, const size_t *lens,
                            size_t n_queries, const double *series, uint64_t n,
                            const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    if (n_queries == 0) return WM_OK;
    list_job_t J;
    memset(&J, 0, sizeof J);
    J.cx = cx;
    J.n = n_queries;
    J.queries = queries;
    J.lens = lens;
    J.series = series;
    J.series_n = n;
    J.dopts = o;
    J.dout = out;
    wm_status st = run_list(&J, dtw_shard_run, "query");
    if (st != WM_OK)
        for (size_t q = 0; q < n_queries; q++) wm_dtw_matches_free(&out[q]);
    return st;
}
