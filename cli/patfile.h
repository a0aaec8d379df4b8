/*
** patfile.h -- the pattern set of `warpmatch search -f FILE / -e P -e P`:
** patterns gathered in command-line order from -e strings and pattern files.
**
** A pattern file is read whole (mmap, stdin or gzip, through wm_seqfile_read
** with FASTA detection off) and is one of:
**   lines: one pattern per line, bytes as they are (no '\r' stripping, NUL
**          allowed), a last line without '\n' counts; an empty line is an error;
**   FASTA: (first byte '>') one pattern per record, its sequence lines joined
**          with all whitespace removed, named by the header's first word;
**   FASTQ: (first line '@' NAME, third line starting with '+') one pattern
**          per 4-line record, named by the header's first word, its
**          qualities kept (as many as bases); '\r' before '\n' dropped. A
**          line-pattern file whose first line starts with '@' and whose third
**          does not start with '+' stays a line-pattern file.
** Line patterns point into the file's own buffer (no copy), so a million
** patterns load at the speed of memchr.
*/
#ifndef WM_CLI_PATFILE_H
#define WM_CLI_PATFILE_H

#include <stddef.h>
#include <stdint.h>

#include "io/seqfile.h"

typedef struct {
    size_t n, cap;        /* patterns held, room for */
    const uint8_t **pat;  /* n pattern starts (arrays as wm_compile_set */
    size_t *len;          /*   takes them) */
    const char **name;    /* n FASTA/FASTQ names (NULL: print the number),
                            or NULL when no pattern has a name */
    const uint8_t **qual; /* n FASTQ quality strings (len[i] bytes; NULL:
                            none), or NULL when no pattern has one */
    uint32_t *src;        /* where pattern i came from: srcs[src[i]] */
    uint64_t *line;       /* its line in that file (0 for -e) */
    const char **srcs;    /* file names as given (for messages), or "-e" */
    size_t n_srcs, m_srcs;
    int threads; /* a large FASTA file is parsed on this many (0: all cores; set before reading) */
    /* private: the memory the patterns point into */
    wm_seqfile_t *files; /* one per -f, kept open (line patterns) */
    size_t n_files, m_files;
    uint8_t **bufs; /* FASTA patterns and names */
    size_t n_bufs, m_bufs;
} wm_patset_t;

/* Add one -e pattern (a C string: it cannot hold NUL, and may be empty: the
** caller checks). Returns 0, or -1 when out of memory (message printed). */
int wm_patset_add_string(wm_patset_t *ps, const char *s);

/* Read the pattern file `path` ("-" = standard input) and add its patterns.
** Returns 0, or -1 with a "warpmatch: FILE[:LINE]: ..." message printed:
** the file cannot be read, it holds no pattern, an empty line or empty FASTA
** record, a nameless FASTA header, a pattern over WM_MAX_PATTERN bytes. */
int wm_patset_add_file(wm_patset_t *ps, const char *path);

/* "FILE:LINE" (or "-e") of pattern i, written into buf; returns buf. */
const char *wm_patset_where(const wm_patset_t *ps, size_t i, char *buf, size_t len);

void wm_patset_free(wm_patset_t *ps); /* safe on a zeroed or freed set */

#endif
