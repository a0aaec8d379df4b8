/*
** out_text.c -- grep's text conventions for `warpmatch search` (search.h):
** line numbers (-n) of plain, gzip and FASTA inputs, the word test (-w),
** the grep-style lines of -o and --line with grep's colours, and the
** matched bytes of a JSON match (text, or base64 bytes).
**
** Line numbers count '\n' bytes of the original input: a CRLF file counts
** its lines as grep does, and a gzip file's are those of its inflated
** bytes. A FASTA record's bytes are joined lines, so its line numbers come
** from the file read again as plain bytes and walked line by line with the
** parser's own rules (io/seqparse.h); a walk that does not give back the
** records' lengths is an error, never a wrong number.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/seqparse.h"
#include "search.h"

/* ---- line numbers ------------------------------------------------------------ */

/* '\n' bytes in s[0, n). */
static uint64_t count_newlines(const uint8_t *s, uint64_t n) {
    uint64_t c = 0;
    const uint8_t *p = s, *end = s + n, *nl;
    while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        ++c;
        p = nl + 1;
    }
    return c;
}

uint64_t wm_cli_line_at(wm_cli_linepos_t *c, const uint8_t *seq, uint64_t pos) {
    /* Matches come in end order, so starts move mostly forward: count from
    ** the last position, either way. */
    if (pos >= c->pos) c->line += count_newlines(seq + c->pos, pos - c->pos);
    else c->line -= count_newlines(seq + pos, c->pos - pos);
    c->pos = pos;
    return c->line;
}

void wm_cli_fasta_lines_free(wm_cli_fasta_lines_t *fl) {
    free(fl->off);
    free(fl->line);
    free(fl->rec_first);
    memset(fl, 0, sizeof *fl);
}

static int push_line(wm_cli_fasta_lines_t *fl, uint64_t off, uint64_t line) {
    if (fl->n == fl->cap) {
        size_t cap = fl->cap ? fl->cap * 2 : 1024;
        uint64_t *o = realloc(fl->off, cap * sizeof *o);
        if (o == NULL) return -1;
        fl->off = o;
        uint64_t *l = realloc(fl->line, cap * sizeof *l);
        if (l == NULL) return -1;
        fl->line = l;
        fl->cap = cap;
    }
    fl->off[fl->n] = off;
    fl->line[fl->n++] = line;
    return 0;
}

int wm_cli_fasta_lines_build(wm_cli_fasta_lines_t *fl, const char *path, const wm_seqfile_t *sf) {
    wm_seqfile_t raw;
    char err[1024] = "";
    memset(fl, 0, sizeof *fl);
    memset(&raw, 0, sizeof raw);
    if (strcmp(path, "-") == 0) {
        wm_cli_error("-n: FASTA line numbers need a file, not standard input");
        return -1;
    }
    if (wm_seqfile_read(path, 1, &raw, err, sizeof err) != WM_OK) {
        wm_cli_error("-n: %s", err[0] ? err : path);
        return -1;
    }
    size_t n_rec = sf->text.n_rec;
    fl->rec_first = calloc(n_rec + 1, sizeof *fl->rec_first);
    int ok = fl->rec_first != NULL;
    wm_lines_t L = { raw.text.seq, raw.text.seq + raw.text.len, 0, NULL };
    const uint8_t *s;
    size_t len;
    size_t r = 0; /* records begun so far */
    uint64_t off = 0;
    while (ok && next_line(&L, &s, &len)) {
        if (len > 0 && s[0] == '>') {
            if (r > 0 && off != sf->text.rec_start[r] - sf->text.rec_start[r - 1]) ok = 0;
            if (r == n_rec) ok = 0;
            if (!ok) break;
            fl->rec_first[r++] = fl->n;
            off = 0;
            continue;
        }
        if (r == 0) continue; /* blank lines before the first header */
        int64_t nb = count_seq(s, len);
        if (nb < 0) ok = 0;
        else if (nb > 0) {
            ok = push_line(fl, off, L.line) == 0;
            off += (uint64_t)nb;
        }
    }
    if (ok && (r != n_rec || (r > 0 && off != sf->text.len - sf->text.rec_start[r - 1]))) ok = 0;
    if (ok) fl->rec_first[n_rec] = fl->n;
    wm_seqfile_close(&raw);
    if (!ok) {
        wm_cli_error("-n: %s: cannot map the FASTA records back to their lines", path);
        wm_cli_fasta_lines_free(fl);
        return -1;
    }
    return 0;
}

uint64_t wm_cli_fasta_line_at(const wm_cli_fasta_lines_t *fl, uint64_t rec, uint64_t pos) {
    size_t lo = fl->rec_first[rec], hi = fl->rec_first[rec + 1];
    if (lo == hi) return 0;
    /* the last line of the record starting at or before pos */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (fl->off[mid] <= pos) lo = mid;
        else hi = mid;
    }
    return fl->line[lo];
}

/* ---- the word test ------------------------------------------------------------- */

static int is_word_byte(uint8_t c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

int wm_cli_is_word(const uint8_t *rec, uint64_t rec_len, uint64_t start, uint64_t end) {
    return (start == 0 || !is_word_byte(rec[start - 1])) &&
           (end >= rec_len || !is_word_byte(rec[end]));
}

/* ---- grep-style lines ----------------------------------------------------------- */

/* grep's default GREP_COLORS: ms=01;31 fn=35 ln=32 se=36, each closed by
** "\33[m\33[K". */
#define SGR_END "\33[m\33[K"

static void put_colored(FILE *out, int color, const char *sgr, const void *s, size_t n) {
    if (color) fprintf(out, "\33[%sm\33[K", sgr);
    fwrite(s, 1, n, out);
    if (color) fputs(SGR_END, out);
}

void wm_cli_text_prefix(FILE *out, int color, const char *name, uint64_t line) {
    char num[24];
    if (name != NULL) {
        put_colored(out, color, "35", name, strlen(name));
        put_colored(out, color, "36", ":", 1);
    }
    if (line != 0) {
        put_colored(out, color, "32", num, (size_t)(wm_out_put_u64(num, line) - num));
        put_colored(out, color, "36", ":", 1);
    }
}

void wm_cli_text_body(FILE *out, int color, const uint8_t *s, uint64_t n, const uint64_t *spans,
                      size_t n_spans) {
    uint64_t at = 0;
    for (size_t i = 0; i < n_spans; ++i) {
        uint64_t a = spans[2 * i] < at ? at : spans[2 * i], b = spans[2 * i + 1];
        if (b > n) b = n;
        if (b <= a) continue;
        fwrite(s + at, 1, (size_t)(a - at), out);
        put_colored(out, color, "01;31", s + a, (size_t)(b - a));
        at = b;
    }
    fwrite(s + at, 1, (size_t)(n - at), out);
    putc('\n', out);
}

/* ---- JSON ----------------------------------------------------------------------- */

/* 1 when s[0, n) is well-formed UTF-8 with no byte that JSON must escape in
** a way that would change it (every byte then reads back as itself). */
static int is_utf8(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len = c < 0x80             ? 1
                     : (c & 0xE0) == 0xC0 ? 2
                     : (c & 0xF0) == 0xE0 ? 3
                     : (c & 0xF8) == 0xF0 ? 4
                                          : 0;
        if (len == 0 || i + len > n) return 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1Fu : len == 3 ? c & 0x0Fu : c & 0x07u;
        for (size_t j = 1; j < len; ++j) {
            if ((s[i + j] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        }
        static const uint32_t min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += len;
    }
    return 1;
}

static void put_base64(FILE *out, const uint8_t *s, size_t n) {
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char q[4];
    putc('"', out);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < n) v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n) v |= s[i + 2];
        q[0] = abc[v >> 18];
        q[1] = abc[(v >> 12) & 63];
        q[2] = i + 1 < n ? abc[(v >> 6) & 63] : '=';
        q[3] = i + 2 < n ? abc[v & 63] : '=';
        fwrite(q, 1, 4, out);
    }
    putc('"', out);
}

void wm_cli_json_text(FILE *out, const uint8_t *s, size_t n) {
    if (is_utf8(s, n)) {
        fputs(",\"text\":", out);
        wm_out_json_string(out, (const char *)s, n);
    } else {
        fputs(",\"bytes\":", out);
        put_base64(out, s, n);
    }
}
