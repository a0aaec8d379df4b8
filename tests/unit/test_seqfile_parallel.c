/*
** test_seqfile_parallel.c -- the parallel FASTA parser (src/io/fasta_par.c)
** against the serial one (src/io/seqfile.c, parse_fasta), through
** wm_seqfile_read_opts on temporary files.
**
** Each random case is a FASTA file: blank lines before the first header or
** anywhere, empty records, names with spaces, tabs and descriptions, line
** widths 1..200, LF, CRLF and a stray '\r', spaces and tabs inside sequence
** lines, a last line with or without its '\n'; one case in four is damaged
** (a byte from a list of troublemakers put anywhere: NUL, controls, '\v',
** DEL, bytes >= 0x80, '>', '\n', '\r', blanks). It is read with one thread
** (the serial parser, the reference) and with 2..9 threads in blocks of a
** random size, down to 1 byte so that block edges land on every kind of
** place ('>', '\r', mid-name, mid-line). Everything must be the same:
** status, message (line number included), format, bytes, record starts and
** names. A clean case (nothing the serial rules alone accept) must have been
** parsed by the parallel path (parse_threads > 1), so that the test cannot
** pass by always falling back.
** WM_SEED, WM_TEST_SCALE, WM_CASE as for every test (harness.h).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/seqfile.h"
#include "rng.h"
#include "textbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A FASTA file (textbuf.h). Returns 1 when it holds a '\v' or '\f' line
** before the first header (valid, but only for the serial rules). */
static int make_fasta(textbuf_t *b) {
    static const fasta_shape_t shape = { 400, 4000, 0 };
    return random_fasta(b, &shape);
}

/* Put a troublemaker somewhere (it may also land where it is harmless). */
static void damage(textbuf_t *b) {
    static const uint8_t bad[] = { 0x00, 0x01, 0x1b, 0x0b, 0x0c, 0x7f, 0x80, 0xc3,
                                   0xff, '>',  '\n', '\r', ' ',  '\t', 'A' };
    tb_damage(b, bad, N_OF(bad));
}

static long n_parallel, n_fallback, n_error;

/* Read path serially and with `threads` in blocks of `block`; compare. */
static void compare(long idx, const char *path, int threads, uint64_t block, int clean) {
    wm_seqfile_opts_t so = wm_seqfile_opts_default(), po = so;
    wm_seqfile_t a, p;
    char ea[600], ep[600];
    memset(ea, 0, sizeof ea);
    memset(ep, 0, sizeof ep);
    po.threads = threads;
    po.min_parallel = 0;
    po.block = block;
    wm_status ra = wm_seqfile_read_opts(path, 0, &so, &a, ea, sizeof ea);
    wm_status rp = wm_seqfile_read_opts(path, 0, &po, &p, ep, sizeof ep);
    char what[160];
    snprintf(what, sizeof what, "case %ld (%d threads, blocks of %llu)", idx, threads,
             (unsigned long long)block);
    if (ra != rp || strcmp(ea, ep) != 0) {
        fail_fmt(idx, NULL, "%s: serial %d '%s', parallel %d '%s'", what, ra, ea, rp, ep);
        goto out;
    }
    if (ra != WM_OK) {
        n_error++;
        check_true(what, p.text.seq == NULL && p.names == NULL && p.text.n_rec == 0);
        goto out;
    }
    if (p.parse_threads > 1) n_parallel++;
    else n_fallback++;
    if (clean && a.format == WM_FMT_FASTA && p.parse_threads <= 1)
        fail_fmt(idx, NULL, "%s: a clean FASTA fell back to the serial parser", what);
    if (a.format != p.format || a.text.len != p.text.len || a.text.n_rec != p.text.n_rec) {
        fail_fmt(idx, NULL, "%s: format %d/%d, len %llu/%llu, records %zu/%zu", what, a.format,
                 p.format, (unsigned long long)a.text.len, (unsigned long long)p.text.len,
                 a.text.n_rec, p.text.n_rec);
        goto out;
    }
    if (memcmp(a.text.seq, p.text.seq, (size_t)a.text.len) != 0) {
        fail_fmt(idx, NULL, "%s: sequence bytes differ", what);
        goto out;
    }
    for (size_t i = 0; i <= a.text.n_rec; i++)
        if (a.text.rec_start[i] != p.text.rec_start[i]) {
            fail_fmt(idx, NULL, "%s: record %zu starts at %llu, serial %llu", what, i,
                     (unsigned long long)p.text.rec_start[i],
                     (unsigned long long)a.text.rec_start[i]);
            goto out;
        }
    for (size_t i = 0; i < a.text.n_rec; i++)
        if (strcmp(a.names[i], p.names[i]) != 0) {
            fail_fmt(idx, NULL, "%s: record %zu named '%s', serial '%s'", what, i, p.names[i],
                     a.names[i]);
            goto out;
        }
    check_true(what, 1);
out:
    wm_seqfile_close(&a);
    wm_seqfile_close(&p);
}

static void one_case(long idx) {
    textbuf_t b = { 0 };
    int odd = make_fasta(&b);
    int broken = chance(25);
    if (broken) damage(&b);
    char fname[64];
    snprintf(fname, sizeof fname, "par%ld.fa", idx);
    const char *path = tmp_named(fname, b.p, b.n);
    size_t n = b.n;
    free(b.p);
    for (int rep = 0; rep < 3; rep++) {
        int threads = (int)range(2, 9);
        uint64_t block = chance(50)   ? range(1, 16)
                         : chance(50) ? range(17, 300)
                                      : range(1, n / 2 + 1);
        compare(idx, path, threads, block, !broken && !odd);
    }
    if (g_failed == 0) unlink(path);
}

/* Fixed shapes around block edges: a header, a CRLF, a name cut by the edge. */
static void edge_cases(void) {
    static const char *const texts[] = {
        ">a\nACGT\n>b\nGG\n",
        ">a\r\nAC\r\nGT\r\n>b c\r\n\r\nGG",
        "\n\n>a\nA\n>\nC\n",
        ">a\nAC\x01GT\n",
        "ACGT\n>a\nA\n",
        "  \n\t\n>a\nA C\tG\rT\n\n>b\n",
        "\v\n>a\nACGT\n",
        ">a\x7f\nA\n",
        ">a b\x01\xff c\nA\n>c\n",
        ">a\n>b\n>c\n",
        ">",
        ">x",
        ">x\nA",
        ">x\n\xc3\xa9\n",
        " >x\nA\n",
    };
    for (size_t t = 0; t < N_OF(texts); t++) {
        const char *path = tmp_text(texts[t]);
        for (uint64_t block = 1; block <= 8; block++)
            for (int threads = 2; threads <= 4; threads++)
                compare(-1 - (long)t, path, threads, block, 0);
        compare(-1 - (long)t, path, 3, UINT64_MAX, 0); /* one block, no overflow */
    }
}

int main(int argc, char **argv) {
    long only = -2;
    long n = test_begin("test_seqfile_parallel", argc, argv, 20261126ull, 2000, NULL, &only);
    edge_cases();
    part_done("edge cases");
    run_cases(n, only, 0x7061726661ull, 500, one_case);
    printf("reads: %ld parallel, %ld fell back to serial, %ld errors (same message)\n", n_parallel,
           n_fallback, n_error);
    print_repro(argv[0], NULL);
    return test_finish();
}
