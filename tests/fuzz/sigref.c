/*
** sigref.c -- the reference signal readers of sigref.h.
*/
#include "sigref.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_sep(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == ',' || c == ';';
}
static int is_trim(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static sigref_sig_t *new_sig(sigref_t *r) {
    r->a = realloc(r->a, (r->n + 1) * sizeof *r->a);
    if (!r->a) abort();
    memset(&r->a[r->n], 0, sizeof r->a[r->n]);
    return &r->a[r->n++];
}

static void push(sigref_sig_t *s, double x) {
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    if (!s->v) abort();
    s->v[s->n++] = x;
}

/* One token as a number: 0 and *x, or -1. */
static int number(const uint8_t *p, size_t n, double *x) {
    char buf[1100], *end;
    if (n == 0 || n > 1024) return -1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + n) return -1;
    if (!isfinite(v)) return -1; /* NaN, Inf, and overflow (ERANGE, +-HUGE_VAL) */
    *x = v;
    return 0;
}

void sigref_text(const uint8_t *p, size_t n, int several, sigref_t *r) {
    memset(r, 0, sizeof *r);
    const uint8_t *end = p + n;
    int records = 0, any_number = 0;
    sigref_sig_t all = { 0 };           /* the numbers without headers, in order */
    size_t *line_n = NULL, n_lines = 0; /* numbers per line with numbers */
    int one_per_line = 1;
    while (p < end) {
        const uint8_t *e = memchr(p, '\n', (size_t)(end - p));
        if (!e) e = end;
        const uint8_t *q = p;
        while (q < e && is_sep(*q)) q++;
        if (q < e && *q == '#') {
            /* a comment */
        } else if (q < e && *q == '>') {
            if (any_number && !records) goto bad;
            if (records && !several) goto bad;
            if (records && r->a[r->n - 1].n == 0) goto bad;
            records = 1;
            const uint8_t *a = q + 1, *b = e;
            while (a < b && is_trim(*a)) a++;
            while (b > a && is_trim(b[-1])) b--;
            sigref_sig_t *s = new_sig(r);
            if (b > a) {
                s->name = malloc((size_t)(b - a) + 1);
                if (!s->name) abort();
                memcpy(s->name, a, (size_t)(b - a));
                s->name[b - a] = '\0';
            }
        } else {
            size_t k = 0;
            while (q < e) {
                const uint8_t *t = q;
                while (q < e && !is_sep(*q)) q++;
                double x;
                if (number(t, (size_t)(q - t), &x) != 0) goto bad;
                push(records ? &r->a[r->n - 1] : &all, x);
                k++;
                any_number = 1;
                while (q < e && is_sep(*q)) q++;
            }
            if (k > 0 && !records) {
                line_n = realloc(line_n, (n_lines + 1) * sizeof *line_n);
                if (!line_n) abort();
                line_n[n_lines++] = k;
                if (k != 1) one_per_line = 0;
            }
        }
        p = e < end ? e + 1 : end;
    }
    if (records) {
        if (r->a[r->n - 1].n == 0) goto bad;
    } else if (all.n == 0) {
        goto bad;
    } else if (!several || one_per_line) {
        *new_sig(r) = all;
        all.v = NULL;
    } else {
        size_t at = 0;
        for (size_t i = 0; i < n_lines; i++) {
            sigref_sig_t *s = new_sig(r);
            for (size_t j = 0; j < line_n[i]; j++) push(s, all.v[at++]);
        }
    }
    r->ok = 1;
    free(all.v);
    free(line_n);
    return;
bad:
    free(all.v);
    free(line_n);
    sigref_free(r);
}

void sigref_raw(const uint8_t *p, size_t n, int bytes_per_sample, sigref_t *r) {
    memset(r, 0, sizeof *r);
    if (n == 0 || n % (size_t)bytes_per_sample != 0) return;
    sigref_sig_t *s = new_sig(r);
    for (size_t i = 0; i < n; i += (size_t)bytes_per_sample) {
        double x;
        if (bytes_per_sample == 4) {
            uint32_t u = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
                         (uint32_t)p[i + 3] << 24;
            float f;
            memcpy(&f, &u, 4);
            x = f;
        } else {
            uint64_t u = 0;
            for (int b = 7; b >= 0; b--) u = u << 8 | p[i + (size_t)b];
            memcpy(&x, &u, 8);
        }
        if (!isfinite(x)) {
            sigref_free(r);
            return;
        }
        push(s, x);
    }
    r->ok = 1;
}

void sigref_free(sigref_t *r) {
    for (size_t i = 0; i < r->n; i++) {
        free(r->a[i].v);
        free(r->a[i].name);
    }
    free(r->a);
    memset(r, 0, sizeof *r);
}
