/*
** test_choose.c -- the backend cost model (src/core/choose.c) on its own,
** with no device: wm_backend_choose's arguments; the measured constants
** reproduce the figures they came from (issue 16: 1 GiB of exact search is
** 0.077 s on 16 CPU threads and ~1.1 s on the GPU, so the CPU; dtw flips to
** the GPU on a long series); and on synthetic constants the model's shape:
** times never fall as bytes grow or threads shrink, the CPU's rate saturates
** at its cap, and the choice flips once, where the algebra says.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/choose.h"
#include "harness.h"
#include "warpmatch.h"

#define GIB 1073741824.0

static wm_workload_t work(wm_work_kind_t kind, double bytes, uint64_t m, uint32_t k, uint64_t n,
                          int threads, int n_gpus) {
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    w.kind = kind;
    w.bytes = (uint64_t)bytes;
    w.m = m;
    w.k = k;
    w.n = n;
    w.threads = threads;
    w.n_gpus = n_gpus;
    return w;
}

static int near(double got, double want, double rel) { return fabs(got - want) <= rel * want; }

static void test_args(void) {
    wm_backend_choice_t c;
    wm_workload_t w = work(WM_WORK_SEARCH, 1e6, 8, 0, 0, 1, 1);
    CHECK(wm_backend_choose(NULL, &c) == WM_INVALID, "NULL workload");
    CHECK(wm_backend_choose(&w, NULL) == WM_INVALID, "NULL out");
    w.kind = (wm_work_kind_t)99;
    CHECK(wm_backend_choose(&w, &c) == WM_INVALID, "unknown kind");
    w.kind = WM_WORK_SEARCH;
    CHECK(wm_backend_choose_with(NULL, &w, 4, &c) == WM_INVALID, "NULL model");
    CHECK(wm_backend_gpu_startup() > 0.1 && wm_backend_gpu_startup() < 2.0,
          "start-up constant %.3f s", wm_backend_gpu_startup());
}

/* No GPU, or work the GPU backend runs on the CPU: always the CPU, and the
** GPU side is not predicted. */
static void test_no_gpu(void) {
    for (int kind = WM_WORK_SEARCH; kind <= WM_WORK_DTW; kind++)
        for (double b = 1; b < 1e14; b *= 97) {
            wm_workload_t w = work((wm_work_kind_t)kind, b, 1024, 1, 16, 0, 0);
            wm_backend_choice_t c;
            CHECK(wm_backend_choose(&w, &c) == WM_OK, "kind %d", kind);
            CHECK(c.backend == WM_BACKEND_CPU && c.gpu_s < 0,
                  "no GPU, kind %d, %.0f bytes: backend %d, gpu_s %g", kind, b, (int)c.backend,
                  c.gpu_s);
            w.n_gpus = 1;
            w.cpu_only = 1;
            CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU && c.gpu_s < 0,
                  "cpu_only, kind %d, %.0f bytes", kind, b);
        }
}

/* The figures the constants came from (H100 host, 16 threads). */
static void test_measured(void) {
    static const double cpu_meas[4] = { 0.077, 0.114, 0.133, 0.182 };
    /* the GPU: H200 host, BENCHMARKS.md 14 (1.12 GB, medians of 3) */
    static const double gpu_meas[4] = { 0.45, 0.45, 0.47, 0.46 };
    wm_backend_choice_t c;
    for (uint32_t k = 0; k < 4; k++) {
        wm_workload_t w = work(WM_WORK_SEARCH, GIB, 32, k, 0, 16, 1);
        CHECK(wm_backend_choose(&w, &c) == WM_OK, "k %u", k);
        CHECK(near(c.cpu_s, cpu_meas[k], 0.10), "1 GiB k=%u: cpu %.3f s, measured %.3f", k, c.cpu_s,
              cpu_meas[k]);
        CHECK(near(c.gpu_s, gpu_meas[k], 0.15), "1 GiB k=%u: gpu %.3f s, measured %.3f", k, c.gpu_s,
              gpu_meas[k]);
        CHECK(c.backend == WM_BACKEND_CPU, "1 GiB k=%u: the CPU wins (measured)", k);
        CHECK(near(c.gpu_startup_s, 0.40, 0.01), "start-up %.3f", c.gpu_startup_s);
    }
    /* 8.96 GB (BENCHMARKS.md 14): cpu 0.47 / 0.74 / 0.98 / 1.36 s, cuda
    ** 0.73 / 0.70 / 0.73 / 0.75 s: the CPU for k = 0, either for k = 1
    ** (within 5%), the GPU for k = 2 and 3. */
    static const int gpu_wins8[4] = { 0, -1, 1, 1 };
    for (uint32_t k = 0; k < 4; k++) {
        wm_workload_t w8 = work(WM_WORK_SEARCH, 8.96e9, 32, k, 0, 16, 1);
        CHECK(wm_backend_choose(&w8, &c) == WM_OK, "8.96 GB k %u", k);
        CHECK(near(c.gpu_s, 0.73, 0.15), "8.96 GB k=%u: gpu %.3f s, measured ~0.73", k, c.gpu_s);
        if (gpu_wins8[k] >= 0)
            CHECK((c.backend == WM_BACKEND_CUDA) == gpu_wins8[k],
                  "8.96 GB k=%u: cpu %.2f, gpu %.2f", k, c.cpu_s, c.gpu_s);
    }
    /* 2 x H200 host, 32 threads, 16.8 GB (BENCHMARKS.md 14b): k = 2 on the
    ** CPU 0.91-0.94 s, on one GPU 1.25 s: the CPU. */
    {
        wm_workload_t w32 = work(WM_WORK_SEARCH, 16.8e9, 32, 2, 0, 32, 1);
        CHECK(wm_backend_choose(&w32, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
                  near(c.cpu_s, 0.93, 0.15),
              "16.8 GB k=2 on 32 threads: %d, cpu %.2f s, gpu %.2f s", (int)c.backend, c.cpu_s,
              c.gpu_s);
    }
    /* Short pieces: m = 8, k = 3 runs at 0.29 GB/s on the CPU: the GPU wins at 1 GiB. */
    wm_workload_t w = work(WM_WORK_SEARCH, GIB, 8, 3, 0, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA,
          "1 GiB m=8 k=3: cpu %.2f s, gpu %.2f s", c.cpu_s, c.gpu_s);
    /* dtw m = 1,024: 4 M samples 0.14 s on the CPU, 67 M 1.84 s against 0.22 s + start-up. */
    w = work(WM_WORK_DTW, 8.0 * 4194304, 1024, 0, 1, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
              near(c.cpu_s, 0.141, 0.25),
          "dtw 4M: %d, cpu %.3f s", (int)c.backend, c.cpu_s);
    w = work(WM_WORK_DTW, 8.0 * 67108864, 1024, 0, 1, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 1.84, 0.10) && near(c.gpu_s, 0.62, 0.10),
          "dtw 67M: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* Sets within k errors, an H200 host, 16 threads (BENCHMARKS.md 29,
    ** c1c7e4d, every end listed): 10^6 reads of 150 bp at k = 4 against
    ** chrX (70 MB): cpu 13.79 s, cuda 1.40 s; against E. coli (4.64 MB):
    ** cpu 2.62 s, cuda 1.23 s. 10^5 reads against chrX: the GPU (17c, the
    ** tree before: cpu 1.41 s, cuda 0.88 s). 200 guides (23 nt, Hamming k
    ** = 4): cpu 8.99 s, while the GPU did 10,000 in 10.44 s. A few reads
    ** against E. coli stay on the CPU (the start-up). */
    static const double reads[2] = { 1e6, 1e6 }, genome[2] = { 70e6, 4.64e6 },
                        set_cpu[2] = { 13.79, 2.62 }, set_gpu[2] = { 1.40, 1.23 },
                        tol[2] = { 0.05, 0.05 };
    for (int i = 0; i < 2; i++) {
        w = work(WM_WORK_SEARCH_SET, genome[i], 150, 4, (uint64_t)reads[i], 16, 1);
        wm_backend_t faster = set_gpu[i] < set_cpu[i] ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
        CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == faster &&
                  near(c.cpu_s, set_cpu[i], tol[i]) && near(c.gpu_s, set_gpu[i], tol[i]),
              "%.0f reads against %.0f: %d, cpu %.2f s, gpu %.2f s", reads[i], genome[i],
              (int)c.backend, c.cpu_s, c.gpu_s);
    }
    w = work(WM_WORK_SEARCH_SET, 70e6, 150, 4, 100000, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA,
          "1e5 reads against chrX: %d, cpu %.2f s, gpu %.2f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* Guides, Hamming on DNA, scanned together through the pigeonhole index
    ** (BENCHMARKS.md 17d, 5981ebb, medians): cpu 200 / 1,000 / 10,000 in
    ** 0.098 / 0.167 / 1.197 s, cuda 0.448 / 0.559 / 1.883 s: the CPU. */
    static const double guides[3] = { 200, 1000, 10000 }, g_cpu[3] = { 0.098, 0.167, 1.197 },
                        g_gpu[3] = { 0.448, 0.559, 1.883 }, g_tol[3] = { 0.3, 0.15, 0.05 };
    for (int i = 0; i < 3; i++) {
        w = work(WM_WORK_SEARCH_SET, 70e6, 23, 4, (uint64_t)guides[i], 16, 1);
        w.hamming = 1;
        CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
                  near(c.cpu_s, g_cpu[i], g_tol[i]) && near(c.gpu_s, g_gpu[i], 0.05) &&
                  strstr(c.row, "together"),
              "%.0f guides: %d (%s), cpu %.3f s, gpu %.3f s", guides[i], (int)c.backend, c.row,
              c.cpu_s, c.gpu_s);
    }
    /* the same lengths with edits stay one pattern a pass on the CPU (17c,
    ** 1a3c4de's figures for that scan: 200 in 0.68 s, 10,000 about 29 s) */
    w = work(WM_WORK_SEARCH_SET, 70e6, 23, 4, 10000, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 28.7, 0.05) && strstr(c.row, "whole"),
          "10,000 edit guides: %d, cpu %.2f s, gpu %.2f s", (int)c.backend, c.cpu_s, c.gpu_s);
    w = work(WM_WORK_SEARCH_SET, 4.6e6, 150, 4, 100, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU,
          "100 reads, E. coli: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* 1 M pairs of 150 bp through the CLI (BENCHMARKS.md 19): distance cpu
    ** 0.59-0.70 s, the GPU with its start-up after reading ~0.85 s: the CPU;
    ** CIGARs cpu 1.13-1.17 s, the GPU ~0.9 s: the GPU. */
    w = work(WM_WORK_ALIGN_PAIRS, 3e8, 0, 0, 1000000, 16, 1);
    w.cells = 22500000000ull;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
              near(c.cpu_s, 0.62, 0.10) && near(c.gpu_s, 0.84, 0.10),
          "pairs: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    w.cigar = 1;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 1.05, 0.10) && near(c.gpu_s, 0.91, 0.10),
          "pairs with CIGARs: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* 50,000 pairs of 2 kb (BENCHMARKS.md 23): distance cpu 0.23-0.40 s, the
    ** GPU under auto 0.50-0.64 s: the CPU. With CIGARs, which the GPU walks
    ** in 39 ms, the CPU's 0.67-0.77 s make the GPU the faster. */
    w = work(WM_WORK_ALIGN_PAIRS, 2e8, 0, 0, 50000, 16, 1);
    w.cells = 200000000000ull;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
              near(c.cpu_s, 0.40, 0.10) && near(c.gpu_s, 0.58, 0.10),
          "2 kb pairs: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    w.cigar = 1;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 0.93, 0.10) && near(c.gpu_s, 0.67, 0.10),
          "2 kb pairs with CIGARs: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* 10,000 pairs of 10 kb: past the GPU's pair kernels, the GPU backend
    ** runs them on its CPU threads, so the CPU */
    w = work(WM_WORK_ALIGN_PAIRS, 2e8, 0, 0, 10000, 16, 1);
    w.cells = 1000000000000ull;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU && c.gpu_s > c.cpu_s,
          "10 kb pairs: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* One pair of 1 Mb at 1% (real1M): a CPU thread 1.30 s, 2.25 s with
    ** the CIGAR; the GPU's long-pair kernel 0.10 s and 0.20 s after its
    ** start-up (BENCHMARKS.md 6b, 24 and 24e; the CLI: cpu 2.24-2.30 s,
    ** cuda 0.53-0.56 s): the GPU, though its pair kernels take no side past
    ** 8 kb. */
    w = work(WM_WORK_ALIGN_PAIRS, 2e6, 0, 0, 1, 16, 1);
    w.cells = 1000000000000ull;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 1.30, 0.05) && c.gpu_s < 0.6,
          "one 1 Mb pair: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    w.cigar = 1;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 2.25, 0.05) && near(c.gpu_s, 0.67, 0.10),
          "one 1 Mb pair with its CIGAR: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s,
          c.gpu_s);
    /* one of 100 kb (real100k: a thread 25 ms, 109 ms with the CIGAR; the
    ** model adds its 10 ms of set-up) and
    ** sixteen of 1 Mb, a thread each: the CPU, whose best case beats the
    ** GPU's start-up there */
    w = work(WM_WORK_ALIGN_PAIRS, 2e5, 0, 0, 1, 16, 1);
    w.cells = 10000000000ull;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
              near(c.cpu_s, 0.025, 0.20),
          "one 100 kb pair: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    w = work(WM_WORK_ALIGN_PAIRS, 32e6, 0, 0, 16, 16, 1);
    w.cells = 16000000000000ull;
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CPU &&
              near(c.cpu_s, 1.30, 0.05) && near(c.gpu_s, 1.85, 0.10),
          "16 pairs of 1 Mb: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
    /* read10k against 70 Mb: 4.68 s on 16 threads, 0.57 s on the GPU. */
    w = work(WM_WORK_ALIGN_INFIX, 7e7, 10000, 0, 1, 16, 1);
    CHECK(wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA &&
              near(c.cpu_s, 4.68, 0.10),
          "infix: %d, cpu %.3f s, gpu %.3f s", (int)c.backend, c.cpu_s, c.gpu_s);
}

/* Constants chosen so the crossover has a closed form. */
static wm_cost_model_t synthetic(void) {
    wm_cost_model_t m;
    memset(&m, 0, sizeof m);
    m.gpu_startup_s = 1.0;
    for (int i = 0; i < WM_COST_N_ROWS; i++) {
        m.row[i].name = "synthetic";
        m.row[i].cpu_thread_rate = 1e9;
        m.row[i].cpu_cap_rate = 4e9;
        m.row[i].gpu_move_rate = 1e10;
        m.row[i].gpu_rate = 1e12;
    }
    return m;
}

static void test_synthetic(void) {
    wm_cost_model_t m = synthetic();
    wm_backend_choice_t c, prev;
    memset(&c, 0, sizeof c);
    memset(&prev, 0, sizeof prev);
    /* 16 threads: the CPU at its 4e9 cap; B / 4e9 = 1 + B / 1e10 + B / 1e12. */
    double cross = 1.0 / (1.0 / 4e9 - 1.0 / 1e10 - 1.0 / 1e12);
    wm_workload_t w = work(WM_WORK_SEARCH, cross * 0.99, 32, 0, 0, 16, 1);
    CHECK(wm_backend_choose_with(&m, &w, 16, &c) == WM_OK && c.backend == WM_BACKEND_CPU,
          "just below the crossover %.4g: %d", cross, (int)c.backend);
    w.bytes = (uint64_t)(cross * 1.01);
    CHECK(wm_backend_choose_with(&m, &w, 16, &c) == WM_OK && c.backend == WM_BACKEND_CUDA,
          "just above the crossover %.4g: %d", cross, (int)c.backend);

    /* Monotone in bytes, one flip, at the crossover. */
    int flips = 0;
    double flip_at = 0;
    for (int i = 0; i <= 400; i++) {
        w.bytes = (uint64_t)pow(10.0, 3.0 + i * 0.025); /* 1 kB .. 10 TB */
        CHECK(wm_backend_choose_with(&m, &w, 16, &c) == WM_OK, "bytes %llu",
              (unsigned long long)w.bytes);
        if (i > 0) {
            CHECK(c.cpu_s >= prev.cpu_s && c.gpu_s >= prev.gpu_s,
                  "not monotone at %llu bytes: cpu %g < %g or gpu %g < %g",
                  (unsigned long long)w.bytes, c.cpu_s, prev.cpu_s, c.gpu_s, prev.gpu_s);
            if (c.backend != prev.backend) {
                flips++;
                flip_at = (double)w.bytes;
                CHECK(c.backend == WM_BACKEND_CUDA, "flipped back to the CPU at %llu bytes",
                      (unsigned long long)w.bytes);
            }
        }
        prev = c;
    }
    CHECK(flips == 1 && flip_at >= cross && flip_at < cross * 1.07,
          "%d flips, the last at %.4g (crossover %.4g)", flips, flip_at, cross);

    /* Threads: the rate grows to the cap, then stays; the time never grows. */
    w.bytes = (uint64_t)1e9;
    for (int t = 1; t <= 64; t++) {
        w.threads = t;
        CHECK(wm_backend_choose_with(&m, &w, 16, &c) == WM_OK, "threads %d", t);
        double want = t * 1e9 < 4e9 ? t * 1e9 : 4e9;
        CHECK(near(c.cpu_rate, want, 1e-9) && c.threads == t, "threads %d: rate %g, want %g", t,
              c.cpu_rate, want);
        if (t > 1)
            CHECK(c.cpu_s <= prev.cpu_s, "threads %d: %g s > %g s with fewer", t, c.cpu_s,
                  prev.cpu_s);
        prev = c;
    }
    /* threads 0: the online count given. */
    w.threads = 0;
    CHECK(wm_backend_choose_with(&m, &w, 3, &c) == WM_OK && c.threads == 3, "online: %d",
          c.threads);
    /* A larger start-up moves the crossover up. */
    m.gpu_startup_s = 2.0;
    w = work(WM_WORK_SEARCH, cross * 1.01, 32, 0, 0, 16, 1);
    CHECK(wm_backend_choose_with(&m, &w, 16, &c) == WM_OK && c.backend == WM_BACKEND_CPU,
          "start-up 2 s: the CPU at %.4g bytes", cross * 1.01);
    /* Every kind: more bytes, more work on both sides. */
    m = synthetic();
    for (int kind = WM_WORK_SEARCH; kind <= WM_WORK_DTW; kind++) {
        w = work((wm_work_kind_t)kind, 1e6, 100, 1, 10, 4, 1);
        wm_backend_choose_with(&m, &w, 4, &prev);
        w.bytes *= 10;
        wm_backend_choose_with(&m, &w, 4, &c);
        CHECK(c.work > prev.work && c.cpu_s > prev.cpu_s && c.gpu_s > prev.gpu_s,
              "kind %d: 10x the bytes: work %g -> %g", kind, prev.work, c.work);
    }
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 1, NULL, NULL);
    test_args();
    test_no_gpu();
    test_measured();
    test_synthetic();
    return test_finish();
}
