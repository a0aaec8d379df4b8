/*
** test_api_reader.c -- the public streaming reader (wm_reader_*, warpmatch.h
** "reading sequence files") against what it must equal:
**   1. the records a random FASTA/FASTQ was written from (names, comments,
**      sequences, qualities; line widths, CRLF, blank lines, empty records,
**      lowercase), in every compression (plain, gzip, xz, bzip2, zstd), read
**      from a file and from standard input, with buffers of 1 byte to 64 KiB;
**   2. the whole-file reader (wm_seqfile_read) on the same random files and on
**      broken copies of them (cut short, a binary byte, a line dropped): the
**      same records before the error, the same status and the same message,
**      line number included;
**   3. wm_seqfile_read on the shared data files (when present);
**   4. the documented rules for arguments, errors and unknown formats;
**   5. memory: a 48 MiB input read in a child whose peak resident size may
**      grow by at most 16 MiB (the whole-file reader would need 48).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/seqfile.h"
#include "rng.h"
#include "textbuf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- random FASTA / FASTQ ---------------------------------------------------- */

typedef struct {
    char name[32], comment[32];
    char *seq, *qual;
    size_t len;
} rec_t;

/* n records, written as FASTA (fastq = 0) or FASTQ into *b; lines wrapped at
** a random width, CRLF or LF, blank lines between records now and then. */
static rec_t *random_file(int fastq, size_t n, size_t max_len, textbuf_t *b) {
    rec_t *r = xcalloc(n, sizeof *r);
    int crlf = chance(30);
    const char *eol = crlf ? "\r\n" : "\n";
    for (size_t i = 0; i < n; i++) {
        snprintf(r[i].name, sizeof r[i].name, "r%zu_%u", i, (unsigned)below(1000));
        if (chance(50))
            snprintf(r[i].comment, sizeof r[i].comment, "len=%u x", (unsigned)below(99));
        r[i].len = chance(10) ? 0 : (size_t)below(max_len + 1);
        r[i].seq = xmalloc(r[i].len + 1);
        r[i].qual = xmalloc(r[i].len + 1);
        for (size_t j = 0; j < r[i].len; j++) {
            r[i].seq[j] = "ACGTNacgtn"[below(chance(20) ? 10 : 4)];
            r[i].qual[j] = (char)('!' + below(40)); /* may be '@' or '+' */
        }
        r[i].seq[r[i].len] = r[i].qual[r[i].len] = '\0';
        if (chance(15)) tb_puts(b, eol);
        tb_puts(b, fastq ? "@" : ">");
        tb_puts(b, r[i].name);
        if (r[i].comment[0]) {
            tb_puts(b, chance(50) ? " " : "\t");
            tb_puts(b, r[i].comment);
        }
        tb_puts(b, eol);
        size_t width = fastq && chance(70) ? r[i].len + 1 : 1 + below(80);
        for (size_t j = 0; j < r[i].len; j += width) {
            tb_put(b, r[i].seq + j, r[i].len - j < width ? r[i].len - j : width);
            tb_puts(b, eol);
        }
        if (fastq) {
            tb_puts(b, chance(50) ? "+" : "+rest");
            tb_puts(b, eol);
            for (size_t j = 0; j < r[i].len; j += width) {
                tb_put(b, r[i].qual + j, r[i].len - j < width ? r[i].len - j : width);
                tb_puts(b, eol);
            }
            if (r[i].len == 0) tb_puts(b, eol);
        }
    }
    if (b->n && chance(20)) b->n -= crlf ? 2 : 1; /* no line break at the end */
    return r;
}

static void free_recs(rec_t *r, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(r[i].seq);
        free(r[i].qual);
    }
    free(r);
}

/* ---- reading -------------------------------------------------------------- */

/* Read path ("-": from stdin_path) with a block of `block` bytes and compare
** every record with want[0, n). */
static void expect_records(const char *what, const char *path, const char *stdin_path,
                           uint64_t block, int fastq, const rec_t *want, size_t n) {
    int saved = -1;
    if (stdin_path) {
        saved = dup(0);
        int fd = open(stdin_path, O_RDONLY);
        dup2(fd, 0);
        close(fd);
    }
    wm_reader_opts_t o = wm_reader_opts_default();
    o.block = block;
    wm_reader_t *rd;
    wm_record_t rec;
    int rc = wm_reader_open(path, &o, &rd), k = 0;
    size_t i = 0, bad = 0;
    CHECK(rc == WM_OK, "%s: open %d (%s)", what, rc, wm_reader_errmsg(rd));
    if (rc == WM_OK) {
        CHECK(wm_reader_format(rd) == (fastq ? WM_READ_FASTQ : WM_READ_FASTA), "%s: format %d",
              what, (int)wm_reader_format(rd));
        while ((k = wm_reader_next(rd, &rec)) == 1) {
            if (i < n) {
                const rec_t *w = &want[i];
                int ok =
                    strcmp(rec.name, w->name) == 0 && rec.name_len == strlen(w->name) &&
                    strcmp(rec.comment, w->comment) == 0 && rec.seq_len == w->len &&
                    memcmp(rec.seq, w->seq, w->len) == 0 && rec.seq[w->len] == 0 &&
                    rec.index == i &&
                    (fastq ? rec.qual && memcmp(rec.qual, w->qual, w->len) == 0 : rec.qual == NULL);
                if (!ok && bad++ < 3)
                    CHECK(0, "%s: record %zu: got '%s' '%s' %llu, want '%s' '%s' %zu", what, i,
                          rec.name, rec.comment, (unsigned long long)rec.seq_len, w->name,
                          w->comment, w->len);
            }
            i++;
        }
        CHECK(k == 0, "%s: ended with %d (%s)", what, k, wm_reader_errmsg(rd));
        CHECK(i == n, "%s: %zu records, want %zu", what, i, n);
        CHECK(bad == 0, "%s: %zu records differ", what, bad);
    }
    wm_reader_close(rd);
    if (saved >= 0) {
        dup2(saved, 0);
        close(saved);
    }
}

/* The reader against wm_seqfile_read on path: the same records (names and
** sequences) and the same outcome (status and message). */
static void expect_like_seqfile(const char *what, const char *path, uint64_t block) {
    wm_seqfile_t sf;
    char err[512];
    wm_status want = wm_seqfile_read(path, 0, &sf, err, sizeof err);
    wm_reader_opts_t o = wm_reader_opts_default();
    o.block = block;
    wm_reader_t *rd;
    wm_record_t rec;
    int k = wm_reader_open(path, &o, &rd);
    size_t i = 0, bad = 0;
    if (k == WM_OK) {
        while ((k = wm_reader_next(rd, &rec)) == 1) {
            if (want == WM_OK && i < sf.text.n_rec) {
                uint64_t a = sf.text.rec_start[i], b = sf.text.rec_start[i + 1];
                if ((strcmp(rec.name, sf.names[i]) != 0 || rec.seq_len != b - a ||
                     memcmp(rec.seq, sf.text.seq + a, b - a) != 0) &&
                    bad++ < 3)
                    CHECK(0, "%s: record %zu '%s' (%llu bytes) differs from seqfile's '%s'", what,
                          i, rec.name, (unsigned long long)rec.seq_len, sf.names[i]);
            }
            i++;
        }
    }
    if (want == WM_OK) {
        CHECK(k == 0, "%s: reader ended with %d (%s)", what, k, wm_reader_errmsg(rd));
        CHECK(i == sf.text.n_rec, "%s: %zu records, seqfile %zu", what, i, sf.text.n_rec);
        CHECK(bad == 0, "%s: %zu records differ", what, bad);
    } else {
        CHECK(k == (int)want, "%s: reader status %d, seqfile %d (%s)", what, k, want, err);
        CHECK(strcmp(wm_reader_errmsg(rd), err) == 0, "%s: message '%s', seqfile '%s'", what,
              wm_reader_errmsg(rd), err);
    }
    wm_reader_close(rd);
    wm_seqfile_close(&sf);
}

/* ---- 1 and 2: random files -------------------------------------------------- */

static const uint64_t BLOCKS[] = { 1, 2, 3, 7, 64, 1000, 0 };

static void random_files(long rounds) {
    long checked = 0;
    for (long t = 0; t < rounds; t++) {
        seed_case(t, 0x7265616465ULL);
        int fastq = (int)(t & 1);
        size_t n = (size_t)range(1, 40), max_len = chance(30) ? 3000 : 120;
        textbuf_t b = { 0 };
        rec_t *r = random_file(fastq, n, max_len, &b);
        zkind_t z = (zkind_t)(t % ZK_N);
        size_t zn;
        unsigned char *zb = compress_bytes(z, b.p, b.n, &zn);
        const char *path = tmp_file(zb, zn);
        char what[96];
        uint64_t block = BLOCKS[below(N_OF(BLOCKS))];
        snprintf(what, sizeof what, "round %ld (%s %s, block %llu)", t, fastq ? "FASTQ" : "FASTA",
                 ZK_NAME[z], (unsigned long long)block);
        expect_records(what, path, NULL, block, fastq, r, n);
        expect_like_seqfile(what, path, block);
        if (t % 5 == 0) {
            snprintf(what, sizeof what, "round %ld (%s %s, stdin)", t, fastq ? "FASTQ" : "FASTA",
                     ZK_NAME[z]);
            expect_records(what, "-", path, block, fastq, r, n);
        }
        /* A broken copy: cut short, a binary byte, or a line dropped; the
        ** plain bytes are broken, then compressed again. */
        for (int v = 0; v < 3 && b.n > 2; v++) {
            textbuf_t c = { 0 };
            tb_put(&c, b.p, b.n);
            size_t at = (size_t)below(c.n);
            if (v == 0) {
                c.n = at;
            } else if (v == 1) {
                c.p[at] = (char)(chance(50) ? 0x01 : 0x80);
            } else {
                char *nl = memchr(c.p + at, '\n', c.n - at);
                char *nl2 = nl ? memchr(nl + 1, '\n', c.n - (size_t)(nl + 1 - c.p)) : NULL;
                if (nl2) {
                    memmove(nl + 1, nl2 + 1, c.n - (size_t)(nl2 + 1 - c.p));
                    c.n -= (size_t)(nl2 - nl);
                }
            }
            size_t cn;
            unsigned char *cb = compress_bytes(z, c.p, c.n, &cn);
            snprintf(what, sizeof what, "round %ld broken %d (%s %s, block %llu)", t, v,
                     fastq ? "FASTQ" : "FASTA", ZK_NAME[z], (unsigned long long)block);
            expect_like_seqfile(what, tmp_file(cb, cn), block);
            free(cb);
            free(c.p);
        }
        /* The compressed bytes cut short: an error, never records made up. */
        if (z != ZK_PLAIN && zn > 4) {
            const char *cut = tmp_file(zb, zn - 1 - (size_t)below(zn / 2));
            snprintf(what, sizeof what, "round %ld (%s cut short)", t, ZK_NAME[z]);
            expect_like_seqfile(what, cut, block);
        }
        checked++;
        free(zb);
        free(b.p);
        free_recs(r, n);
    }
    printf("random files: %ld rounds\n", checked);
}

/* ---- 3: the shared data -------------------------------------------------------- */

static void shared_files(void) {
    static const char *const files[] = {
        "dna/lambda_phage.fa",
        "dna/chrM_human_MT-human.fa",
        "dna/ecoli_k12_mg1655.fa.gz",
        "reads/ecoli_k12_pacbio_subsetA.fastq.gz",
        "protein/uniprot_500_mmseqs2_QUERY.fasta.gz",
        "text/world192.txt",
    };
    const char *dir = shared_data_dir();
    if (!dir) {
        skip_note("no shared data folder");
        return;
    }
    int found = 0;
    for (size_t i = 0; i < N_OF(files); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (access(path, R_OK) != 0) continue;
        expect_like_seqfile(files[i], path, 0);
        expect_like_seqfile(files[i], path, 4096);
        found++;
    }
    printf("shared data: %d of %zu files compared with wm_seqfile_read\n", found, N_OF(files));
}

/* ---- 4: the rules ---------------------------------------------------------------- */

static void rules(void) {
    wm_reader_t *rd = (wm_reader_t *)1;
    wm_record_t rec;
    CHECK(wm_reader_open(NULL, NULL, &rd) == WM_INVALID && rd == NULL, "NULL path");
    CHECK(wm_reader_open("x", NULL, NULL) == WM_INVALID, "NULL out");
    CHECK(wm_reader_next(NULL, &rec) == WM_INVALID, "next(NULL)");
    wm_reader_close(NULL);
    CHECK(strcmp(wm_reader_errmsg(NULL), "") == 0, "errmsg(NULL)");

    CHECK(wm_reader_open(tmp_path("absent.fa"), NULL, &rd) == WM_IO, "missing file: WM_IO");
    CHECK(strstr(wm_reader_errmsg(rd), "absent.fa: No such file") != NULL, "missing file: '%s'",
          wm_reader_errmsg(rd));
    wm_reader_close(rd);
    CHECK(wm_reader_open(tmp_folder(), NULL, &rd) == WM_IO, "a directory: WM_IO");
    wm_reader_close(rd);

    static const unsigned char lz4[] = { 0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0, 0, 0 };
    CHECK(wm_reader_open(tmp_file(lz4, sizeof lz4), NULL, &rd) == WM_FORMAT, "lz4: WM_FORMAT");
    CHECK(strstr(wm_reader_errmsg(rd), "lz4 data") != NULL, "lz4: '%s'", wm_reader_errmsg(rd));
    wm_reader_close(rd);

    /* Plain input: one record ".", bytes unchanged; an empty input too. */
    const char *plain = "hello\r\nworld\n";
    CHECK(wm_reader_open(tmp_text(plain), NULL, &rd) == WM_OK, "plain: open");
    CHECK(wm_reader_next(rd, &rec) == 1 && strcmp(rec.name, ".") == 0 &&
              rec.seq_len == strlen(plain) && memcmp(rec.seq, plain, rec.seq_len) == 0 &&
              rec.comment && rec.comment[0] == '\0' && rec.qual == NULL,
          "plain: one record '.' with every byte");
    CHECK(wm_reader_next(rd, &rec) == 0, "plain: then the end");
    CHECK(wm_reader_next(rd, &rec) == 0, "plain: the end again");
    wm_reader_close(rd);
    CHECK(wm_reader_open(tmp_text(""), NULL, &rd) == WM_OK && wm_reader_next(rd, &rec) == 1 &&
              rec.seq_len == 0 && wm_reader_next(rd, &rec) == 0,
          "empty input: one empty record, as wm_seqfile_read");
    wm_reader_close(rd);
    wm_reader_opts_t o = wm_reader_opts_default();
    o.force_plain = 1;
    CHECK(wm_reader_open(tmp_text(">a\nACGT\n"), &o, &rd) == WM_OK &&
              wm_reader_format(rd) == WM_READ_PLAIN && wm_reader_next(rd, &rec) == 1 &&
              rec.seq_len == 8,
          "force_plain: a FASTA file as one plain record");
    wm_reader_close(rd);

    /* Header fields and the sticky error. */
    CHECK(wm_reader_open(tmp_text("\n\n>n1  some comment\t x\nAC GT\n>n2\n\x01\n"), NULL, &rd) ==
              WM_OK,
          "fields: open");
    CHECK(wm_reader_next(rd, &rec) == 1 && strcmp(rec.name, "n1") == 0 &&
              strcmp(rec.comment, "some comment\t x") == 0 && rec.line == 3 && rec.seq_len == 4 &&
              memcmp(rec.seq, "ACGT", 4) == 0,
          "fields: name, comment, line 3, blanks dropped from the sequence");
    CHECK(wm_reader_next(rd, &rec) == WM_FORMAT, "binary byte: WM_FORMAT");
    CHECK(strstr(wm_reader_errmsg(rd), ": line 6: binary byte 0x01 in sequence") != NULL,
          "binary byte: '%s'", wm_reader_errmsg(rd));
    CHECK(wm_reader_next(rd, &rec) == WM_FORMAT, "the error is sticky");
    wm_reader_close(rd);

    /* max_record: a record longer than the limit is refused, not read whole. */
    textbuf_t b = { 0 };
    tb_puts(&b, ">short\nACGT\n>long\n");
    for (int i = 0; i < 1000; i++)
        tb_puts(&b, "ACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTAC\n");
    o = wm_reader_opts_default();
    o.max_record = 4096;
    o.block = 256;
    CHECK(wm_reader_open(tmp_file(b.p, b.n), &o, &rd) == WM_OK, "max_record: open");
    CHECK(wm_reader_next(rd, &rec) == 1, "max_record: the short record");
    CHECK(wm_reader_next(rd, &rec) == WM_NOMEM, "max_record: the long one is WM_NOMEM");
    CHECK(strstr(wm_reader_errmsg(rd), "line 3: record longer than") != NULL, "max_record: '%s'",
          wm_reader_errmsg(rd));
    wm_reader_close(rd);
    free(b.p);

    /* Concatenated members of each format read as one input. */
    for (zkind_t z = ZK_GZIP; z < ZK_N; z++) {
        size_t n1, n2;
        unsigned char *a = compress_bytes(z, ">a\nAC\n", 6, &n1),
                      *c = compress_bytes(z, "GT\n>b\nTT\n", 9, &n2);
        unsigned char *both = xmalloc(n1 + n2);
        memcpy(both, a, n1);
        memcpy(both + n1, c, n2);
        CHECK(wm_reader_open(tmp_file(both, n1 + n2), NULL, &rd) == WM_OK &&
                  wm_reader_next(rd, &rec) == 1 && rec.seq_len == 4 &&
                  memcmp(rec.seq, "ACGT", 4) == 0 && wm_reader_next(rd, &rec) == 1 &&
                  wm_reader_next(rd, &rec) == 0 &&
                  strcmp(wm_reader_compression(rd), ZK_NAME[z]) == 0,
              "%s: two members read as one input", ZK_NAME[z]);
        wm_reader_close(rd);
        free(a);
        free(c);
        free(both);
    }
}

/* ---- 5: memory ----------------------------------------------------------------- */

static long max_rss_kib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void memory_bound(void) {
    const size_t target = (size_t)48 << 20, rec = 10000;
    char *line = xmalloc(rec + 64);
    const char *path = tmp_path("big.fa");
    FILE *f = fopen(path, "wb");
    if (!f) exit(2);
    for (size_t i = 0; i < rec; i++) line[i] = "ACGT"[(i * 7 + i / 13) & 3];
    size_t n = 0, total = 0;
    while (total < target) {
        int h = fprintf(f, ">rec%zu\n", n++);
        fwrite(line, 1, rec, f);
        fputc('\n', f);
        total += (size_t)h + rec + 1;
    }
    fclose(f);
    free(line);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        long before = max_rss_kib();
        wm_reader_t *rd;
        wm_record_t r;
        uint64_t count = 0, bases = 0;
        int k = -1;
        if (wm_reader_open(path, NULL, &rd) == WM_OK)
            while ((k = wm_reader_next(rd, &r)) == 1) {
                count++;
                bases += r.seq_len;
            }
        wm_reader_close(rd);
        long grew = max_rss_kib() - before;
        printf("memory: %llu records, %llu bases of a %zu MiB file, peak RSS grew %ld KiB\n",
               (unsigned long long)count, (unsigned long long)bases, total >> 20, grew);
        fflush(stdout);
        _exit(k == 0 && count == n && bases == (uint64_t)n * rec && grew < 16 * 1024 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "memory: a 48 MiB file read whole and right, peak RSS growing under 16 MiB");
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 20261126, NULL, NULL);
    printf("test_api_reader: seed %llu\n", (unsigned long long)g_seed);
    rules();
    part_done("rules");
    random_files((long)(200 * g_scale));
    part_done("random files");
    shared_files();
    part_done("shared data");
    memory_bound();
    part_done("memory");
    return test_finish();
}
