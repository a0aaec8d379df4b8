/*
** context.c -- the library's contexts, made once and lent to calls.
**
** A context owns a thread pool (and, with CUDA, streams and device buffers),
** so making one per call would cost more than a small alignment. Contexts are
** kept per (backend, threads). A context serves one thread at a time, and the
** GIL is released while the library works, so a slot is marked busy while it
** is lent; a second Python thread that finds it busy gets a private context
** for its call. All bookkeeping runs with the GIL held, which is the lock.
**
** A process forked from one that holds contexts (multiprocessing's fork
** start method) inherits them without their worker threads: a call would
** wait for ever. Each slot remembers the process that made it; another
** process drops the slot (leaking the context: freeing it would join
** threads that do not exist there) and makes its own.
*/
#include "wmpy.h"

#include <string.h>
#include <unistd.h>

#define N_SLOTS 8

typedef struct {
    int used; /* the slot holds a context */
    int busy; /* lent to a call now */
    int backend, threads;
    pid_t pid; /* the process that made the context */
    wm_context_t *cx;
} slot_t;

static slot_t slots[N_SLOTS];

/* Make a context with the GIL released (starting threads or a GPU takes
** time). Returns 0, or -1 with the library's exception set. */
static int context_make(int backend, int threads, wm_context_t **out) {
    wm_context_opts_t o = wm_context_opts_default();
    o.backend = (wm_backend_t)backend;
    o.threads = threads;
    wm_context_t *cx = NULL;
    wm_status st;
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    st = wm_context_new(&o, &cx);
    PyEval_RestoreThread(released);
    if (st != WM_OK) {
        wmpy_raise(st, cx); /* cx may be set so that it can say why */
        wm_context_free(cx);
        return -1;
    }
    *out = cx;
    return 0;
}

int wmpy_ctx_get(int backend, int threads, wmpy_ctx *c) {
    if (backend < WM_BACKEND_AUTO || backend > WM_BACKEND_CUDA) {
        wmpy_invalid("unknown backend %d", backend);
        return -1;
    }
    if (threads < 0) {
        wmpy_invalid("threads must be >= 0 (0 = all cores), got %d", threads);
        return -1;
    }
    int free_slot = -1;
    pid_t pid = getpid();
    for (int i = 0; i < N_SLOTS; i++) {
        slot_t *s = &slots[i];
        if (s->used && s->pid != pid) memset(s, 0, sizeof *s); /* inherited by fork */
        if (!s->used) {
            if (free_slot < 0) free_slot = i;
            continue;
        }
        if (s->backend == backend && s->threads == threads && !s->busy) {
            s->busy = 1;
            c->cx = s->cx;
            c->slot = i;
            return 0;
        }
    }
    /* Reserve the free slot before releasing the GIL, so that no other
    ** thread fills it meanwhile. */
    if (free_slot >= 0) {
        slots[free_slot].used = 1;
        slots[free_slot].busy = 1;
        slots[free_slot].backend = backend;
        slots[free_slot].threads = threads;
        slots[free_slot].pid = pid;
    }
    wm_context_t *cx;
    if (context_make(backend, threads, &cx) < 0) {
        if (free_slot >= 0) memset(&slots[free_slot], 0, sizeof slots[free_slot]);
        return -1;
    }
    c->cx = cx;
    c->slot = free_slot;
    if (free_slot >= 0) slots[free_slot].cx = cx;
    return 0;
}

void wmpy_ctx_put(wmpy_ctx *c) {
    if (c->slot >= 0) slots[c->slot].busy = 0;
    else wm_context_free(c->cx);
    c->cx = NULL;
}

int wmpy_ctx_lent(void) {
    int n = 0;
    for (int i = 0; i < N_SLOTS; i++) n += slots[i].used && slots[i].busy;
    return n;
}
