/*
** wmpy.h -- what the files of the Python extension module share: Python's and
** numpy's headers set up once, the context cache, the library's statuses as
** Python exceptions, and byte sequences taken from Python objects.
**
** The extension is a thin layer: python/warpmatch/__init__.py parses the
** keyword arguments, turns names ("infix", "cuda") into the library's
** numbers and documents everything; the functions here take those numbers
** positionally, hold the Python objects whose bytes the library reads, release
** the GIL for the library's work and hand results back as flat buffers that
** __init__.py views as numpy structured arrays.
*/
#ifndef WMPY_H
#define WMPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
/* One numpy API table for all the files of the module: module.c imports it. */
#define PY_ARRAY_UNIQUE_SYMBOL wmpy_ARRAY_API
#ifndef WMPY_MODULE_C
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>
#include <stdint.h>
#include <warpmatch.h>

/* ---- exceptions (module.c) ---------------------------------------------- */
extern PyObject *wmpy_Error;            /* warpmatch.Error: every library status */
extern PyObject *wmpy_InvalidArgument;  /* Error + ValueError: bad arguments */
extern PyObject *wmpy_UnsupportedError; /* Error: not built / not supported */
extern PyObject *wmpy_DeviceError;      /* Error: no GPU, a CUDA failure */
extern PyObject *wmpy_OutOfMemory;      /* Error + MemoryError */

/* Raise the exception of `status` with the context's message when it has one
** (it names the pair or query at fault), else wm_strerror's text. cx may be
** NULL. Returns NULL so that callers can `return wmpy_raise(...)`. */
PyObject *wmpy_raise(int status, const wm_context_t *cx);
/* Raise the exception of `status` with a formatted message; returns NULL. */
PyObject *wmpy_raise_msg(int status, const char *fmt, ...);
/* The same for WM_INVALID (InvalidArgument). */
PyObject *wmpy_invalid(const char *fmt, ...);

/* ---- contexts (context.c) ------------------------------------------------ */
/* A context lent for one call. Contexts are cached per (backend, threads) and
** lent to one call at a time; a call that finds its cached one busy (another
** Python thread is inside the library with it) gets a private one. */
typedef struct {
    wm_context_t *cx;
    int slot; /* cache slot, -1 for a private context */
} wmpy_ctx;

/* With the GIL held. Returns 0, or -1 with an exception set. */
int wmpy_ctx_get(int backend, int threads, wmpy_ctx *c);
/* With the GIL held: gives the context back (or frees a private one). */
void wmpy_ctx_put(wmpy_ctx *c);

/* ---- byte sequences (inputs.c) ------------------------------------------- */
/* One sequence of bytes read by the library while the GIL is released: `keep`
** holds what owns the bytes (an immutable str or bytes, a contiguous array,
** or a Py_buffer export that stops a bytearray from resizing). */
typedef struct {
    const uint8_t *p;
    size_t n;
    PyObject *keep;
    Py_buffer view;
    int has_view;
} wmpy_bytes;

/* bytes, bytearray, memoryview, ASCII str or a 1-D numpy array of one-byte
** items (copied when not contiguous). `what` names the argument in messages.
** Returns 0, or -1 with an exception set (nothing to release then). */
int wmpy_bytes_get(PyObject *o, const char *what, wmpy_bytes *b);
void wmpy_bytes_release(wmpy_bytes *b);

/* A list of sequences: p[i], len[i] for i < n, owned by `keep`. */
typedef struct {
    size_t n;
    const uint8_t **p;
    size_t *len;
    PyObject *keep;
} wmpy_seqs;

/* A sequence (list, tuple, ...) of items that wmpy_bytes_get takes, a 1-D
** numpy array of dtype S (each item's trailing NULs dropped, as numpy does)
** or a 2-D array of one-byte items (one sequence a row).
** Returns 0, or -1 with an exception set (nothing to release then). */
int wmpy_seqs_get(PyObject *o, const char *what, wmpy_seqs *s);
void wmpy_seqs_release(wmpy_seqs *s);

/* A 1-D uint8 numpy array over `bytes` bytes at p (from malloc), which it now
** owns and frees; p may be NULL when bytes is 0. On failure frees p and
** returns NULL with an exception set. */
PyObject *wmpy_wrap_buffer(void *p, size_t bytes);

/* ---- the functions (search.c, align.c, dtw.c) ---------------------------- */
PyObject *wmpy_search(PyObject *self, PyObject *args);
PyObject *wmpy_align(PyObject *self, PyObject *args);
PyObject *wmpy_align_pairs(PyObject *self, PyObject *args);
PyObject *wmpy_align_pairs_packed(PyObject *self, PyObject *args);
PyObject *wmpy_dtw(PyObject *self, PyObject *args);
PyObject *wmpy_dtw_many(PyObject *self, PyObject *args);
PyObject *wmpy_dtw_matrix(PyObject *self, PyObject *args);
/* Contexts lent now (a test that every call gives its context back). */
int wmpy_ctx_lent(void);

#endif /* WMPY_H */
