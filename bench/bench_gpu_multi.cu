/*
** bench_gpu_multi.cu -- pattern-set search on the GPU with the text resident
** in device memory, next to the floor (the device's read bandwidth over the
** same buffer, measured in the same run).
**
**   bench_gpu_multi --text FILE --patterns FILE [--bytes N] [--reps R]
**                   [--algo auto|qgram|pfac|ac] [--check]
**
** The text file's bytes are repeated to N bytes (default 1 GiB). Patterns:
** one per line. Rows: "count" = the number of matches (one kernel, one
** atomic per block); "list" = every occurrence written to device memory in
** end order (count pass, CUB scan, write pass); its floor moves the text
** once and the hits (8 bytes each: wm_mhit32_t) once. Median of R runs, CUDA
** events around the kernels only. --check compares the count with the CPU
** backend's wm_count over the same bytes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "cuda/cuda_common.cuh"
#include "multi/mplan.h"
#include "bench_cuda.cuh"

static std::vector<uint8_t> read_file(const char *path, uint64_t want) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        exit(2);
    }
    std::vector<uint8_t> v;
    uint8_t buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && (want == 0 || v.size() < want))
        v.insert(v.end(), buf, buf + n);
    fclose(f);
    if (want && v.size() > want) v.resize(want);
    return v;
}

int main(int argc, char **argv) {
    const char *text_file = NULL, *pat_file = NULL, *algo_name = "auto";
    uint64_t bytes = 1ull << 30;
    int reps = 7, check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--text") && i + 1 < argc) text_file = argv[++i];
        else if (!strcmp(argv[i], "--patterns") && i + 1 < argc) pat_file = argv[++i];
        else if (!strcmp(argv[i], "--bytes") && i + 1 < argc) bytes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--algo") && i + 1 < argc) algo_name = argv[++i];
        else if (!strcmp(argv[i], "--check")) check = 1;
        else {
            fprintf(stderr,
                    "usage: %s --text FILE --patterns FILE [--bytes N] [--reps R] "
                    "[--algo auto|qgram|pfac|ac|wumanber-paper] [--check]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!text_file || !pat_file) {
        fprintf(stderr, "bench: --text and --patterns are needed\n");
        return 2;
    }
    wm_algo_t algo = WM_ALGO_AUTO;
    if (!strcmp(algo_name, "qgram")) algo = WM_ALGO_QGRAM;
    else if (!strcmp(algo_name, "pfac")) algo = WM_ALGO_PFAC;
    else if (!strcmp(algo_name, "ac")) algo = WM_ALGO_AC;
    else if (!strcmp(algo_name, "wumanber-paper")) algo = WM_ALGO_WUMANBER_PAPER;

    /* patterns */
    std::vector<uint8_t> pf = read_file(pat_file, 0);
    std::vector<const uint8_t *> pats;
    std::vector<size_t> lens;
    for (size_t i = 0, s = 0; i <= pf.size(); i++)
        if (i == pf.size() || pf[i] == '\n') {
            if (i > s) {
                pats.push_back(pf.data() + s);
                lens.push_back(i - s);
            }
            s = i + 1;
        }
    wm_opts_t o = wm_opts_default();
    o.algo = algo;
    wm_db_t *db;
    wm_status st = wm_compile_set(pats.data(), lens.data(), pats.size(), &o, &db);
    if (st != WM_OK) {
        fprintf(stderr, "bench: compile: %s\n", wm_strerror(st));
        return 2;
    }

    /* text, repeated to size */
    std::vector<uint8_t> text = read_file(text_file, bytes);
    uint64_t got = text.size();
    if (got == 0) {
        fprintf(stderr, "bench: %s is empty\n", text_file);
        return 2;
    }
    text.resize(bytes);
    for (uint64_t i = got; i < bytes; i++) text[i] = text[i - got];

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
    wm_cu_mplan_host_t plan;
    st = wm_cu_mplan_make(cx, wm_mset_of(db), &plan);
    if (st != WM_OK) {
        fprintf(stderr, "bench: plan: %s\n", wm_context_errmsg(cx));
        return 2;
    }

    uint8_t *d_text;
    CK(cudaMalloc(&d_text, bytes + WM_CU_PAD));
    CK(cudaMemcpy(d_text, text.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_text + bytes, 0, WM_CU_PAD));
    double read_gbs = bench_read_floor(d_text, bytes, reps, sms);
    printf("device: %s, %d SMs\n", prop.name, sms);
    printf("floor: device read bandwidth %.0f GB/s over %.2f GiB\n", read_gbs,
           bytes / 1073741824.0);
    printf("text: %s (%llu bytes, repeated to %llu)\n", text_file, (unsigned long long)got,
           (unsigned long long)bytes);
    printf("patterns: %s (%zu; kernel %s)\n", pat_file, pats.size(), wm_algo_name(plan.algo));

    wm_cu_mtext_t t = { d_text, bytes, 0 };
    wm_cu_mout_t out;
    memset(&out, 0, sizeof out);
    unsigned long long *d_total;
    CK(cudaMalloc(&d_total, 8));
    out.total = d_total;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    /* count */
    std::vector<float> tc;
    unsigned long long total = 0;
    uint64_t blocks = 0;
    for (int r = 0; r < reps + 1; r++) {
        CK(cudaMemset(d_total, 0, 8));
        CK(cudaEventRecord(e0));
        CK(plan.launch(&plan.p, WM_MM_TOTAL, &t, &out, 0, &blocks));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r) tc.push_back(ms);
    }
    CK(cudaMemcpy(&total, d_total, 8, cudaMemcpyDeviceToHost));
    float mc = median(tc);

    /* list: count pass, scan, write pass; hits stay on the device */
    unsigned long long *d_bc, *d_bo;
    CK(cudaMalloc(&d_bc, blocks * 8));
    CK(cudaMalloc(&d_bo, blocks * 8));
    size_t tmp_bytes = 0;
    void *d_tmp = NULL;
    CK(cub::DeviceScan::ExclusiveSum(d_tmp, tmp_bytes, d_bc, d_bo, (int)blocks));
    CK(cudaMalloc(&d_tmp, tmp_bytes));
    out.block_counts = d_bc;
    CK(plan.launch(&plan.p, WM_MM_COUNT, &t, &out, 0, &blocks));
    CK(cub::DeviceScan::ExclusiveSum(d_tmp, tmp_bytes, d_bc, d_bo, (int)blocks));
    unsigned long long last[2];
    CK(cudaMemcpy(&last[0], d_bo + blocks - 1, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&last[1], d_bc + blocks - 1, 8, cudaMemcpyDeviceToHost));
    uint64_t n_hits = last[0] + last[1];
    wm_mhit32_t *d_hits;
    size_t free_b, total_b;
    CK(cudaMemGetInfo(&free_b, &total_b));
    int can_list = (n_hits + 1) * sizeof(wm_mhit32_t) < free_b - (512ull << 20);
    float ml = 0, mw = 0, m1 = 0;
    double rw_ms = 0;
    if (can_list) {
        CK(cudaMalloc(&d_hits, (n_hits + 1) * sizeof(wm_mhit32_t)));
        /* the listing's own floor: the text read and the hits written at once */
        rw_ms = bench_read_write_ms(d_text, bytes, d_hits, n_hits * sizeof(wm_mhit32_t), reps, sms);
        out.block_off = d_bo;
        out.hits = d_hits;
        std::vector<float> tl, tw;
        cudaEvent_t em;
        CK(cudaEventCreate(&em));
        for (int r = 0; r < reps + 1; r++) {
            CK(cudaEventRecord(e0));
            CK(plan.launch(&plan.p, WM_MM_COUNT, &t, &out, 0, &blocks));
            CK(cub::DeviceScan::ExclusiveSum(d_tmp, tmp_bytes, d_bc, d_bo, (int)blocks));
            CK(cudaEventRecord(em));
            CK(plan.launch(&plan.p, WM_MM_WRITE, &t, &out, 0, &blocks));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms, wms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            CK(cudaEventElapsedTime(&wms, em, e1));
            if (r) tl.push_back(ms);
            if (r) tw.push_back(wms);
        }
        ml = median(tl);
        mw = median(tw);
        CK(cudaEventDestroy(em));
        /* the list is in end order: check it on the host */
        std::vector<wm_mhit32_t> h(n_hits);
        CK(cudaMemcpy(h.data(), d_hits, n_hits * sizeof(wm_mhit32_t), cudaMemcpyDeviceToHost));
        for (uint64_t i = 1; i < n_hits; i++)
            if (h[i].end < h[i - 1].end) {
                printf("ERROR: list out of order at %llu\n", (unsigned long long)i);
                return 1;
            }
        /* the one pass (WM_MM_LIST), where the kernel has one: the status
        ** words zeroed and the kernel, timed; its hits must be the two
        ** passes' hits, byte for byte */
        uint64_t chunks = (bytes + WM_CU_LIST_CHUNK - 1) / WM_CU_LIST_CHUNK;
        unsigned long long *d_status;
        CK(cudaMalloc(&d_status, (chunks + 1) * 8));
        CK(cudaMemset(d_hits, 0xff, n_hits * sizeof(wm_mhit32_t)));
        wm_cu_mout_t o1 = out;
        o1.status = d_status;
        o1.ticket = (unsigned int *)(d_status + chunks);
        o1.hits = d_hits;
        o1.cap = n_hits;
        std::vector<float> t1;
        cudaError_t e1st = cudaSuccess;
        for (int r = 0; r < reps + 1 && e1st == cudaSuccess; r++) {
            CK(cudaEventRecord(e0));
            CK(cudaMemsetAsync(d_status, 0, (chunks + 1) * 8));
            e1st = plan.launch(&plan.p, WM_MM_LIST, &t, &o1, 0, &blocks);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r) t1.push_back(ms);
        }
        if (e1st == cudaSuccess) {
            unsigned long long last;
            CK(cudaMemcpy(&last, d_status + chunks - 1, 8, cudaMemcpyDeviceToHost));
            std::vector<wm_mhit32_t> h1(n_hits);
            CK(cudaMemcpy(h1.data(), d_hits, n_hits * sizeof(wm_mhit32_t), cudaMemcpyDeviceToHost));
            if ((last & WM_CU_LIST_VALUE) != n_hits ||
                memcmp(h1.data(), h.data(), n_hits * sizeof(wm_mhit32_t)) != 0) {
                printf("ERROR: the one pass listed %llu hits, not the two passes' %llu or not "
                       "the same\n",
                       last & WM_CU_LIST_VALUE, (unsigned long long)n_hits);
                return 1;
            }
            m1 = median(t1);
            /* into half the room: the first half written, all counted */
            CK(cudaMemset(d_hits, 0xff, n_hits * sizeof(wm_mhit32_t)));
            CK(cudaMemset(d_status, 0, (chunks + 1) * 8));
            o1.cap = n_hits / 2;
            CK(plan.launch(&plan.p, WM_MM_LIST, &t, &o1, 0, &blocks));
            CK(cudaMemcpy(&last, d_status + chunks - 1, 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h1.data(), d_hits, n_hits * sizeof(wm_mhit32_t), cudaMemcpyDeviceToHost));
            uint64_t half = n_hits / 2;
            int tail_kept = 1; /* nothing written past the room */
            for (uint64_t i = half; i < n_hits && tail_kept; i++)
                tail_kept = h1[i].end == 0xffffffffu && h1[i].uid == 0xffffffffu;
            if ((last & WM_CU_LIST_VALUE) != n_hits || !tail_kept ||
                memcmp(h1.data(), h.data(), half * sizeof(wm_mhit32_t)) != 0) {
                printf("ERROR: the one pass into half the room\n");
                return 1;
            }
        } else if (e1st != cudaErrorNotSupported) {
            CK(e1st);
        }
        CK(cudaFree(d_status));
        CK(cudaFree(d_hits));
    }
    printf("%-6s %14s %10s %9s %7s\n", "mode", "matches", "median_ms", "GB/s", "floor%");
    printf("%-6s %14llu %10.3f %9.1f %6.1f%%\n", "count", total, mc, bytes / (mc * 1e6),
           100.0 * bytes / (mc * 1e6) / read_gbs);
    if (can_list)
        printf("%-6s %14llu %10.3f %9.1f %6.1f%%   (occurrences of distinct strings, written to "
               "device memory; with the %.2f GB of hits written: %.1f%% of the floor)\n",
               "list", (unsigned long long)n_hits, ml, bytes / (ml * 1e6),
               100.0 * bytes / (ml * 1e6) / read_gbs, n_hits * sizeof(wm_mhit32_t) / 1e9,
               100.0 * (bytes + n_hits * sizeof(wm_mhit32_t)) / (ml * 1e6) / read_gbs);
    if (can_list) printf("list passes: count + scan %.3f ms, write %.3f ms\n", ml - mw, mw);
    if (m1 > 0)
        printf("%-6s %14llu %10.3f %9.1f %6.1f%%   (one pass, the same hits; with them: %.1f%% of "
               "the floor)\n",
               "list1", (unsigned long long)n_hits, m1, bytes / (m1 * 1e6),
               100.0 * bytes / (m1 * 1e6) / read_gbs,
               100.0 * (bytes + n_hits * sizeof(wm_mhit32_t)) / (m1 * 1e6) / read_gbs);
    if (m1 > 0)
        printf("floor of the listing: the text read and the %.2f GB of hits written in one "
               "kernel, %.3f ms (%.1f GB/s of text); list1 at %.1f%% of it\n",
               n_hits * sizeof(wm_mhit32_t) / 1e9, rw_ms, bytes / (rw_ms * 1e6),
               100.0 * rw_ms / m1);
    else if (!can_list)
        printf("list   %14llu  (not timed: the list does not fit in device memory)\n",
               (unsigned long long)n_hits);

    if (check) {
        wm_context_opts_t cc = wm_context_opts_default();
        cc.backend = WM_BACKEND_CPU;
        wm_context_t *cpu;
        if (wm_context_new(&cc, &cpu) != WM_OK) return 2;
        wm_text_t tx = { text.data(), bytes, NULL, 0 };
        uint64_t n = 0;
        st = wm_count(cpu, db, &tx, &n);
        printf("check: CPU wm_count %llu, GPU %llu: %s\n", (unsigned long long)n, total,
               st == WM_OK && n == total ? "same" : "DIFFERENT");
        wm_context_free(cpu);
        if (n != total) return 1;
    }
    wm_cu_mplan_free(&plan);
    wm_context_free(cx);
    wm_db_free(db);
    return 0;
}
