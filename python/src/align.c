/*
** align.c -- align() and align_pairs(). One pair returns Python objects;
** a batch returns the library's own array of wm_alignment_t as the numpy
** array's memory (viewed with ALIGN_LAYOUT's dtype) and its CIGARs as a
** list of str, made after the call because making them needs the GIL;
** align_pairs_packed() takes columns and returns the library's result
** columns as the arrays' memory, with no object a pair.
*/
#include "wmpy.h"

#include <stdlib.h>
#include <string.h>

/* The options both calls take, in the order __init__.py passes them. */
typedef struct {
    int mode, algo, cigar, ci, alphabet, all_ends, fr_t;
    long long k;
} align_args_t;

static wm_align_opts_t align_opts(const align_args_t *a) {
    wm_align_opts_t o = wm_align_opts_default();
    o.mode = (wm_align_mode_t)a->mode;
    o.algo = (wm_align_algo_t)a->algo;
    o.max_distance = a->k;
    o.cigar = a->cigar;
    o.case_insensitive = a->ci;
    o.alphabet = (wm_alphabet_t)a->alphabet;
    o.all_ends = a->all_ends;
    o.fr_t = a->fr_t;
    return o;
}

static PyObject *cigar_str(const char *cigar) {
    if (!cigar) Py_RETURN_NONE;
    return PyUnicode_FromString(cigar);
}

/* align(query, target, mode, algo, k, cigar, case_insensitive, alphabet,
**       fr_t, all_ends, backend, threads)
** -> list of (distance, start, end, cigar or None); empty when over k */
PyObject *wmpy_align(PyObject *self, PyObject *args) {
    PyObject *q_obj, *t_obj;
    align_args_t a;
    int backend, threads;
    if (!PyArg_ParseTuple(args, "OOiiLppiipii", &q_obj, &t_obj, &a.mode, &a.algo, &a.k, &a.cigar,
                          &a.ci, &a.alphabet, &a.fr_t, &a.all_ends, &backend, &threads))
        return NULL;
    wm_align_opts_t o = align_opts(&a);
    wmpy_bytes q, t = { 0 };
    wmpy_ctx c = { NULL, -1 };
    wm_alignments_t out = { NULL, 0 };
    PyObject *result = NULL;
    if (wmpy_bytes_get(q_obj, "query", &q) < 0) return NULL;
    if (wmpy_bytes_get(t_obj, "target", &t) < 0) goto done;
    if (wmpy_ctx_get(backend, threads, &c) < 0) goto done;
    wm_status st;
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    st = wm_align(c.cx, q.p, q.n, t.p, t.n, &o, &out);
    PyEval_RestoreThread(released);
    if (st != WM_OK) {
        wmpy_raise(st, c.cx);
        goto done;
    }
    result = PyList_New((Py_ssize_t)out.n);
    for (size_t i = 0; result && i < out.n; i++) {
        const wm_alignment_t *al = &out.a[i];
        PyObject *item =
            Py_BuildValue("(KKKN)", (unsigned long long)al->distance, (unsigned long long)al->start,
                          (unsigned long long)al->end, cigar_str(al->cigar));
        if (!item) Py_CLEAR(result);
        else PyList_SET_ITEM(result, (Py_ssize_t)i, item);
    }
done:
    wm_alignments_free(&out);
    if (c.cx) wmpy_ctx_put(&c);
    wmpy_bytes_release(&t);
    wmpy_bytes_release(&q);
    return result;
}

/* CIGARs of a batch as a list (None for a pair over k); frees them and keeps
** the other fields (wm_alignment_clear zeroes the whole struct, so each is
** cleared alone and its numbers put back). */
static PyObject *take_cigars(wm_alignment_t *out, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *s = cigar_str(out[i].cigar);
        if (!s) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    for (size_t i = 0; i < n; i++) {
        wm_alignment_t keep = out[i];
        wm_alignment_clear(&out[i], 1);
        out[i] = (wm_alignment_t){ keep.distance, keep.start, keep.end, NULL };
    }
    return list;
}

/* align_pairs(queries, targets, mode, algo, k, cigar, case_insensitive,
**             alphabet, fr_t, backend, threads)
** -> (uint8 array of n * sizeof(wm_alignment_t) bytes, list of CIGARs or None) */
PyObject *wmpy_align_pairs(PyObject *self, PyObject *args) {
    PyObject *q_obj, *t_obj;
    align_args_t a = { 0 };
    int backend, threads;
    if (!PyArg_ParseTuple(args, "OOiiLppiiii", &q_obj, &t_obj, &a.mode, &a.algo, &a.k, &a.cigar,
                          &a.ci, &a.alphabet, &a.fr_t, &backend, &threads))
        return NULL;
    wm_align_opts_t o = align_opts(&a);
    wmpy_seqs qs, ts = { 0 };
    wmpy_ctx c = { NULL, -1 };
    wm_pair_t *pairs = NULL;
    wm_alignment_t *out = NULL;
    PyObject *result = NULL;
    if (wmpy_seqs_get(q_obj, "queries", &qs) < 0) return NULL;
    if (wmpy_seqs_get(t_obj, "targets", &ts) < 0) goto done;
    if (qs.n != ts.n) {
        wmpy_invalid("%zu queries but %zu targets: align_pairs needs one target per query", qs.n,
                     ts.n);
        goto done;
    }
    size_t n = qs.n;
    pairs = malloc((n ? n : 1) * sizeof *pairs);
    out = calloc(n ? n : 1, sizeof *out);
    if (!pairs || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < n; i++) pairs[i] = (wm_pair_t){ qs.p[i], qs.len[i], ts.p[i], ts.len[i] };
    if (wmpy_ctx_get(backend, threads, &c) < 0) goto done;
    wm_status st = WM_OK;
    if (n > 0) {
        PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
        st = wm_align_pairs(c.cx, pairs, n, &o, out);
        PyEval_RestoreThread(released);
    }
    if (st != WM_OK) {
        wmpy_raise(st, c.cx);
        goto done;
    }
    PyObject *cigars = Py_None;
    Py_INCREF(cigars);
    if (a.cigar) {
        Py_DECREF(cigars);
        if (!(cigars = take_cigars(out, n))) goto done;
    }
    PyObject *arr = wmpy_wrap_buffer(out, n * sizeof *out);
    out = NULL; /* owned by arr, or freed */
    if (!arr) {
        Py_DECREF(cigars);
        goto done;
    }
    result = Py_BuildValue("(NN)", arr, cigars);
done:
    if (out) wm_alignment_clear(out, qs.n == ts.n ? qs.n : 0);
    free(out);
    free(pairs);
    if (c.cx) wmpy_ctx_put(&c);
    wmpy_seqs_release(&ts);
    wmpy_seqs_release(&qs);
    return result;
}

/* Offsets: a 1-D array of n + 1 integers: uint64 read in place, any other
** integer dtype (or a list) as int64 with no negative value; the last at
** most `bytes`. Read by the library as uint64 either way. */
static int any_negative(const int64_t *v, npy_intp n) {
    int64_t all = 0;
    for (npy_intp i = 0; i < n; i++) all |= v[i];
    return all < 0;
}

static PyArrayObject *offsets_get(PyObject *o, const char *what, size_t bytes) {
    int u64 = PyArray_Check(o) && PyArray_DESCR((PyArrayObject *)o)->type_num == NPY_UINT64;
    PyArrayObject *in = (PyArrayObject *)PyArray_FROMANY(o, u64 ? NPY_UINT64 : NPY_INT64, 1, 1,
                                                         NPY_ARRAY_IN_ARRAY);
    if (!in) return NULL;
    npy_intp n = PyArray_DIM(in, 0);
    const int64_t *v = (const int64_t *)PyArray_DATA(in);
    const uint64_t *uv = (const uint64_t *)PyArray_DATA(in);
    if (n < 1) {
        wmpy_invalid("%s: need n + 1 offsets (at least one), got none", what);
    } else if (!u64 && any_negative(v, n)) {
        wmpy_invalid("%s: an offset is negative", what);
    } else if (uv[n - 1] > bytes) {
        wmpy_invalid("%s: the last offset, %llu, is past the end of the buffer (%zu bytes)", what,
                     (unsigned long long)uv[n - 1], bytes);
    } else {
        return in; /* offsets that decrease: the library names the pair */
    }
    Py_DECREF(in);
    return NULL;
}

/* align_pairs_packed(queries, query_offsets, targets, target_offsets, mode,
**                    algo, k, cigar, case_insensitive, alphabet, fr_t,
**                    backend, threads)
** -> (distance, start, end, cigar_offsets or None, cigar or None): uint8
**    arrays over the library's own columns (__init__.py views them). */
PyObject *wmpy_align_pairs_packed(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *qb_obj, *qo_obj, *tb_obj, *to_obj;
    align_args_t a = { 0 };
    int backend, threads;
    if (!PyArg_ParseTuple(args, "OOOOiiLppiiii", &qb_obj, &qo_obj, &tb_obj, &to_obj, &a.mode,
                          &a.algo, &a.k, &a.cigar, &a.ci, &a.alphabet, &a.fr_t, &backend,
                          &threads))
        return NULL;
    wm_align_opts_t o = align_opts(&a);
    wmpy_bytes qb, tb = { 0 };
    PyArrayObject *qo = NULL, *to = NULL;
    wmpy_ctx c = { NULL, -1 };
    PyObject *result = NULL;
    wm_pair_results_t res;
    memset(&res, 0, sizeof res);
    if (wmpy_bytes_get(qb_obj, "queries", &qb) < 0) return NULL;
    if (wmpy_bytes_get(tb_obj, "targets", &tb) < 0) goto done;
    if (!(qo = offsets_get(qo_obj, "query_offsets", qb.n))) goto done;
    if (!(to = offsets_get(to_obj, "target_offsets", tb.n))) goto done;
    if (PyArray_DIM(qo, 0) != PyArray_DIM(to, 0)) {
        wmpy_invalid("%zd query offsets but %zd target offsets: one pair each",
                     (Py_ssize_t)PyArray_DIM(qo, 0), (Py_ssize_t)PyArray_DIM(to, 0));
        goto done;
    }
    wm_pairs_packed_t in = { (size_t)PyArray_DIM(qo, 0) - 1, qb.p,
                             (const uint64_t *)PyArray_DATA(qo), tb.p,
                             (const uint64_t *)PyArray_DATA(to) };
    if (wmpy_ctx_get(backend, threads, &c) < 0) goto done;
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    wm_status st = wm_align_pairs_packed(c.cx, &in, &o, &res);
    PyEval_RestoreThread(released);
    if (st != WM_OK) {
        wmpy_raise(st, c.cx);
        goto done;
    }
    /* each column's memory goes to its array, which frees it */
    size_t n = res.n;
    size_t cbytes = res.cigar_off ? (size_t)res.cigar_off[n] : 0;
    PyObject *dist = wmpy_wrap_buffer(res.distance, n * 8);
    PyObject *start = wmpy_wrap_buffer(res.start, n * 8);
    PyObject *end = wmpy_wrap_buffer(res.end, n * 8);
    PyObject *coff = res.cigar_off ? wmpy_wrap_buffer(res.cigar_off, (n + 1) * 8) : Py_None;
    PyObject *cig = res.cigar ? wmpy_wrap_buffer(res.cigar, cbytes) : Py_None;
    memset(&res, 0, sizeof res);
    if (coff == Py_None) Py_INCREF(coff);
    if (cig == Py_None) Py_INCREF(cig);
    if (dist && start && end && coff && cig) {
        result = Py_BuildValue("(NNNNN)", dist, start, end, coff, cig);
    } else {
        Py_XDECREF(dist);
        Py_XDECREF(start);
        Py_XDECREF(end);
        Py_XDECREF(coff);
        Py_XDECREF(cig);
    }
done:
    wm_pair_results_free(&res);
    if (c.cx) wmpy_ctx_put(&c);
    Py_XDECREF(qo);
    Py_XDECREF(to);
    wmpy_bytes_release(&tb);
    wmpy_bytes_release(&qb);
    return result;
}
