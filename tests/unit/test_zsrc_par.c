/*
** test_zsrc_par.c -- a regular file read by several threads
** (wm_zsrc_read_par, src/io/zsrc.c) against its bytes.
**
** Each case writes a file of 0..20 MiB (random bytes; its first ten bytes
** never a compressed format's magic), opens it, and reads it to the end in
** requests of random sizes (a few bytes, around the 4 MiB under which a
** read stays on one thread, up to 12 MiB), each through wm_zsrc_read_par
** with a pool of 2..5 threads or, one time in four, plain wm_zsrc_read, so
** that both move the descriptor for the other. Every read must give the
** file's next bytes, the full request unless the file ends (then exactly
** what is left, and 0 after), never an error. A gzip file is read through
** it too (as wm_zsrc_read: no pieces for compressed input).
** WM_SEED, WM_TEST_SCALE, WM_CASE as for every test (harness.h).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/zsrc.h"
#include "rng.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"

static long n_par_bytes;

static void read_all(long idx, const char *path, const uint8_t *want, size_t n, int gz) {
    int fd = open(path, O_RDONLY);
    wm_zsrc_t z;
    if (fd < 0 || wm_zsrc_open_fd(&z, fd, 1, 0, "input") != 0) {
        fail_fmt(idx, NULL, "cannot open %s", path);
        if (fd >= 0) close(fd);
        return;
    }
    wm_pool_t *pool = wm_pool_new((int)range(2, 5));
    size_t cap = 12u << 20, at = 0;
    uint8_t *buf = xcalloc(cap, 1);
    for (int calls = 0; calls < 10000; calls++) {
        size_t ask = chance(20)   ? (size_t)range(1, 64)
                     : chance(50) ? (size_t)range((4u << 20) - 4096, (4u << 20) + 4096)
                                  : (size_t)range(1, cap);
        int par = !chance(25);
        int64_t got = par ? wm_zsrc_read_par(&z, buf, ask, pool) : wm_zsrc_read(&z, buf, ask);
        size_t left = n - at, expect = ask < left ? ask : left;
        if (got < 0 || (size_t)got != expect || memcmp(buf, want + at, expect) != 0) {
            fail_fmt(idx, NULL, "%s%s: read %zu at %zu of %zu (%s): %lld bytes, %zu expected", path,
                     gz ? " (gzip)" : "", ask, at, n, par ? "threads" : "one thread",
                     (long long)got, expect);
            break;
        }
        if (par && ask >= (4u << 20)) n_par_bytes += got;
        at += (size_t)got;
        if (got == 0) {
            check_true("the end stays the end", at == n);
            break;
        }
    }
    free(buf);
    wm_pool_free(pool);
    wm_zsrc_close(&z);
}

static void one(long idx) {
    size_t n = chance(10) ? (size_t)range(0, 100) : (size_t)range(0, 20u << 20);
    uint8_t *data = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) data[i] = (uint8_t)rnd();
    for (size_t i = 0; i < n && i < 10; i++) data[i] = (uint8_t)('a' + below(26)); /* no magic */
    read_all(idx, tmp_named("par.bin", data, n), data, n, 0);
    if (chance(20) && n > 0) read_all(idx, tmp_gz_named("par.gz", data, n), data, n, 1);
    free(data);
}

int main(int argc, char **argv) {
    long only = -2;
    long n = test_begin("test_zsrc_par", argc, argv, 20261128, 40, NULL, &only);
    run_cases(n, only, 0x7a70, 10, one);
    printf("%ld bytes read in pieces on threads\n", n_par_bytes);
    if (n_par_bytes == 0) fail_msg(-1, NULL, "no read went to the threads");
    return test_finish();
}
