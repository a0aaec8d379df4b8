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

#endif
