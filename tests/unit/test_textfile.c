/*
** test_textfile.c -- texts whose bytes are a file's (src/core/textfile.c):
** what the GPU's staging reads with pread instead of faulting in the
** caller's mapping.
**   - wm_context_file_of answers the file and the offset for every range
**     inside the bytes said to be the file (the edges, empty ranges at both
**     ends, the whole), and -1 for every range that leaves them by a byte,
**     for a context with no file, and after the hint is taken back;
**   - a multi-device context hands the hint to its sub-contexts;
**   - wm_read_at reads exactly the file's bytes at any offset and length
**     (against the mapping, a thousand random ranges), and fails on a range
**     past the file's end and on a descriptor that is not open.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/internal.h"
#include "harness.h"
#include "rng.h"

#define FILE_LEN 300001

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261128ull, &scale, &only);
    seed_case(0, 0x7e47f11e);
    char path[] = "/tmp/wm_textfile.XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0, "mkstemp")) return test_finish();
    unlink(path);
    uint8_t *bytes = malloc(FILE_LEN);
    for (size_t i = 0; i < FILE_LEN; i++) bytes[i] = (uint8_t)below(256);
    CHECK(write(fd, bytes, FILE_LEN) == FILE_LEN, "write");
    const uint8_t *map = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, fd, 0);
    if (!CHECK(map != MAP_FAILED, "mmap")) return test_finish();

    wm_context_t *cx = NULL;
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    CHECK_RC(wm_context_new(&co, &cx), WM_OK);
    uint64_t off = 0;
    CHECK(wm_context_file_of(cx, map, 10, &off) == -1, "no file said: a file was found");
    /* the text is the file's bytes from offset 100 on */
    const uint64_t base = 100, n = FILE_LEN - base;
    wm_context_text_file(cx, map + base, n, fd, base);
    static const uint64_t at[] = { 0, 1, 4095, 4096, FILE_LEN - base - 1, FILE_LEN - base };
    for (size_t i = 0; i < N_OF(at); i++)
        for (uint64_t len = 0; len <= 3; len++) {
            int in = at[i] + len <= n;
            off = 0;
            int got = wm_context_file_of(cx, map + base + at[i], len, &off);
            CHECK(in ? got == fd && off == base + at[i] : got == -1,
                  "[%llu, +%llu): file %d offset %llu", (unsigned long long)at[i],
                  (unsigned long long)len, got, (unsigned long long)off);
        }
    CHECK(wm_context_file_of(cx, map + base, n, &off) == fd && off == base, "the whole text");
    CHECK(wm_context_file_of(cx, map + base - 1, 1, &off) == -1, "the byte before the text");
    CHECK(wm_context_file_of(cx, map + base - 1, 2, &off) == -1, "a range from before the text");
    wm_context_text_file(cx, NULL, 0, -1, 0);
    CHECK(wm_context_file_of(cx, map + base, 1, &off) == -1, "the hint taken back");
    wm_context_free(cx);

    /* two CPU devices: the sub-contexts are told too */
    static const int two[] = { 0, 1 };
    co.devices = two;
    co.n_devices = 2;
    cx = NULL;
    if (CHECK_RC(wm_context_new(&co, &cx), WM_OK) && CHECK(cx->n_sub == 2, "two subs")) {
        wm_context_text_file(cx, map, FILE_LEN, fd, 0);
        for (int i = 0; i < cx->n_sub; i++)
            CHECK(wm_context_file_of(cx->sub[i], map + 7, 9, &off) == fd && off == 7,
                  "sub %d was not told", i);
        wm_context_text_file(cx, NULL, 0, -1, 0);
        for (int i = 0; i < cx->n_sub; i++)
            CHECK(wm_context_file_of(cx->sub[i], map + 7, 9, &off) == -1, "sub %d kept the hint",
                  i);
    }
    wm_context_free(cx);

    uint8_t *buf = malloc(FILE_LEN + 1);
    long runs = (long)(1000 * scale) + 1;
    for (long r = 0; r < runs; r++) {
        uint64_t from = below(FILE_LEN + 1), len = below(FILE_LEN - from + 1);
        memset(buf, 0xa5, len + 1);
        CHECK(wm_read_at(fd, buf, len, from) == 0 && memcmp(buf, map + from, len) == 0 &&
                  buf[len] == 0xa5,
              "wm_read_at [%llu, +%llu)", (unsigned long long)from, (unsigned long long)len);
    }
    CHECK(wm_read_at(fd, buf, 2, FILE_LEN - 1) == -1, "a read past the end succeeded");
    CHECK(wm_read_at(-1, buf, 2, 0) == -1, "a read of no file succeeded");
    free(buf);
    munmap((void *)map, FILE_LEN);
    close(fd);
    free(bytes);
    return test_finish();
}
