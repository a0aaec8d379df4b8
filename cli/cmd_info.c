/*
** cmd_info.c -- `warpmatch info`: the version, the backends built, the GPUs
** found and the CPU threads online, one "key: value" line each, or with
** --json one JSON object on one line (the same facts, for scripts). What
** was built is the library's answer (wm_version, wm_build_features), so a
** tool run with another build of the library reports that build.
**
**     warpmatch 0.1.0
**     cpu: yes
**     cuda: yes
**     features: cuda sse2 avx2 avx512 gzip
**     gpu 0: NVIDIA H100 80GB HBM3, 79.1 GiB total, 78.6 GiB free, 132 SMs
**     default backend: auto: cpu or cuda per run, by a cost model (--explain-backend)
**     gpu start-up (cost model): 0.40 s
**     cpu threads online: 16
**
** --json keeps "default_backend" (what a library context made with AUTO
** resolves to: cuda when a GPU is found) and adds "auto" (the tool's rule:
** "cost model", or "cpu" without a GPU) and "gpu_startup_s".
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "cli.h"
#include "flags.h"
#include "out.h"

/* What info reports. */
typedef struct {
    int n_gpu;
    const char *backend; /* what --backend auto resolves to */
    long threads;
    double startup_s; /* the GPU's start-up, measured here: driver and context; < 0 without one */
} facts_t;

static void gather(facts_t *f) {
    double t0 = wm_cli_now();
    f->n_gpu = wm_build_features() & WM_FEATURE_CUDA ? wm_cuda_device_count() : 0;
    if (f->n_gpu < 0) f->n_gpu = 0;
    /* What --backend auto resolves to: ask the library rather than guess. */
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_AUTO;
    co.threads = 1;
    wm_context_t *cx = NULL;
    f->backend = NULL;
    if (wm_context_new(&co, &cx) == WM_OK)
        f->backend = wm_context_backend(cx) == WM_BACKEND_CUDA ? "cuda" : "cpu";
    f->startup_s = f->backend && strcmp(f->backend, "cuda") == 0 ? wm_cli_now() - t0 : -1.0;
    wm_context_free(cx);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    f->threads = ncpu > 0 ? ncpu : 1L;
}

/* Space-separated words as JSON strings, comma-separated (they need no escapes). */
static void print_json_words(const char *words) {
    for (const char *w = words; *w;) {
        size_t n = strcspn(w, " ");
        printf("%s\"%.*s\"", w == words ? "" : ",", (int)n, w);
        w += n + (w[n] == ' ');
    }
}

static void print_text(const facts_t *f) {
    printf("warpmatch %s\n", wm_version());
    printf("cpu: yes\n");
    printf("cuda: %s\n", wm_build_features() & WM_FEATURE_CUDA ? "yes" : "no (not built)");
    printf("features: %s\n", wm_build_features_string());
    if (f->n_gpu == 0) printf("gpu: no GPU found\n");
    for (int i = 0; i < f->n_gpu; ++i) {
        char name[256] = "";
        uint64_t total = 0, avail = 0;
        int sms = 0;
        wm_status st = wm_cuda_device_info(i, name, sizeof name, &total, &avail, &sms);
        if (st != WM_OK) {
            printf("gpu %d: (no details: %s)\n", i, wm_strerror(st));
            continue;
        }
        printf("gpu %d: %s, %.1f GiB total, %.1f GiB free, %d SMs\n", i, name,
               (double)total / (1024.0 * 1024.0 * 1024.0),
               (double)avail / (1024.0 * 1024.0 * 1024.0), sms);
    }
    if (f->n_gpu == 0) printf("default backend: cpu (auto without a GPU)\n");
    else
        printf("default backend: auto: cpu or cuda per run, by a cost model (--explain-backend)\n");
    printf("gpu start-up (cost model): %.2f s\n", wm_backend_gpu_startup());
    if (f->startup_s >= 0)
        printf("gpu start-up (measured now, driver and context): %.3f s\n", f->startup_s);
    printf("cpu threads online: %ld\n", f->threads);
}

/* {"version":...,"version_number":...,"cuda":bool,"features":["sse2",...],"gpus":[{"index":..,"name":..,"total_bytes":..,
** "free_bytes":..,"sms":..},...],"default_backend":...,"cpu_threads":...} */
static void print_json(const facts_t *f) {
    printf("{\"version\":");
    wm_out_json_cstr(stdout, wm_version());
    printf(",\"version_number\":%u,\"cuda\":%s,\"features\":[", wm_version_number(),
           wm_build_features() & WM_FEATURE_CUDA ? "true" : "false");
    print_json_words(wm_build_features_string());
    printf("],\"gpus\":[");
    for (int i = 0; i < f->n_gpu; ++i) {
        char name[256] = "";
        uint64_t total = 0, avail = 0;
        int sms = 0;
        wm_status st = wm_cuda_device_info(i, name, sizeof name, &total, &avail, &sms);
        printf("%s{\"index\":%d", i ? "," : "", i);
        if (st == WM_OK) {
            printf(",\"name\":");
            wm_out_json_cstr(stdout, name);
            printf(",\"total_bytes\":%llu,\"free_bytes\":%llu,\"sms\":%d",
                   (unsigned long long)total, (unsigned long long)avail, sms);
        }
        printf("}");
    }
    printf("],\"default_backend\":");
    if (f->backend) wm_out_json_cstr(stdout, f->backend);
    else printf("null");
    printf(",\"auto\":\"%s\",\"gpu_startup_s\":%.2f", f->n_gpu ? "cost model" : "cpu",
           wm_backend_gpu_startup());
    if (f->startup_s >= 0) printf(",\"gpu_startup_measured_s\":%.3f", f->startup_s);
    printf(",\"cpu_threads\":%ld}\n", f->threads);
}

int wm_cmd_info(int argc, char **argv) {
    int json = 0;
    for (int i = 1; i < argc; ++i) {
        /* -h/--help (help.c prints it from the flag table) and --json; any
        ** other word is refused as it is, option or not. */
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            wm_flags_help(&wm_cli_cmd_info);
            return wm_cli_help_status();
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
        wm_cli_error("info takes no arguments but --json ('%s')", argv[i]);
        return WM_EXIT_ERROR;
    }
    facts_t f;
    gather(&f);
    if (json) print_json(&f);
    else print_text(&f);
    return wm_cli_help_status();
}
