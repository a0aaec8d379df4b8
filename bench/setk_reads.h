/*
** setk_reads.h -- the setk benchmarks' inputs: a reads FASTA as the
** pattern arrays wm_compile_set takes, and the genome beside it.
*/
#ifndef WM_BENCH_SETK_READS_H
#define WM_BENCH_SETK_READS_H

#include <stdio.h>
#include <stdlib.h>

#include "io/seqfile.h"

/* Read reads_path into *rf (its records as *pp / *len, np of them) and
** genome_path into *gf; 0, or 1 with a message naming prog. */
static inline int setk_read_inputs(const char *prog, const char *reads_path,
                                   const char *genome_path, wm_seqfile_t *rf, wm_seqfile_t *gf,
                                   const uint8_t ***pp, size_t **len, size_t *np) {
    char err[512];
    if (wm_seqfile_read(reads_path, 0, rf, err, sizeof err) != WM_OK ||
        wm_seqfile_read(genome_path, 0, gf, err, sizeof err) != WM_OK) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 1;
    }
    const wm_text_t *t = &rf->text;
    *np = t->n_rec;
    *pp = malloc((*np ? *np : 1) * sizeof **pp);
    *len = malloc((*np ? *np : 1) * sizeof **len);
    if (!*pp || !*len) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    for (size_t i = 0; i < *np; i++) {
        (*pp)[i] = t->seq + t->rec_start[i];
        (*len)[i] = (size_t)((i + 1 < *np ? t->rec_start[i + 1] : t->len) - t->rec_start[i]);
    }
    return 0;
}

#endif
