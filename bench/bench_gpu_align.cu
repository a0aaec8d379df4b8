/*
** bench_gpu_align.cu -- `align --mode infix` on the GPU: paper 000's Table I
** (m = 32..1024, n = 4,194,304, random 0/1) and the same on real DNA, with
** both kernels, and long queries against a long target.
**
**   bench_gpu_align binary                    random 0/1, Table I shapes
**   bench_gpu_align files TARGET QUERY...     each plain-sequence QUERY file
**                                             against the TARGET file (DNA)
**
** Kernel times are device-event medians over repeated launches on a target
** already in device memory (as the paper's table times its kernel). The
** floor: the column's 32-row words times the target's columns, at the rate
** the same bit-vector step runs on this GPU with no memory traffic and
** independent chains (measured first); the ratio says what fraction of that
** peak the kernel reaches (halo re-scans and pipeline fill included). The
** end-to-end line is wm_align from host memory: copy, kernel, start, CIGAR.
*/
#include "bench_cuda.cuh"

#include <string.h>
#include <time.h>
#include "align/align_cuda.cuh"
#include "cuda/device.cuh"

/* Peak bit-vector steps a second: 8 independent chains a thread. */
static __global__ void k_bv_peak(uint64_t iters, uint32_t seed, unsigned long long *sink) {
    uint32_t pv[8], mv[8], x = seed ^ (threadIdx.x * 0x9E3779B9u + blockIdx.x);
    int h = 0;
#pragma unroll
    for (int c = 0; c < 8; c++) {
        pv[c] = ~0u ^ (x + c);
        mv[c] = 0;
    }
    for (uint64_t i = 0; i < iters; i++) {
        x = x * 1664525u + 1013904223u; /* the "Eq" stream */
#pragma unroll
        for (int c = 0; c < 8; c++) h += wm_cu_bv_step32(pv[c], mv[c], x >> c, h & 1 ? -1 : 0, 31);
    }
    uint32_t acc = h;
    for (int c = 0; c < 8; c++) acc ^= pv[c] ^ mv[c];
    if (acc == 0x9abcdefu) atomicAdd(sink, 1ull);
}

static double bv_peak_steps_per_s(int sms) {
    unsigned long long *sink;
    CK(cudaMalloc(&sink, 8));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const uint64_t iters = 20000;
    unsigned blocks = sms * 8, threads = 256;
    std::vector<float> v;
    for (int r = 0; r < 4; r++) {
        CK(cudaEventRecord(e0));
        k_bv_peak<<<blocks, threads>>>(iters, 7u + r, sink);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r) v.push_back(ms);
    }
    CK(cudaFree(sink));
    return (double)blocks * threads * iters * 8 / (median(v) * 1e-3);
}

typedef struct {
    wm_context_t *cx;
    int sms;
    double peak; /* bit-vector steps a second */
    uint8_t *d_text;
    const uint8_t *h_text;
    uint64_t n;
    const char *workload;
} bench_t;

/* Median kernel time (ms) of one launch configuration; fills best. */
static float time_kernel(bench_t *B, const wm_cu_aplan_t *p, wm_align_algo_t algo, uint64_t chunk,
                         int reps, unsigned long long *h_best) {
    unsigned long long *d_best;
    CK(cudaMalloc(&d_best, 8));
    wm_cu_aout_t o;
    memset(&o, 0, sizeof o);
    o.best = d_best;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> v;
    uint64_t halo = 2ull * p->m;
    for (int r = 0; r < reps + 1; r++) {
        CK(cudaMemset(d_best, 0xff, 8));
        CK(cudaEventRecord(e0));
        if (wm_cu_infix_launch(B->cx, p, algo, B->d_text, B->n, 0, 0, halo, -1, -1, chunk, &o, 0) !=
            WM_OK) {
            fprintf(stderr, "bench: launch failed: %s\n", wm_context_errmsg(B->cx));
            exit(2);
        }
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r) v.push_back(ms);
    }
    CK(cudaMemcpy(h_best, d_best, 8, cudaMemcpyDeviceToHost));
    CK(cudaFree(d_best));
    return median(v);
}

static void row(bench_t *B, const wm_cu_aplan_t *p, const char *algo_name, uint64_t chunk, float ms,
                unsigned long long best) {
    double cells = (double)p->m * B->n;
    double floor_ms = (double)B->n * p->w32 / B->peak * 1e3;
    uint64_t n_chunks = (B->n + chunk - 1) / chunk;
    printf("%-8s %7u %9llu %-10s %7llu %9llu %10.3f %8.1f %7.1f%% %6llu %10llu\n", B->workload,
           p->m, (unsigned long long)B->n, algo_name, (unsigned long long)n_chunks,
           (unsigned long long)chunk, ms, cells / (ms * 1e-3) / 1e9, 100.0 * floor_ms / ms,
           best >> WM_CU_BEST_SHIFT, best & ((1ull << WM_CU_BEST_SHIFT) - 1));
    fflush(stdout);
}

/* Both kernels on one query; the wavefront also over the paper's D values. */
static void run_query(bench_t *B, const uint8_t *q, uint32_t m, int dsweep, int e2e) {
    wm_align_opts_t o = wm_align_opts_default();
    wm_aq_t aq;
    if (wm_aq_make(&aq, q, m, &o) != WM_OK) exit(2);
    wm_cu_aplan_t p;
    if (wm_cu_aplan_make(B->cx, &aq, B->sms, &p) != WM_OK) exit(2);
    uint64_t halo = 2ull * m;
    unsigned long long best;
    int reps = (double)m * B->n > 1e11 ? 3 : 9;

    uint64_t chunk = wm_cu_infix_chunk(&p, WM_ALIGN_ALGO_BITVECTOR, B->n, halo);
    float ms = time_kernel(B, &p, WM_ALIGN_ALGO_BITVECTOR, chunk, reps, &best);
    row(B, &p, "bitvector", chunk, ms, best);
    /* the layout and chunk around the default: W = 1, 2, 4 words a thread,
    ** chunk = m, 2m, 4m */
    for (int W = 1; dsweep && W <= 4; W *= 2) {
        wm_cu_aplan_layout(&p, W);
        for (uint64_t f = 1; f <= 4; f *= 2) {
            ms = time_kernel(B, &p, WM_ALIGN_ALGO_BITVECTOR, f * m, reps, &best);
            char name[32];
            snprintf(name, sizeof name, "bv-w%d-c%llum", W, (unsigned long long)f);
            row(B, &p, name, f * m, ms, best);
        }
    }
    wm_cu_aplan_layout(&p, 0);

    if (m <= WM_CU_WAVEFRONT_MAX_M) {
        chunk = wm_cu_infix_chunk(&p, WM_ALIGN_ALGO_WAVEFRONT, B->n, halo);
        ms = time_kernel(B, &p, WM_ALIGN_ALGO_WAVEFRONT, chunk, reps < 3 ? reps : 3, &best);
        row(B, &p, "wavefront", chunk, ms, best);
        static const int D[] = { 16, 32, 64, 128, 256, 512, 1024, 2048 };
        for (int i = 0; dsweep && i < 8; i++) {
            /* the paper's chunk: s + 2m with s = (n - 2m) / D; we own s a chunk */
            uint64_t s = (B->n - 2ull * m + D[i] - 1) / D[i];
            ms = time_kernel(B, &p, WM_ALIGN_ALGO_WAVEFRONT, s, 1, &best);
            char name[32];
            snprintf(name, sizeof name, "wf-D%d", D[i]);
            row(B, &p, name, s, ms, best);
        }
    }
    if (e2e) {
        /* end to end from host memory: copy, kernel, start, CIGAR */
        wm_align_opts_t ao = wm_align_opts_default();
        ao.cigar = 1;
        std::vector<float> v;
        wm_alignments_t r;
        for (int i = 0; i < 3; i++) {
            struct timespec s0, s1;
            clock_gettime(CLOCK_MONOTONIC, &s0);
            if (wm_align(B->cx, q, m, B->h_text, B->n, &ao, &r) != WM_OK) {
                fprintf(stderr, "bench: wm_align: %s\n", wm_context_errmsg(B->cx));
                exit(2);
            }
            clock_gettime(CLOCK_MONOTONIC, &s1);
            v.push_back((float)((s1.tv_sec - s0.tv_sec) * 1e3 + (s1.tv_nsec - s0.tv_nsec) / 1e6));
            if (i < 2) wm_alignments_free(&r);
        }
        printf("%-8s %7u %9llu %-10s end-to-end wm_align with CIGAR: median %.1f ms; "
               "distance %llu, [%llu, %llu), CIGAR %zu chars\n",
               B->workload, m, (unsigned long long)B->n, "bitvector", median(v),
               (unsigned long long)r.a[0].distance, (unsigned long long)r.a[0].start,
               (unsigned long long)r.a[0].end, strlen(r.a[0].cigar));
        wm_alignments_free(&r);
    }
    wm_cu_aplan_free(&p);
    wm_aq_free(&aq);
}

static uint8_t *read_file(const char *path, uint64_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = (uint8_t *)malloc(sz > 0 ? sz : 1);
    if (fread(b, 1, sz, f) != (size_t)sz) exit(2);
    fclose(f);
    while (sz > 0 && (b[sz - 1] == '\n' || b[sz - 1] == '\r')) sz--;
    *len = (uint64_t)sz;
    return b;
}

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "binary") && strcmp(argv[1], "files")) ||
        (!strcmp(argv[1], "files") && argc < 4)) {
        fprintf(stderr, "usage: bench_gpu_align binary | files TARGET QUERY...\n");
        return 2;
    }
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CUDA;
    bench_t B;
    memset(&B, 0, sizeof B);
    if (wm_context_new(&co, &B.cx) != WM_OK) {
        fprintf(stderr, "bench: no CUDA context: %s\n", B.cx ? wm_context_errmsg(B.cx) : "");
        return 2;
    }
    char name[256];
    uint64_t mem;
    wm_cuda_device_info(0, name, sizeof name, &mem, NULL, &B.sms);
    B.peak = bv_peak_steps_per_s(B.sms);
    printf("device: %s, %d SMs; bit-vector step peak %.1f G steps/s (%.1f T cells/s)\n", name,
           B.sms, B.peak / 1e9, B.peak * 32 / 1e12);
    printf("%-8s %7s %9s %-10s %7s %9s %10s %8s %8s %6s %10s\n", "workload", "m", "n", "algo",
           "chunks", "chunk", "median_ms", "GCUPS", "floor", "dist", "end");

    if (!strcmp(argv[1], "binary")) {
        B.workload = "binary";
        B.n = 4194304;
        uint8_t *h = (uint8_t *)malloc(B.n);
        uint64_t x = 42;
        for (uint64_t i = 0; i < B.n; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            h[i] = (uint8_t)((x >> 33) & 1);
        }
        B.h_text = h;
        CK(cudaMalloc(&B.d_text, B.n + WM_CU_PAD));
        CK(cudaMemcpy(B.d_text, h, B.n, cudaMemcpyHostToDevice));
        for (uint32_t m = 32; m <= 1024; m *= 2) {
            uint8_t *q = (uint8_t *)malloc(m);
            for (uint32_t i = 0; i < m; i++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                q[i] = (uint8_t)((x >> 33) & 1);
            }
            run_query(&B, q, m, 1, m == 1024);
            free(q);
        }
    } else {
        uint64_t n;
        uint8_t *h = read_file(argv[2], &n);
        B.h_text = h;
        B.n = n;
        static char w[9];
        const char *slash = strrchr(argv[2], '/');
        snprintf(w, sizeof w, "%s", slash ? slash + 1 : argv[2]);
        B.workload = w;
        CK(cudaMalloc(&B.d_text, B.n + WM_CU_PAD));
        CK(cudaMemcpy(B.d_text, h, B.n, cudaMemcpyHostToDevice));
        for (int i = 3; i < argc; i++) {
            uint64_t m;
            uint8_t *q = read_file(argv[i], &m);
            run_query(&B, q, (uint32_t)m, 0, m >= 1024);
            free(q);
        }
    }
    CK(cudaFree(B.d_text));
    wm_context_free(B.cx);
    return 0;
}
