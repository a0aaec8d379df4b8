/*
** seqref.h -- a reference reader of plain, FASTA and FASTQ bytes, written
** from the format as src/io/seqfile.h and src/io/seqparse.h document it
** (not from their code), for the fuzz harnesses to compare the library's
** readers against. Simple and slow on purpose.
**
**   format   the first byte that is not blank (' ' \t \n \r \v \f): '>'
**            FASTA, '@' FASTQ, else plain (also when force_plain);
**   lines    end at '\n'; one '\r' before it is dropped; a last line
**            without '\n' counts;
**   plain    one record named ".", every byte as it is;
**   FASTA    a '>' line starts a record named by its first word (up to a
**            blank; none is an error); before the first one only blank
**            lines; in sequence lines printable bytes (0x21..0x7e) are kept,
**            ' ', '\t', '\r' dropped, any other byte is an error;
**   FASTQ    blank lines between records skipped; '@' + name (first word,
**            not empty); sequence lines (as FASTA's) up to a line starting
**            with '+'; then quality lines until their lengths add up to at
**            least the sequence's (more is an error, the end of input before
**            it too); an empty read may have one empty quality line.
**   names    (issue 21, F4) a name holding a control byte (below 0x20, or
**            0x7f; bytes over 0x7f are kept) is an error.
** Errors are only "an error" here (no message, no line).
*/
#ifndef WM_FUZZ_SEQREF_H
#define WM_FUZZ_SEQREF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int ok;
    int format; /* 0 plain, 1 FASTA, 2 FASTQ (as wm_format_t) */
    uint8_t *seq;
    size_t len;
    size_t n;      /* records */
    size_t *start; /* n + 1 */
    char **name;   /* n, NUL-terminated copies */
} seqref_t;

void seqref_parse(const uint8_t *p, size_t n, int force_plain, seqref_t *r);
void seqref_free(seqref_t *r);

#endif
