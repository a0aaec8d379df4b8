/*
** signal.c -- wm_sig_read: open the input, pick the format, hand it to its
** reader (signal_text.c, signal_csv.c, signal_raw.c, signal_npy.c); plus the
** pieces those readers share: growing sample arrays, the list of signals,
** number parsing in the "C" locale and the wording of messages.
*/
#include "io/signal_impl.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <strings.h>

/* ------------------------------------------------------------------------ */
/* samples and signals                                                        */
/* ------------------------------------------------------------------------ */

int wm_sigvec_grow(wm_sigvec_t *a, uint64_t need, wm_sigsrc_t *s) {
    uint64_t m = a->m ? a->m : 4096;
    while (m < need) m *= 2; /* doubling: each sample is moved O(1) times on average */
    if (m > SIZE_MAX / sizeof(double)) return wm_sig_fail(s, ": out of memory");
    double *v = realloc(a->v, (size_t)m * sizeof(double));
    if (!v) return wm_sig_fail(s, ": out of memory");
    a->v = v;
    a->m = m;
    return 0;
}

static int sigset_room(wm_sigset_t *set, wm_sigsrc_t *s) {
    if (set->s.n < set->m) return 0;
    size_t m = set->m ? set->m * 2 : 8;
    wm_sig_t *a = realloc(set->s.a, m * sizeof *a);
    if (!a) return wm_sig_fail(s, ": out of memory");
    set->s.a = a;
    set->m = m;
    return 0;
}

int wm_sigset_add_owned(wm_sigset_t *set, double *v, uint64_t n, wm_sigsrc_t *s) {
    if (sigset_room(set, s) != 0) {
        free(v);
        return -1;
    }
    wm_sig_t *g = &set->s.a[set->s.n++];
    g->v = v;
    g->n = n;
    g->name = NULL;
    g->label = NULL;
    return 0;
}

int wm_sigset_add(wm_sigset_t *set, wm_sigvec_t *a, uint64_t from, int take, const char *name,
                  size_t name_len, wm_sigsrc_t *s) {
    uint64_t n = a->n - from;
    double *v;
    char *nm = NULL;

    if (sigset_room(set, s) != 0) return -1;
    if (name && name_len > 0) {
        nm = malloc(name_len + 1);
        if (!nm) return wm_sig_fail(s, ": out of memory");
        memcpy(nm, name, name_len);
        nm[name_len] = '\0';
    }
    if (take) {
        /* Give back the spare capacity of the doubling. */
        v = a->m > n ? realloc(a->v, (size_t)n * sizeof(double)) : a->v;
        if (!v) v = a->v;
        memset(a, 0, sizeof *a);
    } else {
        v = malloc((size_t)n * sizeof(double));
        if (!v) {
            free(nm);
            return wm_sig_fail(s, ": out of memory");
        }
        memcpy(v, a->v + from, (size_t)n * sizeof(double));
    }
    wm_sig_t *g = &set->s.a[set->s.n++];
    g->v = v;
    g->n = n;
    g->name = nm;
    g->label = NULL;
    return 0;
}

void wm_sigs_free(wm_sigs_t *s) {
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->a[i].v);
        free(s->a[i].name);
        free(s->a[i].label);
    }
    free(s->a);
    s->a = NULL;
    s->n = 0;
}

/* ------------------------------------------------------------------------ */
/* numbers                                                                    */
/* ------------------------------------------------------------------------ */

/* strtod follows LC_NUMERIC, which a program may have set to a locale with a
** decimal comma; the files are "C" locale, so parse with a locale of our own. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) { c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

static double strtod_c(const char *p, char **end) {
    pthread_once(&c_locale_once, make_c_locale);
    if (c_locale != (locale_t)0) return strtod_l(p, end, c_locale);
    return strtod(p, end); /* newlocale failed (no memory): the best we have */
}

/* Clinger's fast path: a decimal of at most 19 significant digits whose
** mantissa m <= 2^53 and power of ten |e| <= 22 is m * 10^e or m / 10^-e with
** both operands exact, so one IEEE operation rounds it correctly -- the same
** double strtod gives, several times faster. Returns 0 when the token is not
** of that simple form (strtod then decides). */
static int fast_decimal(const char *p, const char *q, double *x) {
    static const double pow10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
#if FLT_EVAL_METHOD != 0
    /* Extended-precision arithmetic would round twice. */
    (void)pow10;
    (void)p;
    (void)q;
    (void)x;
    return 0;
#else
    int neg = 0, digits = 0, sig = 0;
    uint64_t m = 0;
    int64_t e = 0;

    if (p < q && (*p == '-' || *p == '+')) neg = *p++ == '-';
    for (; p < q && (unsigned)(*p - '0') < 10; p++, digits++) {
        if (m == 0 && *p == '0') continue; /* leading zeros are not significant */
        if (++sig > 19) return 0;
        m = m * 10 + (uint64_t)(*p - '0');
    }
    if (p < q && *p == '.') {
        for (p++; p < q && (unsigned)(*p - '0') < 10; p++, digits++) {
            e--;
            if (m == 0 && *p == '0') continue;
            if (++sig > 19) return 0;
            m = m * 10 + (uint64_t)(*p - '0');
        }
    }
    if (digits == 0) return 0;
    if (p < q && (*p == 'e' || *p == 'E')) {
        int eneg = 0;
        int64_t ex = 0;
        p++;
        if (p < q && (*p == '-' || *p == '+')) eneg = *p++ == '-';
        if (p == q) return 0;
        for (; p < q && (unsigned)(*p - '0') < 10; p++)
            if (ex < 100000) ex = ex * 10 + (*p - '0');
        e += eneg ? -ex : ex;
    }
    if (p != q) return 0;
    double v;
    if (m == 0) v = 0.0;
    else if (m > ((uint64_t)1 << 53) || e < -22 || e > 22) return 0;
    else if (e < 0) v = (double)m / pow10[-e];
    else v = (double)m * pow10[e];
    *x = neg ? -v : v;
    return 1;
#endif
}

int wm_sig_number(const char *p, const char *q, double *x) {
    char *end;
    if (p == q) return WM_NUM_BAD;
    if (fast_decimal(p, q, x)) return WM_NUM_OK;
    /* strtod skips leading blanks; a token that has them is not a number. */
    if (*p == ' ' || (unsigned)(*p - '\t') <= '\r' - '\t') return WM_NUM_BAD;
    errno = 0;
    double v = strtod_c(p, &end);
    if (end != q) return WM_NUM_BAD;
    /* ERANGE also flags underflow; a tiny number rounded toward 0 is fine. */
    if (errno == ERANGE && isinf(v)) return WM_NUM_RANGE;
    *x = v;
    return WM_NUM_OK;
}

/* ------------------------------------------------------------------------ */
/* messages                                                                   */
/* ------------------------------------------------------------------------ */

const char *wm_sig_nonfinite(double x) {
    if (isnan(x)) return "NaN";
    return x < 0 ? "-Inf" : "Inf";
}

void wm_sig_show(const char *p, size_t n, char *out, size_t out_len) {
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0, i;
    if (out_len == 0) return;
    for (i = 0; i < n && o + 8 < out_len && i < 40; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    if (i < n && o + 3 < out_len) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

int wm_sig_fail_number(wm_sigsrc_t *s, uint64_t line, int why, const char *p, size_t n) {
    char shown[WM_SIG_SHOW];
    wm_sig_show(p, n, shown, sizeof shown);
    return wm_sig_fail(s, ":%" PRIu64 ": '%s' is %s", line, shown,
                       why == WM_NUM_RANGE ? "out of range" : "not a number");
}

/* ------------------------------------------------------------------------ */
/* the public call                                                            */
/* ------------------------------------------------------------------------ */

static int ends_with_ci(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* AUTO: the .npy and zip magics win over any name; the name says CSV (TEXT
** rows with csv_rows); else TEXT. */
static int pick_format(wm_sigsrc_t *s, const char *path, int csv_rows, wm_sigfmt_t *fmt) {
    static const uint8_t npy_magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
    const uint8_t *head;
    size_t got;
    if (wm_sigsrc_peek(s, &head, sizeof npy_magic, &got) != 0) return -1;
    if (got == sizeof npy_magic && memcmp(head, npy_magic, got) == 0) *fmt = WM_SIGFMT_NPY;
    else if (got >= 4 && memcmp(head, "PK", 2) == 0 &&
             ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6)))
        *fmt = WM_SIGFMT_NPZ; /* a local header first, or the end of an empty archive */
    else if (strcmp(path, "-") != 0 &&
             (ends_with_ci(path, ".csv") || ends_with_ci(path, ".csv.gz")))
        *fmt = csv_rows ? WM_SIGFMT_TEXT : WM_SIGFMT_CSV;
    else *fmt = WM_SIGFMT_TEXT;
    return 0;
}

int wm_sig_read(const char *path, const wm_sigread_opts_t *o, wm_sigs_t *out, char *err,
                size_t err_len) {
    static const wm_sigread_opts_t defaults = { WM_SIGFMT_AUTO, NULL, 0, 0, 0, NULL, 0 };
    wm_sigread_opts_t local;
    wm_sigsrc_t src;
    wm_sigset_t set;
    int rc;

    if (!err) err_len = 0;
    if (err_len) err[0] = '\0';
    if (out) memset(out, 0, sizeof *out);
    if (!path || !out) {
        if (err_len)
            snprintf(err, err_len, "%s",
                     !path ? "(null): no path given" : "no place for the result");
        return -1;
    }
    if (!o) o = &defaults;
    if (o->labels == 0) {
        /* UCR-2018's .tsv layout: a label, then the samples */
        local = *o;
        local.labels =
            strcmp(path, "-") != 0 && (ends_with_ci(path, ".tsv") || ends_with_ci(path, ".tsv.gz"))
                ? 1
                : -1;
        o = &local;
    }
    memset(&set, 0, sizeof set);

    rc = wm_sigsrc_open(&src, path, err, err_len);
    wm_sigfmt_t fmt = o->format;
    if (rc == 0 && fmt == WM_SIGFMT_AUTO) rc = pick_format(&src, path, o->csv_rows, &fmt);
    if (rc == 0) {
        switch (fmt) {
        case WM_SIGFMT_TEXT: rc = wm_sig_read_text(&src, o, &set); break;
        case WM_SIGFMT_CSV: rc = wm_sig_read_csv(&src, o, &set); break;
        case WM_SIGFMT_F32: rc = wm_sig_read_raw(&src, 4, o, &set); break;
        case WM_SIGFMT_F64: rc = wm_sig_read_raw(&src, 8, o, &set); break;
        case WM_SIGFMT_NPY: rc = wm_sig_read_npy(&src, o, &set); break;
        case WM_SIGFMT_NPZ: rc = wm_sig_read_npz(&src, o, &set); break;
        default: rc = wm_sig_fail(&src, ": unknown signal format %d", (int)fmt); break;
        }
    }
    wm_sigsrc_close(&src);
    /* The readers' promise, kept here once for all of them. */
    if (rc == 0 && set.s.n == 0) rc = wm_sig_fail(&src, ": no samples");
    if (rc != 0) {
        wm_sigs_free(&set.s);
        return -1;
    }
    *out = set.s;
    return 0;
}
