/*
** pairtsv.c -- reading a file of tab-separated pairs (see pairtsv.h).
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pairtsv.h"

static const char *shown(const char *path) { return strcmp(path, "-") == 0 ? "(stdin)" : path; }

static int grow(wm_cli_pairtsv_t *p, size_t *cap) {
    size_t c = *cap ? *cap * 2 : 1024;
    const uint8_t **seq = realloc(p->seq, 2 * c * sizeof *seq);
    if (!seq) return -1;
    p->seq = seq;
    uint64_t *len = realloc(p->len, 2 * c * sizeof *len);
    if (!len) return -1;
    p->len = len;
    uint64_t *line = realloc(p->line, c * sizeof *line);
    if (!line) return -1;
    p->line = line;
    *cap = c;
    return 0;
}

int wm_cli_pairtsv_open(wm_cli_pairtsv_t *p, const char *path, uint64_t max_len) {
    char err[1200] = "";
    wm_status st = wm_seqfile_read(path, 1, &p->sf, err, sizeof err);
    if (st != WM_OK) {
        if (err[0]) wm_cli_error("%s", err);
        else wm_cli_error("%s: %s", shown(path), wm_strerror(st));
        return -1;
    }
    const uint8_t *b = p->sf.text.seq, *end = b + p->sf.text.len;
    size_t cap = 0;
    for (uint64_t line = 1; b < end; line++) {
        const uint8_t *nl = memchr(b, '\n', (size_t)(end - b));
        const uint8_t *e = nl ? nl : end;
        if (e > b && e[-1] == '\r') e--;
        const uint8_t *tab = NULL;
        int tabs = 0;
        for (const uint8_t *c = b; c < e; c++) {
            if (*c == '\t') {
                if (!tabs++) tab = c;
            } else if (*c < 0x20 || *c >= 0x7f) {
                wm_cli_error("%s:%llu: byte 0x%02x at column %llu: a pair file holds "
                             "printable sequences and one tab a line (binary file?)",
                             shown(path), (unsigned long long)line, *c,
                             (unsigned long long)(c - b + 1));
                return -1;
            }
        }
        /* Blank: empty, or nothing but spaces and tabs (not a pair of two
        ** empty sequences: a line of one tab is blank too). */
        int blank = 1;
        for (const uint8_t *c = b; c < e && blank; c++) blank = *c == ' ' || *c == '\t';
        if (!blank) {
            if (tabs == 0) {
                wm_cli_error("%s:%llu: no tab: each line of a pair file is QUERY<TAB>TARGET",
                             shown(path), (unsigned long long)line);
                return -1;
            }
            if (tabs > 1) {
                wm_cli_error("%s:%llu: more than one tab: each line of a pair file is "
                             "QUERY<TAB>TARGET",
                             shown(path), (unsigned long long)line);
                return -1;
            }
            uint64_t lq = (uint64_t)(tab - b), lt = (uint64_t)(e - tab - 1);
            if (max_len && (lq > max_len || lt > max_len)) {
                wm_cli_error(
                    "%s:%llu: the %s is %llu bytes long; the longest allowed is %llu", shown(path),
                    (unsigned long long)line, lq > max_len ? "query" : "target",
                    (unsigned long long)(lq > max_len ? lq : lt), (unsigned long long)max_len);
                return -1;
            }
            if (p->n == cap && grow(p, &cap) < 0) {
                wm_cli_error("%s: out of memory after %zu pairs", shown(path), p->n);
                return -1;
            }
            p->seq[2 * p->n] = b;
            p->seq[2 * p->n + 1] = tab + 1;
            p->len[2 * p->n] = lq;
            p->len[2 * p->n + 1] = lt;
            p->line[p->n++] = line;
        }
        b = nl ? nl + 1 : end;
    }
    if (p->n == 0) {
        wm_cli_error("%s: no pairs (every line is blank)", shown(path));
        return -1;
    }
    return 0;
}

void wm_cli_pairtsv_close(wm_cli_pairtsv_t *p) {
    wm_seqfile_close(&p->sf);
    free(p->seq);
    free(p->len);
    free(p->line);
    memset(p, 0, sizeof *p);
}
