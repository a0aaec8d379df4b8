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
** WM_FUZZ_TOLERATE=F7 accepts the old reading too: such a line refused, or
** split at its one tab.
*/
#include <string.h>

#include "fuzz.h"
#include "cli.h"
#include "mpi/dist.h"
#include "pairtsv.h"

typedef struct {
    const uint8_t *q, *t;
    uint64_t lq, lt, line;
    int maybe_blank; /* spaces and one tab: may be skipped */
} pair_t;

typedef struct {
    int ok;
    size_t n;
    pair_t *p;
} ref_t;

static void ref_parse(const uint8_t *p, size_t n, uint64_t max_len, ref_t *r) {
    int tolerate_f7 = fz_tolerate("F7");
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
                free(r->p);
                r->p = NULL;
                return;
            }
        }
        size_t len = (size_t)(e - p);
        int only_blank = spaces + tabs == len;
        if (len == 0 || (only_blank && !tolerate_f7)) {
            p = next;
            continue;
        }
        if (tabs != 1 || (only_blank && tabs == 0)) {
            if (only_blank) { /* spaces and tabs: blank, or two tabs */
                r->p = realloc(r->p, (r->n + 1) * sizeof *r->p);
                if (!r->p) abort();
                r->p[r->n++] = (pair_t){ NULL, NULL, 0, 0, line, 2 };
                p = next;
                continue;
            }
            free(r->p);
            r->p = NULL;
            return;
        }
        uint64_t lq = (uint64_t)(tab - p), lt = (uint64_t)(e - tab - 1);
        if (max_len && (lq > max_len || lt > max_len)) {
            if (only_blank) {
                r->p = realloc(r->p, (r->n + 1) * sizeof *r->p);
                if (!r->p) abort();
                r->p[r->n++] = (pair_t){ NULL, NULL, 0, 0, line, 2 };
                p = next;
                continue;
            }
            free(r->p);
            r->p = NULL;
            return;
        }
        r->p = realloc(r->p, (r->n + 1) * sizeof *r->p);
        if (!r->p) abort();
        r->p[r->n++] = (pair_t){ p, tab + 1, lq, lt, line, only_blank };
        p = next;
    }
    r->ok = 1;
}

/* The reader's pairs against the reference's, where a maybe-blank line may
** be a pair (kind 1), skipped, or (kind 2: two tabs or too long) refuse the
** file. Returns 0, or 1 when the reader's failure is explained by such a line. */
static int compare(const wm_cli_pairtsv_t *pt, int rc, const ref_t *r, const char *what) {
    int may_fail = 0;
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++) {
        const pair_t *x = &r->p[i];
        if (x->maybe_blank == 2) {
            may_fail = 1;
            continue;
        }
        if (rc != 0) continue;
        if (k < pt->n && pt->line[k] == x->line) {
            FZ_CHECK(pt->len[2 * k] == x->lq && pt->len[2 * k + 1] == x->lt &&
                         memcmp(pt->seq[2 * k], x->q, x->lq) == 0 &&
                         memcmp(pt->seq[2 * k + 1], x->t, x->lt) == 0,
                     "%s: the pair of line %llu differs from the reference's", what,
                     (unsigned long long)x->line);
            k++;
        } else {
            FZ_CHECK(x->maybe_blank, "%s: line %llu is a pair, the reader skips it", what,
                     (unsigned long long)x->line);
        }
    }
    if (rc != 0) {
        int none = 1;
        for (size_t i = 0; i < r->n; i++) none &= r->p[i].maybe_blank != 0;
        FZ_CHECK(may_fail || none, "%s: the reference reads %zu pairs, the reader fails: %s", what,
                 r->n, wm_cli_last_error());
        return 1;
    }
    FZ_CHECK(k == pt->n, "%s: the reader has %zu pairs, the reference %zu", what, pt->n, k);
    return 0;
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
    wm_dist.rank = 1; /* wm_cli_error keeps its message but prints nothing */
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) return 0; /* gzip itself */
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
