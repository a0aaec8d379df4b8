/*
** inputs.c -- bytes out of Python objects, held while the GIL is released.
**
** The library reads the caller's bytes in place: bytes and ASCII str are
** immutable, so a reference is enough; a bytearray or another exporter is held
** through a Py_buffer (which stops a resize while the library reads); a numpy
** array is used in place when contiguous and copied once when not. A str must
** be ASCII: offsets and distances count bytes, and a non-ASCII character would
** be several bytes, silently changing both.
*/
#include "wmpy.h"

#include <string.h>

/* A numpy array of one-byte items: uint8, int8, bool or S1 (1-D). */
static int array_bytes(PyArrayObject *a, const char *what, wmpy_bytes *b) {
    if (PyArray_ITEMSIZE(a) != 1 || PyArray_NDIM(a) != 1) {
        PyErr_Format(PyExc_TypeError,
                     "%s: a numpy array must be 1-D with one-byte items (uint8, int8, S1), "
                     "got %d-D of dtype %R",
                     what, PyArray_NDIM(a), (PyObject *)PyArray_DESCR(a));
        return -1;
    }
    PyArrayObject *c = PyArray_GETCONTIGUOUS(a); /* a itself when contiguous */
    if (!c) return -1;
    b->p = (const uint8_t *)PyArray_DATA(c);
    b->n = (size_t)PyArray_SIZE(c);
    b->keep = (PyObject *)c;
    return 0;
}

int wmpy_bytes_get(PyObject *o, const char *what, wmpy_bytes *b) {
    memset(b, 0, sizeof *b);
    if (PyBytes_Check(o)) {
        b->p = (const uint8_t *)PyBytes_AS_STRING(o);
        b->n = (size_t)PyBytes_GET_SIZE(o);
    } else if (PyUnicode_Check(o)) {
#if PY_VERSION_HEX < 0x030C0000 /* every str is ready from 3.12 on */
        if (PyUnicode_READY(o) < 0) return -1;
#endif
        if (!PyUnicode_IS_ASCII(o)) {
            wmpy_invalid("%s is a str with non-ASCII characters; pass bytes "
                         "(offsets and distances count bytes)",
                         what);
            return -1;
        }
        b->p = (const uint8_t *)PyUnicode_1BYTE_DATA(o);
        b->n = (size_t)PyUnicode_GET_LENGTH(o);
    } else if (PyArray_Check(o)) {
        return array_bytes((PyArrayObject *)o, what, b);
    } else {
        if (PyObject_GetBuffer(o, &b->view, PyBUF_SIMPLE) < 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s must be bytes, an ASCII str or a contiguous buffer of bytes, "
                         "not %.100s",
                         what, Py_TYPE(o)->tp_name);
            return -1;
        }
        b->has_view = 1;
        b->p = (const uint8_t *)b->view.buf;
        b->n = (size_t)b->view.len;
        return 0;
    }
    Py_INCREF(o);
    b->keep = o;
    return 0;
}

void wmpy_bytes_release(wmpy_bytes *b) {
    if (b->has_view) PyBuffer_Release(&b->view);
    Py_CLEAR(b->keep);
    b->has_view = 0;
}

static int seqs_alloc(wmpy_seqs *s, size_t n) {
    s->n = n;
    s->p = PyMem_Malloc((n ? n : 1) * sizeof *s->p);
    s->len = PyMem_Malloc((n ? n : 1) * sizeof *s->len);
    if (!s->p || !s->len) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* 1-D dtype S: fixed-width items, shorter strings padded with NULs. */
static int seqs_from_strings(PyArrayObject *a, wmpy_seqs *s) {
    PyArrayObject *c = PyArray_GETCONTIGUOUS(a);
    if (!c) return -1;
    s->keep = (PyObject *)c;
    size_t n = (size_t)PyArray_SIZE(c), width = (size_t)PyArray_ITEMSIZE(c);
    if (seqs_alloc(s, n) < 0) return -1;
    const uint8_t *base = PyArray_DATA(c);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = base + i * width;
        size_t len = width;
        while (len > 0 && p[len - 1] == 0) len--;
        s->p[i] = p;
        s->len[i] = len;
    }
    return 0;
}

/* 2-D one-byte items: row i is sequence i. */
static int seqs_from_rows(PyArrayObject *a, wmpy_seqs *s) {
    PyArrayObject *c = PyArray_GETCONTIGUOUS(a);
    if (!c) return -1;
    s->keep = (PyObject *)c;
    size_t n = (size_t)PyArray_DIM(c, 0), width = (size_t)PyArray_DIM(c, 1);
    if (seqs_alloc(s, n) < 0) return -1;
    const uint8_t *base = PyArray_DATA(c);
    for (size_t i = 0; i < n; i++) {
        s->p[i] = base + i * width;
        s->len[i] = width;
    }
    return 0;
}

/* Any iterable of items: each becomes an immutable bytes or ASCII str held in
** a new list (a bytearray or array item is copied into bytes), so that no
** other thread can change what the library reads. */
static int seqs_from_items(PyObject *o, const char *what, wmpy_seqs *s) {
    PyObject *items = PySequence_Fast(o, "");
    if (!items) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s must be a list of sequences (bytes or ASCII str) or a numpy array "
                     "of dtype S or a 2-D uint8 array, not %.100s",
                     what, Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    PyObject *held = PyList_New(n);
    if (!held) {
        Py_DECREF(items);
        return -1;
    }
    s->keep = held;
    if (seqs_alloc(s, (size_t)n) < 0) {
        Py_DECREF(items);
        return -1;
    }
    char name[96];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(items, i);
        PyOS_snprintf(name, sizeof name, "%s[%zd]", what, i);
        wmpy_bytes b;
        if (wmpy_bytes_get(item, name, &b) < 0) {
            Py_DECREF(items);
            return -1;
        }
        PyObject *owner = b.keep;
        if (b.has_view || !(PyBytes_Check(owner) || PyUnicode_Check(owner))) {
            owner = PyBytes_FromStringAndSize((const char *)b.p, (Py_ssize_t)b.n);
            wmpy_bytes_release(&b);
            if (!owner) {
                Py_DECREF(items);
                return -1;
            }
            s->p[i] = (const uint8_t *)PyBytes_AS_STRING(owner);
            s->len[i] = (size_t)PyBytes_GET_SIZE(owner);
        } else {
            b.keep = NULL; /* the reference moves to `held` */
            s->p[i] = b.p;
            s->len[i] = b.n;
        }
        PyList_SET_ITEM(held, i, owner);
    }
    Py_DECREF(items);
    return 0;
}

int wmpy_seqs_get(PyObject *o, const char *what, wmpy_seqs *s) {
    memset(s, 0, sizeof *s);
    int rc;
    if (PyBytes_Check(o) || PyUnicode_Check(o) || PyByteArray_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of sequences, not one %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyArrayObject *a = PyArray_Check(o) ? (PyArrayObject *)o : NULL;
    if (a && PyArray_NDIM(a) == 1 && PyArray_DESCR(a)->type_num == NPY_STRING)
        rc = seqs_from_strings(a, s);
    else if (a && PyArray_NDIM(a) == 2 && PyArray_ITEMSIZE(a) == 1 &&
             PyArray_DESCR(a)->type_num != NPY_UNICODE)
        rc = seqs_from_rows(a, s);
    else if (a && PyArray_DESCR(a)->type_num != NPY_OBJECT) {
        PyErr_Format(PyExc_TypeError,
                     "%s: a numpy array must be 1-D of dtype S (or object), or 2-D of "
                     "one-byte items, got %d-D of dtype %R",
                     what, PyArray_NDIM(a), (PyObject *)PyArray_DESCR(a));
        rc = -1;
    } else rc = seqs_from_items(o, what, s);
    if (rc < 0) wmpy_seqs_release(s);
    return rc;
}

void wmpy_seqs_release(wmpy_seqs *s) {
    PyMem_Free(s->p);
    PyMem_Free(s->len);
    Py_CLEAR(s->keep);
    s->p = NULL;
    s->len = NULL;
    s->n = 0;
}

static void free_capsule(PyObject *cap) { free(PyCapsule_GetPointer(cap, "warpmatch.buffer")); }

PyObject *wmpy_wrap_buffer(void *p, size_t bytes) {
    npy_intp dims[1] = { (npy_intp)bytes };
    if (!p || bytes == 0) {
        free(p);
        return PyArray_SimpleNew(1, dims, NPY_UINT8);
    }
    PyObject *arr = PyArray_SimpleNewFromData(1, dims, NPY_UINT8, p);
    if (!arr) {
        free(p);
        return NULL;
    }
    PyObject *cap = PyCapsule_New(p, "warpmatch.buffer", free_capsule);
    if (!cap) {
        free(p);
        Py_DECREF(arr);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, cap) < 0) { /* steals cap */
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}
