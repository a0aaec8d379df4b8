/*
** choose.c -- which backend runs a workload faster: the cost model of
** choose.h, its constants, and wm_backend_choose (include/warpmatch.h).
**
** The constants are the figures measured on the lent H100 (NVIDIA H100 80GB
** HBM3) and its host's 16 Xeon cores, from issue 16 and BENCHMARKS.md, each
** with where it comes from; "assumed" marks a value no run measured yet.
** bench/calibrate_auto.sh runs the grid on a GPU host and prints refitted
** values for this table. The model never touches a device: the caller says
** whether GPUs exist.
*/
#include <stddef.h>
#include <unistd.h>

#include "core/choose.h"

#define GIB 1073741824.0

/* 1 GiB of chrX sequence in the page cache, `warpmatch search -c PAT FILE`
** with m = 32, wall clock of the process, median of 3 (issue 16's table):
** cpu (16 threads) 0.077 / 0.114 / 0.133 / 0.182 s for k = 0..3. With
** cpu_fixed 0.03 s (assumed: process start, pool, mapping) the CPU's
** 16-thread rates are GIB / (t - 0.03); exact search is capped by memory (a
** thread's rate assumed 3 GB/s, 8 threads reach the cap), k >= 1 is
** compute-bound: a thread does a 16th of the 16-thread rate, up to twice
** that rate (BENCHMARKS.md 14b: k = 2 on 32 threads, 16.8 GB in 0.91-0.94
** s, 1.75x the 16-thread rate; capped at the 16-thread rate, the model sent
** that cell to the GPU, 1.25 s). The GPU: CUDA start-up 0.40 s (issue 16;
** `warpmatch info` 0.32-0.38 s, BENCHMARKS.md 2), then the pipeline's set-up
** and staging rate, fitted to the CUDA rows of BENCHMARKS.md 14 (`bash
** bench/gpu_pipeline.sh .gpu`, H200 and 16 cores, 32 MiB batches, pages
** faulted in during the start-up): 0.41-0.48 s at 1.12 GB, 0.68-0.86 s at
** 8.96 GB, whatever k, so 0.40 + 0.01 s + bytes / 29 GB/s; the kernels at
** the resident-text rates of issue 16 (`bench_gpu_search --dna`: 2,929 /
** 1,593 / 1,234 GB/s; k = 3 assumed 900). (Before the batches shrank from
** 256 MiB, the fit was 0.62 s + bytes / 25 GB/s: 1.10 s at 1 GiB.) */
#define SEARCH_ROW(name, cap, thread, kernel)                                                      \
    { name, 0.03, thread, cap, 0.01, 0.0, 29e9, kernel, 0.0, 0.0 }

const wm_cost_model_t wm_cost_model_default = {
    0.40,
    {
        [WM_COST_SEARCH_K0] = SEARCH_ROW("search k=0", GIB / (0.077 - 0.03), 3.0e9, 2929e9),
        [WM_COST_SEARCH_K1] =
            SEARCH_ROW("search k=1", 2 * GIB / (0.114 - 0.03), GIB / (0.114 - 0.03) / 16, 1593e9),
        [WM_COST_SEARCH_K2] =
            SEARCH_ROW("search k=2", 2 * GIB / (0.133 - 0.03), GIB / (0.133 - 0.03) / 16, 1234e9),
        [WM_COST_SEARCH_K3] =
            SEARCH_ROW("search k=3", 2 * GIB / (0.182 - 0.03), GIB / (0.182 - 0.03) / 16, 900e9),
        /* A set: work = bytes x (1 + n / 5,660). bench_cpu_multi -t 16, count,
        ** 1 GiB of chrX, 1,000 / 16,000 8-mers: 0.32 / 1.04 s (BENCHMARKS.md
        ** 4b, `bash bench/run_multi.sh build-gpu 16 .gpu`): per byte 0.272 s/GiB
        ** + n x 4.8e-5 s/GiB, i.e. 3.95e9 work/s on 16 threads (per thread
        ** linear, assumed; cap twice that, assumed). GPU: CUDA's start-up as
        ** above, then 0.05 s of set-up and the pageable copy at 25 GB/s,
        ** fitted to the CLI's `search -c -f SET` over 1 GiB in the page cache
        ** on the H100 (`bash bench/gpu_qgram.sh bench .gpu-qg`, medians of
        ** 3: 0.52 / 0.51 s for 1,000 / 16,000 8-mers on `0717a47`, 0.46 /
        ** 0.55 s for 10,000 / 100,000 signatures on `517aa1d`; BENCHMARKS.md
        ** 4d, on `602c59f`: 0.49 / 0.49 / 0.55 / 0.71 s). The kernels: the byte q-gram kernel's 10,000
        ** signatures (2.97e9 work in 17.5 ms on `517aa1d`; 20.0 ms, 1.5e11
        ** work/s, on `602c59f`) = 1.7e11 work/s, the slowest per unit of work
        ** of the four (16,000 8-mers: 5.8e12). */
        [WM_COST_SET] = { "search set", 0.03, 3.95e9 / 16, 2 * 3.95e9, 0.05, 0.0, 25e9, 1.7e11, 0.0,
                          0.0 },
        /* Infix: work = (m + 32 n) x target bytes (each query rounded to
        ** 64-row words). read10k against the 70 Mb chrX, bench_cpu_align
        ** (BENCHMARKS.md 5b, `bash bench/gpu_session.sh apeers .gpu`): 4.68 s
        ** on 16 threads = 1.5e11 work/s, 9.4e9 a thread (cap twice, assumed).
        ** GPU (5a, `bash bench/gpu_session.sh align .gpu`): kernel 90.9 ms =
        ** 7.7e12 work/s; a call's own host work 1.5 ms (m = 1,024: 1.9-2.8 ms
        ** end to end against a 0.86 ms kernel); pageable copy 10 GB/s and a
        ** 0.02 s set-up (assumed). The CLI: cuda 0.567 s, cpu 5.5 s (5a). */
        [WM_COST_INFIX] = { "align infix", 0.01, 1.5e11 / 16, 3.0e11, 0.02, 0.0015, 10e9, 7.7e12,
                            0.0, 0.0 },
        /* Pairs: work = cells (m x n), 1 M pairs of 150 bp = 2.25e10; and a
        ** cost a pair on the CPU, on the GPU, and in the host work both
        ** backends do (the CLI: reading and parsing, the views, the rows, the
        ** exit), each solved from two lengths. The H200 host (16 cores),
        ** wm_align_pairs on 16 threads: 1 M pairs of 150 bp in 0.246-0.272 s
        ** for distances and 0.63-0.76 s with CIGARs (tree 5d96332,
        ** BENCHMARKS.md 19, `bash bench/gpu_pairs.sh all .gpu`); 50,000 of 2
        ** kb in 0.30 and 0.77 s (tree da5fcd8, BENCHMARKS.md 23, `bash
        ** bench/gpu_pairs.sh warp .gpu`). So a pair costs the CPU 1.6e5 cells
        ** (1.5e5 with CIGARs) and 16 threads run 7.0e11 (2.7e11) cells/s; one
        ** thread, 6c's 1 M pairs of 150 bp in 2.39 / 9.99 s. The CLI besides
        ** the call: 0.35 / 0.40 s for the 150 bp pairs' 300 MB, 0.09 / 0.15 s
        ** for the 2 kb pairs' 200 MB, i.e. 2.55e9 (1.42e9) bytes/s and 590
        ** (270) bytes a pair. The GPU after its start-up: the first call's
        ** buffers 0.06 s, the pairs packed and uploaded at 12 GB/s, then
        ** kernels and results: 5 / 25 ms for the 150 bp pairs (19), 16 / 39
        ** ms for the 2 kb ones (23, tree d920e30), i.e. 1.25e13 (5.3e12)
        ** cells/s and 3.2 ns (21 ns) a pair. Pairs longer than its pair
        ** kernels take (8 kb) run on the CPU threads on either backend.
        ** Predicted for the CLI: 150 bp distances cpu 0.62 s, gpu 0.84 s
        ** (measured 0.59-0.70 and, CUDA started while reading, 0.54-0.67);
        ** CIGARs cpu 1.05 s, gpu 0.91 s (1.13-1.17 and 0.63-0.70); 2 kb
        ** distances cpu 0.40 s, gpu 0.58 s (0.23-0.40; 0.40-0.58), CIGARs cpu
        ** 0.93 s, gpu 0.67 s. Under auto CUDA starts after the inputs are
        ** read, so its 0.40 s counts. */
        [WM_COST_PAIRS] = { "align pairs", 0.01, 1.83e11 / 2.39, 7.0e11, 0.06, 3.2e-9, 12e9,
                            1.25e13, 2.55e9, 0.0 },
        [WM_COST_PAIRS_CIGAR] = { "align pairs --cigar", 0.01, 1.745e11 / 9.99, 2.7e11, 0.06,
                                  2.1e-8, 12e9, 5.3e12, 1.42e9, 0.0 },
        /* DTW: work = cells (query samples x series samples). bench_dtw
        ** (BENCHMARKS.md 7c, `bash bench/gpu_session.sh dtw .gpu`): m = 1,024,
        ** n = 4 M: 1.25 s on 1 thread (3.4e9 a thread); n = 67 M: 1.84 s on 16
        ** (the cap, 3.73e10). GPU (7a): 16.6 ms at n = 4 M, 223 ms at n = 67 M,
        ** of which 72 ms copying 512 MiB from pageable memory: 7.5 GB/s, the
        ** rest 3 ms + cells / 4.6e11. */
        [WM_COST_DTW] = { "dtw", 0.01, 3.4e9, 3.73e10, 0.003, 0.0, 7.5e9, 4.6e11, 0.0, 0.0 },
        /* Sets within k errors (src/setk): work = patterns x bytes, and a
        ** cost per pattern on each side (reading it, its seeds, finishing its
        ** rows), which is most of the time against a small genome. Seeded:
        ** 10^6 reads of 150 bp, k = 4 edits, both strands, every end listed,
        ** an H200 and its 16 cores, tree of c1c7e4d (BENCHMARKS.md 29,
        ** `bash bench/gpu_setk_ab.sh build,test,bench .gpus`, medians of 3):
        ** E. coli (4.64 Mb) cpu 2.62 s, cuda 1.23 s; chrX (70 Mb) cpu 13.79
        ** s, cuda 1.40 s. Solved for the two: the CPU 1.80 us a read (on 16
        ** threads) + work / 5.86e12; the GPU after its start-up 0.81 us a
        ** read + work / 3.84e14. So a million reads go to the GPU against any
        ** genome, 10^5 against E. coli stay on the CPU (0.29 s against
        ** 0.48). With --best-per-locus the two tie on E. coli (1.68 and 1.69
        ** s). (e3f67e9, the H100, with --best-per-locus: cpu 2.07 / 11.90 s,
        ** cuda 2.22 / 3.43 s, crossing at ~5.8 Mb.) Direct (guides, 23 nt,
        ** Hamming k = 4, NGG, against
        ** chrX; BENCHMARKS.md 17c, the H100 host): the CPU scans them together
        ** as bit masks (setk/planes.c, tree 1a3c4de): 200 guides 0.68 s,
        ** 10,000 in 28.4-29.0 s = 2.4e10 work/s on 16 threads (one pattern a
        ** pass before: 200 in 14.3 s); cuda 10,000 in 1.63-1.87 s = 5.2e11
        ** after the start-up, 200 in 0.47 s. Per thread linear, cap twice
        ** the 16-thread rate (assumed, as above). */
        [WM_COST_SETK_SEEDED] = { "search set within k (seeded)", 0.03, 5.86e12 / 16, 2 * 5.86e12,
                                  0.0, 0.81e-6, 25e9, 3.84e14, 0.0, 1.80e-6 },
        [WM_COST_SETK_DIRECT] = { "search set within k (scanned whole)", 0.03, 2.4e10 / 16,
                                  2 * 2.4e10, 0.0, 0.0, 25e9, 5.2e11, 0.0, 0.0 },
        /* Direct Hamming patterns on DNA, which the CPU scans together
        ** through each group's pigeonhole index (setk/planes_index.c; the
        ** row above is now edit patterns, still one a pass). Guides + NGG,
        ** k = 4, --exact-suffix 3, both strands, chrX (BENCHMARKS.md 17d,
        ** `bash bench/gpu_setk.sh guides .gpu`, the H100 and its 16 cores,
        ** tree 5981ebb, medians of 3): cpu 200 / 1,000 / 10,000 guides in
        ** 0.098 / 0.167 / 1.197 s, cuda 0.448 / 0.559 / 1.883 s. The CPU:
        ** 0.06 s + work / 6.2e11 on 16 threads, where the rows' delivery
        ** binds (the cap); a thread 1.6e11 (the 2-core development machine,
        ** AVX-512: 10,000 in 2.26 s). The GPU after its start-up: work /
        ** 4.8e11. So the CPU is chosen on 16 threads whatever the count. */
        [WM_COST_SETK_PLANES] = { "search set within k (Hamming, scanned together)", 0.06, 1.6e11,
                                  6.2e11, 0.0, 0.0, 25e9, 4.8e11, 0.0, 0.0 },
    },
    /* Pairs besides their rows (the pairs' rows above say how). Pairs past
    ** WM_CU_PAIR_POOL_CELLS (10^9) run alone (src/align/pairs.c): the CPU
    ** backend gives each one thread, the GPU its long-pair kernel. One pair
    ** of 1 Mb at 1% (real1M) on the H100 host (BENCHMARKS.md 24, `bash
    ** bench/gpu_long.sh all .gpu`): a thread 1.30 s for the distance (6b),
    ** 2.25 s with the CIGAR (tree 1e02a70; the CLI's 2.24-2.30 s); the GPU
    ** 0.096 s (tree 6f7054d) and, the distance pass keeping the
    ** checkpoints, 0.199 s with the CIGAR (24e, tree 1c1f652). Random pairs
    ** take the CPU longer (rand1M: 77 s on 16 threads), the GPU the same:
    ** the CPU's rate is its best case, so the GPU is chosen only where it
    ** wins that too (from about 600 kb a side for distances, 470 kb with
    ** CIGARs, with the GPU's start-up). */
    { { 1.6e5, 590, 8192, 1e9, 1e12 / 1.30, 1e12 / 0.096 },
      { 1.5e5, 270, 8192, 1e9, 1e12 / 2.25, 1e12 / 0.199 } },
};

double wm_backend_gpu_startup(void) { return wm_cost_model_default.gpu_startup_s; }

/* The CPU's rate for a single pattern: the filters need pieces of
** m / (k + 1) bytes; shorter pieces leave the plain scan (BENCHMARKS.md 3b,
** chrX, 16 threads: m = 8 reaches 3.0 / 1.6 / 0.29 GB/s for k = 1..3, m = 16
** 2.8 GB/s for k = 2, against 9-13 GB/s at m = 32). */
static double piece_factor(uint64_t m, uint32_t k) {
    if (k == 0) return 1.0;
    uint64_t piece = m / ((uint64_t)k + 1);
    return piece >= 8 ? 1.0 : piece >= 4 ? 0.3 : 0.1;
}

static double per(double units, double rate) { return rate > 0 ? units / rate : 0.0; }

wm_status wm_backend_choose_with(const wm_cost_model_t *model, const wm_workload_t *w, int online,
                                 wm_backend_choice_t *out) {
    if (!model || !w || !out || (unsigned)w->kind > WM_WORK_DTW) return WM_INVALID;
    double bytes = (double)w->bytes, n = (double)w->n, work, cpu_factor = 1.0, gpu_factor = 1.0;
    const wm_cost_row_t *r;
    const char *unit = "cells";
    double calls = 0.0;
    double cpu_work = -1.0, both_units = -1.0; /* (pairs: besides work) */
    int gpu_on_cpu = 0;                        /* the GPU backend runs it on the CPU threads */
    int alone = 0;                             /* pairs that each run alone (pc below) */
    const wm_cost_pairs_t *pc = NULL;
    switch (w->kind) {
    case WM_WORK_SEARCH:
        r = &model->row[w->k >= 3 ? WM_COST_SEARCH_K3 : WM_COST_SEARCH_K0 + (int)w->k];
        if (w->k > 3) cpu_factor = gpu_factor = 4.0 / ((double)w->k + 1.0);
        cpu_factor *= piece_factor(w->m, w->k);
        work = bytes;
        unit = "B";
        break;
    case WM_WORK_SEARCH_SET:
        if (w->k > 0) { /* m: the shortest pattern; pieces of m / (k + 1) (setk.h) */
            r = &model->row[w->m / ((uint64_t)w->k + 1) >= 12 ? WM_COST_SETK_SEEDED
                            : w->hamming && w->m <= 64        ? WM_COST_SETK_PLANES
                                                              : WM_COST_SETK_DIRECT];
            work = bytes * (n > 0 ? n : 1.0);
            calls = n > 0 ? n : 1.0;
            unit = "pattern x B";
            break;
        }
        r = &model->row[WM_COST_SET];
        work = bytes * (1.0 + n / 5660.0);
        unit = "B";
        break;
    case WM_WORK_ALIGN_INFIX:
        r = &model->row[WM_COST_INFIX];
        work = ((double)w->m + 32.0 * (n > 0 ? n : 1.0)) * bytes;
        calls = n > 0 ? n : 1.0;
        break;
    case WM_WORK_ALIGN_PAIRS: {
        r = &model->row[w->cigar ? WM_COST_PAIRS_CIGAR : WM_COST_PAIRS];
        pc = &model->pairs[w->cigar ? 1 : 0];
        double side = n > 0 ? bytes / (2.0 * n) : 0.0;
        work = w->cells > 0 ? (double)w->cells : n * side * side;
        cpu_work = work + n * pc->pair_cells;
        both_units = bytes + n * pc->pair_both_bytes;
        alone = pc->alone_cells > 0 && n > 0 && work / n > pc->alone_cells;
        gpu_on_cpu = !alone && pc->gpu_max_side > 0 && side > pc->gpu_max_side;
        calls = n; /* the GPU's cost a pair: the row's gpu_call_s */
        break;
    }
    default: /* WM_WORK_DTW */
        r = &model->row[WM_COST_DTW];
        work = (double)w->m * (bytes / 8.0);
        break;
    }
    int threads = w->threads > 0 ? w->threads : (online > 0 ? online : 1);
    double rate = (double)threads * r->cpu_thread_rate;
    if (rate > r->cpu_cap_rate) rate = r->cpu_cap_rate;
    if (alone) { /* a thread a pair */
        rate = pc->alone_cpu_rate * (n < (double)threads ? n : (double)threads);
        cpu_work = work;
    }
    rate *= cpu_factor;
    if (cpu_work < 0) cpu_work = work;
    double both = per(both_units < 0 ? work : both_units, r->both_rate);

    out->threads = threads;
    out->work = work;
    out->unit = unit;
    out->row = r->name;
    out->cpu_rate = rate;
    out->cpu_s = r->cpu_fixed_s + calls * r->cpu_call_s + per(cpu_work, rate) + both;
    out->gpu_s = -1.0;
    out->gpu_startup_s = out->gpu_fixed_s = out->gpu_move_s = out->gpu_work_s = 0.0;
    out->gpu_rate = r->gpu_rate * gpu_factor;
    out->move_rate = r->gpu_move_rate;
    out->backend = WM_BACKEND_CPU;
    if (w->n_gpus <= 0 || w->cpu_only) return WM_OK;

    /* One GPU, whatever n_gpus says: two are no faster than one today (issue
    ** 16: 16 GiB in 2.31 s on one H100, 2.71 s on two; BENCHMARKS.md 25, the
    ** host's reads into pinned memory the bound: 16.8 GB in 0.95-1.08 s on
    ** one H200, 1.04-1.17 s on two). */
    out->gpu_startup_s = model->gpu_startup_s;
    out->gpu_fixed_s = r->gpu_fixed_s + calls * r->gpu_call_s;
    out->gpu_move_s = per(bytes, r->gpu_move_rate);
    if (alone) out->gpu_rate = pc->alone_gpu_rate * gpu_factor;
    out->gpu_work_s = gpu_on_cpu ? per(cpu_work, rate) : per(work, out->gpu_rate);
    out->gpu_s = out->gpu_startup_s + out->gpu_fixed_s + out->gpu_move_s + out->gpu_work_s + both;
    if (out->gpu_s < out->cpu_s) out->backend = WM_BACKEND_CUDA;
    return WM_OK;
}

wm_status wm_backend_choose(const wm_workload_t *w, wm_backend_choice_t *out) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return wm_backend_choose_with(&wm_cost_model_default, w, online > 0 ? (int)online : 1, out);
}
