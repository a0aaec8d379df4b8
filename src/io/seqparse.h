/*
** seqparse.h -- the line-level pieces of FASTA/FASTQ parsing that the whole-file
** reader (seqfile.c), the byte-range reader (seqrange.c) and the streaming
** reader (reader.c) share, so that a file read in parts or a record at a
** time gives exactly the records, bytes and errors it gives when read whole.
*/
#ifndef WM_IO_SEQPARSE_H
#define WM_IO_SEQPARSE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Format a message into err (errlen bytes; nothing when err is NULL). */
static inline void set_err(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    if (!err || errlen == 0) return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Grow the byte buffer *pp (a uint8_t * or char *) of *cap bytes to at least
** need bytes, doubling. Returns 0, or -1 (out of memory; *pp unchanged). */
static inline int grow_bytes(void *pp, size_t *cap, size_t need) {
    uint8_t **p = pp;
    if (*cap >= need) return 0;
    size_t ncap = *cap ? *cap : need;
    while (ncap < need) ncap *= 2;
    uint8_t *np = realloc(*p, ncap);
    if (!np) return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

/* Longest record name quoted in a message. */
#define WM_MSG_NAME 200

/* Records found so far. starts has room for n + 1 entries (the end). */
typedef struct {
    uint64_t *starts;
    char **names;
    size_t n, m;
} wm_recs_t;

static inline void recs_free(wm_recs_t *r) {
    for (size_t i = 0; i < r->n; i++) free(r->names[i]);
    free(r->names);
    free(r->starts);
    memset(r, 0, sizeof *r);
}

static inline int recs_push(wm_recs_t *r, uint64_t start, const uint8_t *name, size_t name_len) {
    if (r->n + 1 >= r->m) {
        size_t nm = r->m ? r->m * 2 : 64;
        uint64_t *ns = realloc(r->starts, nm * sizeof *ns);
        if (!ns) return -1;
        r->starts = ns;
        char **nn = realloc(r->names, nm * sizeof *nn);
        if (!nn) return -1;
        r->names = nn;
        r->m = nm;
    }
    char *s = malloc(name_len + 1);
    if (!s) return -1;
    memcpy(s, name, name_len);
    s[name_len] = '\0';
    r->starts[r->n] = start;
    r->names[r->n] = s;
    r->n++;
    return 0;
}

/* A cursor over lines. next_line gives a line without its '\n' and without
** one trailing '\r' (CRLF files); 0 at the end of input. */
typedef struct {
    const uint8_t *p, *end;
    uint64_t line; /* 1-based number of the line last returned */
    /* When non-NULL, set to 1 once the cursor (or a copy of it) reads up
    ** to `end` without a '\n': what it saw there may go on in bytes not
    ** yet read. The streaming reader (reader.c) then reads more and parses
    ** the record again; the whole-input readers pass NULL. */
    int *hit_end;
} wm_lines_t;

static inline int next_line(wm_lines_t *L, const uint8_t **s, size_t *len) {
    const uint8_t *p = L->p, *nl, *le;
    if (p >= L->end) {
        if (L->hit_end) *L->hit_end = 1;
        return 0;
    }
    nl = memchr(p, '\n', (size_t)(L->end - p));
    if (!nl && L->hit_end) *L->hit_end = 1;
    le = nl ? nl : L->end;
    L->p = nl ? nl + 1 : L->end;
    if (le > p && le[-1] == '\r') le--;
    L->line++;
    *s = p;
    *len = (size_t)(le - p);
    return 1;
}

static inline int is_blank(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* 1 when every byte of s[0, n) is printable, non-space ASCII (0x21..0x7e).
** Eight bytes at a time with the "has byte less than / more than" word
** tricks: exact for "is any byte outside", which is all this asks. */
static inline int all_graphic(const uint8_t *s, size_t n) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t acc0 = 0, acc1 = 0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t x, y;
        memcpy(&x, s + i, 8);
        memcpy(&y, s + i + 8, 8);
        acc0 |= ((x - ones * 0x21) & ~x) | (x + ones) | x;
        acc1 |= ((y - ones * 0x21) & ~y) | (y + ones) | y;
    }
    if (i + 8 <= n) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        acc0 |= ((x - ones * 0x21) & ~x) | (x + ones) | x;
        i += 8;
    }
    if ((acc0 | acc1) & highs) return 0;
    for (; i < n; i++)
        if ((uint8_t)(s[i] - 0x21) > 0x7e - 0x21) return 0;
    return 1;
}

/* Append one sequence line to out[*olen...]: the fast path copies it whole;
** a line with spaces, tabs or stray '\r' has them dropped byte by byte.
** Returns -1 and the offending byte in *bad on a binary byte. out may alias
** s as long as out + *olen <= s (in-place parsing). */
static inline int append_seq(uint8_t *out, uint64_t *olen, const uint8_t *s, size_t n,
                             uint8_t *bad) {
    if (all_graphic(s, n)) {
        memmove(out + *olen, s, n);
        *olen += n;
        return 0;
    }
    uint64_t o = *olen;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if ((uint8_t)(c - 0x21) <= 0x7e - 0x21) out[o++] = c;
        else if (c != ' ' && c != '\t' && c != '\r') {
            *bad = c;
            return -1;
        }
    }
    *olen = o;
    return 0;
}

/* Length of the first word of a header (after its '>' or '@'). */
static inline size_t name_len(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n && !is_blank(s[i])) i++;
    return i;
}

/* A record name (a header's first word) may not hold a control byte: a NUL
** would cut it short when printed, an ESC would reach the terminal raw. The
** blanks (' ', '\t', '\r', '\v', '\f') end a name, so only the other bytes
** below 0x20 and 0x7f (DEL) can be in one; bytes over 0x7f (UTF-8) are
** kept. Returns the first control byte of s[0, n), or -1 when there is none.
** Every reader refuses such a name, in the words of WM_NAME_CONTROL_FMT. */
static inline int name_control(const uint8_t *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] == 0x7f) return s[i];
    return -1;
}
#define WM_NAME_CONTROL_FMT "control byte 0x%02X in record name"

static inline int all_blank(const uint8_t *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!is_blank(s[i])) return 0;
    return 1;
}

/* Sequence bytes a line adds (graphic bytes; ' ', '\t', '\r' dropped), or -1
** at a binary byte: append_seq's count, without storing. */
static inline int64_t count_seq(const uint8_t *s, size_t n) {
    if (all_graphic(s, n)) return (int64_t)n;
    int64_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if ((uint8_t)(c - 0x21) <= 0x7e - 0x21) k++;
        else if (c != ' ' && c != '\t' && c != '\r') return -1;
    }
    return k;
}

/* A parse error: its line (1-based, counted by the cursor) and what comes
** after "path: line N: " in the message. */
typedef struct {
    uint64_t line;
    char rest[320];
} wm_parse_err_t;

/* One FASTQ record at the cursor, blank lines before it skipped: header,
** sequence lines up to the '+' line, quality lines until they are as long as
** the sequence (they may start with '@' or '+', so only their length tells
** where they end), and the empty quality line of an empty read.
** out = NULL: only walk (nothing stored, r not touched; olen, when not NULL,
** gets the sequence's length added); else the sequence is appended to
** out[*olen...] and the record pushed on r.
** Returns 1 after a record, 0 at the end of input, -1 on a format error (e
** filled; r may hold the record) and -2 when out of memory. */
static inline int fastq_record_(wm_lines_t *L, uint8_t *out, uint64_t *olen, wm_recs_t *r,
                                wm_parse_err_t *e, int probing);

/* A quality that does not end where the sequence does was either too long,
** or too short with the next record's header (and lines after it) taken for
** quality: quality lines may start with '@', so only this tells them apart.
** at: the cursor before the last quality line that starts with '@' (at->p
** NULL: none). When a whole record parses from there, that line is a header
** and the quality ended on the line before it: 1, with e filled. Else 0. */
static inline int fastq_short_quality(const wm_lines_t *at, const uint8_t *name, int name_shown,
                                      wm_parse_err_t *e) {
    if (at->p == NULL) return 0;
    wm_lines_t probe = *at;
    wm_parse_err_t pe;
    if (fastq_record_(&probe, NULL, NULL, NULL, &pe, 1) != 1) return 0;
    e->line = at->line; /* the line before the '@' line */
    snprintf(e->rest, sizeof e->rest, "quality shorter than sequence in FASTQ record '%.*s'",
             name_shown, name);
    return 1;
}

/* probing != 0: called by fastq_short_quality, which it does not call again
** (one record's look ahead, never a chain of them). */
static inline int fastq_record_(wm_lines_t *L, uint8_t *out, uint64_t *olen, wm_recs_t *r,
                                wm_parse_err_t *e, int probing) {
    const uint8_t *s;
    size_t len;
    uint8_t bad = 0;
    do {
        if (!next_line(L, &s, &len)) return 0;
    } while (all_blank(s, len));
    if (s[0] != '@') {
        e->line = L->line;
        snprintf(e->rest, sizeof e->rest, "expected '@' at the start of a FASTQ record");
        return -1;
    }
    uint64_t hline = L->line;
    const uint8_t *name = s + 1;
    size_t nl = name_len(s + 1, len - 1);
    if (nl == 0) {
        e->line = L->line;
        snprintf(e->rest, sizeof e->rest, "FASTQ header with no name");
        return -1;
    }
    int ctl = name_control(name, nl);
    if (ctl >= 0) {
        e->line = L->line;
        snprintf(e->rest, sizeof e->rest, WM_NAME_CONTROL_FMT, (unsigned)ctl);
        return -1;
    }
    if (out) {
        if (recs_push(r, *olen, name, nl) != 0) return -2;
        /* Parsing in place overwrites the header with sequence: quote the copy. */
        name = (const uint8_t *)r->names[r->n - 1];
    }
    int name_shown = nl < WM_MSG_NAME ? (int)nl : WM_MSG_NAME;
    uint64_t seq_len = 0;

    int got_plus = 0;
    while (next_line(L, &s, &len)) {
        if (len > 0 && s[0] == '+') {
            got_plus = 1;
            break;
        }
        if (out) {
            uint64_t before = *olen;
            if (append_seq(out, olen, s, len, &bad) != 0) goto binary;
            seq_len += *olen - before;
        } else {
            int64_t k = count_seq(s, len);
            if (k < 0) goto binary;
            seq_len += (uint64_t)k;
        }
    }
    if (!got_plus) goto truncated;

    uint64_t qlen = 0;
    wm_lines_t at = { NULL, NULL, 0, NULL }; /* before the last quality line starting with '@' */
    while (qlen < seq_len) {
        wm_lines_t before = *L;
        if (!next_line(L, &s, &len)) {
            if (!probing && fastq_short_quality(&at, name, name_shown, e)) return -1;
            goto truncated;
        }
        if (len > 0 && s[0] == '@') at = before;
        qlen += len;
    }
    if (qlen > seq_len) {
        if (!probing && fastq_short_quality(&at, name, name_shown, e)) return -1;
        e->line = L->line;
        snprintf(e->rest, sizeof e->rest, "quality longer than sequence in FASTQ record '%.*s'",
                 name_shown, name);
        return -1;
    }
    if (seq_len == 0) {
        /* An empty read has an empty quality line; eat it if present. */
        wm_lines_t save = *L;
        if (next_line(L, &s, &len) && len != 0) *L = save;
    }
    if (!out && olen) *olen += seq_len; /* a walk that counts */
    return 1;
binary:
    e->line = L->line;
    if (out == NULL) { /* find the byte for the message */
        for (size_t i = 0; i < len; i++)
            if ((uint8_t)(s[i] - 0x21) > 0x7e - 0x21 && s[i] != ' ' && s[i] != '\t' &&
                s[i] != '\r') {
                bad = s[i];
                break;
            }
    }
    snprintf(e->rest, sizeof e->rest, "binary byte 0x%02X in sequence", (unsigned)bad);
    return -1;
truncated:
    e->line = hline;
    snprintf(e->rest, sizeof e->rest, "truncated FASTQ record '%.*s'", name_shown, name);
    return -1;
}

/* What the readers call (see fastq_record_). */
static inline int fastq_record(wm_lines_t *L, uint8_t *out, uint64_t *olen, wm_recs_t *r,
                               wm_parse_err_t *e) {
    return fastq_record_(L, out, olen, r, e, 0);
}

/* One FASTA record at the cursor: blank lines before its header skipped
** (anything else before the first header is an error), the header (its
** first word is the name, pushed on r), then the sequence lines, appended to
** out[*olen...] without their line breaks, up to the next header (left for
** the next call) or the end. out may alias the input as append_seq allows.
** Returns 1 after a record, 0 at the end of input, -1 on a format error (e
** filled) and -2 when out of memory. */
static inline int fasta_record(wm_lines_t *L, uint8_t *out, uint64_t *olen, wm_recs_t *r,
                               wm_parse_err_t *e) {
    const uint8_t *s;
    size_t len;
    uint8_t bad = 0;
    for (;;) {
        if (!next_line(L, &s, &len)) return 0;
        if (len > 0 && s[0] == '>') break;
        /* Only blank lines may come before the first header (after a
        ** record, the cursor stops at the next header). */
        if (!all_blank(s, len)) {
            e->line = L->line;
            snprintf(e->rest, sizeof e->rest, "sequence data before the first '>' header");
            return -1;
        }
    }
    size_t nl = name_len(s + 1, len - 1);
    if (nl == 0) {
        e->line = L->line;
        snprintf(e->rest, sizeof e->rest, "FASTA header with no name");
        return -1;
    }
    int ctl = name_control(s + 1, nl);
    if (ctl >= 0) {
        e->line = L->line;
        snprintf(e->rest, sizeof e->rest, WM_NAME_CONTROL_FMT, (unsigned)ctl);
        return -1;
    }
    if (recs_push(r, *olen, s + 1, nl) != 0) return -2;
    for (;;) {
        wm_lines_t before = *L;
        if (!next_line(L, &s, &len)) return 1;
        if (len > 0 && s[0] == '>') {
            *L = before; /* the next record's header */
            return 1;
        }
        if (append_seq(out, olen, s, len, &bad) != 0) {
            e->line = L->line;
            snprintf(e->rest, sizeof e->rest, "binary byte 0x%02X in sequence", (unsigned)bad);
            return -1;
        }
    }
}

#endif
