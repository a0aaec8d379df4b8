/*
** patfile.c -- gathering a pattern set from -e strings and -f files.
**
** The per-pattern arrays (start, length, name, source, line) grow together.
** Files are read with wm_seqfile_read(path, force_plain = 1): that gives mmap
** for regular files, stdin and gzip inflation for free, and keeps the bytes
** unparsed so that this file decides what a line is (grep -F's rules, not
** FASTA's: '\r' stays, any byte is a pattern byte). Line patterns then point
** into that buffer; FASTA patterns are joined into a buffer of their own.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"
#include "cli.h"
#include "patfile.h"
#include "core/internal.h"
#include "io/seqparse.h"

static int nomem(void) {
    wm_cli_error("out of memory while reading the patterns");
    return -1;
}

/* Make room for `need` patterns in all the per-pattern arrays. */
static int reserve(wm_patset_t *ps, size_t need) {
    if (need <= ps->cap) return 0;
    size_t cap = ps->cap < 1024 ? 1024 : ps->cap;
    while (cap < need) cap *= 2;
    const uint8_t **pat = realloc(ps->pat, cap * sizeof *pat);
    if (pat != NULL) ps->pat = pat;
    size_t *len = realloc(ps->len, cap * sizeof *len);
    if (len != NULL) ps->len = len;
    uint32_t *src = realloc(ps->src, cap * sizeof *src);
    if (src != NULL) ps->src = src;
    uint64_t *line = realloc(ps->line, cap * sizeof *line);
    if (line != NULL) ps->line = line;
    if (pat == NULL || len == NULL || src == NULL || line == NULL) return nomem();
    if (ps->name != NULL) {
        const char **name = realloc(ps->name, cap * sizeof *name);
        if (name == NULL) return nomem();
        memset(name + ps->cap, 0, (cap - ps->cap) * sizeof *name);
        ps->name = name;
    }
    if (ps->qual != NULL) {
        const uint8_t **qual = realloc(ps->qual, cap * sizeof *qual);
        if (qual == NULL) return nomem();
        memset(qual + ps->cap, 0, (cap - ps->cap) * sizeof *qual);
        ps->qual = qual;
    }
    ps->cap = cap;
    return 0;
}

/* Make room in array a (m allocated, n used) for one more item; ok = 0 when
** out of memory (a is then unchanged). A macro: it keeps a's own type. */
#define GROW(a, m, n, ok)                                                                          \
    do {                                                                                           \
        if ((n) >= (m)) {                                                                          \
            size_t c_ = (m) < 8 ? 8 : (m)*2;                                                       \
            void *q_ = realloc((void *)(a), c_ * sizeof *(a));                                     \
            if (q_ == NULL) {                                                                      \
                (ok) = 0;                                                                          \
            } else {                                                                               \
                (a) = q_;                                                                          \
                (m) = c_;                                                                          \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static int push(wm_patset_t *ps, const uint8_t *p, size_t m, const char *name, uint32_t src,
                uint64_t line) {
    if (reserve(ps, ps->n + 1) < 0) return -1;
    if (name != NULL && ps->name == NULL) {
        /* The first named pattern: every earlier one prints as its number. */
        ps->name = calloc(ps->cap, sizeof *ps->name);
        if (ps->name == NULL) return nomem();
    }
    ps->pat[ps->n] = p;
    ps->len[ps->n] = m;
    if (ps->name != NULL) ps->name[ps->n] = name;
    ps->src[ps->n] = src;
    ps->line[ps->n] = line;
    ps->n++;
    return 0;
}

int wm_patset_add_string(wm_patset_t *ps, const char *s) {
    return push(ps, (const uint8_t *)s, strlen(s), NULL, UINT32_MAX, 0);
}

static int check_length(const char *where, uint64_t line, size_t m) {
    if (m == 0) {
        wm_cli_error("%s:%" PRIu64 ": empty pattern", where, line);
        return -1;
    }
    if (m > WM_MAX_PATTERN) {
        wm_cli_error("%s:%" PRIu64 ": pattern of %zu bytes; the longest allowed is %u", where, line,
                     m, WM_MAX_PATTERN);
        return -1;
    }
    return 0;
}

/* One pattern per line, as grep -F -f reads them. */
static int parse_lines(wm_patset_t *ps, const uint8_t *data, size_t n, uint32_t src) {
    const char *where = ps->srcs[src];
    const uint8_t *p = data, *end = data + n;
    size_t lines = 0;

    /* Count first, so that the arrays grow once for a file of a million. */
    for (const uint8_t *q = data; q < end; ++lines) {
        const uint8_t *nl = memchr(q, '\n', (size_t)(end - q));
        q = nl != NULL ? nl + 1 : end;
    }
    if (reserve(ps, ps->n + lines) < 0) return -1;
    for (uint64_t line = 1; p < end; ++line) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *e = nl != NULL ? nl : end;
        if (check_length(where, line, (size_t)(e - p)) < 0 ||
            push(ps, p, (size_t)(e - p), NULL, src, line) < 0)
            return -1;
        p = nl != NULL ? nl + 1 : end;
    }
    return 0;
}

static int is_space(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A header line p..e ('>' at p): where its name (the first word) ends. */
static const uint8_t *name_end(const uint8_t *p, const uint8_t *e) {
    const uint8_t *w = p + 1;
    while (w < e && !is_space(*w)) ++w;
    return w;
}

/* The name p + 1..w copied to o with its NUL; returns where the sequence
** goes. */
static uint8_t *copy_name(const uint8_t *p, const uint8_t *w, uint8_t *o) {
    memmove(o, p + 1, (size_t)(w - p - 1));
    o += w - p - 1;
    *o++ = '\0';
    return o;
}

/* A sequence line p..e's bytes without whitespace appended at o. */
static uint8_t *copy_bases(const uint8_t *p, const uint8_t *e, uint8_t *o) {
    for (const uint8_t *c = p; c < e; ++c)
        if (!is_space(*c)) *o++ = *c;
    return o;
}

/* FASTA: a record's sequence is one pattern named by the header's first word.
** Names and joined sequences are written front to back into out (n + 1
** bytes): each takes no more room than the line it came from, and the + 1 is
** for the NUL of a last header without '\n'. */
static int parse_fasta(wm_patset_t *ps, const uint8_t *data, size_t n, uint32_t src, uint8_t *out) {
    const char *where = ps->srcs[src];
    const uint8_t *p = data, *end = data + n;
    uint8_t *o = out, *seq = NULL;
    const char *name = NULL;
    uint64_t hline = 0;

    for (uint64_t line = 1; p <= end; ++line) {
        const uint8_t *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        const uint8_t *e = nl != NULL ? nl : end;
        if (p == end || *p == '>') {
            if (seq != NULL) { /* the previous record is complete */
                size_t m = (size_t)(o - seq);
                if (m == 0) {
                    wm_cli_error("%s:%" PRIu64 ": empty pattern (FASTA record '%s' "
                                 "has no sequence)",
                                 where, hline, name);
                    return -1;
                }
                if (check_length(where, hline, m) < 0 || push(ps, seq, m, name, src, hline) < 0)
                    return -1;
            }
            if (p == end) break;
            const uint8_t *w = name_end(p, e);
            if (w == p + 1) {
                wm_cli_error("%s:%" PRIu64 ": FASTA header with no name", where, line);
                return -1;
            }
            int ctl = name_control(p + 1, (size_t)(w - p - 1));
            if (ctl >= 0) {
                wm_cli_error("%s:%" PRIu64 ": " WM_NAME_CONTROL_FMT, where, line, (unsigned)ctl);
                return -1;
            }
            name = (const char *)o;
            seq = o = copy_name(p, w, o);
            hline = line;
        } else {
            o = copy_bases(p, e, o);
        }
        p = nl != NULL ? nl + 1 : end;
    }
    return 0;
}

/* ---- FASTA on threads --------------------------------------------------------- */

/* A FASTA file of a million reads is 160 MB: one thread parsing it (and
** faulting in the file and the joined sequences) took 0.3-0.5 s of a
** million reads' 2 s on the GPU. From FASTA_PARALLEL_MIN bytes the file is
** cut at record starts ('>' after a '\n') into blocks, each parsed by
** parse_fasta's rules into its own part of out (a block's names and
** sequences take no more room than its bytes) with lines counted from its
** start; the records are then pushed in order, their lines moved by the
** blocks before. A block that meets anything parse_fasta would refuse hands
** the whole file to parse_fasta, so every message is the serial one. */
#define FASTA_PARALLEL_MIN (32u << 20)
#define FASTA_BLOCKS_PER_THREAD 4

/* The tests set WM_TEST_PATFILE_PARALLEL (bytes) to parse small files on
** threads, with block edges everywhere. */
static size_t fasta_parallel_min(void) {
    const char *s = getenv("WM_TEST_PATFILE_PARALLEL");
    long v = s ? atol(s) : 0;
    return v > 0 ? (size_t)v : FASTA_PARALLEL_MIN;
}

typedef struct {
    const uint8_t *seq;
    size_t m;
    const char *name;
    uint64_t line; /* the header's, counted from the block's first line */
} fasta_rec_t;

typedef struct {
    size_t lo, hi; /* the block: data[lo, hi), starting with '>' */
    fasta_rec_t *rec;
    size_t n, cap;
    uint64_t lines; /* '\n's in the block */
    int bad;        /* refused (or out of memory): the serial parser decides */
} fasta_block_t;

typedef struct {
    const uint8_t *data;
    uint8_t *out;
    fasta_block_t *b;
} fasta_job_t;

static int block_push(fasta_block_t *b, const uint8_t *seq, size_t m, const char *name,
                      uint64_t line) {
    if (m == 0 || m > WM_MAX_PATTERN) return -1;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        fasta_rec_t *r = realloc(b->rec, cap * sizeof *r);
        if (r == NULL) return -1;
        b->rec = r;
        b->cap = cap;
    }
    b->rec[b->n++] = (fasta_rec_t){ seq, m, name, line };
    return 0;
}

static void fasta_block(void *arg, size_t i, int tid) {
    (void)tid;
    const fasta_job_t *J = arg;
    fasta_block_t *b = &J->b[i];
    const uint8_t *p = J->data + b->lo, *end = J->data + b->hi;
    uint8_t *o = J->out + b->lo, *seq = NULL;
    const char *name = NULL;
    uint64_t hline = 0, line = 1;
    for (; p <= end; ++line) {
        const uint8_t *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        const uint8_t *e = nl != NULL ? nl : end;
        if (p == end || *p == '>') {
            if (seq != NULL && block_push(b, seq, (size_t)(o - seq), name, hline) < 0) break;
            if (p == end) {
                b->lines = line - 1;
                return;
            }
            const uint8_t *w = name_end(p, e);
            if (w == p + 1 || name_control(p + 1, (size_t)(w - p - 1)) >= 0) break;
            name = (const char *)o;
            seq = o = copy_name(p, w, o);
            hline = line;
        } else {
            o = copy_bases(p, e, o);
        }
        p = nl != NULL ? nl + 1 : end;
    }
    b->bad = 1;
}

/* 1 when parsed here, 0 when the serial parser must (a block refused, too
** small, one thread), -1 out of memory (message printed). */
static int parse_fasta_parallel(wm_patset_t *ps, const uint8_t *data, size_t n, uint32_t src,
                                uint8_t *out) {
    int t = wm_cli_threads(ps->threads);
    if (n < fasta_parallel_min() || t < 2) return 0;
    size_t nb = (size_t)t * FASTA_BLOCKS_PER_THREAD;
    fasta_block_t *b = calloc(nb, sizeof *b);
    wm_pool_t *pool = b != NULL ? wm_pool_new(t) : NULL;
    if (pool == NULL) {
        free(b);
        return nomem();
    }
    /* cut at the first record start ('>' after '\n') at or past each n (i + 1) / nb */
    size_t at = 0;
    for (size_t i = 0; i < nb; i++) {
        b[i].lo = at;
        size_t cut = i + 1 == nb ? n : n / nb * (i + 1);
        if (cut < at) cut = at;
        while (cut < n && !(data[cut] == '>' && data[cut - 1] == '\n')) {
            const uint8_t *gt = memchr(data + cut + 1, '>', n - cut - 1);
            cut = gt != NULL ? (size_t)(gt - data) : n;
        }
        b[i].hi = at = cut;
    }
    fasta_job_t J = { data, out, b };
    wm_pool_for(pool, nb, fasta_block, &J);
    wm_pool_free(pool);
    int rc = 1;
    size_t total = 0;
    for (size_t i = 0; i < nb && rc == 1; i++) {
        if (b[i].bad) rc = 0;
        total += b[i].n;
    }
    if (rc == 1 && reserve(ps, ps->n + total) < 0) rc = -1;
    uint64_t lines = 0; /* before the block */
    for (size_t i = 0; i < nb && rc == 1; i++) {
        for (size_t r = 0; r < b[i].n && rc == 1; r++) {
            const fasta_rec_t *x = &b[i].rec[r];
            if (push(ps, x->seq, x->m, x->name, src, lines + x->line) < 0) rc = -1;
        }
        lines += b[i].lines;
    }
    for (size_t i = 0; i < nb; i++) free(b[i].rec);
    free(b);
    return rc;
}

/* The end of the line that starts at p (its '\n', or end), and where the next
** starts. */
static const uint8_t *line_end(const uint8_t *p, const uint8_t *end, const uint8_t **next) {
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    *next = nl != NULL ? nl + 1 : end;
    return nl != NULL ? nl : end;
}

/* Without a '\r' before the '\n' (FASTQ lines, unlike line patterns, are
** records of a format: CRLF files are read as the format means). */
static const uint8_t *trim_cr(const uint8_t *p, const uint8_t *e) {
    return e > p && e[-1] == '\r' ? e - 1 : e;
}

/* Whether data starts as FASTQ does: a line of '@' and a name, a line, and a
** line starting with '+' (the rest is checked as FASTQ, with its own
** messages). A file of line patterns whose first starts with '@' and whose
** third does not start with '+' stays one. */
static int looks_fastq(const uint8_t *data, size_t n) {
    const uint8_t *end = data + n, *p = data, *l[3], *e[3];
    if (n == 0 || data[0] != '@') return 0;
    for (int i = 0; i < 3; i++) {
        if (p >= end) return 0;
        l[i] = p;
        e[i] = trim_cr(p, line_end(p, end, &p));
    }
    return e[0] - l[0] > 1 && e[2] > l[2] && *l[2] == '+';
}

/* FASTQ: each record's sequence is one pattern named by the header's first
** word, its quality line kept (SAM prints it). Patterns and qualities point
** into the file's buffer; names are copied into out (n + 1 bytes). */
static int parse_fastq(wm_patset_t *ps, const uint8_t *data, size_t n, uint32_t src, uint8_t *out) {
    const char *where = ps->srcs[src];
    const uint8_t *p = data, *end = data + n;
    uint8_t *o = out;
    for (uint64_t line = 1; p < end; line += 4) {
        const uint8_t *l[4], *e[4];
        for (int i = 0; i < 4; i++) {
            if (p >= end) {
                wm_cli_error("%s:%" PRIu64 ": FASTQ record cut short (4 lines a record)", where,
                             line);
                return -1;
            }
            l[i] = p;
            e[i] = trim_cr(p, line_end(p, end, &p));
        }
        if (*l[0] != '@' || *l[2] != '+') {
            wm_cli_error("%s:%" PRIu64 ": not a FASTQ record (%s)", where,
                         *l[0] != '@' ? line : line + 2,
                         *l[0] != '@' ? "a header starts with '@'" : "line 3 starts with '+'");
            return -1;
        }
        const uint8_t *w = l[0] + 1;
        while (w < e[0] && !is_space(*w)) ++w;
        if (w == l[0] + 1) {
            wm_cli_error("%s:%" PRIu64 ": FASTQ header with no name", where, line);
            return -1;
        }
        int ctl = name_control(l[0] + 1, (size_t)(w - l[0] - 1));
        if (ctl >= 0) {
            wm_cli_error("%s:%" PRIu64 ": " WM_NAME_CONTROL_FMT, where, line, (unsigned)ctl);
            return -1;
        }
        size_t m = (size_t)(e[1] - l[1]);
        if (m != (size_t)(e[3] - l[3])) {
            wm_cli_error("%s:%" PRIu64 ": %zu bases and %zu qualities", where, line + 3, m,
                         (size_t)(e[3] - l[3]));
            return -1;
        }
        memcpy(o, l[0] + 1, (size_t)(w - l[0] - 1));
        const char *name = (const char *)o;
        o += w - l[0] - 1;
        *o++ = '\0';
        if (check_length(where, line + 1, m) < 0 || push(ps, l[1], m, name, src, line) < 0)
            return -1;
        if (ps->qual == NULL) {
            ps->qual = calloc(ps->cap, sizeof *ps->qual);
            if (ps->qual == NULL) return nomem();
        }
        ps->qual[ps->n - 1] = l[3];
    }
    return 0;
}

int wm_patset_add_file(wm_patset_t *ps, const char *path) {
    const char *where = strcmp(path, "-") == 0 ? "(standard input)" : path;
    char err[1024] = "";

    int ok = 1;
    GROW(ps->files, ps->m_files, ps->n_files, ok);
    GROW(ps->srcs, ps->m_srcs, ps->n_srcs, ok);
    GROW(ps->bufs, ps->m_bufs, ps->n_bufs, ok);
    if (!ok) return nomem();
    wm_seqfile_t *sf = &ps->files[ps->n_files];
    memset(sf, 0, sizeof *sf);
    wm_status st = wm_seqfile_read(path, 1, sf, err, sizeof err);
    if (st != WM_OK) {
        if (err[0] != '\0') wm_cli_error("%s", err);
        else wm_cli_error("%s: %s", where, wm_strerror(st));
        wm_seqfile_close(sf);
        return -1;
    }
    ps->n_files++;
    uint32_t src = (uint32_t)ps->n_srcs;
    ps->srcs[ps->n_srcs++] = where;

    const uint8_t *data = sf->text.seq;
    size_t n = (size_t)sf->text.len;
    size_t before = ps->n;
    if (n > 0 && (data[0] == '>' || looks_fastq(data, n))) {
        uint8_t *out = malloc(n + 1);
        if (out == NULL) return nomem();
        ps->bufs[ps->n_bufs++] = out;
        int done = data[0] == '>' ? parse_fasta_parallel(ps, data, n, src, out) : 0;
        if (done < 0) return -1;
        if (!done && (data[0] == '>' ? parse_fasta : parse_fastq)(ps, data, n, src, out) < 0)
            return -1;
    } else if (parse_lines(ps, data, n, src) < 0) {
        return -1;
    }
    if (ps->n == before) {
        wm_cli_error("%s: no patterns (the file is empty)", where);
        return -1;
    }
    return 0;
}

const char *wm_patset_where(const wm_patset_t *ps, size_t i, char *buf, size_t len) {
    if (ps->line[i] == 0) snprintf(buf, len, "-e");
    else snprintf(buf, len, "%s:%" PRIu64, ps->srcs[ps->src[i]], ps->line[i]);
    return buf;
}

void wm_patset_free(wm_patset_t *ps) {
    for (size_t i = 0; i < ps->n_files; ++i) wm_seqfile_close(&ps->files[i]);
    for (size_t i = 0; i < ps->n_bufs; ++i) free(ps->bufs[i]);
    free(ps->files);
    free(ps->bufs);
    free(ps->pat);
    free(ps->len);
    free(ps->name);
    free(ps->qual);
    free(ps->src);
    free(ps->line);
    free(ps->srcs);
    memset(ps, 0, sizeof *ps);
}
