/*
** seqfile.c -- the input layer: a path ("-" = stdin) becomes records in memory.
**
** Three steps, each a section below:
**   1. raw bytes:  regular files are mapped read-only (zero copy); stdin, pipes
**                  and files mmap refuses are read into a heap buffer;
**   2. compressed: input that starts with a gzip, xz, bzip2 or zstd magic is
**                  decompressed (zsrc.h) into a heap buffer (all members);
**                  another compressed format's magic is an error;
**   3. records:    FASTA / FASTQ (detected by the first non-blank byte) are
**                  parsed line by line with memchr; sequence lines are checked
**                  for binary bytes a word at a time and copied whole. A large
**                  mapped FASTA is parsed by several threads (fasta_par.c)
**                  when the options ask for them; this serial parser stays
**                  the reference, and decides whatever that one cannot.
** A heap input is parsed in place (output never overtakes input); a mapped
** input is parsed into a new buffer and then unmapped.
** All sizes and offsets are 64-bit so inputs over 4 GiB work.
*/
#include "io/seqfile.h"
#include "io/fasta_par.h"
#include "io/seqparse.h"
#include "io/zsrc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WM_STDIN_NAME "(standard input)"
/* Decompressed bytes asked for at a time. */
#define WM_ZCHUNK ((uint64_t)1 << 30)

/* ------------------------------------------------------------------------ */
/* messages                                                                   */
/* ------------------------------------------------------------------------ */

static wm_status nomem(const char *dpath, char *err, size_t errlen) {
    set_err(err, errlen, "%s: out of memory", dpath);
    return WM_NOMEM;
}

/* Large buffers are written once, front to back, right after allocation:
** with 4 KiB pages, faulting them in costs about as much as the parsing.
** Aligning to 2 MiB and asking for transparent huge pages cuts the faults
** 512-fold where THP is in "madvise" mode. The result is an ordinary
** malloc block (free/realloc work on it). */
#define WM_HUGE ((size_t)2 << 20)

static void *big_alloc(uint64_t n) {
    void *p = NULL;
    if (n > (uint64_t)SIZE_MAX) return NULL;
    if (n < 2 * WM_HUGE) return malloc((size_t)n);
    if (posix_memalign(&p, WM_HUGE, (size_t)n) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, (size_t)n & ~(WM_HUGE - 1), MADV_HUGEPAGE);
#endif
    return p;
}

/* ------------------------------------------------------------------------ */
/* 1. raw bytes                                                               */
/* ------------------------------------------------------------------------ */

/* Where the bytes of one stage live: a read-only mapping or a heap buffer
** (writable, cap bytes allocated). Exactly one of map / heap is non-NULL,
** except for an empty input, which is an empty heap buffer of 1 byte. */
typedef struct {
    void *map;
    size_t map_len;
    uint8_t *heap;
    uint64_t cap;
    const uint8_t *data;
    uint64_t len;
} wm_buf_t;

static void buf_free(wm_buf_t *b) {
    if (b->map) munmap(b->map, b->map_len);
    free(b->heap);
    memset(b, 0, sizeof *b);
}

/* Read fd to its end into a heap buffer. size_hint (0 = unknown) sizes the
** first allocation so a regular file is read without reallocating. */
static wm_status read_all(int fd, uint64_t size_hint, wm_buf_t *b, const char *dpath, char *err,
                          size_t errlen) {
    uint64_t cap = size_hint ? size_hint + 1 : (uint64_t)1 << 20;
    uint64_t len = 0;
    uint8_t *buf = big_alloc(cap);
    if (!buf) return nomem(dpath, err, errlen);
    for (;;) {
        if (len == cap) {
            uint64_t ncap = cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                return nomem(dpath, err, errlen);
            }
            buf = nb;
            cap = ncap;
        }
        uint64_t want = cap - len;
        if (want > WM_ZCHUNK) want = WM_ZCHUNK;
        ssize_t got = read(fd, buf + len, (size_t)want);
        if (got < 0) {
            if (errno == EINTR) continue;
            set_err(err, errlen, "%s: %s", dpath, strerror(errno));
            free(buf);
            return WM_IO;
        }
        if (got == 0) break;
        len += (uint64_t)got;
    }
    b->heap = buf;
    b->cap = cap;
    b->data = buf;
    b->len = len;
    return WM_OK;
}

/* The raw bytes of `path`: mapped when it is a non-empty regular file that
** mmap accepts, read otherwise (stdin, pipes, /proc files whose size reads 0). */
static wm_status load_raw(const char *path, const char *dpath, wm_buf_t *b, char *err,
                          size_t errlen) {
    struct stat st;
    wm_status rc;
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        set_err(err, errlen, "%s: %s", dpath, strerror(errno));
        return WM_IO;
    }
    if (fstat(fd, &st) != 0) {
        set_err(err, errlen, "%s: %s", dpath, strerror(errno));
        rc = WM_IO;
        goto out;
    }
    if (S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "%s: %s", dpath, strerror(EISDIR));
        rc = WM_IO;
        goto out;
    }
    if (!is_stdin && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= (uint64_t)SIZE_MAX) {
        size_t n = (size_t)st.st_size;
        void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            /* Advice only; a failure changes nothing. */
            (void)madvise(m, n, MADV_SEQUENTIAL);
            b->map = m;
            b->map_len = n;
            b->data = m;
            b->len = n;
            rc = WM_OK;
            goto out;
        }
        /* Some file systems cannot map: fall back to reading. */
    }
    {
        /* stdin redirected from a file: size the buffer from what is left. */
        uint64_t hint = 0;
        if (S_ISREG(st.st_mode) && st.st_size > 0) {
            off_t pos = lseek(fd, 0, SEEK_CUR);
            if (pos >= 0 && pos < st.st_size) hint = (uint64_t)(st.st_size - pos);
        }
        rc = read_all(fd, hint, b, dpath, err, errlen);
    }
out:
    if (!is_stdin) close(fd);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* 2. compressed input (gzip, xz, bzip2, zstd: zsrc.h)                       */
/* ------------------------------------------------------------------------ */

/* First guess at the inflated size: the last member's ISIZE field (exact for
** a single member under 4 GiB), bounded by deflate's best ratio (~1032:1),
** else four times the input. Growth by doubling covers any miss. ISIZE is
** only the file's claim: it is believed up to 16 times the input, so that a
** lying trailer costs O(the input), not 1032 times it. */
static uint64_t inflate_size_hint(const uint8_t *in, uint64_t n) {
    uint64_t guess = n * 4, isize;
    if (n >= 18) {
        const uint8_t *t = in + n - 4;
        isize = (uint64_t)t[0] | (uint64_t)t[1] << 8 | (uint64_t)t[2] << 16 | (uint64_t)t[3] << 24;
        if (isize >= n / 2 && isize <= n * 1032 + 64) guess = isize < n * 16 ? isize : n * 16;
    }
    return guess + 4096; /* slack: the stream can end without a regrow */
}

/* Decompress every member of `in` (kind k: see zsrc.h) into a new heap
** buffer *out, grown by doubling from the size hint: memory follows what
** the data really holds, not what a header claims. */
static wm_status decompress_all(const uint8_t *in, uint64_t n_in, wm_zkind_t k, wm_buf_t *out,
                                const char *dpath, char *err, size_t errlen) {
    wm_zsrc_t z;
    uint64_t cap = k == WM_Z_GZIP ? inflate_size_hint(in, n_in) : n_in * 4 + 4096, out_len = 0;
    uint8_t *buf = big_alloc(cap);
    wm_status rc = WM_OK;

    if (!buf) return nomem(dpath, err, errlen);
    if (wm_zsrc_open_mem(&z, in, n_in, 0, "input") != 0) {
        free(buf);
        wm_zsrc_close(&z);
        return nomem(dpath, err, errlen);
    }
    for (;;) {
        if (out_len == cap) {
            uint64_t ncap = cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                rc = nomem(dpath, err, errlen);
                break;
            }
            buf = nb;
            cap = ncap;
        }
        uint64_t room = cap - out_len;
        if (room > WM_ZCHUNK) room = WM_ZCHUNK;
        int64_t got = wm_zsrc_read(&z, buf + out_len, (size_t)room);
        if (got < 0) {
            set_err(err, errlen, "%s: %s", dpath, z.msg);
            rc = z.err_nomem ? WM_NOMEM : z.err_io ? WM_IO : WM_FORMAT;
            break;
        }
        if (got == 0) break;
        out_len += (uint64_t)got;
    }
    wm_zsrc_close(&z);
    if (rc != WM_OK) {
        free(buf);
        return rc;
    }
    out->heap = buf;
    out->cap = cap;
    out->data = buf;
    out->len = out_len;
    return WM_OK;
}

/* ------------------------------------------------------------------------ */
/* 3. records                                                                 */
/* ------------------------------------------------------------------------ */

static wm_status parse_fasta(const uint8_t *in, uint64_t n, uint8_t *out, uint64_t *out_len,
                             wm_recs_t *r, const char *dpath, char *err, size_t errlen) {
    wm_lines_t L = { in, in + n, 0, NULL };
    wm_parse_err_t e;
    uint64_t olen = 0;
    int k;

    while ((k = fasta_record(&L, out, &olen, r, &e)) == 1)
        ;
    if (k == -2) return nomem(dpath, err, errlen);
    if (k == -1) {
        set_err(err, errlen, "%s: line %" PRIu64 ": %s", dpath, e.line, e.rest);
        return WM_FORMAT;
    }
    *out_len = olen;
    return WM_OK;
}

static wm_status parse_fastq(const uint8_t *in, uint64_t n, uint8_t *out, uint64_t *out_len,
                             wm_recs_t *r, const char *dpath, char *err, size_t errlen) {
    wm_lines_t L = { in, in + n, 0, NULL };
    wm_parse_err_t e;
    uint64_t olen = 0;
    int k;

    while ((k = fastq_record(&L, out, &olen, r, &e)) == 1)
        ;
    if (k == -2) return nomem(dpath, err, errlen);
    if (k == -1) {
        set_err(err, errlen, "%s: line %" PRIu64 ": %s", dpath, e.line, e.rest);
        return WM_FORMAT;
    }
    *out_len = olen;
    return WM_OK;
}

/* ------------------------------------------------------------------------ */
/* the public calls                                                           */
/* ------------------------------------------------------------------------ */

static wm_format_t detect_format(const uint8_t *p, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        if (is_blank(p[i])) continue;
        if (p[i] == '>') return WM_FMT_FASTA;
        if (p[i] == '@') return WM_FMT_FASTQ;
        return WM_FMT_PLAIN;
    }
    return WM_FMT_PLAIN;
}

/* Give back the unused tail of a heap buffer when it is worth a realloc. */
static uint8_t *shrink(uint8_t *buf, uint64_t cap, uint64_t len) {
    uint64_t want = len ? len : 1;
    if (cap - want < 65536 && cap - want <= cap / 16) return buf;
    uint8_t *nb = realloc(buf, want);
    return nb ? nb : buf;
}

wm_seqfile_opts_t wm_seqfile_opts_default(void) {
    wm_seqfile_opts_t o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.min_parallel = WM_SEQFILE_MIN_PARALLEL;
    return o;
}

/* The threads and block size for parsing n bytes, or 0 threads: serially. */
static int parse_threads(const wm_seqfile_opts_t *o, uint64_t n, uint64_t *block) {
    long t = o->threads;
    if (t == 0) t = sysconf(_SC_NPROCESSORS_ONLN);
    if (t > 1024) t = 1024;
    if (t < 2 || n == 0 || n < o->min_parallel) return 0;
    uint64_t b = o->block;
    if (b == 0) {
        b = (n + 4 * (uint64_t)t - 1) / (4 * (uint64_t)t);
        if (b < ((uint64_t)64 << 10)) b = (uint64_t)64 << 10;
    }
    *block = b;
    return (int)t;
}

wm_status wm_seqfile_read(const char *path, int force_plain, wm_seqfile_t *sf, char *err,
                          size_t errlen) {
    return wm_seqfile_read_opts(path, force_plain, NULL, sf, err, errlen);
}

wm_status wm_seqfile_read_opts(const char *path, int force_plain, const wm_seqfile_opts_t *o,
                               wm_seqfile_t *sf, char *err, size_t errlen) {
    wm_seqfile_opts_t defaults = wm_seqfile_opts_default();
    int used = 1; /* threads that parsed */
    wm_buf_t raw, b;
    wm_recs_t r;
    wm_status rc;
    const char *dpath;

    if (err && errlen) err[0] = '\0';
    if (!sf) return WM_INVALID;
    memset(sf, 0, sizeof *sf);
    if (!path) {
        set_err(err, errlen, "(null): no path given");
        return WM_INVALID;
    }
    dpath = strcmp(path, "-") == 0 ? WM_STDIN_NAME : path;
    if (!o) o = &defaults;
    memset(&raw, 0, sizeof raw);
    memset(&b, 0, sizeof b);
    memset(&r, 0, sizeof r);

    rc = load_raw(path, dpath, &raw, err, errlen);
    if (rc != WM_OK) return rc;
    sf->raw_bytes = raw.len;
    if (o->range_hi) { /* a range of a mapped FASTA or FASTQ file: parsed as the file */
        const char *zw;
        wm_format_t whole = raw.map ? detect_format(raw.data, raw.len) : WM_FMT_PLAIN;
        if (!raw.map || o->range_lo >= o->range_hi || o->range_hi > raw.len ||
            wm_zmagic(raw.data, raw.len < WM_ZMAGIC_LEN ? raw.len : WM_ZMAGIC_LEN, &zw) !=
                WM_Z_PLAIN ||
            (whole != WM_FMT_FASTA && whole != WM_FMT_FASTQ) ||
            detect_format(raw.data + o->range_lo, o->range_hi - o->range_lo) != whole) {
            set_err(err, errlen, "%s: bytes %llu to %llu are not a range of a FASTA or FASTQ file",
                    dpath, (unsigned long long)o->range_lo, (unsigned long long)o->range_hi);
            buf_free(&raw);
            return WM_INVALID;
        }
        raw.data += o->range_lo; /* the mapping stays whole, for munmap */
        raw.len = o->range_hi - o->range_lo;
    }

    const char *zwhat;
    wm_zkind_t zk = wm_zmagic(raw.data, raw.len < WM_ZMAGIC_LEN ? raw.len : WM_ZMAGIC_LEN, &zwhat);
    if (zk == WM_Z_UNKNOWN || zk == WM_Z_ZIP) {
        set_err(err, errlen,
                "%s: %s data: a format warpmatch does not read (it reads gzip, xz, bzip2 and "
                "zstd); decompress it first",
                dpath, zwhat);
        buf_free(&raw);
        return WM_FORMAT;
    }
    if (zk != WM_Z_PLAIN) {
        sf->gzipped = 1;
        rc = decompress_all(raw.data, raw.len, zk, &b, dpath, err, errlen);
        buf_free(&raw);
        if (rc != WM_OK) return rc;
    } else {
        b = raw;
    }

    /* An empty input is never mapped (mmap refuses length 0): it arrives as
    ** a heap buffer, so seq stays non-NULL and callers need no special case. */
    wm_format_t fmt = force_plain ? WM_FMT_PLAIN : detect_format(b.data, b.len);
    sf->format = fmt;

    if (fmt == WM_FMT_PLAIN) {
        if (recs_push(&r, 0, (const uint8_t *)".", 1) != 0) {
            buf_free(&b);
            return nomem(dpath, err, errlen);
        }
        r.starts[1] = b.len;
        sf->text.len = b.len;
        if (b.map) {
            sf->map_base = b.map;
            sf->map_len = b.map_len;
            sf->text.seq = b.data;
        } else {
            sf->owned = shrink(b.heap, b.cap, b.len);
            sf->text.seq = sf->owned;
        }
    } else {
        /* Sequences are never longer than the input: parse in place in a heap
        ** buffer, or into one allocation of the input's size for a mapping. */
        uint8_t *out;
        uint64_t cap, olen = 0;
        if (b.heap) {
            out = b.heap;
            cap = b.cap;
        } else {
            cap = b.len;
            out = big_alloc(cap);
            if (!out) {
                buf_free(&b);
                return nomem(dpath, err, errlen);
            }
        }
        /* In place, a block's output would overwrite input an earlier block
        ** has still to read: only a mapped input is parsed in parallel. */
        uint64_t block = 0;
        int t = fmt == WM_FMT_FASTA && !b.heap ? parse_threads(o, b.len, &block) : 0;
        if (t > 0 && wm_fasta_parse_par(b.data, b.len, t, block, out, &olen, &r) == 0) {
            used = t;
            rc = WM_OK;
        } else if (fmt == WM_FMT_FASTA) {
            rc = parse_fasta(b.data, b.len, out, &olen, &r, dpath, err, errlen);
        } else {
            rc = parse_fastq(b.data, b.len, out, &olen, &r, dpath, err, errlen);
        }
        if (b.heap) b.heap = NULL; /* now owned as `out` */
        buf_free(&b);
        if (rc != WM_OK) {
            free(out);
            recs_free(&r);
            return rc;
        }
        r.starts[r.n] = olen;
        sf->owned = shrink(out, cap, olen);
        sf->text.seq = sf->owned;
        sf->text.len = olen;
    }
    sf->owned_starts = r.starts;
    sf->text.rec_start = r.starts;
    sf->text.n_rec = r.n;
    sf->names = r.names;
    sf->parse_threads = used;
    return WM_OK;
}

void wm_seqfile_close(wm_seqfile_t *sf) {
    if (!sf) return;
    if (sf->map_base) munmap(sf->map_base, sf->map_len);
    free(sf->owned);
    free(sf->owned_starts);
    if (sf->names) {
        for (size_t i = 0; i < sf->text.n_rec; i++) free(sf->names[i]);
        free(sf->names);
    }
    memset(sf, 0, sizeof *sf);
}

const char *wm_format_name(wm_format_t f) {
    switch (f) {
    case WM_FMT_PLAIN: return "plain";
    case WM_FMT_FASTA: return "fasta";
    case WM_FMT_FASTQ: return "fastq";
    }
    return "unknown";
}
