/*
** fasta_par.h -- FASTA parsed by all threads (fasta_par.c): the valid input
** the serial parser (seqfile.c, parse_fasta) accepts gives the same sequence
** bytes, record starts and names; anything unusual is handed back to it.
*/
#ifndef WM_IO_FASTA_PAR_H
#define WM_IO_FASTA_PAR_H

#include <stdint.h>
#include "io/seqparse.h"

/* Parse in[0, n) (FASTA: its first non-blank byte is '>') on `threads`
** threads (>= 2) in blocks of `block` bytes (> 0) into out (n bytes, not
** overlapping in), the records into *r (empty on entry; r->starts gets
** r->n + 1 entries, the last left for the caller).
** Returns 0 with *out_len set, or 1 when the serial parser must decide (an
** error somewhere, a line only its rules accept, out of memory): r is then
** empty again and out holds nothing of use. */
int wm_fasta_parse_par(const uint8_t *in, uint64_t n, int threads, uint64_t block, uint8_t *out,
                       uint64_t *out_len, wm_recs_t *r);

/* A part of a FASTA input that starts at a line start (seqbatch.c):
** in_record != 0 when a header came before it, so that the sequence before
** its first header continues that record (out[0, r->starts[0]), or all of
** out when it has no header) instead of being refused; lines (may be NULL)
** gets the count of its '\n' bytes. Otherwise as wm_fasta_parse_par (r->n
** headers, the serial parser decides what this gives up on). */
int wm_fasta_parse_par_part(const uint8_t *in, uint64_t n, int threads, uint64_t block,
                            int in_record, uint8_t *out, uint64_t *out_len, wm_recs_t *r,
                            uint64_t *lines);

#endif
