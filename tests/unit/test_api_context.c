/*
** test_api_context.c -- the library's ground floor, one check at a time (as
** Hyperscan's arg_checks do): wm_version, wm_strerror (every code, unknown
** codes), wm_context_opts_default, wm_context_new (NULLs, bad options, CUDA
** without a GPU), wm_context_backend / errmsg, wm_context_free(NULL), the
** CUDA environment calls, and the progress callback's contract.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "matches.h"
#include "warpmatch.h"

/* ---- version, status text, defaults -------------------------------------- */

static void test_version_and_strerror(void) {
    CHECK(wm_version() != NULL && strcmp(wm_version(), WM_VERSION_STRING) == 0,
          "wm_version() = \"%s\"", wm_version() ? wm_version() : "(null)");
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", WM_VERSION_MAJOR, WM_VERSION_MINOR, WM_VERSION_PATCH);
    CHECK(strcmp(buf, WM_VERSION_STRING) == 0, "WM_VERSION_STRING \"%s\" vs numbers %s",
          WM_VERSION_STRING, buf);

    static const int codes[] = {
        WM_OK,
        WM_STOPPED,
        WM_INVALID,
        WM_NOMEM,
        WM_IO,
        WM_FORMAT,
        WM_UNSUPPORTED,
        WM_NO_DEVICE,
        WM_DEVICE,
        WM_DEVICE_NOMEM,
        WM_INSUFFICIENT_SPACE,
        WM_PATTERN_EMPTY,
        WM_PATTERN_TOO_LONG,
        WM_K_TOO_LARGE,
    };
    for (size_t i = 0; i < N_OF(codes); i++) {
        const char *s = wm_strerror(codes[i]);
        CHECK(s != NULL && s[0] != '\0', "wm_strerror(%d) is NULL or empty", codes[i]);
        for (size_t j = 0; s && j < i; j++) {
            const char *t = wm_strerror(codes[j]);
            CHECK(t == NULL || strcmp(s, t) != 0, "wm_strerror(%d) == wm_strerror(%d) = \"%s\"",
                  codes[i], codes[j], s);
        }
    }
    static const int unknown[] = { 2, -13, -999, 12345, -2147483647 - 1, 2147483647 };
    for (size_t i = 0; i < N_OF(unknown); i++) {
        const char *s = wm_strerror(unknown[i]);
        CHECK(s != NULL && s[0] != '\0', "wm_strerror(unknown %d) is NULL or empty", unknown[i]);
        /* an unknown code must not pass for a real one */
        for (size_t j = 0; s && j < N_OF(codes); j++)
            CHECK(strcmp(s, wm_strerror(codes[j])) != 0,
                  "wm_strerror(unknown %d) reads as code %d: \"%s\"", unknown[i], codes[j], s);
    }
}

static void test_context_defaults(void) {
    wm_context_opts_t c = wm_context_opts_default();
    CHECK(c.backend == WM_BACKEND_AUTO && c.threads == 0 && c.device == 0 && c.chunk_bytes == 0 &&
              c.progress == NULL && c.progress_user == NULL,
          "wm_context_opts_default() is not {auto, 0, 0, 0, NULL, NULL}");
    wm_context_free(NULL);
    CHECK(1, "wm_context_free(NULL) returned");
}

/* ---- contexts ---------------------------------------------------------------- */

/* wm_context_new(co) gives a context of backend `want`. */
static void expect_context(const wm_context_opts_t *co, wm_backend_t want) {
    wm_context_t *cx = NULL;
    CHECK_RC(wm_context_new(co, &cx), WM_OK);
    if (cx)
        CHECK(wm_context_backend(cx) == want, "a context of backend %d has backend %d", (int)want,
              (int)wm_context_backend(cx));
    wm_context_free(cx);
}

static void test_context(void) {
    wm_context_t *cx = NULL;
    CHECK_RC(wm_context_new(NULL, NULL), WM_INVALID);
    wm_context_opts_t co = wm_context_opts_default();
    CHECK_RC(wm_context_new(&co, NULL), WM_INVALID);

    /* NULL options = defaults */
    cx = NULL;
    CHECK_RC(wm_context_new(NULL, &cx), WM_OK);
    if (cx) {
        wm_backend_t b = wm_context_backend(cx);
        CHECK(b == WM_BACKEND_CPU || b == WM_BACKEND_CUDA, "wm_context_backend() = %d", (int)b);
        if (wm_cuda_device_count() == 0)
            CHECK(b == WM_BACKEND_CPU, "AUTO without a GPU gave backend %d", (int)b);
        const char *e = wm_context_errmsg(cx);
        CHECK(e != NULL && e[0] == '\0', "fresh context errmsg \"%s\"", e ? e : "(null)");
        wm_context_free(cx);
    }
    /* explicit CPU, various threads */
    static const int threads[] = { 0, 1, 2, 3, 7 };
    for (size_t i = 0; i < N_OF(threads); i++) {
        co = wm_context_opts_default();
        co.backend = WM_BACKEND_CPU;
        co.threads = threads[i];
        expect_context(&co, WM_BACKEND_CPU);
    }
    /* bad options */
    co = wm_context_opts_default();
    co.backend = (wm_backend_t)9;
    cx = NULL;
    CHECK_RC(wm_context_new(&co, &cx), WM_INVALID);
    wm_context_free(cx);
    co = wm_context_opts_default();
    co.threads = -1;
    cx = NULL;
    CHECK_RC(wm_context_new(&co, &cx), WM_INVALID);
    wm_context_free(cx);

    /* CUDA without a GPU */
    if (!wm_cuda_built())
        CHECK(wm_cuda_device_count() == 0, "CUDA not built but %d devices", wm_cuda_device_count());
    if (wm_cuda_device_count() == 0) {
        co = wm_context_opts_default();
        co.backend = WM_BACKEND_CUDA;
        cx = NULL;
        int rc = wm_context_new(&co, &cx);
        int want = wm_cuda_built() ? WM_NO_DEVICE : WM_UNSUPPORTED;
        CHECK(rc == want, "wm_context_new(cuda) without a GPU returned %d (%s), expected %d (%s)",
              rc, wm_strerror(rc), want, wm_strerror(want));
        if (cx) { /* handed back for its message, as sqlite3_open does */
            const char *e = wm_context_errmsg(cx);
            CHECK(e != NULL && e[0] != '\0', "failed CUDA context has an empty errmsg");
            CHECK(wm_context_backend(cx) != WM_BACKEND_AUTO, "failed CUDA context reports AUTO");
            wm_context_free(cx);
        }
        char name[64];
        uint64_t tot = 0, fr = 0;
        int sm = 0;
        rc = wm_cuda_device_info(0, name, sizeof name, &tot, &fr, &sm);
        CHECK(rc == WM_INVALID || rc == WM_UNSUPPORTED, "wm_cuda_device_info(0) without a GPU = %d",
              rc);
        if (!wm_cuda_built())
            CHECK(rc == WM_UNSUPPORTED, "wm_cuda_device_info without CUDA built = %d", rc);
    } else {
        char name[256];
        uint64_t tot = 0, fr = 0;
        int sm = 0;
        CHECK_RC(wm_cuda_device_info(0, name, sizeof name, &tot, &fr, &sm), WM_OK);
        CHECK(tot > 0 && fr <= tot && sm > 0 && name[0] != '\0', "device 0 info looks wrong");
        int rc = wm_cuda_device_info(wm_cuda_device_count(), name, sizeof name, &tot, &fr, &sm);
        CHECK(rc == WM_INVALID, "wm_cuda_device_info(count) = %d", rc);
        rc = wm_cuda_device_info(-1, name, sizeof name, &tot, &fr, &sm);
        CHECK(rc == WM_INVALID, "wm_cuda_device_info(-1) = %d", rc);
        co = wm_context_opts_default();
        co.backend = WM_BACKEND_CUDA;
        expect_context(&co, WM_BACKEND_CUDA);
        co.device = wm_cuda_device_count(); /* no such device */
        cx = NULL;
        rc = wm_context_new(&co, &cx);
        CHECK(rc != WM_OK, "wm_context_new(cuda, device %d) succeeded", co.device);
        wm_context_free(cx);
    }
    /* AUTO always resolves to a real backend */
    co = wm_context_opts_default();
    cx = NULL;
    if (wm_context_new(&co, &cx) == WM_OK && cx)
        CHECK(wm_context_backend(cx) != WM_BACKEND_AUTO, "wm_context_backend() is AUTO");
    wm_context_free(cx);
}

/* ---- progress ---------------------------------------------------------------- */

typedef struct {
    uint64_t last_done, total;
    int calls, bad;
} progress_t;

static void on_progress(uint64_t done, uint64_t total, void *user) {
    progress_t *p = user;
    if (done < p->last_done || done > total || (p->calls && total != p->total)) p->bad++;
    p->last_done = done;
    p->total = total;
    p->calls++;
}

static void test_progress(void) {
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    co.threads = 3;
    co.chunk_bytes = 1000;
    progress_t p;
    memset(&p, 0, sizeof p);
    co.progress = on_progress;
    co.progress_user = &p;
    wm_context_t *cx = NULL;
    CHECK_RC(wm_context_new(&co, &cx), WM_OK);
    wm_db_t *db = compile_text("needle", NULL);
    if (cx && db) {
        static uint8_t text[50000];
        memset(text, 'x', sizeof text);
        wm_text_t t = { text, sizeof text, NULL, 0 };
        match_vec none = { 0 };
        CHECK_RC(wm_search(cx, db, &t, collect, &none), WM_OK);
        free(none.a);
        CHECK(p.bad == 0, "progress went backwards or past its total (%d times)", p.bad);
        CHECK(p.calls == 0 || p.last_done == p.total,
              "last progress report %" PRIu64 " of %" PRIu64, p.last_done, p.total);
    }
    wm_db_free(db);
    wm_context_free(cx);
}

int main(void) {
    printf("test_api_context: warpmatch %s, CUDA built %d, %d GPU(s)\n", wm_version(),
           wm_cuda_built(), wm_cuda_device_count());
    test_version_and_strerror();
    test_context_defaults();
    test_context();
    test_progress();
    return test_finish();
}
