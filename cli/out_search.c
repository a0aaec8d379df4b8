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
#include <stdio.h>
#include <string.h>

#include "search.h"

/* Append a string literal at p and move p past it. */
#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) += sizeof(lit) - 1)

/* "\tstart\tend\terrors\tstrand\n" for TSV (start first) and BED alike. */
static void put_tail(FILE *out, const wm_match_t *m, int with_start) {
    char buf[96], *p = buf;
    if (with_start) {
        *p++ = '\t';
        p = wm_out_put_u64(p, m->start);
    }
    *p++ = '\t';
    p = wm_out_put_u64(p, m->end);
    *p++ = '\t';
    p = wm_out_put_u64(p, m->errors);
    *p++ = '\t';
    *p++ = m->strand ? '-' : '+';
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_out_search_tsv(FILE *out, const char *source, const char *record, const wm_match_t *m) {
    fputs(source, out);
    putc('\t', out);
    fputs(record, out);
    put_tail(out, m, 1);
}

void wm_out_search_tsv_set(FILE *out, const char *source, const char *record, const wm_match_t *m,
                           const char *name, int with_strand) {
    char buf[96], *p = buf;
    fputs(source, out);
    putc('\t', out);
    fputs(record, out);
    *p++ = '\t';
    p = wm_out_put_u64(p, m->start);
    *p++ = '\t';
    p = wm_out_put_u64(p, m->end);
    *p++ = '\t';
    if (name != NULL) {
        fwrite(buf, 1, (size_t)(p - buf), out);
        fputs(name, out);
        p = buf;
    } else {
        p = wm_out_put_u64(p, (uint64_t)m->pattern + 1);
    }
    if (with_strand) {
        *p++ = '\t';
        *p++ = m->strand ? '-' : '+';
    }
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_out_search_bed(FILE *out, const char *chrom, const char *name, const wm_match_t *m) {
    char buf[96], *p = buf;
    fputs(chrom, out);
    *p++ = '\t';
    p = wm_out_put_u64(p, m->start);
    *p++ = '\t';
    p = wm_out_put_u64(p, m->end);
    *p++ = '\t';
    fwrite(buf, 1, (size_t)(p - buf), out);
    fputs(name, out);
    p = buf;
    *p++ = '\t';
    p = wm_out_put_u64(p, m->errors);
    *p++ = '\t';
    *p++ = m->strand ? '-' : '+';
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
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

void wm_out_search_json_match(FILE *out, const char *source, const char *record,
                              const wm_match_t *m) {
    char buf[160], *p = json_match_head(out, buf, source, record, m);
    PUT_LIT(p, ",\"errors\":");
    p = wm_out_put_u64(p, m->errors);
    PUT_LIT(p, ",\"strand\":\"");
    *p++ = m->strand ? '-' : '+';
    PUT_LIT(p, "\"}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_out_search_json_match_set(FILE *out, const char *source, const char *record,
                                  const wm_match_t *m, const char *name) {
    char buf[160], *p = json_match_head(out, buf, source, record, m);
    PUT_LIT(p, ",\"pattern\":");
    if (name != NULL) {
        fwrite(buf, 1, (size_t)(p - buf), out);
        wm_out_json_cstr(out, name);
        p = buf;
    } else {
        p = wm_out_put_u64(p, (uint64_t)m->pattern + 1);
    }
    PUT_LIT(p, ",\"strand\":\"");
    *p++ = m->strand ? '-' : '+';
    PUT_LIT(p, "\"}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
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

static void print_match(wm_cli_search_sink_t *s, const wm_match_t *m) {
    const char *record = wm_cli_search_record_name(s->sf, m->record);
    switch (s->a->sh.format) {
    case WM_OUT_TSV: wm_out_search_tsv(s->out, s->source, record, m); break;
    case WM_OUT_BED: wm_out_search_bed(s->out, bed_chrom(s, record), s->a->bed_name, m); break;
    case WM_OUT_JSON: wm_out_search_json_match(s->out, s->source, record, m); break;
    }
}

/* A set's match: the pattern (number or FASTA name) where errors would be. */
static void print_set_match(wm_cli_search_sink_t *s, const wm_match_t *m) {
    const wm_cli_search_args_t *a = s->a;
    const char *name = a->set.name != NULL ? a->set.name[m->pattern] : NULL;
    const char *record = wm_cli_search_record_name(s->sf, m->record);
    switch (a->sh.format) {
    case WM_OUT_TSV: wm_out_search_tsv_set(s->out, s->source, record, m, name, a->o.revcomp); break;
    case WM_OUT_BED: {
        char num[24], bed_name[WM_BED_NAME_MAX + 1];
        const char *label = wm_cli_search_pattern_label(a, m->pattern, num);
        wm_out_bed_name(bed_name, (const uint8_t *)label, strlen(label));
        wm_out_search_bed(s->out, bed_chrom(s, record), bed_name, m); /* score: errors, 0 */
        break;
    }
    case WM_OUT_JSON: wm_out_search_json_match_set(s->out, s->source, record, m, name); break;
    }
}

void wm_cli_search_print(wm_cli_search_sink_t *s, const wm_match_t *m) {
    if (s->a->is_set) print_set_match(s, m);
    else print_match(s, m);
}
