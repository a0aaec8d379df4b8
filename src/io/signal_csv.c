/*
** signal_csv.c -- one column of a CSV (or semicolon- or tab-separated) file
** as a signal (the rules are in signal.h).
**
** Line by line: '#' and blank lines are skipped; the first other line fixes
** the delimiter and the number of columns and is the header when one of its
** fields is not a number; every later line is split only as far as needed
** to find the chosen field and count the rest.
*/
#include "io/signal_impl.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <strings.h>

#define WM_CSV_BLOCK ((size_t)1 << 20)
/* Column names listed in a message, at most. */
#define WM_CSV_LIST 12

/* ------------------------------------------------------------------------ */
/* fields                                                                     */
/* ------------------------------------------------------------------------ */

typedef struct {
    const char *p, *end;
    char delim;
    int done; /* the last field was returned */
} csv_cur_t;

static int is_blank(const csv_cur_t *c, char ch) {
    return (ch == ' ' || ch == '\t') && ch != c->delim;
}

/* The next field of the line: its content [*fs, *fe) without the blanks
** around it or its quotes (a doubled quote inside stays doubled: such a
** field is never a number, and names are unquoted by unquote()). Returns 0
** after the last field. A line "a,b," has three fields, the last empty. */
static int next_field(csv_cur_t *c, const char **fs, const char **fe, int *quoted) {
    const char *p = c->p, *end = c->end;
    if (c->done) return 0;
    while (p < end && is_blank(c, *p)) p++;
    *quoted = p < end && *p == '"';
    if (*quoted) {
        *fs = ++p;
        while (p < end && !(*p == '"' && !(p + 1 < end && p[1] == '"'))) p += *p == '"' ? 2 : 1;
        *fe = p;
        if (p < end) p++; /* the closing quote; what follows up to the delimiter is ignored */
        while (p < end && *p != c->delim) p++;
    } else {
        *fs = p;
        while (p < end && *p != c->delim) p++;
        const char *e = p;
        while (e > *fs && is_blank(c, e[-1])) e--;
        *fe = e;
    }
    if (p < end) c->p = p + 1;
    else c->done = 1;
    return 1;
}

static void cur_init(csv_cur_t *c, const char *line, size_t len, char delim) {
    c->p = line;
    c->end = line + len;
    c->delim = delim;
    c->done = 0;
}

/* The delimiter of a line: the most frequent of ',' ';' tab outside quotes
** (',' on a tie or when there is none: a one-column file). */
static char pick_delim(const char *p, size_t n) {
    static const char cand[3] = { ',', ';', '\t' };
    size_t count[3] = { 0, 0, 0 };
    int in_quotes = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"') in_quotes = !in_quotes;
        else if (!in_quotes)
            for (int k = 0; k < 3; k++) count[k] += p[i] == cand[k];
    }
    int best = 0;
    for (int k = 1; k < 3; k++)
        if (count[k] > count[best]) best = k;
    return cand[best];
}

/* A quoted field's content with "" turned into ", as a new string. */
static char *unquote(const char *fs, const char *fe) {
    char *out = malloc((size_t)(fe - fs) + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = fs; p < fe; p++) {
        *o++ = *p;
        if (*p == '"' && p + 1 < fe && p[1] == '"') p++;
    }
    *o = '\0';
    return out;
}

static int is_skipped(const char *line, size_t len) {
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    return i == len || line[i] == '#';
}

/* ------------------------------------------------------------------------ */
/* the reader                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
    wm_sigsrc_t *s;
    char delim;
    size_t n_cols;
    char **names; /* n_cols header names; NULL without a header */
    size_t col;   /* the chosen column */
    wm_sigvec_t a;
} csv_t;

static void csv_free(csv_t *c) {
    if (c->names)
        for (size_t i = 0; i < c->n_cols; i++) free(c->names[i]);
    free(c->names);
    free(c->a.v);
}

/* The first data-or-header line: columns, delimiter, header names. */
static int read_first(csv_t *c, const char *line, size_t len, int *is_header) {
    csv_cur_t cur;
    const char *fs, *fe;
    int quoted;
    double x;

    c->delim = pick_delim(line, len);
    cur_init(&cur, line, len, c->delim);
    *is_header = 0;
    c->n_cols = 0;
    while (next_field(&cur, &fs, &fe, &quoted)) {
        c->n_cols++;
        if (wm_sig_number(fs, fe, &x) != WM_NUM_OK) *is_header = 1;
    }
    if (!*is_header) return 0;
    c->names = calloc(c->n_cols, sizeof *c->names);
    if (!c->names) return wm_sig_fail(c->s, ": out of memory");
    cur_init(&cur, line, len, c->delim);
    for (size_t i = 0; next_field(&cur, &fs, &fe, &quoted); i++) {
        c->names[i] = unquote(fs, fe);
        if (!c->names[i]) return wm_sig_fail(c->s, ": out of memory");
    }
    return 0;
}

/* "a, b, c" (the first WM_CSV_LIST names, then "..."). */
static void list_names(const csv_t *c, char *out, size_t out_len) {
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < c->n_cols && o + 1 < out_len; i++) {
        int k = i < WM_CSV_LIST ? snprintf(out + o, out_len - o, "%s%s", i ? ", " : "", c->names[i])
                                : snprintf(out + o, out_len - o, ", ...");
        if (k < 0) break;
        o += (size_t)k;
        if (i >= WM_CSV_LIST) break;
    }
}

static int all_digits(const char *s) {
    if (!*s) return 0;
    for (; *s; s++)
        if ((unsigned)(*s - '0') > 9) return 0;
    return 1;
}

/* Which column --column names: a header name exactly, then a 0-based number,
** then a header name in any case. */
static int choose_column(csv_t *c, const char *want) {
    char list[600];
    if (!want) {
        if (c->n_cols == 1) {
            c->col = 0;
            return 0;
        }
        if (!c->names)
            return wm_sig_fail(
                c->s, " has %zu columns (no header; numbered 0 to %zu): choose one with --column",
                c->n_cols, c->n_cols - 1);
        list_names(c, list, sizeof list);
        return wm_sig_fail(c->s, " has %zu columns (%s): choose one with --column", c->n_cols,
                           list);
    }
    if (c->names)
        for (size_t i = 0; i < c->n_cols; i++)
            if (strcmp(c->names[i], want) == 0) {
                c->col = i;
                return 0;
            }
    if (all_digits(want)) {
        unsigned long long k = strtoull(want, NULL, 10);
        if (k >= c->n_cols)
            return wm_sig_fail(c->s, ": no column %s: the columns are numbered 0 to %zu", want,
                               c->n_cols - 1);
        c->col = (size_t)k;
        return 0;
    }
    if (!c->names)
        return wm_sig_fail(c->s,
                           ": no column named '%s': the file has no header line, "
                           "so give a 0-based number (0 to %zu)",
                           want, c->n_cols - 1);
    for (size_t i = 0; i < c->n_cols; i++)
        if (strcasecmp(c->names[i], want) == 0) {
            c->col = i;
            return 0;
        }
    list_names(c, list, sizeof list);
    return wm_sig_fail(c->s, ": no column named '%s' (the columns are %s)", want, list);
}

/* One data line: the chosen field as the next sample. */
static int data_line(csv_t *c, const char *line, size_t len, uint64_t lineno) {
    csv_cur_t cur;
    const char *fs, *fe, *vs = NULL, *ve = NULL;
    int quoted;
    size_t k = 0;
    double x;

    cur_init(&cur, line, len, c->delim);
    for (; next_field(&cur, &fs, &fe, &quoted); k++)
        if (k == c->col) {
            vs = fs;
            ve = fe;
        }
    if (k < c->n_cols)
        return wm_sig_fail(c->s, ":%" PRIu64 ": %zu field%s, but the %s has %zu", lineno, k,
                           k == 1 ? "" : "s", c->names ? "header" : "first line", c->n_cols);
    int why = wm_sig_number(vs, ve, &x);
    if (why != WM_NUM_OK) return wm_sig_fail_number(c->s, lineno, why, vs, (size_t)(ve - vs));
    if (!isfinite(x))
        return wm_sig_fail(c->s, ":%" PRIu64 ": sample %" PRIu64 " is %s", lineno, c->a.n,
                           wm_sig_nonfinite(x));
    return wm_sigvec_push(&c->a, x, c->s);
}

int wm_sig_read_csv(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out) {
    csv_t c;
    wm_sigwin_t w;
    const char *line;
    size_t len;
    uint64_t lineno = 0;
    int got, rc = 0, first = 1;

    memset(&c, 0, sizeof c);
    c.s = s;
    if (wm_sigwin_init(&w, s, WM_CSV_BLOCK) != 0) return -1;
    while ((got = wm_sigwin_line(&w, s, &line, &len)) == 1) {
        lineno++;
        if (is_skipped(line, len)) continue;
        if (first) {
            int is_header;
            first = 0;
            rc = read_first(&c, line, len, &is_header);
            if (rc == 0) rc = choose_column(&c, o->column);
            if (rc != 0) goto done;
            if (is_header) continue;
        }
        if ((rc = data_line(&c, line, len, lineno)) != 0) goto done;
    }
    if (got < 0) rc = -1;
    else if (c.a.n == 0) rc = wm_sig_fail(s, ": no samples");
    else
        rc = wm_sigset_add(out, &c.a, 0, 1, c.names ? c.names[c.col] : NULL,
                           c.names ? strlen(c.names[c.col]) : 0, s);
done:
    wm_sigwin_free(&w);
    csv_free(&c);
    return rc;
}
