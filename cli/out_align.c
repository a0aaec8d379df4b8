/*
** out_align.c -- the lines `warpmatch align` prints (out.h): one alignment
** a line, TSV, JSON Lines, SAM or PAF.
**
** SAM and PAF describe the alignment from the target's side, as aligners
** do: a '-' row aligns the reverse complement of the query, so SAM's SEQ
** and QUAL are reverse-complemented and reversed, and PAF's query
** coordinates are on the query as given (minimap2's convention).
*/
#include <string.h>

#include "out.h"

uint8_t wm_out_complement(uint8_t c) {
    /* IUPAC pairs: A-T (U), C-G, R-Y, K-M, B-V, D-H; S, W, N are their own. */
    static const char from[] = "ACGTURYKMBVDHSWNacgturykmbvdhswn";
    static const char to[] = "TGCAAYRMKVBHDSWNtgcaayrmkvbhdswn";
    const char *p = c ? strchr(from, c) : NULL;
    return p ? (uint8_t)to[p - from] : c;
}

/* ---- TSV and JSON ------------------------------------------------------------ */

static void put_tsv_json(FILE *out, int json, int cigar, const wm_out_align_row_t *row) {
    const wm_alignment_t *al = row->al;
    /* A CIGAR was asked for; NULL should never show. "" is the empty
    ** alignment (global mode, both sequences empty): * in TSV, as in SAM. */
    const char *cig = al->cigar != NULL ? al->cigar : "*";
    const char *strand = row->strand ? "-" : "+";
    if (json) {
        fputs("{\"query\":", out);
        wm_out_json_cstr(out, row->qname);
        fputs(",\"target\":", out);
        wm_out_json_cstr(out, row->tname);
        wm_out_key_u64(out, "distance", al->distance);
        wm_out_key_u64(out, "start", al->start);
        wm_out_key_u64(out, "end", al->end);
        if (cigar) {
            fputs(",\"cigar\":", out);
            wm_out_json_cstr(out, cig);
        }
        fprintf(out, ",\"strand\":\"%s\"", strand);
        wm_out_key_u64(out, "qlen", row->m);
        fputs("}\n", out);
        return;
    }
    /* by hand: a million short pairs make fprintf the slowest part */
    fputs(row->qname, out);
    putc('\t', out);
    fputs(row->tname, out);
    wm_out_tab_u64(out, al->distance);
    wm_out_tab_u64(out, al->start);
    wm_out_tab_u64(out, al->end);
    if (cigar) {
        putc('\t', out);
        fputs(cig[0] ? cig : "*", out);
    }
    putc('\t', out);
    fputs(strand, out);
    wm_out_tab_u64(out, row->m);
    putc('\n', out);
}

/* ---- CIGAR walking --------------------------------------------------------- */

/* The next run of an extended CIGAR at *p: its length and op; 0 at the end. */
static int next_run(const char **p, uint64_t *len, char *op) {
    const char *s = *p;
    uint64_t n = 0;
    if (*s == '\0') return 0;
    while (*s >= '0' && *s <= '9') n = n * 10 + (uint64_t)(*s++ - '0');
    *len = n;
    *op = *s ? *s++ : 'M';
    *p = s;
    return 1;
}

/* Print cigar[from, to) of runs with = and X merged into M (merge_m) or as
** they are. Runs are counted in the run list, not bytes. */
static void put_cigar_runs(FILE *out, const char *cigar, size_t from, size_t to, int merge_m) {
    const char *p = cigar;
    uint64_t len, pend = 0;
    char op, pop = 0;
    for (size_t i = 0; next_run(&p, &len, &op); ++i) {
        if (i < from || i >= to) continue;
        if (merge_m && (op == '=' || op == 'X')) op = 'M';
        if (op == pop) {
            pend += len;
            continue;
        }
        if (pop) fprintf(out, "%llu%c", (unsigned long long)pend, pop);
        pop = op;
        pend = len;
    }
    if (pop) fprintf(out, "%llu%c", (unsigned long long)pend, pop);
}

/* ---- SAM ----------------------------------------------------------------------- */

/* SAM's SEQ takes letters, '=' and '.': anything else prints as *. */
static int sam_seq_ok(const uint8_t *s, uint64_t m) {
    if (m == 0) return 0;
    for (uint64_t i = 0; i < m; ++i) {
        uint8_t c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '=' || c == '.')) return 0;
    }
    return 1;
}

static void put_sam(FILE *out, int cigar_m, const wm_out_align_row_t *row) {
    const wm_alignment_t *al = row->al;
    unsigned flag =
        (al == NULL ? 4u : 0u) | (row->strand ? 16u : 0u) | (row->secondary ? 256u : 0u);
    fprintf(out, "%s\t%u\t", row->qname, flag);
    if (al == NULL) {
        fputs("*\t0\t0\t*", out);
    } else {
        fputs(row->tname, out);
        wm_out_tab_u64(out, al->start + 1);
        fprintf(out, "\t%d\t", row->mapq);
        if (al->cigar != NULL && al->cigar[0] != '\0')
            put_cigar_runs(out, al->cigar, 0, SIZE_MAX, cigar_m);
        else putc('*', out);
    }
    fputs("\t*\t0\t0\t", out);
    /* Secondary records leave SEQ and QUAL out, as minimap2 does. */
    int seq = !row->secondary && sam_seq_ok(row->qseq, row->m);
    if (!seq) {
        fputs("*\t*", out);
    } else {
        for (uint64_t i = 0; i < row->m; ++i)
            putc(row->strand ? wm_out_complement(row->qseq[row->m - 1 - i]) : row->qseq[i], out);
        putc('\t', out);
        if (row->qual == NULL) putc('*', out);
        else
            for (uint64_t i = 0; i < row->m; ++i)
                putc(row->qual[row->strand ? row->m - 1 - i : i], out);
    }
    if (al != NULL) {
        fputs("\tNM:i:", out);
        wm_out_u64(out, al->distance);
        fprintf(out, "\tAS:i:%s%llu", al->distance ? "-" : "", (unsigned long long)al->distance);
    }
    putc('\n', out);
}

/* ---- PAF ----------------------------------------------------------------------- */

/* Query symbols inserted before the first and after the last aligned base
** are left out, as minimap2's alignments have none: the query span is then
** shorter than the query. A CIGAR of nothing but I keeps them all. */
static void put_paf(FILE *out, const wm_out_align_row_t *row) {
    const wm_alignment_t *al = row->al;
    const char *cig = al->cigar ? al->cigar : "", *p = cig;
    uint64_t len, head_i = 0, tail_i = 0, n_eq = 0, n_block = 0, nm = 0;
    size_t n_runs = 0, first = 0, last = 0;
    int seen_ref = 0;
    char op;
    while (next_run(&p, &len, &op)) {
        if (op == 'I') {
            if (!seen_ref) {
                head_i += len;
                first = n_runs + 1;
            }
            tail_i += len;
        } else {
            seen_ref = 1;
            tail_i = 0;
            last = n_runs + 1;
        }
        n_runs++;
    }
    if (!seen_ref) head_i = tail_i = 0, first = 0, last = n_runs;
    /* the block: matches, mismatches and gaps between first and last */
    p = cig;
    for (size_t i = 0; next_run(&p, &len, &op); ++i) {
        if (i < first || i >= last) continue;
        n_block += len;
        if (op == '=') n_eq += len;
        else nm += len;
    }
    /* qs, qe of the aligned query (its reverse complement on '-'), then on
    ** the query as given */
    uint64_t qs = head_i, qe = row->m - tail_i;
    if (row->strand) {
        uint64_t s = row->m - qe;
        qe = row->m - qs;
        qs = s;
    }
    fputs(row->qname, out);
    wm_out_tab_u64(out, row->m);
    wm_out_tab_u64(out, qs);
    wm_out_tab_u64(out, qe);
    fprintf(out, "\t%c\t%s", row->strand ? '-' : '+', row->tname);
    wm_out_tab_u64(out, row->tlen);
    wm_out_tab_u64(out, al->start);
    wm_out_tab_u64(out, al->end);
    wm_out_tab_u64(out, n_eq);
    wm_out_tab_u64(out, n_block);
    fprintf(out, "\t%d\ttp:A:%c\tNM:i:", row->mapq, row->secondary ? 'S' : 'P');
    wm_out_u64(out, nm);
    fputs("\tcg:Z:", out);
    put_cigar_runs(out, cig, first, last, 1);
    putc('\n', out);
}

void wm_out_align(FILE *out, wm_out_align_fmt_t fmt, int cigar, int cigar_m,
                  const wm_out_align_row_t *row) {
    switch (fmt) {
    case WM_OUT_ALIGN_SAM: put_sam(out, cigar_m, row); break;
    case WM_OUT_ALIGN_PAF: put_paf(out, row); break;
    default: put_tsv_json(out, fmt == WM_OUT_ALIGN_JSON, cigar, row); break;
    }
}
