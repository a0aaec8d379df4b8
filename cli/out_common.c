/*
** out_common.c -- what the printers of every command share (out.h): decimal
** numbers without printf, the short exact form of a double, JSON strings,
** noting a failed write, and flushing rows as they become final.
**
** JSON strings (source, record and query names are arbitrary bytes: file
** names, FASTA headers, CSV headers) are escaped like this:
**   - '"' and '\\' as \" and \\; \b \f \n \r \t by their short forms;
**   - every other byte below 0x20, and DEL (0x7f), as \u00XX;
**   - a well-formed UTF-8 sequence (no overlong forms, no surrogates, at most
**     U+10FFFF) is copied as it is;
**   - each byte that is not part of a well-formed UTF-8 sequence is written
**     as \u00XX with XX its value, i.e. it reads back as the Latin-1 character
**     of that byte. (Lossy only for names that are not UTF-8; the output is
**     always valid UTF-8 and valid JSON.)
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "out.h"

/* "00" "01" ... "99": two digits a step, written from the number's end (its
** length counted first), where a digit a step through a scratch buffer was
** the largest cost of printing a long listing. */
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324"
                                    "25262728293031323334353637383940414243444546474849"
                                    "50515253545556575859606162636465666768697071727374"
                                    "75767778798081828384858687888990919293949596979899";

static int decimal_length(uint64_t v) {
    int n = 1;
    for (;;) {
        if (v < 10) return n;
        if (v < 100) return n + 1;
        if (v < 1000) return n + 2;
        if (v < 10000) return n + 3;
        v /= 10000;
        n += 4;
    }
}

char *wm_out_put_u64(char *p, uint64_t v) {
    int n = decimal_length(v);
    char *q = p + n;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--q = two_digits[d + 1];
        *--q = two_digits[d];
    }
    if (v >= 10) {
        *--q = two_digits[2 * v + 1];
        *--q = two_digits[2 * v];
    } else {
        *--q = (char)('0' + v);
    }
    return p + n;
}

void wm_out_u64(FILE *f, uint64_t v) {
    char b[24];
    fwrite(b, 1, (size_t)(wm_out_put_u64(b, v) - b), f);
}

void wm_out_tab_u64(FILE *f, uint64_t v) {
    char b[24];
    b[0] = '\t';
    fwrite(b, 1, (size_t)(wm_out_put_u64(b + 1, v) - b), f);
}

void wm_out_key_u64(FILE *f, const char *key, uint64_t v) {
    fprintf(f, ",\"%s\":", key);
    wm_out_u64(f, v);
}

void wm_out_double(FILE *f, double d) {
    char b[40];
    /* 15 digits read back exactly for most values and stay short (0.5, not
    ** 0.50000000000000000); 17 always do. The tool never calls setlocale, so
    ** the decimal point is '.'. */
    snprintf(b, sizeof b, "%.15g", d);
    if (strtod(b, NULL) != d) snprintf(b, sizeof b, "%.17g", d);
    fputs(b, f);
}

void wm_out_real(FILE *f, double d, int f32) {
    if (!f32 || !isfinite(d)) {
        wm_out_double(f, d);
        return;
    }
    char b[40];
    for (int p = 6; p <= 9; p++) { /* 9 digits always read back a float */
        snprintf(b, sizeof b, "%.*g", p, d);
        if ((float)strtod(b, NULL) == (float)d) break;
    }
    fputs(b, f);
}

static int is_cont(uint8_t c) { return (c & 0xC0) == 0x80; }

/* Length (2..4) of the well-formed UTF-8 sequence that starts at s[0], which
** is >= 0x80, with n bytes left; 0 when there is none. */
static size_t utf8_seq_len(const uint8_t *s, size_t n) {
    uint8_t c = s[0];
    if (c >= 0xC2 && c <= 0xDF) return n >= 2 && is_cont(s[1]) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || !is_cont(s[1]) || !is_cont(s[2])) return 0;
        if (c == 0xE0 && s[1] < 0xA0) return 0; /* overlong */
        if (c == 0xED && s[1] > 0x9F) return 0; /* UTF-16 surrogate */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || !is_cont(s[1]) || !is_cont(s[2]) || !is_cont(s[3])) return 0;
        if (c == 0xF0 && s[1] < 0x90) return 0; /* overlong */
        if (c == 0xF4 && s[1] > 0x8F) return 0; /* above U+10FFFF */
        return 4;
    }
    return 0; /* 0x80..0xC1, 0xF5..0xFF */
}

/* The letter after '\' of a byte JSON escapes in two bytes, or 0. */
static char json_short_escape(uint8_t c) {
    switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    default: return 0;
    }
}

void wm_out_json_string(FILE *out, const char *str, size_t n) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0, run = 0; /* s[run, i) is pending, copied as is */
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
        /* the two-byte escapes JSON has, else \u00XX */
        esc[0] = '\\';
        esc[1] = json_short_escape(c);
        len_esc = 2;
        if (!esc[1]) {
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            len_esc = 6;
        }
        if (i > run) fwrite(s + run, 1, i - run, out);
        fwrite(esc, 1, len_esc, out);
        run = ++i;
    }
    if (i > run) fwrite(s + run, 1, i - run, out);
    putc('"', out);
}

void wm_out_json_cstr(FILE *f, const char *s) { wm_out_json_string(f, s, strlen(s)); }

void wm_out_note_error(FILE *f, int *failed, int *err) {
    if (ferror(f) && !*failed) {
        *failed = 1;
        *err = errno;
    }
}

void wm_out_line_buffer_tty(FILE *f) {
    if (isatty(fileno(f))) setvbuf(f, NULL, _IOLBF, 0);
}

int wm_out_due(double *t_last, double secs) {
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
    /* asked once a row: the coarse clock (a few ms) is a read of the vDSO's
    ** page, where the fine one cost 8% of printing millions of rows */
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    if (now - *t_last < secs) return 0;
    *t_last = now;
    return 1;
}

int wm_out_flush_due(FILE *f, double *t_last, double secs) {
    if (!wm_out_due(t_last, secs)) return 0;
    fflush(f);
    return 1;
}
