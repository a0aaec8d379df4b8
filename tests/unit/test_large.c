/*
** test_large.c -- an input over 4 GiB, end to end: offsets must stay 64-bit.
**
** Makes a sparse file of 4 GiB + 1 MiB (ftruncate, so it costs no disk),
** writes "NEEDLEinHAYSTACK" at offset 100 and at 4 GiB + 12345, reads it with
** wm_seqfile_read (plain input, mmap'd) and checks the length and the bytes
** at both offsets; then searches it for the needle (k = 0, CPU backend) and
** expects exactly two matches with their exact 64-bit starts and ends.
** Prints SKIP and passes when the file system lacks ~5 GiB free or sparse
** files. The file is unlinked as soon as it is open (it is read back through
** /proc/self/fd), so it disappears however the test ends.
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/seqfile.h"
#include "warpmatch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define GIB ((uint64_t)1 << 30)
#define FILE_SIZE (4 * GIB + ((uint64_t)1 << 20))
#define FAR_OFF (4 * GIB + 12345)
#define NEAR_OFF ((uint64_t)100)
#define NEEDLE "NEEDLEinHAYSTACK"
#define NEEDLE_LEN 16

static int skip(const char *why) {
    skip_note(why);
    return test_finish();
}

typedef struct {
    wm_match_t m[8];
    size_t n;
} collect_t;

static int on_match(const wm_match_t *m, void *user) {
    collect_t *c = user;
    if (c->n < sizeof c->m / sizeof c->m[0]) c->m[c->n] = *m;
    c->n++;
    return c->n > 1000; /* a broken search must not run on for ever */
}

static int pwrite_full(int fd, const void *p, size_t n, uint64_t off) {
    ssize_t w = pwrite(fd, p, n, (off_t)off);
    return w == (ssize_t)n ? 0 : -1;
}

static void search_part(const wm_seqfile_t *sf) {
    wm_opts_t o = wm_opts_default();
    wm_db_t *db = NULL;
    wm_context_t *cx = NULL;
    wm_context_opts_t co = wm_context_opts_default();
    collect_t c;
    wm_status rc;

    o.max_edits = 0;
    rc = wm_compile((const uint8_t *)NEEDLE, NEEDLE_LEN, &o, &db);
    CHECK(rc == WM_OK, "wm_compile: %s", wm_strerror(rc));
    co.backend = WM_BACKEND_CPU;
    rc = wm_context_new(&co, &cx);
    CHECK(rc == WM_OK, "wm_context_new: %s", wm_strerror(rc));
    if (!db || !cx) {
        wm_db_free(db);
        wm_context_free(cx);
        return;
    }

    memset(&c, 0, sizeof c);
    double t0 = now_s();
    rc = wm_search(cx, db, &sf->text, on_match, &c);
    double dt = now_s() - t0;
    CHECK(rc == WM_OK, "wm_search: %s (%s)", wm_strerror(rc), wm_context_errmsg(cx));
    printf("info: CPU search of %.2f GiB took %.2f s (%.0f MB/s)\n",
           (double)sf->text.len / (double)GIB, dt, (double)sf->text.len / dt / 1e6);
    CHECK(c.n == 2, "%zu matches, want 2", c.n);
    const uint64_t want[2] = { NEAR_OFF, FAR_OFF };
    for (size_t i = 0; i < 2 && i < c.n; i++) {
        const wm_match_t *m = &c.m[i];
        CHECK(m->record == 0 && m->start == want[i] && m->end == want[i] + NEEDLE_LEN &&
                  m->errors == 0 && m->strand == 0,
              "match %zu: record %llu [%llu, %llu) errors %u strand %u, want [%llu, %llu)", i,
              (unsigned long long)m->record, (unsigned long long)m->start,
              (unsigned long long)m->end, m->errors, m->strand, (unsigned long long)want[i],
              (unsigned long long)(want[i] + NEEDLE_LEN));
    }

    uint64_t count = 0;
    rc = wm_count(cx, db, &sf->text, &count);
    CHECK(rc == WM_OK && count == 2, "wm_count: %s, %llu matches", wm_strerror(rc),
          (unsigned long long)count);

    wm_context_free(cx);
    wm_db_free(db);
}

int main(void) {
    const char *dir = tmp_folder();
    struct statvfs vfs;
    struct stat st;
    char path[4096], name[4096];
    int fd;

    if (statvfs(dir, &vfs) != 0) return skip("cannot statvfs the temporary folder");
    if ((uint64_t)vfs.f_bavail * vfs.f_frsize < 5 * GIB)
        return skip("less than 5 GiB free in the temporary folder");

    snprintf(name, sizeof name, "%s/large_XXXXXX", dir);
    fd = mkstemp(name);
    if (fd < 0) return skip("cannot create a temporary file");
    /* Unlink now, read through /proc/self/fd: nothing is left behind even
    ** when the test crashes. Without /proc, the file goes with the run's
    ** temporary folder at exit. */
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (access(path, R_OK) == 0) unlink(name);
    else snprintf(path, sizeof path, "%s", name);

    if (ftruncate(fd, (off_t)FILE_SIZE) != 0) {
        close(fd);
        return skip("ftruncate to 4 GiB + 1 MiB failed (no large or sparse files)");
    }
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_blocks * 512 > ((uint64_t)64 << 20)) {
        close(fd);
        return skip("the file system does not make sparse files");
    }
    if (pwrite_full(fd, NEEDLE, NEEDLE_LEN, NEAR_OFF) != 0 ||
        pwrite_full(fd, NEEDLE, NEEDLE_LEN, FAR_OFF) != 0) {
        close(fd);
        return skip("cannot write into the sparse file");
    }

    wm_seqfile_t sf;
    char err[512];
    double t0 = now_s();
    wm_status rc = wm_seqfile_read(path, 0, &sf, err, sizeof err);
    double dt = now_s() - t0;
    CHECK(rc == WM_OK, "wm_seqfile_read: %s", err);
    if (rc == WM_OK) {
        printf("info: wm_seqfile_read of %.2f GiB took %.3f s\n", (double)sf.text.len / (double)GIB,
               dt);
        CHECK(sf.format == WM_FMT_PLAIN && !sf.gzipped, "format %s", wm_format_name(sf.format));
        CHECK(sf.map_base != NULL, "a plain file should be mapped, not copied");
        CHECK(sf.text.len == FILE_SIZE, "len %llu, want %llu", (unsigned long long)sf.text.len,
              (unsigned long long)FILE_SIZE);
        CHECK(sf.raw_bytes == FILE_SIZE, "raw_bytes %llu", (unsigned long long)sf.raw_bytes);
        CHECK(sf.text.n_rec == 1 && sf.text.rec_start && sf.text.rec_start[0] == 0 &&
                  sf.text.rec_start[1] == FILE_SIZE && strcmp(sf.names[0], ".") == 0,
              "one record '.' spanning the file");
        if (sf.text.len == FILE_SIZE) {
            CHECK(memcmp(sf.text.seq + NEAR_OFF, NEEDLE, NEEDLE_LEN) == 0, "needle at offset 100");
            CHECK(memcmp(sf.text.seq + FAR_OFF, NEEDLE, NEEDLE_LEN) == 0,
                  "needle at offset 4 GiB + 12345");
            CHECK(sf.text.seq[FAR_OFF - 1] == 0 && sf.text.seq[FAR_OFF + NEEDLE_LEN] == 0 &&
                      sf.text.seq[FAR_OFF - GIB * 4] == 0,
                  "zeros around the far needle (no 32-bit wrap)");
            search_part(&sf);
        }
        wm_seqfile_close(&sf);
    }
    close(fd);
    return test_finish();
}
