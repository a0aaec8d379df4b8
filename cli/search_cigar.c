/*
** search_cigar.c -- the CIGAR of a reported occurrence (search's SAM output):
** the pattern as searched on its strand aligned with text[start, end).
**
** The rule is align's canonical one (src/align/traceback.c): from the last
** cell back, the first of diagonal ('=' or 'X'), up ('I'), left ('D') whose
** value plus its cost is the current cell's. It is computed here, on a plain
** table, because the match rule is search's: an IUPAC code in a DNA pattern
** matches every base it names (align reads R as a mismatch of G), so the
** CIGAR's X and indels add up to the errors printed. Hamming occurrences are
** gapless: = and X only. Occurrences are short (a pattern plus k), so the
** table is small; past WM_CLI_CIGAR_MAX_CELLS the CIGAR is SAM's '*'.
*/
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "search.h"
#include "search/search.h"

#define WM_CLI_CIGAR_MAX_CELLS (1ull << 26)

/* Append run (n, op) to the string at *s (length *len, room *cap). */
static int put_run(char **s, size_t *len, size_t *cap, size_t n, char op) {
    if (*len + 24 > *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        char *q = realloc(*s, nc);
        if (!q) return -1;
        *s = q;
        *cap = nc;
    }
    *len += (size_t)sprintf(*s + *len, "%zu%c", n, op);
    return 0;
}

/* Run-length encode ops[0, n) read backwards (the traceback's order). */
static char *encode_reversed(const char *ops, size_t n) {
    char *s = NULL;
    size_t len = 0, cap = 0;
    for (size_t i = n; i > 0;) {
        size_t j = i;
        while (j > 0 && ops[j - 1] == ops[i - 1]) j--;
        if (put_run(&s, &len, &cap, i - j, ops[i - 1])) {
            free(s);
            return NULL;
        }
        i = j;
    }
    if (!s) s = calloc(1, 1);
    return s;
}

char *wm_cli_occurrence_cigar(const wm_cli_cigar_rule_t *r, const uint8_t *p, size_t m,
                              const uint8_t *t, size_t n) {
    char *ops = malloc(m + n + 1);
    if (!ops) return NULL;
    size_t k = 0;
    if (r->hamming) {
        if (n != m) {
            free(ops);
            return NULL;
        }
        for (size_t i = m; i > 0; i--)
            ops[k++] = wm_pat_accepts(&r->o, p[i - 1], t[i - 1]) ? '=' : 'X';
        char *s = encode_reversed(ops, k);
        free(ops);
        return s;
    }
    if ((uint64_t)(m + 1) * (n + 1) > WM_CLI_CIGAR_MAX_CELLS) {
        free(ops);
        return strdup("*");
    }
    size_t w = n + 1;
    uint32_t *D = malloc((m + 1) * w * sizeof *D);
    if (!D) {
        free(ops);
        return NULL;
    }
    for (size_t j = 0; j <= n; j++) D[j] = (uint32_t)j;
    for (size_t i = 1; i <= m; i++) {
        uint32_t *row = D + i * w, *up = row - w;
        row[0] = (uint32_t)i;
        for (size_t j = 1; j <= n; j++) {
            uint32_t d = up[j - 1] + !wm_pat_accepts(&r->o, p[i - 1], t[j - 1]);
            uint32_t a = up[j] + 1, b = row[j - 1] + 1;
            row[j] = d < a ? (d < b ? d : b) : (a < b ? a : b);
        }
    }
    /* the canonical walk back: diagonal, then up (I), then left (D) */
    for (size_t i = m, j = n; i > 0 || j > 0;) {
        uint32_t cur = D[i * w + j];
        if (i > 0 && j > 0) {
            int eq = wm_pat_accepts(&r->o, p[i - 1], t[j - 1]);
            if (D[(i - 1) * w + j - 1] + !eq == cur) {
                ops[k++] = eq ? '=' : 'X';
                i--, j--;
                continue;
            }
        }
        if (i > 0 && D[(i - 1) * w + j] + 1 == cur) {
            ops[k++] = 'I';
            i--;
        } else {
            ops[k++] = 'D';
            j--;
        }
    }
    free(D);
    char *s = encode_reversed(ops, k);
    free(ops);
    return s;
}

char *wm_cli_match_cigar(const wm_cli_search_sink_t *s, const wm_match_t *m) {
    const wm_cli_search_args_t *a = s->a;
    const wm_text_t *t = &s->sf->text;
    const uint8_t *p = a->is_set ? a->set.pat[m->pattern] : (const uint8_t *)a->pattern;
    size_t len = a->is_set ? a->set.len[m->pattern] : a->m;
    /* the pattern as it aligns: its reverse complement on '-' */
    uint8_t *aligned = malloc(len ? len : 1);
    if (aligned == NULL) return NULL;
    for (size_t j = 0; j < len; ++j)
        aligned[j] = m->strand ? wm_out_complement(p[len - 1 - j]) : p[j];
    uint64_t rb = t->rec_start != NULL && m->record < t->n_rec ? t->rec_start[m->record] : 0;
    uint64_t off = s->base != NULL ? s->base[m->record] : 0; /* an MPI rank's record offset */
    wm_cli_cigar_rule_t rule = { a->o, a->o.metric == WM_METRIC_HAMMING };
    rule.o.alphabet = s->dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES; /* the file's */
    char *cigar = wm_cli_occurrence_cigar(&rule, aligned, len, t->seq + rb + (m->start - off),
                                          (size_t)(m->end - m->start));
    free(aligned);
    return cigar;
}
