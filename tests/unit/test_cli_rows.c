/*
** test_cli_rows.c -- the CLI's ordered writer of rows formatted on threads
** (cli/rows.c) and its decimal numbers (wm_out_put_u64, cli/out_common.c).
**
** The writer's output must be what formatting every item in turn gives,
** whatever order the workers finish in. Random cases push 0..30,000 items
** (batches are 4,096), one at a time and in runs of up to 9,000 at once
** (wm_cli_rows_push_many), on 1..9 threads, a format that sleeps a random while
** on some batches so they finish out of order, the context changing every
** few thousand items (a new batch each time), drains at random points and
** other bytes written between them (a drained writer leaves the stream to
** its owner), and compare the bytes against the serial formatting. Failures:
** a format that fails at batch j writes the batches before it, nothing after,
** and every later push and drain answers -1 with its errno; a stream that
** cannot be written (/dev/full) answers -1 with ENOSPC. Numbers: every
** power of ten and its neighbours, and a million random 64-bit values of
** every length, against snprintf.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "out.h"
#include "rng.h"
#include "rows.h"

typedef struct {
    char tag;           /* what this context prints before each item */
    unsigned sleep_mod; /* batches whose first item % this is 0 sleep (0: none) */
    long fail_at;       /* a batch holding this item fails (-1: none) */
} ctx_t;

static void nap(unsigned us) {
    struct timespec ts = { 0, (long)us * 1000L };
    nanosleep(&ts, NULL);
}

static int fmt(FILE *mem, const void *items, size_t n, const void *c) {
    const ctx_t *x = c;
    const uint64_t *v = items;
    if (x->sleep_mod && v[0] % x->sleep_mod == 0) nap(200 + (unsigned)(v[0] % 7) * 300);
    for (size_t i = 0; i < n; ++i) {
        if (x->fail_at >= 0 && v[i] == (uint64_t)x->fail_at) {
            errno = EOVERFLOW; /* any errno the caller should get back */
            return -1;
        }
        char b[32], *p = b;
        *p++ = x->tag;
        p = wm_out_put_u64(p, v[i]);
        *p++ = '\n';
        fwrite(b, 1, (size_t)(p - b), mem);
    }
    return 0;
}

/* ---- the numbers ------------------------------------------------------------------ */

static void check_number(uint64_t v) {
    char got[32], want[32];
    *wm_out_put_u64(got, v) = '\0';
    snprintf(want, sizeof want, "%" PRIu64, v);
    if (strcmp(got, want) != 0) fail_fmt(-1, NULL, "wm_out_put_u64(%s) wrote %s", want, got);
}

static void numbers(void) {
    uint64_t p = 1;
    for (int e = 0; e < 20; ++e, p *= 10) {
        check_number(p - 1);
        check_number(p);
        check_number(p + 1);
        check_number(p * 9 + (p - 1)); /* 9...9 */
    }
    check_number(UINT64_MAX);
    check_number(UINT64_MAX - 1);
    g_rng = g_seed ^ 0x6e756d62ull;
    for (int i = 0; i < 1000000; ++i) {
        uint64_t v = rnd();
        check_number(v >> below(64));
    }
    g_passed++; /* one check: every number above */
    part_done("numbers");
}

/* ---- the order ---------------------------------------------------------------------- */

static char *slurp(FILE *f, size_t *len) {
    fflush(f);
    long n = ftell(f);
    char *s = xmalloc((size_t)n + 1);
    rewind(f);
    *len = fread(s, 1, (size_t)n, f);
    s[*len] = '\0';
    return s;
}

static void one_case(long idx) {
    int threads = 1 + (int)below(9);
    long n = (long)below(30001);
    if (idx < 4) n = idx == 0 ? 0 : idx == 1 ? 1 : idx == 2 ? 4096 : 4097; /* batch edges */
    ctx_t ctx[3] = { { 'a', 0, -1 }, { 'b', 0, -1 }, { 'c', 0, -1 } };
    for (int c = 0; c < 3; ++c) ctx[c].sleep_mod = (unsigned)below(4); /* 0..3 */
    long switch_every = 1 + (long)below(9000);
    FILE *got = tmpfile(), *want = tmpfile();
    if (got == NULL || want == NULL) {
        fail_msg(idx, NULL, "tmpfile");
        return;
    }
    wm_cli_rows_t *w = wm_cli_rows_new(sizeof(uint64_t), threads);
    if (w == NULL) {
        fail_msg(idx, NULL, "wm_cli_rows_new returned NULL");
        return;
    }
    int c = 0, ok = 1;
    uint64_t *run = malloc(9000 * sizeof *run);
    if (run == NULL) abort();
    for (long i = 0; i < n && ok; ++i) {
        if (i > 0 && i % switch_every == 0) c = (c + 1) % 3;
        ctx_t serial = ctx[c];
        serial.sleep_mod = 0;
        if (chance(30)) { /* a run of items at once, within one context */
            long k = 1 + (long)below(9000), to_switch = switch_every - i % switch_every;
            if (k > n - i) k = n - i;
            if (k > to_switch) k = to_switch;
            for (long j = 0; j < k; ++j) run[j] = (uint64_t)(i + j);
            ok = wm_cli_rows_push_many(w, got, fmt, &ctx[c], run, (size_t)k) == 0;
            fmt(want, run, (size_t)k, &serial);
            i += k - 1;
        } else {
            uint64_t v = (uint64_t)i;
            ok = wm_cli_rows_push(w, got, fmt, &ctx[c], &v) == 0;
            fmt(want, &v, 1, &serial);
        }
        if (below(5000) == 0) { /* drained: the stream is the caller's again */
            ok = ok && wm_cli_rows_drain(w) == 0;
            fputs("--\n", got);
            fputs("--\n", want);
        }
    }
    free(run);
    ok = ok && wm_cli_rows_drain(w) == 0;
    fputs("end\n", got); /* after the drain, nothing of the writer's follows */
    fputs("end\n", want);
    wm_cli_rows_free(w);
    size_t lg, lw;
    char *sg = slurp(got, &lg), *sw = slurp(want, &lw);
    if (!ok) fail_fmt(idx, NULL, "a push or drain failed (errno %d)", errno);
    else if (lg != lw || memcmp(sg, sw, lg) != 0)
        fail_fmt(idx, NULL, "%ld items on %d threads: %zu bytes written, %zu expected", n, threads,
                 lg, lw);
    else g_passed++;
    free(sg);
    free(sw);
    fclose(got);
    fclose(want);
}

/* ---- failures ----------------------------------------------------------------------- */

static void format_failure(int threads, long fail_at) {
    FILE *got = tmpfile();
    ctx_t ctx = { 'x', 2, fail_at };
    wm_cli_rows_t *w = wm_cli_rows_new(sizeof(uint64_t), threads);
    long n = 40000, first_bad = -1;
    for (long i = 0; i < n; ++i) {
        uint64_t v = (uint64_t)i;
        errno = 0;
        if (wm_cli_rows_push(w, got, fmt, &ctx, &v) < 0) {
            first_bad = i;
            CHECK(errno == EOVERFLOW, "push's errno %d after a failed format", errno);
            break;
        }
    }
    errno = 0;
    CHECK(wm_cli_rows_drain(w) < 0 && errno == EOVERFLOW, "drain after a failed format: errno %d",
          errno);
    uint64_t v = 1;
    CHECK(wm_cli_rows_push(w, got, fmt, &ctx, &v) < 0, "a push after the failure is refused");
    wm_cli_rows_free(w);
    /* written: whole batches, all before the failing one, in order */
    size_t len;
    char *s = slurp(got, &len);
    long lines = 0;
    for (size_t i = 0; i < len; ++i) lines += s[i] == '\n';
    long batch = fail_at / 4096 * 4096;
    CHECK(lines <= batch && lines % 4096 == 0, "%ld lines written; the failing batch starts at %ld",
          lines, batch);
    int in_order = 1;
    char *p = s;
    for (long i = 0; i < lines && in_order; ++i) {
        char want[32];
        snprintf(want, sizeof want, "x%ld\n", i);
        in_order = strncmp(p, want, strlen(want)) == 0;
        p += strlen(want);
    }
    CHECK(in_order, "the batches before the failure are written in order");
    CHECK(first_bad < 0 || first_bad >= batch, "a push failed at %ld, before the failing batch %ld",
          first_bad, batch);
    free(s);
    fclose(got);
}

static void write_failure(int threads) {
    FILE *full = fopen("/dev/full", "w");
    if (full == NULL) {
        skip_note("no /dev/full");
        return;
    }
    setvbuf(full, NULL, _IONBF, 0);
    ctx_t ctx = { 'y', 0, -1 };
    wm_cli_rows_t *w = wm_cli_rows_new(sizeof(uint64_t), threads);
    int failed = 0, e = 0;
    for (long i = 0; i < 20000 && !failed; ++i) {
        uint64_t v = (uint64_t)i;
        if (wm_cli_rows_push(w, full, fmt, &ctx, &v) < 0) failed = 1, e = errno;
    }
    if (!failed && wm_cli_rows_drain(w) < 0) failed = 1, e = errno;
    CHECK(failed && e == ENOSPC, "a full device: failed %d, errno %d", failed, e);
    wm_cli_rows_free(w);
    fclose(full);
}

int main(int argc, char **argv) {
    long only = -2;
    long n = test_begin("test_cli_rows", argc, argv, 20261127ull, 120, NULL, &only);
    numbers();
    run_cases(n, only, 0x726f7773ull, 40, one_case);
    part_done("order");
    for (int t = 1; t <= 8; t *= 2) {
        format_failure(t, 0);
        format_failure(t, 4095);
        format_failure(t, 4096 * 5 + 17);
        write_failure(t);
    }
    part_done("failures");
    return test_finish();
}
