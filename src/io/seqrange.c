/*
** seqrange.c -- a part's share of an input file (see seqrange.h).
**
** The file is mapped read-only and a part touches only its own bytes, plus
** the few it needs around them: the line or record it starts in, the header
** line of the record it continues, and the halo before its first byte. The
** slice is parsed with the same line-level code as the whole-file reader
** (seqparse.h), so records, bytes and messages are the same.
*/
#include "io/seqrange.h"
#include "core/plan.h"
#include "io/seqparse.h"
#include "io/zsrc.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define STDIN_NAME "(standard input)"

static wm_status nomem(const wm_range_t *R, char *err, size_t errlen) {
    set_err(err, errlen, "%s: out of memory", R->dpath);
    return WM_NOMEM;
}

/* The mapping of the whole file (NULL for an empty one). */
static const uint8_t *map_of(const wm_range_t *R) { return (const uint8_t *)R->whole_sf.map_base; }

/* ---- opening: size, format, this part's first start ----------------------- */

uint64_t wm_range_line_start(const uint8_t *f, uint64_t size, uint64_t at) {
    if (at == 0) return 0;
    if (at >= size) return size;
    const uint8_t *nl = memchr(f + at - 1, '\n', (size_t)(size - (at - 1)));
    return nl ? (uint64_t)(nl - f) + 1 : size;
}

int wm_range_fastq_starts_at(const uint8_t *f, uint64_t size, uint64_t p) {
    if (f[p] != '@') return 0;
    wm_lines_t L = { f + p, f + size, 0, NULL };
    wm_parse_err_t e;
    if (fastq_record(&L, NULL, NULL, NULL, &e) != 1) return 0;
    const uint8_t *s;
    size_t len;
    while (next_line(&L, &s, &len))
        if (!all_blank(s, len)) return s[0] == '@';
    return 1;
}

wm_status wm_range_open(wm_range_t *R, const char *path, wm_range_mode_t mode, uint64_t part,
                        uint64_t n_parts, char *err, size_t errlen) {
    memset(R, 0, sizeof *R);
    R->fd = -1;
    R->path = path;
    R->dpath = strcmp(path, "-") == 0 ? STDIN_NAME : path;
    R->unread = mode == WM_RANGE_RECORDS_UNREAD;
    R->mode = R->unread ? WM_RANGE_RECORDS : mode;
    if (err && errlen) err[0] = '\0';
    if (strcmp(path, "-") == 0) {
        R->whole = 1;
        return WM_OK;
    }
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        /* Part 0 reads it whole and says what is wrong, as one process would. */
        if (fd >= 0) close(fd);
        R->whole = 1;
        return WM_OK;
    }
    R->fd = fd;
    R->size = (uint64_t)st.st_size;
    if (R->size > 0) {
        void *m = mmap(NULL, (size_t)R->size, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            set_err(err, errlen, "%s: cannot map the file", R->dpath);
            return WM_IO;
        }
        R->whole_sf.map_base = m;
        R->whole_sf.map_len = (size_t)R->size;
    }
    const uint8_t *f = map_of(R);
    if (wm_zmagic(f, R->size < WM_ZMAGIC_LEN ? (size_t)R->size : WM_ZMAGIC_LEN, NULL) !=
        WM_Z_PLAIN) {
        /* Compressed: no random access (and part 0 says what is wrong with
        ** a format not read). */
        R->whole = 1;
        return WM_OK;
    }
    R->format = WM_FMT_PLAIN;
    for (uint64_t i = 0; i < R->size; i++) {
        if (is_blank(f[i])) continue;
        R->format = f[i] == '>' ? WM_FMT_FASTA : f[i] == '@' ? WM_FMT_FASTQ : WM_FMT_PLAIN;
        break;
    }
    /* The one planner's even cut, so that ranks split a file as GPU shards
    ** split a text (the bytes here are file bytes, not yet sequence). */
    wm_plan_t plan = wm_plan_even(0, R->size, n_parts);
    wm_plan_part(&plan, part, &R->lo, &R->hi);
    switch (R->format) {
    case WM_FMT_PLAIN: R->guess = R->lo; break;
    case WM_FMT_FASTA: R->guess = wm_range_line_start(f, R->size, R->lo); break;
    case WM_FMT_FASTQ: R->guess = wm_range_fastq_guess(f, R->size, R->lo); break;
    }
    return WM_OK;
}

uint64_t wm_range_fastq_guess(const uint8_t *f, uint64_t size, uint64_t at) {
    uint64_t p = wm_range_line_start(f, size, at);
    while (p < size && !wm_range_fastq_starts_at(f, size, p))
        p = wm_range_line_start(f, size, p + 1);
    return p;
}

uint64_t wm_range_fastq_walk(const uint8_t *f, uint64_t size, uint64_t start, uint64_t next_guess,
                             int (*push)(void *user, uint64_t at), void *user, int *broken) {
    if (broken) *broken = 0;
    if (start >= next_guess || start >= size) return next_guess;
    wm_lines_t L = { f + start, f + size, 0, NULL };
    wm_parse_err_t e;
    for (;;) {
        /* Blank lines belong to no record: a record starts at its '@'. */
        const uint8_t *s;
        size_t len;
        wm_lines_t save = L;
        while (next_line(&L, &s, &len) && all_blank(s, len)) save = L;
        L = save;
        uint64_t at = (uint64_t)(L.p - f);
        if (at >= next_guess || at >= size) return at < size ? at : size;
        if (fastq_record(&L, NULL, NULL, NULL, &e) != 1) {
            /* A broken record before the guess: this slice runs to the end
            ** of the file, so that its parse meets that error first (if
            ** this start was itself a wrong guess, a later round moves it). */
            if (broken) *broken = 1;
            return size;
        }
        if (push && push(user, at) < 0) {
            if (broken) *broken = 1;
            return size;
        }
    }
}

void wm_range_fastq_agree(const uint8_t *f, uint64_t size, uint64_t part, uint64_t n_parts,
                          uint64_t *starts, uint64_t *landed, wm_range_allgather_fn allgather,
                          void *user) {
    const uint64_t N = n_parts;
    for (uint64_t round = 0; round <= N; round++) {
        for (uint64_t q = 1; q <= N; q++)
            if (starts[q] < starts[q - 1]) starts[q] = starts[q - 1];
        uint64_t mine = part + 1 < N ? wm_range_fastq_walk(f, size, starts[part], starts[part + 1],
                                                           NULL, NULL, NULL)
                                     : starts[N];
        allgather(user, &mine, sizeof mine, landed);
        int moved = 0;
        for (uint64_t q = 0; q + 1 < N; q++)
            if (landed[q] != starts[q + 1]) {
                starts[q + 1] = landed[q];
                moved = 1;
            }
        if (!moved) break;
    }
    for (uint64_t q = 1; q <= N; q++)
        if (starts[q] < starts[q - 1]) starts[q] = starts[q - 1];
}

wm_status wm_range_fastq_next(wm_range_t *R, uint64_t start, uint64_t next_guess, uint64_t *next,
                              char *err, size_t errlen) {
    (void)err;
    (void)errlen;
    *next = wm_range_fastq_walk(map_of(R), R->size, start, next_guess, NULL, NULL, NULL);
    return WM_OK;
}

/* ---- the slice ----------------------------------------------------------------- */

static int push_rec(wm_range_t *R, wm_recs_t *recs, uint64_t at, const uint8_t *name, size_t nl) {
    (void)R;
    return recs_push(recs, at, name, nl);
}

/* The first byte of s[0, n) that a sequence line refuses (append_seq's
** rule: not graphic, not ' ', '\t' or '\r') in *bad; 0 when there is none. */
static int first_refused(const uint8_t *s, size_t n, uint8_t *bad) {
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if ((uint8_t)(c - 0x21) > 0x7e - 0x21 && c != ' ' && c != '\t' && c != '\r') {
            *bad = c;
            return 1;
        }
    }
    return 0;
}

/* FASTA lines of the slice. Bytes before the first header continue the
** record of an earlier part (or are an error when no part had a header). */
static wm_status parse_fasta_slice(wm_range_t *R, const uint8_t *in, uint64_t n, uint8_t *out,
                                   wm_recs_t *recs, char *err, size_t errlen) {
    wm_lines_t L = { in, in + n, 0, NULL };
    const uint8_t *s;
    size_t len;
    uint64_t olen = 0;
    uint8_t bad = 0;
    wm_range_summary_t *S = &R->sum;

    while (next_line(&L, &s, &len)) {
        if (len > 0 && s[0] == '>') {
            size_t nl = name_len(s + 1, len - 1);
            if (nl == 0) {
                S->err = WM_FORMAT;
                S->err_line = L.line;
                snprintf(R->err_rest, sizeof R->err_rest, "FASTA header with no name");
                break;
            }
            int ctl = name_control(s + 1, nl);
            if (ctl >= 0) {
                S->err = WM_FORMAT;
                S->err_line = L.line;
                snprintf(R->err_rest, sizeof R->err_rest, WM_NAME_CONTROL_FMT, (unsigned)ctl);
                break;
            }
            if (push_rec(R, recs, olen, s + 1, nl) != 0) return nomem(R, err, errlen);
            if (S->n_headers == 0) S->pre = olen;
            S->n_headers++;
            S->last_header = (uint64_t)(s - map_of(R));
            continue;
        }
        if (S->n_headers == 0) {
            if (!all_blank(s, len)) {
                if (S->pre_data_line == 0) S->pre_data_line = L.line;
            } else if (R->start != 0 && first_refused(s, len, &bad)) {
                /* Blank to the whole-file reader before the file's first
                ** header, a binary byte inside a record: which it is, only
                ** the parts before can tell (wm_range_finish decides). */
                if (S->pre_bad_line == 0) {
                    S->pre_bad_line = L.line;
                    S->pre_bad_byte = bad;
                }
                continue;
            }
            if (R->start == 0) continue; /* the file's start: blank, or an error */
        }
        if (append_seq(out, &olen, s, len, &bad) != 0) {
            S->err = WM_FORMAT;
            S->err_line = L.line;
            snprintf(R->err_rest, sizeof R->err_rest, "binary byte 0x%02X in sequence",
                     (unsigned)bad);
            break;
        }
    }
    R->n_seq = olen;
    if (S->n_headers == 0) S->pre = olen;
    S->post = S->n_headers ? olen - recs->starts[recs->n - 1] : olen;
    return WM_OK;
}

static wm_status parse_fastq_slice(wm_range_t *R, const uint8_t *in, uint64_t n, uint8_t *out,
                                   wm_recs_t *recs, char *err, size_t errlen) {
    wm_lines_t L = { in, in + n, 0, NULL };
    wm_parse_err_t e;
    uint64_t olen = 0;
    int k;
    wm_range_summary_t *S = &R->sum;
    while ((k = fastq_record(&L, out, &olen, recs, &e)) == 1)
        ;
    if (k == -2) return nomem(R, err, errlen);
    if (k == -1) {
        S->err = WM_FORMAT;
        S->err_line = e.line;
        snprintf(R->err_rest, sizeof R->err_rest, "%s", e.rest);
    }
    R->n_seq = olen;
    S->n_headers = recs->n;
    S->pre = 0;
    S->post = recs->n ? olen - recs->starts[recs->n - 1] : 0;
    return WM_OK;
}

/* A plain file as one sequence (align): blanks dropped, other bytes that are
** not printable ASCII refused with their offset, as alignio.c does. */
static wm_status parse_joined_slice(wm_range_t *R, const uint8_t *in, uint64_t n, uint8_t *out) {
    uint64_t o = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t c = in[i];
        if (c > 0x20 && c < 0x7f) {
            out[o++] = c;
        } else if (!is_blank(c)) {
            R->sum.err = WM_FORMAT;
            snprintf(R->err_rest, sizeof R->err_rest,
                     "byte 0x%02X at offset %" PRIu64 ": not a sequence file (binary bytes); "
                     "use --alphabet text to align its raw bytes",
                     (unsigned)c, R->start + i);
            break;
        }
    }
    R->n_seq = o;
    R->sum.pre = R->sum.post = o;
    return WM_OK;
}

static uint64_t count_lines(const uint8_t *p, uint64_t n) {
    uint64_t k = 0;
    const uint8_t *end = p + n;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        k++;
        p++;
    }
    return k;
}

wm_status wm_range_parse(wm_range_t *R, uint64_t start, uint64_t end, uint64_t room, char *err,
                         size_t errlen) {
    memset(&R->sum, 0, sizeof R->sum);
    R->sum.last_header = WM_RANGE_NONE;
    R->start = R->sum.start = start;
    R->end = end;
    R->room = room;
    if (R->whole) return WM_OK;
    /* an empty file has no map (n is 0 then): NULL + 0 is undefined */
    const uint8_t *in = map_of(R) ? map_of(R) + start : (const uint8_t *)"";
    uint64_t n = end - start;
    int raw = R->format == WM_FMT_PLAIN && R->mode == WM_RANGE_RECORDS;
    if (raw) {
        /* The file's own bytes, halo included, are the text: no copy. Map
        ** the pages now (one call, not a fault per page), so that reading
        ** is done here and searching starts from memory; unless the caller
        ** reads them from the file itself. */
#ifdef MADV_POPULATE_READ
        uint64_t a0 = start & ~(uint64_t)4095;
        if (n > 0 && !R->unread)
            (void)madvise((void *)(map_of(R) + a0), (size_t)(end - a0), MADV_POPULATE_READ);
#endif
        R->n_seq = n;
        R->sum.pre = R->sum.post = n;
        return WM_OK;
    }
    R->buf = malloc((size_t)(room + n + 1));
    if (!R->buf) return nomem(R, err, errlen);
    uint8_t *out = R->buf + room;
    wm_recs_t recs;
    memset(&recs, 0, sizeof recs);
    wm_status st = WM_OK;
    if (R->format == WM_FMT_FASTA) st = parse_fasta_slice(R, in, n, out, &recs, err, errlen);
    else if (R->format == WM_FMT_FASTQ) st = parse_fastq_slice(R, in, n, out, &recs, err, errlen);
    else st = parse_joined_slice(R, in, n, out);
    /* Line numbers count line breaks, so a slice (which starts at a line
    ** start) adds exactly its '\n's to the lines before the next one. */
    R->sum.n_lines = R->format == WM_FMT_PLAIN ? 0 : count_lines(in, n);
    R->rec_start = recs.starts;
    R->rec_name = recs.names;
    R->n_local = recs.n;
    if (st != WM_OK) return st;
    if (!R->rec_start) {
        R->rec_start = malloc(sizeof *R->rec_start);
        if (!R->rec_start) return nomem(R, err, errlen);
    }
    R->rec_start[R->n_local] = R->n_seq; /* recs_push leaves room for it */
    return WM_OK;
}

/* ---- after the exchange ------------------------------------------------------- */

/* The name in the header line at file offset `at` (its '>'). */
static char *header_name(const wm_range_t *R, uint64_t at) {
    const uint8_t *f = map_of(R);
    const uint8_t *s = f + at + 1, *e = memchr(s, '\n', (size_t)(R->size - at - 1));
    size_t n = e ? (size_t)(e - s) : (size_t)(f + R->size - s);
    size_t nl = name_len(s, n);
    char *name = malloc(nl + 1);
    if (name) {
        memcpy(name, s, nl);
        name[nl] = '\0';
    }
    return name;
}

/* Up to `want` sequence bytes of a FASTA record just before file offset `at`
** (a line start), not going back past the record's header at `hdr`; written
** so that they end at dst. Returns how many. */
static uint64_t fasta_halo(const wm_range_t *R, uint64_t hdr, uint64_t at, uint64_t want,
                           uint8_t *dst) {
    const uint8_t *f = map_of(R);
    uint64_t back = 2 * want + 4096;
    for (;;) {
        uint64_t from = at - hdr > back ? at - back : hdr;
        const uint8_t *p = f + from, *end = f + at;
        /* Start at a line start: after the header line, or after the first
        ** line break (the part of a line before it may be cut). */
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL) {
            if (from == hdr) return 0;
            back *= 2;
            continue;
        }
        p = nl + 1;
        /* Count the bytes the lines give, then copy the last `want`. */
        uint64_t total = 0;
        wm_lines_t L = { p, end, 0, NULL };
        const uint8_t *s;
        size_t len;
        while (next_line(&L, &s, &len)) {
            int64_t k = count_seq(s, len);
            total += k > 0 ? (uint64_t)k : 0;
        }
        if (total < want && from > hdr) {
            back *= 2;
            continue;
        }
        uint64_t take = total < want ? total : want, skip = total - take, o = 0;
        L = (wm_lines_t){ p, end, 0, NULL };
        while (next_line(&L, &s, &len)) {
            if (count_seq(s, len) < 0) continue; /* a broken line: its part fails */
            for (size_t i = 0; i < len; i++) {
                uint8_t c = s[i];
                if ((uint8_t)(c - 0x21) > 0x7e - 0x21) continue;
                if (skip) {
                    skip--;
                    continue;
                }
                dst[o++] = c;
            }
        }
        /* dst holds them from its start; move them to end at dst + want. */
        (void)o;
        return take;
    }
}

/* The same for a plain file read as one sequence: non-blank bytes before `at`. */
static uint64_t joined_halo(const wm_range_t *R, uint64_t at, uint64_t want, uint8_t *dst) {
    const uint8_t *f = map_of(R);
    uint64_t got = 0, i = at;
    /* Walk back, then reverse: the halo is small. */
    while (i > 0 && got < want) {
        uint8_t c = f[--i];
        if (c > 0x20 && c < 0x7f) dst[got++] = c;
    }
    for (uint64_t a = 0, b = got; b > a + 1; a++, b--) {
        uint8_t t = dst[a];
        dst[a] = dst[b - 1];
        dst[b - 1] = t;
    }
    return got;
}

uint64_t wm_range_record_tail(const wm_range_summary_t *sums, uint64_t n_parts, uint64_t part) {
    uint64_t tail = 0;
    for (uint64_t q = part + 1; q < n_parts; q++) {
        tail += sums[q].pre;
        if (sums[q].n_headers > 0) break;
    }
    return tail;
}

static wm_status alloc_result(wm_range_t *R, size_t n_rec, char *err, size_t errlen) {
    R->text.n_rec = n_rec;
    R->starts_mem = calloc(n_rec + 1, sizeof *R->starts_mem);
    R->names = calloc(n_rec ? n_rec : 1, sizeof *R->names);
    R->grec = calloc(n_rec ? n_rec : 1, sizeof *R->grec);
    R->base = calloc(n_rec ? n_rec : 1, sizeof *R->base);
    if (!R->starts_mem || !R->names || !R->grec || !R->base) return nomem(R, err, errlen);
    R->text.rec_start = R->starts_mem;
    return WM_OK;
}

wm_status wm_range_finish(wm_range_t *R, const wm_range_summary_t *sums, uint64_t n_parts,
                          uint64_t part, uint64_t halo, char *err, size_t errlen) {
    (void)n_parts;
    if (R->whole) return wm_range_read_whole(R, part, err, errlen);
    const wm_range_summary_t *S = &sums[part];

    /* Before this slice: records begun, lines, and the record it continues. */
    uint64_t headers_before = 0, lines_before = 0, cont_hdr = WM_RANGE_NONE, offset = 0;
    for (uint64_t q = 0; q < part; q++) {
        headers_before += sums[q].n_headers;
        lines_before += sums[q].n_lines;
    }
    for (uint64_t q = part; q-- > 0;) {
        if (sums[q].n_headers > 0) {
            offset += sums[q].post;
            cont_hdr = sums[q].last_header;
            break;
        }
        offset += sums[q].pre;
    }
    int raw = R->format == WM_FMT_PLAIN; /* one record, named "." or the path */

    /* The first error of this slice in file order. */
    if (R->format == WM_FMT_FASTA && headers_before == 0 && S->pre_data_line != 0 &&
        (S->err == 0 || S->pre_data_line <= S->err_line)) {
        set_err(err, errlen, "%s: line %" PRIu64 ": sequence data before the first '>' header",
                R->dpath, lines_before + S->pre_data_line);
        return WM_FORMAT;
    }
    if (R->format == WM_FMT_FASTA && headers_before > 0 && S->pre_bad_line != 0 &&
        (S->err == 0 || S->pre_bad_line < S->err_line)) {
        set_err(err, errlen, "%s: line %" PRIu64 ": binary byte 0x%02X in sequence", R->dpath,
                lines_before + S->pre_bad_line, (unsigned)S->pre_bad_byte);
        return WM_FORMAT;
    }
    if (S->err != 0) {
        if (R->format == WM_FMT_PLAIN) set_err(err, errlen, "%s: %s", R->dpath, R->err_rest);
        else
            set_err(err, errlen, "%s: line %" PRIu64 ": %s", R->dpath, lines_before + S->err_line,
                    R->err_rest);
        return (wm_status)S->err;
    }

    /* Local records: the continued one (when this slice has bytes of it and
    ** an earlier part began it), then the slice's own. */
    int cont = raw ? part > 0 && R->n_seq > 0
                   : headers_before > 0 && (S->n_headers == 0 ? R->n_seq > 0 : S->pre > 0);
    if (raw && part == 0) cont = 0;
    size_t n_own = raw ? (part == 0 ? 1 : 0) : R->n_local;
    wm_status st = alloc_result(R, (size_t)cont + n_own, err, errlen);
    if (st != WM_OK) return st;
    R->continues = cont;

    uint64_t h = 0;
    const uint8_t *seq;
    if (raw && R->mode == WM_RANGE_RECORDS) {
        h = R->start < halo ? R->start : halo;
        seq = map_of(R) ? map_of(R) + R->start - h : (const uint8_t *)"";
        offset = R->start - h;
    } else {
        uint8_t *dst = R->buf + R->room;
        if (cont && halo > 0) {
            uint64_t want = halo < R->room ? halo : R->room;
            uint8_t *tmp = malloc((size_t)want + 1);
            if (!tmp) return nomem(R, err, errlen);
            h = raw ? joined_halo(R, R->start, want, tmp)
                    : fasta_halo(R, cont_hdr, R->start, want < offset ? want : offset, tmp);
            memcpy(dst - h, tmp, (size_t)h);
            free(tmp);
        }
        seq = dst - h;
        offset -= h;
    }
    R->halo = cont ? h : 0;
    R->text.seq = seq;
    R->text.len = R->n_seq + (cont ? h : 0);
    R->own_bytes = R->n_seq;

    size_t r = 0;
    if (cont) {
        R->names[0] =
            raw ? strdup(R->mode == WM_RANGE_RECORDS ? "." : R->path) : header_name(R, cont_hdr);
        if (!R->names[0]) return nomem(R, err, errlen);
        R->grec[0] = raw ? 0 : headers_before - 1;
        R->base[0] = offset;
        R->starts_mem[0] = 0;
        r = 1;
    }
    uint64_t shift = cont ? h : 0;
    if (raw && n_own) {
        R->names[r] = strdup(R->mode == WM_RANGE_RECORDS ? "." : R->path);
        if (!R->names[r]) return nomem(R, err, errlen);
        R->grec[r] = 0;
        R->base[r] = 0;
        R->starts_mem[r] = 0;
        r++;
    } else if (!raw) {
        for (size_t i = 0; i < R->n_local; i++, r++) {
            R->names[r] = R->rec_name[i];
            R->rec_name[i] = NULL;
            R->grec[r] = headers_before + i;
            R->base[r] = 0;
            R->starts_mem[r] = R->rec_start[i] + shift;
        }
    }
    R->starts_mem[r] = R->text.len;
    /* The pre-header bytes of a slice with no earlier header were refused
    ** above unless blank; a record-less slice has no text. */
    if (r == 0) R->text.len = 0;
    return WM_OK;
}

wm_status wm_range_read_whole(wm_range_t *R, uint64_t part, char *err, size_t errlen) {
    if (part != 0) {
        R->text.seq = (const uint8_t *)"";
        return WM_OK;
    }
    /* The mapping made for detection is not needed: the reader maps again. */
    if (R->whole_sf.map_base) {
        munmap(R->whole_sf.map_base, R->whole_sf.map_len);
        R->whole_sf.map_base = NULL;
    }
    wm_status st = wm_seqfile_read(R->path, 0, &R->whole_sf, err, errlen);
    if (st != WM_OK) return st;
    R->format = R->whole_sf.format;
    size_t n = R->whole_sf.text.n_rec;
    R->text = R->whole_sf.text;
    R->names = R->whole_sf.names;
    R->grec = calloc(n ? n : 1, sizeof *R->grec);
    R->base = calloc(n ? n : 1, sizeof *R->base);
    if (!R->grec || !R->base) return nomem(R, err, errlen);
    for (size_t i = 0; i < n; i++) R->grec[i] = i;
    R->own_bytes = R->text.len;
    return WM_OK;
}

/* ---- the protocol -------------------------------------------------------------- */

/* One exchange of the opening step. */
typedef struct {
    uint64_t guess;
    int32_t failed, whole;
} open_note_t;

typedef struct {
    wm_range_summary_t sum;
    int32_t failed, pad;
} parse_note_t;

wm_status wm_range_read(wm_range_t *R, const char *path, wm_range_mode_t mode, uint64_t part,
                        uint64_t n_parts, uint64_t halo, wm_range_allgather_fn allgather,
                        void *user, char *err, size_t errlen) {
    wm_status st = wm_range_open(R, path, mode, part, n_parts, err, errlen);
    size_t N = (size_t)n_parts;
    uint64_t *starts = malloc((N + 1) * sizeof *starts);
    open_note_t *on = malloc(N * sizeof *on);
    uint64_t *nn = malloc(N * sizeof *nn); /* FASTQ's rounds */
    parse_note_t *pn = malloc(N * sizeof *pn);
    R->sums = malloc(N * sizeof *R->sums);
    int any_failed = 0, whole = 0;
    if (!starts || !on || !nn || !pn || !R->sums) {
        if (st == WM_OK) st = nomem(R, err, errlen);
    }
    /* Every part takes part in every exchange below, failed or not. */
    open_note_t mine_o = { R->guess, st != WM_OK, R->whole };
    open_note_t dummy_o[1];
    allgather(user, &mine_o, sizeof mine_o, on ? (void *)on : (void *)dummy_o);
    for (size_t q = 0; on && q < N; q++) {
        any_failed |= on[q].failed;
        whole |= on[q].whole;
    }
    if (!on) any_failed = 1;
    if (any_failed) goto stop;
    if (whole) {
        R->whole = 1; /* every part must agree: part 0 reads it */
        st = wm_range_read_whole(R, part, err, errlen);
        goto stop;
    }
    for (size_t q = 0; q < N; q++) starts[q] = q == 0 ? 0 : on[q].guess;
    starts[N] = R->size;
    for (size_t q = 1; q <= N; q++)
        if (starts[q] < starts[q - 1]) starts[q] = starts[q - 1];

    if (R->format == WM_FMT_FASTQ)
        wm_range_fastq_agree(map_of(R), R->size, part, N, starts, nn, allgather, user);

    st = wm_range_parse(R, starts[part], starts[part + 1], halo, err, errlen);
    parse_note_t mine_p;
    memset(&mine_p, 0, sizeof mine_p);
    mine_p.sum = R->sum;
    mine_p.failed = st != WM_OK;
    allgather(user, &mine_p, sizeof mine_p, pn);
    for (size_t q = 0; q < N; q++) {
        any_failed |= pn[q].failed;
        R->sums[q] = pn[q].sum;
    }
    if (any_failed) goto stop;
    st = wm_range_finish(R, R->sums, n_parts, part, halo, err, errlen);
stop:
    if (any_failed && st == WM_OK) {
        R->peer_failed = 1;
        R->text.n_rec = 0;
        R->text.len = 0;
    }
    free(starts);
    free(on);
    free(nn);
    free(pn);
    return st;
}

void wm_range_close(wm_range_t *R) {
    if (!R) return;
    free(R->sums);
    if (!R) return;
    int whole_read = R->whole_sf.text.seq != NULL;
    if (!whole_read) {
        if (R->names)
            for (size_t i = 0; i < R->text.n_rec; i++) free(R->names[i]);
        free(R->names);
        if (R->whole_sf.map_base) munmap(R->whole_sf.map_base, R->whole_sf.map_len);
    } else {
        wm_seqfile_close(&R->whole_sf);
    }
    if (R->rec_name)
        for (size_t i = 0; i < R->n_local; i++) free(R->rec_name[i]);
    free(R->rec_name);
    free(R->rec_start);
    free(R->starts_mem);
    free(R->grec);
    free(R->base);
    free(R->buf);
    if (R->fd >= 0) close(R->fd);
    memset(R, 0, sizeof *R);
    R->fd = -1;
}
