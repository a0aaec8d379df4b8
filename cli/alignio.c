/*
** alignio.c -- QUERY and TARGET of `warpmatch align`: literal or file, read
** once, checked record by record before anything is aligned (see alignio.h).
*/
#include "alignio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "cli.h"

/* Longest record name quoted in a message. */
#define NAME_MAX_MSG 200

/* Letters only: an argument that could have been meant as a sequence,
** so the "no such file" message says how to write one. */
static int all_letters(const char *s) {
    if (*s == '\0') return 0;
    for (; *s != '\0'; ++s)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))) return 0;
    return 1;
}

static const char *display_path(const wm_cli_input_t *in) {
    return strcmp(in->arg, "-") == 0 ? "(standard input)" : in->arg;
}

static int is_blank(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* A plain file read as a sequence: refuse binary bytes, drop blanks. The
** bytes are compacted in place when the reader owns them (gzip, stdin),
** else into one new buffer (a mapped file). */
static int plain_as_text(wm_cli_input_t *in) {
    const uint8_t *s = in->sf.text.seq;
    uint64_t n = in->sf.text.len, n_blank = 0;
    for (uint64_t i = 0; i < n; ++i) {
        uint8_t c = s[i];
        if (c > 0x20 && c < 0x7f) continue;
        if (!is_blank(c)) {
            wm_cli_error("%s: byte 0x%02X at offset %llu: not a sequence file (binary "
                         "bytes); use --alphabet text to align its raw bytes",
                         display_path(in), (unsigned)c, (unsigned long long)i);
            return -1;
        }
        n_blank++;
    }
    uint64_t len = n - n_blank;
    if (n_blank > 0 && len > 0) {
        uint8_t *dst = in->sf.owned;
        if (dst == NULL) {
            dst = in->joined = malloc((size_t)len);
            if (dst == NULL) {
                wm_cli_error("%s: %s", display_path(in), wm_strerror(WM_NOMEM));
                return -1;
            }
        }
        uint64_t o = 0;
        for (uint64_t i = 0; i < n; ++i)
            if (!is_blank(s[i])) dst[o++] = s[i];
        s = dst;
    }
    in->seq = s;
    in->one[1] = len;
    return 0;
}

/* The checks every record must pass; messages name the record. */
static int check_records(const wm_cli_input_t *in, uint64_t max_len) {
    if (in->n_rec == 0) {
        wm_cli_error("%s: no %s records", display_path(in), in->role);
        return -1;
    }
    for (size_t r = 0; r < in->n_rec; ++r) {
        uint64_t len;
        char what[NAME_MAX_MSG + 1100];
        (void)wm_cli_input_rec(in, r, &len);
        if ((len > 0 || in->allow_empty) && (max_len == 0 || len <= max_len)) continue;
        if (!in->is_file) snprintf(what, sizeof what, "the %s", in->role);
        else if (in->is_seqfile)
            snprintf(what, sizeof what, "%.1000s: record %zu '%.*s'", display_path(in), r + 1,
                     NAME_MAX_MSG, in->sf.names[r]);
        else snprintf(what, sizeof what, "%.1000s", display_path(in));
        if (len > 0)
            wm_cli_error("%s is %llu bytes long; the longest %s allowed is %llu bytes", what,
                         (unsigned long long)len, in->role, (unsigned long long)max_len);
        else if (!in->is_file) wm_cli_error("the %s is empty", in->role);
        else if (in->is_seqfile) wm_cli_error("%s is empty (no sequence)", what);
        else if (in->sf.text.len == 0) wm_cli_error("%s: the %s file is empty", what, in->role);
        else wm_cli_error("%s: no %s sequence (only blanks and line breaks)", what, in->role);
        return -1;
    }
    return 0;
}

int wm_cli_input_open(wm_cli_input_t *in, const char *role, const char *arg, int raw,
                      uint64_t max_len) {
    struct stat st;
    int allow_empty = in->allow_empty;
    memset(in, 0, sizeof *in);
    in->allow_empty = allow_empty;
    in->role = role;
    in->arg = arg;
    in->n_rec = 1;
    in->starts = in->one;
    if (strncmp(arg, WM_CLI_LITERAL_PREFIX, strlen(WM_CLI_LITERAL_PREFIX)) == 0) {
        /* The explicit form of a sequence on the command line: never a file. */
        in->seq = (const uint8_t *)arg + strlen(WM_CLI_LITERAL_PREFIX);
        in->one[1] = strlen((const char *)in->seq);
        return check_records(in, max_len);
    }
    if (strcmp(arg, "-") != 0 && stat(arg, &st) != 0) {
        /* A misspelt file name must never become a sequence. */
        int e = errno;
        if (all_letters(arg))
            wm_cli_error("%s: %s (a sequence on the command line is written %s%s)", arg,
                         strerror(e), WM_CLI_LITERAL_PREFIX, arg);
        else wm_cli_error("%s: %s", arg, strerror(e));
        return -1;
    }

    char err[1200] = "";
    in->is_file = 1;
    wm_seqfile_opts_t so = wm_seqfile_opts_default();
    so.threads = in->threads;
    wm_status s = wm_seqfile_read_opts(arg, 0, &so, &in->sf, err, sizeof err);
    if (s != WM_OK) {
        if (err[0] != '\0') wm_cli_error("%s", err);
        else wm_cli_error("%s: %s", display_path(in), wm_strerror(s));
        return -1;
    }
    if (in->sf.format == WM_FMT_PLAIN) {
        if (raw) {
            in->seq = in->sf.text.seq;
            in->one[1] = in->sf.text.len;
        } else if (plain_as_text(in) < 0) {
            return -1;
        }
    } else {
        in->is_seqfile = 1;
        in->seq = in->sf.text.seq;
        in->starts = in->sf.text.rec_start;
        in->n_rec = in->sf.text.n_rec;
    }
    return check_records(in, max_len);
}

int wm_cli_input_open_range(wm_cli_input_t *in, const char *role, const char *arg, uint64_t lo,
                            uint64_t hi, uint64_t max_len) {
    int allow_empty = in->allow_empty, threads = in->threads;
    memset(in, 0, sizeof *in);
    in->allow_empty = allow_empty;
    in->threads = threads;
    in->role = role;
    in->arg = arg;
    in->is_file = in->is_seqfile = 1;
    in->starts = in->one;
    if (lo == hi) { /* no records here */
        in->seq = (const uint8_t *)"";
        return 0;
    }
    char err[1200];
    wm_seqfile_opts_t so = wm_seqfile_opts_default();
    so.threads = threads;
    so.range_lo = lo;
    so.range_hi = hi;
    if (wm_seqfile_read_opts(arg, 0, &so, &in->sf, err, sizeof err) != WM_OK ||
        (in->sf.format != WM_FMT_FASTA && in->sf.format != WM_FMT_FASTQ))
        return -1;
    in->seq = in->sf.text.seq;
    in->starts = in->sf.text.rec_start;
    in->n_rec = in->sf.text.n_rec;
    for (size_t r = 0; r < in->n_rec; ++r) {
        uint64_t len;
        (void)wm_cli_input_rec(in, r, &len);
        if (!(len > 0 || in->allow_empty) || (max_len && len > max_len)) return -1;
    }
    return 0;
}

/* The next line of raw[*at, n) without its "\n" or "\r\n"; 0 at the end. */
static int fq_line(const uint8_t *raw, uint64_t n, uint64_t *at, const uint8_t **s, size_t *len) {
    if (*at >= n) return 0;
    const uint8_t *p = raw + *at, *nl = memchr(p, '\n', (size_t)(n - *at));
    const uint8_t *e = nl ? nl : raw + n;
    *at = nl ? (uint64_t)(nl + 1 - raw) : n;
    if (e > p && e[-1] == '\r') e--;
    *s = p;
    *len = (size_t)(e - p);
    return 1;
}

static int fq_blank(const uint8_t *s, size_t len) {
    for (size_t i = 0; i < len; ++i)
        if (!is_blank(s[i])) return 0;
    return 1;
}

/* Walk the raw FASTQ bytes as the reader did (it has checked them):
** header, sequence lines up to '+', then quality lines until they are as
** long as the record's sequence. Returns 0, or -1 when they disagree. */
static int copy_quals(const wm_cli_input_t *in, const uint8_t *raw, uint64_t n, uint8_t *dst) {
    uint64_t at = 0;
    const uint8_t *s;
    size_t len;
    for (size_t r = 0; r < in->n_rec; ++r) {
        uint64_t want = in->starts[r + 1] - in->starts[r], got = 0;
        uint8_t *q = dst + (in->starts[r] - in->starts[0]);
        do {
            if (!fq_line(raw, n, &at, &s, &len)) return -1;
        } while (fq_blank(s, len));
        if (s[0] != '@') return -1;
        do {
            if (!fq_line(raw, n, &at, &s, &len)) return -1;
        } while (len == 0 || s[0] != '+');
        while (got < want) {
            if (!fq_line(raw, n, &at, &s, &len) || got + len > want) return -1;
            for (size_t i = 0; i < len; ++i)
                if (s[i] < '!' || s[i] > '~') return -1;
            memcpy(q + got, s, len);
            got += len;
        }
        if (want == 0) { /* an empty read's empty quality line */
            uint64_t save = at;
            if (fq_line(raw, n, &at, &s, &len) && len != 0) at = save;
        }
    }
    return 0;
}

void wm_cli_input_load_quals(wm_cli_input_t *in) {
    if (!in->is_file || in->sf.format != WM_FMT_FASTQ || strcmp(in->arg, "-") == 0 || in->quals)
        return;
    uint64_t total = in->starts[in->n_rec] - in->starts[0];
    wm_seqfile_t raw;
    memset(&raw, 0, sizeof raw);
    char err[256];
    if (wm_seqfile_read(in->arg, 1, &raw, err, sizeof err) != WM_OK) return;
    in->quals = malloc(total ? (size_t)total : 1);
    if (in->quals && copy_quals(in, raw.text.seq, raw.text.len, in->quals) < 0) {
        free(in->quals);
        in->quals = NULL;
    }
    wm_seqfile_close(&raw);
}

void wm_cli_input_close(wm_cli_input_t *in) {
    free(in->quals);
    wm_seqfile_close(&in->sf);
    free(in->joined);
    memset(in, 0, sizeof *in);
}

const uint8_t *wm_cli_input_rec(const wm_cli_input_t *in, size_t r, uint64_t *len) {
    *len = in->starts[r + 1] - in->starts[r];
    return in->seq + in->starts[r];
}

const char *wm_cli_input_name(const wm_cli_input_t *in, size_t r) {
    if (!in->is_file) return in->role;
    if (!in->is_seqfile) return in->arg;
    return in->sf.names[r];
}

/* The IUPAC check of a long input: pieces on the input's threads. */
#define IUPAC_PARALLEL_MIN ((uint64_t)32 << 20)
#define IUPAC_PIECE ((uint64_t)4 << 20)

typedef struct {
    const uint8_t *p;
    uint64_t n;
    int bad; /* some piece is not IUPAC (atomic) */
} iupac_job_t;

static void iupac_piece(void *arg, size_t i, int tid) {
    iupac_job_t *J = arg;
    uint64_t lo = (uint64_t)i * IUPAC_PIECE, hi = J->n - lo < IUPAC_PIECE ? J->n : lo + IUPAC_PIECE;
    (void)tid;
    if (__atomic_load_n(&J->bad, __ATOMIC_RELAXED)) return;
    if (!wm_cli_is_iupac(J->p + lo, (size_t)(hi - lo)))
        __atomic_store_n(&J->bad, 1, __ATOMIC_RELAXED);
}

int wm_cli_input_iupac(const wm_cli_input_t *in) {
    /* the records lie back to back in seq: one pass over all their bytes */
    const uint8_t *p = in->seq + in->starts[0];
    uint64_t n = in->starts[in->n_rec] - in->starts[0];
    wm_pool_t *pool = n >= IUPAC_PARALLEL_MIN ? wm_cli_pool(in->threads) : NULL;
    if (pool == NULL) return wm_cli_is_iupac(p, (size_t)n);
    iupac_job_t J = { p, n, 0 };
    wm_pool_for(pool, (size_t)((n + IUPAC_PIECE - 1) / IUPAC_PIECE), iupac_piece, &J);
    wm_pool_free(pool);
    return !J.bad;
}
