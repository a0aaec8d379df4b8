/*
** dist_search.c -- one file of `warpmatch search` over the ranks of an MPI
** job (or one process writing --output-per-rank files).
**
** Every rank reads its own byte range of the file (src/io/seqrange.h) plus a
** halo of m + k bytes (the longest pattern, for a set) before it, searches
** that, and keeps the matches whose last byte it owns: a match depends only
** on the m + k bytes before its end, so each is found whole by exactly one
** rank. Ranks cover the file in order and each one's matches come out
** sorted, so rank 0 printing every rank's lines in rank order prints what
** one process would. Counts are summed; a record's count (--by-record) is
** summed over the ranks its bytes fall in, and printed by the rank holding
** its header. Standard input for -f is rank 0's alone: it shares the bytes.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "core/internal.h"
#include "io/seqrange.h"
#include "mpi/dist.h"
#include "cli.h"
#include "search.h"

typedef struct {
    wm_cli_search_sink_t s;
    const wm_range_t *R;
} dsink_t;

/* Keep owned matches, in the coordinates of their whole record (the record
** index stays local: names, counts). */
static int on_matches_dist(const wm_match_t *m, size_t n, void *user) {
    dsink_t *d = user;
    return wm_cli_search_on_matches_at(&d->s, d->R->base, m, n);
}

/* -n: where this rank's line count starts: the first byte it owns, on the
** line after the '\n' bytes every rank before it owns (a plain file is one
** record, split in byte ranges in rank order). Collective. */
static void line_start(wm_cli_search_sink_t *s, const wm_range_t *R) {
    uint64_t own_from = R->continues ? R->halo : 0, mine = 0;
    const uint8_t *p = R->text.seq + own_from, *end = R->text.seq + R->text.len, *nl;
    while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        ++mine;
        p = nl + 1;
    }
    uint64_t *all = malloc((size_t)wm_dist.size * sizeof *all);
    if (all == NULL) wm_dist_abort(WM_EXIT_ERROR);
    wm_dist_allgather(&mine, sizeof mine, all);
    s->lp.pos = own_from;
    s->lp.line = 1;
    for (int q = 0; q < wm_dist.rank; ++q) s->lp.line += all[q];
    free(all);
}

int wm_cli_search_dist_failed(wm_cli_search_run_t *r, int failed, const char *why,
                              int rank0_printed) {
    int bad = wm_cli_dist_failed(failed, why, rank0_printed);
    r->any_error |= bad;
    return bad;
}

static int dist_failed(wm_cli_search_run_t *r, int failed, const char *why) {
    return wm_cli_search_dist_failed(r, failed, why, 0);
}

int wm_cli_search_open_rank_file(wm_cli_search_run_t *r) {
    char name[4096];
    snprintf(name, sizeof name, "%s.%05d", r->a->per_rank, wm_dist.rank);
    r->rank_out = fopen(name, "w");
    int failed = r->rank_out == NULL;
    char why[4200];
    snprintf(why, sizeof why, "cannot write %s: %s", name, failed ? strerror(errno) : "");
    if (dist_failed(r, failed, why)) {
        if (r->rank_out != NULL) fclose(r->rank_out);
        r->rank_out = NULL;
        return -1;
    }
    return 0;
}

/* --by-record: the counts of this rank's records, each with what the ranks
** after it add to it when it runs on into them, one line per record whose
** header this rank holds. */
static void print_by_record_dist(wm_cli_search_run_t *r, const char *path, const wm_range_t *R,
                                 const uint64_t *per_record, FILE *out) {
    typedef struct {
        uint64_t cont_count, has_own;
    } note_t;
    size_t n = R->text.n_rec, first_own = R->continues ? 1 : 0;
    note_t mine = { R->continues && n > 0 ? per_record[0] : 0, n > first_own };
    note_t *all = malloc((size_t)wm_dist.size * sizeof *all);
    if (all == NULL) wm_dist_abort(WM_EXIT_ERROR);
    wm_dist_allgather(&mine, sizeof mine, all);
    uint64_t tail = 0;
    for (int q = wm_dist.rank + 1; q < wm_dist.size; ++q) {
        tail += all[q].cont_count;
        if (all[q].has_own) break;
    }
    free(all);
    for (size_t i = first_own; i < n; ++i)
        wm_out_count(out, path, R->names[i], per_record[i] + (i + 1 == n ? tail : 0));
    (void)r;
}

void wm_cli_search_file_dist(wm_cli_search_run_t *r, const char *path) {
    wm_cli_search_args_t *a = r->a;
    wm_range_t R;
    char err[1024] = "";
    uint64_t halo = wm_cli_search_halo(a);
    double t0 = wm_dist_now();
    /* One pattern on a GPU: its staging copies read a plain file's bytes
    ** with pread (core/textfile.c), so the rank's pages are not faulted in
    ** first (sets copy from memory, as in one process). */
    int unread =
        wm_cli_stage_by_pread() && !a->is_set && wm_context_backend(r->cx) == WM_BACKEND_CUDA;
    wm_status st = wm_range_read(&R, path, unread ? WM_RANGE_RECORDS_UNREAD : WM_RANGE_RECORDS,
                                 (uint64_t)wm_dist.rank, (uint64_t)wm_dist.size, halo,
                                 wm_dist_allgather_cb, NULL, err, sizeof err);
    if (dist_failed(r, st != WM_OK, err[0] ? err : wm_strerror(st))) {
        wm_range_close(&R);
        return;
    }
    /* Whole inputs (gzip, stdin) are known to rank 0 only: it says what they are. */
    int fmt = (int)R.format;
    if (R.whole && wm_dist.active) {
        int all_fmt[1024];
        int *fmts = wm_dist.size <= 1024 ? all_fmt : malloc((size_t)wm_dist.size * sizeof *fmts);
        if (fmts == NULL) wm_dist_abort(WM_EXIT_ERROR);
        wm_dist_allgather(&fmt, sizeof fmt, fmts);
        fmt = fmts[0];
        if (fmts != all_fmt) free(fmts);
    }
    /* the alphabet comes from the data: rank 0's first bytes decide for all */
    wm_sniff_t sn;
    int dna = wm_dist_bcast_int(wm_cli_search_data_is_dna(a, &R.text, &sn));
    dna = wm_cli_search_is_dna(a, path, dna, &sn);
    wm_db_t *db = dna < 0 ? NULL : wm_cli_search_db(r, dna); /* the same on every rank */
    double t1 = wm_dist_now();
    if (db == NULL) {
        r->any_error = 1;
        wm_range_close(&R);
        return;
    }

    /* This rank's output goes to memory, then to rank 0 in rank order, or
    ** to its own file. */
    wm_cli_lines_t lines = { NULL, NULL, 0, 0 };
    FILE *out = r->rank_out != NULL ? r->rank_out : wm_cli_lines_open(&lines);

    wm_seqfile_t view; /* names for the printers */
    memset(&view, 0, sizeof view);
    view.text = R.text;
    view.names = R.names;
    view.format = (wm_format_t)fmt;
    dsink_t d;
    memset(&d, 0, sizeof d);
    d.s.out = out;
    d.s.a = a;
    d.s.source = path;
    d.s.sf = &view;
    d.s.pg = &r->pg;
    d.R = &R;
    d.s.base = R.base;
    d.s.prefix = r->show_names ? path : NULL;
    d.s.count_rows = a->list_files != 0;
    d.s.rows = d.s.count_rows ? NULL : wm_cli_search_rows(r);
    int text_failed = a->line_no && fmt != WM_FMT_PLAIN;
    if (dist_failed(r, text_failed,
                    "-n/--line-number under mpirun takes plain files only (not FASTA/FASTQ)")) {
        wm_range_close(&R);
        return;
    }
    if (a->line_no) line_start(&d.s, &R);
    int has_text = R.text.n_rec > 0;
    /* The rank owns the ends after its halo: the library leaves the halo's
    ** own matches out of lists and counts alike. */
    uint64_t own_from = R.continues ? R.halo : 0;
    uint64_t local_n = 0;
    size_t np = wm_db_pattern_count(db);

    st = WM_OK;
    int by_file = unread && !R.whole && R.format == WM_FMT_PLAIN && R.fd >= 0 && has_text;
    if (by_file)
        wm_context_text_file(r->cx, R.text.seq, R.text.len, R.fd,
                             (uint64_t)(R.text.seq - (const uint8_t *)R.whole_sf.map_base));
    wm_cli_search_mode_t mode = wm_cli_search_mode(a); /* no filter runs under MPI */
    if (mode == WM_CLI_SEARCH_PER_PATTERN) {
        if (r->per_pattern == NULL &&
            (r->per_pattern = malloc(np * sizeof *r->per_pattern)) == NULL)
            st = WM_NOMEM;
        if (st == WM_OK) memset(r->per_pattern, 0, np * sizeof *r->per_pattern);
        uint64_t n = 0;
        if (st == WM_OK && has_text)
            st = wm_scan_owned(r->cx, db, &R.text, own_from, NULL, NULL, &n, r->per_pattern);
    } else if (mode == WM_CLI_SEARCH_COUNT) {
        if (has_text) st = wm_scan_owned(r->cx, db, &R.text, own_from, NULL, NULL, &local_n, NULL);
    } else {
        if (a->count && a->by_record && !a->quiet) {
            d.s.per_record = calloc(R.text.n_rec ? R.text.n_rec : 1, sizeof *d.s.per_record);
            if (d.s.per_record == NULL) st = WM_NOMEM;
        }
        if (st == WM_OK && has_text)
            st = wm_scan_owned_batches(r->cx, db, &R.text, own_from, on_matches_dist, &d);
        if (st == WM_STOPPED) st = WM_OK;
        if (wm_cli_search_sink_end(&d.s) < 0 && st == WM_OK) st = WM_NOMEM;
        local_n = d.s.n;
    }
    if (by_file) wm_context_text_file(r->cx, NULL, 0, -1, 0);
    char why[1200];
    snprintf(why, sizeof why, "%s: %s", path, wm_cli_status_msg(r->cx, st));
    int failed = dist_failed(r, st != WM_OK, why);
    double t2 = wm_dist_now();

    uint64_t n_total = 0;
    if (!failed) {
        r->n_sources++;
        r->n_bytes += wm_dist_sum(R.own_bytes);
        if (mode == WM_CLI_SEARCH_PER_PATTERN) {
            wm_dist_sum_array(r->per_pattern, np);
            char num[24];
            for (size_t i = 0; i < np; ++i) {
                uint64_t c = r->per_pattern[i];
                n_total += c;
                if (wm_dist.rank == 0 && (c > 0 || a->all_patterns))
                    wm_out_count(out, path, wm_cli_search_pattern_label(a, (uint32_t)i, num), c);
            }
        } else {
            n_total = wm_dist_sum(local_n);
            if (a->count && !a->by_record && !a->quiet && wm_dist.rank == 0)
                wm_out_count(out, path, NULL, n_total);
            if (d.s.per_record != NULL) print_by_record_dist(r, path, &R, d.s.per_record, out);
            if (a->list_files && wm_dist.rank == 0 && (a->list_files == 1) == (n_total > 0)) {
                fputs(path, out);
                putc('\n', out);
            }
        }
    }
    free(d.s.per_record);

    /* Rank 0: the JSON begin line, every rank's lines in rank order, the end line. */
    int json = a->sh.format == WM_OUT_JSON && !a->count && !a->quiet;
    if (lines.f != NULL) {
        if (json && wm_dist.rank == 0 && !failed) wm_out_search_json_begin(r->out, path);
        if (wm_cli_lines_write(&lines, r->out) < 0 && !r->write_failed) {
            r->write_failed = 1;
            r->write_errno = errno;
        }
        if (json && wm_dist.rank == 0 && !failed) wm_out_search_json_end(r->out, path, n_total);
    } else {
        wm_out_note_error(out, &r->write_failed, &r->write_errno);
    }
    r->n_matches += n_total;
    if (n_total > 0) r->any_match = 1;
    wm_dist_report(path, t1 - t0, t2 - t1, wm_dist_now() - t2);
    wm_range_close(&R);
}

/* Under MPI only rank 0 has standard input: it reads `-f -` and sends the
** bytes to every rank, which reads them from a file of its own. Returns 0
** or -1 (message printed); *tmp gets the file's name ("" when none). */
int wm_cli_search_share_stdin_patterns(wm_cli_search_args_t *a, char *tmp, size_t len) {
    tmp[0] = '\0';
    size_t i = 0;
    while (i < a->n_pat_args &&
           !(a->pat_args[i].opt == 'f' && strcmp(a->pat_args[i].arg, "-") == 0))
        ++i;
    if (!wm_dist.active || i == a->n_pat_args) return 0;
    void *buf = NULL;
    uint64_t n = 0;
    int failed = 0;
    if (wm_dist.rank == 0) {
        size_t cap = 1 << 16, got;
        buf = malloc(cap);
        while (buf != NULL && (got = fread((char *)buf + n, 1, cap - n, stdin)) > 0) {
            n += got;
            if (n == cap) {
                void *nb = realloc(buf, cap *= 2);
                if (nb == NULL) {
                    free(buf);
                    buf = NULL;
                } else buf = nb;
            }
        }
        failed = buf == NULL || ferror(stdin);
    }
    if (wm_cli_dist_failed(failed, "cannot read the patterns from standard input", 0) ||
        wm_dist_bcast_bytes(&buf, &n) < 0) {
        free(buf);
        return -1;
    }
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmp, len, "%s/warpmatch-patterns-XXXXXX", dir);
    int fd = mkstemp(tmp);
    failed = fd < 0 || write(fd, buf, (size_t)n) != (ssize_t)n;
    if (fd >= 0) close(fd);
    free(buf);
    if (wm_cli_dist_failed(failed, "cannot write the patterns from standard input to a file", 0)) {
        if (fd >= 0) unlink(tmp);
        tmp[0] = '\0';
        return -1;
    }
    a->pat_args[i].arg = tmp;
    return 0;
}
