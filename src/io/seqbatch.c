/*
** seqbatch.c -- a sequence input in batches of bounded size (seqbatch.h).
**
** The bytes come through zsrc into a buffer of whole lines (FASTA headers,
** FASTQ records) or runs of a sequence line; each state of the FASTA parser
** below is a place in fasta_record's loop (seqparse.h), so the records and
** the messages are the whole-file parser's:
**
**   PRE   before the first header: blank lines only, as fasta_record skips
**   HEAD  at the start of a line inside a record: '>' starts the next one
**   SEQ   inside a sequence line: its bytes through append_seq's rules a run
**         at a time (a genome on one line is never held whole), the line
**         done at its '\n'
**
** A FASTQ record is parsed whole (fastq_record with the reader's re-parse
** when it reaches the buffer's end) into a record buffer, then copied into
** batches, cut where a batch is full; with threads, runs of whole records
** go straight into the batch through fastq_par.c. A plain input is one record ".",
** read straight into the batch.
**
** A live input (a pipe or a terminal, not compressed: `tail -f log |`)
** is asked only for the bytes that have arrived (FIONREAD), and a batch
** that holds new bytes ends when nothing more comes for LIVE_PAUSE_MS: its
** rows are then printed while the input waits, as grep prints a line. A
** fast producer never pauses that long, so its batches stay full. Batches
** of any size give the same rows (the carry), so only the timing changes.
*/
#include "io/seqbatch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "io/fasta_par.h"
#include "io/fastq_par.h"
#include "io/seqparse.h"
#include "io/zsrc.h"

#define WM_STDIN_NAME "(standard input)"
/* Input read at a time; the buffer grows only for a line (a header) or a
** FASTQ record longer than half of it. */
#define SEQBATCH_BLOCK ((size_t)4 << 20)
/* A live input that sends nothing for this long has paused. */
#define LIVE_PAUSE_MS 20
/* The least FASTA worth parsing on all threads at once (wm_seqsrc_set_threads). */
#define PAR_MIN ((uint64_t)1 << 20)
/* The most at once: the run is read into the input buffer whole, so the
** buffer grows to it (a batch's 32 MiB took the streamed peak from 105 to
** 165 MB, BENCHMARKS.md 18); a batch is parsed in several runs. */
#define PAR_RUN_MAX ((uint64_t)8 << 20)
/* How soon a wait for a live input sees wm_seqsrc_abort. */
#define LIVE_ABORT_MS 100

enum { ST_PRE, ST_HEAD, ST_SEQ, ST_DONE };

struct wm_seqsrc {
    wm_zsrc_t z;
    int z_open;
    char *dpath;
    wm_format_t fmt;
    int regular;
    int live;              /* a pipe or terminal, not compressed: read what has arrived */
    atomic_int abort_wait; /* wm_seqsrc_abort: a live input's wait ends as its end */
    /* the fill under way: its batch, what the batch held before it, and
    ** whether it may end at a pause (wm_seqsrc_next's may, once it has
    ** added bytes or records; the first batch's growth for the sniff not) */
    wm_seqbatch_t *cur;
    uint64_t cur_len;
    size_t cur_rec;
    int may_pause;
    uint64_t halo;
    /* input: buf[pos, len) not yet parsed; eof when nothing follows buf[len) */
    uint8_t *buf;
    size_t cap, pos, len;
    int eof;
    uint64_t line;      /* lines ('\n') before buf[pos] */
    uint64_t buf_off;   /* the input's offset of buf[0] */
    int par_threads;    /* FASTA parsed by this many threads (fasta_par.c) when > 1 */
    uint64_t par_min;   /* in runs of whole lines at least this long [PAR_MIN] */
    uint64_t par_max;   /* and at most this long where a batch has more room [PAR_RUN_MAX] */
    uint64_t par_block; /* fasta_par's block; 0: the run cut in 4 a thread, >= 64 KiB */
    uint64_t par_skip;  /* input offset before which the serial parser goes on: where
                           fasta_par gave up, or lines too long for a run of par_min */
    int state;
    /* the record being read: open until its end is known */
    int in_rec;
    char *name;       /* its name (the batch gets copies) */
    uint64_t index;   /* its index in the input */
    uint64_t rec_len; /* its bytes so far */
    uint64_t n_records;
    /* its last halo bytes, carried into the next batch */
    uint8_t *tail;
    uint64_t n_tail;
    /* FASTQ: the record parsed, and how much of it the batches have */
    uint8_t *fq;
    size_t fq_cap, fq_len, fq_done;
    wm_recs_t recs;
    wm_pool_t *pool; /* par_threads: FASTQ parsed (fastq_par.c), long reads of a regular
                        file (wm_zsrc_read_par); made at first use */
};

static wm_status fail(char *err, size_t errlen, wm_status st, const char *dpath, const char *fmt,
                      ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static wm_status fail(char *err, size_t errlen, wm_status st, const char *dpath, const char *fmt,
                      ...) {
    if (err && errlen) {
        va_list ap;
        int k = snprintf(err, errlen, "%s: ", dpath);
        if (k > 0 && (size_t)k < errlen) {
            va_start(ap, fmt);
            vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return st;
}

static wm_status zfail(wm_seqsrc_t *s, char *err, size_t errlen) {
    wm_status st = s->z.err_nomem ? WM_NOMEM : s->z.err_io ? WM_IO : WM_FORMAT;
    return fail(err, errlen, st, s->dpath, "%s", s->z.msg);
}

/* What to ask of the input for up to `want` bytes: all of it, except from a
** live input, which gets what has arrived (waiting for the first byte),
** or 0 when nothing comes for LIVE_PAUSE_MS and this fill may end its
** batch (a pause). */
static size_t ask(wm_seqsrc_t *s, size_t want) {
    if (!s->live || want == 0) return want;
    size_t have = s->z.raw_len - s->z.raw_pos; /* zsrc's own, from finding the kind */
    for (int waited = 0;; waited = 1) {
        int queued = 0;
        if (have >= want || ioctl(s->z.fd, FIONREAD, &queued) != 0) return want;
        if (have + (size_t)queued > 0)
            return have + (size_t)queued < want ? have + (size_t)queued : want;
        if (waited) return want; /* readable with nothing queued: the end (or an error) */
        int pause = s->may_pause && (s->cur->len > s->cur_len || s->cur->n_rec > s->cur_rec);
        struct pollfd p = { s->z.fd, POLLIN, 0 };
        int r;
        /* Waits in slices, so that an abort from the searcher ends one. */
        while ((r = poll(&p, 1, pause ? LIVE_PAUSE_MS : LIVE_ABORT_MS)) <= 0) {
            if (r < 0 && errno != EINTR) return want; /* the read will say what is wrong */
            if (atomic_load(&s->abort_wait)) {
                s->eof = 1; /* nothing more is wanted: as if the input ended */
                return 0;
            }
            if (r == 0 && pause) return 0;
        }
    }
}

/* The pool of par_threads, made at its first use (NULL: one thread). */
static wm_pool_t *par_pool(wm_seqsrc_t *s) {
    if (!s->pool && s->par_threads > 1) s->pool = wm_pool_new(s->par_threads);
    return s->pool;
}

/* Up to n bytes of the input: a regular file's long reads on the threads. */
static int64_t read_input(wm_seqsrc_t *s, void *dst, size_t n) {
    return s->regular && s->par_threads > 1 ? wm_zsrc_read_par(&s->z, dst, n, par_pool(s))
                                            : wm_zsrc_read(&s->z, dst, n);
}

/* Keep buf[pos, len), move it to the front and read more behind it; the
** buffer doubles when what is kept fills half of it. *paused (may be NULL
** when the fill may not pause) is set when a live input paused instead. */
static wm_status read_more(wm_seqsrc_t *s, int *paused, char *err, size_t errlen) {
    if (s->eof) return WM_OK;
    size_t keep = s->len - s->pos;
    memmove(s->buf, s->buf + s->pos, keep);
    s->buf_off += s->pos;
    s->pos = 0;
    s->len = keep;
    if (keep * 2 >= s->cap && grow_bytes(&s->buf, &s->cap, s->cap * 2) != 0)
        return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
    size_t n = ask(s, s->cap - s->len);
    if (n == 0) {
        if (paused) *paused = 1;
        return WM_OK;
    }
    int64_t got = read_input(s, s->buf + s->len, n);
    if (got < 0) return zfail(s, err, errlen);
    if ((size_t)got < n) s->eof = 1; /* zsrc fills a request unless the input ends */
    s->len += (size_t)got;
    return WM_OK;
}

wm_status wm_seqsrc_open(wm_seqsrc_t **out, const char *path, uint64_t halo, char *err,
                         size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (!out) return WM_INVALID;
    *out = NULL;
    if (!path) return fail(err, errlen, WM_INVALID, "(null)", "no path given");
    int is_stdin = strcmp(path, "-") == 0;
    const char *dpath = is_stdin ? WM_STDIN_NAME : path;
    wm_seqsrc_t *s = calloc(1, sizeof *s);
    if (!s || !(s->dpath = strdup(dpath))) {
        free(s);
        return fail(err, errlen, WM_NOMEM, dpath, "%s", wm_strerror(WM_NOMEM));
    }
    s->halo = halo;
    s->z.fd = -1;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    wm_status rc = WM_OK;
    if (fd < 0) {
        rc = fail(err, errlen, WM_IO, dpath, "%s", strerror(errno));
    } else if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        rc = fail(err, errlen, WM_IO, dpath, "%s", strerror(S_ISDIR(st.st_mode) ? EISDIR : errno));
        if (!is_stdin) close(fd);
    } else {
        s->regular = !is_stdin && S_ISREG(st.st_mode);
        s->z_open = 1;
        if (wm_zsrc_open_fd(&s->z, fd, !is_stdin, 0, "input") != 0) rc = zfail(s, err, errlen);
        s->live = rc == WM_OK && !S_ISREG(st.st_mode) && s->z.kind == WM_Z_PLAIN;
    }
    if (rc == WM_OK && grow_bytes(&s->buf, &s->cap, SEQBATCH_BLOCK) != 0)
        rc = fail(err, errlen, WM_NOMEM, dpath, "%s", wm_strerror(WM_NOMEM));
    if (rc == WM_OK && halo > 0 && !(s->tail = malloc(halo)))
        rc = fail(err, errlen, WM_NOMEM, dpath, "%s", wm_strerror(WM_NOMEM));
    /* The format: the first non-blank byte, as wm_seqfile_read decides. */
    size_t i = 0;
    while (rc == WM_OK) {
        while (i < s->len && is_blank(s->buf[i])) i++;
        if (i < s->len || s->eof) break;
        rc = read_more(s, NULL, err, errlen);
    }
    if (rc != WM_OK) {
        wm_seqsrc_close(s);
        return rc;
    }
    s->fmt = i < s->len && s->buf[i] == '>'   ? WM_FMT_FASTA
             : i < s->len && s->buf[i] == '@' ? WM_FMT_FASTQ
                                              : WM_FMT_PLAIN;
    s->state = ST_PRE;
    *out = s;
    return WM_OK;
}

wm_format_t wm_seqsrc_format(const wm_seqsrc_t *s) { return s->fmt; }
int wm_seqsrc_compressed(const wm_seqsrc_t *s) { return s->z.kind != WM_Z_PLAIN; }
int wm_seqsrc_regular(const wm_seqsrc_t *s) { return s->regular; }

/* ---- the batch ------------------------------------------------------------ */

static int batch_room(wm_seqbatch_t *b, uint64_t need) {
    if (b->len + need <= b->cap) return 0;
    size_t cap = (size_t)b->cap;
    if (grow_bytes(&b->seq, &cap, (size_t)(b->len + need)) != 0) return -1;
    b->cap = cap;
    return 0;
}

/* A new local record that owns name (freed here when out of memory), its
** first byte at base of its record. */
static int batch_record_own(wm_seqbatch_t *b, char *name, uint64_t base) {
    if (b->n_rec + 2 > b->rec_cap) {
        size_t nc = b->rec_cap ? b->rec_cap * 2 : 64;
        uint64_t *rs = realloc(b->rec_start, nc * sizeof *rs);
        if (rs) b->rec_start = rs;
        uint64_t *bs = rs ? realloc(b->base, nc * sizeof *bs) : NULL;
        if (bs) b->base = bs;
        char **nn = bs ? realloc(b->names, nc * sizeof *nn) : NULL;
        if (!nn) {
            free(name);
            return -1;
        }
        b->names = nn;
        b->rec_cap = nc;
    }
    b->names[b->n_rec] = name;
    b->rec_start[b->n_rec] = b->len;
    b->base[b->n_rec] = base;
    b->n_rec++;
    b->rec_start[b->n_rec] = b->len;
    return 0;
}

/* The same with the name copied. */
static int batch_record(wm_seqbatch_t *b, const char *name, uint64_t base) {
    char *copy = strdup(name);
    return copy ? batch_record_own(b, copy, base) : -1;
}

/* The record being read is done. */
static void end_record(wm_seqsrc_t *s) {
    s->in_rec = 0;
    free(s->name);
    s->name = NULL;
}

/* A record starts: its name is taken (owned from here on). */
static int start_record(wm_seqsrc_t *s, wm_seqbatch_t *b, char *name) {
    end_record(s);
    s->name = name;
    s->in_rec = 1;
    s->index = s->n_records++;
    s->rec_len = 0;
    return batch_record(b, name, 0);
}

/* A record that starts and ends in b: the batch takes its name, no copy
** kept (a million reads' names had cost a copy and a free each on the
** reading thread). */
static int whole_record(wm_seqsrc_t *s, wm_seqbatch_t *b, char *name) {
    end_record(s);
    s->index = s->n_records++;
    s->rec_len = 0;
    return batch_record_own(b, name, 0);
}

static void added(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t before) {
    s->rec_len += b->len - before;
    b->rec_start[b->n_rec] = b->len;
}

/* How many new records a batch of `want` bytes may start: names cost
** memory too, so a batch of empty records ends as one of bytes does. */
static size_t new_records_cap(uint64_t want) { return want / 16 + 1; }

/* A run of n input bytes at buf[pos] (fewer only at the input's end) for
** the threads' parsers: the buffer grown, and read into. */
static wm_status buffer_run(wm_seqsrc_t *s, uint64_t n, char *err, size_t errlen) {
    if (s->len - s->pos >= n || s->eof) return WM_OK;
    if (grow_bytes(&s->buf, &s->cap, (size_t)n) != 0)
        return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
    while (s->len - s->pos < n && !s->eof) {
        wm_status rc = read_more(s, NULL, err, errlen);
        if (rc != WM_OK) return rc;
    }
    return WM_OK;
}

/* FASTA at a line start, parsed on all threads: whole lines, as many as
** the batch has room for (room), read in and handed to fasta_par. Returns
** 1 when it parsed some (*n_new: the records it started), 0 when the serial
** parser is to go on (less than par_min of room or input, a line longer
** than that, anything fasta_par leaves to the serial rules, more records
** than the batch may start), or -1 with *rc set (an error reading). */
static int fill_fasta_par(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t room, size_t max_new,
                          size_t *n_new, wm_status *rc, char *err, size_t errlen) {
    if (room > s->par_max && room - s->par_max >= s->par_min) room = s->par_max;
    if (room < s->par_min || s->buf_off + s->pos < s->par_skip) return 0;
    if ((*rc = buffer_run(s, room, err, errlen)) != WM_OK) return -1;
    const uint8_t *in = s->buf + s->pos;
    size_t n = s->len - s->pos;
    if (n > room) n = (size_t)room;
    if (n < s->len - s->pos || !s->eof) { /* whole lines: up to the last '\n' */
        const uint8_t *nl = memrchr(in, '\n', n);
        n = nl ? (size_t)(nl - in) + 1 : n;
        if (!nl || n < s->par_min) { /* long lines: the serial parser takes these bytes */
            s->par_skip = s->buf_off + s->pos + n;
            return 0;
        }
    }
    if (n < s->par_min) return 0; /* the input's last bytes */
    wm_recs_t r;
    memset(&r, 0, sizeof r);
    uint64_t olen = 0, lines = 0, block = s->par_block;
    if (block == 0 && (block = n / (4 * (uint64_t)s->par_threads)) < ((uint64_t)64 << 10))
        block = (uint64_t)64 << 10;
    if (wm_fasta_parse_par_part(in, n, s->par_threads, block, s->in_rec, b->seq + b->len, &olen, &r,
                                &lines) != 0 ||
        r.n > max_new - *n_new) {
        recs_free(&r);
        s->par_skip = s->buf_off + s->pos + n;
        return 0;
    }
    /* The records, as the serial parser would have started them. */
    uint64_t base = b->len, first = r.n > 0 ? r.starts[0] : olen;
    b->len = base + first;
    if (first > 0) added(s, b, base); /* the open record goes on */
    for (size_t i = 0; i < r.n; i++) {
        char *name = r.names[i];
        r.names[i] = NULL;
        b->len = base + r.starts[i];
        if (start_record(s, b, name) != 0) {
            recs_free(&r);
            *rc = fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
            return -1;
        }
        uint64_t before = b->len;
        b->len = base + (i + 1 < r.n ? r.starts[i + 1] : olen);
        added(s, b, before);
    }
    b->len = base + olen;
    *n_new += r.n;
    recs_free(&r);
    s->state = s->in_rec ? ST_HEAD : ST_PRE;
    s->line += lines;
    s->pos += n;
    return 1;
}

/* FASTA: parse into b until it holds `want` new bytes, its records their
** share, or the input ends. */
static wm_status fill_fasta(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t stop, size_t max_new,
                            char *err, size_t errlen) {
    size_t n_new = 0;
    while (b->len < stop) {
        if (s->par_threads > 1 && !s->live && s->state != ST_SEQ && n_new < max_new) {
            wm_status rc = WM_OK;
            int k = fill_fasta_par(s, b, stop - b->len, max_new, &n_new, &rc, err, errlen);
            if (k < 0) return rc;
            if (k > 0) continue;
        }
        if (s->pos == s->len) {
            if (s->eof) {
                s->state = ST_DONE;
                return WM_OK;
            }
            int paused = 0;
            wm_status rc = read_more(s, &paused, err, errlen);
            if (rc != WM_OK || paused) return rc;
            continue;
        }
        const uint8_t *p = s->buf + s->pos, *end = s->buf + s->len;
        if (s->state == ST_SEQ) {
            /* A run of the line, no more than the batch has room for. */
            size_t avail = (size_t)(end - p), room = (size_t)(stop - b->len);
            size_t n = avail < room ? avail : room;
            const uint8_t *nl = memchr(p, '\n', n);
            if (nl) n = (size_t)(nl - p);
            uint64_t before = b->len;
            uint8_t bad = 0;
            if (append_seq(b->seq, &b->len, p, n, &bad) != 0)
                return fail(err, errlen, WM_FORMAT, s->dpath,
                            "line %" PRIu64 ": binary byte 0x%02X in sequence", s->line + 1,
                            (unsigned)bad);
            added(s, b, before);
            s->pos += n;
            if (nl) {
                s->pos++;
                s->line++;
                s->state = ST_HEAD;
            }
            continue;
        }
        if (s->state == ST_HEAD && *p != '>') {
            s->state = ST_SEQ; /* a sequence line (an empty one too) */
            continue;
        }
        /* A whole line: a header, or a line before the first header. */
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !s->eof) {
            int paused = 0;
            wm_status rc = read_more(s, &paused, err, errlen);
            if (rc != WM_OK || paused) return rc;
            continue;
        }
        if (*p == '>' && n_new >= max_new) return WM_OK; /* the next batch starts with it */
        wm_lines_t L = { p, end, s->line, NULL };
        const uint8_t *ln = p;
        size_t len = 0;
        next_line(&L, &ln, &len);
        if (ln[0] == '>') {
            size_t nlen = name_len(ln + 1, len - 1);
            if (nlen == 0)
                return fail(err, errlen, WM_FORMAT, s->dpath,
                            "line %" PRIu64 ": FASTA header with no name", L.line);
            int ctl = name_control(ln + 1, nlen);
            if (ctl >= 0)
                return fail(err, errlen, WM_FORMAT, s->dpath,
                            "line %" PRIu64 ": " WM_NAME_CONTROL_FMT, L.line, (unsigned)ctl);
            char *name = malloc(nlen + 1);
            if (!name) return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
            memcpy(name, ln + 1, nlen);
            name[nlen] = '\0';
            if (start_record(s, b, name) != 0) /* the name is the source's now */
                return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
            n_new++;
            s->state = ST_HEAD;
        } else if (!all_blank(ln, len)) { /* ST_PRE */
            return fail(err, errlen, WM_FORMAT, s->dpath,
                        "line %" PRIu64 ": sequence data before the first '>' header", L.line);
        }
        s->line = L.line;
        s->pos = (size_t)(L.p - s->buf);
    }
    return WM_OK;
}

/* FASTQ between records, parsed on all threads: whole records, as many as
** the batch has room for (input of at most twice the room holds no more
** sequence than that: a record's quality is as long as its sequence), read
** in and handed to fastq_par. Returns 1 when it took some (*n_new: the
** records it started), 0 when the serial parser is to go on (less than
** par_min of room or input, what fastq_par leaves to the serial rules), or
** -1 with *rc set (an error reading, out of memory). */
static int fill_fastq_par(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t room, size_t max_new,
                          size_t *n_new, wm_status *rc, char *err, size_t errlen) {
    uint64_t want = room > s->par_max / 2 ? s->par_max : 2 * room;
    if (want < s->par_min || s->buf_off + s->pos < s->par_skip) return 0;
    if ((*rc = buffer_run(s, want, err, errlen)) != WM_OK) return -1;
    uint64_t n = s->len - s->pos;
    int eof = s->eof;
    if (n > want) {
        n = want;
        eof = 0;
    }
    if (n < s->par_min) return 0; /* the input's last bytes */
    if (!par_pool(s)) return 0;
    uint64_t block = s->par_block;
    if (block == 0 && (block = n / (4 * (uint64_t)s->par_threads)) < ((uint64_t)64 << 10))
        block = (uint64_t)64 << 10;
    wm_recs_t r;
    wm_fastq_run_t run;
    if (wm_fastq_parse_par(s->buf + s->pos, n, eof, s->pool, block, max_new - *n_new,
                           b->seq + b->len, &r, &run) != 0) {
        /* its first record is the serial parser's: once past it, try again */
        s->par_skip = s->buf_off + s->pos + 1;
        return 0;
    }
    /* The records, as the serial parser starts them: each whole, the last
    ** one left open, to be ended by the next fill (fill's end_record). */
    uint64_t base = b->len;
    for (size_t i = 0; i < r.n; i++) {
        char *name = r.names[i];
        r.names[i] = NULL;
        b->len = base + r.starts[i];
        if ((i + 1 < r.n ? whole_record(s, b, name) : start_record(s, b, name)) != 0) {
            recs_free(&r);
            *rc = fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
            return -1;
        }
        uint64_t before = b->len;
        b->len = base + r.starts[i + 1];
        added(s, b, before);
    }
    b->len = base + run.seq;
    *n_new += r.n;
    recs_free(&r);
    s->fq_len = s->fq_done = 0;
    s->line += run.lines;
    s->pos += (size_t)run.used;
    return 1;
}

/* FASTQ: whole records parsed, copied into b (the last one cut where b is full). */
static wm_status fill_fastq(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t stop, size_t max_new,
                            char *err, size_t errlen) {
    size_t n_new = 0;
    while (b->len < stop) {
        if (s->par_threads > 1 && !s->live && s->fq_done == s->fq_len && n_new < max_new &&
            s->state != ST_DONE) {
            wm_status rc = WM_OK;
            int k = fill_fastq_par(s, b, stop - b->len, max_new, &n_new, &rc, err, errlen);
            if (k < 0) return rc;
            if (k > 0) continue;
        }
        if (s->fq_done < s->fq_len) { /* the record parsed last, or its rest */
            uint64_t n = s->fq_len - s->fq_done, room = stop - b->len, before = b->len;
            if (n > room) n = room;
            memcpy(b->seq + b->len, s->fq + s->fq_done, (size_t)n);
            b->len += n;
            added(s, b, before);
            s->fq_done += (size_t)n;
            continue;
        }
        if (s->in_rec) end_record(s); /* all of it is in batches */
        if (s->state == ST_DONE || n_new >= max_new) return WM_OK;
        if (grow_bytes(&s->fq, &s->fq_cap, s->len - s->pos + 1) != 0)
            return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
        int hit_end = 0;
        wm_lines_t L = { s->buf + s->pos, s->buf + s->len, 0, &hit_end };
        wm_parse_err_t e;
        uint64_t olen = 0;
        for (size_t i = 0; i < s->recs.n; i++) free(s->recs.names[i]);
        s->recs.n = 0;
        int k = fastq_record(&L, s->fq, &olen, &s->recs, &e);
        if (hit_end && !s->eof) { /* it may go on: read more, parse it again */
            int paused = 0;
            wm_status rc = read_more(s, &paused, err, errlen);
            if (rc != WM_OK || paused) return rc;
            continue;
        }
        if (k == 0) {
            s->state = ST_DONE;
            return WM_OK;
        }
        if (k == -2) return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
        if (k == -1)
            return fail(err, errlen, WM_FORMAT, s->dpath, "line %" PRIu64 ": %s", s->line + e.line,
                        e.rest);
        char *name = s->recs.names[0];
        s->recs.n = 0; /* the name is the record's now */
        if (start_record(s, b, name) != 0)
            return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
        n_new++;
        s->fq_len = (size_t)olen;
        s->fq_done = 0;
        s->line += L.line;
        s->pos = (size_t)(L.p - s->buf);
    }
    return WM_OK;
}

/* Plain: the bytes as they are, one record ".". */
static wm_status fill_plain(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t stop, char *err,
                            size_t errlen) {
    if (s->state == ST_PRE) {
        char *name = strdup(".");
        if (!name || start_record(s, b, name) != 0)
            return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
        s->state = ST_SEQ;
    }
    uint64_t before = b->len;
    if (s->pos < s->len) { /* what finding the format read */
        size_t n = s->len - s->pos;
        if (n > stop - b->len) n = (size_t)(stop - b->len);
        memcpy(b->seq + b->len, s->buf + s->pos, n);
        b->len += n;
        s->pos += n;
    }
    while (b->len < stop && s->pos == s->len && !s->eof) {
        size_t want = ask(s, (size_t)(stop - b->len));
        if (want == 0) break; /* paused */
        int64_t got = read_input(s, b->seq + b->len, want);
        if (got < 0) return zfail(s, err, errlen);
        b->len += (uint64_t)got;
        if ((size_t)got < want) s->eof = 1;
    }
    if (s->eof && s->pos == s->len) s->state = ST_DONE;
    added(s, b, before);
    return WM_OK;
}

/* Up to want new bytes onto b, then what the next batch carries. */
static wm_status fill(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t want, int may_pause, char *err,
                      size_t errlen) {
    if (batch_room(b, want) != 0)
        return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
    s->cur = b;
    s->cur_len = b->len;
    s->cur_rec = b->n_rec;
    s->may_pause = may_pause;
    uint64_t stop = b->len + want;
    size_t max_new = new_records_cap(want);
    wm_status rc = s->state == ST_DONE      ? WM_OK
                   : s->fmt == WM_FMT_FASTA ? fill_fasta(s, b, stop, max_new, err, errlen)
                   : s->fmt == WM_FMT_FASTQ ? fill_fastq(s, b, stop, max_new, err, errlen)
                                            : fill_plain(s, b, stop, err, errlen);
    if (rc != WM_OK) return rc;
    if (s->fmt == WM_FMT_FASTQ && s->in_rec && s->fq_done == s->fq_len) end_record(s);
    if (s->state == ST_DONE && s->in_rec && (s->fmt != WM_FMT_FASTQ || s->fq_done == s->fq_len))
        end_record(s);
    b->last = s->state == ST_DONE && !s->in_rec;
    /* The open record's last halo bytes (its bytes in b end b). */
    s->n_tail = 0;
    if (s->in_rec && b->n_rec > 0) {
        uint64_t have = b->len - b->rec_start[b->n_rec - 1];
        s->n_tail = have < s->halo ? have : s->halo;
        if (s->n_tail > 0) memcpy(s->tail, b->seq + b->len - s->n_tail, (size_t)s->n_tail);
    }
    return WM_OK;
}

static void batch_clear(wm_seqbatch_t *b) {
    for (size_t i = 0; i < b->n_rec; i++) free(b->names[i]);
    b->n_rec = 0;
    b->len = 0;
    b->own_from = 0;
    b->continues = 0;
    b->last = 0;
    if (b->rec_start) b->rec_start[0] = 0;
}

wm_status wm_seqsrc_next(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t want, char *err,
                         size_t errlen) {
    if (err && errlen) err[0] = '\0';
    batch_clear(b);
    if (want == 0) want = 1;
    if (batch_room(b, s->n_tail + want) != 0)
        return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
    b->first_record = s->in_rec ? s->index : s->n_records;
    if (s->in_rec) { /* the open record goes on: its tail first */
        if (batch_record(b, s->name, s->rec_len - s->n_tail) != 0)
            return fail(err, errlen, WM_NOMEM, s->dpath, "%s", wm_strerror(WM_NOMEM));
        if (s->n_tail > 0) memcpy(b->seq, s->tail, (size_t)s->n_tail);
        b->len = s->n_tail;
        b->rec_start[1] = b->len;
        b->own_from = s->n_tail;
        b->continues = 1;
    }
    return fill(s, b, want, 1, err, errlen);
}

wm_status wm_seqsrc_more(wm_seqsrc_t *s, wm_seqbatch_t *b, uint64_t want, char *err,
                         size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (b->last) return WM_OK;
    return fill(s, b, want ? want : 1, 0, err, errlen);
}

void wm_seqsrc_set_threads(wm_seqsrc_t *s, int threads) {
    long t = threads > 0 ? threads : sysconf(_SC_NPROCESSORS_ONLN);
    s->par_threads = t > 1024 ? 1024 : t > 1 ? (int)t : 1;
    s->par_min = PAR_MIN;
    s->par_max = PAR_RUN_MAX;
}

void wm_seqsrc_set_par_sizes(wm_seqsrc_t *s, uint64_t min_run, uint64_t block, uint64_t max_run) {
    s->par_min = min_run > 0 ? min_run : 1;
    s->par_block = block;
    s->par_max = max_run >= s->par_min ? max_run : s->par_min;
}

void wm_seqsrc_abort(wm_seqsrc_t *s) {
    if (s) atomic_store(&s->abort_wait, 1);
}

void wm_seqbatch_free(wm_seqbatch_t *b) {
    if (!b) return;
    batch_clear(b);
    free(b->seq);
    free(b->rec_start);
    free(b->base);
    free(b->names);
    memset(b, 0, sizeof *b);
}

void wm_seqsrc_close(wm_seqsrc_t *s) {
    if (!s) return;
    wm_pool_free(s->pool);
    if (s->z_open) wm_zsrc_close(&s->z);
    free(s->dpath);
    free(s->buf);
    free(s->name);
    free(s->tail);
    free(s->fq);
    recs_free(&s->recs);
    free(s);
}
