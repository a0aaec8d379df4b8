/*
** signal_text.c -- signals written as text: numbers separated by blanks,
** commas, semicolons and line breaks; '#' comment lines; '>' lines that name
** the signal after them (the rules are in signal.h).
**
** The bytes are parsed as they stream in, token by token (not line by line: a
** signal of 67 million numbers may sit on one line), straight into a growing
** array of doubles; the numbers themselves go through wm_sig_number (strtod's
** rules). What a line means for several = 1 -- one sample of a column, or a
** signal of its own -- is known only once a line with two numbers shows up
** (or the end comes), so until then the samples just pile up.
**
** A labelled file (UCR-2018 .tsv: "label<TAB>v0<TAB>v1..." a line) takes the
** first token of each line as its label, whatever it says; with several = 1
** every line is then a signal, so there is nothing to decide.
*/
#include "io/signal_impl.h"

#include <inttypes.h>
#include <math.h>

/* Bytes read at a time. */
#define WM_TEXT_BLOCK ((size_t)1 << 20)
/* A token longer than this is no number anyone writes: reject it rather than
** let a binary file without separators fill memory. */
#define WM_TEXT_TOKEN_MAX 1024
/* A signal this long is handed over, not copied, when its line or record ends. */
#define WM_TEXT_TAKE ((uint64_t)1 << 16)

typedef enum {
    MODE_ONE,       /* all numbers are one signal */
    MODE_UNDECIDED, /* several = 1 and every line so far held one number */
    MODE_LINES,     /* several = 1: each line is a signal */
    MODE_RECORDS    /* '>' lines name the signals */
} text_mode_t;

typedef struct {
    wm_sigsrc_t *s;
    wm_sigset_t *out;
    int several;
    text_mode_t mode;
    wm_sigvec_t a;           /* samples not yet handed to out */
    uint64_t line;           /* the line being parsed, 1-based */
    uint64_t line_tokens;    /* numbers on it so far */
    uint64_t line_from;      /* a.n when it began */
    int line_started;        /* a non-blank byte was seen on it */
    uint64_t first_num_line; /* line of the first number (0 = none yet) */
    /* MODE_RECORDS: the record being read */
    char *name;
    size_t name_len, name_cap;
    uint64_t rec_line;
    size_t n_records;
    /* MODE_UNDECIDED: the first sample that is not finite. Its number within
    ** its signal is 0 if lines turn out to be signals, its index if the file
    ** is a column: reported once that is known. */
    int pending;
    uint64_t pend_line, pend_index;
    double pend_x;
    /* labelled lines: the label of the line being read */
    int labels, label_seen;
    char *label;
    size_t label_len, label_cap;
} text_t;

/* Separators, and the bytes that end a token (separators and '\n'). */
static const unsigned char is_sep[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\v'] = 1, ['\f'] = 1, [','] = 1, [';'] = 1
};
static const unsigned char is_stop[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\v'] = 1, ['\f'] = 1, [','] = 1, [';'] = 1, ['\n'] = 1
};

static int fail_nonfinite(text_t *t, uint64_t line, uint64_t index, double x) {
    return wm_sig_fail(t->s, ":%" PRIu64 ": sample %" PRIu64 " is %s", line, index,
                       wm_sig_nonfinite(x));
}

/* The pending non-finite sample, now that lines are known to be signals (or not). */
static int fail_pending(text_t *t, int lines_are_signals) {
    return fail_nonfinite(t, t->pend_line, lines_are_signals ? 0 : t->pend_index, t->pend_x);
}

/* Hand a.v[from ..] to out as one signal. */
static int emit(text_t *t, uint64_t from, const char *name, size_t name_len) {
    int take = from == 0 && t->a.n - from >= WM_TEXT_TAKE;
    if (wm_sigset_add(t->out, &t->a, from, take, name, name_len, t->s) != 0) return -1;
    t->a.n = from;
    return 0;
}

/* Keep [p, q) as the label of the line being read. */
static int keep_label(text_t *t, const char *p, const char *q) {
    size_t n = (size_t)(q - p);
    if (n + 1 > t->label_cap) {
        char *lb = realloc(t->label, n + 1);
        if (!lb) return wm_sig_fail(t->s, ": out of memory");
        t->label = lb;
        t->label_cap = n + 1;
    }
    memcpy(t->label, p, n);
    t->label[n] = '\0';
    t->label_len = n;
    t->label_seen = 1;
    return 0;
}

/* A labelled line ends: its samples become a signal that keeps the label. */
static int end_labelled_line(text_t *t) {
    t->label_seen = 0;
    if (t->line_tokens == 0) {
        char shown[WM_SIG_SHOW];
        wm_sig_show(t->label, t->label_len, shown, sizeof shown);
        return wm_sig_fail(t->s, ":%" PRIu64 ": label '%s' but no samples after it", t->line,
                           shown);
    }
    if (t->mode != MODE_LINES) return 0; /* several = 0: the samples join the one signal */
    if (emit(t, 0, NULL, 0) != 0) return -1;
    wm_sig_t *g = &t->out->s.a[t->out->s.n - 1];
    g->label = malloc(t->label_len + 1);
    if (!g->label) return wm_sig_fail(t->s, ": out of memory");
    memcpy(g->label, t->label, t->label_len + 1);
    return 0;
}

static int end_line(text_t *t) {
    if (t->labels && t->label_seen) {
        if (end_labelled_line(t) != 0) return -1;
        t->line_tokens = 0; /* emitted */
    }
    if (t->mode == MODE_UNDECIDED && t->line_tokens >= 2) {
        /* Lines are signals after all: each earlier line held one number. */
        if (t->pending) return fail_pending(t, 1);
        t->mode = MODE_LINES;
        wm_sigvec_t one = { NULL, 1, 1 };
        for (uint64_t i = 0; i < t->line_from; i++) {
            one.v = t->a.v + i;
            if (wm_sigset_add(t->out, &one, 0, 0, NULL, 0, t->s) != 0) return -1;
        }
        memmove(t->a.v, t->a.v + t->line_from, (size_t)t->line_tokens * sizeof(double));
        t->a.n = t->line_tokens;
    }
    if (t->mode == MODE_LINES && t->line_tokens > 0 && emit(t, 0, NULL, 0) != 0) return -1;
    t->line++;
    t->line_tokens = 0;
    t->line_from = t->a.n;
    t->line_started = 0;
    return 0;
}

static int add_number(text_t *t, const char *p, const char *q) {
    double x;
    int why = wm_sig_number(p, q, &x);
    if (why != WM_NUM_OK) {
        if (t->pending) return fail_pending(t, t->line_tokens > 0);
        return wm_sig_fail_number(t->s, t->line, why, p, (size_t)(q - p));
    }
    if (!isfinite(x)) {
        switch (t->mode) {
        case MODE_UNDECIDED:
            if (t->line_tokens == 0) {
                if (!t->pending) {
                    t->pending = 1;
                    t->pend_line = t->line;
                    t->pend_index = t->a.n;
                    t->pend_x = x;
                }
                break;
            }
            /* A second number on the line: lines are signals. */
            if (t->pending) return fail_pending(t, 1);
            return fail_nonfinite(t, t->line, t->line_tokens, x);
        case MODE_LINES: return fail_nonfinite(t, t->line, t->line_tokens, x);
        default: return fail_nonfinite(t, t->line, t->a.n, x);
        }
    }
    if (wm_sigvec_push(&t->a, x, t->s) != 0) return -1;
    t->line_tokens++;
    if (t->first_num_line == 0) t->first_num_line = t->line;
    return 0;
}

/* The end of the record being read (at the next '>' or the end of input). */
static int end_record(text_t *t) {
    if (t->a.n == 0) {
        char shown[WM_SIG_SHOW];
        wm_sig_show(t->name, t->name_len, shown, sizeof shown);
        return wm_sig_fail(t->s, ":%" PRIu64 ": no samples in signal '%s'", t->rec_line, shown);
    }
    return emit(t, 0, t->name, t->name_len);
}

/* A '>' line, [p, q) without its '\n'. */
static int header_line(text_t *t, const char *p, const char *q) {
    if (t->labels)
        return wm_sig_fail(t->s,
                           ":%" PRIu64 ": a '>' line in a labelled file (label, then samples, "
                           "a line; read it without labels)",
                           t->line);
    if (t->mode != MODE_RECORDS) {
        if (t->first_num_line)
            return wm_sig_fail(t->s,
                               ":%" PRIu64 ": numbers before the first '>' line (line %" PRIu64 ")",
                               t->first_num_line, t->line);
        t->mode = MODE_RECORDS;
    } else {
        if (!t->several)
            return wm_sig_fail(
                t->s, ":%" PRIu64 ": a second '>' signal, but one signal is read here", t->line);
        if (end_record(t) != 0) return -1;
    }
    /* The name: the rest of the line, without the blanks around it. */
    p++;
    while (p < q && is_sep[(unsigned char)*p] && *p != ',' && *p != ';') p++;
    while (q > p && is_sep[(unsigned char)q[-1]] && q[-1] != ',' && q[-1] != ';') q--;
    size_t n = (size_t)(q - p);
    if (n + 1 > t->name_cap) {
        char *nm = realloc(t->name, n + 1);
        if (!nm) return wm_sig_fail(t->s, ": out of memory");
        t->name = nm;
        t->name_cap = n + 1;
    }
    memcpy(t->name, p, n);
    t->name[n] = '\0';
    t->name_len = n;
    t->rec_line = t->line;
    t->n_records++;
    return 0;
}

/* Parse w[pos .. len) as far as whole tokens and lines go; *need_more is set
** when the rest must wait for the next block. */
static int parse_block(text_t *t, wm_sigwin_t *w, int *skip_line) {
    const char *p = w->buf + w->pos, *end = w->buf + w->len;

    if (*skip_line) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            w->pos = w->len;
            return 0;
        }
        p = nl;
        *skip_line = 0;
    }
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            if (end_line(t) != 0) return -1;
            p++;
            continue;
        }
        if (is_sep[c]) {
            p++;
            continue;
        }
        const char *tok = p;
        if (!t->line_started) {
            t->line_started = 1;
            if (c == '#' || c == '>') {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                if (c == '#') {
                    if (!nl) {
                        *skip_line = 1; /* the rest of this comment is in the next block */
                        p = end;
                        break;
                    }
                    p = nl;
                    continue;
                }
                if (!nl && !w->eof) {
                    t->line_started = 0; /* seen again, whole, after the refill */
                    break;
                }
                if (header_line(t, p, nl ? nl : end) != 0) return -1;
                p = nl ? nl : end;
                continue;
            }
        }
        while (p < end && !is_stop[(unsigned char)*p]) p++;
        if ((size_t)(p - tok) > WM_TEXT_TOKEN_MAX)
            return wm_sig_fail_number(t->s, t->line, WM_NUM_BAD, tok, (size_t)(p - tok));
        if (p == end && !w->eof) {
            p = tok; /* it may go on in the next block */
            break;
        }
        if (t->labels && !t->label_seen) {
            if (keep_label(t, tok, p) != 0) return -1;
            continue;
        }
        if (add_number(t, tok, p) != 0) return -1;
    }
    w->pos = (size_t)(p - w->buf);
    return 0;
}

static int finish(text_t *t) {
    if (t->line_started || t->line_tokens || t->label_seen)
        if (end_line(t) != 0) return -1;
    switch (t->mode) {
    case MODE_RECORDS: return end_record(t);
    case MODE_LINES: return 0;
    default:
        if (t->pending) return fail_pending(t, 0);
        if (t->a.n == 0) return wm_sig_fail(t->s, ": no samples");
        return wm_sigset_add(t->out, &t->a, 0, 1, NULL, 0, t->s);
    }
}

int wm_sig_read_text(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out) {
    text_t t;
    wm_sigwin_t w;
    int skip_line = 0, rc;

    memset(&t, 0, sizeof t);
    t.s = s;
    t.out = out;
    t.several = o->several;
    t.labels = o->labels > 0;
    t.mode = o->several ? (t.labels ? MODE_LINES : MODE_UNDECIDED) : MODE_ONE;
    t.line = 1;
    if (wm_sigwin_init(&w, s, WM_TEXT_BLOCK) != 0) return -1;
    rc = wm_sigwin_refill(&w, s, 0);
    while (rc == 0) {
        rc = parse_block(&t, &w, &skip_line);
        if (rc != 0) break;
        if (w.eof && w.pos == w.len) {
            rc = finish(&t);
            break;
        }
        /* Keep the unfinished token or line; a buffer full of one '>' line grows. */
        rc = wm_sigwin_refill(&w, s, w.pos);
    }
    wm_sigwin_free(&w);
    free(t.a.v);
    free(t.name);
    free(t.label);
    return rc;
}
