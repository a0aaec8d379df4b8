/*
** fuzz.h -- what the fuzz harnesses (tests/fuzz/fuzz_*.c) share.
**
** Each harness defines LLVMFuzzerTestOneInput and is built twice: with
** libFuzzer (-DWARPMATCH_FUZZ=ON, clang) to fuzz, and with replay_main.c in
** every normal build, where ctest replays the seed corpus and the regression
** inputs through it. A harness is an oracle: it fails (FZ_CHECK prints what
** differs and aborts, which libFuzzer reports as a crash and saves the input)
** when the reader under test disagrees with a reference, not only on a crash.
**
** The readers take paths, so inputs go through small files in a private
** temporary folder (fz_path), through a pipe on standard input (fz_stdin_*),
** or gzip-compressed (fz_gzip).
*/
#ifndef WM_FUZZ_H
#define WM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "fuzz oracle: ..." on stderr and abort. */
void fz_fail(const char *file, int line, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4), noreturn))
#endif
    ;
#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) fz_fail(__FILE__, __LINE__, __VA_ARGS__);                                     \
    } while (0)

/* A path named `name` in this process's temporary folder (made on first
** use, removed at exit). The string is static: copy it to keep two. */
const char *fz_path(const char *name);

/* Write n bytes to path, replacing it by a new file (what mapped the old
** one keeps its bytes). Aborts on failure. */
void fz_write(const char *path, const void *p, size_t n);

/* 1 when p[0, n) starts as a compressed stream does (gzip, xz, bzip2, zstd,
** or a format the readers refuse, such as zip or lz4: src/io/zsrc.c's
** magics): the readers decompress or refuse such bytes, so the plain-text
** references say nothing of them. */
int fz_compressed(const uint8_t *p, size_t n);

/* gzip-compress p[0, n) into a malloc'd buffer (*out_len bytes). members:
** 1 = one member; 2 = two members split at `split` (clamped to n); zero_pad
** adds that many zero bytes after the last member (gzip ignores them).
** Aborts when out of memory. */
uint8_t *fz_gzip(const uint8_t *p, size_t n, int members, size_t split, size_t zero_pad,
                 size_t *out_len);

/* Standard input as a pipe holding p[0, n) and then its end, for a reader
** given "-". Returns 0, or -1 when n does not fit in the pipe (the caller
** skips the comparison). fz_stdin_end puts the old standard input back. */
int fz_stdin_begin(const uint8_t *p, size_t n);
void fz_stdin_end(void);

/* The message s after its leading `name` (a reader's messages start with the
** path or "(standard input)"), or s itself when it does not start so. */
const char *fz_after(const char *s, const char *name);

/* Standard output to /dev/null while a harness runs code that prints help
** (unless WM_FUZZ_VERBOSE is set). The CLI's messages on stderr are silenced
** by the harnesses themselves (wm_dist.rank = 1: only rank 0 prints). */
void fz_quiet_begin(void);
void fz_quiet_end(void);

#endif
