/*
** dtw.c -- dtw(): one query against one series, both read in place when
** they are C-contiguous float64 arrays (any other array or list is converted
** to float64 once, since the library works in doubles).
*/
#include "wmpy.h"

#include <stdlib.h>
#include <string.h>

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

/* dtw(query, series, mode, cost, window, znorm, top, max_distance, length,
**     path, backend, threads)
** -> (uint8 array of n * 24 bytes: (start u8, end u8, distance f8) records,
**     list of paths or None) */
PyObject *wmpy_dtw(PyObject *self, PyObject *args) {
    PyObject *q_obj, *s_obj;
    int mode, cost, znorm, path, backend, threads;
    long long window;
    unsigned long long top, length;
    double max_distance;
    if (!PyArg_ParseTuple(args, "OOiiLpKdKpii", &q_obj, &s_obj, &mode, &cost, &window, &znorm, &top,
                          &max_distance, &length, &path, &backend, &threads))
        return NULL;
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = (wm_dtw_mode_t)mode;
    o.cost = (wm_dtw_cost_t)cost;
    o.window = window;
    o.znorm = znorm;
    o.top = top;
    o.max_distance = max_distance;
    o.length = length;
    o.path = path;

    PyArrayObject *q = NULL, *s = NULL;
    wmpy_ctx c = { NULL, -1 };
    wm_dtw_matches_t out = { NULL, 0 };
    PyObject *result = NULL, *paths = NULL;
    dtw_record_t *recs = NULL;
    if (!(q = as_doubles(q_obj)) || !(s = as_doubles(s_obj))) goto done;
    if (wmpy_ctx_get(backend, threads, &c) < 0) goto done;
    wm_status st;
    const double *qp = PyArray_DATA(q), *sp = PyArray_DATA(s);
    size_t m = (size_t)PyArray_SIZE(q);
    uint64_t n = (uint64_t)PyArray_SIZE(s);
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    st = wm_dtw(c.cx, qp, m, sp, n, &o, &out);
    PyEval_RestoreThread(released);
    if (st != WM_OK) {
        wmpy_raise(st, c.cx);
        goto done;
    }
    recs = malloc((out.n ? out.n : 1) * sizeof *recs);
    if (!recs) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < out.n; i++)
        recs[i] = (dtw_record_t){ out.a[i].start, out.a[i].end, out.a[i].distance };
    paths = Py_None;
    Py_INCREF(paths);
    if (path) {
        Py_DECREF(paths);
        paths = PyList_New((Py_ssize_t)out.n);
        for (size_t i = 0; paths && i < out.n; i++) {
            PyObject *p = path_array(&out.a[i]);
            if (!p) Py_CLEAR(paths);
            else PyList_SET_ITEM(paths, (Py_ssize_t)i, p);
        }
        if (!paths) goto done;
    }
    PyObject *arr = wmpy_wrap_buffer(recs, out.n * sizeof *recs);
    recs = NULL; /* owned by arr, or freed */
    if (!arr) goto done;
    result = Py_BuildValue("(NO)", arr, paths);
done:
    free(recs);
    Py_XDECREF(paths);
    wm_dtw_matches_free(&out);
    if (c.cx) wmpy_ctx_put(&c);
    Py_XDECREF(s);
    Py_XDECREF(q);
    return result;
}
