/*
** bench_gpu_search.cu -- single-pattern search on the GPU with the text
** resident in device memory, next to the floor: the device's read bandwidth,
** measured in the same run by a kernel that only reads the same buffer.
**
**   bench_gpu_search [--bytes N] [--reps R] [--dna FILE] [--quick]
**
** Texts: random over 4 symbols (ACGT), random over 64 symbols, and real DNA
** (FILE: plain sequence bytes, e.g. from `gen_text dna`, repeated to N bytes
** if shorter). Patterns are cut from the text, so each has at least one
** occurrence. Each row: median of R runs timed with CUDA events around the
** search kernels and hit compaction (hits counted, stored on the device);
** GB/s = text bytes / median; "floor%" = that rate over the read bandwidth.
*/
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "search/search_cuda.cuh"

#include "bench_cuda.cuh"

int main(int argc, char **argv) {
    uint64_t bytes = 1ull << 30;
    int reps = 7, quick = 0;
    const char *dna_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc) bytes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dna") && i + 1 < argc) dna_file = argv[++i];
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else {
            fprintf(stderr, "usage: %s [--bytes N] [--reps R] [--dna FILE] [--quick]\n", argv[0]);
            return 2;
        }
    }
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CUDA;
    wm_context_t *cx;
    if (wm_context_new(&co, &cx) != WM_OK) {
        fprintf(stderr, "bench: %s\n", wm_context_errmsg(cx));
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;

    uint8_t *d_text;
    CK(cudaMalloc(&d_text, bytes + WM_CU_PAD));
    CK(cudaMemset(d_text + bytes, 0, WM_CU_PAD));
    std::vector<uint8_t> host_text; /* to cut patterns from */
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    /* the floor: read bandwidth over this very buffer */
    k_random_text<<<sms * 8, 256>>>(d_text, bytes, 64, 1);
    CK(cudaDeviceSynchronize());
    double read_gbs = bench_read_floor(d_text, bytes, reps, sms);
    printf("device: %s, %d SMs, %.1f GiB\n", prop.name, sms, prop.totalGlobalMem / 1073741824.0);
    printf("floor: device read bandwidth %.0f GB/s (1 pass over %.2f GiB, median of %d)\n",
           read_gbs, bytes / 1073741824.0, reps);
    printf("%-8s %5s %3s %-13s %12s %10s %9s %7s\n", "text", "m", "k", "kernel", "matches",
           "median_ms", "GB/s", "floor%");

    const char *texts[3] = { "dna4", "rand64", "realdna" };
    int ms_list[] = { 8, 16, 32, 64, 128, 1024 };
    int n_m = quick ? 3 : 6;
    const char *kname[] = { "shiftor", "bitap", "myers", "myers-blocks" };
    uint64_t cap = 1 << 24;
    unsigned long long *d_keys, *d_count;
    uint32_t *d_err;
    CK(cudaMalloc(&d_keys, cap * 8));
    CK(cudaMalloc(&d_err, cap * 4));
    CK(cudaMalloc(&d_count, 8));

    for (int ti = 0; ti < 3; ti++) {
        if (ti == 2) {
            if (!dna_file) continue;
            FILE *f = fopen(dna_file, "rb");
            if (!f) {
                fprintf(stderr, "bench: cannot open %s\n", dna_file);
                return 2;
            }
            host_text.resize(bytes);
            uint64_t got = fread(host_text.data(), 1, bytes, f);
            fclose(f);
            if (got == 0) {
                fprintf(stderr, "bench: %s is empty\n", dna_file);
                return 2;
            }
            for (uint64_t i = got; i < bytes; i++) host_text[i] = host_text[i - got]; /* repeat */
            CK(cudaMemcpy(d_text, host_text.data(), bytes, cudaMemcpyHostToDevice));
        } else {
            k_random_text<<<sms * 8, 256>>>(d_text, bytes, ti == 0 ? 4 : 64, 7 + ti);
            CK(cudaDeviceSynchronize());
            host_text.resize(1 << 20);
            CK(cudaMemcpy(host_text.data(), d_text, host_text.size(), cudaMemcpyDeviceToHost));
        }
        for (int mi = 0; mi < n_m; mi++) {
            int m = ms_list[mi];
            int ks[5] = { 0, 1, 2, 3, 16 };
            int n_k = m == 1024 ? 5 : 4;
            for (int kj = 0; kj < n_k; kj++) {
                int k = ks[kj];
                if (quick && k == 3) continue;
                /* a pattern from the text, avoiding N runs in real DNA */
                uint64_t at = (uint64_t)(m * 7919 + k * 104729 + 12345) % (host_text.size() - m);
                for (int tries = 0; tries < 1000 && memchr(&host_text[at], 'N', m); tries++)
                    at = (at + 65537) % (host_text.size() - m);
                wm_opts_t o = wm_opts_default();
                o.max_edits = (uint32_t)k;
                wm_db_t *db;
                if (wm_compile(&host_text[at], (size_t)m, &o, &db) != WM_OK) continue;
                wm_cu_plan_t plan;
                if (wm_cu_plan_make(cx, wm_pat_of(db), &plan) != WM_OK) {
                    fprintf(stderr, "bench: %s\n", wm_context_errmsg(cx));
                    return 2;
                }
                wm_cu_text_t t = { d_text, bytes, 0, 0 };
                std::vector<float> times;
                unsigned long long count = 0;
                for (int r = 0; r < reps + 1; r++) {
                    wm_cu_hits_t h = { d_keys, d_err, d_count, cap };
                    CK(cudaMemsetAsync(d_count, 0, 8));
                    CK(cudaEventRecord(e0));
                    if (wm_cu_plan_launch(cx, &plan, &t, &h, sms, 0) != WM_OK) {
                        fprintf(stderr, "bench: %s\n", wm_context_errmsg(cx));
                        return 2;
                    }
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    CK(cudaMemcpy(&count, d_count, 8, cudaMemcpyDeviceToHost));
                    if (count > cap) { /* grow so every hit is stored, then time again */
                        cap = count + count / 4;
                        CK(cudaFree(d_keys));
                        CK(cudaFree(d_err));
                        CK(cudaMalloc(&d_keys, cap * 8));
                        CK(cudaMalloc(&d_err, cap * 4));
                        r = -1;
                        times.clear();
                        continue;
                    }
                    float ms;
                    CK(cudaEventElapsedTime(&ms, e0, e1));
                    if (r) times.push_back(ms);
                }
                float med = median(times);
                double gbs = bytes / (med * 1e6);
                printf("%-8s %5d %3d %-13s %12llu %10.3f %9.1f %6.1f%%\n", texts[ti], m, k,
                       kname[plan.kernel], count, med, gbs, 100.0 * gbs / read_gbs);
                fflush(stdout);
                wm_cu_plan_free(&plan);
                wm_db_free(db);
            }
        }
    }
    wm_context_free(cx);
    return 0;
}
