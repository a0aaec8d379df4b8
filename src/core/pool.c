/*
** pool.c -- a fixed thread pool with one operation, a parallel for loop
** (as minimap2's kt_for): workers take indices from a shared counter, so
** uneven items balance themselves. The calling thread works too.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/internal.h"

struct wm_pool {
    int n; /* threads including the caller */
    pthread_t *tid;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t generation; /* bumped for every new loop */
    int busy;            /* workers still in this loop */
    int quit;
    void (*fn)(void *, size_t, int);
    void *arg;
    size_t n_items;
    atomic_size_t next;
    int in_loop; /* the caller is inside wm_pool_for (read and set by it alone) */
};

typedef struct {
    wm_pool_t *p;
    int id;
} worker_arg_t;

static void run_items(wm_pool_t *p, int id) {
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n_items) break;
        p->fn(p->arg, i, id);
    }
}

static void *worker(void *a) {
    worker_arg_t *wa = a;
    wm_pool_t *p = wa->p;
    int id = wa->id;
    free(wa);
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        run_items(p, id);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

wm_pool_t *wm_pool_new(int n_threads) {
    if (n_threads < 1) n_threads = 1;
    wm_pool_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n_threads;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->tid = calloc((size_t)n_threads, sizeof *p->tid);
    if (!p->tid) {
        free(p);
        return NULL;
    }
    for (int i = 1; i < n_threads; i++) {
        worker_arg_t *wa = malloc(sizeof *wa);
        if (!wa) {
            p->n = i;
            break;
        }
        wa->p = p;
        wa->id = i;
        if (pthread_create(&p->tid[i], NULL, worker, wa) != 0) {
            free(wa);
            p->n = i;
            break;
        }
    }
    return p;
}

int wm_pool_size(const wm_pool_t *p) { return p ? p->n : 1; }

void wm_pool_for(wm_pool_t *p, size_t n, void (*fn)(void *, size_t, int), void *arg) {
    if (n == 0) return;
    /* Nested: the caller's item of a loop called back into the library on
    ** this context (a match callback runs inside a loop while the next wave
    ** scans, core/waves.c). The workers are busy with the outer loop, so
    ** the inner one runs here, item by item. */
    if (!p || p->n == 1 || n == 1 || p->in_loop) {
        for (size_t i = 0; i < n; i++) fn(arg, i, 0);
        return;
    }
    p->in_loop = 1;
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->n_items = n;
    atomic_store(&p->next, 0);
    p->busy = p->n - 1;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_items(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    p->in_loop = 0;
}

void wm_pool_free(wm_pool_t *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->n; i++) pthread_join(p->tid[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->tid);
    free(p);
}
