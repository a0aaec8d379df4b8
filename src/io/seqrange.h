/*
** seqrange.h -- one part's share of an input file, read by byte range, so
** that N processes (MPI ranks) each read only their own bytes and together
** see exactly the records, sequence bytes and errors wm_seqfile_read gives.
**
** Part p of N gets its even share of the file's bytes (wm_plan_even,
** core/plan.h: the first size % N parts one byte longer) and moves its
** start to the next place where parsing can begin:
**   raw     (plain files searched as bytes)     the byte itself;
**   joined  (plain files read as one sequence)  the byte itself;
**   FASTA                                       the next line start (a line
**                                               that starts with '>' is a
**                                               header, so lines parse alone);
**   FASTQ                                       the next record start. A line
**                                               starting with '@' may be a
**                                               quality line, so the start is
**                                               a guess that the part before
**                                               checks (wm_range_fastq_next);
**                                               the caller repeats until every
**                                               guess holds.
** A part parses its slice [start, next part's start) into sequence bytes and
** records. What it cannot know alone (the record its first bytes continue,
** that record's name and offset, the line number of an error) comes from
** the summaries of the parts before it (wm_range_summary_t, fixed size, so
** MPI_Allgather moves them as bytes), in wm_range_finish. The halo - the
** sequence bytes before the slice that an algorithm needs to see (m + k - 1
** for search) - is read there too, by going back from the slice start
** inside the same record.
**
** Not splittable: gzip input (no random access) and anything that is not a
** regular file (stdin, pipes). Such an input is read whole by part 0 with
** wm_seqfile_read; the other parts get no records.
**
** No MPI here: the parts' summaries are passed in, so a test can run every
** part in one process.
*/
#ifndef WM_IO_SEQRANGE_H
#define WM_IO_SEQRANGE_H

#include <stddef.h>
#include <stdint.h>

#include "io/seqfile.h"

typedef enum {
    WM_RANGE_RECORDS = 0,       /* FASTA/FASTQ as records, plain files as raw bytes (search) */
    WM_RANGE_SEQUENCE = 1,      /* as RECORDS, but a plain file is one sequence: blanks
                              dropped, other non-printing bytes refused (align) */
    WM_RANGE_RECORDS_UNREAD = 2 /* as RECORDS, but a plain file's pages are left
                                   unread: the caller reads them from fd (a GPU's
                                   staging copy, with pread) */
} wm_range_mode_t;

#define WM_RANGE_NONE UINT64_MAX

/* What a part tells every other part after parsing its slice. */
typedef struct {
    uint64_t start;         /* the slice is [start, next part's start) */
    uint64_t n_headers;     /* records whose header lies in the slice */
    uint64_t pre;           /* sequence bytes before the first header (all of
                               them when there is none) */
    uint64_t post;          /* sequence bytes after the last header */
    uint64_t last_header;   /* file offset of the last header's '>' or
                               WM_RANGE_NONE */
    uint64_t n_lines;       /* line breaks in the slice */
    uint64_t pre_data_line; /* FASTA: local line (1-based) of the first non-blank
                               line before the first header, 0 = none */
    uint64_t pre_bad_line;  /* FASTA: local line of the first line before the
                               first header that is blank but holds a byte
                               sequence lines refuse ('\v', '\f'): skipped
                               before the file's first header, an error
                               inside a record; 0 = none */
    uint64_t err_line;      /* local line of the parse error, 0 = no line */
    int32_t err;            /* 0, or the wm_status of the first parse error */
    int32_t pre_bad_byte;   /* the refused byte of pre_bad_line */
} wm_range_summary_t;

typedef struct {
    /* set by wm_range_open */
    int fd;
    const char *path;  /* as given */
    const char *dpath; /* as shown in messages */
    uint64_t size;
    int whole; /* gzip or not a regular file: part 0 reads it whole */
    wm_format_t format;
    wm_range_mode_t mode; /* RECORDS or SEQUENCE */
    int unread;           /* WM_RANGE_RECORDS_UNREAD was asked for */
    uint64_t lo, hi;      /* this part's bytes before moving to a start */
    uint64_t guess;       /* the first start >= lo (FASTQ: a guess) */

    /* the slice, set by wm_range_parse */
    uint64_t start, end;
    uint8_t *buf;  /* halo room, then the slice's sequence bytes */
    uint64_t room; /* bytes kept free before the sequence for the halo */
    uint64_t n_seq;
    uint64_t *rec_start; /* local headers: where each record begins in the
                            sequence bytes (n_local + 1 entries) */
    char **rec_name;
    size_t n_local;
    char err_rest[512]; /* the parse error after "path: line N: " */
    wm_range_summary_t sum;

    /* the result, set by wm_range_finish (or wm_range_read_whole) */
    wm_text_t text;     /* local records, the first may continue a record */
    char **names;       /* text.n_rec names */
    uint64_t *grec;     /* global record index of each local record */
    uint64_t *base;     /* offset in its global record of local byte 0 */
    uint64_t halo;      /* sequence bytes before the slice in local record 0;
                           ends at or before it belong to an earlier part */
    int continues;      /* local record 0 began in an earlier part */
    uint64_t own_bytes; /* sequence bytes this part owns (text.len - halo) */
    uint64_t *starts_mem;
    wm_seqfile_t whole_sf;    /* part 0 of a whole input */
    wm_range_summary_t *sums; /* every part's summary (wm_range_read) */
    int peer_failed;          /* another part failed (wm_range_read) */
} wm_range_t;

/* Open path for part `part` of n_parts: size, gzip and format detection (as
** wm_seqfile_read: the first non-blank byte), this part's bytes and its first
** start (guess). On error *err holds a message naming the file. */
/* Where a part's first record may start, the rules its opening and a
** protocol's replica (tests/fuzz/fuzz_seqrange.c) share: the first line
** start at or after `at` in the file f of `size` bytes; and whether a FASTQ
** record starts at line start p (it parses as one, and the next non-blank
** line starts with '@' or the file ends there). */
uint64_t wm_range_line_start(const uint8_t *f, uint64_t size, uint64_t at);
int wm_range_fastq_starts_at(const uint8_t *f, uint64_t size, uint64_t p);
/* The first line start at or after `at` where wm_range_fastq_starts_at holds
** (size when none): a part's guessed first FASTQ record. */
uint64_t wm_range_fastq_guess(const uint8_t *f, uint64_t size, uint64_t at);
/* wm_range_fastq_next's walk over the mapped file f: whole records from
** `start` (a record start, or a guess) until one begins at or after
** next_guess; returns where (size at the end). push, when not NULL, gets
** the offset of each record's '@' the walk passes (before next_guess);
** *broken (when not NULL) is set when a record did not parse, or push
** answered -1: the walk then returns size. */
uint64_t wm_range_fastq_walk(const uint8_t *f, uint64_t size, uint64_t start, uint64_t next_guess,
                             int (*push)(void *user, uint64_t at), void *user, int *broken);

wm_status wm_range_open(wm_range_t *R, const char *path, wm_range_mode_t mode, uint64_t part,
                        uint64_t n_parts, char *err, size_t errlen);

/* FASTQ only: parse whole records from `start` (a record start, or a guess)
** until one begins at or after `next_guess`, and give where that is in *next
** (the file's size at the end). Records may run past next_guess: the bytes
** after it are read as needed. A parse error stops the walk with *next =
** next_guess (the error is reported by wm_range_parse once starts are
** final). */
wm_status wm_range_fastq_next(wm_range_t *R, uint64_t start, uint64_t next_guess, uint64_t *next,
                              char *err, size_t errlen);

/* Read and parse the slice [start, end), leaving `room` bytes free before the
** sequence bytes for the halo, and fill R->sum. Parse errors are not returned
** here (they depend on what comes before: see wm_range_finish); I/O and memory
** errors are. */
wm_status wm_range_parse(wm_range_t *R, uint64_t start, uint64_t end, uint64_t room, char *err,
                         size_t errlen);

/* Everything after the exchange: sums[0, n_parts) are every part's summaries
** (sums[part] is this one's). Resolves the first local record (continued
** record: its global index, name, offset), reads up to `halo` sequence bytes
** before the slice from the same record, and builds R->text and friends.
** Returns the first parse error of this part (in file order, with the file's
** line number) as WM_FORMAT, or I/O and memory errors. */
wm_status wm_range_finish(wm_range_t *R, const wm_range_summary_t *sums, uint64_t n_parts,
                          uint64_t part, uint64_t halo, char *err, size_t errlen);

/* A whole input, part 0: read with wm_seqfile_read and present as a range
** (global = local). Other parts call it too and get no records. */
wm_status wm_range_read_whole(wm_range_t *R, uint64_t part, char *err, size_t errlen);

/* The total length of local record r's global record is not known locally
** when it runs on; wm_range_record_tail gives the sequence bytes that the
** parts after this one add to this part's last local record (0 unless it
** runs on into them). */
uint64_t wm_range_record_tail(const wm_range_summary_t *sums, uint64_t n_parts, uint64_t part);

/* The whole protocol for one part, given a way to exchange fixed-size
** records with the other parts: allgather(user, mine, bytes, all) must give
** every part all parts' `mine` in part order (MPI_Allgather, or a barrier
** between threads in a test). Every part makes the same exchanges whatever
** happens to it, so a part that fails never leaves the others waiting: each
** exchange carries a "failed" flag and all parts stop after the one where
** any failed. Then a part that failed returns its error (message in err)
** and the others return WM_OK with R->peer_failed set and no records.
** halo: sequence bytes wanted before each slice (see wm_range_finish). */
typedef void (*wm_range_allgather_fn)(void *user, const void *mine, size_t bytes, void *all);
/* FASTQ: the parts' record starts agreed. On entry starts[0..n_parts] holds
** every part's guess (starts[0] = 0, starts[n_parts] = size), the same on
** every part; on return the true starts. A guess holds when the part before,
** walking whole records from its own start (wm_range_fastq_walk), lands on
** it: each round every part walks and the landings are exchanged (one
** uint64_t a part, through landed[n_parts]); part 0's start is right, so
** each round fixes at least one more, and the rounds stop when none moves.
** Used by wm_range_read and by MPI's --pairs reader (cli/dist_pairs.c). */
void wm_range_fastq_agree(const uint8_t *f, uint64_t size, uint64_t part, uint64_t n_parts,
                          uint64_t *starts, uint64_t *landed, wm_range_allgather_fn allgather,
                          void *user);
wm_status wm_range_read(wm_range_t *R, const char *path, wm_range_mode_t mode, uint64_t part,
                        uint64_t n_parts, uint64_t halo, wm_range_allgather_fn allgather,
                        void *user, char *err, size_t errlen);

void wm_range_close(wm_range_t *R);

#endif
