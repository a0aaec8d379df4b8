/*
** test_seqfile.c -- unit tests of the input layer (src/io/seqfile.c).
**
** Writes small inputs to temporary files (plain and gzip'd, made with zlib's
** gz* calls), reads them back with wm_seqfile_read and checks records, names,
** formats and error codes/messages; then parses the real files of the shared
** data folder ($WM_SHARED_DATA, else ../shared/data beside the repository;
** skipped when absent) against their documented counts and prints, for
** information only, how fast the big ones parse. Needs only seqfile.c, zlib
** and tests/support. The random FASTA round trips keep their own small
** generator: their 30 rounds are the same whatever the seed.
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/seqfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* ---- temporary files (in the run's folder, removed at exit) ------------------- */

static void write_full(int fd, const void *data, size_t n) {
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            perror("write");
            exit(2);
        }
        p += w;
        n -= (size_t)w;
    }
}

static const char *tmp_gz_text(const char *s) {
    size_t n;
    unsigned char *b = gzip_bytes(s, strlen(s), &n);
    const char *p = tmp_file(b, n);
    free(b);
    return p;
}

/* ---- checking helpers ------------------------------------------------------ */

/* Read `path` and compare with the expected records (names, sequences). */
static void expect_recs(const char *what, const char *path, int force_plain, wm_format_t fmt,
                        int gz, size_t n, const char *const *names, const char *const *seqs) {
    wm_seqfile_t sf;
    char err[512];
    wm_status rc = wm_seqfile_read(path, force_plain, &sf, err, sizeof err);
    CHECK(rc == WM_OK, "%s: status %d (%s)", what, rc, err);
    if (rc != WM_OK) return;
    CHECK(sf.format == fmt, "%s: format %s, want %s", what, wm_format_name(sf.format),
          wm_format_name(fmt));
    CHECK(sf.gzipped == gz, "%s: gzipped %d, want %d", what, sf.gzipped, gz);
    CHECK(sf.text.n_rec == n, "%s: %zu records, want %zu", what, sf.text.n_rec, n);
    CHECK(sf.text.seq != NULL, "%s: seq is NULL", what);
    CHECK(sf.text.rec_start != NULL && sf.text.rec_start[0] == 0, "%s: rec_start[0] != 0", what);
    if (sf.text.n_rec == n && sf.text.rec_start) {
        CHECK(sf.text.rec_start[n] == sf.text.len, "%s: rec_start[n] %llu != len %llu", what,
              (unsigned long long)sf.text.rec_start[n], (unsigned long long)sf.text.len);
        for (size_t i = 0; i < n; i++) {
            uint64_t a = sf.text.rec_start[i], b = sf.text.rec_start[i + 1];
            size_t want = strlen(seqs[i]);
            CHECK(strcmp(sf.names[i], names[i]) == 0, "%s: record %zu name '%s', want '%s'", what,
                  i, sf.names[i], names[i]);
            CHECK(b >= a && b - a == want && memcmp(sf.text.seq + a, seqs[i], want) == 0,
                  "%s: record %zu sequence '%.*s', want '%s'", what, i, (int)(b >= a ? b - a : 0),
                  (const char *)sf.text.seq + a, seqs[i]);
        }
    }
    wm_seqfile_close(&sf);
    wm_seqfile_close(&sf); /* safe twice */
    CHECK(sf.text.seq == NULL && sf.names == NULL && sf.text.n_rec == 0,
          "%s: close did not zero the struct", what);
}

/* Read `path`, expect status `want` and a message containing each of the
** NULL-terminated fragments, and an emptied struct. */
static void expect_error(const char *what, const char *path, int force_plain, wm_status want, ...) {
    wm_seqfile_t sf;
    char err[512];
    memset(err, 'x', sizeof err);
    wm_status rc = wm_seqfile_read(path, force_plain, &sf, err, sizeof err);
    CHECK(rc == want, "%s: status %d, want %d (msg '%s')", what, rc, want, rc == WM_OK ? "" : err);
    if (rc == WM_OK) {
        wm_seqfile_close(&sf);
        return;
    }
    va_list ap;
    va_start(ap, want);
    check_message(what, err, sizeof err, path, ':', ap);
    va_end(ap);
    CHECK(sf.text.seq == NULL && sf.names == NULL && sf.text.n_rec == 0 && sf.owned == NULL &&
              sf.map_base == NULL,
          "%s: struct not left empty on error", what);
    wm_seqfile_close(&sf);
}

/* ---- the cases ---------------------------------------------------------------- */

static void test_plain(void) {
    const char *s = "hello world\nsecond line\r\n\x01\x02 binary is fine here\n";
    const char *p = tmp_text(s);
    const char *names[] = { "." }, *seqs[] = { s };
    expect_recs("plain", p, 0, WM_FMT_PLAIN, 0, 1, names, seqs);

    wm_seqfile_t sf;
    char err[256];
    CHECK(wm_seqfile_read(p, 0, &sf, err, sizeof err) == WM_OK, "plain: read");
    CHECK(sf.map_base != NULL && sf.owned == NULL, "plain file should be mmap'd");
    CHECK(sf.raw_bytes == strlen(s), "plain raw_bytes %llu", (unsigned long long)sf.raw_bytes);
    wm_seqfile_close(&sf);

    expect_recs("plain gz", tmp_gz_text(s), 0, WM_FMT_PLAIN, 1, 1, names, seqs);

    /* Blank-only input is plain, not FASTA. */
    const char *blank = "  \n\t\r\n";
    const char *bseq[] = { blank };
    expect_recs("blank only", tmp_text(blank), 0, WM_FMT_PLAIN, 0, 1, names, bseq);
}

static void test_empty(void) {
    const char *names[] = { "." }, *seqs[] = { "" };
    expect_recs("empty file", tmp_text(""), 0, WM_FMT_PLAIN, 0, 1, names, seqs);
    expect_recs("empty file forced plain", tmp_text(""), 1, WM_FMT_PLAIN, 0, 1, names, seqs);
    expect_recs("empty gz", tmp_gz_text(""), 0, WM_FMT_PLAIN, 1, 1, names, seqs);
}

static void test_fasta(void) {
    const char *s = "\n  \r\n"
                    ">chr1 first record\r\n"
                    "ACGTACGTAC\r\n"
                    "acgtn\r\n"
                    "\r\n"
                    ">chr2\tdesc\r\n"
                    "NNNN\r\n"
                    "GG\r\n"
                    ">chr3\r\n"
                    "TT"; /* no final newline */
    const char *names[] = { "chr1", "chr2", "chr3" };
    const char *seqs[] = { "ACGTACGTACacgtn", "NNNNGG", "TT" };
    expect_recs("fasta crlf", tmp_text(s), 0, WM_FMT_FASTA, 0, 3, names, seqs);
    expect_recs("fasta crlf gz", tmp_gz_text(s), 0, WM_FMT_FASTA, 1, 3, names, seqs);

    const char *raw[] = { s }, *dot[] = { "." };
    expect_recs("fasta forced plain", tmp_text(s), 1, WM_FMT_PLAIN, 0, 1, dot, raw);
    expect_recs("fasta gz forced plain", tmp_gz_text(s), 1, WM_FMT_PLAIN, 1, 1, dot, raw);

    const char *e = ">a\n>b desc\nAC\n\n>c\n>d\n";
    const char *en[] = { "a", "b", "c", "d" }, *es[] = { "", "AC", "", "" };
    expect_recs("fasta empty records", tmp_text(e), 0, WM_FMT_FASTA, 0, 4, en, es);
    expect_recs("fasta empty records gz", tmp_gz_text(e), 0, WM_FMT_FASTA, 1, 4, en, es);

    const char *h = ">only header, no newline";
    const char *hn[] = { "only" }, *hs[] = { "" };
    expect_recs("fasta header at eof", tmp_text(h), 0, WM_FMT_FASTA, 0, 1, hn, hs);

    const char *w = ">x\nAC GT\tA \r\n G\rT\n";
    const char *wn[] = { "x" }, *ws[] = { "ACGTAGT" };
    expect_recs("fasta inner blanks", tmp_text(w), 0, WM_FMT_FASTA, 0, 1, wn, ws);

    /* A long line (fast path over many words) with a binary byte deep inside. */
    char big[3000];
    memcpy(big, ">b\nACGT\n", 8);
    memset(big + 8, 'A', 2000);
    memcpy(big + 2008, "\n", 2);
    expect_error("fasta long line ok?", tmp_text(big), 0, WM_OK);
    big[8 + 1500] = (char)0xC3;
    expect_error("fasta binary 0xC3", tmp_text(big), 0, WM_FORMAT, "line 3", "0xC3", "binary byte",
                 (char *)NULL);
    big[8 + 1500] = 0x7f;
    expect_error("fasta binary 0x7F", tmp_text(big), 0, WM_FORMAT, "line 3", "0x7F", (char *)NULL);

    expect_error("fasta binary 0x01", tmp_text(">a\nACGT\nAC\x01GT\n"), 0, WM_FORMAT,
                 "line 3: binary byte 0x01 in sequence", (char *)NULL);
    {
        /* NUL byte: build by hand since C strings stop at it. */
        const char nul[] = ">a\nACGT\n\n>b\nA\0G\n";
        size_t n;
        unsigned char *g = gzip_bytes(nul, sizeof nul - 1, &n);
        expect_error("fasta NUL gz", tmp_file(g, n), 0, WM_FORMAT,
                     "line 5: binary byte 0x00 in sequence", (char *)NULL);
        free(g);
        expect_error("fasta NUL", tmp_file(nul, sizeof nul - 1), 0, WM_FORMAT, "line 5", "0x00",
                     (char *)NULL);
    }
    expect_error("fasta vertical tab", tmp_text(">a\nAC\vGT\n"), 0, WM_FORMAT, "line 2", "0x0B",
                 (char *)NULL);
    expect_error("fasta no name", tmp_text(">a\nAC\n> desc\nGT\n"), 0, WM_FORMAT, "line 3",
                 "no name", (char *)NULL);
    expect_error("fasta bare >", tmp_text("\n>\nAC\n"), 0, WM_FORMAT, "line 2", (char *)NULL);
}

static void test_fastq(void) {
    const char *s = "@r1 some description\n"
                    "ACGT\n"
                    "+\n"
                    "IIII\n"
                    "@r2\n"
                    "GG\n"
                    "+r2\n"
                    "@@\n"; /* quality starting with '@' */
    const char *names[] = { "r1", "r2" }, *seqs[] = { "ACGT", "GG" };
    expect_recs("fastq 4-line", tmp_text(s), 0, WM_FMT_FASTQ, 0, 2, names, seqs);
    expect_recs("fastq 4-line gz", tmp_gz_text(s), 0, WM_FMT_FASTQ, 1, 2, names, seqs);

    const char *m = "@m1\r\n"
                    "AC\r\n"
                    "GT\r\n"
                    "+\r\n"
                    "+I\r\n" /* quality lines starting with '+' / '@' */
                    "@I\r\n"
                    "@m2\n"
                    "A\n"
                    "+\n"
                    "+\n"
                    "\n"
                    "@e\n" /* empty read */
                    "\n"
                    "+\n"
                    "\n"
                    "@last\n"
                    "TTT\n"
                    "+\n"
                    "III"; /* no final newline */
    const char *mn[] = { "m1", "m2", "e", "last" }, *ms[] = { "ACGT", "A", "", "TTT" };
    expect_recs("fastq multi-line", tmp_text(m), 0, WM_FMT_FASTQ, 0, 4, mn, ms);
    expect_recs("fastq multi-line gz", tmp_gz_text(m), 0, WM_FMT_FASTQ, 1, 4, mn, ms);

    expect_error("fastq no plus", tmp_text("@r1\nACGT\n+\nIIII\n@r2\nACGT\n"), 0, WM_FORMAT,
                 "line 5: truncated FASTQ record 'r2'", (char *)NULL);
    expect_error("fastq short qual", tmp_text("@r1\nACGT\n+\nIIII\n@r2 x\nACGT\n+\nII"), 0,
                 WM_FORMAT, "line 5: truncated FASTQ record 'r2'", (char *)NULL);
    expect_error("fastq short qual gz", tmp_gz_text("@r1\nACGT\n+\nII\n"), 0, WM_FORMAT,
                 "truncated FASTQ record 'r1'", (char *)NULL);
    expect_error("fastq long qual", tmp_text("@r1\nACGT\n+\nIIIII\n"), 0, WM_FORMAT, "line 4",
                 "quality longer than sequence", "'r1'", (char *)NULL);
    expect_error("fastq binary", tmp_text("@r1\nAC\x02T\n+\nIIII\n"), 0, WM_FORMAT,
                 "line 2: binary byte 0x02 in sequence", (char *)NULL);
    expect_error("fastq junk", tmp_text("@r1\nACGT\n+\nIIII\nxyz\n"), 0, WM_FORMAT, "line 5",
                 (char *)NULL);
    expect_error("fastq no name", tmp_text("@ x\nACGT\n+\nIIII\n"), 0, WM_FORMAT, "line 1",
                 (char *)NULL);
}

static void test_gzip(void) {
    /* Two members concatenated, as `cat a.gz b.gz` makes them; the record
    ** and even a line straddle the member border. */
    const char *a = ">a first\nAC", *b = "GT\nTT\n>b\nGG\n";
    size_t na, nb;
    unsigned char *ga = gzip_bytes(a, strlen(a), &na), *gb = gzip_bytes(b, strlen(b), &nb);
    unsigned char *cat = malloc(na + nb + 1024);
    memcpy(cat, ga, na);
    memcpy(cat + na, gb, nb);
    const char *names[] = { "a", "b" }, *seqs[] = { "ACGTTT", "GG" };
    expect_recs("gzip two members", tmp_file(cat, na + nb), 0, WM_FMT_FASTA, 1, 2, names, seqs);

    /* An empty member in the middle. */
    size_t ne;
    unsigned char *ge = gzip_bytes("", 0, &ne);
    unsigned char *cat3 = malloc(na + ne + nb);
    memcpy(cat3, ga, na);
    memcpy(cat3 + na, ge, ne);
    memcpy(cat3 + na + ne, gb, nb);
    expect_recs("gzip empty member between", tmp_file(cat3, na + ne + nb), 0, WM_FMT_FASTA, 1, 2,
                names, seqs);

    /* Zero padding after the last member is ignored (as gzip does). */
    memset(cat + na + nb, 0, 1024);
    expect_recs("gzip zero padding", tmp_file(cat, na + nb + 1024), 0, WM_FMT_FASTA, 1, 2, names,
                seqs);
    /* Other trailing bytes are an error. */
    memcpy(cat + na + nb + 100, "junk", 4);
    expect_error("gzip trailing garbage", tmp_file(cat, na + nb + 1024), 0, WM_FORMAT,
                 "corrupt gzip data", (char *)NULL);

    /* Every truncation of a member is caught, at any cut point. */
    int all_trunc = 1;
    for (size_t cut = 2; cut < na; cut++) {
        wm_seqfile_t sf;
        char err[256];
        const char *p = tmp_file(ga, cut);
        wm_status rc = wm_seqfile_read(p, 0, &sf, err, sizeof err);
        if (rc != WM_FORMAT || !strstr(err, "truncated gzip input")) {
            all_trunc = 0;
            fprintf(stderr, "cut %zu of %zu: rc %d msg '%s'\n", cut, na, rc, err);
        }
        wm_seqfile_close(&sf);
        unlink(p);
    }
    CHECK(all_trunc, "every truncated gzip gives WM_FORMAT 'truncated gzip input'");
    /* A second member cut short. */
    expect_error("gzip second member truncated", tmp_file(cat, na + nb - 3), 0, WM_FORMAT,
                 "truncated gzip input", (char *)NULL);

    /* Corruption: a flipped byte in the deflate data or in the CRC. */
    {
        const char *txt = ">c\nACGTACGTACGTTTGACCA\n";
        size_t n;
        unsigned char *g = gzip_bytes(txt, strlen(txt), &n);
        g[n - 6] ^= 0xff; /* CRC32 */
        expect_error("gzip bad crc", tmp_file(g, n), 0, WM_FORMAT, "corrupt gzip data",
                     (char *)NULL);
        g[n - 6] ^= 0xff;
        g[3] = 0xe0; /* reserved flag bits */
        expect_error("gzip bad header", tmp_file(g, n), 0, WM_FORMAT, "corrupt gzip data",
                     (char *)NULL);
        free(g);
        unsigned char bad[] = { 0x1f, 0x8b, 8,    0,    0, 0, 0, 0, 0, 3, 0xff, 0xff,
                                0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0,    0 };
        expect_error("gzip invalid block", tmp_file(bad, sizeof bad), 0, WM_FORMAT,
                     "corrupt gzip data", (char *)NULL);
    }
    free(ga);
    free(gb);
    free(ge);
    free(cat);
    free(cat3);
}

static void test_errors(void) {
    const char *dir = tmp_path("a_folder");
    if (mkdir(dir, 0700) == 0) {
        expect_error("directory", dir, 0, WM_IO, "Is a directory", (char *)NULL);
        rmdir(dir);
    } else {
        CHECK(0, "mkdir %s failed", dir);
    }
    const char *missing = tmp_path("no/such/file");
    expect_error("missing file", missing, 0, WM_IO, strerror(ENOENT), (char *)NULL);
    if (geteuid() != 0) {
        const char *p = tmp_text("secret");
        chmod(p, 0);
        expect_error("unreadable", p, 0, WM_IO, strerror(EACCES), (char *)NULL);
    }
    CHECK(wm_seqfile_read("x", 0, NULL, NULL, 0) == WM_INVALID, "NULL sf -> WM_INVALID");
    {
        wm_seqfile_t sf;
        CHECK(wm_seqfile_read(NULL, 0, &sf, NULL, 0) == WM_INVALID, "NULL path -> WM_INVALID");
        /* err may be NULL / errlen 0 */
        CHECK(wm_seqfile_read(missing, 0, &sf, NULL, 0) == WM_IO, "no err buffer");
        char tiny[4];
        CHECK(wm_seqfile_read(missing, 0, &sf, tiny, sizeof tiny) == WM_IO && tiny[3] == '\0',
              "tiny err buffer stays terminated");
    }
    wm_seqfile_t z;
    memset(&z, 0, sizeof z);
    wm_seqfile_close(&z);
    wm_seqfile_close(NULL);
    CHECK(strcmp(wm_format_name(WM_FMT_PLAIN), "plain") == 0 &&
              strcmp(wm_format_name(WM_FMT_FASTA), "fasta") == 0 &&
              strcmp(wm_format_name(WM_FMT_FASTQ), "fastq") == 0,
          "wm_format_name");
}

/* ---- standard input: a child writes into a pipe that becomes fd 0 ---------- */

typedef struct {
    int saved;
    pid_t pid;
} stdin_swap_t;

static stdin_swap_t with_stdin(const void *data, size_t n) {
    int pfd[2];
    if (pipe(pfd) != 0) {
        perror("pipe");
        exit(2);
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        close(pfd[0]);
        write_full(pfd[1], data, n);
        _exit(0);
    }
    close(pfd[1]);
    stdin_swap_t t = { dup(0), pid };
    dup2(pfd[0], 0);
    close(pfd[0]);
    return t;
}

static void end_stdin(stdin_swap_t t) {
    int st;
    dup2(t.saved, 0);
    close(t.saved);
    waitpid(t.pid, &st, 0);
}

static void test_stdin(void) {
    /* Bigger than a pipe buffer so the reader must loop and grow. */
    size_t n_lines = 40000;
    size_t cap = n_lines * 64 + 64;
    char *fa = malloc(cap), *want = malloc(cap);
    size_t n = 0, w = 0;
    n += (size_t)sprintf(fa + n, ">stdin_rec piped\n");
    for (size_t i = 0; i < n_lines; i++) {
        for (int j = 0; j < 60; j++) {
            char c = "ACGT"[(i * 7 + (size_t)j * 13) % 4];
            fa[n++] = c;
            want[w++] = c;
        }
        fa[n++] = '\n';
    }
    want[w] = '\0';
    const char *names[] = { "stdin_rec" }, *seqs[] = { want };

    stdin_swap_t t = with_stdin(fa, n);
    expect_recs("stdin fasta", "-", 0, WM_FMT_FASTA, 0, 1, names, seqs);
    end_stdin(t);

    size_t gn;
    unsigned char *g = gzip_bytes(fa, n, &gn);
    t = with_stdin(g, gn);
    expect_recs("stdin fasta gz", "-", 0, WM_FMT_FASTA, 1, 1, names, seqs);
    end_stdin(t);

    fa[n] = '\0';
    const char *dot[] = { "." }, *raw[] = { fa };
    t = with_stdin(g, gn);
    expect_recs("stdin gz forced plain", "-", 1, WM_FMT_PLAIN, 1, 1, dot, raw);
    end_stdin(t);

    t = with_stdin(g, gn / 2);
    expect_error("stdin truncated gz", "-", 0, WM_FORMAT, "truncated gzip input", (char *)NULL);
    end_stdin(t);

    t = with_stdin("@q\nACGT\n+\nII", 13);
    expect_error("stdin truncated fastq", "-", 0, WM_FORMAT, "line 1: truncated FASTQ record 'q'",
                 (char *)NULL);
    end_stdin(t);

    t = with_stdin("", 0);
    const char *empty[] = { "" };
    expect_recs("stdin empty", "-", 0, WM_FMT_PLAIN, 0, 1, dot, empty);
    end_stdin(t);

    /* stdin redirected from a regular file. */
    {
        const char *p = tmp_text(">f\nAC\nGT\n");
        int fd = open(p, O_RDONLY);
        int saved = dup(0);
        dup2(fd, 0);
        close(fd);
        const char *fn[] = { "f" }, *fs[] = { "ACGT" };
        expect_recs("stdin from file", "-", 0, WM_FMT_FASTA, 0, 1, fn, fs);
        dup2(saved, 0);
        close(saved);
    }
    /* A named pipe (as `<(zcat f.gz)` gives) is read like stdin. */
    const char *fifo = tmp_path("a_fifo");
    if (mkfifo(fifo, 0600) == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            int w = open(fifo, O_WRONLY);
            write_full(w, g, gn);
            _exit(0);
        }
        expect_recs("named pipe gz", fifo, 0, WM_FMT_FASTA, 1, 1, names, seqs);
        int st;
        waitpid(pid, &st, 0);
        unlink(fifo);
    }
    free(g);
    free(fa);
    free(want);
}

/* ---- random FASTA round trip ---------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t xorshift_below(uint32_t n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static void test_random_fasta(void) {
    for (int round = 0; round < 30; round++) {
        size_t n_rec = 1 + xorshift_below(20);
        size_t cap = 1 << 20, n = 0;
        char *f = malloc(cap);
        char **seqs = calloc(n_rec, sizeof *seqs), **names = calloc(n_rec, sizeof *names);
        int crlf = (int)xorshift_below(2);
        for (size_t r = 0; r < n_rec; r++) {
            size_t len = xorshift_below(4) == 0 ? 0 : xorshift_below(5000);
            size_t width = 1 + xorshift_below(120);
            names[r] = malloc(48);
            snprintf(names[r], 48, "rec%zu_%d", r, round);
            seqs[r] = malloc(len + 1);
            for (size_t i = 0; i < len; i++) seqs[r][i] = "ACGTNacgtn*-"[xorshift_below(12)];
            seqs[r][len] = '\0';
            n += (size_t)sprintf(f + n, ">%s %s\n", names[r], xorshift_below(2) ? "desc here" : "");
            if (crlf) f[n - 1] = '\r', f[n++] = '\n';
            for (size_t i = 0; i < len; i += width) {
                size_t k = len - i < width ? len - i : width;
                memcpy(f + n, seqs[r] + i, k);
                n += k;
                if (crlf) f[n++] = '\r';
                f[n++] = '\n';
                if (xorshift_below(50) == 0) f[n++] = '\n';
            }
        }
        char what[64];
        snprintf(what, sizeof what, "random fasta round %d", round);
        expect_recs(what, tmp_file(f, n), 0, WM_FMT_FASTA, 0, n_rec, (const char *const *)names,
                    (const char *const *)seqs);
        size_t gn;
        unsigned char *g = gzip_bytes(f, n, &gn);
        expect_recs(what, tmp_file(g, gn), 0, WM_FMT_FASTA, 1, n_rec, (const char *const *)names,
                    (const char *const *)seqs);
        free(g);
        for (size_t r = 0; r < n_rec; r++) {
            free(seqs[r]);
            free(names[r]);
        }
        free(seqs);
        free(names);
        free(f);
    }
}

/* ---- the real data files ---------------------------------------------------- */

/* Read a data file, check its record count and total length; returns the
** seconds the best of `reps` reads took (0 when it failed or was skipped). */
static double check_path(const char *path, const char *rel, wm_format_t fmt, size_t n_rec,
                         uint64_t total, int reps, uint64_t *bytes_out) {
    struct stat st;
    if (stat(path, &st) != 0) {
        printf("SKIP %s (not found)\n", path);
        return 0;
    }
    double best = 1e30;
    for (int i = 0; i < reps; i++) {
        wm_seqfile_t sf;
        char err[512];
        double t0 = now_s();
        wm_status rc = wm_seqfile_read(path, 0, &sf, err, sizeof err);
        double dt = now_s() - t0;
        if (dt < best) best = dt;
        if (i == 0) {
            CHECK(rc == WM_OK, "%s: %s", rel, err);
            if (rc != WM_OK) return 0;
            CHECK(sf.format == fmt, "%s: format %s", rel, wm_format_name(sf.format));
            CHECK(sf.text.n_rec == n_rec, "%s: %zu records, want %zu", rel, sf.text.n_rec, n_rec);
            CHECK(sf.text.len == total, "%s: %llu residues, want %llu", rel,
                  (unsigned long long)sf.text.len, (unsigned long long)total);
            int ok = 1;
            for (size_t r = 0; r < sf.text.n_rec; r++)
                if (sf.text.rec_start[r] > sf.text.rec_start[r + 1] || !sf.names[r][0]) ok = 0;
            CHECK(ok && sf.text.rec_start[sf.text.n_rec] == sf.text.len, "%s: record offsets", rel);
            if (bytes_out) *bytes_out = sf.text.len;
        }
        wm_seqfile_close(&sf);
    }
    return best;
}

static double check_data(const char *dir, const char *rel, wm_format_t fmt, size_t n_rec,
                         uint64_t total, int reps, uint64_t *bytes_out) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return check_path(path, rel, fmt, n_rec, total, reps, bytes_out);
}

static void report_speed(const char *what, uint64_t bytes, double s) {
    if (s > 0)
        printf("info: %-44s %8.1f MB/s (%llu bytes in %.3f s)\n", what, (double)bytes / s / 1e6,
               (unsigned long long)bytes, s);
}

/* Write the inflated bytes of a .gz data file to a temp file, so the FASTA
** parser's own speed (mmap'd input, no zlib) can be measured. */
static const char *inflated_copy(const char *dir, const char *rel, uint64_t *n) {
    char path[2048];
    wm_seqfile_t sf;
    char err[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (wm_seqfile_read(path, 1, &sf, err, sizeof err) != WM_OK) return NULL;
    const char *p = tmp_file(sf.text.seq, sf.text.len);
    *n = sf.text.len;
    wm_seqfile_close(&sf);
    return p;
}

static void test_data(void) {
    const char *dir = shared_data_dir();
    if (!dir) {
        skip_note("shared data (set WM_SHARED_DATA)");
        return;
    }
    uint64_t b = 0, raw = 0;
    double s;
    check_data(dir, "dna/lambda_phage.fa", WM_FMT_FASTA, 1, 48502, 1, NULL);
    s = check_data(dir, "dna/ecoli_k12_mg1655.fa.gz", WM_FMT_FASTA, 1, 4639675, 3, &b);
    report_speed("ecoli_k12_mg1655.fa.gz (output bytes)", b, s);
    check_data(dir, "dna/plasmodium_falciparum_genome.fa.gz", WM_FMT_FASTA, 14, 23264425, 1, NULL);
    s = check_data(dir, "reads/ecoli_k12_pacbio_subsetA.fastq.gz", WM_FMT_FASTQ, 1689, 13805380, 3,
                   &b);
    report_speed("pacbio subsetA .fastq.gz (output bytes)", b, s);
    s = check_data(dir, "dna/human_GRCh37_chrX_first70Mb.fa.gz", WM_FMT_FASTA, 1, 69999930, 3, &b);
    report_speed("chrX_first70Mb.fa.gz (output bytes)", b, s);

    /* The parser alone, on uncompressed copies (speed is of input bytes). */
    const char *p = inflated_copy(dir, "dna/ecoli_k12_mg1655.fa.gz", &raw);
    if (p) {
        s = check_path(p, "uncompressed copy", WM_FMT_FASTA, 1, 4639675, 5, &b);
        report_speed("ecoli FASTA uncompressed (input bytes)", raw, s);
        unlink(p);
    }
    p = inflated_copy(dir, "dna/human_GRCh37_chrX_first70Mb.fa.gz", &raw);
    if (p) {
        s = check_path(p, "uncompressed copy", WM_FMT_FASTA, 1, 69999930, 3, &b);
        report_speed("chrX FASTA uncompressed (input bytes)", raw, s);
        unlink(p);
    }
    p = inflated_copy(dir, "reads/ecoli_k12_pacbio_subsetA.fastq.gz", &raw);
    if (p) {
        s = check_path(p, "uncompressed copy", WM_FMT_FASTQ, 1689, 13805380, 3, &b);
        report_speed("pacbio FASTQ uncompressed (input bytes)", raw, s);
        unlink(p);
    }
}

/* A range's parse (part) holds records [a, b) of the whole file's, names and
** sequences, in a file of format fmt. */
static int same_records(const wm_seqfile_t *part, const wm_seqfile_t *whole, size_t a, size_t b,
                        wm_format_t fmt) {
    if (part->format != fmt || part->text.n_rec != b - a) return 0;
    for (size_t r = 0; r < b - a; r++) {
        const uint64_t *ws = whole->text.rec_start + a, *ps = part->text.rec_start + r;
        if (strcmp(part->names[r], whole->names[a + r]) != 0 ||
            ps[1] - ps[0] != ws[r + 1] - ws[r] ||
            memcmp(part->text.seq + ps[0], whole->text.seq + ws[r], ps[1] - ps[0]) != 0)
            return 0;
    }
    return 1;
}

/* A range of a FASTQ file that starts at a record (or 0): its records as
** the whole file gives them. Quality lines start with '@' and '+' at times,
** CRLF, blank lines between records, empty records. A range of a FASTQ file
** that starts at a FASTA-looking byte, or a FASTA range of a FASTQ file, is
** refused. */
static void test_range_fastq(void) {
    for (int round = 0; round < 40; round++) {
        size_t n_rec = 1 + xorshift_below(30), cap = 1 << 20, n = 0;
        char *f = malloc(cap);
        uint64_t *head = malloc((n_rec + 1) * sizeof *head);
        const char *eol = xorshift_below(2) ? "\r\n" : "\n";
        if (xorshift_below(3) == 0) n += (size_t)sprintf(f, "%s", eol);
        for (size_t r = 0; r < n_rec; r++) {
            head[r] = n;
            size_t len = xorshift_below(5) == 0 ? 0 : xorshift_below(300);
            n += (size_t)sprintf(f + n, "@q%zu_%d x%s", r, round, eol);
            for (size_t i = 0; i < len; i++) f[n++] = "ACGTN"[xorshift_below(5)];
            n += (size_t)sprintf(f + n, "%s+%s", eol, eol);
            for (size_t i = 0; i < len; i++) /* '@' and '+' are quality values too */
                f[n++] = i == 0 && xorshift_below(2) ? "@+"[xorshift_below(2)]
                                                     : (char)('!' + xorshift_below(40));
            n += (size_t)sprintf(f + n, "%s", eol);
            if (xorshift_below(10) == 0) n += (size_t)sprintf(f + n, "%s", eol);
        }
        head[n_rec] = n;
        const char *path = tmp_file(f, n);
        wm_seqfile_t whole, part;
        char err[512];
        CHECK(wm_seqfile_read(path, 0, &whole, err, sizeof err) == WM_OK &&
                  whole.format == WM_FMT_FASTQ && whole.text.n_rec == n_rec,
              "FASTQ range round %d: the whole file (%s)", round, err);
        for (int t = 0; t < 8 && whole.text.n_rec == n_rec; t++) {
            size_t a = xorshift_below(n_rec), b = a + 1 + xorshift_below(n_rec - a);
            wm_seqfile_opts_t o = wm_seqfile_opts_default();
            o.range_lo = a == 0 && t % 2 ? 0 : head[a];
            o.range_hi = head[b];
            wm_status st = wm_seqfile_read_opts(path, 0, &o, &part, err, sizeof err);
            int same = st == WM_OK && same_records(&part, &whole, a, b, WM_FMT_FASTQ);
            CHECK(same, "FASTQ range round %d: records [%zu, %zu) of %zu (%d: %s)", round, a, b,
                  n_rec, st, err);
            wm_seqfile_close(&part);
        }
        wm_seqfile_close(&whole);
        free(head);
        free(f);
    }
    wm_seqfile_opts_t o = wm_seqfile_opts_default();
    wm_seqfile_t sf;
    char err[256];
    static const char fq_text[] = "@a\nAC\n+\n>>\n@b\nGT\n+\nII\n";
    const char *fq = tmp_file(fq_text, sizeof fq_text - 1);
    o.range_lo = (uint64_t)(strstr(fq_text, "@b") - fq_text); /* FASTQ, from a record */
    o.range_hi = sizeof fq_text - 1;
    CHECK(wm_seqfile_read_opts(fq, 0, &o, &sf, err, sizeof err) == WM_OK && sf.text.n_rec == 1,
          "FASTQ range: the second record (%s)", err);
    wm_seqfile_close(&sf);
    o.range_lo = (uint64_t)(strstr(fq_text, ">>") - fq_text); /* FASTA-looking, in FASTQ */
    CHECK(wm_seqfile_read_opts(fq, 0, &o, &sf, err, sizeof err) == WM_INVALID,
          "FASTQ range: a FASTA-looking start was read");
    static const char fa_text[] = ">a\nAC\n@b\n";
    const char *fa = tmp_file(fa_text, sizeof fa_text - 1);
    o.range_lo = (uint64_t)(strstr(fa_text, "@b") - fa_text); /* FASTQ-looking, in FASTA */
    o.range_hi = sizeof fa_text - 1;
    CHECK(wm_seqfile_read_opts(fa, 0, &o, &sf, err, sizeof err) == WM_INVALID,
          "a FASTQ-looking range of a FASTA file was read");
}

/* A range of a FASTA file (wm_seqfile_opts_t.range_lo/hi, as MPI ranks share
** a --pairs file): the records whose headers lie in it, exactly as the whole
** file gives them, on one thread and on three with tiny blocks; anything
** but a range that starts at a header (or 0) of a mapped, uncompressed FASTA
** file is refused. */
static void test_range(void) {
    for (int round = 0; round < 40; round++) {
        size_t n_rec = 1 + xorshift_below(30), cap = 1 << 20, n = 0, nh = 0;
        char *f = malloc(cap);
        uint64_t *head = malloc((n_rec + 1) * sizeof *head);
        int crlf = (int)xorshift_below(2);
        if (xorshift_below(3) == 0) n += (size_t)sprintf(f, crlf ? "\r\n\r\n" : "\n \n");
        for (size_t r = 0; r < n_rec; r++) {
            head[nh++] = n;
            n += (size_t)sprintf(f + n, ">r%zu_%d d\n", r, round);
            if (crlf) f[n - 1] = '\r', f[n++] = '\n';
            size_t len = xorshift_below(4) == 0 ? 0 : xorshift_below(900),
                   width = 1 + xorshift_below(100);
            for (size_t i = 0; i < len; i += width) {
                for (size_t k = 0; k < width && i + k < len; k++)
                    f[n++] = "ACGTNacgt"[xorshift_below(9)];
                if (crlf) f[n++] = '\r';
                f[n++] = '\n';
                if (xorshift_below(20) == 0) f[n++] = '\n';
            }
        }
        head[nh] = n;
        const char *path = tmp_file(f, n);
        wm_seqfile_t whole, part;
        char err[512];
        CHECK(wm_seqfile_read(path, 0, &whole, err, sizeof err) == WM_OK &&
                  whole.text.n_rec == n_rec,
              "range round %d: the whole file (%s)", round, err);
        for (int t = 0; t < 8 && whole.text.n_rec == n_rec; t++) {
            size_t a = xorshift_below(n_rec), b = a + 1 + xorshift_below(n_rec - a);
            wm_seqfile_opts_t o = wm_seqfile_opts_default();
            o.range_lo = a == 0 && t % 2 ? 0 : head[a]; /* rank 0 parses from byte 0 */
            o.range_hi = head[b];
            if (t >= 4) { /* the parallel parser's block edges everywhere */
                o.threads = 3;
                o.min_parallel = 0;
                o.block = 64;
            }
            wm_status st = wm_seqfile_read_opts(path, 0, &o, &part, err, sizeof err);
            int same = st == WM_OK && same_records(&part, &whole, a, b, WM_FMT_FASTA);
            CHECK(same, "range round %d: records [%zu, %zu) of %zu, %d threads (%d: %s)", round, a,
                  b, n_rec, o.threads, st, err);
            wm_seqfile_close(&part);
        }
        /* refused: past the end, empty, a start inside a sequence line */
        wm_seqfile_opts_t o = wm_seqfile_opts_default();
        o.range_lo = 0;
        o.range_hi = n + 1;
        CHECK(wm_seqfile_read_opts(path, 0, &o, &part, err, sizeof err) == WM_INVALID,
              "range round %d: past the end", round);
        o.range_lo = o.range_hi = head[0] + 1;
        CHECK(wm_seqfile_read_opts(path, 0, &o, &part, err, sizeof err) == WM_INVALID,
              "range round %d: empty", round);
        if (head[1] > head[0] + 8 && f[head[1] - 2] != '\n' && f[head[1] - 2] != '\r') {
            o.range_lo = head[1] - 2;
            o.range_hi = n;
            CHECK(wm_seqfile_read_opts(path, 0, &o, &part, err, sizeof err) == WM_INVALID,
                  "range round %d: a start in a sequence line", round);
        }
        wm_seqfile_close(&whole);
        free(head);
        free(f);
    }
    test_range_fastq();
    wm_seqfile_opts_t o = wm_seqfile_opts_default();
    wm_seqfile_t sf;
    char err[256];
    o.range_hi = 4;
    CHECK(wm_seqfile_read_opts(tmp_gz_text(">a\nACGT\n"), 0, &o, &sf, err, sizeof err) ==
              WM_INVALID,
          "range of a gzip file refused");
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    test_plain();
    test_empty();
    test_fasta();
    test_fastq();
    test_gzip();
    test_errors();
    test_stdin();
    test_random_fasta();
    test_range();
    test_data();
    return test_finish();
}
