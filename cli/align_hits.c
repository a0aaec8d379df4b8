/*
** align_hits.c -- what `warpmatch align` prints for one query, decided once
** all its alignments are in (align.h):
**
**   strands   with both (--revcomp; the default for DNA in infix mode) the
**             reverse complement of every query is aligned too, and per
**             target record the strand with the smaller distance is kept;
**             on a tie '+' (as the leftmost end wins a tie of ends), so a
**             pair prints one row (more with --all-ends, all of one strand)
**   --best    only the target records whose distance is the query's best
**             (ties: all of them, in target order)
**   SAM/PAF   the first row at the best distance is the primary, the others
**             secondary (flag 256, tp:A:S); MAPQ 60 when the primary is the
**             only row at the best distance, else 0 (secondary rows: 0);
**             SAM prints a query with no row as unmapped (flag 4)
**
** Rows come in the order the pairs were aligned (target record, then
** strand, then end), and leave in that order.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "align.h"
#include "out.h"

/* ---- strands ------------------------------------------------------------------- */

static void revcomp(uint8_t *dst, const uint8_t *src, uint64_t m) {
    for (uint64_t i = 0; i < m; ++i) dst[i] = wm_out_complement(src[m - 1 - i]);
}

int wm_cli_align_strands(wm_cli_align_run_t *r) {
    const wm_cli_align_args_t *a = r->a;
    /* The alphabet is the data's (or --alphabet's), never --revcomp's: under
    ** auto a text target has been refused with --revcomp already
    ** (wm_cli_align_alphabet), where the sniff can say why. */
    int dna = r->o.alphabet == WM_ALPHABET_DNA;
    if (a->strands == 2 && !dna) {
        wm_cli_error("--revcomp needs DNA: the alphabet is text here (--alphabet %s); leave "
                     "--revcomp out",
                     a->sh.alphabet == WM_ALPHA_TEXT ? "text" : "auto");
        return -1;
    }
    r->both_strands = a->strands == 2 || (a->strands == 0 && dna && r->o.mode == WM_ALIGN_INFIX);
    if (!r->both_strands) return 0;
    if (r->tsv) {
        uint64_t total = 0;
        r->rc_at = malloc((r->pt.n + 1) * sizeof *r->rc_at);
        if (r->rc_at == NULL) goto nomem;
        for (size_t i = 0; i < r->pt.n; ++i) {
            r->rc_at[i] = total;
            total += r->pt.len[2 * i];
        }
        r->rc_at[r->pt.n] = total;
        r->rc = malloc(total ? (size_t)total : 1);
        if (r->rc == NULL) goto nomem;
        for (size_t i = 0; i < r->pt.n; ++i)
            revcomp(r->rc + r->rc_at[i], r->pt.seq[2 * i], r->pt.len[2 * i]);
        return 0;
    }
    uint64_t total = r->q.starts[r->q.n_rec] - r->q.starts[0];
    r->rc = malloc(total ? (size_t)total : 1);
    if (r->rc == NULL) goto nomem;
    for (size_t i = 0; i < r->q.n_rec; ++i) {
        uint64_t m;
        const uint8_t *q = wm_cli_input_rec(&r->q, i, &m);
        revcomp(r->rc + (r->q.starts[i] - r->q.starts[0]), q, m);
    }
    return 0;
nomem:
    wm_cli_error("no memory for the reverse complements of the queries (--no-revcomp "
                 "aligns the forward strand alone)");
    return -1;
}

const uint8_t *wm_cli_align_rc(const wm_cli_align_run_t *r, size_t qi) {
    if (r->tsv) return r->rc + r->rc_at[qi];
    return r->rc + (r->q.starts[qi] - r->q.starts[0]);
}

void wm_cli_align_free_strands(wm_cli_align_run_t *r) {
    free(r->rc);
    free(r->rc_at);
    r->rc = NULL;
    r->rc_at = NULL;
    for (size_t i = 0; i < r->hits.n; ++i) {
        free(r->hits.v[i].tname);
        free(r->hits.v[i].al.cigar);
    }
    free(r->hits.v);
    memset(&r->hits, 0, sizeof r->hits);
}

/* ---- gathering ------------------------------------------------------------------ */

int wm_cli_hits_begin(wm_cli_align_run_t *r, size_t key, const char *qname, const uint8_t *seq,
                      uint64_t m, const uint8_t *qual) {
    wm_cli_hits_t *h = &r->hits;
    if (h->open && h->key == key) return 0;
    if (h->open && wm_cli_hits_flush(r) < 0) return -1;
    h->open = 1;
    h->key = key;
    h->qname = qname;
    h->seq = seq;
    h->m = m;
    h->qual = qual;
    return 0;
}

void wm_cli_hits_add(wm_cli_align_run_t *r, size_t ti, const char *tname, uint64_t tlen, int strand,
                     wm_alignment_t *al) {
    wm_cli_hits_t *h = &r->hits;
    if (h->failed) return;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 16;
        wm_cli_hit_t *v = realloc(h->v, cap * sizeof *v);
        if (v == NULL) {
            h->failed = 1;
            return;
        }
        h->v = v;
        h->cap = cap;
    }
    wm_cli_hit_t *x = &h->v[h->n];
    x->tname = strdup(tname);
    if (x->tname == NULL) {
        h->failed = 1;
        return;
    }
    x->ti = ti;
    x->tlen = tlen;
    x->strand = strand;
    x->al = *al;
    al->cigar = NULL; /* ours now */
    h->n++;
}

/* ---- deciding and printing ----------------------------------------------------- */

static wm_out_align_fmt_t out_fmt(const wm_cli_align_run_t *r) {
    wm_cli_format_t f = r->a->sh.format;
    if (f == WM_OUT_JSON) return WM_OUT_ALIGN_JSON;
    if (f == WM_OUT_SAM) return WM_OUT_ALIGN_SAM;
    if (f == WM_OUT_PAF) return WM_OUT_ALIGN_PAF;
    return WM_OUT_ALIGN_TSV;
}

int wm_cli_hits_flush(wm_cli_align_run_t *r) {
    wm_cli_hits_t *h = &r->hits;
    int rc = 0;
    if (!h->open) return 0;
    if (h->failed) {
        wm_cli_error("%s", wm_strerror(WM_NOMEM));
        rc = -1;
        goto done;
    }
    /* Per target record, the better strand (rows of one record are adjacent). */
    size_t keep = 0;
    for (size_t i = 0; i < h->n;) {
        size_t j = i;
        uint64_t best = UINT64_MAX;
        while (j < h->n && h->v[j].ti == h->v[i].ti) {
            if (h->v[j].al.distance < best) best = h->v[j].al.distance;
            j++;
        }
        int strand = -1; /* the first to reach the best: '+' wins a tie */
        for (size_t k = i; k < j && strand < 0; ++k)
            if (h->v[k].al.distance == best) strand = h->v[k].strand;
        for (size_t k = i; k < j; ++k) {
            if (h->v[k].al.distance == best && h->v[k].strand == strand) {
                h->v[keep++] = h->v[k];
            } else {
                free(h->v[k].tname);
                free(h->v[k].al.cigar);
            }
        }
        i = j;
    }
    h->n = keep;
    uint64_t best = UINT64_MAX;
    size_t n_best = 0;
    for (size_t i = 0; i < h->n; ++i) {
        if (h->v[i].al.distance < best) best = h->v[i].al.distance, n_best = 0;
        n_best += h->v[i].al.distance == best;
    }
    if (r->pg.enabled) wm_progress_clear(&r->pg); /* rows never land in its line */
    wm_out_align_fmt_t fmt = out_fmt(r);
    wm_out_align_row_t row = { h->qname, NULL, h->seq, h->qual, h->m, 0, 0, 0, 0, NULL };
    int primary_done = 0;
    for (size_t i = 0; i < h->n; ++i) {
        const wm_cli_hit_t *x = &h->v[i];
        if (r->a->best && x->al.distance != best) continue;
        row.tname = x->tname;
        row.tlen = x->tlen;
        row.strand = x->strand;
        row.al = &x->al;
        row.secondary = primary_done || x->al.distance != best;
        row.mapq = row.secondary || n_best > 1 ? 0 : 60;
        primary_done |= !row.secondary;
        wm_out_align(r->out, fmt, r->a->o.cigar, r->a->cigar_m, &row);
        r->n_printed++;
    }
    if (h->n == 0 && fmt == WM_OUT_ALIGN_SAM) {
        row.tname = "*";
        wm_out_align(r->out, fmt, 0, 0, &row); /* unmapped: al NULL */
    }
    wm_out_flush_due(r->out, &r->t_flush, 0.5);
done:
    for (size_t i = 0; i < h->n; ++i) {
        free(h->v[i].tname);
        free(h->v[i].al.cigar);
    }
    h->n = 0;
    h->open = 0;
    h->failed = 0;
    return rc;
}

/* ---- the SAM header ------------------------------------------------------------- */

void wm_cli_align_sam_header(wm_cli_align_run_t *r, int argc, char **argv) {
    FILE *out = r->out;
    fputs("@HD\tVN:1.6\tSO:unsorted\n", out);
    if (r->tsv) {
        for (size_t i = 0; i < r->pt.n; ++i)
            fprintf(out, "@SQ\tSN:%llu\tLN:%llu\n", (unsigned long long)r->pt.line[i],
                    (unsigned long long)r->pt.len[2 * i + 1]);
    } else {
        for (size_t i = 0; i < r->t.n_rec; ++i) {
            uint64_t n;
            (void)wm_cli_input_rec(&r->t, i, &n);
            fprintf(out, "@SQ\tSN:%s\tLN:%llu\n", wm_cli_input_name(&r->t, i),
                    (unsigned long long)n);
        }
    }
    fputs("@PG\tID:warpmatch\tPN:warpmatch\tCL:warpmatch", out);
    for (int i = 0; i < argc; ++i) {
        /* CL is one field: tabs and line breaks in an argument print as spaces */
        putc(' ', out);
        for (const char *c = argv[i]; *c; ++c) putc(*c == '\t' || *c == '\n' ? ' ' : *c, out);
    }
    putc('\n', out);
}
