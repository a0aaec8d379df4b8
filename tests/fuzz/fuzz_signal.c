/*
** fuzz_signal.c -- the signal reader, wm_sig_read (src/io/signal*.c): text,
** CSV, .npy, .npz, raw float32 / float64, labelled text (.tsv), AUTO (by
** magic and by name), plain or gzip, from a file or standard input.
**
** The input is the file's bytes; every format and option (several 0/1, the
** column: default, "1", "b") reads it. Oracle:
**   - invariants of every successful read (signal.h's promise): at least one
**     signal, each with at least one sample, all finite; exactly one signal
**     when several = 0 or the format is CSV or raw;
**   - TEXT and raw F32 / F64 against the reference readers of sigref.c
**     (written from signal.h): the same signals, samples (bit for bit) and
**     names, or an error in both;
**   - the .npy combinations and one other (turning with the input's size)
**     read again from a gzip copy under the same name and from a pipe on
**     standard input: the same signals, or an error in both - with the same
**     message for TEXT and CSV (a pipe's "(standard input)" for the path).
**     Not compared for .npy and raw messages: a regular file's size is
**     checked before reading, a stream's only at its end (issue 21, F2);
**   - raw F32 / F64 are compared with the reference under raw_force; read
**     without it, the same signal or the refusal of a text-looking file
**     (issue 20);
**   - .npz (a zip: its directory read from the end, so neither gzip nor a
**     pipe) and labelled text: the invariants alone;
**   - every message is one line (signal.h; regress/FZ1-npy-descr-raw-bytes.npy:
**     a .npy dtype is shown escaped).
*/
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "sigref.h"
#include "io/signal.h"

typedef struct {
    int rc;
    wm_sigs_t s;
    char err[1024];
} got_t;

static void read_sig(const char *path, const wm_sigread_opts_t *o, got_t *g, const char *what) {
    g->err[0] = '\0';
    g->rc = wm_sig_read(path, o, &g->s, g->err, sizeof g->err);
    if (g->rc != 0) {
        FZ_CHECK(g->rc == -1 && g->err[0] != '\0' && g->s.n == 0 && g->s.a == NULL,
                 "%s: failed (%d) without a message or with signals left", what, g->rc);
        FZ_CHECK(strchr(g->err, '\n') == NULL, "%s: a message of several lines: %s", what, g->err);
        return;
    }
    FZ_CHECK(g->s.n >= 1, "%s: no signal", what);
    for (size_t i = 0; i < g->s.n; i++) {
        FZ_CHECK(g->s.a[i].n >= 1 && g->s.a[i].v != NULL, "%s: signal %zu empty", what, i);
        for (uint64_t k = 0; k < g->s.a[i].n; k++)
            FZ_CHECK(isfinite(g->s.a[i].v[k]), "%s: signal %zu sample %llu is not finite", what, i,
                     (unsigned long long)k);
    }
    if (!o->several || o->format == WM_SIGFMT_CSV || o->format == WM_SIGFMT_F32 ||
        o->format == WM_SIGFMT_F64)
        FZ_CHECK(g->s.n == 1, "%s: %zu signals where one is read", what, g->s.n);
}

static int same_name(const char *a, const char *b) {
    return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

static void against_ref(const got_t *g, const sigref_t *r, const char *what) {
    FZ_CHECK((g->rc == 0) == (r->ok != 0), "%s: the reader says '%s', the reference %s", what,
             g->rc == 0 ? "ok" : g->err, r->ok ? "reads it" : "refuses it");
    if (g->rc != 0) return;
    FZ_CHECK(g->s.n == r->n, "%s: %zu signals, reference %zu", what, g->s.n, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const wm_sig_t *a = &g->s.a[i];
        FZ_CHECK(a->n == r->a[i].n, "%s: signal %zu has %llu samples, reference %zu", what, i,
                 (unsigned long long)a->n, r->a[i].n);
        for (size_t k = 0; k < r->a[i].n; k++)
            FZ_CHECK(memcmp(&a->v[k], &r->a[i].v[k], sizeof(double)) == 0,
                     "%s: signal %zu sample %zu is %.17g, reference %.17g", what, i, k, a->v[k],
                     r->a[i].v[k]);
        FZ_CHECK(same_name(a->name, r->a[i].name), "%s: signal %zu named '%s', reference '%s'",
                 what, i, a->name ? a->name : "(none)", r->a[i].name ? r->a[i].name : "(none)");
    }
}

static void same(const got_t *a, const got_t *b, int messages, const char *path_a,
                 const char *path_b, const char *what) {
    FZ_CHECK((a->rc == 0) == (b->rc == 0), "%s: '%s' vs '%s'", what, a->rc == 0 ? "ok" : a->err,
             b->rc == 0 ? "ok" : b->err);
    if (a->rc != 0) {
        const char *ea = fz_after(a->err, path_a), *eb = fz_after(b->err, path_b);
        if (messages)
            FZ_CHECK(strcmp(ea, eb) == 0, "%s: messages differ:\n  %s\n  %s", what, ea, eb);
        return;
    }
    FZ_CHECK(a->s.n == b->s.n, "%s: %zu vs %zu signals", what, a->s.n, b->s.n);
    for (size_t i = 0; i < a->s.n; i++) {
        FZ_CHECK(a->s.a[i].n == b->s.a[i].n &&
                     memcmp(a->s.a[i].v, b->s.a[i].v, (size_t)a->s.a[i].n * sizeof(double)) == 0,
                 "%s: signal %zu differs", what, i);
        FZ_CHECK(same_name(a->s.a[i].name, b->s.a[i].name), "%s: signal %zu's name differs", what,
                 i);
    }
}

typedef struct {
    wm_sigfmt_t format;
    const char *file; /* the name it is read under (AUTO looks at it) */
    int several;
    const char *column;
} combo_t;

static const combo_t combos[] = {
    { WM_SIGFMT_AUTO, "in", 0, NULL },     { WM_SIGFMT_AUTO, "in", 1, NULL },
    { WM_SIGFMT_AUTO, "in.csv", 0, NULL }, { WM_SIGFMT_AUTO, "in.csv", 1, "b" },
    { WM_SIGFMT_TEXT, "in", 0, NULL },     { WM_SIGFMT_TEXT, "in", 1, NULL },
    { WM_SIGFMT_CSV, "in", 0, NULL },      { WM_SIGFMT_CSV, "in", 0, "1" },
    { WM_SIGFMT_CSV, "in", 1, "b" },       { WM_SIGFMT_F32, "in", 0, NULL },
    { WM_SIGFMT_F64, "in", 0, NULL },      { WM_SIGFMT_NPY, "in", 0, NULL },
    { WM_SIGFMT_NPY, "in", 1, NULL },      { WM_SIGFMT_NPY, "in", 0, "1" },
    { WM_SIGFMT_AUTO, "in.npy", 1, "0" },  { WM_SIGFMT_NPZ, "in", 0, NULL },
    { WM_SIGFMT_NPZ, "in", 1, NULL },      { WM_SIGFMT_AUTO, "in.tsv", 1, NULL },
    { WM_SIGFMT_AUTO, "in.tsv", 0, NULL },
};
#define N_COMBOS (sizeof combos / sizeof combos[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const fmt_names[] = { "auto", "text", "csv", "f32", "f64", "npy", "npz" };
    size_t pick = size % N_COMBOS;
    for (size_t c = 0; c < N_COMBOS; c++) {
        const combo_t *k = &combos[c];
        int raw = k->format == WM_SIGFMT_F32 || k->format == WM_SIGFMT_F64;
        wm_sigread_opts_t o = { .format = k->format, .column = k->column, .several = k->several };
        o.raw_force = raw; /* the reference reads every byte */
        char path[400], what[200];
        snprintf(path, sizeof path, "%s", fz_path(k->file));
        snprintf(what, sizeof what, "%s %s, several %d, column %s", fmt_names[k->format], k->file,
                 k->several, k->column ? k->column : "default");
        fz_write(path, data, size);
        got_t g;
        read_sig(path, &o, &g, what);
        /* gzip, or any other compressed magic (7z, xz, ...): decompressed or
        ** refused, never read as the plain bytes the references read */
        int gz_magic = fz_compressed(data, size);
        int zip_magic = size >= 2 && data[0] == 'P' && data[1] == 'K';
        if (raw) {
            wm_sigread_opts_t o2 = o;
            got_t t;
            char w2[300];
            o2.raw_force = 0;
            snprintf(w2, sizeof w2, "%s, not forced", what);
            read_sig(path, &o2, &t, w2);
            if (t.rc != 0 && strstr(t.err, "looks like text") != NULL) {
                /* needed for a refusal: 95% of the first 4 KiB printable,
                ** blanks, line breaks or bytes of UTF-8 sequences (>= 0x80) */
                size_t n = size < 4096 ? size : 4096, texty = 0;
                for (size_t i = 0; i < n; i++)
                    texty +=
                        data[i] >= 0x20 || data[i] == '\t' || data[i] == '\n' || data[i] == '\r';
                FZ_CHECK(gz_magic || texty * 100 > n * 95, "%s: refused as text: %s", w2, t.err);
            } else {
                same(&g, &t, 1, path, path, w2);
            }
            wm_sigs_free(&t.s);
        }
        if (!gz_magic) {
            sigref_t r;
            int have_ref = 1;
            if (k->format == WM_SIGFMT_TEXT) sigref_text(data, size, k->several, &r);
            else if (k->format == WM_SIGFMT_F32) sigref_raw(data, size, 4, &r);
            else if (k->format == WM_SIGFMT_F64) sigref_raw(data, size, 8, &r);
            else have_ref = 0;
            if (have_ref) {
                against_ref(&g, &r, what);
                sigref_free(&r);
            }
        }
        /* .npy always: its header claims sizes that a stream cannot check. */
        if ((c == pick || k->format == WM_SIGFMT_NPY || strcmp(k->file, "in.npy") == 0) &&
            !gz_magic && !zip_magic && k->format != WM_SIGFMT_NPZ) {
            int messages = k->format == WM_SIGFMT_TEXT || k->format == WM_SIGFMT_CSV;
            char w2[300];
            /* gzip, under the same name */
            size_t gz_len;
            uint8_t *gz = fz_gzip(data, size, 1 + (int)(size / N_COMBOS % 2), size / 2,
                                  size % 4 == 0 ? 5 : 0, &gz_len);
            fz_write(path, gz, gz_len);
            free(gz);
            got_t z;
            snprintf(w2, sizeof w2, "%s: file vs its gzip copy", what);
            read_sig(path, &o, &z, w2);
            same(&g, &z, messages, path, path, w2);
            wm_sigs_free(&z.s);
            /* a pipe: AUTO would read it as TEXT whatever the name */
            if (!(k->format == WM_SIGFMT_AUTO && strcmp(k->file, "in") != 0) &&
                fz_stdin_begin(data, size) == 0) {
                got_t p;
                snprintf(w2, sizeof w2, "%s: file vs pipe", what);
                read_sig("-", &o, &p, w2);
                fz_stdin_end();
                same(&g, &p, messages, path, "(standard input)", w2);
                wm_sigs_free(&p.s);
            }
        }
        wm_sigs_free(&g.s);
    }
    return 0;
}
