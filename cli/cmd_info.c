/*
** cmd_info.c -- `warpmatch info`: the version, the backends built, the GPUs
** found and the CPU threads online, one "key: value" line each.
**
**     warpmatch 0.1.0
**     cpu: yes
**     cuda: yes
**     gpu 0: NVIDIA H100 80GB HBM3, 79.1 GiB total, 78.6 GiB free, 132 SMs
**     default backend: cuda
**     cpu threads online: 16
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "cli.h"
#include "flags.h"

int wm_cmd_info(int argc, char **argv) {
    if (argc > 1) {
        /* Only -h/--help (help.c prints it from the flag table): any
        ** other word is refused as it is, option or not. */
        if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
            wm_flags_help(&wm_cli_cmd_info);
            return wm_cli_help_status();
        }
        wm_cli_error("info takes no arguments ('%s')", argv[1]);
        return WM_EXIT_ERROR;
    }
    printf("warpmatch %s\n", wm_version());
    printf("cpu: yes\n");
    printf("cuda: %s\n", wm_cuda_built() ? "yes" : "no (not built)");

    int n_gpu = wm_cuda_built() ? wm_cuda_device_count() : 0;
    if (n_gpu <= 0) printf("gpu: no GPU found\n");
    for (int i = 0; i < n_gpu; ++i) {
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

    /* What --backend auto resolves to: ask the library rather than guess. */
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_AUTO;
    co.threads = 1;
    wm_context_t *cx = NULL;
    if (wm_context_new(&co, &cx) == WM_OK) {
        printf("default backend: %s\n", wm_context_backend(cx) == WM_BACKEND_CUDA ? "cuda" : "cpu");
        wm_context_free(cx);
    }

    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    printf("cpu threads online: %ld\n", ncpu > 0 ? ncpu : 1L);
    return wm_cli_help_status();
}
