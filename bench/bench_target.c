/*
** bench_target.c -- many calls against one text, with and without a target
** kept on the GPU (wm_target_*, issue 16 item 6): Q reads of M bytes cut
** from the text (about 1 in 20 bytes changed) aligned in infix mode, and Q
** patterns of 32 bytes counted within K errors, each call timed as the
** plain call (the text copied at every call) and as the call on a target.
**
**   bench_target [-b cpu|cuda] [-q Q] [-m M] [-k K] [-r REPEATS] FILE
**
** FILE is read whole as one record (plain sequence). Prints, per kind of
** call, the median over REPEATS of the whole loop of Q calls and the rate,
** plain beside target, the speed-up, and the target's upload (once):
**   what=align calls=Q plain_s=X target_s=Y per_call_ms=A/B speedup=S
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "core/internal.h"
#include "warpmatch.h"

static uint8_t *read_all(const char *path, uint64_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = len > 0 ? malloc((size_t)len) : NULL;
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = b ? (uint64_t)len : 0;
    return b;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv) {
    bu_prog = "bench_target";
    wm_backend_t be = WM_BACKEND_CUDA;
    int q = 1000, reps = 3;
    size_t m = 150;
    unsigned k = 2;
    int c;
    while ((c = getopt(argc, argv, "b:q:m:k:r:")) != -1) {
        if (c == 'b') be = strcmp(optarg, "cpu") == 0 ? WM_BACKEND_CPU : WM_BACKEND_CUDA;
        else if (c == 'q') q = atoi(optarg);
        else if (c == 'm') m = (size_t)atol(optarg);
        else if (c == 'k') k = (unsigned)atoi(optarg);
        else if (c == 'r') reps = atoi(optarg);
        else return 2;
    }
    if (optind >= argc || q < 1 || m < 32 || reps < 1) {
        fprintf(stderr, "usage: bench_target [-b cpu|cuda] [-q Q] [-m M>=32] [-k K] [-r R] FILE\n");
        return 2;
    }
    uint64_t n = 0;
    uint8_t *t = read_all(argv[optind], &n);
    if (!t || n < m) {
        fprintf(stderr, "bench_target: cannot read %s (or shorter than %zu)\n", argv[optind], m);
        return 2;
    }
    uint8_t *reads = malloc((size_t)q * m);
    for (int i = 0; i < q; i++) {
        /* a read of A, C, G and T only: one cut from a run of N (chrX opens
        ** with millions) is all wildcards, matches everywhere and times the
        ** hits, not the call */
        const uint8_t *at;
        int tries = 0;
        do at = t + next() % (n - m);
        while (memchr(at, 'N', m) && ++tries < 1000);
        memcpy(reads + (size_t)i * m, at, m);
        for (size_t j = 0; j < m; j++)
            if (next() % 20 == 0) reads[(size_t)i * m + j] = "ACGT"[next() % 4];
    }
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = be;
    wm_context_t *cx = NULL;
    if (wm_context_new(&co, &cx) != WM_OK) {
        fprintf(stderr, "bench_target: no %s context\n", be == WM_BACKEND_CPU ? "cpu" : "cuda");
        return 2;
    }
    bu_print_device();
    wm_text_t text = { t, n, NULL, 0 };
    wm_target_t *tg = NULL;
    wm_target_new(cx, &text, &tg);
    wm_align_opts_t ao = wm_align_opts_default();
    ao.alphabet = WM_ALPHABET_DNA;
    ao.max_distance = (int64_t)(m / 10);
    wm_opts_t so = wm_opts_default();
    so.alphabet = WM_ALPHABET_DNA;
    so.max_edits = k;
    wm_db_t **db = malloc((size_t)q * sizeof *db);
    for (int i = 0; i < q; i++)
        if (wm_compile(reads + (size_t)i * m, 32, &so, &db[i]) != WM_OK) {
            fprintf(stderr, "bench_target: pattern %d does not compile\n", i);
            return 1;
        }

    for (int what = 0; what < 2; what++) {
        double plain[16], target[16];
        uint64_t sum_p = 0, sum_t = 0;
        for (int r = 0; r < reps && r < 16; r++)
            for (int use = 0; use < 2; use++) {
                double t0 = bu_now_s();
                uint64_t sum = 0;
                for (int i = 0; i < q; i++) {
                    const uint8_t *qi = reads + (size_t)i * m;
                    if (what == 0) {
                        wm_alignments_t out = { 0 };
                        wm_status st = use ? wm_align_target(cx, qi, m, tg, 0, n, &ao, &out)
                                           : wm_align(cx, qi, m, t, n, &ao, &out);
                        if (st != WM_OK) {
                            fprintf(stderr, "bench_target: align %s failed: %s (%s)\n",
                                    use ? "on the target" : "plain", wm_strerror(st),
                                    wm_context_errmsg(cx));
                            return 1;
                        }
                        sum += out.n ? out.a[0].distance + out.a[0].end : 0;
                        wm_alignments_free(&out);
                    } else {
                        uint64_t c = 0;
                        wm_status st = use ? wm_count_target(cx, db[i], tg, &c)
                                           : wm_count(cx, db[i], &text, &c);
                        if (st != WM_OK) {
                            fprintf(stderr, "bench_target: count %s failed: %s (%s)\n",
                                    use ? "on the target" : "plain", wm_strerror(st),
                                    wm_context_errmsg(cx));
                            return 1;
                        }
                        sum += c;
                    }
                }
                (use ? target : plain)[r] = bu_now_s() - t0;
                *(use ? &sum_t : &sum_p) = sum;
            }
        int rr = reps < 16 ? reps : 16;
        double p = bu_median(plain, (size_t)rr), g = bu_median(target, (size_t)rr);
        printf("what=%s calls=%d bytes=%llu m=%zu %s plain_s=%.4f target_s=%.4f "
               "per_call_ms=%.3f/%.3f speedup=%.2f same=%s\n",
               what == 0 ? "align" : "count", q, (unsigned long long)n, what == 0 ? m : 32,
               what == 0 ? "infix" : "k-errors", p, g, 1e3 * p / q, 1e3 * g / q, p / g,
               sum_p == sum_t ? "yes" : "NO");
    }
    const wm_stats_t *s = wm_context_stats(cx);
    printf("target: resident=%d uploads=%llu upload_s=%.4f\n", wm_target_resident(tg),
           (unsigned long long)s->gpu_target_uploads, s->gpu_target_upload_s);
    /* Where a count's time goes on the GPU: the search driver's set-up (plan
    ** tables, buffers) and its loop (copies, kernels, hits), per call, against
    ** the whole call: the rest is outside the driver. */
    if (be == WM_BACKEND_CUDA) {
        wm_stats_t *w = (wm_stats_t *)s;
        memset(w, 0, sizeof *w);
        double t0 = bu_now_s();
        for (int i = 0; i < q; i++) {
            uint64_t c = 0;
            wm_count_target(cx, db[i], tg, &c);
        }
        double all = bu_now_s() - t0;
        printf("count on the target, per call: %.3f ms in all, driver set-up %.3f ms, loop %.3f "
               "ms (%llu batches a call)\n",
               1e3 * all / q, 1e3 * s->search_gpu_setup_s / q, 1e3 * s->search_gpu_loop_s / q,
               (unsigned long long)(s->search_gpu_batches / (uint64_t)q));
    }
    for (int i = 0; i < q; i++) wm_db_free(db[i]);
    wm_target_free(tg);
    wm_context_free(cx);
    free(db);
    free(reads);
    free(t);
    return 0;
}
