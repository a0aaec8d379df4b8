/*
** test_signal_npz.c -- unit tests of what issue 20 added to the signal
** reader (src/io/signal*.c): .npz archives, labelled text (UCR .tsv) and
** the refusal of raw f32/f64 files that look like text.
**
** The archives are written here by a small zip writer of our own (stored
** members, and deflated ones through zlib's raw deflate; zip64 fields and
** data descriptors on request), independent of the reader: the values read
** back must equal the array's bit for bit. Then every damage a file can
** carry: every prefix of an archive, every single byte flipped, lying sizes,
** CRCs, methods and flags -- an error with a one-line message or (for a
** flip that keeps the archive valid) the right values, never a crash (the
** sanitizer pass runs this too).
** Last line: "N passed, N failed"; exit status 0 when nothing failed.
*/
#include "files.h"
#include "harness.h"
#include "io/signal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- bytes -------------------------------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t n, m;
} buf_t;

static void put(buf_t *b, const void *p, size_t n) {
    if (n == 0) return; /* (an empty member: no pointer arithmetic on NULL) */
    if (b->n + n > b->m) {
        b->m = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->m);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put16(buf_t *b, unsigned v) {
    unsigned char x[2] = { (unsigned char)v, (unsigned char)(v >> 8) };
    put(b, x, 2);
}

static void put32(buf_t *b, uint32_t v) {
    put16(b, v & 0xffff);
    put16(b, v >> 16);
}

static void put64(buf_t *b, uint64_t v) {
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

/* A .npy (version 1.0) of float64 values, shape (n,) or (rows, n / rows). */
static buf_t npy_f8(const double *v, size_t n, size_t rows) {
    buf_t b = { 0 };
    char dict[128];
    if (rows)
        snprintf(dict, sizeof dict,
                 "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, %zu), }", rows, n / rows);
    else
        snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu,), }",
                 n);
    size_t hl = strlen(dict) + 1;
    while ((10 + hl) % 64) hl++;
    put(&b, "\x93NUMPY\x01\x00", 8);
    put16(&b, (unsigned)hl);
    put(&b, dict, strlen(dict));
    for (size_t i = strlen(dict); i + 1 < hl; i++) put(&b, " ", 1);
    put(&b, "\n", 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], 8);
        put64(&b, u);
    }
    return b;
}

/* ---- a zip writer -------------------------------------------------------------- */

typedef struct {
    const char *name;
    buf_t data; /* the member's bytes (a .npy) */
    int method; /* 0 stored, 8 deflated, or any number to write */
    int zip64;  /* sizes and offset in zip64 extra fields */
    int descr;  /* flag bit 3: sizes after the data, zero in the local header */
    int flags;  /* more flag bits (1: encrypted) */
    int64_t crc_delta, usize_delta, csize_delta; /* lies in the directory */
} member_t;

static buf_t deflate_raw(const buf_t *in) {
    buf_t out = { 0 };
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
    out.m = deflateBound(&z, in->n) + 16;
    out.p = malloc(out.m);
    z.next_in = in->p;
    z.avail_in = (uInt)in->n;
    z.next_out = out.p;
    z.avail_out = (uInt)out.m;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) abort();
    out.n = out.m - z.avail_out;
    deflateEnd(&z);
    return out;
}

static buf_t zip_write(member_t *ms, size_t n_members) {
    buf_t z = { 0 }, cd = { 0 };
    for (size_t i = 0; i < n_members; i++) {
        member_t *m = &ms[i];
        buf_t packed = m->method == 8 ? deflate_raw(&m->data) : m->data;
        uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), m->data.p, (uInt)m->data.n);
        uint64_t local = z.n, us = m->data.n, cs = packed.n;
        size_t nl = strlen(m->name);
        unsigned flags = (unsigned)m->flags | (m->descr ? 8u : 0u);
        put32(&z, 0x04034b50);
        put16(&z, m->zip64 ? 45 : 20);
        put16(&z, flags);
        put16(&z, (unsigned)m->method);
        put32(&z, 0); /* time, date */
        put32(&z, m->descr ? 0 : crc);
        put32(&z, m->descr ? 0 : m->zip64 ? 0xffffffffu : (uint32_t)cs);
        put32(&z, m->descr ? 0 : m->zip64 ? 0xffffffffu : (uint32_t)us);
        put16(&z, (unsigned)nl);
        put16(&z, m->zip64 ? 20 : 0);
        put(&z, m->name, nl);
        if (m->zip64) {
            put16(&z, 1);
            put16(&z, 16);
            put64(&z, us);
            put64(&z, cs);
        }
        put(&z, packed.p, packed.n);
        if (m->descr) {
            put32(&z, 0x08074b50);
            put32(&z, crc);
            put32(&z, (uint32_t)cs);
            put32(&z, (uint32_t)us);
        }
        /* its directory entry */
        uint32_t dcrc = (uint32_t)(crc + (uint32_t)m->crc_delta);
        uint64_t dus = us + (uint64_t)m->usize_delta, dcs = cs + (uint64_t)m->csize_delta;
        put32(&cd, 0x02014b50);
        put16(&cd, 45);
        put16(&cd, m->zip64 ? 45 : 20);
        put16(&cd, flags);
        put16(&cd, (unsigned)m->method);
        put32(&cd, 0);
        put32(&cd, dcrc);
        put32(&cd, m->zip64 ? 0xffffffffu : (uint32_t)dcs);
        put32(&cd, m->zip64 ? 0xffffffffu : (uint32_t)dus);
        put16(&cd, (unsigned)nl);
        put16(&cd, m->zip64 ? 28 : 0);
        put16(&cd, 0); /* comment */
        put16(&cd, 0); /* disk */
        put16(&cd, 0);
        put32(&cd, 0);
        put32(&cd, m->zip64 ? 0xffffffffu : (uint32_t)local);
        put(&cd, m->name, nl);
        if (m->zip64) {
            put16(&cd, 1);
            put16(&cd, 24);
            put64(&cd, dus);
            put64(&cd, dcs);
            put64(&cd, local);
        }
        if (packed.p != m->data.p) free(packed.p);
    }
    uint64_t cd_off = z.n;
    put(&z, cd.p, cd.n);
    int zip64 = n_members > 0 && ms[0].zip64;
    if (zip64) {
        uint64_t z64 = z.n;
        put32(&z, 0x06064b50);
        put64(&z, 44);
        put16(&z, 45);
        put16(&z, 45);
        put32(&z, 0);
        put32(&z, 0);
        put64(&z, n_members);
        put64(&z, n_members);
        put64(&z, cd.n);
        put64(&z, cd_off);
        put32(&z, 0x07064b50);
        put32(&z, 0);
        put64(&z, z64);
        put32(&z, 1);
    }
    put32(&z, 0x06054b50);
    put16(&z, 0);
    put16(&z, 0);
    put16(&z, zip64 ? 0xffff : (unsigned)n_members);
    put16(&z, zip64 ? 0xffff : (unsigned)n_members);
    put32(&z, zip64 ? 0xffffffffu : (uint32_t)cd.n);
    put32(&z, zip64 ? 0xffffffffu : (uint32_t)cd_off);
    put16(&z, 3);
    put(&z, "hi!", 3); /* a comment: the end record is not the last 22 bytes */
    free(cd.p);
    return z;
}

/* ---- reading ---------------------------------------------------------------------- */

static int read_file(const char *path, const char *array, int several, wm_sigs_t *s, char *err,
                     size_t err_len) {
    wm_sigread_opts_t o = { .format = WM_SIGFMT_AUTO, .several = several, .array = array };
    return wm_sig_read(path, &o, s, err, err_len);
}

static int same_values(const wm_sig_t *g, const double *v, size_t n) {
    return g->n == n && memcmp(g->v, v, n * sizeof *v) == 0;
}

/* The archive holds v (as member `array`) and reads back as it. */
static void expect_values(const char *what, const buf_t *zip, const char *array, const double *v,
                          size_t n, const char *note) {
    const char *p = tmp_named("a.npz", zip->p, zip->n);
    wm_sigs_t s;
    char err[512];
    int rc = read_file(p, array, 0, &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && same_values(&s.a[0], v, n), "%s: rc %d: %s", what, rc, err);
    if (note) CHECK(strstr(err, note) != NULL, "%s: note '%s', expected '%s'", what, err, note);
    else CHECK(err[0] == '\0', "%s: an unexpected note '%s'", what, err);
    wm_sigs_free(&s);
}

/* The archive is refused with a message holding `frag`. */
static void expect_error(const char *what, const buf_t *zip, const char *array, const char *frag) {
    const char *p = tmp_named("e.npz", zip->p, zip->n);
    wm_sigs_t s;
    char err[512];
    int rc = read_file(p, array, 0, &s, err, sizeof err);
    CHECK(rc == -1 && s.n == 0 && strstr(err, frag) != NULL && strchr(err, '\n') == NULL,
          "%s: rc %d, message '%s', expected '%s'", what, rc, err, frag);
    wm_sigs_free(&s);
}

/* ---- the tests ---------------------------------------------------------------------- */

static double va[300], vb[50];

static void test_members(void) {
    for (size_t i = 0; i < N_OF(va); i++) va[i] = sin((double)i * 0.1) * 100.0 + (double)i / 7.0;
    for (size_t i = 0; i < N_OF(vb); i++) vb[i] = -(double)i * 0.25;
    for (int method = 0; method <= 8; method += 8)
        for (int zip64 = 0; zip64 <= 1; zip64++)
            for (int descr = 0; descr <= 1; descr++) {
                char what[96];
                snprintf(what, sizeof what, "method %d, zip64 %d, descriptor %d", method, zip64,
                         descr);
                member_t m[2] = { { .name = "a.npy",
                                    .data = npy_f8(va, N_OF(va), 0),
                                    .method = method,
                                    .zip64 = zip64,
                                    .descr = descr },
                                  { .name = "b.npy",
                                    .data = npy_f8(vb, N_OF(vb), 0),
                                    .method = method,
                                    .zip64 = zip64,
                                    .descr = descr } };
                buf_t one = zip_write(m, 1), two = zip_write(m, 2);
                expect_values(what, &one, NULL, va, N_OF(va), NULL);
                expect_values(what, &two, NULL, va, N_OF(va), "holds 2 arrays (a, b); read 'a'");
                expect_values(what, &two, "b", vb, N_OF(vb), NULL);
                expect_values(what, &two, "b.npy", vb, N_OF(vb), NULL);
                expect_values(what, &two, "a.npy", va, N_OF(va), NULL);
                expect_error(what, &two, "c", "no array 'c' in this .npz archive (it holds a, b)");
                expect_error(what, &two, "b.np", "no array 'b.np'");
                free(one.p);
                free(two.p);
                free(m[0].data.p);
                free(m[1].data.p);
            }
}

static void test_rows(void) {
    double v[12];
    for (int i = 0; i < 12; i++) v[i] = i * 1.5;
    member_t m = { .name = "q.npy", .data = npy_f8(v, 12, 3), .method = 8 };
    buf_t z = zip_write(&m, 1);
    const char *p = tmp_named("rows.npz", z.p, z.n);
    wm_sigs_t s;
    char err[512];
    int rc = read_file(p, NULL, 1, &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 3 && same_values(&s.a[0], v, 4) && same_values(&s.a[2], v + 8, 4),
          "2-D rows: rc %d, %zu signals: %s", rc, s.n, err);
    wm_sigs_free(&s);
    /* an .npy error inside names the member */
    wm_sigread_opts_t o = { .format = WM_SIGFMT_NPZ, .column = "9" };
    rc = wm_sig_read(p, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "rows.npz:q.npy: no column 9") != NULL, "column 9: '%s'", err);
    free(z.p);
    free(m.data.p);
}

static void test_damage(void) {
    member_t m[2] = { { .name = "a.npy", .data = npy_f8(va, 40, 0), .method = 8 },
                      { .name = "b.npy", .data = npy_f8(vb, 20, 0), .method = 0 } };
    buf_t z;
    /* lies in the directory */
    m[0].crc_delta = 1;
    z = zip_write(m, 1);
    expect_error("deflated CRC", &z, NULL, "a.npy: corrupt .npz member: CRC-32 mismatch");
    free(z.p);
    m[0].crc_delta = 0;
    m[1].crc_delta = 1;
    z = zip_write(m, 2);
    expect_error("stored CRC", &z, "b", "b.npy: corrupt .npz member: CRC-32 mismatch");
    free(z.p);
    m[1].crc_delta = 0;
    m[0].usize_delta = (int64_t)1 << 30; /* a claim of a GiB sizes nothing */
    z = zip_write(m, 1);
    expect_error("deflated size claim", &z, NULL, "the directory says");
    free(z.p);
    m[0].usize_delta = 0;
    m[1].csize_delta = 1000000;
    m[1].usize_delta = 1000000;
    z = zip_write(m, 2);
    expect_error("stored size past the end", &z, "b", "member data outside the archive");
    free(z.p);
    m[1].csize_delta = m[1].usize_delta = 0;
    m[1].usize_delta = -8;
    z = zip_write(m, 2);
    expect_error("stored sizes differ", &z, "b", "stored member sizes differ");
    free(z.p);
    m[1].usize_delta = 0;
    m[0].method = 12;
    z = zip_write(m, 1);
    expect_error("bzip2", &z, NULL, "zip method 12");
    free(z.p);
    m[0].method = 8;
    m[0].flags = 1;
    z = zip_write(m, 1);
    expect_error("encrypted", &z, NULL, "encrypted");
    free(z.p);
    m[0].flags = 0;
    member_t txt = { .name = "readme.txt", .data = { (unsigned char *)"hello", 5, 5 } };
    z = zip_write(&txt, 1);
    expect_error("no .npy member", &z, NULL, "no .npy array");
    free(z.p);
    z = zip_write(m, 0);
    expect_error("empty archive", &z, NULL, "no .npy array");
    free(z.p);

    /* every prefix, and every byte flipped, of a two-member archive */
    z = zip_write(m, 2);
    long bad = 0;
    char err[512];
    for (size_t cut = 0; cut < z.n; cut++) {
        const char *p = tmp_named("cut.npz", z.p, cut);
        wm_sigs_t s;
        int rc = read_file(p, NULL, 0, &s, err, sizeof err);
        if (!(rc == -1 && err[0] && !strchr(err, '\n') && s.n == 0)) {
            if (bad++ < 5) CHECK(0, "prefix of %zu bytes: rc %d, '%s'", cut, rc, err);
        }
        wm_sigs_free(&s);
    }
    CHECK(bad == 0, "%ld prefixes read", bad);
    bad = 0;
    for (size_t i = 0; i < z.n; i++) {
        z.p[i] ^= 0x5a;
        const char *p = tmp_named("flip.npz", z.p, z.n);
        for (int which = 0; which < 2; which++) {
            wm_sigs_t s;
            int rc = read_file(p, which ? "b" : NULL, 0, &s, err, sizeof err);
            /* read: b's values, or by default a's -- or b's when the flip
            ** took a's name out of ".npy" (b is then the first array) */
            int ok = rc == 0 ? s.n == 1 && (same_values(&s.a[0], vb, 20) ||
                                            (!which && same_values(&s.a[0], va, 40)))
                             : err[0] && !strchr(err, '\n') && s.n == 0;
            if (!ok && bad++ < 5)
                CHECK(0, "byte %zu flipped, member %d: rc %d, %zu signals, %llu samples, '%s'", i,
                      which, rc, s.n, s.n ? (unsigned long long)s.a[0].n : 0ULL, err);
            wm_sigs_free(&s);
        }
        z.p[i] ^= 0x5a;
    }
    CHECK(bad == 0, "%ld flips read wrong values", bad);
    free(z.p);
    free(m[0].data.p);
    free(m[1].data.p);

    /* not regular: standard input from a pipe is refused (the CLI test does
    ** it); a gzip'd archive is refused */
    member_t one = { .name = "a.npy", .data = npy_f8(va, 10, 0) };
    z = zip_write(&one, 1);
    const char *g = tmp_gz_named("a.npz.gz", z.p, z.n);
    wm_sigs_t s;
    wm_sigread_opts_t o = { .format = WM_SIGFMT_NPZ };
    int rc = wm_sig_read(g, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "a compressed .npz is not read") != NULL, "gzip'd npz: '%s'",
          err);
    free(z.p);
    free(one.data.p);
}

/* ---- labelled text and raw files that are text ------------------------------------------- */

static void test_labels(void) {
    const char *p = tmp_text("1\t0.5\t1.5\n# comment\n\nclass_b 2 3 4\n-1,7\n");
    wm_sigs_t s;
    char err[512];
    wm_sigread_opts_t o = { .format = WM_SIGFMT_TEXT, .several = 1, .labels = 1 };
    int rc = wm_sig_read(p, &o, &s, err, sizeof err);
    double l0[] = { 0.5, 1.5 }, l1[] = { 2, 3, 4 }, l2[] = { 7 };
    CHECK(rc == 0 && s.n == 3 && same_values(&s.a[0], l0, 2) && same_values(&s.a[1], l1, 3) &&
              same_values(&s.a[2], l2, 1),
          "labelled lines: rc %d, %zu signals: %s", rc, s.n, err);
    if (rc == 0 && s.n == 3)
        CHECK(strcmp(s.a[0].label, "1") == 0 && strcmp(s.a[1].label, "class_b") == 0 &&
                  strcmp(s.a[2].label, "-1") == 0 && s.a[0].name == NULL,
              "labels '%s' '%s' '%s'", s.a[0].label, s.a[1].label, s.a[2].label);
    wm_sigs_free(&s);
    o.several = 0;
    rc = wm_sig_read(p, &o, &s, err, sizeof err);
    double all[] = { 0.5, 1.5, 2, 3, 4, 7 };
    CHECK(rc == 0 && s.n == 1 && same_values(&s.a[0], all, 6) && s.a[0].label == NULL,
          "labelled, one signal: rc %d: %s", rc, err);
    wm_sigs_free(&s);
    /* by the name: .tsv labelled, .txt not, labels = -1 never */
    const char *tsv = tmp_named("u.tsv", "3\t1\t2\n", 6);
    wm_sigread_opts_t a = { .several = 1 };
    rc = wm_sig_read(tsv, &a, &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && s.a[0].n == 2 && s.a[0].label && strcmp(s.a[0].label, "3") == 0,
          ".tsv by name: rc %d: %s", rc, err);
    wm_sigs_free(&s);
    a.labels = -1;
    rc = wm_sig_read(tsv, &a, &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && s.a[0].n == 3 && s.a[0].label == NULL, "--no-labels: rc %d", rc);
    wm_sigs_free(&s);
    /* errors name the line */
    o.several = 1;
    const char *e1 = tmp_text("1 2 3\n4\n");
    rc = wm_sig_read(e1, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2: label '4' but no samples after it"), "label alone: '%s'",
          err);
    const char *e2 = tmp_text("1 2 nan\n");
    rc = wm_sig_read(e2, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":1: sample 1 is NaN"), "NaN after a label: '%s'", err);
    const char *e3 = tmp_text("1 2\n>x\n3\n");
    rc = wm_sig_read(e3, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2: a '>' line in a labelled file"), "'>' line: '%s'", err);
}

static void test_raw_text(void) {
    wm_sigs_t s;
    char err[512];
    wm_sigread_opts_t o = { .format = WM_SIGFMT_F64 };
    const char *t = tmp_text("1.5 2.5 3.5\n4.5 5.5 1.2\n");
    int rc = wm_sig_read(t, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "looks like text, not raw float64"), "f64 text: '%s'", err);
    o.format = WM_SIGFMT_F32;
    rc = wm_sig_read(t, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "looks like text, not raw float32"), "f32 text: '%s'", err);
    o.raw_force = 1;
    rc = wm_sig_read(t, &o, &s, err, sizeof err);
    CHECK(rc == 0 && s.n == 1 && s.a[0].n == 6, "forced: rc %d: %s", rc, err);
    wm_sigs_free(&s);
    /* the threshold: 4096 bytes with 4% not text is text; with 6%, not. A
    ** float64 of bytes 0x40 ('@') is finite, so both read when forced. */
    unsigned char b[4096];
    for (int pct = 4; pct <= 6; pct += 2) {
        memset(b, '@', sizeof b);
        for (size_t i = 0; i < sizeof b * (size_t)pct / 100; i++) b[i * 100 / (size_t)pct] = 0x01;
        const char *p = tmp_named("t.f64", b, sizeof b);
        o.format = WM_SIGFMT_F64;
        o.raw_force = 0;
        rc = wm_sig_read(p, &o, &s, err, sizeof err);
        CHECK(pct == 4 ? rc == -1 : rc == 0, "%d%% not text: rc %d: %s", pct, rc, err);
        wm_sigs_free(&s);
    }
    /* UTF-8 counts as text; bytes >= 0x80 that are not UTF-8 do not */
    for (size_t i = 0; i < sizeof b; i += 2) {
        b[i] = 0xc3;
        b[i + 1] = 0xa9; /* é */
    }
    const char *u = tmp_named("u.f64", b, sizeof b);
    rc = wm_sig_read(u, &o, &s, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "looks like text"), "UTF-8: rc %d: %s", rc, err);
    for (size_t i = 0; i < sizeof b; i += 2) b[i] = 0xa9;
    u = tmp_named("u2.f64", b, sizeof b);
    rc = wm_sig_read(u, &o, &s, err, sizeof err);
    CHECK(rc == 0, "bytes >= 0x80, not UTF-8: rc %d: %s", rc, err);
    wm_sigs_free(&s);
}

int main(void) {
    test_members();
    test_rows();
    test_damage();
    test_labels();
    test_raw_text();
    return test_finish();
}
