/*
** test_fastq_par.c -- the parallel FASTQ parser (src/io/fastq_par.c) against
** the serial one (seqparse.h, fastq_record) on the same bytes.
**
** Each random case is FASTQ text: blank lines anywhere, LF, CRLF or both,
** sequences and qualities wrapped at different widths, empty reads with or
** without their empty quality line, '+' lines with names, and qualities
** made to mislead a guess: lines starting with '@', often a whole record's
** worth of them ("@name", a line of bases, "+", a line as long), so that a
** block's guessed first record can be a quality line. One case in five is
** damaged (a binary byte, a quality a byte short or long, a '+' line
** missing), one in four cut at a random byte, and eof is drawn: the parser
** must leave alone a record that reaches the end while more may follow.
** The serial parser (the reference) reads records from the start while it
** can take them. The parallel one runs with 2..8 threads, blocks of 1 byte
** to 64 KiB and at times a small max_recs; when it takes records they must
** be the reference's first ones: names, sequence bytes, starts, the bytes
** used (up to the next record's '@', or the end), the lines passed. A case
** whose first record the serial parser takes must be taken when max_recs
** does not bound it (no passing by always falling back).
** WM_SEED, WM_TEST_SCALE, WM_CASE as for every test (harness.h).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "harness.h"
#include "io/fastq_par.h"
#include "rng.h"
#include "textbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char BASES[] = "ACGTNacgt";

static void bases(textbuf_t *b, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) tb_putc(b, BASES[below(sizeof BASES - 1)]);
}

/* A quality of len bytes wrapped at w; at times lines starting with '@'. */
static void quality(textbuf_t *b, uint64_t len, uint64_t w, int crlf, int tricky) {
    for (uint64_t done = 0; done < len;) {
        uint64_t k = len - done < w ? len - done : w;
        for (uint64_t i = 0; i < k; i++)
            tb_putc(b, i == 0 && tricky ? '@' : (char)(chance(5) ? '+' : '!' + below(60)));
        tb_eol(b, crlf);
        done += k;
    }
}

/* A sequence of len bytes wrapped at w (at times a space inside). */
static void sequence(textbuf_t *b, uint64_t len, uint64_t w, int crlf) {
    for (uint64_t done = 0; done < len;) {
        uint64_t k = len - done < w ? len - done : w;
        bases(b, k);
        if (chance(3)) tb_putc(b, ' ');
        tb_eol(b, crlf);
        done += k;
    }
}

static void make_fastq(textbuf_t *b, int damaged) {
    int crlf = chance(60) ? 0 : chance(50) ? 1 : 2;
    size_t n_rec = (size_t)(chance(20) ? range(50, 2000) : range(1, 40));
    int misleading = chance(50);
    size_t bad = damaged ? (size_t)below(n_rec) : SIZE_MAX;
    int how = (int)below(4);
    for (size_t r = 0; r < n_rec; r++) {
        if (chance(8)) tb_blank_line(b, crlf);
        tb_putc(b, '@');
        tb_header_name(b);
        tb_eol(b, crlf);
        uint64_t len = chance(10) ? 0 : chance(30) ? range(1, 12) : range(1, 400);
        uint64_t w = chance(70) ? len + 1 : range(1, 80);
        if (misleading && chance(40) && len >= 8) {
            /* a quality that reads as a record: "@x" / bases / "+" / as many */
            uint64_t half = (len - 4) / 2;
            sequence(b, len, len + 1, crlf);
            tb_puts(b, "+");
            tb_eol(b, crlf);
            tb_puts(b, "@x");
            tb_putn(b, '!', half > 2 ? half - 2 : 0);
            tb_eol(b, crlf);
            bases(b, 1);
            tb_eol(b, crlf);
            tb_putc(b, '+');
            tb_eol(b, crlf);
            tb_putn(b, 'I', len - (half > 2 ? half : 2) - 1);
            tb_eol(b, crlf);
            continue;
        }
        sequence(b, len, w, crlf);
        if (r == bad && how == 0) tb_putc(b, 0x01);
        if (!(r == bad && how == 1)) {
            tb_putc(b, '+');
            if (chance(20)) tb_header_name(b);
            tb_eol(b, crlf);
        }
        uint64_t q = len;
        if (r == bad && how == 2) q = len > 0 ? len - 1 : 1;
        if (r == bad && how == 3) q = len + 1;
        quality(b, q, chance(60) ? w : range(1, 80), crlf, misleading && chance(50));
        if (q == 0 && chance(60)) tb_eol(b, crlf);
    }
    tb_maybe_drop_final_eol(b);
}

/* The serial parser on in[0, n): the records it takes (as the streaming
** reader would: one reaching the end is left alone unless eof), their
** sequence, and where each next record's '@' is (after blank lines). */
typedef struct {
    wm_recs_t r;
    uint8_t *out;
    uint64_t olen;
    uint64_t *next; /* next[i]: where record i + 1 would begin, blanks skipped */
} ref_t;

/* The start of the first line at or after p (a line start) holding a byte
** that is not ' ', '\t', '\r', '\v' or '\f'; n when none does. */
static uint64_t first_full_line(const uint8_t *in, uint64_t n, uint64_t p) {
    uint64_t line = p;
    for (uint64_t i = p; i < n; i++) {
        if (in[i] == '\n') line = i + 1;
        else if (in[i] != ' ' && in[i] != '\t' && in[i] != '\r' && in[i] != '\v' && in[i] != '\f')
            return line;
    }
    return n;
}

static void serial(const uint8_t *in, uint64_t n, int eof, ref_t *f) {
    memset(f, 0, sizeof *f);
    f->out = xcalloc(n + 1, 1); /* a refused record may write more than half */
    f->next = xcalloc(n + 2, sizeof *f->next);
    uint64_t at = 0;
    for (;;) {
        int hit = 0;
        wm_lines_t L = { in + at, in + n, 0, &hit };
        wm_parse_err_t e;
        wm_recs_t save = f->r;
        uint64_t olen = f->olen;
        int k = fastq_record(&L, f->out, &olen, &f->r, &e);
        if (k != 1 || (hit && !eof)) {
            if (f->r.n > save.n) { /* the record pushed, then refused */
                free(f->r.names[f->r.n - 1]);
                f->r.n--;
            }
            break;
        }
        f->olen = olen;
        at = (uint64_t)(L.p - in);
        f->next[f->r.n - 1] = first_full_line(in, n, at);
    }
}

static long n_taken, n_left, n_records;

static void one(long idx) {
    textbuf_t t = { 0 };
    make_fastq(&t, chance(20));
    if (t.n == 0) {
        free(t.p);
        return;
    }
    uint64_t n = chance(25) ? range(1, t.n) : t.n;
    int eof = n == t.n ? chance(70) : chance(20);
    const uint8_t *in = (const uint8_t *)t.p;
    ref_t f;
    serial(in, n, eof, &f);

    int threads = (int)range(2, 8);
    uint64_t block = chance(30) ? range(1, 64) : chance(50) ? range(64, 4096) : range(4096, 65536);
    size_t max_recs = chance(20) ? (size_t)range(1, 5) : SIZE_MAX;
    wm_pool_t *pool = wm_pool_new(threads);
    uint8_t *out = xcalloc(n / 2 + 1, 1);
    wm_recs_t r;
    wm_fastq_run_t run;
    memset(&run, 0, sizeof run);
    int rc = wm_fastq_parse_par(in, n, eof, pool, block, max_recs, out, &r, &run);
    char what[200];
    snprintf(what, sizeof what,
             "case %ld (%llu bytes, eof %d, %d threads, blocks of %llu, at most %zu)", idx,
             (unsigned long long)n, eof, threads, (unsigned long long)block, max_recs);
    if (rc != 0) {
        n_left++;
        check_true(what, r.n == 0 && r.names == NULL && r.starts == NULL);
        /* block 0 starts at a record for sure: with no cap on the records, the
        ** first one the serial parser takes is taken */
        if (f.r.n > 0 && max_recs == SIZE_MAX)
            fail_fmt(idx, NULL, "%s: the serial parser takes %zu records, the parallel one none",
                     what, f.r.n);
        goto out;
    }
    n_taken++;
    n_records += (long)r.n;
    if (r.n == 0 || r.n > f.r.n || r.n > max_recs) {
        fail_fmt(idx, NULL, "%s: %zu records taken, the serial parser's %zu", what, r.n, f.r.n);
        goto out;
    }
    uint64_t seq = f.r.n > r.n ? f.r.starts[r.n] : f.olen;
    if (run.seq != seq || r.starts[r.n] != seq || memcmp(out, f.out, (size_t)seq) != 0) {
        fail_fmt(idx, NULL, "%s: %llu sequence bytes, the serial parser's %llu", what,
                 (unsigned long long)run.seq, (unsigned long long)seq);
        goto out;
    }
    for (size_t i = 0; i < r.n; i++)
        if (r.starts[i] != f.r.starts[i] || strcmp(r.names[i], f.r.names[i]) != 0) {
            fail_fmt(idx, NULL, "%s: record %zu '%s' at %llu, the serial parser's '%s' at %llu",
                     what, i, r.names[i], (unsigned long long)r.starts[i], f.r.names[i],
                     (unsigned long long)f.r.starts[i]);
            goto out;
        }
    uint64_t lines = 0;
    for (uint64_t i = 0; i < run.used; i++) lines += in[i] == '\n';
    check_true(what, run.used == f.next[r.n - 1] && run.lines == lines);
out:
    recs_free(&r);
    recs_free(&f.r);
    free(f.out);
    free(f.next);
    free(out);
    wm_pool_free(pool);
    free(t.p);
}

int main(int argc, char **argv) {
    long only = -2;
    long n = test_begin("test_fastq_par", argc, argv, 20261128, 3000, NULL, &only);
    run_cases(n, only, 0x6671, 500, one);
    printf("%ld cases taken in parallel (%ld records), %ld left to the serial parser\n", n_taken,
           n_records, n_left);
    if (n_taken == 0) fail_msg(-1, NULL, "no case was taken in parallel");
    return test_finish();
}
