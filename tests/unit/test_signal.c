/*
** test_signal.c -- unit tests of the signal readers (src/io/signal*.c).
**
** Writes small files into a fresh temporary folder (plain, gzip'd with zlib's
** gz* calls, cut short, hand-made .npy files of each header version) and
** reads them back with wm_sig_read: values are compared bit for bit, names
** exactly, and each error is checked for its position and wording. Then the
** shared ECG record $WM_SHARED_DATA/timeseries/ecg/mitdb100.csv.gz is read
** (skipped, with a note, when absent).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/signal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---- files in the run's temporary folder, all removed at exit ------------------ */

static void die(const char *what) {
    perror(what);
    exit(2);
}

static const char *put_str(const char *name, const char *s) {
    return tmp_named(name, s, strlen(s));
}

/* ---- reading and checking -------------------------------------------------- */

static wm_sigread_opts_t opts(wm_sigfmt_t fmt, const char *column, int several) {
    wm_sigread_opts_t o = { .format = fmt, .column = column, .several = several };
    return o;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Read path, expect success and `n_sigs` signals. */
static int read_ok(const char *what, const char *path, wm_sigread_opts_t o, wm_sigs_t *s,
                   size_t n_sigs) {
    char err[512];
    int rc = wm_sig_read(path, &o, s, err, sizeof err);
    CHECK(rc == 0, "%s: failed: %s", what, err);
    if (rc != 0) return 0;
    CHECK(s->n == n_sigs, "%s: %zu signals, want %zu", what, s->n, n_sigs);
    if (s->n != n_sigs) {
        wm_sigs_free(s);
        return 0;
    }
    return 1;
}

/* Signal i of s must be named `name` (NULL: unnamed) and hold v[0 .. n). */
static void expect_sig(const char *what, const wm_sigs_t *s, size_t i, const char *name,
                       const double *v, uint64_t n) {
    const wm_sig_t *g = &s->a[i];
    if (name)
        CHECK(g->name && strcmp(g->name, name) == 0, "%s: signal %zu named '%s', want '%s'", what,
              i, g->name ? g->name : "(null)", name);
    else CHECK(g->name == NULL, "%s: signal %zu named '%s', want none", what, i, g->name);
    CHECK(g->n == n, "%s: signal %zu has %llu samples, want %llu", what, i,
          (unsigned long long)g->n, (unsigned long long)n);
    if (g->n != n) return;
    for (uint64_t k = 0; k < n; k++)
        if (!same_bits(g->v[k], v[k])) {
            CHECK(0, "%s: signal %zu sample %llu is %.17g, want %.17g", what, i,
                  (unsigned long long)k, g->v[k], v[k]);
            return;
        }
    CHECK(1, "%s", what);
}

/* One signal expected. */
static void expect_one(const char *what, const char *path, wm_sigread_opts_t o, const char *name,
                       const double *v, uint64_t n) {
    wm_sigs_t s;
    if (!read_ok(what, path, o, &s, 1)) return;
    expect_sig(what, &s, 0, name, v, n);
    wm_sigs_free(&s);
    CHECK(s.a == NULL && s.n == 0, "%s: wm_sigs_free did not zero", what);
    wm_sigs_free(&s); /* twice is harmless */
}

/* Read path, expect failure with a message that starts with the file's name
** and holds each NULL-terminated fragment, and nothing left in *out. */
static void expect_err(const char *what, const char *path, wm_sigread_opts_t o, ...) {
    wm_sigs_t s;
    char err[512];
    memset(err, 'x', sizeof err);
    memset(&s, 0x5a, sizeof s);
    int rc = wm_sig_read(path, &o, &s, err, sizeof err);
    CHECK(rc == -1, "%s: rc %d, want -1", what, rc);
    if (rc != -1) {
        wm_sigs_free(&s);
        return;
    }
    CHECK(s.a == NULL && s.n == 0, "%s: result not zeroed on error", what);
    CHECK(strchr(err, '\n') == NULL && strncmp(err, "warpmatch", 9) != 0,
          "%s: message '%s' has a newline or a prefix", what, err);
    va_list ap;
    va_start(ap, o);
    check_message(what, err, sizeof err, path, 0, ap);
    va_end(ap);
}

/* The whole message must be exactly path + rest. */
static void expect_msg(const char *what, const char *path, wm_sigread_opts_t o, const char *rest) {
    wm_sigs_t s;
    char err[512], want[512];
    int rc = wm_sig_read(path, &o, &s, err, sizeof err);
    CHECK(rc == -1, "%s: rc %d, want -1", what, rc);
    if (rc != -1) {
        wm_sigs_free(&s);
        return;
    }
    snprintf(want, sizeof want, "%s%s", path, rest);
    CHECK(strcmp(err, want) == 0, "%s: message\n  '%s', want\n  '%s'", what, err, want);
}

#define TXT(several) opts(WM_SIGFMT_TEXT, NULL, several)
#define AUTO(col, several) opts(WM_SIGFMT_AUTO, col, several)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- TEXT ------------------------------------------------------------------- */

static void test_text(void) {
    const char *p;
    wm_sigs_t s;

    /* Every separator, signs, exponents, comments, CRLF, no final newline. */
    const double all[] = { 1, -2.5, 1e-3, .5, 3, 4, 5, 0x1p-3, -0.0, 6 };
    p = put_str("mixed.txt", "# a comment\n1 -2.5,1e-3;.5\n+3\t 4\r\n  # indented comment\n"
                             "5 ;, 0x1p-3\n\n-0\n6");
    expect_one("text: one signal", p, TXT(0), NULL, all, N(all));
    expect_one("text: AUTO is text", p, AUTO(NULL, 0), NULL, all, N(all));
    /* several = 1, lines with several numbers: each line a signal. */
    if (read_ok("text: lines", p, TXT(1), &s, 5)) {
        expect_sig("text: line 2", &s, 0, NULL, all, 4);
        expect_sig("text: line 3", &s, 1, NULL, all + 4, 2);
        expect_sig("text: line 5", &s, 2, NULL, all + 6, 2);
        expect_sig("text: line 7", &s, 3, NULL, all + 8, 1);
        expect_sig("text: line 8", &s, 4, NULL, all + 9, 1);
        wm_sigs_free(&s);
    }
    /* several = 1, one number per line: a column, one signal. */
    const double col[] = { 1, 2, 3.25, -4 };
    p = put_str("column.txt", "1\n 2 \n\n# skip\n3.25,\n-4\n");
    expect_one("text: column, several", p, TXT(1), NULL, col, N(col));
    expect_one("text: column", p, TXT(0), NULL, col, N(col));
    /* The first multi-number line comes late: the earlier lines become signals. */
    p = put_str("late.txt", "1\n2\n3.25 -4\n");
    if (read_ok("text: late lines", p, TXT(1), &s, 3)) {
        expect_sig("text: late 0", &s, 0, NULL, col, 1);
        expect_sig("text: late 1", &s, 1, NULL, col + 1, 1);
        expect_sig("text: late 2", &s, 2, NULL, col + 2, 2);
        wm_sigs_free(&s);
    }

    /* '>' records. */
    const double rv[] = { 1, 2, 3, 4, 5, 6 };
    p = put_str("named.txt", "# queries\n\n>q1 first one \n1 2\n3\n>  q2\t\n4\n>\n5\n6\n");
    if (read_ok("text: records", p, TXT(1), &s, 3)) {
        expect_sig("text: record q1", &s, 0, "q1 first one", rv, 3);
        expect_sig("text: record q2", &s, 1, "q2", rv + 3, 1);
        expect_sig("text: record unnamed", &s, 2, NULL, rv + 4, 2);
        wm_sigs_free(&s);
    }
    expect_msg("text: two records, one wanted", p, TXT(0),
               ":6: a second '>' signal, but one signal is read here");
    p = put_str("named1.txt", ">only\n1 2 3\n");
    expect_one("text: one record, one wanted", p, TXT(0), "only", rv, 3);
    p = put_str("before.txt", "# c\n1\n>a\n2\n");
    expect_msg("text: numbers before '>'", p, TXT(1),
               ":2: numbers before the first '>' line (line 3)");
    p = put_str("emptyrec.txt", ">a\n1\n>b\n# nothing\n>c\n2\n");
    expect_msg("text: empty record", p, TXT(1), ":3: no samples in signal 'b'");
    p = put_str("emptylast.txt", ">a\n1\n>b\n");
    expect_msg("text: empty last record", p, TXT(1), ":3: no samples in signal 'b'");

    /* Malformed numbers, with their line. */
    p = put_str("bad.txt", "1 2\n\n3 abc 4\n");
    expect_msg("text: bad number", p, TXT(0), ":3: 'abc' is not a number");
    expect_msg("text: bad number, several", p, TXT(1), ":3: 'abc' is not a number");
    p = put_str("bad2.txt", "1 2 # trailing comment\n");
    expect_msg("text: '#' after numbers", p, TXT(0), ":1: '#' is not a number");
    p = put_str("bad3.txt", "1e\n");
    expect_msg("text: bare exponent", p, TXT(0), ":1: '1e' is not a number");
    p = put_str("bad4.txt", "1.5.2\n");
    expect_msg("text: two points", p, TXT(0), ":1: '1.5.2' is not a number");
    p = put_str("bad5.txt", "-\n");
    expect_msg("text: lone sign", p, TXT(0), ":1: '-' is not a number");
    p = put_str("range.txt", "1\n2 1e999\n");
    expect_msg("text: overflow", p, TXT(0), ":2: '1e999' is out of range");
    p = put_str("range2.txt", "-1e400");
    expect_msg("text: negative overflow", p, TXT(0), ":1: '-1e400' is out of range");
    /* Underflow is not an error: the value strtod gives. */
    const double tiny[] = { strtod("1e-400", NULL), strtod("4.9e-324", NULL) };
    p = put_str("tiny.txt", "1e-400 4.9e-324");
    expect_one("text: underflow", p, TXT(0), NULL, tiny, 2);

    /* Binary bytes: an error, not a crash. */
    static const char nul[] = "1 2\0003 4\n";
    p = tmp_named("nul.txt", nul, sizeof nul - 1);
    expect_msg("text: NUL byte", p, TXT(0), ":1: '2\\x003' is not a number");
    unsigned char junk[4096];
    uint32_t r = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        r = r * 1103515245u + 12345u;
        junk[i] = (unsigned char)(r >> 16);
        if (junk[i] == '#' || junk[i] == '>')
            junk[i] = 'x'; /* a comment or a record name, not junk */
    }
    p = tmp_named("junk.bin", junk, sizeof junk);
    expect_err("text: binary junk", p, TXT(0), "is not a number", NULL);
    expect_err("text: binary junk, several", p, TXT(1), "is not a number", NULL);
    memset(junk, 'x', sizeof junk);
    p = tmp_named("longtoken.txt", junk, sizeof junk);
    expect_err("text: 4 KiB token", p, TXT(0), ":1: 'xxxxxxxx", "...' is not a number", NULL);

    /* Empty inputs. */
    p = put_str("empty.txt", "");
    expect_msg("text: empty file", p, TXT(0), ": no samples");
    expect_msg("text: empty file, several", p, TXT(1), ": no samples");
    p = put_str("comments.txt", "# only\n\n   \n# comments\n");
    expect_msg("text: only comments", p, TXT(0), ": no samples");
    expect_msg("text: only comments, several", p, TXT(1), ": no samples");
}

/* NaN and Inf, where they are. */
static void test_text_nonfinite(void) {
    const char *p;
    p = put_str("nan1.txt", "1 2\n3 nan\n");
    expect_msg("text NaN: one signal", p, TXT(0), ":2: sample 3 is NaN");
    expect_msg("text NaN: lines", p, TXT(1), ":2: sample 1 is NaN");
    p = put_str("nan2.txt", "1\n2\nNAN\n4\n");
    expect_msg("text NaN: column", p, TXT(1), ":3: sample 2 is NaN");
    p = put_str("nan3.txt", "1\ninf\n2 3\n");
    expect_msg("text Inf: decided later to be lines", p, TXT(1), ":2: sample 0 is Inf");
    p = put_str("nan4.txt", "1\n-infinity 5\n");
    expect_msg("text -Inf: first of a line of two", p, TXT(1), ":2: sample 0 is -Inf");
    p = put_str("nan5.txt", ">a\n1 2\n>b\n3 inf\n");
    expect_msg("text Inf: record", p, TXT(1), ":4: sample 1 is Inf");
    p = put_str("nan6.txt", "1\nnan\nabc\n");
    expect_msg("text NaN before a bad number", p, TXT(1), ":2: sample 1 is NaN");
}

/* Numbers far apart in a long line and a long comment cross the 1 MiB blocks. */
static void test_text_blocks(void) {
    enum { COUNT = 300000 };
    size_t cap = (size_t)COUNT * 32 + (3u << 20), len = 0;
    char *buf = malloc(cap);
    double *want = malloc(COUNT * sizeof(double));
    if (!buf || !want) die("malloc");
    /* A comment of 1.5 MiB first: it spans a block boundary. */
    buf[len++] = '#';
    memset(buf + len, 'c', 3u << 19);
    len += 3u << 19;
    buf[len++] = '\n';
    uint64_t r = 88172645463325252ull;
    for (int i = 0; i < COUNT; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        double x = ((double)(r >> 11) / 9007199254740992.0 - 0.5) * pow(10.0, (int)(r % 21) - 10);
        char tok[40];
        /* Mixed spellings: the fast path and strtod's path both get used. */
        switch (i % 4) {
        case 0: snprintf(tok, sizeof tok, "%.17g", x); break;
        case 1: snprintf(tok, sizeof tok, "%.6f", x); break;
        case 2: snprintf(tok, sizeof tok, "%.3e", x); break;
        default: snprintf(tok, sizeof tok, "%.25g", x); break;
        }
        want[i] = strtod(tok, NULL);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", tok, i % 1000 == 999 ? "\n" : " ");
    }
    const char *p = tmp_named("long.txt", buf, len);
    expect_one("text: 300k numbers across blocks", p, TXT(0), NULL, want, COUNT);
    const char *g = tmp_gz_named("long.txt.gz", buf, len);
    expect_one("text: same, gzip'd", g, TXT(0), NULL, want, COUNT);

    /* One line, no newline at all. */
    len = 0;
    for (int i = 0; i < COUNT; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%.17g,", want[i]);
    p = tmp_named("oneline.txt", buf, len);
    expect_one("text: 300k numbers on one line", p, TXT(1), NULL, want, COUNT);

    /* Edge spellings against strtod, bit for bit. */
    static const char *const toks[] = { "0",
                                        "-0",
                                        "+0",
                                        "00012",
                                        "1.",
                                        ".5",
                                        "-.5",
                                        "+.5",
                                        "0.1",
                                        "0.30000000000000004",
                                        "9007199254740993",
                                        "9007199254740992",
                                        "123456789012345678",
                                        "1234567890123456789",
                                        "12345678901234567890",
                                        "0.000000000000000000000000001",
                                        "1e22",
                                        "1e23",
                                        "1e-22",
                                        "1e-23",
                                        "8.98846567431158e307",
                                        "1.7976931348623157e308",
                                        "2.2250738585072014e-308",
                                        "4.9406564584124654e-324",
                                        "123e-5",
                                        "1E5",
                                        "1e+05",
                                        "0x10",
                                        "0x1.8p1",
                                        "-0x1p-1074",
                                        "7.0e-10",
                                        "3.14159265358979323846264338327950288",
                                        "100000000000000000000000",
                                        "0.1e1",
                                        "5e-1",
                                        "000.000",
                                        "1.0000000000000002",
                                        "2.5e-3" };
    len = 0;
    double tw[N(toks)];
    for (size_t i = 0; i < N(toks); i++) {
        tw[i] = strtod(toks[i], NULL);
        len += (size_t)snprintf(buf + len, cap - len, "%s\n", toks[i]);
    }
    p = tmp_named("spellings.txt", buf, len);
    expect_one("text: spellings", p, TXT(0), NULL, tw, N(toks));
    free(buf);
    free(want);
}

/* ---- gzip ------------------------------------------------------------------- */

static void test_gzip(void) {
    const char *p;
    const double v[] = { 1, 2, 3, 4 };
    p = tmp_gz_named("g.txt", "1 2\n3 4\n", 8);
    expect_one("gzip: text", p, TXT(0), NULL, v, 4);

    /* Two members back to back, then zero padding: one stream to gzip -d. */
    size_t n1, n2;
    unsigned char *a = slurp(tmp_gz_named("m1.gz", "1 2\n", 4), &n1);
    unsigned char *b = slurp(tmp_gz_named("m2.gz", "3 4\n", 4), &n2);
    unsigned char *m = malloc(n1 + n2 + 16);
    memcpy(m, a, n1);
    memcpy(m + n1, b, n2);
    memset(m + n1 + n2, 0, 16);
    p = tmp_named("multi.gz", m, n1 + n2 + 16);
    expect_one("gzip: two members and padding", p, TXT(0), NULL, v, 4);
    m[n1 + n2 + 5] = 'z';
    p = tmp_named("garbage.gz", m, n1 + n2 + 16);
    expect_err("gzip: trailing garbage", p, TXT(0), ": corrupt gzip data (trailing garbage at byte",
               NULL);
    free(a);
    free(b);
    free(m);

    /* Cut short: an error, never a short signal. Big enough to be cut mid-block. */
    enum { COUNT = 200000 };
    char *txt = malloc((size_t)COUNT * 24);
    size_t len = 0;
    for (int i = 0; i < COUNT; i++)
        len += (size_t)sprintf(txt + len, "%d.%03d\n", i, (i * 7919) % 1000);
    size_t gn;
    unsigned char *gz = slurp(tmp_gz_named("whole.txt.gz", txt, len), &gn);
    p = tmp_named("cut.txt.gz", gz, gn / 2);
    expect_msg("gzip: truncated at half", p, TXT(0), ": truncated gzip stream");
    expect_msg("gzip: truncated, as CSV", p, opts(WM_SIGFMT_CSV, NULL, 0),
               ": truncated gzip stream");
    p = tmp_named("cut2.txt.gz", gz, gn - 4);
    expect_msg("gzip: last 4 bytes missing", p, TXT(0), ": truncated gzip stream");
    p = tmp_named("cut3.gz", gz, 2);
    expect_msg("gzip: magic only", p, TXT(0), ": truncated gzip stream");
    /* Damage: zlib's reason. A bad CRC is found only after all the data. */
    gz[gn - 8] ^= 0xff;
    p = tmp_named("crc.txt.gz", gz, gn);
    expect_msg("gzip: bad CRC", p, TXT(0), ": corrupt gzip data (incorrect data check)");
    gz[gn - 8] ^= 0xff;
    gz[2] = 7;
    p = tmp_named("method.txt.gz", gz, gn);
    expect_msg("gzip: bad method", p, TXT(0), ": corrupt gzip data (unknown compression method)");
    free(gz);
    free(txt);
}

/* ---- CSV -------------------------------------------------------------------- */

static void test_csv(void) {
    const char *p;
    wm_sigs_t s;
    const double a[] = { 1, 4, 7 }, b[] = { 2.5, -5, 8e-3 }, c[] = { 3, 6, 9 };

    p = put_str("h.csv", "# sampling_frequency_hz=360\ntime,Lead B,c\r\n"
                         "1,2.5,3\r\n4, -5 ,6\r\n# a comment\n\n7,8e-3,9\r\n");
    expect_one("csv: by name", p, AUTO("Lead B", 0), "Lead B", b, 3);
    expect_one("csv: by name, any case", p, AUTO("lead b", 0), "Lead B", b, 3);
    expect_one("csv: by number", p, AUTO("2", 0), "c", c, 3);
    expect_one("csv: by number 0", p, AUTO("0", 1), "time", a, 3);
    expect_msg("csv: default with 3 columns", p, AUTO(NULL, 0),
               " has 3 columns (time, Lead B, c): choose one with --column");
    expect_msg("csv: no such name", p, AUTO("d", 0),
               ": no column named 'd' (the columns are time, Lead B, c)");
    expect_msg("csv: number too big", p, AUTO("3", 0),
               ": no column 3: the columns are numbered 0 to 2");

    /* The exact name wins over the number and over another case. */
    p = put_str("names.csv", "x,1,X\n10,20,30\n");
    const double x10[] = { 10 }, x20[] = { 20 }, x30[] = { 30 };
    expect_one("csv: header name '1'", p, AUTO("1", 0), "1", x20, 1);
    expect_one("csv: exact 'X'", p, AUTO("X", 0), "X", x30, 1);
    expect_one("csv: exact 'x'", p, AUTO("x", 0), "x", x10, 1);
    expect_one("csv: number 2", p, AUTO("2", 0), "X", x30, 1);

    /* No header: columns by number only, unnamed. */
    p = put_str("nohead.csv", "1,2.5,3\n4,-5,6\n7,8e-3,9\n");
    expect_one("csv: no header, column 1", p, AUTO("1", 0), NULL, b, 3);
    expect_msg(
        "csv: no header, by name", p, AUTO("b", 0),
        ": no column named 'b': the file has no header line, so give a 0-based number (0 to 2)");
    expect_msg("csv: no header, default", p, AUTO(NULL, 0),
               " has 3 columns (no header; numbered 0 to 2): choose one with --column");

    /* One column: the default. */
    p = put_str("one.csv", "value\n1\n4\n7\n");
    expect_one("csv: one column with header", p, AUTO(NULL, 0), "value", a, 3);
    p = put_str("onenohead.csv", "1\n4\n7");
    expect_one("csv: one column, no header", p, AUTO(NULL, 1), NULL, a, 3);

    /* Other delimiters, quotes, forced format on any name. */
    p = put_str("semi.txt", "a;b;c\n1;2.5;3\n4;-5;6\n7;8e-3;9\n");
    expect_one("csv: semicolons", p, opts(WM_SIGFMT_CSV, "b", 0), "b", b, 3);
    p = put_str("tabs.tsv", "a\tb,x\tc\n1\t2.5\t3\n4\t-5\t6\n7\t 8e-3\t9\n");
    expect_one("csv: tabs", p, opts(WM_SIGFMT_CSV, "b,x", 0), "b,x", b, 3);
    p = put_str("quoted.CSV", "\"a\",\"say \"\"b\"\"\",c\n1,\"2.5\",3\n4, \"-5\" ,6\n7,8e-3,9\n");
    expect_one("csv: quotes (and .CSV)", p, AUTO("say \"b\"", 0), "say \"b\"", b, 3);

    /* Errors with their line. */
    p = put_str("few.csv", "a,b,c\n1,2,3\n# c\n4,5\n");
    expect_msg("csv: too few fields", p, AUTO("a", 0), ":4: 2 fields, but the header has 3");
    p = put_str("few2.csv", "1,2,3\n4\n");
    expect_msg("csv: too few, no header", p, AUTO("0", 0), ":2: 1 field, but the first line has 3");
    p = put_str("badnum.csv", "t,v\n2020-01-01,1\n2020-01-02,x1\n");
    expect_msg("csv: bad number", p, AUTO("v", 0), ":3: 'x1' is not a number");
    const double v1[] = { 1 };
    p = put_str("othercol.csv", "t,v\n2020-01-01,1\n");
    expect_one("csv: other columns need not be numbers", p, AUTO("v", 0), "v", v1, 1);
    p = put_str("emptyfield.csv", "a,b\n1,\n");
    expect_msg("csv: empty field", p, AUTO("b", 0), ":2: '' is not a number");
    p = put_str("range.csv", "a\n1\n1e999\n");
    expect_msg("csv: overflow", p, AUTO(NULL, 0), ":3: '1e999' is out of range");
    p = put_str("nan.csv", "# c\na,b\n1,2\n3,nan\n");
    expect_msg("csv: NaN", p, AUTO("b", 0), ":4: sample 1 is NaN");
    p = put_str("inf.csv", "1\n-inf\n");
    expect_msg("csv: -Inf", p, AUTO(NULL, 0), ":2: sample 1 is -Inf");
    p = put_str("empty.csv", "");
    expect_msg("csv: empty", p, AUTO(NULL, 0), ": no samples");
    p = put_str("headonly.csv", "# c\na,b\n\n");
    expect_msg("csv: header only", p, AUTO("a", 0), ": no samples");

    /* gzip'd, by name. */
    p = tmp_gz_named("h2.csv.gz", "a,b\n1,2.5\n4,-5\n7,8e-3\n", 22);
    expect_one("csv: .csv.gz", p, AUTO("b", 1), "b", b, 3);
    (void)s;
}

/* The shared ECG record: 650,000 samples per lead. */
static void test_shared_csv(void) {
    const char *root = shared_data_dir();
    char p[1024];
    snprintf(p, sizeof p, "%s/timeseries/ecg/mitdb100.csv.gz", root ? root : "(no shared data)");
    if (!root || access(p, R_OK) != 0) {
        printf("note: %s absent, its checks skipped\n", p);
        return;
    }
    wm_sigs_t s;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (read_ok("mitdb100: MLII", p, AUTO("MLII[mV]", 0), &s, 1)) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        const wm_sig_t *g = &s.a[0];
        CHECK(g->n == 650000, "mitdb100: %llu samples", (unsigned long long)g->n);
        CHECK(g->name && strcmp(g->name, "MLII[mV]") == 0, "mitdb100: name %s", g->name);
        CHECK(g->n == 650000 && g->v[0] == -0.145 && g->v[g->n - 1] == -1.28,
              "mitdb100: first %.17g, last %.17g", g->v[0], g->v[g->n - 1]);
        double sum = 0;
        for (uint64_t i = 0; i < g->n; i++) sum += g->v[i];
        CHECK(fabs(sum - -199094.335) < 1e-6, "mitdb100: sum %.9f", sum);
        printf("mitdb100.csv.gz: 650000 samples in %.3f s\n",
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        wm_sigs_free(&s);
    }
    if (read_ok("mitdb100: v5 by other case", p, AUTO("v5[mv]", 0), &s, 1)) {
        CHECK(s.a[0].n == 650000 && s.a[0].v[0] == -0.065 && s.a[0].v[649999] == 0,
              "mitdb100 V5: first %.17g", s.a[0].v[0]);
        CHECK(strcmp(s.a[0].name, "V5[mV]") == 0, "mitdb100 V5: name %s", s.a[0].name);
        wm_sigs_free(&s);
    }
    if (read_ok("mitdb100: column 0", p, AUTO("0", 0), &s, 1)) {
        CHECK(s.a[0].n == 650000 && s.a[0].v[0] == -0.145, "mitdb100 col 0");
        wm_sigs_free(&s);
    }
    expect_msg("mitdb100: default", p, AUTO(NULL, 0),
               " has 2 columns (MLII[mV], V5[mV]): choose one with --column");
}

/* ---- raw float32 / float64 -------------------------------------------------- */

static void put_le(unsigned char *o, uint64_t u, int bytes) {
    for (int i = 0; i < bytes; i++) o[i] = (unsigned char)(u >> (8 * i));
}

static size_t f64_bytes(const double *v, size_t n, unsigned char *out) {
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], 8);
        put_le(out + 8 * i, u, 8);
    }
    return 8 * n;
}

static size_t f32_bytes(const float *v, size_t n, unsigned char *out) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        put_le(out + 4 * i, u, 4);
    }
    return 4 * n;
}

static void test_raw(void) {
    const double d[] = { 1.5, -0.0, 4.9e-324, 1.7976931348623157e308, 0.1, -3 };
    const float f[] = { 0.1f, -2.5f, 1e-45f, 3.4028235e38f, 0.0f };
    unsigned char buf[256];
    const char *p;
    size_t n;

    n = f64_bytes(d, N(d), buf);
    p = tmp_named("d.f64", buf, n);
    expect_one("f64", p, opts(WM_SIGFMT_F64, NULL, 0), NULL, d, N(d));
    expect_one("f64, several", p, opts(WM_SIGFMT_F64, "3", 1), NULL, d, N(d));
    p = tmp_gz_named("d.f64.gz", buf, n);
    expect_one("f64 gzip'd", p, opts(WM_SIGFMT_F64, NULL, 0), NULL, d, N(d));
    p = tmp_named("d13.f64", buf, 13);
    expect_msg("f64: 13 bytes", p, opts(WM_SIGFMT_F64, NULL, 0),
               ": 13 bytes, not a multiple of 8 (float64): 5 extra bytes at the end");
    p = tmp_named("empty.f64", buf, 0);
    expect_msg("f64: empty", p, opts(WM_SIGFMT_F64, NULL, 0), ": no samples");

    double fd[N(f)];
    for (size_t i = 0; i < N(f); i++) fd[i] = (double)f[i];
    n = f32_bytes(f, N(f), buf);
    p = tmp_named("f.f32", buf, n);
    expect_one("f32 (exact widening)", p, opts(WM_SIGFMT_F32, NULL, 0), NULL, fd, N(f));
    p = tmp_named("f6.f32", buf, 6);
    expect_msg("f32: 6 bytes", p, opts(WM_SIGFMT_F32, NULL, 0),
               ": 6 bytes, not a multiple of 4 (float32): 2 extra bytes at the end");
    p = tmp_named("f1.f32", buf, 1);
    expect_msg("f32: 1 byte", p, opts(WM_SIGFMT_F32, NULL, 0),
               ": 1 byte, not a multiple of 4 (float32): 1 extra byte at the end");
    p = tmp_named("empty.f32", buf, 0);
    expect_msg("f32: empty", p, opts(WM_SIGFMT_F32, NULL, 0), ": no samples");

    const double nd[] = { 1, 2, NAN, 4 };
    n = f64_bytes(nd, N(nd), buf);
    p = tmp_named("nan.f64", buf, n);
    expect_msg("f64: NaN", p, opts(WM_SIGFMT_F64, NULL, 0), ": sample 2 is NaN");
    const float nf[] = { -INFINITY, 1 };
    n = f32_bytes(nf, N(nf), buf);
    p = tmp_named("inf.f32", buf, n);
    expect_msg("f32: -Inf", p, opts(WM_SIGFMT_F32, NULL, 0), ": sample 0 is -Inf");

    /* Bigger than a block, with the last sample cut. */
    enum { COUNT = 400000 };
    float *big = malloc(COUNT * sizeof(float));
    double *bd = malloc(COUNT * sizeof(double));
    unsigned char *bb = malloc(COUNT * 8);
    for (int i = 0; i < COUNT; i++) {
        big[i] = (float)i * 0.37f - 1000.0f;
        bd[i] = (double)big[i];
    }
    n = f32_bytes(big, COUNT, bb);
    p = tmp_named("big.f32", bb, n);
    expect_one("f32: 400k samples", p, opts(WM_SIGFMT_F32, NULL, 0), NULL, bd, COUNT);
    p = tmp_named("bigcut.f32", bb, n - 1);
    expect_msg("f32: 400k samples minus a byte", p, opts(WM_SIGFMT_F32, NULL, 0),
               ": 1599999 bytes, not a multiple of 4 (float32): 3 extra bytes at the end");
    n = f64_bytes(bd, COUNT, bb);
    p = tmp_gz_named("big.f64.gz", bb, n);
    expect_one("f64: 400k samples gzip'd", p, opts(WM_SIGFMT_F64, NULL, 0), NULL, bd, COUNT);
    free(big);
    free(bd);
    free(bb);
}

/* ---- .npy ------------------------------------------------------------------- */

/* A .npy file as numpy writes it: magic, version, header padded with spaces
** to a multiple of 64 bytes and ended by '\n', then the data. */
static const char *put_npy(const char *name, int major, const char *descr, int fortran,
                           const char *shape, const void *data, size_t n) {
    char dict[512];
    unsigned char *out = malloc(1024 + n);
    int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
                      descr, fortran ? "True" : "False", shape);
    size_t pre = major == 1 ? 10 : 12;
    size_t hlen = (size_t)dl + 1;
    hlen += (64 - (pre + hlen) % 64) % 64;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    put_le(out + 8, hlen, major == 1 ? 2 : 4);
    memset(out + pre, ' ', hlen);
    memcpy(out + pre, dict, (size_t)dl);
    out[pre + hlen - 1] = '\n';
    memcpy(out + pre + hlen, data, n);
    const char *p = tmp_named(name, out, pre + hlen + n);
    free(out);
    return p;
}

static void test_npy(void) {
    unsigned char buf[512];
    const char *p;
    wm_sigs_t s;
    size_t n;

    const double d[] = { 1.5, -2, 3.25 };
    n = f64_bytes(d, 3, buf);
    p = put_npy("d.npy", 1, "<f8", 0, "(3,)", buf, n);
    expect_one("npy: 1-D <f8", p, AUTO(NULL, 0), NULL, d, 3);
    expect_one("npy: 1-D <f8, column and several ignored", p, AUTO("7", 1), NULL, d, 3);
    p = put_npy("d2.txt", 2, "<f8", 0, "(3,)", buf, n);
    expect_one("npy: version 2.0, any name", p, AUTO(NULL, 0), NULL, d, 3);
    p = put_npy("d3.csv", 3, "=f8", 0, "(3L,)", buf, n);
    expect_one("npy: version 3.0, '=f8', (3L,), named .csv", p, AUTO(NULL, 0), NULL, d, 3);
    expect_one("npy: format forced", p, opts(WM_SIGFMT_NPY, NULL, 0), NULL, d, 3);

    const float f[] = { 0.1f, -7.5f };
    const double fd[] = { (double)0.1f, -7.5 };
    n = f32_bytes(f, 2, buf);
    p = put_npy("f.npy", 1, "<f4", 0, "(2,)", buf, n);
    expect_one("npy: 1-D <f4", p, AUTO(NULL, 0), NULL, fd, 2);

    const int16_t i2[] = { -3, 7, 32767, -32768 };
    const double i2d[] = { -3, 7, 32767, -32768 };
    for (int i = 0; i < 4; i++) put_le(buf + 2 * i, (uint16_t)i2[i], 2);
    p = put_npy("i2.npy", 1, "<i2", 0, "(4,)", buf, 8);
    expect_one("npy: 1-D <i2", p, AUTO(NULL, 0), NULL, i2d, 4);
    const double u2d[] = { 65533, 7, 32767, 32768 };
    p = put_npy("u2.npy", 1, "<u2", 0, "(4,)", buf, 8);
    expect_one("npy: 1-D <u2", p, AUTO(NULL, 0), NULL, u2d, 4);
    buf[0] = 0xfd;
    buf[1] = 0x07;
    const double i1d[] = { -3, 7 };
    p = put_npy("i1.npy", 1, "|i1", 0, "(2,)", buf, 2);
    expect_one("npy: 1-D |i1", p, AUTO(NULL, 0), NULL, i1d, 2);
    const double u1d[] = { 253, 7 };
    p = put_npy("u1.npy", 1, "|u1", 0, "(2,)", buf, 2);
    expect_one("npy: 1-D |u1", p, AUTO(NULL, 0), NULL, u1d, 2);
    const int64_t i8[] = { -5, 1099511627776 };
    const double i8d[] = { -5, 1099511627776.0 };
    for (int i = 0; i < 2; i++) put_le(buf + 8 * i, (uint64_t)i8[i], 8);
    p = put_npy("i8.npy", 1, "<i8", 0, "(2,)", buf, 16);
    expect_one("npy: 1-D <i8", p, AUTO(NULL, 0), NULL, i8d, 2);
    const double i4d[] = { -5, 256 };
    put_le(buf, (uint32_t)-5, 4);
    put_le(buf + 4, 256, 4);
    p = put_npy("i4.npy", 1, "<i4", 0, "(2,)", buf, 8);
    expect_one("npy: 1-D <i4", p, AUTO(NULL, 0), NULL, i4d, 2);
    const double u4d[] = { 4294967291.0, 256 };
    p = put_npy("u4.npy", 1, "<u4", 0, "(2,)", buf, 8);
    expect_one("npy: 1-D <u4", p, AUTO(NULL, 0), NULL, u4d, 2);

    /* 2-D: [[1 2 3] [4 5 6]], stored in C order and in Fortran order. */
    const double cm[] = { 1, 2, 3, 4, 5, 6 }, fm[] = { 1, 4, 2, 5, 3, 6 };
    const double col1[] = { 2, 5 };
    for (int order = 0; order < 2; order++) {
        const char *nm = order ? "fortran.npy" : "c.npy";
        n = f64_bytes(order ? fm : cm, 6, buf);
        p = put_npy(nm, 1, "<f8", order, "(2, 3)", buf, n);
        expect_one(order ? "npy F: column 1" : "npy C: column 1", p, AUTO("1", 0), NULL, col1, 2);
        expect_one(order ? "npy F: column 1, several" : "npy C: column 1, several", p, AUTO("1", 1),
                   NULL, col1, 2);
        if (read_ok(order ? "npy F: rows" : "npy C: rows", p, AUTO(NULL, 1), &s, 2)) {
            expect_sig(order ? "npy F: row 0" : "npy C: row 0", &s, 0, NULL, cm, 3);
            expect_sig(order ? "npy F: row 1" : "npy C: row 1", &s, 1, NULL, cm + 3, 3);
            wm_sigs_free(&s);
        }
        expect_msg(order ? "npy F: no column" : "npy C: no column", p, AUTO(NULL, 0),
                   ": 2-D .npy of shape (2, 3): choose a column with --column");
        expect_msg("npy: column out of range", p, AUTO("3", 0),
                   ": no column 3 in a .npy of shape (2, 3) (columns 0 to 2)");
        expect_err("npy: column by name", p, AUTO("a", 0), ": --column 'a' is not a column number",
                   NULL);
    }
    /* (3, 1): the only column is the default. */
    n = f64_bytes(d, 3, buf);
    p = put_npy("col.npy", 1, "<f8", 0, "(3, 1)", buf, n);
    expect_one("npy: (3, 1)", p, AUTO(NULL, 0), NULL, d, 3);
    /* i2 in 2-D, Fortran order, column 0. */
    for (int i = 0; i < 4; i++) put_le(buf + 2 * i, (uint16_t)i2[i], 2);
    p = put_npy("i2f.npy", 1, "<i2", 1, "(2, 2)", buf, 8);
    expect_one("npy: <i2 Fortran column 1", p, AUTO("1", 0), NULL, i2d + 2, 2);

    /* Refused: dtypes, shapes, sizes, versions. */
    static const char *const bad_dtypes[] = { ">f8", "<c16", "|b1", "<U3", "|O", "<f2", "<u8" };
    n = f64_bytes(d, 3, buf);
    for (size_t i = 0; i < N(bad_dtypes); i++) {
        char name[32], rest[160];
        snprintf(name, sizeof name, "dtype%zu.npy", i);
        p = put_npy(name, 1, bad_dtypes[i], 0, "(3,)", buf, n);
        snprintf(rest, sizeof rest,
                 ": .npy dtype '%s' is not supported (float32/float64 "
                 "little-endian, or integers)",
                 bad_dtypes[i]);
        expect_msg(bad_dtypes[i], p, AUTO(NULL, 0), rest);
    }
    p = put_npy("3d.npy", 1, "<f8", 0, "(1, 1, 3)", buf, n);
    expect_msg("npy: 3-D", p, AUTO("0", 1),
               ": .npy shape (1, 1, 3) has 3 dimensions; a signal file has 1 or 2");
    p = put_npy("0d.npy", 1, "<f8", 0, "()", buf, 8);
    expect_msg("npy: 0-D", p, AUTO(NULL, 0), ": .npy shape () is a single number, not a signal");
    p = put_npy("zero.npy", 1, "<f8", 0, "(0,)", buf, 0);
    expect_msg("npy: zero size", p, AUTO(NULL, 0), ": no samples (.npy shape (0,))");
    p = put_npy("zero2.npy", 1, "<f8", 0, "(2, 0)", buf, 0);
    expect_msg("npy: zero columns", p, AUTO(NULL, 1), ": no samples (.npy shape (2, 0))");
    p = put_npy("short.npy", 1, "<f8", 0, "(4,)", buf, n);
    expect_msg("npy: truncated", p, AUTO(NULL, 0),
               ": .npy data is truncated: shape (4,) of '<f8' needs 32 bytes after the "
               "128-byte header, the file has 24");
    {
        size_t fn;
        unsigned char *whole = slurp(p, &fn);
        p = tmp_gz_named("short.npy.gz", whole, fn);
        free(whole);
    }
    expect_msg("npy: truncated, gzip'd", p, AUTO(NULL, 0),
               ": .npy data is truncated: shape (4,) of '<f8' needs 32 bytes after the "
               "128-byte header, the file has 24");
    p = put_npy("long.npy", 1, "<f8", 0, "(2,)", buf, n);
    expect_msg("npy: bytes after the data", p, AUTO(NULL, 0),
               ": 8 bytes after the .npy data (shape (2,) of '<f8')");
    buf[0] = 0x93;
    memcpy(buf + 1, "NUMPY\x04\x00\x10\x00", 9);
    p = tmp_named("v4.npy", buf, 10);
    expect_msg("npy: version 4", p, AUTO(NULL, 0),
               ": .npy format version 4.0 is not supported (1.0, 2.0, 3.0 are)");
    p = put_str("notnpy.npy", "1 2 3\n");
    expect_msg("npy: forced on text", p, opts(WM_SIGFMT_NPY, NULL, 0),
               ": not a .npy file (it does not start with \"\\x93NUMPY\")");
    expect_one("npy: the same as AUTO is text", p, AUTO(NULL, 0), NULL, cm, 3);
    p = tmp_named("hdrcut.npy", "\x93NUMPY\x01\x00\x76\x00{'descr'", 17);
    expect_msg("npy: header cut", p, AUTO(NULL, 0), ": truncated .npy header");

    /* NaN and Inf, where they are; not in an unread column. */
    const double nd[] = { 1, NAN, 3 };
    n = f64_bytes(nd, 3, buf);
    p = put_npy("nan.npy", 1, "<f8", 0, "(3,)", buf, n);
    expect_msg("npy: NaN 1-D", p, AUTO(NULL, 0), ": sample 1 is NaN");
    const float nf[] = { 1, 2, 3, 4, INFINITY, 6 }; /* [[1 2 3] [4 inf 6]] */
    n = f32_bytes(nf, 6, buf);
    p = put_npy("inf2d.npy", 1, "<f4", 0, "(2, 3)", buf, n);
    expect_msg("npy: Inf in column 1", p, AUTO("1", 0), ": column 1: sample 1 is Inf");
    expect_msg("npy: Inf in row 1", p, AUTO(NULL, 1), ": row 1: sample 1 is Inf");
    const double c2[] = { 3, 6 };
    expect_one("npy: Inf in another column", p, AUTO("2", 0), NULL, c2, 2);

    /* gzip'd .npy: found by its magic through the gzip. */
    n = f64_bytes(d, 3, buf);
    p = put_npy("plain.npy", 1, "<f8", 0, "(3,)", buf, n);
    {
        size_t fn;
        unsigned char *whole = slurp(p, &fn);
        p = tmp_gz_named("gz.npy.gz", whole, fn);
        free(whole);
    }
    expect_one("npy: gzip'd", p, AUTO(NULL, 0), NULL, d, 3);
}

/* ---- the rest: stdin, bad paths, arguments ----------------------------------- */

/* Read "-" with `data` arriving through a pipe from a child process. */
static int read_stdin(const void *data, size_t n, wm_sigread_opts_t o, wm_sigs_t *s, char *err,
                      size_t err_len) {
    int fds[2], saved = dup(0);
    if (pipe(fds) != 0 || saved < 0) die("pipe");
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        close(fds[0]);
        const char *p = data;
        while (n > 0) {
            ssize_t w = write(fds[1], p, n);
            if (w <= 0) _exit(1);
            p += w;
            n -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    dup2(fds[0], 0);
    close(fds[0]);
    int rc = wm_sig_read("-", &o, s, err, err_len);
    dup2(saved, 0);
    close(saved);
    waitpid(pid, NULL, 0);
    return rc;
}

static void test_stdin(void) {
    wm_sigs_t s;
    char err[256];
    const double v[] = { 1, 2, 3 };
    int rc = read_stdin("1\n2\n3\n", 6, AUTO(NULL, 0), &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && s.a[0].n == 3 && s.a[0].v[2] == 3, "stdin text: %s", err);
    if (rc == 0) wm_sigs_free(&s);

    enum { COUNT = 300000 };
    double *d = malloc(COUNT * 8);
    unsigned char *b = malloc(COUNT * 8);
    for (int i = 0; i < COUNT; i++) d[i] = i * 0.5;
    size_t n = f64_bytes(d, COUNT, b);
    rc = read_stdin(b, n, opts(WM_SIGFMT_F64, NULL, 0), &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && s.a[0].n == COUNT && memcmp(s.a[0].v, d, n) == 0,
          "stdin f64 (size unknown): %s", err);
    if (rc == 0) wm_sigs_free(&s);
    free(d);
    free(b);

    rc = read_stdin("1 x", 3, AUTO(NULL, 0), &s, err, sizeof err);
    CHECK(rc == -1 && strcmp(err, "(standard input):1: 'x' is not a number") == 0,
          "stdin error: '%s'", err);
    (void)v;
}

/* ---- .npy shapes that the data does not back (issue 21, F2) ----------------- */

/* The bytes of a .npy file written by put_npy (malloc'd; *n its size). */
static unsigned char *npy_bytes(const char *name, const char *descr, int fortran, const char *shape,
                                const void *data, size_t dn, size_t *n) {
    return slurp(put_npy(name, 1, descr, fortran, shape, data, dn), n);
}

/* r x c rows read three ways where the size is unknown or only claimed
** (gzip'd file, plain through a pipe, gzip'd through a pipe): the rows grow
** as their samples arrive, in C and in Fortran order. */
static void npy_rows_case(uint64_t r, uint64_t c) {
    size_t cnt = (size_t)(r * c), fn;
    double *m = malloc(cnt * sizeof *m), *st = malloc(cnt * sizeof *st);
    unsigned char *b = malloc(cnt * 8);
    char shape[64], what[160];
    for (size_t i = 0; i < cnt; i++) m[i] = (double)(i % 977) - 0.5 * (double)(i % 3);
    snprintf(shape, sizeof shape, "(%llu, %llu)", (unsigned long long)r, (unsigned long long)c);
    for (int fortran = 0; fortran < 2; fortran++) {
        /* storage order: C is m itself; Fortran stores column after column */
        for (uint64_t i = 0; i < r; i++)
            for (uint64_t j = 0; j < c; j++) st[fortran ? j * r + i : i * c + j] = m[i * c + j];
        size_t n = f64_bytes(st, cnt, b);
        unsigned char *whole = npy_bytes("rows.npy", "<f8", fortran, shape, b, n, &fn);
        size_t gn;
        unsigned char *gz = gzip_bytes(whole, fn, &gn);
        for (int how = 0; how < 3; how++) {
            static const char *const hows[] = { "gzip'd file", "plain pipe", "gzip'd pipe" };
            wm_sigs_t s;
            char err[512] = "";
            int rc;
            snprintf(what, sizeof what, "npy rows %s %s, %s", shape, fortran ? "F" : "C",
                     hows[how]);
            if (how == 0)
                rc = wm_sig_read(tmp_named("rows.npy.gz", gz, gn),
                                 &(wm_sigread_opts_t){ .format = WM_SIGFMT_AUTO, .several = 1 }, &s,
                                 err, sizeof err);
            else if (how == 1) rc = read_stdin(whole, fn, AUTO(NULL, 1), &s, err, sizeof err);
            else rc = read_stdin(gz, gn, AUTO(NULL, 1), &s, err, sizeof err);
            CHECK(rc == 0 && s.n == r, "%s: rc %d, %zu signals: %s", what, rc, rc ? 0 : s.n, err);
            if (rc != 0) continue;
            if (s.n == r)
                for (uint64_t i = 0; i < r; i++) {
                    expect_sig(what, &s, (size_t)i, NULL, m + i * c, c);
                    if (i > 3 && i + 3 < r) i = r - 3; /* the first and last few */
                }
            wm_sigs_free(&s);
        }
        /* Cut inside the data: the message, and nothing left allocated. */
        size_t cut = 128 + 4 * cnt + 1; /* half the data and a byte */
        unsigned char *cgz = gzip_bytes(whole, cut, &gn);
        wm_sigs_t s;
        char err[512], want[512];
        snprintf(what, sizeof what, "npy rows %s %s, cut", shape, fortran ? "F" : "C");
        int rc = read_stdin(cgz, gn, AUTO(NULL, 1), &s, err, sizeof err);
        snprintf(want, sizeof want,
                 "(standard input): .npy data is truncated: shape %s of '<f8' needs %llu "
                 "bytes after the 128-byte header, the file has %llu",
                 shape, (unsigned long long)(cnt * 8), (unsigned long long)(cut - 128));
        CHECK(rc == -1 && s.n == 0 && s.a == NULL && strcmp(err, want) == 0,
              "%s: rc %d, message\n  '%s', want\n  '%s'", what, rc, err, want);
        free(cgz);
        free(gz);
        free(whole);
    }
    free(m);
    free(st);
    free(b);
}

/* Sanitizers reserve terabytes of address space: no RLIMIT_AS under them. */
#if defined(__SANITIZE_ADDRESS__)
#define WMT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WMT_ASAN 1
#endif
#endif

/* Lower the soft RLIMIT_AS to what the process maps now + 1 GiB, so that a
** reader that allocates from a claim fails at once instead of taking the
** machine's memory; returns 1 when *old is to be restored. */
static int limit_address_space(struct rlimit *old) {
#ifdef WMT_ASAN
    (void)old;
    return 0;
#else
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    int ok = fscanf(f, "%lu", &pages) == 1;
    fclose(f);
    if (!ok || getrlimit(RLIMIT_AS, old) != 0) return 0;
    rlim_t want = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
    if (old->rlim_cur != RLIM_INFINITY && old->rlim_cur <= want) return 0;
    struct rlimit lim = *old;
    lim.rlim_cur = want;
    return setrlimit(RLIMIT_AS, &lim) == 0;
#endif
}

static void test_npy_claims(void) {
    /* Row lengths around the growth steps (4, 8, 16, ...), many short rows. */
    static const uint64_t shapes[][2] = {
        { 1, 1 }, { 5, 1 }, { 3, 3 },    { 3, 4 },    { 2, 5 },
        { 4, 8 }, { 3, 9 }, { 2, 1000 }, { 3000, 5 }, { 70000, 1 }
    };
    for (size_t i = 0; i < N(shapes); i++) npy_rows_case(shapes[i][0], shapes[i][1]);

    /* Shapes of 2^40 and more elements with two samples behind them: an
    ** allocation from the header would fail (or take minutes); the reader
    ** must say "truncated" at once, whichever way the claim is made. */
    static const struct {
        const char *shape;
        int fortran, several;
        const char *column;
    } lies[] = {
        { "(1099511627776, 1)", 0, 1, NULL }, { "(1, 1099511627776)", 0, 1, NULL },
        { "(1099511627776, 3)", 1, 1, NULL }, { "(1099511627776,)", 0, 0, NULL },
        { "(1099511627776, 2)", 0, 0, "1" },  { "(1099511627776, 2)", 1, 1, "0" },
    };
    const double two[] = { 1, 2 };
    unsigned char b[16];
    size_t n = f64_bytes(two, 2, b);
    struct rlimit old;
    int limited = limit_address_space(&old);
    for (size_t i = 0; i < N(lies); i++) {
        size_t fn, gn;
        unsigned char *whole =
            npy_bytes("lie.npy", "<f8", lies[i].fortran, lies[i].shape, b, n, &fn);
        unsigned char *gz = gzip_bytes(whole, fn, &gn);
        char what[160], rest[256];
        snprintf(what, sizeof what, "npy claim %s%s%s", lies[i].shape, lies[i].fortran ? " F" : "",
                 lies[i].column ? " column" : "");
        /* the size of the data the shape needs: 8 bytes an element */
        unsigned long long e = 1099511627776ULL;
        if (strstr(lies[i].shape, ", 3)")) e *= 3;
        else if (strstr(lies[i].shape, ", 2)")) e *= 2;
        snprintf(rest, sizeof rest,
                 ": .npy data is truncated: shape %s of '<f8' needs %llu bytes after the "
                 "128-byte header, the file has 16",
                 lies[i].shape, e * 8);
        wm_sigread_opts_t o = { .format = WM_SIGFMT_AUTO,
                                .column = lies[i].column,
                                .several = lies[i].several };
        expect_msg(what, tmp_named("lie.npy.gz", gz, gn), o, rest);
        wm_sigs_t s;
        char err[512], want[512];
        snprintf(want, sizeof want, "(standard input)%s", rest);
        for (int pipe_gz = 0; pipe_gz < 2; pipe_gz++) {
            int rc = pipe_gz ? read_stdin(gz, gn, o, &s, err, sizeof err)
                             : read_stdin(whole, fn, o, &s, err, sizeof err);
            CHECK(rc == -1 && s.n == 0 && strcmp(err, want) == 0,
                  "%s, %s pipe: rc %d, message\n  '%s', want\n  '%s'", what,
                  pipe_gz ? "gzip'd" : "plain", rc, err, want);
            if (rc == 0) wm_sigs_free(&s);
        }
        free(gz);
        free(whole);
    }
    if (limited) setrlimit(RLIMIT_AS, &old);
}

static void test_misc(void) {
    wm_sigs_t s;
    char err[256];
    expect_err("missing file", tmp_path("no-such-file.txt"), AUTO(NULL, 0), "No such file", NULL);
    expect_err("a folder", tmp_folder(), AUTO(NULL, 0), "Is a directory", NULL);

    const char *p = put_str("small.txt", "1 2 3");
    /* NULL options: AUTO, one signal. */
    int rc = wm_sig_read(p, NULL, &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && s.a[0].n == 3 && s.a[0].v[1] == 2, "NULL options: %s", err);
    if (rc == 0) wm_sigs_free(&s);
    /* err may be NULL; a short err buffer is cut, still terminated. */
    p = put_str("bad.txt", "1 x");
    CHECK(wm_sig_read(p, NULL, &s, NULL, 0) == -1 && s.n == 0 && s.a == NULL, "NULL err");
    memset(err, 'x', sizeof err);
    CHECK(wm_sig_read(p, NULL, &s, err, 8) == -1 && strlen(err) == 7 && strncmp(err, p, 7) == 0,
          "short err: '%s'", err);
    CHECK(wm_sig_read(NULL, NULL, &s, err, sizeof err) == -1 && strstr(err, "no path") != NULL,
          "NULL path: '%s'", err);
    CHECK(wm_sig_read(p, NULL, NULL, err, sizeof err) == -1, "NULL out");
    wm_sigs_free(NULL);
    CHECK(1, "wm_sigs_free(NULL)");
    wm_sigread_opts_t bad = { .format = (wm_sigfmt_t)42 };
    expect_msg("unknown format", p, bad, ": unknown signal format 42");
}

int main(void) {
    test_text();
    test_text_nonfinite();
    test_text_blocks();
    test_gzip();
    test_csv();
    test_shared_csv();
    test_raw();
    test_npy();
    test_stdin();
    test_npy_claims();
    test_misc();
    return test_finish();
}
