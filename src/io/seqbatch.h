/*
** seqbatch.h -- a sequence input read in batches of bounded size: the
** records of a FASTA, FASTQ or plain input (any compression zsrc.h reads,
** standard input too) as wm_seqfile_read gives them, but a batch of about
** `want` sequence bytes at a time, so that memory does not grow with the
** input.
**
** A record longer than what is left of a batch is cut: the batch ends with
** its first part, and the next batch starts with the same record again,
** its last `halo` bytes carried over (own_from) so that a search of the
** batch from own_from on finds every match ending in the new bytes (a match
** depends only on the halo bytes before its end: core/plan.h). Offsets in a
** batch are the batch's; base[i] is where local record i's first byte lies
** in its whole record. Records, bytes, names and error messages (with their
** line numbers) are those of wm_seqfile_read: FASTA is parsed a line, or a
** run of a long line, at a time by the rules of seqparse.h; FASTQ a record
** at a time by fastq_record itself, as the streaming reader (reader.c) does.
** One difference, which reading in order cannot avoid: in damaged
** compressed input, a format error in the bytes before the damage is
** reported here, where the whole-file reader (which inflates everything
** first) reports the damage.
**
**     wm_seqsrc_t *src;  wm_seqbatch_t b = { 0 };
**     if (wm_seqsrc_open(&src, path, halo, err, sizeof err) != WM_OK) ...
**     do {
**         if (wm_seqsrc_next(src, &b, 32 << 20, err, sizeof err) != WM_OK) ...
**         search b.seq[0, b.len) (records b.rec_start, b.n_rec) from b.own_from
**     } while (!b.last);
**     wm_seqbatch_free(&b);  wm_seqsrc_close(src);
*/
#ifndef WM_IO_SEQBATCH_H
#define WM_IO_SEQBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "warpmatch.h"
#include "io/seqfile.h"

typedef struct {
    uint8_t *seq; /* the batch's sequence bytes, records back to back */
    uint64_t len, cap;
    uint64_t *rec_start; /* n_rec + 1 entries, the last = len */
    char **names;        /* n_rec names, owned by the batch */
    uint64_t *base;      /* n_rec: offset of local record i's first byte in its record */
    size_t n_rec, rec_cap;
    uint64_t first_record; /* the input's index of local record 0 */
    uint64_t own_from;     /* the carried halo: ends at or before it were the last batch's */
    int continues;         /* local record 0 began in an earlier batch */
    int last;              /* nothing follows this batch */
} wm_seqbatch_t;

typedef struct wm_seqsrc wm_seqsrc_t;

/* Open path ("-" = standard input) and find its compression and format (as
** wm_seqfile_read decides them: magic bytes, then the first non-blank byte).
** halo: the bytes a continued record carries into the next batch. Returns
** WM_OK; WM_IO, WM_FORMAT, WM_NOMEM with err ("path: why"). *out is set
** (NULL on failure). */
wm_status wm_seqsrc_open(wm_seqsrc_t **out, const char *path, uint64_t halo, char *err,
                         size_t errlen);

wm_format_t wm_seqsrc_format(const wm_seqsrc_t *s);
int wm_seqsrc_compressed(const wm_seqsrc_t *s); /* gzip, xz, bzip2 or zstd */
int wm_seqsrc_regular(const wm_seqsrc_t *s);    /* a regular file, not standard input */

/* The next batch into *b (its memory reused; zero it before the first
** call): the carried record, if any, then up to `want` new sequence bytes
** (fewer only at the end of the input; at least one byte of input is
** consumed unless the input ended). Returns WM_OK, or WM_FORMAT / WM_IO /
** WM_NOMEM with err: the batches before were good, this one is not. */
wm_status wm_seqsrc_next(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t want, char *err, size_t errlen);

/* Up to `want` more new bytes onto the end of *b, the batch just made
** (the first batch grows this way until a sniff of its bytes has enough). */
wm_status wm_seqsrc_more(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t want, char *err, size_t errlen);

/* Parse FASTA and FASTQ on `threads` threads (0: all online cores; 1, the
** default: one), a run of whole lines (FASTQ: whole records) of at least 1
** MiB at a time through fasta_par.c and fastq_par.c; the records, bytes and
** messages stay the serial parser's (it decides whatever those give up on). */
void wm_seqsrc_set_threads(wm_seqsrc_t *s, int threads);

/* Test hook, after wm_seqsrc_set_threads: the least run parsed on the
** threads (1 MiB), the parsers' block (0: the run cut in 4 a thread, at
** least 64 KiB) and the most a run takes where the batch has more room
** (8 MiB), made tiny so that runs and blocks end everywhere. */
void wm_seqsrc_set_par_sizes(wm_seqsrc_t *s, uint64_t min_run, uint64_t block, uint64_t max_run);

/* From another thread, when no more batches are wanted: a fill waiting for
** a live input (a pipe that sends nothing) ends within 100 ms, as at the
** input's end. Other reads end as they would. */
void wm_seqsrc_abort(wm_seqsrc_t *s);

void wm_seqbatch_free(wm_seqbatch_t *b); /* safe on a zeroed or freed batch */
void wm_seqsrc_close(wm_seqsrc_t *s);    /* NULL is a no-op */

#endif
