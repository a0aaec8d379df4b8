/*
** module.c -- the extension module warpmatch._warpmatch: its table of
** functions, its exceptions (the library's statuses as Python classes), and
** the layouts of the result records, which __init__.py turns into numpy
** dtypes so that the C structs are viewed in place, never copied field by
** field.
*/
#define WMPY_MODULE_C
#include "wmpy.h"

#include <stddef.h>

PyObject *wmpy_Error;
PyObject *wmpy_InvalidArgument;
PyObject *wmpy_UnsupportedError;
PyObject *wmpy_DeviceError;
PyObject *wmpy_OutOfMemory;

static PyObject *exception_class(int status) {
    switch (status) {
    case WM_INVALID:
    case WM_PATTERN_EMPTY:
    case WM_PATTERN_TOO_LONG:
    case WM_K_TOO_LARGE:
    case WM_FORMAT: return wmpy_InvalidArgument;
    case WM_UNSUPPORTED: return wmpy_UnsupportedError;
    case WM_NO_DEVICE:
    case WM_DEVICE:
    case WM_DEVICE_NOMEM: return wmpy_DeviceError;
    case WM_NOMEM: return wmpy_OutOfMemory;
    default: return wmpy_Error;
    }
}

/* The instance carries the status number as `status`, so that a caller can
** tell WM_PATTERN_TOO_LONG from WM_K_TOO_LARGE without reading the text. */
static void set_error(PyObject *cls, int status, const char *msg) {
    PyObject *exc = PyObject_CallFunction(cls, "s", msg);
    if (!exc) return;
    PyObject *code = PyLong_FromLong(status);
    if (code) {
        PyObject_SetAttrString(exc, "status", code);
        Py_DECREF(code);
    }
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
}

PyObject *wmpy_raise(int status, const wm_context_t *cx) {
    const char *msg = cx ? wm_context_errmsg(cx) : "";
    if (!msg || !*msg) msg = wm_strerror(status);
    set_error(exception_class(status), status, msg);
    return NULL;
}

static PyObject *raise_v(int status, const char *fmt, va_list ap) {
    char msg[512];
    PyOS_vsnprintf(msg, sizeof msg, fmt, ap);
    set_error(exception_class(status), status, msg);
    return NULL;
}

PyObject *wmpy_raise_msg(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raise_v(status, fmt, ap);
    va_end(ap);
    return NULL;
}

PyObject *wmpy_invalid(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raise_v(WM_INVALID, fmt, ap);
    va_end(ap);
    return NULL;
}

static PyObject *py_library_version(PyObject *self, PyObject *unused) {
    return PyUnicode_FromString(wm_version());
}

static PyObject *py_cuda_built(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(wm_cuda_built());
}

static PyObject *py_cuda_device_count(PyObject *self, PyObject *unused) {
    int n;
    PyThreadState *released = PyEval_SaveThread(); /* no Python until restored */
    n = wm_cuda_device_count();
    PyEval_RestoreThread(released);
    return PyLong_FromLong(n);
}

static PyObject *py_strerror(PyObject *self, PyObject *arg) {
    long status = PyLong_AsLong(arg);
    if (status == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(wm_strerror((int)status));
}

static PyObject *py_contexts_lent(PyObject *self, PyObject *unused) {
    return PyLong_FromLong(wmpy_ctx_lent());
}

static PyMethodDef methods[] = {
    { "search", wmpy_search, METH_VARARGS, "search(pattern(s), is_set, text, rec_start, ...)" },
    { "align", wmpy_align, METH_VARARGS, "align(query, target, ...)" },
    { "align_pairs", wmpy_align_pairs, METH_VARARGS, "align_pairs(queries, targets, ...)" },
    { "align_pairs_packed", wmpy_align_pairs_packed, METH_VARARGS,
      "align_pairs_packed(queries, query_offsets, targets, target_offsets, ...)" },
    { "dtw", wmpy_dtw, METH_VARARGS, "dtw(query, series, ...)" },
    { "dtw_many", wmpy_dtw_many, METH_VARARGS, "dtw_many(queries, series, ...)" },
    { "dtw_matrix", wmpy_dtw_matrix, METH_VARARGS, "dtw_matrix(a, b, ...)" },
    { "_contexts_lent", py_contexts_lent, METH_NOARGS, "Cached contexts lent to calls now." },
    { "library_version", py_library_version, METH_NOARGS, "The C library's wm_version()." },
    { "cuda_built", py_cuda_built, METH_NOARGS, "True when the CUDA backend was compiled in." },
    { "cuda_device_count", py_cuda_device_count, METH_NOARGS, "GPUs the CUDA backend sees." },
    { "strerror", py_strerror, METH_O, "The library's text for a status number." },
    { NULL, NULL, 0, NULL }
};

static struct PyModuleDef module_def = { PyModuleDef_HEAD_INIT, "_warpmatch",
                                         "The C layer of the warpmatch package.", -1, methods };

static int add_class(PyObject *m, PyObject **slot, const char *name, PyObject *bases,
                     const char *doc) {
    char full[64];
    PyOS_snprintf(full, sizeof full, "warpmatch.%s", name);
    *slot = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    if (!*slot) return -1;
    Py_INCREF(*slot);
    return PyModule_AddObject(m, name, *slot);
}

/* (itemsize, (name, offset, numpy type code)...) of a C struct. */
#define FIELD(type, name, code)                                                                    \
    Py_BuildValue("(snc)", #name, (Py_ssize_t)offsetof(type, name), code)

static int add_layouts(PyObject *m) {
    PyObject *match = Py_BuildValue(
        "(nNNNNNN)", (Py_ssize_t)sizeof(wm_match_t), FIELD(wm_match_t, record, 'Q'),
        FIELD(wm_match_t, start, 'Q'), FIELD(wm_match_t, end, 'Q'), FIELD(wm_match_t, errors, 'I'),
        FIELD(wm_match_t, strand, 'I'), FIELD(wm_match_t, pattern, 'I'));
    /* distance is uint64 with WM_ALIGN_NONE = UINT64_MAX for "over k": viewed
    ** as int64 that is -1, edlib's convention. */
    PyObject *align = Py_BuildValue(
        "(nNNN)", (Py_ssize_t)sizeof(wm_alignment_t), FIELD(wm_alignment_t, distance, 'q'),
        FIELD(wm_alignment_t, start, 'Q'), FIELD(wm_alignment_t, end, 'Q'));
    if (!match || !align || PyModule_AddObject(m, "MATCH_LAYOUT", match) < 0) {
        Py_XDECREF(match);
        Py_XDECREF(align);
        return -1;
    }
    if (PyModule_AddObject(m, "ALIGN_LAYOUT", align) < 0) {
        Py_DECREF(align);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__warpmatch(void) {
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    PyObject *value_bases = NULL, *memory_bases = NULL;
    if (add_class(m, &wmpy_Error, "Error", NULL,
                  "A warpmatch library call failed; `status` is its wm_status number.") < 0)
        goto fail;
    value_bases = PyTuple_Pack(2, wmpy_Error, PyExc_ValueError);
    memory_bases = PyTuple_Pack(2, wmpy_Error, PyExc_MemoryError);
    if (!value_bases || !memory_bases) goto fail;
    if (add_class(m, &wmpy_InvalidArgument, "InvalidArgument", value_bases,
                  "A bad argument or option (also a ValueError).") < 0 ||
        add_class(m, &wmpy_UnsupportedError, "UnsupportedError", wmpy_Error,
                  "Valid, but not built in or not supported (a CUDA backend "
                  "without CUDA, a job over the library's limits).") < 0 ||
        add_class(m, &wmpy_DeviceError, "DeviceError", wmpy_Error,
                  "No GPU was found, or a CUDA call failed.") < 0 ||
        add_class(m, &wmpy_OutOfMemory, "OutOfMemory", memory_bases,
                  "Host memory could not be allocated (also a MemoryError).") < 0)
        goto fail;
    Py_CLEAR(value_bases);
    Py_CLEAR(memory_bases);
    if (add_layouts(m) < 0) goto fail;
    return m;
fail:
    Py_XDECREF(value_bases);
    Py_XDECREF(memory_bases);
    Py_DECREF(m);
    return NULL;
}
