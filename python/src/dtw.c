/*
** dtw.c -- dtw() and dtw_many(): queries against one series, each read in
** place when it is a C-contiguous float64 array (any other array or list is
** converted to float64 once, since the library works in doubles).
*/
#include "wmpy.h"

#include <stdlib.h>
#include <string.h>

static PyArrayObject *as_doubles(PyObject *o);

/* Signals from a sequence of 1-D numeric arrays or a 2-D array (its rows):
** each as float64, read in place when it already is one (C-contiguous), the
** arrays made here kept in *held (a new list). *ptr and *len are PyMem
** blocks of *n entries. Returns 0, or -1 with an exception set. */
static int signals_of(PyObject *obj, const char *what, PyObject **held, const double ***ptr,
                      size_t **len, size_t *n) {
    *held = NULL;
    *ptr = NULL;
    *len = NULL;
    *n = 0;
    if (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) == 2) {
        PyArrayObject *m = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 2, 2,
                                                            NPY_ARRAY_IN_ARRAY);
        if (!m) return -1;
        size_t rows = (size_t)PyArray_DIM(m, 0), cols = (size_t)PyArray_DIM(m, 1);
        *held = PyList_New(1);
        *ptr = PyMem_Malloc((rows ? rows : 1) * sizeof **ptr);
        *len = PyMem_Malloc((rows ? rows : 1) * sizeof **len);
        if (!*held || !*ptr || !*len) {
            Py_DECREF(m);
            if (*held) PyErr_NoMemory();
            return -1;
        }
        PyList_SET_ITEM(*held, 0, (PyObject *)m);
        for (size_t i = 0; i < rows; i++) {
            (*ptr)[i] = (const double *)PyArray_DATA(m) + i * cols;
            (*len)[i] = cols;
        }
        *n = rows;
        return 0;
    }
    PyObject *items = PySequence_Fast(obj, what);
    if (!items) return -1;
    size_t cnt = (size_t)PySequence_Fast_GET_SIZE(items);
    *held = PyList_New((Py_ssize_t)cnt);
    *ptr = PyMem_Malloc((cnt ? cnt : 1) * sizeof **ptr);
    *len = PyMem_Malloc((cnt ? cnt : 1) * sizeof **len);
    int rc = *held && *ptr && *len ? 0 : -1;
    if (rc < 0 && *held) PyErr_NoMemory();
    for (size_t i = 0; rc == 0 && i < cnt; i++) {
        PyArrayObject *q = as_doubles(PySequence_Fast_GET_ITEM(items, (Py_ssize_t)i));
        if (!q) {
            rc = -1;
            break;
        }
        PyList_SET_ITEM(*held, (Py_ssize_t)i, (PyObject *)q);
        (*ptr)[i] = PyArray_DATA(q);
        (*len)[i] = (size_t)PyArray_SIZE(q);
    }
    Py_DECREF(items);
    *n = cnt;
    return rc;
}

/* One match as the numpy record (start, end, distance). */
typedef struct {
    uint64_t start, end;
    double distance;
} dtw_record_t;

static PyArrayObject *as_doubles(PyObject *o) {
    /* The same array when it is already contiguous float64: zero copy. */
    return (PyArrayObject *)PyArray_FROMANY(o, NPY_DOUBLE, 1, 1, NPY_ARRAY_IN_ARRAY);
}

/* A path as an (L, 2) uint64 array of (query index, series index). */
static PyObject *path_array(const wm_dtw_match_t *m) {
    npy_intp dims[2] = { (npy_intp)m->path_len, 2 };
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_UINT64);
    if (arr && m->path_len)
        memcpy(PyArray_DATA((PyArrayObject *)arr), m->path, 2 * m->path_len * sizeof(uint64_t));
    return arr;
}

/* The options both calls take, in the order __init__.py passes them. */
#define DTW_OPTS_FORMAT "iiLpKdKpiii"
typedef struct {
    int mode, cost, znorm, path, backend, threads, precision;
    long long window;
    unsigned long long top, length;
    double max_distance;
} dtw_args_t;

static wm_dtw_opts_t dtw_opts(const dtw_args_t *a) {
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = (wm_dtw_mode_t)a->mode;
    o.cost = (wm_dtw_cost_t)a->cost;
    o.window = a->window;
    o.znorm = a->znorm;
    o.top = a->top;
    o.max_distance = a->max_distance;
    o.length = a->length;
    o.path = a->path;
    o.precision = (wm_dtw_precision_t)a->precision;
    return o;
}

/* One query's matches as (uint8 array of (start, end, distance) records,
** list of paths or None). */
static PyObject *matches_tuple(const wm_dtw_matches_t *out, int with_paths) {
    dtw_record_t *recs = malloc((out->n ? out->n : 1) * sizeof *recs);
    if (!recs) return PyErr_NoMemory();
    for (size_t i = 0; i < out->n; i++)
        recs[i] = (dtw_record_t){ out->a[i].start, out->a[i].end, out->a[i].distance };
    PyObject *arr = wmpy_wrap_buffer(recs, out->n * sizeof *recs); /* owns recs */
    if (!arr) return NULL;
    PyObject *paths = Py_None;
    Py_INCREF(paths);
    if (with_paths) {
        Py_DECREF(paths);
        paths = PyList_New((Py_ssize_t)out->n);
        for (size_t i = 0; paths && i < out->n; i++) {
            PyObject *p = path_array(&out->a[i]);
            if (!p) Py_CLEAR(paths);
            else PyList_SET_ITEM(paths, (Py_ssize_t)i, p);
        }
        if (!paths) {
            Py_DECREF(arr);
            return NULL;
        }
    }
    return Py_BuildValue("(NN)", arr, paths);
}

/* dtw(query, series, mode, cost, window, znorm, top, max_distance, length,
**     path, backend, threads)
** -> (uint8 array of n * 24 bytes: (start u8, end u8, distance f8) records,
**     list of paths or None) */
PyObject *wmpy_dtw(PyObject *self, PyObject *args) {
    PyObject *q_obj, *s_obj;
    dtw_args_t a;
    if (!PyArg_ParseTuple(args, "OO" DTW_OPTS_FORMAT, &q_obj, &s_obj, &a.mode, &a.cost, &a.window,
                          &a.znorm, &a.top, &a.max_distance, &a.length, &a.path, &a.backend,
                          &a.threads, &a.precision))
        return NULL;
    wm_dtw_opts_t o = dtw_opts(&a);
    PyArrayObject *q = NULL, *s = NULL;
    wmpy_ctx c = { NULL, -1 };
    wm_dtw_matches_t out = { NULL, 0 };
    PyObject *result = NULL;
    if (!(q = as_doubles(q_obj)) || !(s = as_doubles(s_obj))) goto done;
    if (wmpy_ctx_get(a.backend, a.threads, &c) < 0) goto done;
    const double *qp = PyArray_DATA(q), *sp = PyArray_DATA(s);
    size_t m = (size_t)PyArray_SIZE(q);
    uint64_t n = (uint64_t)PyArray_SIZE(s);
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    wm_status st = wm_dtw(c.cx, qp, m, sp, n, &o, &out);
    PyEval_RestoreThread(released);
    if (st != WM_OK) wmpy_raise(st, c.cx);
    else result = matches_tuple(&out, a.path);
done:
    wm_dtw_matches_free(&out);
    if (c.cx) wmpy_ctx_put(&c);
    Py_XDECREF(s);
    Py_XDECREF(q);
    return result;
}

/* dtw_many(queries, series, <the options of dtw>)
** -> list of what dtw returns, one per query */
PyObject *wmpy_dtw_many(PyObject *self, PyObject *args) {
    PyObject *qs_obj, *s_obj;
    dtw_args_t a;
    if (!PyArg_ParseTuple(args, "OO" DTW_OPTS_FORMAT, &qs_obj, &s_obj, &a.mode, &a.cost, &a.window,
                          &a.znorm, &a.top, &a.max_distance, &a.length, &a.path, &a.backend,
                          &a.threads, &a.precision))
        return NULL;
    wm_dtw_opts_t o = dtw_opts(&a);
    PyArrayObject *s = NULL;
    PyObject *held = NULL, *result = NULL;
    const double **qp = NULL;
    size_t *lens = NULL, nq = 0;
    wm_dtw_matches_t *out = NULL;
    wmpy_ctx c = { NULL, -1 };
    if (signals_of(qs_obj, "queries must be a list of 1-D numeric arrays", &held, &qp, &lens,
                   &nq) < 0)
        goto done;
    if (!(out = calloc(nq ? nq : 1, sizeof *out))) {
        PyErr_NoMemory();
        goto done;
    }
    if (!(s = as_doubles(s_obj))) goto done;
    if (wmpy_ctx_get(a.backend, a.threads, &c) < 0) goto done;
    wm_status st = WM_OK;
    if (nq > 0) {
        const double *sp = PyArray_DATA(s);
        uint64_t n = (uint64_t)PyArray_SIZE(s);
        PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
        st = wm_dtw_many(c.cx, qp, lens, nq, sp, n, &o, out);
        PyEval_RestoreThread(released);
    }
    if (st != WM_OK) {
        wmpy_raise(st, c.cx);
        goto done;
    }
    result = PyList_New((Py_ssize_t)nq);
    for (size_t i = 0; result && i < nq; i++) {
        PyObject *one = matches_tuple(&out[i], a.path);
        if (!one) Py_CLEAR(result);
        else PyList_SET_ITEM(result, (Py_ssize_t)i, one);
    }
done:
    for (size_t i = 0; out && i < nq; i++) wm_dtw_matches_free(&out[i]);
    free(out);
    PyMem_Free(lens);
    PyMem_Free(qp);
    if (c.cx) wmpy_ctx_put(&c);
    Py_XDECREF(s);
    Py_XDECREF(held);
    return result;
}

/* dtw_matrix(a, b or None, cost, window, znorm, backend, threads, precision)
** -> float64 array (len(a), len(b)) (b None: (len(a), len(a))); float32
** distances (precision 1) are floats in it, which __init__.py narrows */
PyObject *wmpy_dtw_matrix(PyObject *self, PyObject *args) {
    PyObject *a_obj, *b_obj, *ha = NULL, *hb = NULL, *result = NULL;
    int cost, znorm, backend, threads, precision;
    long long window;
    if (!PyArg_ParseTuple(args, "OOiLpiii", &a_obj, &b_obj, &cost, &window, &znorm, &backend,
                          &threads, &precision))
        return NULL;
    const double **ap = NULL, **bp = NULL;
    size_t *al = NULL, *bl = NULL, na = 0, nb = 0;
    wmpy_ctx c = { NULL, -1 };
    const char *what = "signals must be a 2-D array or a list of 1-D numeric arrays";
    if (signals_of(a_obj, what, &ha, &ap, &al, &na) < 0) goto done;
    if (b_obj != Py_None && signals_of(b_obj, what, &hb, &bp, &bl, &nb) < 0) goto done;
    if (b_obj == Py_None) nb = na;
    npy_intp dims[2] = { (npy_intp)na, (npy_intp)nb };
    if (!(result = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0))) goto done;
    if (wmpy_ctx_get(backend, threads, &c) < 0) {
        Py_CLEAR(result);
        goto done;
    }
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = WM_DTW_GLOBAL;
    o.cost = (wm_dtw_cost_t)cost;
    o.window = window;
    o.znorm = znorm;
    o.precision = (wm_dtw_precision_t)precision;
    double *out = PyArray_DATA((PyArrayObject *)result);
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    wm_status st = b_obj == Py_None ? wm_dtw_matrix(c.cx, ap, al, na, NULL, NULL, 0, &o, out)
                                    : wm_dtw_matrix(c.cx, ap, al, na, bp, bl, nb, &o, out);
    PyEval_RestoreThread(released);
    if (st != WM_OK) {
        wmpy_raise(st, c.cx);
        Py_CLEAR(result);
    }
done:
    if (c.cx) wmpy_ctx_put(&c);
    PyMem_Free(ap), PyMem_Free(al), PyMem_Free(bp), PyMem_Free(bl);
    Py_XDECREF(ha);
    Py_XDECREF(hb);
    return result;
}
