/*
** bench_pack.c -- the host's half of the GPU's pairs (issue 18): sequences
** written into the staging buffer, by every way the library has done it,
** beside what reading alone costs on the same threads.
**
**   bench_pack [SIZE [REPS]]     # SIZE [300MiB] of DNA, REPS [7] timed runs
**
** Rows, each at 1, 4, 8 and all threads (the buffer split in equal parts,
** one a thread, as the library's pool splits a batch): memcpy (bytes as
** they are: the tree before nibbles.h), nibbles in the table form and in
** the fast form (nibbles.h: DNA's), and "read" (one load a cache line:
** the floor of anything that reads the source). Median of REPS, in ms and
** GB/s of source bytes. Source and destination are plain memory, written
** once before timing (the library's staging is pinned, which reads and
** writes the same from the CPU).
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align/nibbles.h"
#include "bench_util.h"

typedef enum { K_MEMCPY, K_TABLE, K_FAST, K_READ, N_KINDS } kind_t;
static const char *const k_name[N_KINDS] = { "memcpy", "nibbles, table form", "nibbles, fast form",
                                             "read" };

typedef struct {
    const uint8_t *src;
    uint8_t *dst;
    size_t n;
    int parts, part;
    kind_t kind;
    const wm_nib_map_t *nm;
    uint64_t sum; /* read: keeps the loads */
} job_t;

static void *run_part(void *arg) {
    job_t *j = arg;
    size_t lo = (j->n * (size_t)j->part / (size_t)j->parts) & ~(size_t)63;
    size_t hi = j->part + 1 == j->parts
                    ? j->n
                    : (j->n * (size_t)(j->part + 1) / (size_t)j->parts) & ~(size_t)63;
    switch (j->kind) {
    case K_MEMCPY: memcpy(j->dst + lo, j->src + lo, hi - lo); break;
    case K_READ:
        for (size_t i = lo; i < hi; i += 64) j->sum += j->src[i];
        break;
    default: wm_nib_pack(j->nm, j->src + lo, hi - lo, j->dst + lo / 2); break;
    }
    return NULL;
}

static volatile uint64_t sink; /* the read rows' loads, kept */

static double once(job_t *proto, int threads) {
    pthread_t th[256];
    job_t jobs[256];
    double t0 = bu_now_s();
    for (int t = 0; t < threads; t++) {
        jobs[t] = *proto;
        jobs[t].parts = threads;
        jobs[t].part = t;
        pthread_create(&th[t], NULL, run_part, &jobs[t]);
    }
    for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
    double dt = bu_now_s() - t0;
    for (int t = 0; t < threads; t++) proto->sum += jobs[t].sum;
    return dt;
}

int main(int argc, char **argv) {
    bu_prog = "bench_pack";
    uint64_t n = 300ull << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if ((argc > 1 && bu_parse_size(argv[1], &n) != 0) || n == 0 || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: bench_pack [SIZE [REPS]]\n");
        return 2;
    }
    uint8_t *src = malloc(n), *dst = malloc(n);
    if (!src || !dst) {
        fprintf(stderr, "bench_pack: out of memory for %llu bytes\n", (unsigned long long)n);
        return 2;
    }
    static const char bases[] = "ACGT";
    uint64_t s = 42;
    for (uint64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        src[i] = (uint8_t)bases[s >> 62];
    }
    memset(dst, 0, n);
    /* DNA's map (aquery.c's): fast form; the same codes with one byte more
    ** on another high nibble take the table form */
    uint8_t code[256];
    memset(code, 4, 256);
    static const char *const letters[4] = { "Aa", "Cc", "Gg", "TtUu" };
    for (int b = 0; b < 4; b++)
        for (const char *p = letters[b]; *p; p++) code[(uint8_t)*p] = (uint8_t)b;
    wm_nib_map_t fast, table;
    wm_nib_map_make(&fast, code, 4, WM_SIMD_AUTO);
    code[0x31] = 0; /* '1' as A: breaks the fast form */
    wm_nib_map_make(&table, code, 4, WM_SIMD_AUTO);
    int all = bu_usable_cpus();
    printf("# bench_pack: %llu bytes of DNA, median of %d\n", (unsigned long long)n, reps);
    bu_print_device();
    printf("# SIMD: %d (3 AVX2, 4 AVX-512F); forms: fast %d, table %d\n", (int)fast.isa, fast.fast,
           table.fast);
    printf("%-22s %7s %10s %8s\n", "kind", "threads", "median_ms", "GB/s");
    const int counts[] = { 1, 4, 8, all };
    for (int k = 0; k < N_KINDS; k++)
        for (size_t c = 0, last = 0; c < sizeof counts / sizeof *counts; c++) {
            int t = counts[c] < 256 ? counts[c] : 256;
            if (t > all || t <= (int)last) continue;
            last = (size_t)t;
            job_t proto = { src, dst, n, 1, 0, (kind_t)k, k == K_TABLE ? &table : &fast, 0 };
            double v[1000];
            once(&proto, t); /* untimed */
            for (int r = 0; r < reps; r++) v[r] = once(&proto, t);
            double med = bu_median(v, (size_t)reps);
            printf("%-22s %7d %10.3f %8.1f\n", k_name[k], t, med * 1e3, (double)n / med / 1e9);
            sink += proto.sum;
        }
    free(src);
    free(dst);
    return 0;
}
