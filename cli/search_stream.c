/*
** search_stream.c -- one input of `warpmatch search` in batches, so that
** memory does not grow with the input: standard input, pipes, compressed
** files and FASTQ always (they would otherwise be read whole into memory),
** any file with --stream.
**
** A reader thread parses the input into batches (io/seqbatch.h: about
** --stream-batch sequence bytes each, a record cut at a batch's end carried
** on with its halo) in a ring of two; the calling thread searches each
** batch from its own_from on (the matches ending in the carried halo were
** the batch before's), prints its rows and hands the slot back. The rows
** are those of the whole file, in its order: a match depends only on the
** halo bytes before its end, and the batches come in input order. So the
** output of a batch goes out once the batch is searched, a reader and a
** searcher work at once, and memory is two batches, their records' names
** and the decompressor's window. (A third slot let the reader, the slower
** side, get one more batch ahead: the same time, 33 MB more; 710 MB of FASTA
** with --stream, gzip and a pipe on 2 cores, BENCHMARKS.md 18.)
**
** What needs a whole file is not streamed: -w (the bytes after a match),
** -n (line numbers of FASTA), --line (the whole line), --best-per-locus
** (loci across batches), --format sam (every record in the header), -r's
** binary test (a NUL anywhere), and MPI's byte ranges. An input that fails
** to parse after some batches has had those batches' rows printed (as grep
** prints the lines before a corrupt block), then the message, exit 2.
*/
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "warpmatch.h"
#include "core/internal.h"
#include "io/seqbatch.h"
#include "cli.h"
#include "search.h"

#define SLOTS 2

/* The ring between the reader thread and the searcher. */
typedef struct {
    wm_seqsrc_t *src;
    wm_seqbatch_t b[SLOTS];
    int ready[SLOTS];      /* 1: filled (or failed) and not yet searched */
    wm_status st[SLOTS];   /* how filling it went */
    char err[SLOTS][1024]; /* the message when it failed */
    uint64_t want;         /* new bytes a batch */
    int sniff;             /* --alphabet auto: the first batch holds what the sniff reads */
    int stop;              /* the searcher wants no more */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} ring_t;

/* The first batch grows until the sniff of --alphabet auto has seen all it
** looks at (sniff.h), as it would in the whole file. */
static int sniff_wants_more(const wm_seqbatch_t *b) {
    wm_sniff_t sn;
    memset(&sn, 0, sizeof sn);
    wm_sniff_add(&sn, b->seq, b->len);
    return sn.seen < WM_SNIFF_BYTES;
}

static void *reader_main(void *arg) {
    ring_t *g = arg;
    for (uint64_t i = 0;; ++i) {
        int k = (int)(i % SLOTS);
        pthread_mutex_lock(&g->mu);
        while (g->ready[k] && !g->stop) pthread_cond_wait(&g->cv, &g->mu);
        int stop = g->stop;
        pthread_mutex_unlock(&g->mu);
        if (stop) break;
        wm_seqbatch_t *b = &g->b[k];
        wm_status st = wm_seqsrc_next(g->src, b, g->want, g->err[k], sizeof g->err[k]);
        while (st == WM_OK && i == 0 && g->sniff && !b->last && sniff_wants_more(b))
            st = wm_seqsrc_more(g->src, b, g->want, g->err[k], sizeof g->err[k]);
        pthread_mutex_lock(&g->mu);
        g->st[k] = st;
        g->ready[k] = 1;
        pthread_cond_broadcast(&g->cv);
        pthread_mutex_unlock(&g->mu);
        if (st != WM_OK || b->last) break;
    }
    return NULL;
}

/* Slot k once the reader has filled it. */
static wm_seqbatch_t *take(ring_t *g, int k) {
    pthread_mutex_lock(&g->mu);
    while (!g->ready[k]) pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
    return &g->b[k];
}

static void give_back(ring_t *g, int k) {
    pthread_mutex_lock(&g->mu);
    g->ready[k] = 0;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* ---- a batch's matches -------------------------------------------------------- */

typedef struct {
    wm_cli_search_sink_t s;
    const wm_seqbatch_t *b;
} bsink_t;

/* Matches in the coordinates of their whole record (the sink keeps the
** batch's record index: names, counts and bytes are the batch's). */
static int on_matches_batch(const wm_match_t *m, size_t n, void *user) {
    bsink_t *d = user;
    return wm_cli_search_on_matches_at(&d->s, d->b->base, m, n);
}

/* --by-record: a record's count is printed once its last batch is searched. */
typedef struct {
    char *name; /* the open record's, NULL before the first */
    uint64_t count;
    uint64_t *per; /* the batch's counts */
    size_t cap;
} by_record_t;

static void by_record_flush(by_record_t *br, wm_cli_search_run_t *r, const char *path) {
    if (br->name == NULL) return;
    wm_out_count(r->out, path, br->name, br->count);
    free(br->name);
    br->name = NULL;
}

/* Add a batch's counts, printing the records that ended before its last. */
static int by_record_add(by_record_t *br, wm_cli_search_run_t *r, const char *path,
                         const wm_seqbatch_t *b) {
    for (size_t i = 0; i < b->n_rec; ++i) {
        if (i > 0 || !b->continues) {
            by_record_flush(br, r, path);
            if ((br->name = strdup(b->names[i])) == NULL) return -1;
            br->count = 0;
        }
        br->count += br->per[i];
    }
    return 0;
}

/* ---- the input ---------------------------------------------------------------- */

const char *wm_cli_search_stream_blocker(const wm_cli_search_run_t *r) {
    const wm_cli_search_args_t *a = r->a;
    return r->dist                       ? "mpirun and --output-per-rank"
           : a->word                     ? "-w/--word-regexp"
           : a->line_no                  ? "-n/--line-number"
           : a->whole_line               ? "--line"
           : a->sh.format == WM_OUT_SAM  ? "--format sam"
           : a->best_locus               ? "--best-per-locus"
           : r->walked && !a->binary_too ? "-r (without -a)"
                                         : NULL;
}

/* The searches of one batch, in the mode the options ask. */
static wm_status search_batch(wm_cli_search_run_t *r, const wm_db_t *db, bsink_t *d,
                              const wm_seqbatch_t *b, uint64_t *per_pattern, by_record_t *br) {
    const wm_text_t *t = &d->s.sf->text;
    wm_cli_search_mode_t mode = wm_cli_search_mode(r->a);
    wm_status st;
    if (mode == WM_CLI_SEARCH_PER_PATTERN) {
        size_t np = wm_db_pattern_count(db);
        uint64_t n = 0; /* the engines count the total beside the patterns' */
        st = wm_scan_owned(r->cx, db, t, b->own_from, NULL, NULL, &n, per_pattern);
        for (size_t i = 0; st == WM_OK && i < np; ++i) r->per_pattern[i] += per_pattern[i];
        return st;
    }
    if (mode == WM_CLI_SEARCH_COUNT) {
        uint64_t n = 0;
        st = wm_scan_owned(r->cx, db, t, b->own_from, NULL, NULL, &n, NULL);
        d->s.n += n;
        return st;
    }
    if (br != NULL) {
        if (br->cap < b->n_rec) {
            uint64_t *p = realloc(br->per, b->n_rec * sizeof *p);
            if (p == NULL) return WM_NOMEM;
            br->per = p;
            br->cap = b->n_rec;
        }
        memset(br->per, 0, b->n_rec * sizeof *br->per);
        d->s.per_record = br->per;
    }
    st = wm_scan_owned_batches(r->cx, db, t, b->own_from, on_matches_batch, d);
    if (br != NULL && (st == WM_OK || st == WM_STOPPED) && by_record_add(br, r, d->s.source, b) < 0)
        st = WM_NOMEM;
    return st;
}

/* A file past this is streamed even where it could be mapped: parsed
** whole, its sequence would take memory it may not have. */
static uint64_t whole_file_limit(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 4 : UINT64_MAX;
}

/* Whether an input opened as src is read in batches: --stream, standard
** input, a pipe, a compressed file, FASTQ, or a file over the limit. */
static int streams(const wm_cli_search_args_t *a, const wm_seqsrc_t *src, const char *path) {
    struct stat sb;
    return a->stream > 0 || strcmp(path, "-") == 0 || !wm_seqsrc_regular(src) ||
           wm_seqsrc_compressed(src) || wm_seqsrc_format(src) == WM_FMT_FASTQ ||
           stat(path, &sb) != 0 || (uint64_t)sb.st_size > whole_file_limit();
}

int wm_cli_search_would_stream(const wm_cli_search_run_t *r, const char *path) {
    if (r->a->stream < 0 || wm_cli_search_stream_blocker(r) != NULL) return 0;
    struct stat sb;
    if (strcmp(path, "-") == 0 || r->a->stream > 0) return 1;
    if (stat(path, &sb) != 0) return 0; /* the read says what is wrong */
    if (!S_ISREG(sb.st_mode)) return 1; /* a pipe: read only by the search */
    wm_seqsrc_t *src;
    char err[256];
    if (wm_seqsrc_open(&src, path, 0, err, sizeof err) != WM_OK) return 0;
    int s = streams(r->a, src, path);
    wm_seqsrc_close(src);
    return s;
}

int wm_cli_search_stream(wm_cli_search_run_t *r, const char *path) {
    wm_cli_search_args_t *a = r->a;
    if (a->stream < 0 || wm_cli_search_stream_blocker(r) != NULL) return 0;
    int is_stdin = strcmp(path, "-") == 0;
    uint64_t halo = wm_cli_search_halo(a);
    ring_t g;
    memset(&g, 0, sizeof g);
    char err[1024];
    wm_status st = wm_seqsrc_open(&g.src, path, halo, err, sizeof err);
    if (st != WM_OK) {
        if (!is_stdin && !a->stream) return 0; /* the whole-file reader says why */
        wm_progress_clear(&r->pg);
        wm_cli_error("%s", err);
        r->any_error = 1;
        return 1;
    }
    if (!streams(a, g.src, path)) {
        wm_seqsrc_close(g.src); /* mapped, and parsed by all threads: faster */
        return 0;
    }
    /* FASTA and FASTQ parsed by the -j threads beside the search's, where
    ** that pays: 2.13 GB of FASTA with --stream on 16 cores 1.27 -> 0.88 s,
    ** on 2 cores 1.75 -> 2.1 s (BENCHMARKS.md 18). */
    long threads = a->sh.co.threads > 0 ? a->sh.co.threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (threads >= 4) wm_seqsrc_set_threads(g.src, (int)(threads > 1024 ? 1024 : threads));
    g.want = a->stream_batch;
    g.sniff = a->sh.alphabet == WM_ALPHA_AUTO;
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    pthread_t th;
    int started = pthread_create(&th, NULL, reader_main, &g) == 0;
    if (!started) { /* the slots' status: the searcher reads it as the first batch's */
        g.st[0] = WM_NOMEM;
        snprintf(g.err[0], sizeof g.err[0], "%s: cannot start a reader thread",
                 is_stdin ? "(standard input)" : path);
        g.ready[0] = 1;
    }

    wm_seqfile_t view; /* the batch as the printers see a file */
    memset(&view, 0, sizeof view);
    view.format = wm_seqsrc_format(g.src);
    bsink_t d;
    by_record_t br;
    memset(&br, 0, sizeof br);
    uint64_t *per_pattern = NULL, done = 0;
    const wm_db_t *db = NULL;
    wm_cli_search_mode_t mode = wm_cli_search_mode(a);
    int dna = 0, opened = 0;
    st = WM_OK;
    for (uint64_t i = 0;; ++i) {
        int k = (int)(i % SLOTS);
        const wm_seqbatch_t *b = take(&g, k);
        if (g.st[k] != WM_OK) {
            wm_progress_clear(&r->pg);
            wm_cli_error("%s", g.err[k]);
            r->any_error = 1;
            break;
        }
        view.text.seq = b->seq;
        view.text.len = b->len;
        view.text.rec_start = b->rec_start;
        view.text.n_rec = b->n_rec;
        view.names = b->names;
        if (i == 0) { /* what the whole file's first bytes decide */
            wm_sniff_t sn;
            dna = wm_cli_search_is_dna(a, path, wm_cli_search_data_is_dna(a, &view.text, &sn), &sn);
            db = dna < 0 ? NULL : wm_cli_search_db(r, dna);
            if (db == NULL) {
                r->any_error = 1;
                break;
            }
            if (r->cx == NULL &&
                wm_cli_context_wait_warm(&r->bg, &r->cx, b->seq, (size_t)b->len) != WM_OK) {
                r->any_error = r->fatal = 1;
                break;
            }
            if (mode == WM_CLI_SEARCH_PER_PATTERN) { /* the file's sums, a batch's counts */
                size_t np = wm_db_pattern_count(db);
                if (r->per_pattern == NULL) r->per_pattern = malloc(np * sizeof *r->per_pattern);
                per_pattern = malloc(np * sizeof *per_pattern);
                if (r->per_pattern == NULL || per_pattern == NULL) {
                    st = WM_NOMEM;
                    break;
                }
                memset(r->per_pattern, 0, np * sizeof *r->per_pattern);
            }
            wm_cli_search_sink_init(r, &d.s, path, &view, dna);
            opened = 1;
            r->n_sources++;
            wm_progress_start_item(&r->pg);
            r->pg.open_ended = 1;
            if (a->sh.format == WM_OUT_JSON && !a->count && !a->quiet)
                wm_out_search_json_begin(r->out, path);
        }
        d.b = b;
        d.s.base = b->base;
        r->pg.offset = done; /* the library reports a batch's bytes */
        st = search_batch(r, db, &d, b, per_pattern,
                          !a->quiet && a->count && a->by_record ? &br : NULL);
        wm_cli_search_sink_drain(&d.s); /* its rows name the batch's records */
        done += b->len - b->own_from;
        r->n_bytes += b->len - b->own_from;
        int last = b->last;
        give_back(&g, k);
        if (st != WM_OK || last) break;
    }
    pthread_mutex_lock(&g.mu);
    g.stop = 1;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    wm_seqsrc_abort(g.src); /* a reader waiting on a quiet pipe (-q found its match) */
    if (started) pthread_join(th, NULL);

    if (st == WM_STOPPED) st = WM_OK; /* -q found its match, -m its rows, or a write failed */
    if (opened) {
        if (mode == WM_CLI_SEARCH_PER_PATTERN && st == WM_OK)
            d.s.n =
                wm_cli_search_print_per_pattern(r, path, r->per_pattern, wm_db_pattern_count(db));
        else if (mode == WM_CLI_SEARCH_COUNT && st == WM_OK)
            wm_out_count(r->out, path, NULL, d.s.n);
        else if (mode == WM_CLI_SEARCH_LIST) {
            if (wm_cli_search_sink_end(&d.s) < 0) r->any_error = 1;
            wm_cli_search_listed(r, &d.s, path, st);
            if (st == WM_OK) by_record_flush(&br, r, path);
        }
        wm_cli_search_file_done(r, &d.s, path, st);
    } else if (st != WM_OK) {
        wm_progress_clear(&r->pg);
        wm_cli_error("%s: %s", path, wm_strerror(st));
        r->any_error = 1;
    }
    free(br.name);
    free(br.per);
    free(per_pattern);
    r->pg.offset = 0;
    r->pg.open_ended = 0;
    for (int k = 0; k < SLOTS; ++k) wm_seqbatch_free(&g.b[k]);
    wm_seqsrc_close(g.src);
    pthread_mutex_destroy(&g.mu);
    pthread_cond_destroy(&g.cv);
    return 1;
}
