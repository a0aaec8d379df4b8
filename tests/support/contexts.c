/*
** contexts.c -- opening and naming the contexts of contexts.h.
*/
#include "contexts.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

int open_config(config *cf, const char *name, wm_backend_t be, int threads, uint64_t chunk,
                const int *devices, int n_devices) {
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = be;
    co.threads = threads;
    co.chunk_bytes = chunk;
    co.devices = devices;
    co.n_devices = n_devices;
    memset(cf, 0, sizeof *cf);
    cf->backend = be;
    cf->threads = threads;
    cf->chunk = chunk;
    cf->n_devices = n_devices;
    cf->max_cells = UINT64_MAX;
    if (name) {
        snprintf(cf->name, sizeof cf->name, "%s", name);
    } else {
        char ch[32] = "default chunk";
        if (chunk) snprintf(ch, sizeof ch, "chunk %" PRIu64, chunk);
        snprintf(cf->name, sizeof cf->name, "%s, %d thread%s, %s",
                 be == WM_BACKEND_CUDA  ? "cuda"
                 : be == WM_BACKEND_CPU ? "cpu"
                                        : "auto",
                 threads, threads == 1 ? "" : "s", ch);
    }
    int rc = wm_context_new(&co, &cf->cx);
    if (rc != WM_OK) {
        fail_fmt(-1, NULL, "wm_context_new(%s) returned %d (%s): %s", cf->name, rc, wm_strerror(rc),
                 cf->cx ? wm_context_errmsg(cf->cx) : "");
        wm_context_free(cf->cx);
        cf->cx = NULL;
        return 0;
    }
    /* AUTO resolves to a real backend; an explicit one stays what it is */
    if (be != WM_BACKEND_AUTO && wm_context_backend(cf->cx) != be)
        fail_fmt(-1, NULL, "wm_context_backend(%s) = %d", cf->name,
                 (int)wm_context_backend(cf->cx));
    return 1;
}

int make_context(config *cf, wm_backend_t be, int threads, uint64_t chunk) {
    return open_config(cf, NULL, be, threads, chunk, NULL, 0);
}

wm_context_t *cpu_context(int threads, uint64_t chunk) {
    config cf;
    if (make_context(&cf, WM_BACKEND_CPU, threads, chunk)) g_passed++;
    return cf.cx;
}

void close_configs(config *cf, size_t n) {
    for (size_t i = 0; i < n; i++) {
        wm_context_free(cf[i].cx);
        cf[i].cx = NULL;
    }
}

int cuda_present(const char *what) {
    int n = wm_cuda_device_count();
    if (n > 0) printf("cuda: %d device(s), testing %s\n", n, what ? what : "the CUDA backend");
    else printf("cuda: skipped (no GPU%s)\n", wm_cuda_built() ? "" : "; CUDA not built");
    fflush(stdout);
    return n > 0;
}

size_t open_fixed(fixed_set *f, const int *threads, size_t n_threads) {
    f->gpu = cuda_present(NULL);
    f->n = 0;
    for (int be = 0; be < (f->gpu ? 2 : 1); be++)
        for (size_t i = 0; i < n_threads && f->n < N_OF(f->cf); i++)
            if (make_context(&f->cf[f->n], be ? WM_BACKEND_CUDA : WM_BACKEND_CPU, threads[i], 0))
                f->n++;
    return f->n;
}

size_t case_configs(config *cfgs, const fixed_set *f, uint64_t (*tiny)(const void *c, int on_gpu),
                    const void *c) {
    size_t n = 0;
    for (size_t j = 0; j < f->n; j++) cfgs[n++] = f->cf[j];
    if (make_context(&cfgs[n], WM_BACKEND_CPU, 1, tiny(c, 0))) n++;
    if (make_context(&cfgs[n], WM_BACKEND_CPU, 3, tiny(c, 0))) n++;
    if (f->gpu && make_context(&cfgs[n], WM_BACKEND_CUDA, 3, tiny(c, 1))) n++;
    return n;
}

void close_case_configs(const fixed_set *f, config *cfgs, size_t n) {
    close_configs(cfgs + f->n, n - f->n);
}
