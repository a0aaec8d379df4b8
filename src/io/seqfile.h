/*
** seqfile.h -- reading a whole input (file path or "-" for stdin) into records.
**
** Plain files are mapped with mmap (zero copy, any size, one record named ".").
** Compressed input (gzip, xz, bzip2, zstd: detected by its magic bytes, any
** file name; see zsrc.h) is decompressed; another compressed format is an error.
** FASTA and FASTQ are detected by their first non-blank byte ('>' or '@') and
** parsed into records: the sequence lines of a record are joined without their
** line breaks ("\n" or "\r\n"), the record's name is the first word of its
** header. Offsets are 64-bit: inputs over 4 GiB work.
*/
#ifndef WM_IO_SEQFILE_H
#define WM_IO_SEQFILE_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

typedef enum { WM_FMT_PLAIN = 0, WM_FMT_FASTA = 1, WM_FMT_FASTQ = 2 } wm_format_t;

typedef struct {
    wm_text_t text; /* seq, len, rec_start (n_rec + 1 entries), n_rec */
    char **names;   /* n_rec record names ("." for plain input) */
    wm_format_t format;
    int gzipped;        /* the input was compressed (gzip, xz, bzip2 or zstd) */
    uint64_t raw_bytes; /* bytes read from the file (compressed size if gz) */
    int parse_threads;  /* threads that parsed the records (1: the serial parser) */
    /* private: how to release the memory */
    void *map_base;
    size_t map_len; /* non-NULL when seq is an mmap */
    uint8_t *owned; /* non-NULL when seq was allocated */
    uint64_t *owned_starts;
} wm_seqfile_t;

/* Read `path` ("-" = standard input) into *sf.
** force_plain != 0 skips FASTA/FASTQ detection (compressed input is still
** decompressed).
** Returns WM_OK, WM_IO (cannot open/read, a directory), WM_FORMAT (truncated or
** corrupt compressed data, a compressed format not read, FASTQ record missing its '+' line or quality, binary bytes in a
** FASTA/FASTQ sequence, a header with no name or with a control byte in
** its name: see name_control in seqparse.h), WM_NOMEM.
** On error `err` (errlen bytes) holds a message naming the file and, where it
** helps, the line number; *sf is left empty (safe to pass to wm_seqfile_close). */
wm_status wm_seqfile_read(const char *path, int force_plain, wm_seqfile_t *sf, char *err,
                          size_t errlen);

/* How wm_seqfile_read_opts parses FASTA. The parallel parser cuts a mapped
** input into blocks, finds the lines and counts the sequence bytes of each
** block on a pool of threads, then copies every block's bytes to their place
** (docs/DESIGN.md, "Parallel FASTA"). Its output is the serial parser's,
** byte for byte; on anything it cannot decide within a block (an error, a
** line only the serial rules accept) it hands the whole input to the serial
** parser, so every message and line number is the serial parser's too.
** Heap inputs (stdin, gzip) are parsed in place by the serial parser, and
** so is FASTQ. */
typedef struct {
    int threads;           /* threads; 0 = all online cores [1] */
    uint64_t min_parallel; /* inputs shorter are parsed on one thread [WM_SEQFILE_MIN_PARALLEL] */
    uint64_t block;        /* bytes per block; 0 = the input cut in 4 per thread, at least
                              64 KiB [0]. Tests make it tiny so that block edges land
                              everywhere. */
    /* A mapped FASTA or FASTQ file's bytes [range_lo, range_hi) alone,
    ** parsed as if they were the file (records whose headers lie in them, as
    ** MPI ranks share a pairs file: cli/dist_pairs.c; a FASTQ range must
    ** start at a record, which the caller knows). range_hi 0: the whole
    ** input. An input that is not a mapped, uncompressed FASTA or FASTQ
    ** file, a range of another format than the file's, or a range past its
    ** end, is WM_INVALID. Messages name lines from the range's
    ** start [0, 0] */
    uint64_t range_lo, range_hi;
} wm_seqfile_opts_t;
#define WM_SEQFILE_MIN_PARALLEL ((uint64_t)8 << 20)

wm_seqfile_opts_t wm_seqfile_opts_default(void);

/* wm_seqfile_read with options (NULL: the defaults, which are
** wm_seqfile_read's: one thread). sf->parse_threads says how many threads
** parsed. Thread safe as wm_seqfile_read is (no shared state). */
wm_status wm_seqfile_read_opts(const char *path, int force_plain, const wm_seqfile_opts_t *o,
                               wm_seqfile_t *sf, char *err, size_t errlen);

void wm_seqfile_close(wm_seqfile_t *sf); /* safe on a zeroed or closed struct */

const char *wm_format_name(wm_format_t f); /* "plain", "fasta", "fastq" */

#endif
