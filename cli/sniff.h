/*
** sniff.h -- what --alphabet auto decides from: the data, never the pattern.
**
** An input is DNA when at least WM_SNIFF_DNA_PERMILLE of the first
** WM_SNIFF_BYTES non-blank bytes of its sequence (FASTA/FASTQ: the record
** sequences joined, headers and qualities left out; plain: the file's
** bytes) are A, C, G, T, U or N in either case; anything else (protein,
** text, binary, nothing at all) is text. Blanks (space, tab, line breaks)
** are skipped, so a plain file with one sequence over many lines counts as
** its letters. Proteins sit far below the line (A, C, G, T and N are about
** a quarter of amino acids), genomes far above (soft-masked lowercase and
** runs of N included); a short literal is judged on its own bytes.
**
** A sniff is an accumulator: add the bytes of one input, then ask; the
** bytes past the first WM_SNIFF_BYTES are not looked at.
*/
#ifndef WM_CLI_SNIFF_H
#define WM_CLI_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#include "warpmatch.h"

#define WM_SNIFF_BYTES ((uint64_t)64 << 10)
#define WM_SNIFF_DNA_PERMILLE 900

typedef struct {
    uint64_t seen; /* non-blank bytes looked at, at most WM_SNIFF_BYTES */
    uint64_t nuc;  /* of those, A C G T U N (either case) */
} wm_sniff_t;

/* Look at the bytes p[0, n) after those added before (until the budget). */
void wm_sniff_add(wm_sniff_t *s, const uint8_t *p, uint64_t n);

/* Look at a text's buffer from its start (its records back to back). */
void wm_sniff_text(wm_sniff_t *s, const wm_text_t *t);

/* 1 when what was seen is DNA by the rule above, else 0. */
int wm_sniff_is_dna(const wm_sniff_t *s);

/* Why, for --explain-alphabet: "99.8% of the first 65536 sequence bytes are
** A, C, G, T, U or N (90% makes DNA)". Returns buf. */
const char *wm_sniff_why(const wm_sniff_t *s, char *buf, size_t len);

#endif
