/*
** seqref.c -- the reference reader of seqref.h.
*/
#include "seqref.h"

#include <stdlib.h>
#include <string.h>

static int blank(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

typedef struct {
    const uint8_t *p, *end;
} cur_t;

/* The next line (without '\n' and one '\r' before it); 0 at the end. */
static int line(cur_t *c, const uint8_t **s, size_t *len) {
    if (c->p >= c->end) return 0;
    const uint8_t *e = c->p;
    while (e < c->end && *e != '\n') e++;
    *s = c->p;
    *len = (size_t)(e - c->p);
    if (*len > 0 && (*s)[*len - 1] == '\r') (*len)--;
    c->p = e < c->end ? e + 1 : e;
    return 1;
}

static int control(uint8_t c) { return c < 0x20 || c == 0x7f; }

/* A record: 0, or -1 for a name with a control byte (F4). */
static int push(seqref_t *r, const uint8_t *name, size_t nl) {
    for (size_t i = 0; i < nl; i++)
        if (control(name[i])) return -1;
    r->start = realloc(r->start, (r->n + 2) * sizeof *r->start);
    r->name = realloc(r->name, (r->n + 1) * sizeof *r->name);
    if (!r->start || !r->name) abort();
    char *s = malloc(nl + 1);
    if (!s) abort();
    memcpy(s, name, nl);
    s[nl] = '\0';
    r->start[r->n] = r->len;
    r->name[r->n] = s;
    r->n++;
    return 0;
}

/* A sequence line: 0, or -1 at a byte that is neither printable nor ' ' '\t' '\r'. */
static int seq_line(seqref_t *r, const uint8_t *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (s[i] >= 0x21 && s[i] <= 0x7e) r->seq[r->len++] = s[i];
        else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return -1;
    }
    return 0;
}

static size_t word(const uint8_t *s, size_t len) {
    size_t i = 0;
    while (i < len && !blank(s[i])) i++;
    return i;
}

static int fasta(seqref_t *r, cur_t *c) {
    const uint8_t *s;
    size_t len;
    while (line(c, &s, &len)) {
        if (len > 0 && s[0] == '>') {
            size_t nl = word(s + 1, len - 1);
            if (nl == 0 || push(r, s + 1, nl) != 0) return -1;
        } else if (r->n == 0) {
            for (size_t i = 0; i < len; i++)
                if (!blank(s[i])) return -1;
        } else if (seq_line(r, s, len) != 0) {
            return -1;
        }
    }
    return 0;
}

static int fastq(seqref_t *r, cur_t *c) {
    const uint8_t *s;
    size_t len;
    for (;;) {
        int got;
        for (;;) {
            got = line(c, &s, &len);
            if (!got) return 0;
            size_t i = 0;
            while (i < len && blank(s[i])) i++;
            if (i < len) break;
        }
        if (s[0] != '@') return -1;
        size_t nl = word(s + 1, len - 1);
        if (nl == 0 || push(r, s + 1, nl) != 0) return -1;
        size_t before = r->len;
        int plus = 0;
        while (line(c, &s, &len)) {
            if (len > 0 && s[0] == '+') {
                plus = 1;
                break;
            }
            if (seq_line(r, s, len) != 0) return -1;
        }
        if (!plus) return -1;
        size_t slen = r->len - before, qlen = 0;
        while (qlen < slen) {
            if (!line(c, &s, &len)) return -1;
            qlen += len;
        }
        if (qlen > slen) return -1;
        if (slen == 0) {
            cur_t save = *c;
            if (line(c, &s, &len) && len != 0) *c = save;
        }
    }
}

void seqref_parse(const uint8_t *p, size_t n, int force_plain, seqref_t *r) {
    memset(r, 0, sizeof *r);
    r->seq = malloc(n + 1);
    if (!r->seq) abort();
    size_t i = 0;
    while (i < n && blank(p[i])) i++;
    r->format = force_plain || i == n ? 0 : p[i] == '>' ? 1 : p[i] == '@' ? 2 : 0;
    cur_t c = { p, p + n };
    int rc = 0;
    if (r->format == 0) {
        (void)push(r, (const uint8_t *)".", 1);
        memcpy(r->seq, p, n);
        r->len = n;
    } else if (r->format == 1) {
        rc = fasta(r, &c);
    } else {
        rc = fastq(r, &c);
    }
    r->ok = rc == 0;
    if (r->n > 0 || r->start == NULL) {
        r->start = realloc(r->start, (r->n + 1) * sizeof *r->start);
        if (!r->start) abort();
    }
    r->start[r->n] = r->len;
}

void seqref_free(seqref_t *r) {
    for (size_t i = 0; i < r->n; i++) free(r->name[i]);
    free(r->name);
    free(r->start);
    free(r->seq);
    memset(r, 0, sizeof *r);
}
