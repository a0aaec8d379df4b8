/*
** contexts.h -- the library contexts the differential tests run every case
** on: CPU with one and several threads, with the default chunk size and
** with tiny ones (so that occurrences straddle chunk borders), device lists,
** and CUDA when a GPU is found. Each context carries the name its failures
** are reported under.
*/
#ifndef WM_TEST_CONTEXTS_H
#define WM_TEST_CONTEXTS_H

#include <stddef.h>
#include <stdint.h>

#include "warpmatch.h"

typedef struct {
    wm_context_t *cx;
    wm_backend_t backend;
    int threads;
    uint64_t chunk;     /* chunk_bytes; 0: the library's default */
    int n_devices;      /* the length of its device list; 0: one device */
    unsigned flags;     /* the test's own marks (which cases the context takes) */
    uint64_t max_cells; /* the test's own size limit for its cases */
    char name[80];
} config;

/* Opens a context: backend, threads, chunk size, a device list (NULL: one
** device); name NULL: made from the others. A failure counts, printed with
** the status and the context's message. Returns 1 when the context is open
** (cf->cx), else 0 (cf->cx NULL). */
int open_config(config *cf, const char *name, wm_backend_t be, int threads, uint64_t chunk,
                const int *devices, int n_devices);

/* open_config on one device, named after its settings. */
int make_context(config *cf, wm_backend_t be, int threads, uint64_t chunk);

/* A bare CPU context of this many threads and chunk size, or NULL; a
** check that passes when the context opens. */
wm_context_t *cpu_context(int threads, uint64_t chunk);

/* wm_context_free of each (NULL ones too). */
void close_configs(config *cf, size_t n);

/* Is there a GPU to test? Says so on a line: "cuda: N device(s), testing
** <what>" (what NULL: the CUDA backend) or "cuda: skipped (no GPU...)". */
int cuda_present(const char *what);

/* The contexts every case of a test runs on, opened once: the CPU with each
** of a list of thread counts and the default chunk, then, when a GPU is
** found, the CUDA backend with the same host thread counts. */
typedef struct {
    config cf[8];
    size_t n;
    int gpu; /* CUDA is tested */
} fixed_set;

/* Says whether CUDA is tested (cuda_present) and opens the set. Returns
** how many opened. */
size_t open_fixed(fixed_set *f, const int *threads, size_t n_threads);

/* One case's contexts: the fixed ones, then the CPU with 1 and with 3
** threads and a tiny chunk each, then with a GPU CUDA (3 host threads) and a
** tiny chunk; tiny(c, on_gpu) picks each chunk size, in that order (it may
** draw random numbers). Returns the count. */
size_t case_configs(config *cfgs, const fixed_set *f, uint64_t (*tiny)(const void *c, int on_gpu),
                    const void *c);

/* Closes the case's own contexts of case_configs (not the fixed ones). */
void close_case_configs(const fixed_set *f, config *cfgs, size_t n);

#endif /* WM_TEST_CONTEXTS_H */
