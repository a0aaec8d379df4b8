/*
** files.c -- the run's temporary folder (files.h).
*/
#include "files.h"

#include <bzlib.h>
#include <ftw.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "harness.h"

static char g_dir[4096];
static int g_keep;
static unsigned g_serial; /* tmp_file's names */
static char **g_paths;    /* tmp_path's answers, freed at exit */
static size_t g_n_paths;

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    remove(p);
    return 0;
}

static void remove_folder(void) {
    if (!g_dir[0]) return;
    if (g_keep) printf("temporary files kept in %s\n", g_dir);
    else nftw(g_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    for (size_t i = 0; i < g_n_paths; i++) free(g_paths[i]);
    free(g_paths);
}

static void die(const char *what, const char *path) {
    printf("test: %s %s failed\n", what, path);
    exit(2);
}

const char *tmp_folder(void) {
    if (g_dir[0]) return g_dir;
    const char *t = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/wm_test_XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(g_dir)) die("mkdtemp", g_dir);
    atexit(remove_folder);
    return g_dir;
}

const char *tmp_path(const char *name) {
    size_t n = strlen(tmp_folder()) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", g_dir, name);
    g_paths = xrealloc(g_paths, (g_n_paths + 1) * sizeof *g_paths);
    g_paths[g_n_paths++] = p; /* kept until exit: callers hold on to paths */
    return p;
}

const char *tmp_named(const char *name, const void *data, size_t n) {
    const char *p = tmp_path(name);
    FILE *f = fopen(p, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) die("writing", p);
    return p;
}

const char *tmp_gz_named(const char *name, const void *data, size_t n) {
    const char *p = tmp_path(name);
    gzFile g = gzopen(p, "wb6");
    if (!g || (n && gzwrite(g, data, (unsigned)n) != (int)n) || gzclose(g) != Z_OK) die("gzip", p);
    return p;
}

const char *tmp_file(const void *data, size_t n) {
    char name[32];
    snprintf(name, sizeof name, "t%04u", g_serial++);
    return tmp_named(name, data, n);
}

const char *tmp_text(const char *s) { return tmp_file(s, strlen(s)); }

void tmp_keep(void) { g_keep = 1; }

unsigned char *gzip_bytes(const void *data, size_t n, size_t *out_n) {
    char name[32];
    snprintf(name, sizeof name, "z%04u.gz", g_serial++);
    const char *p = tmp_gz_named(name, data, n);
    unsigned char *b = slurp(p, out_n);
    remove(p);
    return b;
}

const char *const ZK_NAME[ZK_N] = { "plain", "gzip", "xz", "bzip2", "zstd" };

unsigned char *compress_bytes(zkind_t kind, const void *data, size_t n, size_t *out_n) {
    unsigned char *out = NULL;
    if (kind == ZK_PLAIN) {
        out = xmalloc(n + 1);
        if (n) memcpy(out, data, n);
        *out_n = n;
    } else if (kind == ZK_GZIP) {
        out = gzip_bytes(data, n, out_n);
    } else if (kind == ZK_XZ) { /* preset 0: the fastest, the same format */
        size_t cap = lzma_stream_buffer_bound(n), pos = 0;
        out = xmalloc(cap);
        if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, NULL, data, n, out, &pos, cap) != LZMA_OK)
            exit(2);
        *out_n = pos;
    } else if (kind == ZK_BZIP2) {
        unsigned cap = (unsigned)(n + n / 100 + 700);
        out = xmalloc(cap);
        if (BZ2_bzBuffToBuffCompress((char *)out, &cap, (char *)(uintptr_t)data, (unsigned)n, 1, 0,
                                     0) != BZ_OK)
            exit(2);
        *out_n = cap;
    } else if (kind == ZK_ZSTD) {
        size_t cap = ZSTD_compressBound(n);
        out = xmalloc(cap);
        size_t k = ZSTD_compress(out, cap, data, n, 1);
        if (ZSTD_isError(k) || k > cap) exit(2);
        *out_n = k;
    } else {
        exit(2);
    }
    return out;
}

unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) die("opening", path);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = sz < 0 ? NULL : malloc((size_t)sz + 1);
    if (!b || fread(b, 1, (size_t)sz, f) != (size_t)sz) die("reading", path);
    fclose(f);
    b[sz] = 0;
    *n = (size_t)sz;
    return b;
}

void check_message(const char *what, const char *err, size_t err_size, const char *path, char after,
                   va_list frags) {
    const char *shown = strcmp(path, "-") == 0 ? "(standard input)" : path;
    size_t len = strlen(shown);
    CHECK(memchr(err, '\0', err_size) != NULL && strncmp(err, shown, len) == 0 &&
              (after == 0 || err[len] == after),
          "%s: message '%.300s' does not start with the path", what, err);
    for (const char *frag; (frag = va_arg(frags, const char *)) != NULL;)
        CHECK(strstr(err, frag) != NULL, "%s: message '%.300s' lacks '%s'", what, err, frag);
}
