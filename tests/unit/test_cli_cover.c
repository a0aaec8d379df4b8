/*
** test_cli_cover.c -- the price of the CPU covering the GPU's start-up
** (wm_cli_cover_seconds, cli/choose.c), which `--backend auto` weighs
** against the CPU alone for a search of whole files.
**   - no GPU side, no bytes, or a CPU that finishes within the start-up:
**     -1 (no cover);
**   - otherwise the CPU covers start-up x its rate in bytes, and the price
**     is the GPU's start-up, set-up and host work plus the moves and kernels
**     of the bytes left, re-derived here from the choice's parts;
**   - on the library's own model, for one pattern at k = 0..3 and a set of
**     16,000 8-mers over 1 MB .. 64 GB on 1, 16 and 32 threads: the cover
**     is never dearer than the GPU alone, never cheaper than the GPU's
**     start-up and set-up, exists exactly when the CPU alone would outlast
**     the start-up, and (the GPU's rate being the larger) its saving over
**     the GPU alone never falls as the text grows.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "choose.h"
#include "harness.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1e-12); }

/* The cover's price from the choice's parts: what the formula should give. */
static double expected(const wm_backend_choice_t *c, double bytes, double *covered) {
    double scan = c->work / c->cpu_rate;
    *covered = bytes * c->gpu_startup_s / scan;
    double host = c->gpu_s - c->gpu_startup_s - c->gpu_fixed_s - c->gpu_move_s - c->gpu_work_s;
    return c->gpu_startup_s + c->gpu_fixed_s + host +
           (bytes - *covered) / bytes * (c->gpu_move_s + c->gpu_work_s);
}

static void synthetic(void) {
    wm_backend_choice_t c;
    memset(&c, 0, sizeof c);
    c.work = 8e9;
    c.cpu_rate = 10e9; /* 0.8 s on the CPU */
    c.gpu_startup_s = 0.3;
    c.gpu_fixed_s = 0.05;
    c.gpu_move_s = 0.16;
    c.gpu_work_s = 0.01;
    c.gpu_s = 0.3 + 0.05 + 0.16 + 0.01 + 0.02; /* 0.02 of host work both do */
    double cov = -1, want_cov;
    double got = wm_cli_cover_seconds(&c, 8e9, &cov), want = expected(&c, 8e9, &want_cov);
    CHECK(near(got, want) && near(cov, want_cov) && near(cov, 3e9),
          "8 GB: %.6f s covering %.0f bytes, expected %.6f s covering %.0f", got, cov, want,
          want_cov);
    wm_backend_choice_t none = c;
    none.gpu_s = -1;
    CHECK(wm_cli_cover_seconds(&none, 8e9, &cov) == -1.0, "no GPU side: a cover");
    CHECK(wm_cli_cover_seconds(&c, 0, &cov) == -1.0, "no bytes: a cover");
    wm_backend_choice_t quick = c;
    quick.cpu_rate = 8e9 / 0.25; /* done before the GPU is ready */
    CHECK(wm_cli_cover_seconds(&quick, 8e9, &cov) == -1.0,
          "the CPU done within the start-up: a cover");
    quick.cpu_rate = 8e9 / 0.31;
    CHECK(wm_cli_cover_seconds(&quick, 8e9, &cov) > 0, "the CPU just slower: no cover");
}

static void on_the_model(void) {
    static const int threads[] = { 1, 16, 32 };
    for (int kind = 0; kind < 5; kind++)
        for (size_t t = 0; t < N_OF(threads); t++) {
            double last_saving = -1;
            for (double bytes = 1e6; bytes <= 64e9; bytes *= 2) {
                wm_workload_t w;
                memset(&w, 0, sizeof w);
                w.bytes = (uint64_t)bytes;
                w.threads = threads[t];
                w.n_gpus = 1;
                if (kind < 4) {
                    w.kind = WM_WORK_SEARCH;
                    w.m = 32;
                    w.k = (unsigned)kind;
                } else {
                    w.kind = WM_WORK_SEARCH_SET;
                    w.m = 8;
                    w.n = 16000;
                }
                wm_backend_choice_t c;
                if (!CHECK_RC(wm_backend_choose(&w, &c), WM_OK)) return;
                double cov = -1, want_cov;
                double got = wm_cli_cover_seconds(&c, bytes, &cov);
                double scan = c.work / c.cpu_rate;
                const char *what = kind < 4 ? "one pattern" : "16,000 8-mers";
                if (scan <= c.gpu_startup_s) {
                    CHECK(got == -1.0,
                          "%s, k %d, %d threads, %.0f bytes: a cover when the CPU "
                          "scans it in the start-up",
                          what, kind, threads[t], bytes);
                    continue;
                }
                double want = expected(&c, bytes, &want_cov);
                CHECK(near(got, want) && near(cov, want_cov),
                      "%s, k %d, %d threads, %.0f bytes: %.6f s, expected %.6f", what, kind,
                      threads[t], bytes, got, want);
                CHECK(got <= c.gpu_s * (1 + 1e-12) &&
                          got >= c.gpu_startup_s + c.gpu_fixed_s - 1e-12,
                      "%s, k %d, %d threads, %.0f bytes: %.6f s outside [%.6f, %.6f]", what, kind,
                      threads[t], bytes, got, c.gpu_startup_s + c.gpu_fixed_s, c.gpu_s);
                double saving = c.gpu_s - got;
                if (c.cpu_rate < c.gpu_rate && last_saving >= 0)
                    CHECK(saving >= last_saving - 1e-12,
                          "%s, k %d, %d threads: the saving fell from %.6f to %.6f s at %.0f bytes",
                          what, kind, threads[t], last_saving, saving, bytes);
                last_saving = saving;
            }
        }
}

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261128ull, &scale, &only);
    synthetic();
    on_the_model();
    return test_finish();
}
