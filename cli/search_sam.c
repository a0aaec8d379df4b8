/*
** search_sam.c -- `search --format sam` for pattern sets: the header of one
** file (its records are the references) and one record per occurrence, in
** the layout align's SAM output uses (cli/out_align.c prints the line).
**
** A pattern is a read: QNAME its name (FASTA/FASTQ PATFILE) or number; its
** first record is primary, every later one secondary (256), as an all-hits
** mapper marks them; strand '-' is FLAG 16 with SEQ and QUAL reversed and
** complemented, as the read aligns. The CIGAR is the occurrence's own
** (search_cigar.c), so NM and the CIGAR's X, I and D agree.
*/
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "search.h"

/* A plain file's one record is the file itself, as in BED. */
static const char *reference(const wm_seqfile_t *sf, const char *source, uint64_t r) {
    return sf->format == WM_FMT_PLAIN ? source : wm_cli_search_record_name(sf, r);
}

static uint64_t record_len(const wm_text_t *t, uint64_t r) {
    if (t->rec_start == NULL || t->n_rec == 0) return t->len;
    uint64_t hi = r + 1 < t->n_rec ? t->rec_start[r + 1] : t->len;
    return hi - t->rec_start[r];
}

void wm_cli_search_sam_header(FILE *out, const wm_seqfile_t *sf, const char *source, int argc,
                              char **argv) {
    fputs("@HD\tVN:1.6\tSO:unsorted\n", out);
    size_t n = sf->text.n_rec > 0 ? sf->text.n_rec : 1;
    for (size_t r = 0; r < n; ++r) {
        fprintf(out, "@SQ\tSN:%s\tLN:", reference(sf, source, r));
        wm_out_u64(out, record_len(&sf->text, r));
        putc('\n', out);
    }
    fputs("@PG\tID:warpmatch\tPN:warpmatch\tCL:warpmatch", out);
    for (int i = 0; i < argc; ++i) {
        /* CL is one field: tabs and line breaks in an argument print as spaces */
        putc(' ', out);
        for (const char *c = argv[i]; *c; ++c) putc(*c == '\t' || *c == '\n' ? ' ' : *c, out);
    }
    putc('\n', out);
}

int wm_cli_search_sam_row(wm_cli_search_sink_t *s, const wm_match_t *m) {
    const wm_cli_search_args_t *a = s->a;
    const wm_text_t *t = &s->sf->text;
    uint32_t i = m->pattern;
    const uint8_t *p = a->set.pat[i];
    size_t len = a->set.len[i];
    char *cigar = wm_cli_match_cigar(s, m);
    if (cigar == NULL) return -1;
    char num[24];
    wm_alignment_t al = { m->errors, m->start, m->end, strcmp(cigar, "*") == 0 ? NULL : cigar };
    wm_out_align_row_t row;
    memset(&row, 0, sizeof row);
    row.qname = wm_cli_search_pattern_label(a, i, num);
    row.tname = reference(s->sf, s->source, m->record);
    row.qseq = p;
    row.qual = a->set.qual != NULL ? a->set.qual[i] : NULL;
    row.m = len;
    row.tlen = record_len(t, m->record);
    row.strand = (int)m->strand;
    row.secondary = s->sam_seen[i];
    row.mapq = 255;
    row.al = &al;
    wm_out_align(s->out, WM_OUT_ALIGN_SAM, 0, 0, &row);
    s->sam_seen[i] = 1;
    free(cigar);
    return 0;
}
