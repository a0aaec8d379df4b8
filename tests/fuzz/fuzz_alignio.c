/*
** fuzz_alignio.c -- the QUERY / TARGET inputs of `warpmatch align`
** (cli/alignio.c): a file (FASTA, FASTQ, plain; gzip; "-") or the sequence
** itself on the command line.
**
** The input is read as a file with (raw, allow_empty, max_len) = (0, 0, 0),
** (1, 0, 0) and (0, 1, 5), and as a literal argument (its bytes up to the
** first NUL) written seq:BYTES, and bare when no such file exists and it is
** not "-". Oracle, from alignio.h and the
** reference reader seqref.c (seqfile.h's format):
**   FASTA / FASTQ  the reference's records, bytes and names (a name with a
**                  control byte is an error: issue 21, F4; see seqref.h);
**   plain          one record named by the path: every byte (raw), or the
**                  bytes without blanks, any other byte outside 0x21..0x7e
**                  refusing the file;
**   literal        seq:BYTES is one record, BYTES, named by the role; a bare
**                  argument that names no file is refused (issue 20: a
**                  misspelt name is never a sequence);
** every record non-empty unless allow_empty, at most max_len bytes when
** max_len > 0; else a failure with a message. wm_cli_input_iupac is 1
** exactly when every record is IUPAC letters. A pipe and a gzip copy of
** the file read the same records.
*/
#include <ctype.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "alignio.h"
#include "cli.h"
#include "mpi/dist.h"
#include "seqref.h"

typedef struct {
    int ok;
    size_t n;
    const uint8_t **p;
    uint64_t *len;
    const char **name;
    uint8_t *own;
} want_t;

static void want_free(want_t *w) {
    free(w->p);
    free(w->len);
    free(w->name);
    free(w->own);
    memset(w, 0, sizeof *w);
}

static void want_alloc(want_t *w, size_t n) {
    w->n = n;
    w->p = calloc(n ? n : 1, sizeof *w->p);
    w->len = calloc(n ? n : 1, sizeof *w->len);
    w->name = calloc(n ? n : 1, sizeof *w->name);
    if (!w->p || !w->len || !w->name) abort();
}

/* The checks every record must pass. */
static void want_limits(want_t *w, int allow_empty, uint64_t max_len) {
    for (size_t i = 0; i < w->n && w->ok; i++)
        if ((w->len[i] == 0 && !allow_empty) || (max_len && w->len[i] > max_len)) w->ok = 0;
    if (w->n == 0) w->ok = 0;
}

static void want_file(want_t *w, const seqref_t *r, const uint8_t *data, size_t size, int raw,
                      const char *arg) {
    memset(w, 0, sizeof *w);
    if (!r->ok) return;
    w->ok = 1;
    if (r->format != 0) {
        want_alloc(w, r->n);
        for (size_t i = 0; i < r->n; i++) {
            w->p[i] = r->seq + r->start[i];
            w->len[i] = r->start[i + 1] - r->start[i];
            w->name[i] = r->name[i];
        }
        return;
    }
    want_alloc(w, 1);
    w->name[0] = arg;
    w->own = malloc(size + 1);
    if (!w->own) abort();
    size_t k = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t c = data[i];
        if (raw || (c > 0x20 && c < 0x7f)) w->own[k++] = c;
        else if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'))
            w->ok = 0;
    }
    w->p[0] = w->own;
    w->len[0] = k;
}

static int iupac(const uint8_t *p, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        if (!strchr("ACGTURYSWKMBDHVN", toupper(p[i])) || p[i] == 0) return 0;
    return 1;
}

static void check(const char *arg, int raw, int allow_empty, uint64_t max_len, const want_t *w,
                  int names, const char *what) {
    wm_cli_input_t in;
    memset(&in, 0, sizeof in);
    in.allow_empty = allow_empty;
    wm_cli_error("%s", "");
    int rc = wm_cli_input_open(&in, "query", arg, raw, max_len);
    if (rc != 0) {
        FZ_CHECK(wm_cli_last_error()[0] != '\0', "%s: failed without a message", what);
        FZ_CHECK(!w->ok, "%s: the reference reads %zu records, the reader says: %s", what, w->n,
                 wm_cli_last_error());
    } else {
        FZ_CHECK(w->ok, "%s: the reference refuses the input, the reader reads %zu records", what,
                 in.n_rec);
        FZ_CHECK(in.n_rec == w->n, "%s: %zu records, reference %zu", what, in.n_rec, w->n);
        int all_iupac = 1;
        for (size_t i = 0; i < w->n; i++) {
            uint64_t len;
            const uint8_t *p = wm_cli_input_rec(&in, i, &len);
            FZ_CHECK(len == w->len[i] && (len == 0 || memcmp(p, w->p[i], (size_t)len) == 0),
                     "%s: record %zu (%llu bytes) differs from the reference's (%llu bytes)", what,
                     i, (unsigned long long)len, (unsigned long long)w->len[i]);
            if (names)
                FZ_CHECK(strcmp(wm_cli_input_name(&in, i), w->name[i]) == 0,
                         "%s: record %zu named '%s', reference '%s'", what, i,
                         wm_cli_input_name(&in, i), w->name[i]);
            all_iupac &= iupac(w->p[i], w->len[i]);
        }
        FZ_CHECK(wm_cli_input_iupac(&in) == all_iupac, "%s: iupac %d, reference %d", what,
                 wm_cli_input_iupac(&in), all_iupac);
    }
    wm_cli_input_close(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const struct {
        int raw, allow_empty;
        uint64_t max_len;
    } modes[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 5 } };
    char path[400], what[200];
    wm_dist.rank = 1; /* wm_cli_error keeps its message but prints nothing */
    snprintf(path, sizeof path, "%s", fz_path("query"));
    int gz_magic = fz_compressed(data, size); /* gzip, or any compressed magic */
    seqref_t r;
    seqref_parse(data, size, 0, &r);

    for (int m = 0; m < 3 && !gz_magic; m++) {
        want_t w;
        want_file(&w, &r, data, size, modes[m].raw, path);
        want_limits(&w, modes[m].allow_empty, modes[m].max_len);
        snprintf(what, sizeof what, "file, raw %d, allow_empty %d, max_len %llu", modes[m].raw,
                 modes[m].allow_empty, (unsigned long long)modes[m].max_len);
        fz_write(path, data, size);
        check(path, modes[m].raw, modes[m].allow_empty, modes[m].max_len, &w, 1, what);
        if (m == 0) {
            size_t gz_len;
            uint8_t *gz = fz_gzip(data, size, 1, 0, size % 2 ? 3 : 0, &gz_len);
            fz_write(path, gz, gz_len);
            free(gz);
            check(path, 0, 0, 0, &w, 1, "gzip");
            if (fz_stdin_begin(data, size) == 0) {
                check("-", 0, 0, 0, &w, 0, "pipe");
                fz_stdin_end();
            }
        }
        want_free(&w);
    }
    seqref_free(&r);

    /* The bytes as an argument: bare, a missing file; after seq:, the sequence. */
    char *arg = strndup((const char *)data, size < 4096 ? size : 4096);
    struct stat st;
    if (arg && strcmp(arg, "-") != 0 && strncmp(arg, WM_CLI_LITERAL_PREFIX, 4) != 0 &&
        stat(arg, &st) != 0) {
        want_t w;
        memset(&w, 0, sizeof w);
        check(arg, 0, 0, 0, &w, 1, "a bare argument naming no file");
    }
    char *lit = arg ? malloc(strlen(arg) + sizeof WM_CLI_LITERAL_PREFIX) : NULL;
    if (lit) {
        want_t w;
        memset(&w, 0, sizeof w);
        strcpy(lit, WM_CLI_LITERAL_PREFIX);
        strcat(lit, arg);
        w.ok = 1;
        want_alloc(&w, 1);
        w.p[0] = (const uint8_t *)arg;
        w.len[0] = strlen(arg);
        w.name[0] = "query";
        want_limits(&w, 0, 0);
        check(lit, 0, 0, 0, &w, 1, "literal");
        want_free(&w);
        free(lit);
    }
    free(arg);
    return 0;
}
