/*
** fuzz_seqfile.c -- the whole-file sequence reader, wm_seqfile_read
** (src/io/seqfile.c): plain, FASTA, FASTQ, gzip.
**
** Oracle: the input, as a file, must read as the reference reader
** (seqref.c, written from the documented format) reads it: the same format,
** records, record starts, sequence bytes and names, or an error in both
** (with force_plain 0 and 1). Then the same bytes gzip-compressed (one
** member, two members, zero padding after the last: chosen by the input's
** size) and through a pipe on standard input must give exactly what the
** file gave: the same records, or the same error message (the pipe's names
** "(standard input)" where the file's names the path).
** The parallel FASTA parser (3 threads, blocks of 1..16 bytes chosen by the
** input's size, so that block edges land everywhere) must give exactly what
** the serial one gave, message included.
** A name with a control byte is an error (issue 21, F4; see seqref.h).
*/
#include <string.h>

#include "fuzz.h"
#include "seqref.h"
#include "io/seqfile.h"

typedef struct {
    wm_status st;
    wm_seqfile_t sf;
    char err[1024];
} got_t;

static void read_path_opts(const char *path, int force_plain, const wm_seqfile_opts_t *o,
                           got_t *g) {
    g->err[0] = '\0';
    g->st = wm_seqfile_read_opts(path, force_plain, o, &g->sf, g->err, sizeof g->err);
    if (g->st != WM_OK) {
        FZ_CHECK(g->err[0] != '\0', "%s: status %d with no message", path, (int)g->st);
        FZ_CHECK(g->sf.text.n_rec == 0 && g->sf.names == NULL, "%s: records left after an error",
                 path);
        return;
    }
    /* Invariants of any successful read. */
    const wm_text_t *t = &g->sf.text;
    FZ_CHECK(t->seq != NULL, "%s: seq is NULL", path);
    FZ_CHECK(t->rec_start[0] == 0 || t->n_rec == 0, "%s: first record at %llu", path,
             (unsigned long long)t->rec_start[0]);
    for (size_t r = 0; r < t->n_rec; r++)
        FZ_CHECK(t->rec_start[r] <= t->rec_start[r + 1] && g->sf.names[r] != NULL, "%s: record %zu",
                 path, r);
    FZ_CHECK(t->rec_start[t->n_rec] == t->len, "%s: records end at %llu of %llu", path,
             (unsigned long long)t->rec_start[t->n_rec], (unsigned long long)t->len);
}

static void read_path(const char *path, int force_plain, got_t *g) {
    read_path_opts(path, force_plain, NULL, g);
}

/* The file's read against the reference. */
static void against_ref(const got_t *g, const seqref_t *r, int force_plain) {
    if (!r->ok) {
        FZ_CHECK(g->st != WM_OK,
                 "force_plain %d: the reference refuses the input, the reader "
                 "reads %zu records",
                 force_plain, g->sf.text.n_rec);
        return;
    }
    FZ_CHECK(g->st == WM_OK, "force_plain %d: the reference reads %zu records, the reader says: %s",
             force_plain, r->n, g->err);
    const wm_text_t *t = &g->sf.text;
    FZ_CHECK((int)g->sf.format == r->format, "format %d, reference %d", (int)g->sf.format,
             r->format);
    FZ_CHECK(t->n_rec == r->n, "%zu records, reference %zu", t->n_rec, r->n);
    FZ_CHECK(t->len == r->len, "%llu sequence bytes, reference %zu", (unsigned long long)t->len,
             r->len);
    FZ_CHECK(memcmp(t->seq, r->seq, r->len) == 0, "sequence bytes differ");
    for (size_t i = 0; i <= r->n; i++)
        FZ_CHECK(t->rec_start[i] == r->start[i], "record %zu starts at %llu, reference %zu", i,
                 (unsigned long long)t->rec_start[i], r->start[i]);
    for (size_t i = 0; i < r->n; i++)
        FZ_CHECK(strcmp(g->sf.names[i], r->name[i]) == 0, "record %zu named '%s', reference '%s'",
                 i, g->sf.names[i], r->name[i]);
}

/* Two reads of the same bytes by different paths: the same result. */
static void same(const got_t *a, const got_t *b, const char *what, const char *path_a,
                 const char *path_b) {
    FZ_CHECK((a->st == WM_OK) == (b->st == WM_OK), "%s: '%s' vs '%s'", what,
             a->st == WM_OK ? "ok" : a->err, b->st == WM_OK ? "ok" : b->err);
    if (a->st != WM_OK) {
        const char *ea = fz_after(a->err, path_a), *eb = fz_after(b->err, path_b);
        FZ_CHECK(strcmp(ea, eb) == 0, "%s: messages differ:\n  %s\n  %s", what, ea, eb);
        return;
    }
    const wm_text_t *x = &a->sf.text, *y = &b->sf.text;
    FZ_CHECK(a->sf.format == b->sf.format && x->n_rec == y->n_rec && x->len == y->len,
             "%s: format %d/%d, %zu/%zu records, %llu/%llu bytes", what, (int)a->sf.format,
             (int)b->sf.format, x->n_rec, y->n_rec, (unsigned long long)x->len,
             (unsigned long long)y->len);
    FZ_CHECK(x->len == 0 || memcmp(x->seq, y->seq, (size_t)x->len) == 0, "%s: bytes differ", what);
    for (size_t i = 0; i < x->n_rec; i++) {
        FZ_CHECK(x->rec_start[i] == y->rec_start[i], "%s: record %zu starts differ", what, i);
        FZ_CHECK(strcmp(a->sf.names[i], b->sf.names[i]) == 0, "%s: record %zu: '%s' vs '%s'", what,
                 i, a->sf.names[i], b->sf.names[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[400];
    snprintf(path, sizeof path, "%s", fz_path("in"));
    fz_write(path, data, size);

    got_t file[2];
    for (int fp = 0; fp < 2; fp++) {
        seqref_t r;
        seqref_parse(data, size, fp, &r);
        read_path(path, fp, &file[fp]);
        /* Bytes that start with a compressed magic are decompressed or refused. */
        if (!fz_compressed(data, size)) against_ref(&file[fp], &r, fp);
        seqref_free(&r);
    }

    /* The parallel parser: the serial one's result, byte for byte. */
    wm_seqfile_opts_t po = wm_seqfile_opts_default();
    po.threads = 3;
    po.min_parallel = 0;
    po.block = 1 + size % 16;
    got_t par;
    read_path_opts(path, 0, &po, &par);
    same(&file[0], &par, "serial vs parallel", path, path);
    wm_seqfile_close(&par.sf);

    /* The same bytes compressed, under the same name (messages name it): the
    ** same result. */
    size_t gz_len;
    uint8_t *gz =
        fz_gzip(data, size, 1 + (int)(size % 2), size / 3, size % 3 == 0 ? 7 : 0, &gz_len);
    fz_write(path, gz, gz_len);
    free(gz);
    got_t z;
    read_path(path, 0, &z);
    if (z.st == WM_OK) FZ_CHECK(z.sf.gzipped, "gzip input not marked gzipped");
    if (!fz_compressed(data, size)) same(&file[0], &z, "file vs its gzip copy", path, path);
    wm_seqfile_close(&z.sf);

    /* Through a pipe on standard input. */
    if (fz_stdin_begin(data, size) == 0) {
        got_t p;
        read_path("-", 0, &p);
        fz_stdin_end();
        same(&file[0], &p, "file vs pipe", path, "(standard input)");
        wm_seqfile_close(&p.sf);
    }
    wm_seqfile_close(&file[0].sf);
    wm_seqfile_close(&file[1].sf);
    return 0;
}
