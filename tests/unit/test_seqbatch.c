/*
** test_seqbatch.c -- the batched sequence reader (src/io/seqbatch.c) against
** the whole-file reader (wm_seqfile_read), on temporary files.
**
** Each random case is a FASTA file (blank lines, empty records, names with
** spaces, tabs and descriptions, line widths 1..200, LF, CRLF and stray
** '\r', spaces and tabs inside sequence lines, a last line with or without
** its '\n', one-line genomes), a FASTQ file (empty reads with or without
** their empty quality line, quality lines starting with '@' or '+',
** sequence and quality wrapped at different widths; broken ones: cut short,
** quality a byte short or long, no '+' line, a binary byte, a bad name) or
** a plain one (random bytes, blanks included; empty; blanks only). One
** FASTA or FASTQ in four is damaged (a troublemaker byte put anywhere).
** Three cases in a hundred come behind a valid record of about 4 MiB (or
** 8), sized so that the reader's buffer (4 MiB) ends at a chosen byte of the
** case: anywhere, next to a line break, or in a header (a header or a FASTQ
** record read again with more bytes; a FASTQ record over half the buffer).
**
** The file is read whole (the reference) and in batches with a random want
** (1..3 bytes often, up to 64 KiB, more than the input; fixed for the run or
** drawn anew for every batch), a random halo (0..40, now and then more),
** and now and then wm_seqsrc_more onto a batch. It is read again compressed
** (gzip mostly, else xz, bzip2 or zstd; sometimes in two members, with zero
** padding, cut short or followed by garbage). What must hold:
**   - the same status; on an error the same message (line number included),
**     the batches before it well formed. One exception: a damaged
**     compressed copy of bytes that hold an error themselves may give that
**     error (the bytes' own message), met in reading order before the
**     damage that the whole-file read reports first;
**   - on success the same format, compression flag, number of records,
**     names, and bytes: every local record of a batch is its record's next
**     bytes, except that local record 0 of a continuing batch starts with
**     the carry: the last min(halo, bytes so far) bytes of that record
**     (own_from of them), base[0] where they start in the record; a record
**     not continued starts at base 0 with own_from 0; first_record + i is
**     the record's index; a record followed by another in a batch is whole;
**   - at most `want` new bytes a call; rec_start[n_rec] == len; `last` on
**     the batch that ends the input, after which every record is whole and
**     wm_seqsrc_more adds nothing; no more batches than input bytes (every
**     call consumes input).
** Fixed shapes and the open errors (no file, a folder, unread compressed
** formats) are read with every want 1..6 and several halos; lines longer
** than the buffer (a 5 MiB header, a 5 MiB blank line, a 6 MiB FASTQ
** record, 5 MiB of plain bytes) with a few wants.
** WM_SEED, WM_TEST_SCALE, WM_CASE as for every test (harness.h).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/seqbatch.h"
#include "io/seqfile.h"
#include "rng.h"
#include "textbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- building inputs -------------------------------------------------------- */

static const char DNA[] = "ACGTACGTACGTNacgtn";

static void make_fasta(textbuf_t *b) {
    static const fasta_shape_t shape = { 300, 3000, 1 };
    random_fasta(b, &shape);
}

/* Quality bytes: any of '!'..'~', '@' and '+' often (a line may start with one). */
static char qual_byte(void) {
    return chance(15) ? (chance(50) ? '@' : '+') : (char)range(0x21, 0x7e);
}

/* Lines of n bytes from gen() (or DNA when gen is NULL), width w. */
static void wrapped(textbuf_t *b, uint64_t n, size_t w, int spaces, int crlf, char (*gen)(void)) {
    uint64_t done = 0;
    while (done < n) {
        size_t l = (size_t)(n - done < w ? n - done : w);
        for (size_t i = 0; i < l; i++) {
            if (spaces && chance(5)) tb_putc(b, chance(50) ? ' ' : '\t');
            tb_putc(b, gen ? gen() : DNA[below(sizeof DNA - 1)]);
        }
        done += l;
        tb_eol(b, crlf);
    }
}

/* A FASTQ file. broken: one record of it is made wrong in one of several ways. */
static void make_fastq(textbuf_t *b, int broken) {
    int crlf = chance(60) ? 0 : chance(50) ? 1 : 2;
    if (chance(15)) {
        size_t k = (size_t)range(1, 3);
        for (size_t i = 0; i < k; i++) tb_blank_line(b, crlf);
    }
    size_t n_rec = (size_t)(chance(10) ? range(1, 300) : range(1, 12));
    size_t bad_rec = broken ? (size_t)below(n_rec) : SIZE_MAX;
    int how = (int)below(6);
    for (size_t r = 0; r < n_rec; r++) {
        int bad = r == bad_rec;
        if (chance(8)) tb_blank_line(b, crlf);
        tb_putc(b, '@');
        if (bad && how == 4) tb_puts(b, chance(50) ? "" : " desc");          /* no name */
        else if (bad && how == 5) tb_puts(b, chance(50) ? "a\x01" : "\x7f"); /* a control byte */
        else tb_header_name(b);
        tb_eol(b, crlf);
        uint64_t len = chance(12) ? 0 : chance(20) ? range(1, 30) : range(1, 1500);
        size_t w = (size_t)(chance(60) ? len + 1 : range(1, 200));
        size_t wq = chance(50) ? w : (size_t)range(1, 200);
        int spaces = chance(5);
        wrapped(b, len, w, spaces, crlf, NULL);
        if (bad && how == 0 && len > 0) { /* a binary byte in the sequence */
            b->n--;
            if (b->p[b->n - 1] == '\r') b->n--;
            tb_putc(b, (char)(chance(50) ? 0x01 : 0xc3));
            tb_eol(b, crlf);
        }
        if (!(bad && how == 1)) { /* the '+' line, unless it is missing */
            tb_putc(b, '+');
            if (chance(20)) tb_header_name(b);
            tb_eol(b, crlf);
        }
        uint64_t qlen = len;
        if (bad && how == 2) qlen = len > 0 ? len - 1 : 1; /* short (or long for an empty read) */
        if (bad && how == 3) qlen = len + range(1, 3);     /* long */
        wrapped(b, qlen, wq, 0, crlf, qual_byte);
        if (qlen == 0 && chance(70)) tb_eol(b, crlf); /* an empty read's empty quality line */
    }
    if (broken && chance(20)) b->n = (size_t)below(b->n + 1); /* cut short */
    tb_maybe_drop_final_eol(b);
}

/* Plain input: empty, blanks only, DNA lines, text, random bytes. */
static void make_plain(textbuf_t *b) {
    size_t n = (size_t)(chance(10) ? range(0, 100000) : range(0, 3000));
    switch (below(6)) {
    case 0: break; /* empty */
    case 1:
        for (size_t i = 0; i < n % 200; i++) tb_putc(b, " \t\r\n\v\f"[below(6)]);
        break;
    case 2:
        for (size_t i = 0; i < n; i++) tb_putc(b, chance(2) ? '\n' : DNA[below(sizeof DNA - 1)]);
        break;
    case 3:
        for (size_t i = 0; i < n; i++) tb_putc(b, (char)(chance(10) ? ' ' : range(0x20, 0x7e)));
        break;
    case 4:
        for (size_t i = 0; i < n; i++) tb_putc(b, (char)below(256));
        break;
    default: /* blanks, then bytes */
        tb_putn(b, ' ', (size_t)range(1, 5));
        tb_puts(b, chance(50) ? "\n\t\r\n" : "");
        for (size_t i = 0; i < n; i++) tb_putc(b, DNA[below(sizeof DNA - 1)]);
        break;
    }
}

/* Put a troublemaker somewhere (it may also land where it is harmless). */
static void damage(textbuf_t *b) {
    static const uint8_t bad[] = { 0x00, 0x01, 0x1b, 0x0b, 0x0c, 0x7f, 0x80, 0xc3, 0xff,
                                   '>',  '@',  '+',  '\n', '\r', ' ',  '\t', 'A' };
    tb_damage(b, bad, N_OF(bad));
}

/* n bytes of a random pattern (DNA, or quality bytes when qual), the same
** in every case: a big record is made of pieces of it, cheaply. */
static void pattern(textbuf_t *b, size_t n, int qual) {
    static char pat[2][65536];
    static int made[2];
    if (!made[qual]) {
        uint64_t st = 0x7061747465726eull + (uint64_t)qual;
        for (size_t i = 0; i < sizeof pat[qual]; i++) {
            uint64_t x = splitmix64(&st);
            pat[qual][i] = qual ? (char)(0x21 + x % 94) : "ACGT"[x & 3];
        }
        made[qual] = 1;
    }
    while (n > 0) {
        size_t at = (size_t)below(sizeof pat[qual] / 2), k = sizeof pat[qual] - at;
        if (k > n) k = n;
        tb_put(b, pat[qual] + at, k);
        n -= k;
    }
}

/* A valid record of exactly n bytes (n >= 16) in format fmt, to put before a
** case so that the reader's buffer (4 MiB) ends inside the case. */
static void big_record(textbuf_t *b, int fmt, size_t n) {
    size_t at = b->n;
    if (fmt == WM_FMT_FASTQ) { /* "@big\n" seq "\n+\n" qual "\n", a blank line if odd */
        size_t len = (n - 9) / 2;
        tb_puts(b, "@big\n");
        pattern(b, len, 0);
        tb_puts(b, "\n+\n");
        pattern(b, len, 1);
        tb_putc(b, '\n');
    } else if (fmt == WM_FMT_FASTA) {
        tb_puts(b, ">big desc\n");
        size_t w = chance(50) ? n : (size_t)range(1, 120); /* one line or lines of w */
        while (b->n - at + w + 2 < n) {
            pattern(b, w, 0);
            tb_putc(b, '\n');
        }
    }
    size_t left = n - (b->n - at); /* FASTQ: 0 or 1, a blank line */
    if (fmt != WM_FMT_FASTQ && left > 1) pattern(b, left - 1, 0);
    if (left > 0) tb_putc(b, '\n');
}

/* data compressed as `kind` into z: one member, or two (data cut at random),
** zero padding behind, or, when damaged, cut short or garbage behind. */
static void compressed_copy(textbuf_t *z, zkind_t kind, const char *data, size_t n, int damaged,
                            char *what, size_t what_n) {
    size_t cut = chance(20) ? (size_t)below(n + 1) : n, k;
    unsigned char *c = compress_bytes(kind, data, cut, &k);
    tb_put(z, c, k);
    free(c);
    if (cut < n) {
        c = compress_bytes(kind, data + cut, n - cut, &k);
        tb_put(z, c, k);
        free(c);
    }
    int pad = kind != ZK_XZ && chance(10); /* xz: padding must be 4-byte blocks */
    if (pad) tb_putn(z, 0, (size_t)range(1, 9));
    int how = damaged ? (int)range(1, 2) : 0;
    if (how == 1) z->n = (size_t)below(z->n); /* cut short */
    if (how == 2) tb_puts(z, "garbage");
    snprintf(what, what_n, "%s%s%s%s", ZK_NAME[kind], cut < n ? ", two members" : "",
             pad ? ", zero padded" : "",
             how == 1   ? ", cut short"
             : how == 2 ? ", garbage after"
                        : "");
}

/* ---- reading in batches against the reference -------------------------------- */

static long n_runs, n_batches, n_carried, n_more, n_err_runs, n_empty_last, n_err_first, n_par_runs;

/* The whole-file read of a path: the reference. */
typedef struct {
    wm_seqfile_t sf;
    wm_status rc;
    char err[600];
    /* A damaged compressed copy: the error its bytes hold (the uncompressed
    ** file's message after "path: "), which a reader in reading order meets
    ** before the damage further on; NULL when none. */
    wm_status bytes_rc;
    const char *bytes_err;
} ref_t;

static void ref_read(ref_t *r, const char *path) {
    memset(r, 0, sizeof *r);
    r->rc = wm_seqfile_read(path, 0, &r->sf, r->err, sizeof r->err);
}

/* A reader's error (rc, err) against the reference's: 1 the same, 2 the
** error of the damaged copy's bytes (see ref_t), 0 neither. */
static int same_error(const ref_t *r, const char *path, wm_status rc, const char *err) {
    if (rc == r->rc && strcmp(err, r->err) == 0) return 1;
    size_t k = strlen(path);
    if (r->bytes_err && rc == r->bytes_rc && strncmp(err, path, k) == 0 && err[k] == ':' &&
        err[k + 1] == ' ' && strcmp(err + k + 2, r->bytes_err) == 0)
        return 2;
    return 0;
}

/* A want: 1..3 bytes often, up to 64 KiB, now and then more than the input. */
static uint64_t draw_want(uint64_t input_n) {
    unsigned r = (unsigned)below(100);
    return r < 35   ? range(1, 3)
           : r < 60 ? range(4, 64)
           : r < 85 ? range(65, 4096)
           : r < 95 ? range(4097, 65536)
                    : input_n + range(1, 100);
}

/* Read path in batches (halo; a want fixed, or drawn for every batch when
** fixed_want is 0; wm_seqsrc_more onto a batch more_pct times in 100, 3
** times as often on the first) and compare with the whole-file read r.
** input_n: the input's bytes (uncompressed), which bound the batches. */
static void read_batches(long idx, const char *path, const char *kind, const ref_t *r,
                         uint64_t input_n, uint64_t halo, uint64_t fixed_want, unsigned more_pct) {
    const wm_seqfile_t *ref = &r->sf;
    wm_status ref_rc = r->rc;
    const char *ref_err = r->err;
    char what[400], err[600];
    snprintf(what, sizeof what, "case %ld (%s, halo %llu, want %s%llu)", idx, kind,
             (unsigned long long)halo, fixed_want ? "" : "random, first ",
             (unsigned long long)fixed_want);
    wm_seqsrc_t *src = NULL;
    wm_seqbatch_t b;
    memset(&b, 0, sizeof b);
    memset(err, 0, sizeof err);
    uint64_t *got = NULL; /* bytes delivered of each record */
    n_runs++;
    wm_status rc = wm_seqsrc_open(&src, path, halo, err, sizeof err);
    if (rc != WM_OK) {
        if (!same_error(r, path, rc, err))
            fail_fmt(idx, NULL, "%s: open says %d '%s', whole-file read %d '%s'", what, rc, err,
                     ref_rc, ref_err);
        else check_true(what, src == NULL);
        if (ref_rc != WM_OK) n_err_runs++;
        return;
    }
    /* Half the runs parse FASTA on 2..5 threads (fasta_par.c), in runs and
    ** blocks of a few bytes up, so that both end everywhere. */
    if (chance(50)) {
        wm_seqsrc_set_threads(src, (int)range(2, 5));
        uint64_t min_run = (uint64_t)range(1, 64);
        wm_seqsrc_set_par_sizes(src, min_run, (uint64_t)range(1, 32),
                                chance(50) ? min_run + (uint64_t)below(200) : UINT64_MAX);
        n_par_runs++;
    }
    int ok = ref_rc == WM_OK;
    if (ok && (wm_seqsrc_format(src) != ref->format || wm_seqsrc_compressed(src) != ref->gzipped ||
               !wm_seqsrc_regular(src))) {
        fail_fmt(idx, NULL, "%s: format %d compressed %d regular %d, whole-file read %d %d", what,
                 (int)wm_seqsrc_format(src), wm_seqsrc_compressed(src), wm_seqsrc_regular(src),
                 (int)ref->format, ref->gzipped);
        goto out;
    }
    size_t ref_n = ok ? ref->text.n_rec : 0;
    const uint64_t *rs = ok ? ref->text.rec_start : NULL;
    got = xcalloc(ref_n + 1, sizeof *got);
    uint64_t next_rec = 0; /* records begun so far */
    long batch = 0;
    for (;;) {
        if ((uint64_t)batch > input_n + 3) {
            fail_fmt(idx, NULL, "%s: %ld batches of %llu input bytes, and no end", what, batch,
                     (unsigned long long)input_n);
            goto out;
        }
        uint64_t want = fixed_want ? fixed_want : draw_want(input_n);
        rc = wm_seqsrc_next(src, &b, want, err, sizeof err);
        if (rc == WM_OK && !b.last && chance(batch == 0 ? 3 * more_pct : more_pct)) {
            uint64_t w2 = fixed_want ? fixed_want : draw_want(input_n);
            rc = wm_seqsrc_more(src, &b, w2, err, sizeof err);
            want += w2;
            n_more++;
        }
        if (rc != WM_OK) {
            int same = same_error(r, path, rc, err);
            if (!same)
                fail_fmt(idx, NULL, "%s: batch %ld says %d '%s', whole-file read %d '%s'", what,
                         batch, rc, err, ref_rc, ref_err);
            else check_true(what, 1), n_err_runs++, n_err_first += same == 2;
            goto out;
        }
        n_batches++;
        /* The shape. */
        if (!b.rec_start && b.n_rec == 0 && b.len == 0) {
            /* an empty batch, never given a record */
        } else if (!b.rec_start || b.rec_start[0] != 0 || b.rec_start[b.n_rec] != b.len) {
            fail_fmt(idx, NULL, "%s: batch %ld: %zu records, rec_start[0] %llu, [n] %llu, len %llu",
                     what, batch, b.n_rec, b.rec_start ? (unsigned long long)b.rec_start[0] : 0ull,
                     b.rec_start ? (unsigned long long)b.rec_start[b.n_rec] : 0ull,
                     (unsigned long long)b.len);
            goto out;
        }
        for (size_t i = 0; i < b.n_rec; i++)
            if (b.rec_start[i] > b.rec_start[i + 1]) {
                fail_fmt(idx, NULL, "%s: batch %ld: rec_start[%zu] %llu > rec_start[%zu] %llu",
                         what, batch, i, (unsigned long long)b.rec_start[i], i + 1,
                         (unsigned long long)b.rec_start[i + 1]);
                goto out;
            }
        if (b.continues ? b.n_rec == 0 || b.own_from > b.rec_start[1] : b.own_from != 0) {
            fail_fmt(idx, NULL, "%s: batch %ld: continues %d, %zu records, own_from %llu", what,
                     batch, b.continues, b.n_rec, (unsigned long long)b.own_from);
            goto out;
        }
        if (b.len - b.own_from > want) {
            fail_fmt(idx, NULL, "%s: batch %ld: %llu new bytes, want %llu", what, batch,
                     (unsigned long long)(b.len - b.own_from), (unsigned long long)want);
            goto out;
        }
        if (b.continues) n_carried++;
        /* The records: which, and their bytes. */
        uint64_t first = b.continues ? next_rec - 1 : next_rec;
        if (b.continues && next_rec == 0) {
            fail_fmt(idx, NULL, "%s: batch %ld continues before any record", what, batch);
            goto out;
        }
        if (b.first_record != first) {
            fail_fmt(idx, NULL, "%s: batch %ld (continues %d): first_record %llu, expected %llu",
                     what, batch, b.continues, (unsigned long long)b.first_record,
                     (unsigned long long)first);
            goto out;
        }
        if (ok && !b.continues && next_rec > 0 &&
            got[next_rec - 1] != rs[next_rec] - rs[next_rec - 1]) {
            fail_fmt(idx, NULL, "%s: batch %ld does not continue record %llu, cut at %llu of %llu",
                     what, batch, (unsigned long long)(next_rec - 1),
                     (unsigned long long)got[next_rec - 1],
                     (unsigned long long)(rs[next_rec] - rs[next_rec - 1]));
            goto out;
        }
        for (size_t i = 0; ok && i < b.n_rec; i++) {
            uint64_t g = b.first_record + i;
            if (g >= ref_n) {
                fail_fmt(idx, NULL, "%s: batch %ld: record %llu, the input has %zu", what, batch,
                         (unsigned long long)g, ref_n);
                goto out;
            }
            if (strcmp(b.names[i], ref->names[g]) != 0) {
                fail_fmt(idx, NULL, "%s: batch %ld: record %llu named '%s', whole-file read '%s'",
                         what, batch, (unsigned long long)g, b.names[i], ref->names[g]);
                goto out;
            }
            const uint8_t *whole = ref->text.seq + rs[g], *seg = b.seq + b.rec_start[i];
            uint64_t whole_n = rs[g + 1] - rs[g], seg_n = b.rec_start[i + 1] - b.rec_start[i];
            uint64_t carry = 0;
            if (i == 0 && b.continues) {
                carry = b.own_from;
                uint64_t expect = got[g] < halo ? got[g] : halo;
                if (carry != expect || b.base[0] + carry != got[g] ||
                    memcmp(seg, whole + b.base[0], (size_t)carry) != 0) {
                    fail_fmt(idx, NULL,
                             "%s: batch %ld: record %llu carries %llu bytes from %llu, expected "
                             "the last %llu of the %llu so far%s",
                             what, batch, (unsigned long long)g, (unsigned long long)carry,
                             (unsigned long long)b.base[0], (unsigned long long)expect,
                             (unsigned long long)got[g],
                             carry == expect && b.base[0] + carry == got[g] ? " (bytes differ)"
                                                                            : "");
                    goto out;
                }
            } else if (b.base[i] != 0 || got[g] != 0) {
                fail_fmt(idx, NULL, "%s: batch %ld: new record %llu at base %llu, %llu bytes seen",
                         what, batch, (unsigned long long)g, (unsigned long long)b.base[i],
                         (unsigned long long)got[g]);
                goto out;
            }
            uint64_t fresh = seg_n - carry;
            if (got[g] + fresh > whole_n ||
                memcmp(seg + carry, whole + got[g], (size_t)fresh) != 0) {
                fail_fmt(idx, NULL,
                         "%s: batch %ld: record %llu bytes [%llu, %llu) differ from the whole "
                         "record's (%llu bytes)",
                         what, batch, (unsigned long long)g, (unsigned long long)got[g],
                         (unsigned long long)(got[g] + fresh), (unsigned long long)whole_n);
                goto out;
            }
            got[g] += fresh;
            if (i + 1 < b.n_rec && got[g] != whole_n) {
                fail_fmt(idx, NULL,
                         "%s: batch %ld: record %llu has %llu of %llu bytes, then the next", what,
                         batch, (unsigned long long)g, (unsigned long long)got[g],
                         (unsigned long long)whole_n);
                goto out;
            }
        }
        next_rec = b.first_record + b.n_rec;
        if (b.last) {
            if (chance(20)) { /* more after the last batch adds nothing */
                uint64_t len = b.len;
                size_t n_rec = b.n_rec;
                rc = wm_seqsrc_more(src, &b, range(1, 100), err, sizeof err);
                if (rc != WM_OK || b.len != len || b.n_rec != n_rec || !b.last) {
                    fail_fmt(idx, NULL,
                             "%s: more after the last batch: %d '%s', %llu bytes, %zu "
                             "records (were %llu, %zu)",
                             what, rc, err, (unsigned long long)b.len, b.n_rec,
                             (unsigned long long)len, n_rec);
                    goto out;
                }
            }
            break;
        }
        batch++;
    }
    if (b.len == 0 && b.n_rec <= 1 && b.continues) n_empty_last++;
    if (!ok) {
        fail_fmt(idx, NULL, "%s: read to its end in %ld batches; whole-file read %d '%s'", what,
                 batch + 1, ref_rc, ref_err);
        goto out;
    }
    if (next_rec != ref_n || (ref_n > 0 && got[ref_n - 1] != rs[ref_n] - rs[ref_n - 1])) {
        fail_fmt(idx, NULL, "%s: ends after %llu records (the last with %llu bytes), expected %zu",
                 what, (unsigned long long)next_rec,
                 next_rec > 0 && next_rec <= ref_n ? (unsigned long long)got[next_rec - 1] : 0ull,
                 ref_n);
        goto out;
    }
    check_true(what, 1);
out:
    free(got);
    wm_seqbatch_free(&b);
    wm_seqsrc_close(src);
}

/* `runs` batched reads of path with random settings against r. */
static void compare(long idx, const char *path, const char *kind, const ref_t *r, uint64_t input_n,
                    int runs, int big) {
    for (int k = 0; k < runs; k++) {
        uint64_t halo = chance(10) ? 0 : chance(85) ? range(1, 40) : range(41, 3000);
        uint64_t want = 0; /* drawn for every batch */
        if (chance(50)) {
            want = draw_want(input_n);
            /* not millions of batches */
            while (input_n / want > (big ? 2000 : 3000)) want *= 4;
        }
        read_batches(idx, path, kind, r, input_n, halo, want, big ? 1 : 10);
    }
}

/* Where a big case's buffer edge goes: anywhere in c[0, n], next to a line
** break, or in a header. */
static size_t edge_at(const char *c, size_t n) {
    size_t j = (size_t)below(n + 1);
    int how = (int)below(3);
    if (how == 1) { /* next to a line break */
        while (j < n && c[j] != '\n') j++;
        j = (size_t)range(j > 2 ? j - 2 : 0, j + 2 < n ? j + 2 : n);
    } else if (how == 2) { /* in a header */
        while (j < n && !((c[j] == '>' || c[j] == '@') && (j == 0 || c[j - 1] == '\n'))) j++;
        j += (size_t)below(12);
        if (j > n) j = n;
    }
    return j;
}

static void one_case(long idx) {
    textbuf_t b = { 0 }, c = { 0 };
    int fmt = (int)below(10);
    fmt = fmt < 4 ? WM_FMT_FASTA : fmt < 8 ? WM_FMT_FASTQ : WM_FMT_PLAIN;
    int broken = fmt != WM_FMT_PLAIN && chance(25);
    if (fmt == WM_FMT_FASTA) make_fasta(&c);
    else if (fmt == WM_FMT_FASTQ) make_fastq(&c, broken && chance(60));
    else make_plain(&c);
    if (broken) damage(&c);
    int big = chance(3);
    if (big) { /* a record before the case, the buffer's edge (4 MiB, or 8) in the case */
        size_t edge = (size_t)(chance(90) ? 4 : 8) << 20;
        big_record(&b, fmt, edge - edge_at(c.p, c.n));
    }
    tb_put(&b, c.p ? c.p : "", c.n);
    free(c.p);
    char fname[64], kind[200];
    snprintf(fname, sizeof fname, "sb%ld", idx);
    const char *ppath = tmp_named(fname, b.p, b.n);
    ref_t plain, zr;
    ref_read(&plain, ppath);
    compare(idx, ppath, "plain file", &plain, b.n, big ? 1 : 2, big);
    if (g_failed == 0) unlink(ppath);
    /* The same bytes compressed. */
    textbuf_t z = { 0 };
    zkind_t zk = big          ? ZK_ZSTD
                 : chance(50) ? ZK_GZIP
                              : (zkind_t)(ZK_GZIP + below(ZK_N - ZK_GZIP)); /* big: the fast one */
    int damaged = chance(10);
    compressed_copy(&z, zk, b.p ? b.p : "", b.n, damaged, kind, sizeof kind);
    snprintf(fname, sizeof fname, "sb%ld.z", idx);
    const char *path = tmp_named(fname, z.p, z.n);
    ref_read(&zr, path);
    size_t k = strlen(ppath);
    if (damaged && plain.rc != WM_OK && strncmp(plain.err, ppath, k) == 0) {
        zr.bytes_rc = plain.rc;
        zr.bytes_err = plain.err + k + 2; /* after "path: " */
    }
    compare(idx, path, kind, &zr, b.n, 1, big);
    if (g_failed == 0) unlink(path);
    wm_seqfile_close(&plain.sf);
    wm_seqfile_close(&zr.sf);
    free(z.p);
    free(b.p);
}

/* ---- fixed shapes ------------------------------------------------------------ */

static void edge_cases(void) {
    static const struct {
        const char *s;
        size_t n; /* 0: strlen */
    } texts[] = {
        { ">a\nACGT\n>b\nGG\n", 0 },
        { ">a\r\nAC\r\nGT\r\n>b c\r\n\r\nGG", 0 },
        { "\n\n>a\nA\n>\nC\n", 0 },
        { ">a\nAC\x01GT\n", 0 },
        { "ACGT\n>a\nA\n", 0 },
        { "  \n\t\n>a\nA C\tG\rT\n\n>b\n", 0 },
        { "\v\n>a\nACGT\n", 0 },
        { ">a\x7f\nA\n", 0 },
        { ">a b\x01\xff c\nA\n>c\n", 0 },
        { ">a\n>b\n>c\n", 0 },
        { ">", 0 },
        { ">x", 0 },
        { ">x\nA", 0 },
        { ">x\n\xc3\xa9\n", 0 },
        { " >x\nA\n", 0 },
        { ">x\nACGTACGTAC\r", 0 },
        { ">x\nACGT\n\n\n", 0 },
        { "@r\nACGT\n+\nIIII\n", 0 },
        { "@r\nACGT\n+\nIIII", 0 },
        { "@r\nACGT\n+\nIII\n@s\nA\n+\nI\n", 0 },
        { "@r\nACGT\n+\nIIIII\n", 0 },
        { "@r\nACGT\n+\n", 0 },
        { "@r\nACGT\n", 0 },
        { "@r\n\n+\n\n@s\n+\n@t\nAC\n+\n@+\n", 0 },
        { "@r\nAC\nGT\n+r\n@I\nII\n\n\n", 0 },
        { "@r\r\nACGT\r\n+\r\n@@@@\r\n", 0 },
        { "@\nA\n+\nI\n", 0 },
        { "@r\nA\x02\n+\nI\n", 0 },
        { "@r\nACGT\n+\nIIII\nx\n", 0 },
        { "\n\n@r\nA\n+\nI\n\n", 0 },
        { "", 0 },
        { " \n\t\r\n", 0 },
        { "ACGT", 0 },
        { "hello world\n\x00\x01\xff", 16 },
        { "PK\x03\x04rest of a zip", 0 },
        { "\x04\x22\x4d\x18lz4", 0 },
        { "\x1f\x8b", 2 },
        { "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", 0 },
    };
    for (size_t t = 0; t < N_OF(texts); t++) {
        size_t n = texts[t].n ? texts[t].n : strlen(texts[t].s);
        const char *path = tmp_file(texts[t].s, n);
        ref_t ref;
        char kind[40];
        ref_read(&ref, path);
        snprintf(kind, sizeof kind, "fixed text %zu", t);
        static const uint64_t halos[] = { 0, 1, 3, 40 };
        for (uint64_t want = 1; want <= 6; want++)
            for (size_t h = 0; h < N_OF(halos); h++)
                read_batches(-1, path, kind, &ref, n, halos[h], want, 0);
        wm_seqfile_close(&ref.sf);
    }
    /* Lines longer than the reader's buffer (4 MiB, which doubles for a
    ** line or a FASTQ record over half of it), read with a few wants. */
    for (int t = 0; t < 4; t++) {
        textbuf_t b = { 0 };
        size_t big = (size_t)5 << 20;
        if (t == 0) { /* a header with a 5 MiB description */
            tb_puts(&b, ">n ");
            tb_putn(&b, 'x', big);
            tb_puts(&b, "\nACGT\n>m\nGG\n");
        } else if (t == 1) { /* a blank line of 5 MiB before the first header */
            tb_putn(&b, ' ', big);
            tb_puts(&b, "\n>a\nAC\n");
        } else if (t == 2) { /* a FASTQ record of 2 x 3 MiB, then a short one */
            tb_puts(&b, "@r\n");
            pattern(&b, big * 3 / 5, 0);
            tb_puts(&b, "\n+\n");
            pattern(&b, big * 3 / 5, 1);
            tb_puts(&b, "\n@s\nA\n+\n@\n");
        } else { /* plain, 5 MiB */
            pattern(&b, big, 0);
        }
        const char *path = tmp_file(b.p, b.n);
        ref_t ref;
        char kind[40];
        ref_read(&ref, path);
        snprintf(kind, sizeof kind, "long lines %d", t);
        static const uint64_t wants[] = { 0, 4096, 1 << 20, 64 << 20 };
        for (size_t w = 0; w < N_OF(wants); w++)
            read_batches(-1, path, kind, &ref, b.n, 7, wants[w], 5);
        wm_seqfile_close(&ref.sf);
        unlink(path);
        free(b.p);
    }
    /* No such file, a folder. */
    const char *paths[] = { tmp_path("no such file"), tmp_folder() };
    for (size_t t = 0; t < N_OF(paths); t++) {
        ref_t ref;
        ref_read(&ref, paths[t]);
        check_true("the reference refuses a missing file and a folder", ref.rc == WM_IO);
        read_batches(-1, paths[t], "no file / a folder", &ref, 0, 3, 5, 0);
        wm_seqfile_close(&ref.sf);
    }
}

int main(int argc, char **argv) {
    long only = -2;
    long n = test_begin("test_seqbatch", argc, argv, 20261126ull, 800, NULL, &only);
    if (only < 0) { /* not when one random case is asked for */
        edge_cases();
        part_done("fixed shapes");
    }
    run_cases(n, only, 0x7365716261ull, 250, one_case);
    printf("reads: %ld in %ld batches (%ld continued a record, %ld grown by more, %ld ended "
           "with an empty continuation, %ld with FASTA parsed on threads); %ld ended on the "
           "reference's error (%ld on the error of a damaged compressed copy's bytes, met before "
           "the damage)\n",
           n_runs, n_batches, n_carried, n_more, n_empty_last, n_par_runs, n_err_runs, n_err_first);
    print_repro(argv[0], NULL);
    return test_finish();
}
