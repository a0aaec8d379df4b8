/*
** print.c -- the match printers: TSV, BED6, count lines and JSON Lines.
**
** Lines are built with a hand-rolled integer formatter and written with
** fputs/fwrite: printing millions of matches should cost little next to
** finding them. Output is byte-identical for a given match list, so the same
** search on every backend prints the same bytes.
**
** JSON strings (source and record names are arbitrary bytes: file names,
** FASTA headers) are escaped like this:
**   - '"' and '\\' as \" and \\; \b \f \n \r \t by their short forms;
**   - every other byte below 0x20, and DEL (0x7f), as \u00XX;
**   - a well-formed UTF-8 sequence (no overlong forms, no surrogates, at most
**     U+10FFFF) is copied as it is;
**   - each byte that is not part of a well-formed UTF-8 sequence is written
**     as \u00XX with XX its value, i.e. it reads back as the Latin-1 character
**     of that byte. (Lossy only for names that are not UTF-8; the output is
**     always valid UTF-8 and valid JSON.)
*/
#include <string.h>

#include "io/print.h"

/* Append a string literal at p and move p past it. */
#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) += sizeof(lit) - 1)

/* Write v in decimal at p; return the end. */
static char *put_u64(char *p, uint64_t v) {
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    while (n > 0)
        *p++ = tmp[--n];
    return p;
}

/* "\tstart\tend\terrors\tstrand\n" for TSV (start first) and BED alike. */
static void put_tail(FILE *out, const wm_match_t *m, int with_start) {
    char buf[96], *p = buf;
    if (with_start) {
        *p++ = '\t';
        p = put_u64(p, m->start);
    }
    *p++ = '\t';
    p = put_u64(p, m->end);
    *p++ = '\t';
    p = put_u64(p, m->errors);
    *p++ = '\t';
    *p++ = m->strand ? '-' : '+';
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_print_tsv(FILE *out, const char *source, const char *record, const wm_match_t *m) {
    fputs(source, out);
    putc('\t', out);
    fputs(record, out);
    put_tail(out, m, 1);
}

void wm_print_tsv_set(FILE *out, const char *source, const char *record,
                      const wm_match_t *m, const char *name, int with_strand) {
    char buf[96], *p = buf;
    fputs(source, out);
    putc('\t', out);
    fputs(record, out);
    *p++ = '\t';
    p = put_u64(p, m->start);
    *p++ = '\t';
    p = put_u64(p, m->end);
    *p++ = '\t';
    if (name != NULL) {
        fwrite(buf, 1, (size_t)(p - buf), out);
        fputs(name, out);
        p = buf;
    } else {
        p = put_u64(p, (uint64_t)m->pattern + 1);
    }
    if (with_strand) {
        *p++ = '\t';
        *p++ = m->strand ? '-' : '+';
    }
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_print_bed(FILE *out, const char *chrom, const char *name, const wm_match_t *m) {
    char buf[96], *p = buf;
    fputs(chrom, out);
    *p++ = '\t';
    p = put_u64(p, m->start);
    *p++ = '\t';
    p = put_u64(p, m->end);
    *p++ = '\t';
    fwrite(buf, 1, (size_t)(p - buf), out);
    fputs(name, out);
    p = buf;
    *p++ = '\t';
    p = put_u64(p, m->errors);
    *p++ = '\t';
    *p++ = m->strand ? '-' : '+';
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_print_bed_name(char *dst, const uint8_t *pattern, size_t m) {
    size_t n = m < WM_BED_NAME_MAX ? m : WM_BED_NAME_MAX;
    for (size_t i = 0; i < n; ++i) {
        uint8_t c = pattern[i];
        dst[i] = (c <= 0x20 || c == 0x7f) ? '_' : (char)c;
    }
    dst[n] = '\0';
}

void wm_print_count(FILE *out, const char *source, const char *record, uint64_t count) {
    char buf[32], *p = buf;
    fputs(source, out);
    putc('\t', out);
    if (record != NULL) {
        fputs(record, out);
        putc('\t', out);
    }
    p = put_u64(p, count);
    *p++ = '\n';
    fwrite(buf, 1, (size_t)(p - buf), out);
}

/* ---- JSON -------------------------------------------------------------- */

static int is_cont(uint8_t c) { return (c & 0xC0) == 0x80; }

/* Length (2..4) of the well-formed UTF-8 sequence that starts at s[0], which
** is >= 0x80, with n bytes left; 0 when there is none. */
static size_t utf8_seq_len(const uint8_t *s, size_t n) {
    uint8_t c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        return n >= 2 && is_cont(s[1]) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || !is_cont(s[1]) || !is_cont(s[2]))
            return 0;
        if (c == 0xE0 && s[1] < 0xA0)
            return 0;                   /* overlong */
        if (c == 0xED && s[1] > 0x9F)
            return 0;                   /* UTF-16 surrogate */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || !is_cont(s[1]) || !is_cont(s[2]) || !is_cont(s[3]))
            return 0;
        if (c == 0xF0 && s[1] < 0x90)
            return 0;                   /* overlong */
        if (c == 0xF4 && s[1] > 0x8F)
            return 0;                   /* above U+10FFFF */
        return 4;
    }
    return 0;                           /* 0x80..0xC1, 0xF5..0xFF */
}

void wm_print_json_string(FILE *out, const char *str, size_t n) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0, run = 0;              /* s[run, i) is pending, copied as is */
    putc('"', out);
    while (i < n) {
        uint8_t c = s[i];
        char esc[6];
        size_t len_esc = 0;
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            size_t L = utf8_seq_len(s + i, n - i);
            if (L > 0) {
                i += L;
                continue;
            }
        }
        switch (c) {
        case '"':  esc[0] = '\\'; esc[1] = '"';  len_esc = 2; break;
        case '\\': esc[0] = '\\'; esc[1] = '\\'; len_esc = 2; break;
        case '\b': esc[0] = '\\'; esc[1] = 'b';  len_esc = 2; break;
        case '\f': esc[0] = '\\'; esc[1] = 'f';  len_esc = 2; break;
        case '\n': esc[0] = '\\'; esc[1] = 'n';  len_esc = 2; break;
        case '\r': esc[0] = '\\'; esc[1] = 'r';  len_esc = 2; break;
        case '\t': esc[0] = '\\'; esc[1] = 't';  len_esc = 2; break;
        default:
            esc[0] = '\\'; esc[1] = 'u'; esc[2] = '0'; esc[3] = '0';
            esc[4] = hex[c >> 4]; esc[5] = hex[c & 15];
            len_esc = 6;
            break;
        }
        if (i > run)
            fwrite(s + run, 1, i - run, out);
        fwrite(esc, 1, len_esc, out);
        run = ++i;
    }
    if (i > run)
        fwrite(s + run, 1, i - run, out);
    putc('"', out);
}

static void json_str(FILE *out, const char *s) {
    wm_print_json_string(out, s, strlen(s));
}

void wm_print_json_begin(FILE *out, const char *source) {
    fputs("{\"type\":\"begin\",\"source\":", out);
    json_str(out, source);
    fputs("}\n", out);
}

/* The fields every match object starts with; the start and end go into buf
** (the caller goes on writing there). Returns the write position in buf. */
static char *json_match_head(FILE *out, char *buf, const char *source, const char *record,
                             const wm_match_t *m) {
    char *p = buf;
    fputs("{\"type\":\"match\",\"source\":", out);
    json_str(out, source);
    fputs(",\"record\":", out);
    json_str(out, record);
    PUT_LIT(p, ",\"start\":");
    p = put_u64(p, m->start);
    PUT_LIT(p, ",\"end\":");
    return put_u64(p, m->end);
}

void wm_print_json_match(FILE *out, const char *source, const char *record,
                         const wm_match_t *m) {
    char buf[160], *p = json_match_head(out, buf, source, record, m);
    PUT_LIT(p, ",\"errors\":");
    p = put_u64(p, m->errors);
    PUT_LIT(p, ",\"strand\":\"");
    *p++ = m->strand ? '-' : '+';
    PUT_LIT(p, "\"}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_print_json_match_set(FILE *out, const char *source, const char *record,
                             const wm_match_t *m, const char *name) {
    char buf[160], *p = json_match_head(out, buf, source, record, m);
    PUT_LIT(p, ",\"pattern\":");
    if (name != NULL) {
        fwrite(buf, 1, (size_t)(p - buf), out);
        json_str(out, name);
        p = buf;
    } else {
        p = put_u64(p, (uint64_t)m->pattern + 1);
    }
    PUT_LIT(p, ",\"strand\":\"");
    *p++ = m->strand ? '-' : '+';
    PUT_LIT(p, "\"}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_print_json_end(FILE *out, const char *source, uint64_t n_matches) {
    char buf[40], *p = buf;
    fputs("{\"type\":\"end\",\"source\":", out);
    json_str(out, source);
    PUT_LIT(p, ",\"matches\":");
    p = put_u64(p, n_matches);
    PUT_LIT(p, "}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}

void wm_print_json_summary(FILE *out, uint64_t n_matches, uint64_t n_sources,
                           uint64_t n_bytes) {
    char buf[128], *p = buf;
    PUT_LIT(p, "{\"type\":\"summary\",\"matches\":");
    p = put_u64(p, n_matches);
    PUT_LIT(p, ",\"sources\":");
    p = put_u64(p, n_sources);
    PUT_LIT(p, ",\"bytes\":");
    p = put_u64(p, n_bytes);
    PUT_LIT(p, "}\n");
    fwrite(buf, 1, (size_t)(p - buf), out);
}
