/*
** search.c -- search() and search_set(): compile, search, collect the
** matches into one growing array of wm_match_t that becomes the numpy
** array's memory (viewed with MATCH_LAYOUT's dtype, no copy per match).
*/
#include "wmpy.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    wm_match_t *a;
    size_t n, cap;
    uint64_t limit; /* stop after this many; 0 = all */
    int nomem;
} sink_t;

/* A run of matches (wm_search_batches), copied whole. Runs on the calling
** thread without the GIL: plain C only. */
static int on_matches(const wm_match_t *m, size_t n, void *user) {
    sink_t *s = user;
    if (s->limit && n > s->limit - s->n) n = (size_t)(s->limit - s->n);
    if (s->n + n > s->cap) {
        size_t cap = s->cap ? s->cap : 1024;
        while (cap < s->n + n) cap *= 2;
        wm_match_t *a = realloc(s->a, cap * sizeof *a);
        if (!a) {
            s->nomem = 1;
            return 1;
        }
        s->a = a;
        s->cap = cap;
    }
    memcpy(s->a + s->n, m, n * sizeof *m);
    s->n += n;
    return s->limit && s->n >= s->limit;
}

/* The library leaves naming the pattern at fault to the caller. */
static PyObject *raise_set_error(wm_status st, const wmpy_seqs *pats, unsigned long k) {
    for (size_t i = 0; i < pats->n; i++) {
        if (st == WM_K_TOO_LARGE && pats->len[i] <= k)
            return wmpy_raise_msg(st, "k = %lu is not below the length of pattern %zu (%zu)", k,
                                  i, pats->len[i]);
        if (st == WM_PATTERN_EMPTY && pats->len[i] == 0)
            return wmpy_raise_msg(st, "pattern %zu is empty", i);
        if (st == WM_PATTERN_TOO_LONG && pats->len[i] > WM_MAX_PATTERN)
            return wmpy_raise_msg(st, "pattern %zu is %zu bytes, over the limit of %u bytes", i,
                                  pats->len[i], WM_MAX_PATTERN);
    }
    return wmpy_raise(st, NULL);
}

/* search(patterns, is_set, text, rec_start or None, k, metric, case_insensitive,
**        alphabet, revcomp, algo, backend, threads, limit)
** -> uint8 array of n * sizeof(wm_match_t) bytes */
PyObject *wmpy_search(PyObject *self, PyObject *args) {
    PyObject *pat_obj, *text_obj, *rec_obj;
    int is_set, metric, ci, alphabet, revcomp, algo, backend, threads;
    unsigned long k;
    unsigned long long limit;
    if (!PyArg_ParseTuple(args, "OpOOkiiiiiiiK", &pat_obj, &is_set, &text_obj, &rec_obj, &k,
                          &metric, &ci, &alphabet, &revcomp, &algo, &backend, &threads, &limit))
        return NULL;
    if (k > UINT32_MAX) return wmpy_invalid("k = %lu is too large", k);
    wm_opts_t o = wm_opts_default();
    o.max_edits = (uint32_t)k;
    o.metric = (wm_metric_t)metric;
    o.case_insensitive = ci;
    o.alphabet = (wm_alphabet_t)alphabet;
    o.revcomp = revcomp;
    o.algo = (wm_algo_t)algo;
    /* a set within k compiles on the threads the search may use */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.compile_threads = threads > 0 ? threads : cores > 0 ? (int)cores : 1;

    wmpy_bytes pat = { 0 }, text = { 0 };
    wmpy_seqs pats = { 0 };
    PyArrayObject *recs = NULL;
    wmpy_ctx c = { NULL, -1 };
    sink_t sink = { NULL, 0, 0, limit, 0 };
    PyObject *result = NULL;
    if (is_set ? wmpy_seqs_get(pat_obj, "patterns", &pats) < 0
               : wmpy_bytes_get(pat_obj, "pattern", &pat) < 0)
        return NULL;
    if (wmpy_bytes_get(text_obj, "text", &text) < 0) goto done;
    wm_text_t t = { text.p, text.n, NULL, 0 };
    if (rec_obj != Py_None) {
        recs = (PyArrayObject *)PyArray_FROMANY(rec_obj, NPY_UINT64, 1, 1, NPY_ARRAY_IN_ARRAY);
        if (!recs) goto done;
        t.rec_start = PyArray_DATA(recs);
        t.n_rec = (size_t)PyArray_SIZE(recs);
    }
    if (wmpy_ctx_get(backend, threads, &c) < 0) goto done;

    wm_db_t *db = NULL;
    wm_status st;
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    st = is_set ? wm_compile_set(pats.p, pats.len, pats.n, &o, &db)
                : wm_compile(pat.p, pat.n, &o, &db);
    if (st == WM_OK) st = wm_search_batches(c.cx, db, &t, on_matches, &sink);
    PyEval_RestoreThread(released);
    if (!db) {
        if (is_set) raise_set_error(st, &pats, k);
        else wmpy_raise(st, NULL);
        goto done;
    }
    wm_db_free(db);
    if (sink.nomem) {
        PyErr_NoMemory();
        goto done;
    }
    if (st != WM_OK && st != WM_STOPPED) {
        wmpy_raise(st, c.cx);
        goto done;
    }
    result = wmpy_wrap_buffer(sink.a, sink.n * sizeof(wm_match_t));
    sink.a = NULL; /* owned by result, or freed */
done:
    free(sink.a);
    if (c.cx) wmpy_ctx_put(&c);
    Py_XDECREF(recs);
    wmpy_bytes_release(&text);
    wmpy_bytes_release(&pat);
    wmpy_seqs_release(&pats);
    return result;
}
