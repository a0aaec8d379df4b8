/*
** dtwio.c -- the inputs and the output lines of `warpmatch dtw` (dtwio.h):
** the format words, reading a signal file with the reader's message on
** failure, and printing a match with a short exact distance and its path.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dtwio.h"

const char *const wm_cli_sigfmt_words[] = { "auto", "text", "csv", "npy", "f32", "f64", NULL };
const wm_sigfmt_t wm_cli_sigfmt_values[] = { WM_SIGFMT_AUTO, WM_SIGFMT_TEXT, WM_SIGFMT_CSV,
                                             WM_SIGFMT_NPY, WM_SIGFMT_F32, WM_SIGFMT_F64 };

int wm_cli_dtw_read(const char *path, wm_sigfmt_t fmt, const char *column, int several,
                    wm_sigs_t *out) {
    char err[1024] = "";
    wm_sigread_opts_t o;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.column = column;
    o.several = several;
    if (wm_sig_read(path, &o, out, err, sizeof err) == 0)
        return 0;
    wm_cli_error("%s", err[0] ? err : "cannot read the signal");
    return -1;
}

const char *wm_cli_dtw_query_label(const wm_sigs_t *q, size_t i, char *buf, size_t buflen) {
    if (q->a[i].name != NULL && q->a[i].name[0] != '\0')
        return q->a[i].name;
    snprintf(buf, buflen, "%zu", i);
    return buf;
}

static void put_u64(FILE *f, uint64_t v) {
    char b[24], *p = b + sizeof b;
    do *--p = (char)('0' + v % 10); while (v /= 10);
    fwrite(p, 1, (size_t)(b + sizeof b - p), f);
}

void wm_cli_dtw_put_distance(FILE *f, double d) {
    char b[40];
    /* 15 digits read back exactly for most values and stay short (0.5, not
    ** 0.50000000000000000); 17 always do. The tool never calls setlocale, so
    ** the decimal point is '.'. */
    snprintf(b, sizeof b, "%.15g", d);
    if (strtod(b, NULL) != d)
        snprintf(b, sizeof b, "%.17g", d);
    fputs(b, f);
}

void wm_cli_dtw_put_match(FILE *f, const char *label, const wm_dtw_match_t *m, int path) {
    for (const char *c = label; *c; c++)        /* a tab would shift the columns */
        putc(*c == '\t' ? ' ' : *c, f);
    putc('\t', f);
    put_u64(f, m->start);
    putc('\t', f);
    put_u64(f, m->end);
    putc('\t', f);
    wm_cli_dtw_put_distance(f, m->distance);
    if (path) {
        putc('\t', f);
        for (uint64_t k = 0; k < m->path_len; k++) {
            if (k) putc(',', f);
            put_u64(f, m->path[2 * k]);
            putc(':', f);
            put_u64(f, m->path[2 * k + 1]);
        }
    }
    putc('\n', f);
}
