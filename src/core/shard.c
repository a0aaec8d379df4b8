/*
** shard.c -- one call over several devices of one host (issue 7): the
** sub-contexts, running them at once, and the cuts core owns.
**
** A context made with n_devices > 1 owns that many ordinary contexts, its
** "subs" (one per CUDA device of the list, or CPU shards); a call that has
** work to cut is cut here, run on the subs at once (a host thread each, the
** first on the caller's own) and merged so that its output is byte for byte
** one device's. Each sub runs what one device runs (its GPU tables, its CPU
** pool, its fallbacks).
**
** Texts (search, count). The bytes are cut by core/plan.h's even plan into
** n_sub parts [lo, hi); part i owns the matches whose end e has lo < e <= hi.
** It scans the records that meet its part, the first one clipped to the
** database's halo before lo (never before the record's start), and tells the
** family's scan that the ends up to lo are not its own: each owned match
** comes out as a single run finds it (a match ending at e depends only on the
** halo + 1 bytes before e in its record), and counts need no correction.
** The parts are in text order and each one's matches come sorted by
** (record, end, pattern, strand), so their concatenation is the global order.
**
** Lists (pairs, dtw queries): contiguous ranges, one per sub. Infix
** alignment has a rule of its own (src/align/align_shard.c).
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/part.h"
#include "core/plan.h"
#include "core/shard.h"

/* A sub's progress during a text call: the bytes done of the part it owns
** (the families report progress over the ends they own, not their halo). */
typedef struct {
    wm_context_t *parent;
    uint64_t done;
} progress_slot_t;

struct wm_shard_state {
    int *devices;          /* the caller's list, copied */
    pthread_mutex_t mu;    /* one progress report at a time */
    uint64_t total;        /* bytes of the current call's text */
    progress_slot_t *slot; /* one per sub, when opts.progress */
};

/* ---- the context ----------------------------------------------------------------- */

static void on_sub_progress(uint64_t done, uint64_t total, void *user) {
    (void)total;
    progress_slot_t *p = user;
    wm_context_t *cx = p->parent;
    struct wm_shard_state *S = cx->shard;
    pthread_mutex_lock(&S->mu);
    p->done = done;
    uint64_t sum = 0;
    for (int i = 0; i < cx->n_sub; i++) sum += S->slot[i].done;
    cx->opts.progress(sum, S->total, cx->opts.progress_user);
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
    if (count == 0) return wm_cuda_context_init(cx); /* says why; allocates nothing */
    for (int i = 0; i < cx->opts.n_devices; i++) {
        int d = cx->shard->devices[i];
        if (d >= count) {
            wm_context_set_error(cx,
                                 "GPU %d is in the list of devices, but %d GPU%s found "
                                 "(ordinals 0 to %d)",
                                 d, count, count == 1 ? " was" : "s were", count - 1);
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
            cx->opts.devices = NULL; /* the caller's: not kept */
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
    if (want == WM_BACKEND_AUTO)
        want = wm_cuda_device_count() > 0 ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
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

typedef struct {
    wm_context_t *cx;
    wm_shard_fn fn;
    void *job;
    int i;
    int started;
    pthread_t tid;
} shard_thread_t;

static void run_one_shard(wm_context_t *cx, wm_shard_fn fn, void *job, int i) {
    wm_context_t *sub = cx->sub[i];
    wm_cuda_context_bind(sub); /* the runtime's device is per host thread */
    sub->errmsg[0] = 0;        /* not every call clears it */
    sub->tuning = cx->tuning;
    fn(job, i, sub);
}

static void *shard_main(void *arg) {
    shard_thread_t *t = arg;
    run_one_shard(t->cx, t->fn, t->job, t->i);
    return NULL;
}

/* A shard whose thread cannot be started runs here afterwards. */
void wm_shard_run(wm_context_t *cx, wm_shard_fn fn, void *job) {
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

wm_status wm_shard_error(wm_context_t *cx, int i, wm_status st, const char *word, size_t first,
                         int name_single) {
    char own[sizeof cx->errmsg];
    const char *msg = wm_context_errmsg(cx->sub[i]);
    snprintf(own, sizeof own, "%s", msg[0] ? msg : wm_strerror(st));
    char where[32];
    if (cx->backend == WM_BACKEND_CUDA)
        snprintf(where, sizeof where, "device %d: ", cx->shard->devices[i]);
    else snprintf(where, sizeof where, "shard %d: ", i);
    size_t idx, used;
    if (word && leading_index(own, word, &idx, &used))
        wm_context_set_error(cx, "%s %zu: %s%s", word, first + idx, where, own + used);
    else if (word && name_single) wm_context_set_error(cx, "%s %zu: %s%s", word, first, where, own);
    else wm_context_set_error(cx, "%s%s", where, own);
    return st;
}

wm_context_t *wm_shard_first(wm_context_t *cx) {
    wm_context_t *sub = cx->sub[0];
    wm_cuda_context_bind(sub);
    sub->errmsg[0] = 0;
    sub->tuning = cx->tuning;
    return sub;
}

/* ---- texts: search, count, count per pattern -------------------------------------------- */

typedef struct {
    wm_part_t part;      /* its owned ends and the text it scans */
    wm_matchvec_t found; /* listing, shards after the first: owned matches */
    int push_failed;
    uint64_t count;   /* counting */
    uint64_t *counts; /* counting per pattern */
    wm_status st;
} text_shard_t;

typedef struct {
    wm_context_t *cx;
    const wm_db_t *db;
    text_shard_t *sh;
    wm_match_cb cb; /* the caller's; NULL when counting */
    void *user;
    size_t n_patterns;       /* counting per pattern: entries of counts, else 0 */
    atomic_int user_stopped; /* the caller's callback returned non-zero */
    atomic_int first_failed; /* the lowest shard that failed; n_sub: none */
} text_job_t;

typedef struct {
    text_job_t *job;
    int i;
} collector_t;

static void note_failure(text_job_t *J, int i) {
    int cur = atomic_load(&J->first_failed);
    while (i < cur && !atomic_compare_exchange_weak(&J->first_failed, &cur, i)) {}
}

/* The sub's callback: shard 0 hands its matches straight to the caller (it
** runs on the caller's thread); the others keep theirs for later and stop
** early once nothing of theirs will be delivered. */
static int collect(const wm_match_t *m, void *arg) {
    collector_t *c = arg;
    text_job_t *J = c->job;
    text_shard_t *s = &J->sh[c->i];
    wm_match_t g = wm_part_to_global(&s->part, m);
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

static void text_shard_run(void *arg, int i, wm_context_t *sub) {
    text_job_t *J = arg;
    text_shard_t *s = &J->sh[i];
    if (s->part.lo == s->part.hi) return;
    uint64_t own_from = s->part.lo - s->part.w_lo;
    if (J->cb) {
        collector_t c = { J, i };
        s->st = J->db->ops->scan(sub, J->db, &s->part.text, own_from, collect, &c, NULL, NULL);
        if (s->push_failed) s->st = WM_NOMEM;
    } else {
        if (J->n_patterns && !(s->counts = calloc(J->n_patterns, sizeof *s->counts)))
            s->st = WM_NOMEM;
        else
            s->st = J->db->ops->scan(sub, J->db, &s->part.text, own_from, NULL, NULL, &s->count,
                                     s->counts);
    }
    if (s->st < 0) note_failure(J, i);
}

/* Listing: shard 0 has delivered already; the others in order. A failed
** shard ends the call with its error after the matches before it. */
static wm_status deliver_in_order(text_job_t *J) {
    if (atomic_load(&J->user_stopped)) return WM_STOPPED;
    for (int i = 0; i < J->cx->n_sub; i++) {
        text_shard_t *s = &J->sh[i];
        if (s->st < 0) return wm_shard_error(J->cx, i, s->st, NULL, 0, 0);
        if (i == 0) continue;
        if (wm_matchvec_deliver(&s->found, J->cb, J->user) != WM_OK) return WM_STOPPED;
    }
    return WM_OK;
}

static wm_status add_counts(text_job_t *J, uint64_t *n_matches, uint64_t *per_pattern) {
    for (int i = 0; i < J->cx->n_sub; i++)
        if (J->sh[i].st < 0) return wm_shard_error(J->cx, i, J->sh[i].st, NULL, 0, 0);
    uint64_t total = 0;
    for (int i = 0; i < J->cx->n_sub; i++) {
        const text_shard_t *s = &J->sh[i];
        total += s->count;
        for (size_t p = 0; s->counts && p < J->n_patterns; p++) per_pattern[p] += s->counts[p];
    }
    if (n_matches) *n_matches = total;
    return WM_OK;
}

wm_status wm_shard_text(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                        uint64_t *per_pattern) {
    int n = cx->n_sub;
    text_job_t J;
    memset(&J, 0, sizeof J);
    J.cx = cx;
    J.db = db;
    J.cb = cb;
    J.user = user;
    J.n_patterns = per_pattern ? db->n_patterns : 0;
    atomic_init(&J.user_stopped, 0);
    atomic_init(&J.first_failed, n);
    size_t n_rec;
    uint64_t *rs = wm_text_record_starts(text, &n_rec);
    if (!rs || !(J.sh = calloc((size_t)n, sizeof *J.sh))) {
        free(rs);
        return WM_NOMEM;
    }
    wm_status st = WM_OK;
    wm_plan_t plan = wm_plan_even(own_from, text->len, (uint64_t)n);
    for (int i = 0; i < n && st == WM_OK; i++) {
        uint64_t lo, hi;
        wm_plan_part(&plan, (uint64_t)i, &lo, &hi);
        if (wm_part_layout(&J.sh[i].part, text, rs, n_rec, lo, hi, db->halo)) st = WM_NOMEM;
    }
    struct wm_shard_state *S = cx->shard;
    if (st == WM_OK && S->slot) {
        S->total = text->len - own_from;
        for (int i = 0; i < n; i++) S->slot[i].done = 0;
    }
    if (st == WM_OK) {
        wm_shard_run(cx, text_shard_run, &J);
        st = cb ? deliver_in_order(&J) : add_counts(&J, n_matches, per_pattern);
    }
    for (int i = 0; i < n; i++) {
        wm_part_free(&J.sh[i].part);
        free(J.sh[i].counts);
        wm_matchvec_free(&J.sh[i].found);
    }
    free(J.sh);
    free(rs);
    return st;
}

/* ---- lists: pairs, dtw queries ----------------------------------------------------- */

typedef struct {
    wm_shard_list_fn fn;
    void *job;
    wm_plan_t plan;
    wm_status *st; /* one per shard */
} list_job_t;

static void list_shard_run(void *arg, int i, wm_context_t *sub) {
    list_job_t *J = arg;
    uint64_t lo, hi;
    wm_plan_part(&J->plan, (uint64_t)i, &lo, &hi);
    if (lo < hi) J->st[i] = J->fn(J->job, sub, (size_t)lo, (size_t)hi);
}

wm_status wm_shard_list(wm_context_t *cx, size_t n, wm_shard_list_fn fn, void *job,
                        const char *word) {
    int ns = cx->n_sub;
    list_job_t J = { fn, job, wm_plan_even(0, n, (uint64_t)ns), NULL };
    if (!(J.st = calloc((size_t)ns, sizeof *J.st))) return WM_NOMEM;
    wm_shard_run(cx, list_shard_run, &J);
    wm_status st = WM_OK;
    for (int i = 0; i < ns && st == WM_OK; i++) {
        if (J.st[i] == WM_OK) continue;
        uint64_t lo, hi;
        wm_plan_part(&J.plan, (uint64_t)i, &lo, &hi);
        st = wm_shard_error(cx, i, J.st[i], word, (size_t)lo, hi - lo == 1 && n > 1);
    }
    free(J.st);
    return st;
}
