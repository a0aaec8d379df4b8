/*
** sigref.h -- reference readers of two signal formats, written from
** src/io/signal.h (not from signal_text.c / signal_raw.c), for fuzz_signal.c.
**
** TEXT  lines end at '\n'; separators are ' ' \t \r \v \f ',' ';'. A line
**       whose first non-separator byte is '#' is a comment, '>' a header
**       (name: the rest of the line without ' ' \t \r \v \f around it; none
**       = unnamed), else its tokens are numbers: strtod in the "C" locale,
**       the whole token, at most 1024 bytes (longer is no number: refused),
**       finite (NaN, Inf and overflow refused; underflow to 0 is fine).
**       Headers: after any number, or a second one when several = 0, an
**       error; each record needs a sample. Without headers: several = 0, all
**       numbers one signal; several = 1, one signal if every line with
**       numbers holds one, else one signal per such line. No sample: error.
** RAW   little-endian float32 / float64, the whole input one signal; a size
**       that is not a multiple, no sample or a non-finite one: error.
*/
#ifndef WM_FUZZ_SIGREF_H
#define WM_FUZZ_SIGREF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    double *v;
    size_t n;
    char *name; /* NULL when unnamed; a NUL-terminated copy */
} sigref_sig_t;

typedef struct {
    int ok;
    sigref_sig_t *a;
    size_t n;
} sigref_t;

void sigref_text(const uint8_t *p, size_t n, int several, sigref_t *r);
void sigref_raw(const uint8_t *p, size_t n, int bytes_per_sample, sigref_t *r);
void sigref_free(sigref_t *r);

#endif
