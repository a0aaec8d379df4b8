/*
** textbuf.c -- the text buffer and the random FASTA pieces of textbuf.h.
*/
#include "textbuf.h"

#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "rng.h"

void tb_put(textbuf_t *b, const void *s, size_t n) {
    if (n > SIZE_MAX / 4) exit(2); /* no wrap below (and gcc knows it) */
    if (b->n + n + 1 > b->m) {
        b->m = (b->n + n + 1) * 2;
        b->p = xrealloc(b->p, b->m);
    }
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void tb_putc(textbuf_t *b, char c) { tb_put(b, &c, 1); }

void tb_puts(textbuf_t *b, const char *s) { tb_put(b, s, strlen(s)); }

void tb_putn(textbuf_t *b, char c, size_t n) {
    for (size_t i = 0; i < n; i++) tb_putc(b, c);
}

/* ---- random FASTA text ---------------------------------------------------------- */

void tb_eol(textbuf_t *b, int crlf) {
    if (crlf == 2 ? chance(50) : crlf) tb_putc(b, '\r');
    tb_putc(b, '\n');
}

void tb_blank_line(textbuf_t *b, int crlf) {
    static const char *const kinds[] = { "", " ", "\t", "  \t ", "\r" };
    tb_puts(b, kinds[below(N_OF(kinds))]);
    tb_eol(b, crlf);
}

void tb_header_name(textbuf_t *b) {
    static const char graphic[] = "ABCXYZabcxyz0123456789_.|:-+=>@#";
    size_t n = (size_t)range(1, chance(10) ? 300 : 12);
    for (size_t i = 0; i < n; i++) tb_putc(b, graphic[below(sizeof graphic - 1)]);
    if (chance(40)) {
        tb_putc(b, chance(50) ? ' ' : '\t');
        size_t d = (size_t)range(0, 40);
        for (size_t i = 0; i < d; i++)
            tb_putc(b, chance(10) ? (chance(50) ? ' ' : '\t') : (char)range(0x21, 0x7e));
    }
}

void tb_maybe_drop_final_eol(textbuf_t *b) {
    if (b->n > 0 && chance(20)) {
        b->n--;
        if (b->n > 0 && b->p[b->n - 1] == '\r' && chance(50)) b->n--;
        b->p[b->n] = '\0';
    }
}

int random_fasta(textbuf_t *b, const fasta_shape_t *shape) {
    static const char dna[] = "ACGTACGTACGTNacgtn";
    static const char prot[] = "ACDEFGHIKLMNPQRSTVWYXBZ*-";
    int crlf = chance(60) ? 0 : chance(50) ? 1 : 2;
    int odd = 0;
    if (chance(20)) {
        size_t k = (size_t)range(1, 4);
        for (size_t i = 0; i < k; i++) tb_blank_line(b, crlf);
        if (chance(10)) {
            tb_puts(b, chance(50) ? "\v" : " \f ");
            tb_eol(b, crlf);
            odd = 1;
        }
    }
    size_t n_rec = (size_t)(chance(10) ? range(1, shape->max_records) : range(1, 12));
    for (size_t r = 0; r < n_rec; r++) {
        tb_putc(b, '>');
        tb_header_name(b);
        tb_eol(b, crlf);
        uint64_t len = chance(10) ? 0 : chance(20) ? range(1, 30) : range(1, shape->max_len);
        size_t w = (size_t)(shape->one_line && chance(10) ? len + 1
                            : chance(20)                  ? range(1, 8)
                                                          : range(1, 200));
        const char *al = chance(70) ? dna : prot;
        size_t al_n = strlen(al);
        int spaces = chance(10);
        uint64_t done = 0;
        while (done < len) {
            size_t l = (size_t)(len - done < w ? len - done : w);
            for (size_t i = 0; i < l; i++) {
                if (spaces && chance(5)) tb_putc(b, chance(50) ? ' ' : '\t');
                if (spaces && chance(1)) tb_putc(b, '\r');
                tb_putc(b, al[below(al_n)]);
            }
            done += l;
            if (chance(3)) tb_blank_line(b, crlf);
            tb_eol(b, crlf);
        }
        if (chance(5)) tb_blank_line(b, crlf);
    }
    tb_maybe_drop_final_eol(b);
    return odd;
}

void tb_damage(textbuf_t *b, const uint8_t *bad, size_t n_bad) {
    if (b->n == 0) return;
    size_t k = (size_t)range(1, 3);
    for (size_t i = 0; i < k; i++) {
        size_t at = (size_t)below(b->n);
        uint8_t c = bad[below(n_bad)];
        if (chance(50)) b->p[at] = (char)c;
        else {
            tb_putc(b, 0);
            memmove(b->p + at + 1, b->p + at, b->n - at - 1);
            b->p[at] = (char)c;
        }
    }
}
