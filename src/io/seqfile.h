/*
** seqfile.h -- reading a whole input (file path or "-" for stdin) into records.
**
** Plain files are mapped with mmap (zero copy, any size, one record named ".").
** gzip input (detected by its magic bytes, any file name) is inflated with zlib.
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
    int gzipped;
    uint64_t raw_bytes; /* bytes read from the file (compressed size if gz) */
    /* private: how to release the memory */
    void *map_base;
    size_t map_len; /* non-NULL when seq is an mmap */
    uint8_t *owned; /* non-NULL when seq was allocated */
    uint64_t *owned_starts;
} wm_seqfile_t;

/* Read `path` ("-" = standard input) into *sf.
** force_plain != 0 skips FASTA/FASTQ detection (gzip is still inflated).
** Returns WM_OK, WM_IO (cannot open/read, a directory), WM_FORMAT (truncated or
** corrupt gzip, FASTQ record missing its '+' line or quality, binary bytes in a
** FASTA/FASTQ sequence, a header with no name or with a control byte in
** its name: see name_control in seqparse.h), WM_NOMEM.
** On error `err` (errlen bytes) holds a message naming the file and, where it
** helps, the line number; *sf is left empty (safe to pass to wm_seqfile_close). */
wm_status wm_seqfile_read(const char *path, int force_plain, wm_seqfile_t *sf, char *err,
                          size_t errlen);

void wm_seqfile_close(wm_seqfile_t *sf); /* safe on a zeroed or closed struct */

const char *wm_format_name(wm_format_t f); /* "plain", "fasta", "fastq" */

#endif
