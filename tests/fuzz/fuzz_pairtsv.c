/*
** fuzz_pairtsv.c -- pair files of `warpmatch align --pairs` (cli/pairtsv.c).
**
** The input is a pair file, read with no length limit and with a limit of 3
** bytes. Oracle: a reference reader written from pairtsv.h: lines end at
** '\n', one '\r' before it dropped; blank lines are skipped; every other
** line is QUERY<TAB>TARGET with exactly one tab and only printable ASCII
** (0x20..0x7e) besides it, each side at most the limit; a pair is named by
** its 1-based line; no pair at all is an error. Blank: empty, or nothing
** but spaces and tabs (issue 21, F7).
** When the reference reads the file, the reader must give its pairs (bytes,
** lengths, lines); else it must fail with a message. The same bytes from a
** pipe and gzip-compressed must read the same.
*/
#include <string.h>

#include "fuzz.h"
#include "cli.h"
#include "mpi/dist.h"
#include "pairtsv.h"

typedef struct {
    const uint8_t *q, *t;
    uint64_t lq, lt, line;
} pair_t;

typedef struct {
    int ok;
    size_t n;
    pair_t *p;
} ref_t;

/* The file is refused: no pairs, ok 0. */
static void ref_refuse(ref_t *r) {
    free(r->p);
    memset(r, 0, sizeof *r);
}

static void ref_parse(const uint8_t *p, size_t n, uint64_t max_len, ref_t *r) {
    const uint8_t *end = p + n;
    memset(r, 0, sizeof *r);
    for (uint64_t line = 1; p < end; line++) {
        const uint8_t *e = memchr(p, '\n', (size_t)(end - p)), *next;
        next = e ? e + 1 : end;
        if (!e) e = end;
        if (e > p && e[-1] == '\r') e--;
        size_t tabs = 0, spaces = 0;
        const uint8_t *tab = NULL;
        for (const uint8_t *c = p; c < e; c++) {
            if (*c == '\t') {
                if (!tabs++) tab = c;
            } else if (*c == ' ') {
                spaces++;
            } else if (*c < 0x20 || *c > 0x7e) {
                ref_refuse(r);
                return;
            }
        }
        if (spaces + tabs == (size_t)(e - p)) { /* blank (F7): skipped */
            p = next;
            continue;
        }
        if (tabs != 1) {
            ref_refuse(r);
            return;
        }
        uint64_t lq = (uint64_t)(tab - p), lt = (uint64_t)(e - tab - 1);
        if (max_len && (lq > max_len || lt > max_len)) {
            ref_refuse(r);
            return;
        }
        r->p = realloc(r->p, (r->n + 1) * sizeof *r->p);
        if (!r->p) abort();
        r->p[r->n++] = (pair_t){ p, tab + 1, lq, lt, line };
        p = next;
    }
    r->ok = r->n > 0;
}

/* The reader's pairs against the reference's (which reads the file). */
static void compare(const wm_cli_pairtsv_t *pt, int rc, const ref_t *r, const char *what) {
    FZ_CHECK(rc == 0, "%s: the reference reads %zu pairs, the reader fails: %s", what, r->n,
             wm_cli_last_error());
    FZ_CHECK(pt->n == r->n, "%s: the reader has %zu pairs, the reference %zu", what, pt->n, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const pair_t *x = &r->p[i];
        FZ_CHECK(pt->line[i] == x->line, "%s: pair %zu on line %llu, reference %llu", what, i,
                 (unsigned long long)pt->line[i], (unsigned long long)x->line);
        FZ_CHECK(pt->len[2 * i] == x->lq && pt->len[2 * i + 1] == x->lt &&
                     memcmp(pt->seq[2 * i], x->q, x->lq) == 0 &&
                     memcmp(pt->seq[2 * i + 1], x->t, x->lt) == 0,
                 "%s: the pair of line %llu differs from the reference's", what,
                 (unsigned long long)x->line);
    }
}

static void one(const char *path, uint64_t max_len, const ref_t *r, const char *what) {
    wm_cli_pairtsv_t pt;
    memset(&pt, 0, sizeof pt);
    wm_cli_error("%s", "");
    int rc = wm_cli_pairtsv_open(&pt, path, max_len);
    if (rc != 0) FZ_CHECK(wm_cli_last_error()[0] != '\0', "%s: failed without a message", what);
    if (r->ok) compare(&pt, rc, r, what);
    else
        FZ_CHECK(rc != 0, "%s: the reference refuses the file, the reader reads %zu pairs", what,
                 pt.n);
    wm_cli_pairtsv_close(&pt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[400], what[100];
    wm_dist.rank = 1;                        /* wm_cli_error keeps its message but prints nothing */
    if (fz_compressed(data, size)) return 0; /* compressed itself */
    snprintf(path, sizeof path, "%s", fz_path("pairs"));
    static const uint64_t limits[2] = { 0, 3 };
    for (int l = 0; l < 2; l++) {
        ref_t r;
        ref_parse(data, size, limits[l], &r);
        snprintf(what, sizeof what, "file, limit %llu", (unsigned long long)limits[l]);
        fz_write(path, data, size);
        one(path, limits[l], &r, what);
        if (l == 0) {
            size_t gz_len;
            uint8_t *gz = fz_gzip(data, size, 1 + (int)(size % 2), size / 3, 0, &gz_len);
            fz_write(path, gz, gz_len);
            free(gz);
            one(path, 0, &r, "gzip");
            if (fz_stdin_begin(data, size) == 0) {
                one("-", 0, &r, "pipe");
                fz_stdin_end();
            }
        }
        free(r.p);
    }
    return 0;
}
