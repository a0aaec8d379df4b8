/*
** fuzz_patfile.c -- pattern files of `warpmatch search -f` (cli/patfile.c).
**
** The input is a pattern file. The set is built as `-e ACGT -f FILE -f FILE`
** would build it: one -e string, then the file twice. Oracle: a reference
** reader written from patfile.h:
**   lines  (first byte not '>') one pattern per line, the bytes as they are
**          ('\r' and NUL kept), a last line without '\n' counts, an empty
**          line is an error;
**   FASTQ  (first line '@' NAME, third starting with '+') one pattern per
**          4-line record, '\r' dropped, named as FASTA, as many qualities as
**          bases;
**   FASTA  (first byte '>') one pattern per record, its sequence lines joined
**          without ' ' \t \r \v \f; named by the header's first word (up to
**          one of those); a header without a name, a name with a control
**          byte (below 0x20, or 0x7f: issue 21, F4) or a record without
**          sequence is an error;
** and no pattern at all is an error. When the reference reads the file, the
** set must be -e's pattern then the file's patterns twice: the same bytes,
** lengths, names (NULL for -e and for lines), sources and line numbers
** (a FASTA pattern's header line), and wm_patset_where must say FILE:LINE.
** Else wm_patset_add_file fails with a message. The same file read through
** a pipe ("-f -") and gzip-compressed must give the same patterns.
*/
#include <string.h>

#include "fuzz.h"
#include "cli.h"
#include "mpi/dist.h"
#include "patfile.h"

typedef struct {
    int ok;
    size_t n;
    uint8_t **pat;
    size_t *len;
    char **name; /* NULL in lines mode */
    uint64_t *line;
} ref_t;

static void ref_push(ref_t *r, const uint8_t *p, size_t m, const uint8_t *name, size_t nl,
                     uint64_t line) {
    r->pat = realloc(r->pat, (r->n + 1) * sizeof *r->pat);
    r->len = realloc(r->len, (r->n + 1) * sizeof *r->len);
    r->name = realloc(r->name, (r->n + 1) * sizeof *r->name);
    r->line = realloc(r->line, (r->n + 1) * sizeof *r->line);
    if (!r->pat || !r->len || !r->name || !r->line) abort();
    r->pat[r->n] = malloc(m + 1);
    if (!r->pat[r->n]) abort();
    memcpy(r->pat[r->n], p, m);
    r->len[r->n] = m;
    r->name[r->n] = NULL;
    if (name) {
        r->name[r->n] = malloc(nl + 1);
        if (!r->name[r->n]) abort();
        memcpy(r->name[r->n], name, nl);
        r->name[r->n][nl] = '\0';
    }
    r->line[r->n] = line;
    r->n++;
}

static int ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Line i (0-based) of p[0, n) without its '\n' and a '\r' before it: its
** start and length; 0 when the data has fewer lines. */
static int nth_line(const uint8_t *p, size_t n, size_t i, const uint8_t **l, size_t *len) {
    const uint8_t *end = p + n;
    for (size_t k = 0;; k++) {
        if (p >= end) return 0;
        const uint8_t *e = memchr(p, '\n', (size_t)(end - p));
        if (!e) e = end;
        if (k == i) {
            *l = p;
            *len = (size_t)(e - p) - (e > p && e[-1] == '\r');
            return 1;
        }
        p = e < end ? e + 1 : end;
    }
}

/* FASTQ (patfile.h): the first line '@' and a name, the third starting with
** '+'; then 4-line records, '\r' dropped, a name up to a blank (none with a
** control byte), as many qualities as bases, 1..WM_MAX_PATTERN bases. */
static int ref_is_fastq(const uint8_t *p, size_t n) {
    const uint8_t *l0, *l2;
    size_t n0, n2;
    return n > 0 && p[0] == '@' && nth_line(p, n, 0, &l0, &n0) && n0 > 1 &&
           nth_line(p, n, 2, &l2, &n2) && n2 > 0 && l2[0] == '+';
}

static void ref_fastq(const uint8_t *p, size_t n, ref_t *r) {
    for (size_t rec = 0;; rec++) {
        const uint8_t *l[4];
        size_t len[4];
        if (!nth_line(p, n, 4 * rec, &l[0], &len[0])) break; /* all read */
        for (int i = 1; i < 4; i++)
            if (!nth_line(p, n, 4 * rec + (size_t)i, &l[i], &len[i])) goto bad;
        if (len[0] == 0 || l[0][0] != '@' || len[2] == 0 || l[2][0] != '+') goto bad;
        size_t nl = 0;
        while (1 + nl < len[0] && !ws(l[0][1 + nl])) nl++;
        int ctl = 0;
        for (size_t i = 0; i < nl; i++) ctl |= l[0][1 + i] < 0x20 || l[0][1 + i] == 0x7f;
        if (nl == 0 || ctl || len[1] != len[3] || len[1] == 0 || len[1] > WM_MAX_PATTERN) goto bad;
        ref_push(r, l[1], len[1], l[0] + 1, nl, 4 * rec + 1);
    }
    r->ok = r->n > 0;
    return;
bad:
    r->ok = 0;
}

static void ref_parse(const uint8_t *p, size_t n, ref_t *r) {
    memset(r, 0, sizeof *r);
    const uint8_t *end = p + n;
    uint64_t line = 0;
    if (ref_is_fastq(p, n)) {
        ref_fastq(p, n, r);
        return;
    }
    if (n == 0 || p[0] != '>') {
        while (p < end) {
            const uint8_t *e = memchr(p, '\n', (size_t)(end - p));
            if (!e) e = end;
            line++;
            if (e == p || (size_t)(e - p) > WM_MAX_PATTERN) return;
            ref_push(r, p, (size_t)(e - p), NULL, 0, line);
            p = e < end ? e + 1 : end;
        }
    } else {
        uint8_t *seq = malloc(n + 1);
        const uint8_t *name = NULL;
        size_t nl = 0, m = 0;
        uint64_t hline = 0;
        if (!seq) abort();
        for (;;) {
            const uint8_t *e = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
            if (!e) e = end;
            line++;
            if (p == end || *p == '>') {
                if (name) {
                    if (m == 0 || m > WM_MAX_PATTERN) {
                        free(seq);
                        return;
                    }
                    ref_push(r, seq, m, name, nl, hline);
                }
                if (p == end) break;
                name = p + 1;
                nl = 0;
                while (name + nl < e && !ws(name[nl])) nl++;
                int ctl = 0;
                for (size_t i = 0; i < nl; i++) ctl |= name[i] < 0x20 || name[i] == 0x7f;
                if (nl == 0 || ctl) {
                    free(seq);
                    return;
                }
                m = 0;
                hline = line;
            } else {
                for (const uint8_t *c = p; c < e; c++)
                    if (!ws(*c)) seq[m++] = *c;
            }
            p = e < end ? e + 1 : end;
        }
        free(seq);
    }
    r->ok = r->n > 0;
}

static void ref_free(ref_t *r) {
    for (size_t i = 0; i < r->n; i++) {
        free(r->pat[i]);
        free(r->name[i]);
    }
    free(r->pat);
    free(r->len);
    free(r->name);
    free(r->line);
}

/* -e ACGT, then path twice. Returns the number of files read (0, 1 or 2). */
static int build(wm_patset_t *ps, const char *path) {
    memset(ps, 0, sizeof *ps);
    FZ_CHECK(wm_patset_add_string(ps, "ACGT") == 0, "-e ACGT refused");
    wm_cli_error("%s", ""); /* clear the last message */
    if (wm_patset_add_file(ps, path) != 0) {
        FZ_CHECK(wm_cli_last_error()[0] != '\0', "%s refused without a message", path);
        return 0;
    }
    if (strcmp(path, "-") == 0) return 1; /* standard input is read once */
    FZ_CHECK(wm_patset_add_file(ps, path) == 0, "%s: read once, refused the second time", path);
    return 2;
}

static void check_set(const wm_patset_t *ps, const ref_t *r, int files, const char *shown,
                      const char *what) {
    FZ_CHECK(ps->n == 1 + (size_t)files * r->n, "%s: %zu patterns, want %zu", what, ps->n,
             1 + (size_t)files * r->n);
    FZ_CHECK(ps->len[0] == 4 && memcmp(ps->pat[0], "ACGT", 4) == 0 && ps->line[0] == 0,
             "%s: the -e pattern changed", what);
    FZ_CHECK(ps->name == NULL || ps->name[0] == NULL, "%s: the -e pattern has a name", what);
    for (int f = 0; f < files; f++)
        for (size_t i = 0; i < r->n; i++) {
            size_t k = 1 + (size_t)f * r->n + i;
            char where[1200], want[1200];
            FZ_CHECK(ps->len[k] == r->len[i] && memcmp(ps->pat[k], r->pat[i], r->len[i]) == 0,
                     "%s: pattern %zu (%zu bytes) differs from the reference's (%zu bytes)", what,
                     k, ps->len[k], r->len[i]);
            FZ_CHECK(ps->line[k] == r->line[i], "%s: pattern %zu on line %llu, reference %llu",
                     what, k, (unsigned long long)ps->line[k], (unsigned long long)r->line[i]);
            const char *nm = ps->name ? ps->name[k] : NULL;
            FZ_CHECK((nm == NULL) == (r->name[i] == NULL) &&
                         (nm == NULL || strcmp(nm, r->name[i]) == 0),
                     "%s: pattern %zu named '%s', reference '%s'", what, k, nm ? nm : "(none)",
                     r->name[i] ? r->name[i] : "(none)");
            wm_patset_where(ps, k, where, sizeof where);
            snprintf(want, sizeof want, "%s:%llu", shown, (unsigned long long)r->line[i]);
            FZ_CHECK(strcmp(where, want) == 0, "%s: pattern %zu is at '%s', want '%s'", what, k,
                     where, want);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[400];
    wm_dist.rank = 1; /* wm_cli_error keeps its message but prints nothing */
    snprintf(path, sizeof path, "%s", fz_path("pat"));
    int gz_magic = fz_compressed(data, size); /* gzip, or any compressed magic */
    ref_t r;
    ref_parse(data, size, &r);

    wm_patset_t ps;
    fz_write(path, data, size);
    int files = build(&ps, path);
    if (!gz_magic) {
        FZ_CHECK((files > 0) == r.ok, "the reader %s the file, the reference %s",
                 files ? "reads" : "refuses", r.ok ? "reads it" : "refuses it");
        if (files) check_set(&ps, &r, files, path, "file");
    }
    wm_patset_free(&ps);

    if (!gz_magic) {
        size_t gz_len;
        uint8_t *gz = fz_gzip(data, size, 1 + (int)(size % 2), size / 2, 0, &gz_len);
        fz_write(path, gz, gz_len);
        free(gz);
        files = build(&ps, path);
        FZ_CHECK((files > 0) == r.ok, "gzip: the reader %s the file, the reference %s",
                 files ? "reads" : "refuses", r.ok ? "reads it" : "refuses it");
        if (files) check_set(&ps, &r, files, path, "gzip");
        wm_patset_free(&ps);

        if (fz_stdin_begin(data, size) == 0) {
            files = build(&ps, "-");
            fz_stdin_end();
            FZ_CHECK((files > 0) == r.ok, "pipe: the reader %s the file, the reference %s",
                     files ? "reads" : "refuses", r.ok ? "reads it" : "refuses it");
            if (files) check_set(&ps, &r, files, "(standard input)", "pipe");
            wm_patset_free(&ps);
        }
    }
    ref_free(&r);
    return 0;
}
