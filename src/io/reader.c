/*
** reader.c -- the public streaming reader (warpmatch.h, "reading sequence
** files"): FASTA, FASTQ and plain input a record at a time, any compression
** zsrc.h reads.
**
** The bytes come through zsrc into a buffer; each record is parsed by the
** parser the whole-file reader uses (seqparse.h: fasta_record and
** fastq_record), from the record's first byte to where it ends. When the
** parser's cursor reached the end of the buffer before the input's end
** (the record may go on in bytes not yet read), more is read and the record
** parsed again from its start: so a record, its errors and their line
** numbers are exactly what wm_seqfile_read gives, and the buffer only ever
** holds the record being read plus one block.
*/
#include "io/seqparse.h"
#include "io/zsrc.h"
#include "warpmatch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WM_STDIN_NAME "(standard input)"
/* The first buffer; it doubles while a record does not fit. */
#define WM_READER_BLOCK ((size_t)1 << 16)

struct wm_reader {
    wm_zsrc_t z;
    int z_open;
    char *dpath; /* the path, or "(standard input)", for messages */
    wm_read_format_t fmt;
    wm_reader_opts_t opts;
    /* Decompressed bytes: buf[pos .. len) not yet parsed; eof when the
    ** input has nothing after buf[len). */
    uint8_t *buf;
    size_t cap, pos, len;
    int eof;
    uint64_t line_base; /* lines before buf[pos] */
    /* The current record's fields (cap bytes each, as buf: a sequence is
    ** never longer than the bytes it was read from). */
    uint8_t *seq, *qual;
    size_t seq_cap, qual_cap;
    char *comment;
    size_t comment_cap;
    wm_recs_t recs; /* the parser's record list: one name at a time */
    uint64_t index;
    int done;
    int status; /* sticky error */
    char msg[512];
};

static int fail(wm_reader_t *rd, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(wm_reader_t *rd, int status, const char *fmt, ...) {
    va_list ap;
    int k = snprintf(rd->msg, sizeof rd->msg, "%s: ", rd->dpath);
    if (k > 0 && (size_t)k < sizeof rd->msg) {
        va_start(ap, fmt);
        vsnprintf(rd->msg + k, sizeof rd->msg - (size_t)k, fmt, ap);
        va_end(ap);
    }
    rd->status = status;
    return status;
}

static int zsrc_fail(wm_reader_t *rd) {
    int st = rd->z.err_nomem ? WM_NOMEM : rd->z.err_io ? WM_IO : WM_FORMAT;
    return fail(rd, st, "%s", rd->z.msg);
}

/* Keep buf[pos .. len), move it to the front, and read more behind it: the
** buffer doubles when the unparsed bytes fill it (a record longer than it). */
static int read_more(wm_reader_t *rd) {
    if (rd->eof) return 0;
    size_t keep = rd->len - rd->pos;
    if (rd->opts.max_record && keep > rd->opts.max_record)
        return fail(rd, WM_NOMEM,
                    "line %" PRIu64 ": record longer than the reader's limit of %" PRIu64 " bytes",
                    rd->line_base + 1, rd->opts.max_record);
    memmove(rd->buf, rd->buf + rd->pos, keep);
    rd->pos = 0;
    rd->len = keep;
    if (keep * 2 >= rd->cap && grow_bytes(&rd->buf, &rd->cap, rd->cap * 2 + 1) != 0)
        return fail(rd, WM_NOMEM, "out of memory");
    int64_t got = wm_zsrc_read(&rd->z, rd->buf + rd->len, rd->cap - 1 - rd->len);
    if (got < 0) return zsrc_fail(rd);
    /* zsrc fills the request unless the input ends. */
    if ((size_t)got < rd->cap - 1 - rd->len) rd->eof = 1;
    rd->len += (size_t)got;
    return 0;
}

wm_reader_opts_t wm_reader_opts_default(void) {
    wm_reader_opts_t o;
    memset(&o, 0, sizeof o);
    return o;
}

wm_status wm_reader_open(const char *path, const wm_reader_opts_t *opts, wm_reader_t **out) {
    if (out) *out = NULL;
    if (!path || !out) return WM_INVALID;
    int is_stdin = strcmp(path, "-") == 0;
    wm_reader_t *rd = calloc(1, sizeof *rd);
    if (!rd) return WM_NOMEM;
    *out = rd;
    rd->opts = opts ? *opts : wm_reader_opts_default();
    rd->z.fd = -1;
    rd->dpath = strdup(is_stdin ? WM_STDIN_NAME : path);
    if (!rd->dpath) {
        rd->dpath = (char *)"";
        return (wm_status)fail(rd, WM_NOMEM, "out of memory");
    }
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return (wm_status)fail(rd, WM_IO, "%s", strerror(errno));
    int e = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (e != 0) {
        if (!is_stdin) close(fd);
        return (wm_status)fail(rd, WM_IO, "%s", strerror(e));
    }
    rd->z_open = 1;
    if (wm_zsrc_open_fd(&rd->z, fd, !is_stdin, 0, "input") != 0) return (wm_status)zsrc_fail(rd);
    uint64_t block = rd->opts.block ? rd->opts.block : WM_READER_BLOCK;
    if (block > ((uint64_t)1 << 30)) block = (uint64_t)1 << 30;
    if (grow_bytes(&rd->buf, &rd->cap, (size_t)block + 1) != 0)
        return (wm_status)fail(rd, WM_NOMEM, "out of memory");
    /* The format: the first non-blank byte, as wm_seqfile_read decides. */
    rd->fmt = WM_READ_PLAIN;
    if (!rd->opts.force_plain) {
        size_t i = 0;
        for (;;) {
            while (i < rd->len && is_blank(rd->buf[i])) i++;
            if (i < rd->len || rd->eof) break;
            if (read_more(rd) != 0) return (wm_status)rd->status;
        }
        if (i < rd->len && rd->buf[i] == '>') rd->fmt = WM_READ_FASTA;
        if (i < rd->len && rd->buf[i] == '@') rd->fmt = WM_READ_FASTQ;
    }
    return WM_OK;
}

/* A plain input: every byte, one record named ".". */
static int next_plain(wm_reader_t *rd, wm_record_t *rec) {
    while (!rd->eof)
        if (read_more(rd) != 0) return rd->status;
    rd->buf[rd->len] = '\0';
    rec->name = ".";
    rec->name_len = 1;
    rec->comment = "";
    rec->seq = rd->buf + rd->pos;
    rec->seq_len = rd->len - rd->pos;
    rec->line = 1;
    rd->pos = rd->len;
    rd->done = 1;
    return 1;
}

/* The fields the whole-file reader does not keep, from a record the parser
** accepted (so its shape is known): the header's line and comment and, for
** FASTQ, the quality lines joined. */
static int record_fields(wm_reader_t *rd, const uint8_t *p, const uint8_t *end, uint64_t seq_len,
                         wm_record_t *rec) {
    wm_lines_t L = { p, end, 0, NULL };
    rec->comment = "";
    const uint8_t *s = p;
    size_t len = 0;
    while (next_line(&L, &s, &len) && all_blank(s, len))
        ;
    if (len == 0) return 0; /* cannot happen: the parser found a header here */
    rec->line = rd->line_base + L.line;
    size_t skip = 1 + name_len(s + 1, len - 1);
    while (skip < len && is_blank(s[skip])) skip++;
    if (grow_bytes(&rd->comment, &rd->comment_cap, len - skip + 1) != 0) return -1;
    memcpy(rd->comment, s + skip, len - skip);
    rd->comment[len - skip] = '\0';
    rec->comment = rd->comment;
    rec->comment_len = len - skip;
    rec->qual = NULL;
    if (rd->fmt != WM_READ_FASTQ) return 0;
    while (next_line(&L, &s, &len) && !(len > 0 && s[0] == '+'))
        ;
    if (grow_bytes(&rd->qual, &rd->qual_cap, seq_len + 1) != 0) return -1;
    uint64_t q = 0;
    while (q < seq_len && next_line(&L, &s, &len)) {
        memcpy(rd->qual + q, s, len);
        q += len;
    }
    rd->qual[q] = '\0';
    rec->qual = rd->qual;
    return 0;
}

int wm_reader_next(wm_reader_t *rd, wm_record_t *rec) {
    if (!rd || !rec) return WM_INVALID;
    if (rd->status != WM_OK) return rd->status;
    memset(rec, 0, sizeof *rec);
    if (rd->done) return 0;
    if (rd->fmt == WM_READ_PLAIN) return next_plain(rd, rec);
    for (;;) {
        if (grow_bytes(&rd->seq, &rd->seq_cap, rd->len - rd->pos + 1) != 0)
            return fail(rd, WM_NOMEM, "out of memory");
        int hit_end = 0;
        wm_lines_t L = { rd->buf + rd->pos, rd->buf + rd->len, 0, &hit_end };
        wm_parse_err_t e;
        uint64_t olen = 0;
        for (size_t i = 0; i < rd->recs.n; i++) free(rd->recs.names[i]);
        rd->recs.n = 0;
        int k = rd->fmt == WM_READ_FASTA ? fasta_record(&L, rd->seq, &olen, &rd->recs, &e)
                                         : fastq_record(&L, rd->seq, &olen, &rd->recs, &e);
        if (hit_end && !rd->eof) {
            /* What the parser saw at the buffer's end may go on: read more
            ** and parse the record again. */
            if (read_more(rd) != 0) return rd->status;
            continue;
        }
        if (k == 0) {
            rd->done = 1;
            return 0;
        }
        if (k == -2) return fail(rd, WM_NOMEM, "out of memory");
        if (k == -1)
            return fail(rd, WM_FORMAT, "line %" PRIu64 ": %s", rd->line_base + e.line, e.rest);
        rd->seq[olen] = '\0';
        rec->name = rd->recs.names[0];
        rec->name_len = strlen(rec->name);
        rec->seq = rd->seq;
        rec->seq_len = olen;
        rec->index = rd->index++;
        if (record_fields(rd, rd->buf + rd->pos, L.p, olen, rec) != 0)
            return fail(rd, WM_NOMEM, "out of memory");
        rd->line_base += L.line;
        rd->pos = (size_t)(L.p - rd->buf);
        return 1;
    }
}

wm_read_format_t wm_reader_format(const wm_reader_t *rd) { return rd ? rd->fmt : WM_READ_PLAIN; }

const char *wm_reader_compression(const wm_reader_t *rd) {
    return rd ? wm_zkind_name(rd->z.kind) : "plain";
}

const char *wm_reader_errmsg(const wm_reader_t *rd) {
    return rd && rd->status != WM_OK ? rd->msg : "";
}

void wm_reader_close(wm_reader_t *rd) {
    if (!rd) return;
    if (rd->z_open) wm_zsrc_close(&rd->z);
    if (rd->dpath && rd->dpath[0]) free(rd->dpath);
    free(rd->buf);
    free(rd->seq);
    free(rd->qual);
    free(rd->comment);
    recs_free(&rd->recs);
    free(rd);
}
