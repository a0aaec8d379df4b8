/*
** out_search.c -- the lines `warpmatch search` prints (out.h, search.h):
** TSV, BED6, count lines and JSON Lines, one match at a time, and the
** choice among them for a match of the command.
**
** Lines are built in a small buffer with wm_out_put_u64 and written with
** fputs/fwrite: printing millions of matches should cost little next to
** finding them. Output is byte-identical for a given match list, so the same
** search on every backend prints the same bytes.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* Append a string literal at p and move p past it. */
#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) += sizeof(lit) - 1)

/* A TSV row gathered in a buffer and written with one call: each stdio call
** takes the stream's lock, and rows of five calls spent a third of a long
** listing's time there. A string too long for the buffer goes out by
** itself, after what was gathered before it. */
typedef struct {
    FILE *out;
    char *p;
    char b[512];
} row_t;

#define ROW_NUM 24 /* room for '\t', a number and '\n' */

static void row_init(row_t *r, FILE *out) {
    r->out = out;
    r->p = r->b;
}

static void row_write(row_t *r) {
    if (r->p > r->b) fwrite(r->b, 1, (size_t)(r->p - r->b), r->out);
    r->p = r->b;
}

/* Room for n more bytes. */
static void row_room(row_t *r, size_t n) {
    if ((size_t)(r->b + sizeof r->b - r->p) < n) row_write(r);
}

static void row_str(row_t *r, const char *str) {
    size_t n = strlen(str);
    row_room(r, n + ROW_NUM);
    if (n + ROW_NUM > sizeof r->b) {
        fwrite(str, 1, n, r->out);
        return;
    }
    memcpy(r->p, str, n);
    r->p += n;
}

static void row_tab_u64(row_t *r, uint64_t v) {
    row_room(r, ROW_NUM);
    *r->p++ = '\t';
    r->p = wm_out_put_u64(r->p, v);
}

static void row_char(row_t *r, char c) {
    row_room(r, 1);
    *r->p++ = c;
}

/* The CIGAR column (none when cigar is NULL, "*" when empty). */
static void row_cigar(row_t *r, const char *cigar) {
    if (cigar == NULL) return;
    row_char(r, '\t');
    row_str(r, cigar[0] ? cigar : "*");
}

/* The line column (none when 0) and the row's end. */
static void row_end(row_t *r, uint64_t line) {
    if (line != 0) row_tab_u64(r, line);
    row_char(r, '\n');
    row_write(r);
}

/* "\tstart\tend\terrors\tstrand[\tcigar][\tline]\n"; cigar NULL: no CIGAR
** column, line 0: no line column. */
static void put_tail(row_t *r, const wm_match_t *m, const char *cigar, uint64_t line) {
    row_tab_u64(r, m->start);
    row_tab_u64(r, m->end);
    row_tab_u64(r, m->errors);
    row_char(r, '\t');
    row_char(r, m->strand ? '-' : '+');
    row_cigar(r, cigar);
    row_end(r, line);
}

/* A TSV row, with a CIGAR column when cigar != NULL and a line column when
** line != 0. */
static void tsv_row(FILE *out, const char *source, const char *record, const wm_match_t *m,
                    const char *cigar, uint64_t line) {
    row_t r;
    row_init(&r, out);
    row_str(&r, source);
    row_char(&r, '\t');
    row_str(&r, record);
    put_tail(&r, m, cigar, line);
}

void wm_out_search_tsv(FILE *out, const char *source, const char *record, const wm_match_t *m) {
    tsv_row(out, source, record, m, NULL, 0);
}

/* A set's TSV row, with a line column when line != 0. */
/* with_errors: a set within k errors (a k = 0 set keeps the exact set's
** columns). */
static void tsv_set_row(FILE *out, const char *source, const char *record, const wm_match_t *m,
                        const char *name, int with_errors, int with_strand, const char *cigar,
                        uint64_t line) {
    row_t r;
    row_init(&r, out);
    row_str(&r, source);
    row_char(&r, '\t');
    row_str(&r, record);
    row_tab_u64(&r, m->start);
    row_tab_u64(&r, m->end);
    if (name != NULL) {
        row_char(&r, '\t');
        row_str(&r, name);
    } else {
        row_tab_u64(&r, (uint64_t)m->pattern + 1);
    }
    if (with_errors) row_tab_u64(&r, m->errors);
    if (with_strand) {
        row_char(&r, '\t');
        row_char(&r, m->strand ? '-' : '+');
    }
    row_cigar(&r, cigar);
    row_end(&r, line);
}

void wm_out_search_tsv_set(FILE *out, const char *source, const char *record, const wm_match_t *m,
                           const char *name, int with_strand) {
    tsv_set_row(out, source, record, m, name, 0, with_strand, NULL, 0);
}

void wm_out_search_bed(FILE *out, const char *chrom, const char *name, const wm_match_t *m) {
    row_t r;
    row_init(&r, out);
    row_str(&r, chrom);
    row_tab_u64(&r, m->start);
    row_tab_u64(&r, m->end);
    row_char(&r, '\t');
    row_str(&r, name);
    row_tab_u64(&r, m->errors);
    row_char(&r, '\t');
    row_char(&r, m->strand ? '-' : '+');
    row_end(&r, 0);
}

void wm_out_bed_name(char *dst, const uint8_t *pattern, size_t m) {
    size_t n = m < WM_BED_NAME_MAX ? m : WM_BED_NAME_MAX;
    for (size_t i = 0; i < n; ++i) {
        uint8_t c = pattern[i];
        dst[i] = (c <= 0x20 || c == 0x7f) ? '_' : (char)c;
    }
    dst[n] = '\0';
}

void wm_out_count(FILE *out, const char *source, const char *record, uint64_t count) {
    char buf[32], *p = buf;
    fputs(source, out);
    putc('\t', out);
    if (record != NULL) {
        fputs(record, out);
        putc('\t', out);
    }
    p = wm_out_put_u64(p, count);
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

/* ---- JSON Lines ------------------------------------------------------- */

void wm_out_search_json_begin(FILE *out, const char *source) {
    fputs("{\"type\":\"begin\",\"source\":", out);
    wm_out_json_cstr(out, source);
    fputs("}\n", out);
}

/* The fields every match object starts with; the start and end go into buf
** (the caller goes on writing there). Returns the write position in buf. */
static char *json_match_head(FILE *out, char *buf, const char *source, const char *record,
                             const wm_match_t *m) {
    char *p = buf;
    fputs("{\"type\":\"match\",\"source\":", out);
    wm_out_json_cstr(out, source);
    fputs(",\"record\":", out);
    wm_out_json_cstr(out, record);
    PUT_LIT(p, ",\"start\":");
    p = wm_out_put_u64(p, m->start);
    PUT_LIT(p, ",\"end\":");
    return wm_out_put_u64(p, m->end);
}

/* What -n and -o add to a JSON match: "line" (0: none) and the matched
** bytes (NULL: none). */
typedef struct {
    uint64_t line;
    const uint8_t *text;
    size_t len;
    char *cigar; /* --cigar (malloc'd by row_extra), else NULL */
} json_extra_t;

/* Close a match object at p in buf: the strand, the extras, "}\n". */
static void json_match_tail(FILE *out, char *buf, char *p, const wm_match_t *m,
                            const json_extra_t *x) {
    PUT_LIT(p, ",\"strand\":\"");
    *p++ = m->strand ? '-' : '+';
    *p++ = '"';
    if (x != NULL && x->cigar != NULL) {
        PUT_LIT(p, ",\"cigar\":");
        fwrite(buf, 1, (size_t)(p - buf), out);
        wm_out_json_cstr(out, x->cigar);
        p = buf;
    }
    if (x != NULL && x->line != 0) {
        PUT_LIT(p, ",\"line\":");
        p = wm_out_put_u64(p, x->line);
    }
    fwrite(buf, 1, (size_t)(p - buf), out);
    if (x != NULL && x->text != NULL) wm_cli_json_text(out, x->text, x->len);
    fputs("}\n", out);
}

static void json_row(FILE *out, const char *source, const char *record, const wm_match_t *m,
                     const json_extra_t *x) {
    char buf[160], *p = json_match_head(out, buf, source, record, m);
    PUT_LIT(p, ",\"errors\":");
    p = wm_out_put_u64(p, m->errors);
    json_match_tail(out, buf, p, m, x);
}

void wm_out_search_json_match(FILE *out, const char *source, const char *record,
                              const wm_match_t *m) {
    json_row(out, source, record, m, NULL);
}

static void json_set_row(FILE *out, const char *source, const char *record, const wm_match_t *m,
                         const char *name, int with_errors, const json_extra_t *x) {
    char buf[160], *p = json_match_head(out, buf, source, record, m);
    PUT_LIT(p, ",\"pattern\":");
    if (name != NULL) {
        fwrite(buf, 1, (size_t)(p - buf), out);
        wm_out_json_cstr(out, name);
        p = buf;
    } else {
        p = wm_out_put_u64(p, (uint64_t)m->pattern + 1);
    }
    if (with_errors) {
        PUT_LIT(p, ",\"errors\":");
        p = wm_out_put_u64(p, m->errors);
    }
    json_match_tail(out, buf, p, m, x);
}

void wm_out_search_json_match_set(FILE *out, const char *source, const char *record,
                                  const wm_match_t *m, const char *name) {
    json_set_row(out, source, record, m, name, 0, NULL);
}

void wm_out_search_json_end(FILE *out, const char *source, uint64_t n_matches) {
    char buf[40], *p = buf;
    fputs("{\"type\":\"end\",\"source\":", out);
    wm_out_json_cstr(out, source);
    PUT_LIT(p, ",\"matches\":");
    p = wm_out_put_u64(p, n_matches);
    PUT_LIT(p, "}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_out_search_json_summary(FILE *out, uint64_t n_matches, uint64_t n_sources,
                                uint64_t n_bytes) {
    char buf[128], *p = buf;
    PUT_LIT(p, "{\"type\":\"summary\",\"matches\":");
    p = wm_out_put_u64(p, n_matches);
    PUT_LIT(p, ",\"sources\":");
    p = wm_out_put_u64(p, n_sources);
    PUT_LIT(p, ",\"bytes\":");
    p = wm_out_put_u64(p, n_bytes);
    PUT_LIT(p, "}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}

/* ---- a match of the search command ------------------------------------ */

const char *wm_cli_search_pattern_label(const wm_cli_search_args_t *a, uint32_t i, char *buf) {
    if (a->is_set && a->set.name != NULL && a->set.name[i] != NULL) return a->set.name[i];
    snprintf(buf, 24, "%llu", (unsigned long long)i + 1);
    return buf;
}

const char *wm_cli_search_record_name(const wm_seqfile_t *sf, uint64_t r) {
    if (sf->names == NULL || r >= sf->text.n_rec || sf->names[r] == NULL) return ".";
    return sf->names[r];
}

/* The BED chrom of a match: a plain file's is its source. */
static const char *bed_chrom(const wm_cli_search_sink_t *s, const char *record) {
    return s->sf->format == WM_FMT_PLAIN ? s->source : record;
}

/* Record rec's bytes as this process holds them: *off is the record offset
** of the first one (an MPI rank holds a record from R.base on). */
static const uint8_t *record_bytes(const wm_cli_search_sink_t *s, uint64_t rec, uint64_t *len,
                                   uint64_t *off) {
    const wm_text_t *t = &s->sf->text;
    uint64_t lo = 0, hi = t->len;
    if (t->rec_start != NULL && rec < t->n_rec) {
        lo = t->rec_start[rec];
        hi = rec + 1 < t->n_rec ? t->rec_start[rec + 1] : t->len;
    }
    *len = hi - lo;
    *off = s->base != NULL ? s->base[rec] : 0;
    return t->seq + lo;
}

/* -n: the line of record position pos (in record coordinates). */
static uint64_t line_of(wm_cli_search_sink_t *s, uint64_t rec, uint64_t pos) {
    if (!s->a->line_no) return 0;
    if (s->fl != NULL) return wm_cli_fasta_line_at(s->fl, rec, pos);
    uint64_t len, off;
    const uint8_t *b = record_bytes(s, rec, &len, &off);
    (void)len;
    return wm_cli_line_at(&s->lp, b, pos - off);
}

/* -o: [FILE:][LINE:]MATCH */
static void print_only(wm_cli_search_sink_t *s, const wm_match_t *m, uint64_t line) {
    uint64_t len, off;
    const uint8_t *b = record_bytes(s, m->record, &len, &off);
    uint64_t span[2] = { 0, m->end - m->start };
    wm_cli_text_prefix(s->out, s->a->color, s->prefix, line);
    wm_cli_text_body(s->out, s->a->color, b + (m->start - off), m->end - m->start, span, 1);
}

/* What every row of a match needs: its line (-n) and, with -o, its bytes for
** JSON; 1 when -o in TSV printed the match as grep does, and nothing is left. */
static int row_extra(wm_cli_search_sink_t *s, const wm_match_t *m, json_extra_t *x) {
    const wm_cli_search_args_t *a = s->a;
    uint64_t line = line_of(s, m->record, m->start);
    if (a->only_matching && a->sh.format == WM_OUT_TSV) {
        print_only(s, m, line);
        return 1;
    }
    *x = (json_extra_t){ line, NULL, 0, NULL };
    if (a->cigar && (x->cigar = wm_cli_match_cigar(s, m)) == NULL && !s->write_failed) {
        s->write_failed = 1; /* out of memory: reported as the output's failure */
        s->write_errno = ENOMEM;
    }
    if (a->only_matching) {
        uint64_t len, off;
        const uint8_t *b = record_bytes(s, m->record, &len, &off);
        x->text = b + (m->start - off);
        x->len = (size_t)(m->end - m->start);
    }
    return 0;
}

static void print_match(wm_cli_search_sink_t *s, const wm_match_t *m) {
    const wm_cli_search_args_t *a = s->a;
    const char *record = wm_cli_search_record_name(s->sf, m->record);
    json_extra_t x;
    if (row_extra(s, m, &x)) return;
    uint64_t line = x.line;
    switch (a->sh.format) {
    case WM_OUT_TSV: tsv_row(s->out, s->source, record, m, x.cigar, line); break;
    case WM_OUT_BED: wm_out_search_bed(s->out, bed_chrom(s, record), a->bed_name, m); break;
    case WM_OUT_JSON: json_row(s->out, s->source, record, m, &x); break;
    }
    free(x.cigar);
}

/* A set's match: the pattern (number or FASTA name) where errors would be,
** and the errors after it for a set within k errors. */
static void print_set_match(wm_cli_search_sink_t *s, const wm_match_t *m) {
    const wm_cli_search_args_t *a = s->a;
    if (a->sh.format == WM_OUT_SAM) {
        if (wm_cli_search_sam_row(s, m) < 0 && !s->write_failed) {
            s->write_failed = 1;
            s->write_errno = ENOMEM;
        }
        return;
    }
    const char *name = a->set.name != NULL ? a->set.name[m->pattern] : NULL;
    const char *record = wm_cli_search_record_name(s->sf, m->record);
    json_extra_t x;
    if (row_extra(s, m, &x)) return;
    uint64_t line = x.line;
    switch (a->sh.format) {
    case WM_OUT_TSV:
        tsv_set_row(s->out, s->source, record, m, name, a->o.max_edits > 0, a->o.revcomp, x.cigar,
                    line);
        break;
    case WM_OUT_BED: {
        char num[24], bed_name[WM_BED_NAME_MAX + 1];
        const char *label = wm_cli_search_pattern_label(a, m->pattern, num);
        wm_out_bed_name(bed_name, (const uint8_t *)label, strlen(label));
        wm_out_search_bed(s->out, bed_chrom(s, record), bed_name, m); /* score: errors, 0 */
        break;
    }
    case WM_OUT_JSON:
        json_set_row(s->out, s->source, record, m, name, a->o.max_edits > 0, &x);
        break;
    }
    free(x.cigar);
}

void wm_cli_search_print(wm_cli_search_sink_t *s, const wm_match_t *m) {
    if (s->a->is_set) print_set_match(s, m);
    else print_match(s, m);
}

/* ---- rows: counting, -m, --line ---------------------------------------------- */

/* After a printed line: --line-buffered, else a flush when the last was
** 0.5 s ago (so a long run's sparse matches show as they are found, not at
** its end, and an interrupted run leaves what it found), and a failed write
** noted: after a flush, or every 256 rows (ferror takes the stream's lock,
** a cost in every row of a long listing). */
static int after_print(wm_cli_search_sink_t *s) {
    int flushed = 1;
    if (s->a->line_buffered) fflush(s->out);
    else flushed = wm_out_flush_due(s->out, &s->t_flushed, 0.5);
    if (!flushed && ++s->unchecked < 256) return 0;
    s->unchecked = 0;
    if (ferror(s->out)) { /* e.g. a closed pipe */
        s->write_failed = 1;
        s->write_errno = errno;
        return 1;
    }
    return 0;
}

/* --line: print the gathered line with its matches highlighted. */
static int print_line(wm_cli_search_sink_t *s) {
    uint64_t len, off;
    const uint8_t *b = record_bytes(s, s->line_rec, &len, &off);
    for (size_t i = 0; i < 2 * s->n_spans; ++i) s->spans[i] -= s->line_lo;
    if (s->pg->enabled) wm_progress_clear(s->pg);
    wm_cli_text_prefix(s->out, s->a->color, s->prefix, s->line_num);
    wm_cli_text_body(s->out, s->a->color, b + (s->line_lo - off), s->line_hi - s->line_lo, s->spans,
                     s->n_spans);
    s->line_open = 0;
    s->done_any = 1;
    s->done_rec = s->line_rec;
    s->done_hi = s->line_hi;
    return after_print(s);
}

/* Add [start, end) to the gathered line's spans, kept in start order. */
static int add_span(wm_cli_search_sink_t *s, uint64_t start, uint64_t end) {
    if (s->n_spans == s->cap_spans) {
        size_t cap = s->cap_spans ? 2 * s->cap_spans : 16;
        uint64_t *v = realloc(s->spans, 2 * cap * sizeof *v);
        if (v == NULL) return -1;
        s->spans = v;
        s->cap_spans = cap;
    }
    size_t j = s->n_spans++;
    while (j > 0 && s->spans[2 * (j - 1)] > start) {
        s->spans[2 * j] = s->spans[2 * (j - 1)];
        s->spans[2 * j + 1] = s->spans[2 * (j - 1) + 1];
        --j;
    }
    s->spans[2 * j] = start;
    s->spans[2 * j + 1] = end;
    return 0;
}

/* Count a row (a match, or with --line a new line); 1 to stop. */
static int count_row(wm_cli_search_sink_t *s, const wm_match_t *m) {
    s->n++;
    if (s->a->quiet || s->a->list_files) return 1; /* one match decides it */
    if (s->per_record != NULL && m->record < s->sf->text.n_rec) s->per_record[m->record]++;
    return 0;
}

/* --line: a match joins the line of its start (the line runs on to the end
** of the line of its last byte); a line is printed once. */
static int line_row(wm_cli_search_sink_t *s, const wm_match_t *m) {
    uint64_t len, off;
    const uint8_t *b = record_bytes(s, m->record, &len, &off);
    uint64_t st = m->start - off, en = m->end - off, lo = st, hi = en > st ? en - 1 : st;
    while (lo > 0 && b[lo - 1] != '\n') --lo;
    const uint8_t *nl = hi < len ? memchr(b + hi, '\n', (size_t)(len - hi)) : NULL;
    hi = nl != NULL ? (uint64_t)(nl - b) : len;
    lo += off;
    hi += off;
    if (s->line_open && s->line_rec == m->record && s->line_lo == lo) {
        if (hi > s->line_hi) s->line_hi = hi;
        return add_span(s, m->start, m->end) < 0 ? (s->locus_failed = 1) : 0;
    }
    if (s->line_open && s->line_rec == m->record && lo < s->line_hi) return 0; /* printed */
    if (s->done_any && s->done_rec == m->record && lo < s->done_hi) return 0;
    if (s->line_open && print_line(s)) return 1;
    if (s->n >= s->a->max_count) return 1;
    if (count_row(s, m)) return 1;
    if (s->count_rows || s->per_record != NULL) { /* counted, not printed: noted as done */
        s->done_any = 1;
        s->done_rec = m->record;
        s->done_hi = hi;
        return 0;
    }
    s->line_open = 1;
    s->line_rec = m->record;
    s->line_lo = lo;
    s->line_hi = hi;
    s->line_num = line_of(s, m->record, lo);
    s->n_spans = 0;
    return add_span(s, m->start, m->end) < 0 ? (s->locus_failed = 1) : 0;
}

/* ---- rows formatted on threads ------------------------------------------------ */

/* A batch of matches as text (rows.h's format, on a worker thread): printed
** by a copy of the sink the batch was gathered for, into the batch's stream.
** Every print of a match reads only the sink's options and the file's
** records and names: -n (a line count), --line and SAM (a pattern's first
** row) never come here (wm_cli_search_rows). */
static int format_rows(FILE *mem, const void *items, size_t n, const void *ctx) {
    wm_cli_search_sink_t l = *(const wm_cli_search_sink_t *)ctx;
    const wm_match_t *m = items;
    l.out = mem;
    for (size_t i = 0; i < n && !l.write_failed; ++i) wm_cli_search_print(&l, &m[i]);
    if (!l.write_failed) return 0;
    errno = l.write_errno;
    return -1;
}

static int note_failure(wm_cli_search_sink_t *s) {
    if (!s->write_failed) {
        s->write_failed = 1;
        s->write_errno = errno;
    }
    return 1;
}

/* Rows m[0, n) into the batches (the first takes the copy the batches
** print by); the rows go out within 0.5 s of a row as after_print's do. 1
** to stop. */
static int batch_rows(wm_cli_search_sink_t *s, const wm_match_t *m, size_t n) {
    if (s->view == NULL) {
        wm_cli_search_sink_t *v = malloc(sizeof *v);
        if (v == NULL) {
            errno = ENOMEM;
            return note_failure(s);
        }
        *v = *s;
        v->rows = NULL;
        v->view = NULL;
        s->view = v;
    }
    if (wm_cli_rows_push_many(s->rows, s->out, format_rows, s->view, m, n) < 0)
        return note_failure(s);
    if (!wm_out_due(&s->t_flushed, 0.5)) return 0;
    if (wm_cli_rows_drain(s->rows) < 0) return note_failure(s);
    if (fflush(s->out) != 0 || ferror(s->out)) return note_failure(s);
    return 0;
}

void wm_cli_search_sink_drain(wm_cli_search_sink_t *s) {
    if (s->view == NULL) return;
    if (wm_cli_rows_drain(s->rows) < 0) note_failure(s);
    free(s->view);
    s->view = NULL;
}

int wm_cli_search_row(void *sink, const wm_match_t *m) {
    wm_cli_search_sink_t *s = sink;
    if (s->a->whole_line) return line_row(s, m);
    if (s->n >= s->a->max_count) return 1;
    if (count_row(s, m)) return 1;
    if (!s->count_rows && s->per_record == NULL) {
        if (s->pg->enabled) wm_progress_clear(s->pg); /* keep matches off its line */
        if (s->rows != NULL) {
            if (batch_rows(s, m, 1)) return 1;
        } else {
            wm_cli_search_print(s, m);
            if (after_print(s)) return 1;
        }
    }
    return s->n >= s->a->max_count;
}

int wm_cli_search_row_run(void *sink, const wm_match_t *m, size_t n) {
    wm_cli_search_sink_t *s = sink;
    /* rows printed by the batches take the run at once; whatever reads a
    ** match before printing it (--line, counting, -q, -l) takes one at a time */
    if (s->rows == NULL || s->a->whole_line || s->a->quiet || s->a->list_files || s->count_rows ||
        s->per_record != NULL) {
        for (size_t i = 0; i < n; ++i)
            if (wm_cli_search_row(s, &m[i])) return 1;
        return 0;
    }
    if (s->n >= s->a->max_count) return 1;
    if (n > s->a->max_count - s->n) n = (size_t)(s->a->max_count - s->n);
    s->n += n;
    if (s->pg->enabled) wm_progress_clear(s->pg); /* keep matches off its line */
    if (batch_rows(s, m, n)) return 1;
    return s->n >= s->a->max_count;
}

int wm_cli_search_sink_end(wm_cli_search_sink_t *s) {
    if (s->locus != NULL && !s->locus_failed && wm_cli_locus_finish(s->locus) < 0)
        s->locus_failed = 1;
    if (s->line_open && !s->write_failed) print_line(s);
    s->line_open = 0;
    wm_cli_search_sink_drain(s);
    free(s->spans);
    s->spans = NULL;
    if (s->locus_failed) {
        wm_cli_error("%s: %s", s->source, wm_strerror(WM_NOMEM));
        return -1;
    }
    return 0;
}
