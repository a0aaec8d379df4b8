/*
** fastq_par.h -- FASTQ records parsed by all threads (fastq_par.c), for the
** streaming reader (seqbatch.c): the records it takes are those the serial
** parser (seqparse.h, fastq_record) gives, with the same bytes and names;
** whatever it cannot take for sure it leaves to that parser.
*/
#ifndef WM_IO_FASTQ_PAR_H
#define WM_IO_FASTQ_PAR_H

#include <stdint.h>

#include "core/internal.h"
#include "io/seqparse.h"

/* What a parallel run took: input bytes (up to a record's '@', or to the
** end of the input), the sequence bytes written, and the '\n' bytes passed. */
typedef struct {
    uint64_t used, seq, lines;
} wm_fastq_run_t;

/* The whole records at the front of in[0, n), which starts where a record
** may (blank lines, then '@'); eof: nothing follows in[n), else a record
** that reaches in[n) is left alone (it may go on). At most max_recs records,
** cut into blocks of `block` bytes (> 0) parsed on the pool's threads:
** their sequences into out (room for n / 2 bytes: a record's quality is as
** long as its sequence), the records into *r (empty on entry; r->starts
** has r->n + 1 entries, the last the sequence's length).
** Returns 0 with *run set (at least one record), or 1 when the serial parser
** must go on (the first record broken or cut by the end of in, more records
** than max_recs in the first block, out of memory): r is then empty. */
int wm_fastq_parse_par(const uint8_t *in, uint64_t n, int eof, wm_pool_t *pool, uint64_t block,
                       size_t max_recs, uint8_t *out, wm_recs_t *r, wm_fastq_run_t *run);

#endif
