/*
** textbuf.h -- a growable byte buffer the input-layer tests write their
** inputs into, and the random pieces of FASTA text they build from: line
** breaks, blank lines, header names, whole FASTA files, damage. Each piece
** draws from g_rng in a fixed order, so the tests' cases are what they were
** when each test had its own copy.
*/
#ifndef WM_TEST_TEXTBUF_H
#define WM_TEST_TEXTBUF_H

#include <stddef.h>
#include <stdint.h>

/* p[0, n) the bytes (p NULL while nothing was put), m the room. The tb_
** functions leave a '\0' at p[n] (a caller that shortens n itself need not).
** Start with { 0 }; free(p) at the end. */
typedef struct {
    char *p;
    size_t n, m;
} textbuf_t;

void tb_put(textbuf_t *b, const void *s, size_t n); /* n bytes of s */
void tb_putc(textbuf_t *b, char c);
void tb_puts(textbuf_t *b, const char *s);    /* a string, without its '\0' */
void tb_putn(textbuf_t *b, char c, size_t n); /* c, n times */

/* ---- random FASTA text ---------------------------------------------------------- */

/* A line break: LF (crlf 0), CRLF (crlf 1) or either at random (crlf 2). */
void tb_eol(textbuf_t *b, int crlf);

/* A blank line: nothing, spaces, tabs or a '\r' before the line break. */
void tb_blank_line(textbuf_t *b, int crlf);

/* A header's name (1..12 graphic bytes, now and then up to 300) and, at
** times, a description after a space or tab: printable bytes, spaces, tabs. */
void tb_header_name(textbuf_t *b);

/* One time in five: the last line break dropped (of a CRLF, the '\n' or
** both). */
void tb_maybe_drop_final_eol(textbuf_t *b);

/* The shape of random_fasta's files. */
typedef struct {
    uint64_t max_records; /* 1..12 records, one time in ten 1..max_records */
    uint64_t max_len;     /* a record's bases: 0, 1..30 or 1..max_len */
    int one_line;         /* 1: one record in ten on a single line (one draw more a record) */
} fasta_shape_t;

/* A FASTA file: blank lines before the first header or anywhere, empty
** records, names with descriptions, line widths 1..200, LF, CRLF or both,
** stray '\r', spaces and tabs inside sequence lines (DNA or protein), a
** last line with or without its '\n'. Returns 1 when it holds a '\v' or
** '\f' line before the first header (valid only by the serial rules). */
int random_fasta(textbuf_t *b, const fasta_shape_t *shape);

/* 1..3 troublemakers, each drawn from bad[0, n_bad), written over a byte
** or put in before one, anywhere (they may land where they are harmless).
** Nothing on an empty buffer. */
void tb_damage(textbuf_t *b, const uint8_t *bad, size_t n_bad);

#endif /* WM_TEST_TEXTBUF_H */
