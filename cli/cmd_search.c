/*
** cmd_search.c -- `warpmatch search [OPTIONS] PATTERN [FILE...]` and its
** pattern-set form `warpmatch search [OPTIONS] -f PATFILE | -e P -e P... [FILE...]`.
**
** Flow: parse and check the options (search_args.c: all pattern errors are
** found there, before any file is read; pattern files are read there too)
** -> make one context (backend, threads) -> for each file: wm_seqfile_read,
** pick the database for its format (compiled lazily, at most two: DNA and
** BYTES), wm_search / wm_count / wm_count_per_pattern, print (out_search.c)
** -> exit status. Under MPI each file is split over the ranks instead
** (dist_search.c).
** Set mode (any -f, or -e twice) differs only in what is compiled
** (wm_compile_set) and printed (a pattern column instead of errors); one
** pattern given once keeps the single-pattern mode and its output.
** A file that cannot be read is reported on stderr and the others are still
** searched; option errors stop before the first file.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "core/internal.h"
#include "io/seqfile.h"
#include "mpi/dist.h"
#include "choose.h"
#include "cli.h"
#include "search.h"

/* ---- the match sink ---------------------------------------------------------- */

int wm_cli_search_on_match(const wm_match_t *m, void *user) {
    wm_cli_search_sink_t *s = user;
    if (s->a->word) {
        const wm_text_t *t = &s->sf->text;
        uint64_t lo = 0, hi = t->len, off = s->base != NULL ? s->base[m->record] : 0;
        if (t->rec_start != NULL && m->record < t->n_rec) {
            lo = t->rec_start[m->record];
            hi = m->record + 1 < t->n_rec ? t->rec_start[m->record + 1] : t->len;
        }
        if (!wm_cli_is_word(t->seq + lo, hi - lo, m->start - off, m->end - off)) return 0;
    }
    if (s->locus != NULL) {
        int rc = wm_cli_locus_push(s->locus, m);
        if (rc < 0) s->locus_failed = 1;
        return rc != 0;
    }
    return wm_cli_search_row(s, m);
}

int wm_cli_search_on_matches(const wm_match_t *m, size_t n, void *user) {
    wm_cli_search_sink_t *s = user;
    if (!s->a->word && s->locus == NULL) return wm_cli_search_row_run(s, m, n);
    for (size_t i = 0; i < n; ++i) /* -w and loci read each match first */
        if (wm_cli_search_on_match(&m[i], s)) return 1;
    return 0;
}

int wm_cli_search_on_matches_at(wm_cli_search_sink_t *s, const uint64_t *base, const wm_match_t *m,
                                size_t n) {
    wm_match_t t[256];
    while (n > 0) {
        size_t k = n < sizeof t / sizeof t[0] ? n : sizeof t / sizeof t[0];
        for (size_t i = 0; i < k; ++i) {
            t[i] = m[i];
            t[i].start += base[m[i].record];
            t[i].end += base[m[i].record];
        }
        if (wm_cli_search_on_matches(t, k, s)) return 1;
        m += k;
        n -= k;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------ */

/* Print "warpmatch: <what>: <library message>" for a failed call. */
static void report_status(wm_cli_search_run_t *r, const char *what, wm_status st) {
    wm_progress_clear(&r->pg);
    if (r->said) { /* the scan printed it (a context that could not be made) */
        r->said = 0;
        return;
    }
    wm_cli_error("%s: %s", what, wm_cli_status_msg(r->msg_cx ? r->msg_cx : r->cx, st));
    r->msg_cx = NULL;
}

int wm_cli_search_data_is_dna(const wm_cli_search_args_t *a, const wm_text_t *t, wm_sniff_t *sn) {
    memset(sn, 0, sizeof *sn);
    if (a->sh.alphabet != WM_ALPHA_AUTO) return a->sh.alphabet == WM_ALPHA_DNA;
    wm_sniff_text(sn, t);
    return wm_sniff_is_dna(sn);
}

int wm_cli_search_is_dna(const wm_cli_search_args_t *a, const char *path, int dna_data,
                         const wm_sniff_t *sn) {
    char why[160];
    if (a->sh.alphabet != WM_ALPHA_AUTO)
        snprintf(why, sizeof why, "--alphabet %s", dna_data ? "dna" : "text");
    else wm_sniff_why(sn, why, sizeof why);
    /* Auto never bends the data to the pattern: DNA data is searched as DNA.
    ** Only a pattern with no nucleotide reading at all (HELLO) is searched
    ** as the bytes it can only be (a set: none of A, C, G, T, U only, as sets
    ** take no other codes); a set that mixes such patterns with nucleotide
    ** ones is refused rather than searched under case rules not its own. */
    const char *note = "";
    if (dna_data && a->sh.alphabet == WM_ALPHA_AUTO && !(a->is_set ? a->acgtu : a->iupac)) {
        if (a->is_set && a->any_acgtu) {
            wm_cli_error("%s: the data is DNA (--alphabet auto) but the set mixes patterns of "
                         "%s only with others; give --alphabet text to search its bytes as "
                         "they are",
                         path, a->o.max_edits > 0 ? "IUPAC nucleotide codes" : "A, C, G, T, U");
            return -1;
        }
        dna_data = 0;
        note = !a->is_set           ? "; the pattern is not IUPAC nucleotide letters, so text"
               : a->o.max_edits > 0 ? "; no pattern of the set is IUPAC nucleotide letters only, "
                                      "so text"
                                    : "; no pattern of the set is A, C, G, T, U only, so text";
    }
    if (a->sh.explain_alphabet && wm_dist.rank == 0)
        fprintf(stderr, "%s: alphabet %s for %s: %s%s\n", WM_PROG, dna_data ? "dna" : "text",
                strcmp(path, "-") == 0 ? "(standard input)" : path, why, note);
    return dna_data;
}

wm_db_t *wm_cli_search_db(wm_cli_search_run_t *r, int dna) {
    if (r->db[dna] != NULL) return r->db[dna];
    const wm_cli_search_args_t *a = r->a;
    wm_opts_t o = a->o;
    o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    /* a set within k compiles on the threads the search may use (-j) */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.compile_threads = a->sh.co.threads > 0 ? a->sh.co.threads : cores > 0 ? (int)cores : 1;
    double t0 = wm_cli_now();
    wm_status st = a->is_set ? wm_compile_set(a->set.pat, a->set.len, a->set.n, &o, &r->db[dna])
                             : wm_compile(a->pattern, a->m, &o, &r->db[dna]);
    r->t_compile += wm_cli_now() - t0;
    if (st != WM_OK) {
        r->db[dna] = NULL;
        wm_progress_clear(&r->pg);
        wm_cli_error("cannot compile the pattern%s (%s alphabet): %s", a->is_set ? " set" : "",
                     dna ? "dna" : "text", wm_strerror(st));
        r->fatal = 1;
        return NULL;
    }
    return r->db[dna];
}

/* --count-per-pattern for one file: "source<TAB>pattern<TAB>count" lines in
** pattern order (zero counts only with --all-patterns); *total gets the sum. */
static wm_status count_per_pattern(wm_cli_search_run_t *r, const wm_db_t *db,
                                   const wm_seqfile_t *sf, const char *path, uint64_t *total) {
    size_t np = wm_db_pattern_count(db);
    if (r->per_pattern == NULL) {
        r->per_pattern = malloc(np * sizeof *r->per_pattern);
        if (r->per_pattern == NULL) return WM_NOMEM;
    }
    wm_status st = wm_cli_search_scan(r, db, path, sf, NULL, NULL, NULL, r->per_pattern);
    if (st != WM_OK) return st;
    *total = wm_cli_search_print_per_pattern(r, path, r->per_pattern, np);
    return WM_OK;
}

uint64_t wm_cli_search_print_per_pattern(wm_cli_search_run_t *r, const char *path,
                                         const uint64_t *counts, size_t np) {
    uint64_t sum = 0;
    char num[24];
    for (size_t i = 0; i < np; ++i) {
        uint64_t c = counts[i];
        sum += c;
        if (c > 0 || r->a->all_patterns)
            wm_out_count(r->out, path, wm_cli_search_pattern_label(r->a, (uint32_t)i, num), c);
    }
    return sum;
}

wm_cli_rows_t *wm_cli_search_rows(wm_cli_search_run_t *r) {
    const wm_cli_search_args_t *a = r->a;
    /* Not -n (a line count runs through the rows), --line (a line gathers
    ** matches), SAM (a pattern's first row is its primary), nor rows meant
    ** to show as they are found (a terminal, --line-buffered). */
    if (a->line_no || a->whole_line || a->sh.format == WM_OUT_SAM || a->line_buffered ||
        isatty(fileno(r->out)))
        return NULL;
    if (!r->rows_tried) {
        r->rows_tried = 1;
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int want = a->sh.co.threads > 0 ? a->sh.co.threads : cores > 0 ? (int)cores : 1;
        r->rows = wm_cli_rows_new(sizeof(wm_match_t), want); /* NULL: one at a time */
    }
    return r->rows;
}

void wm_cli_search_sink_init(wm_cli_search_run_t *r, wm_cli_search_sink_t *s, const char *path,
                             const wm_seqfile_t *sf, int dna) {
    memset(s, 0, sizeof *s);
    s->out = r->out;
    s->a = r->a;
    s->source = path;
    s->sf = sf;
    s->pg = &r->pg;
    s->prefix = r->show_names ? path : NULL;
    s->lp.line = 1;
    s->count_rows = r->a->count || r->a->list_files;
    s->dna = dna;
    s->sam_seen = r->sam_seen;
    s->rows = s->count_rows ? NULL : wm_cli_search_rows(r);
}

void wm_cli_search_listed(wm_cli_search_run_t *r, const wm_cli_search_sink_t *s, const char *path,
                          wm_status st) {
    const wm_cli_search_args_t *a = r->a;
    if (st == WM_OK && a->count && !a->by_record && !a->quiet)
        wm_out_count(r->out, path, NULL, s->n);
    if (st == WM_OK && (a->list_files == 1) == (s->n > 0) && a->list_files) {
        fputs(path, r->out);
        putc('\n', r->out);
        if (a->line_buffered) fflush(r->out);
    }
}

void wm_cli_search_file_done(wm_cli_search_run_t *r, const wm_cli_search_sink_t *s,
                             const char *path, wm_status st) {
    const wm_cli_search_args_t *a = r->a;
    wm_progress_clear(&r->pg);
    if (st != WM_OK) {
        report_status(r, path, st);
        r->any_error = 1;
    }
    if (a->sh.format == WM_OUT_JSON && !a->count && !a->quiet)
        wm_out_search_json_end(r->out, path, s->n);
    r->n_matches += s->n;
    if (s->n > 0) r->any_match = 1;
    if (s->write_failed || ferror(r->out)) {
        r->write_failed = 1;
        r->write_errno = s->write_failed ? s->write_errno : errno;
    }
}

/* What grep's conventions need of a file's format. Returns 0 or -1 (printed). */
static int text_checks(const wm_cli_search_run_t *r, const wm_seqfile_t *sf, const char *path) {
    const wm_cli_search_args_t *a = r->a;
    if (a->whole_line && sf->format != WM_FMT_PLAIN) {
        wm_cli_error("%s: --line is for plain text; %s records have no lines (use -o)", path,
                     wm_format_name(sf->format));
        return -1;
    }
    if (a->line_no && sf->format == WM_FMT_FASTQ) {
        wm_cli_error("%s: -n/--line-number takes plain or FASTA input, not FASTQ", path);
        return -1;
    }
    return 0;
}

static void search_file(wm_cli_search_run_t *r, const char *path) {
    wm_cli_search_args_t *a = r->a;
    if (wm_cli_search_stream(r, path)) return; /* read in batches */
    wm_seqfile_t sf;
    char err[1024] = "";
    memset(&sf, 0, sizeof sf);

    wm_seqfile_opts_t so = wm_seqfile_opts_default();
    so.threads = a->sh.co.threads; /* -j: FASTA is parsed by the scan's threads */
    double t0 = wm_dist_now();
    wm_status st = wm_seqfile_read_opts(path, 0, &so, &sf, err, sizeof err);
    double t1 = wm_dist_now();
    r->t_read += t1 - t0;
    if (st != WM_OK) {
        wm_progress_clear(&r->pg);
        if (err[0] != '\0') wm_cli_error("%s", err);
        else wm_cli_error("%s: %s", path, wm_strerror(st));
        r->any_error = 1;
        wm_seqfile_close(&sf);
        return;
    }

    wm_sniff_t sn;
    int dna = wm_cli_search_is_dna(a, path, wm_cli_search_data_is_dna(a, &sf.text, &sn), &sn);
    wm_db_t *db = dna < 0 ? NULL : wm_cli_search_db(r, dna);
    if (db == NULL) {
        r->any_error = 1;
        wm_seqfile_close(&sf);
        return;
    }
    /* the context, made while this file was read (the first time); with
    ** the cover, the CPU scans the file's front in the meantime instead */
    if (r->cx == NULL && !r->cover &&
        wm_cli_context_wait_warm(&r->bg, &r->cx,
                                 wm_cli_search_reads_file(r, &sf) ? NULL : sf.text.seq,
                                 sf.text.len) != WM_OK) {
        r->any_error = r->fatal = 1;
        wm_seqfile_close(&sf);
        return;
    }

    /* -r skips binary files (a NUL byte, after gzip), as ripgrep does */
    if (r->walked && !a->binary_too && sf.text.len > 0 &&
        memchr(sf.text.seq, 0, (size_t)sf.text.len) != NULL) {
        wm_seqfile_close(&sf);
        return;
    }
    wm_cli_search_sink_t s;
    wm_cli_fasta_lines_t fl;
    wm_cli_locus_t locus;
    wm_cli_search_sink_init(r, &s, path, &sf, dna);
    memset(&fl, 0, sizeof fl);
    if (text_checks(r, &sf, path) < 0 ||
        (a->line_no && sf.format == WM_FMT_FASTA && wm_cli_fasta_lines_build(&fl, path, &sf) < 0)) {
        r->any_error = 1;
        wm_seqfile_close(&sf);
        return;
    }
    if (a->line_no && sf.format == WM_FMT_FASTA) s.fl = &fl;
    if (a->best_locus) {
        uint64_t longest = a->m; /* one pattern's, or a set's longest */
        for (size_t i = 0; a->is_set && i < a->set.n; ++i)
            if (a->set.len[i] > longest) longest = a->set.len[i];
        if (wm_cli_locus_init(&locus, longest + a->o.max_edits, wm_cli_search_row_run, &s) < 0) {
            wm_cli_locus_free(&locus);
            wm_cli_error("%s: %s", path, wm_strerror(WM_NOMEM));
            r->any_error = 1;
            wm_cli_fasta_lines_free(&fl);
            wm_seqfile_close(&sf);
            return;
        }
        s.locus = &locus;
        /* a set within k then finds only the starts the loci can read;
        ** not under -w, whose word test reads every match's start first
        ** (set on each context the scan runs on) */
        r->loci_starts = !a->word;
    }

    r->n_sources++;
    r->n_bytes += sf.text.len;
    wm_progress_start_item(&r->pg);
    if (a->sh.format == WM_OUT_JSON && !a->count && !a->quiet)
        wm_out_search_json_begin(r->out, path);
    if (a->sh.format == WM_OUT_SAM && !a->quiet)
        wm_cli_search_sam_header(r->out, &sf, path, r->argc, r->argv);

    wm_cli_search_mode_t mode = wm_cli_search_mode(a);
    double t_search = wm_cli_now();
    if (mode == WM_CLI_SEARCH_PER_PATTERN) {
        st = count_per_pattern(r, db, &sf, path, &s.n);
    } else if (mode == WM_CLI_SEARCH_COUNT) {
        uint64_t n = 0;
        st = wm_cli_search_scan(r, db, path, &sf, NULL, NULL, &n, NULL);
        s.n = n;
        if (st == WM_OK) wm_out_count(r->out, path, NULL, n);
    } else {
        if (a->count && a->by_record && !a->quiet) {
            size_t n_rec = sf.text.n_rec > 0 ? sf.text.n_rec : 1;
            s.per_record = calloc(n_rec, sizeof *s.per_record);
            if (s.per_record == NULL) {
                wm_cli_error("%s: %s", path, wm_strerror(WM_NOMEM));
                r->any_error = 1;
                wm_seqfile_close(&sf);
                return;
            }
        }
        st = wm_cli_search_scan(r, db, path, &sf, wm_cli_search_on_matches, &s, NULL, NULL);
        if (st == WM_STOPPED) st = WM_OK; /* -q found its match, or a write failed */
        if (wm_cli_search_sink_end(&s) < 0) r->any_error = 1;
        wm_cli_search_listed(r, &s, path, st);
        if (st == WM_OK && s.per_record != NULL) {
            size_t n_rec = sf.text.n_rec;
            for (size_t i = 0; i < n_rec; ++i)
                wm_out_count(r->out, path, wm_cli_search_record_name(&sf, i), s.per_record[i]);
        }
        free(s.per_record);
    }
    if (s.locus != NULL) wm_cli_locus_free(s.locus);
    wm_cli_fasta_lines_free(&fl);
    wm_cli_search_file_done(r, &s, path, st);
    r->t_search += wm_cli_now() - t_search;
    wm_dist_report(path, t1 - t0, wm_dist_now() - t1, 0.0); /* printing is in the search */
    wm_seqfile_close(&sf);
}

/* The command refused before its search: the context started early is left
** to finish on its own (main.c leaves by _exit) or, made already, freed. */
static void fail_early(wm_cli_search_args_t *a, wm_cli_search_run_t *r) {
    if (r->early && !wm_cli_context_leave(&r->bg)) wm_cli_context_abandon(&r->bg);
    wm_cli_search_free(a);
}

int wm_cmd_search(int argc, char **argv) {
    wm_cli_search_args_t a;
    wm_cli_search_run_t r;
    int first_arg = 0;

    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    wm_cli_buffer_stdout();
    r.a = &a;
    r.out = stdout;
    r.loci_starts = -1;
    r.cover_from = r.cover_ready = -1;
    wm_progress_init(&r.pg);

    int rc = wm_cli_search_parse(argc, argv, &a, &first_arg);
    if (rc != 0) wm_cli_search_free(&a);
    if (rc == 1) return wm_cli_help_status();
    if (rc < 0) {
        wm_flags_usage_hint(&wm_cli_cmd_search);
        return WM_EXIT_ERROR;
    }
    /* --backend cuda, or auto when a look at the files says the GPU is
    ** likely: CUDA starts while the patterns are read (a million reads take
    ** 0.06 s of the context's 0.24 s). auto decides after them. */
    r.dist = wm_dist.active || a.per_rank != NULL;
    if (wm_progress_enable(&r.pg, a.progress && !a.quiet && !r.dist)) {
        a.sh.co.progress = wm_progress_report;
        a.sh.co.progress_user = &r.pg;
    }
    r.early = !r.dist && (wm_cli_context_start_cuda(&r.bg, &a.sh.co) ||
                          (wm_cli_search_gpu_likely(&a, argc, argv, first_arg) &&
                           wm_cli_context_start(&r.bg, &a.sh.co) == WM_OK));
    char stdin_pats[4096] = "";
    double t_start = wm_cli_now();
    int bad_args =
        a.is_set ? wm_cli_search_check_set(&a, argc, argv, first_arg) < 0 ||
                       wm_cli_search_share_stdin_patterns(&a, stdin_pats, sizeof stdin_pats) < 0 ||
                       wm_cli_search_load_set(&a) < 0
                 : wm_cli_search_check(&a) < 0;
    if (stdin_pats[0] != '\0') unlink(stdin_pats);
    r.t_patterns = wm_cli_now() - t_start;
    if (bad_args) {
        fail_early(&a, &r);
        return WM_EXIT_ERROR;
    }

    if (a.per_rank != NULL && a.sh.output != NULL) {
        wm_cli_error("--output and --output-per-rank: one or the other");
        fail_early(&a, &r);
        return WM_EXIT_ERROR;
    }
    if (wm_cli_open_output(&a.sh, argc, argv) < 0) {
        fail_early(&a, &r);
        return WM_EXIT_ERROR;
    }
    if (a.per_rank != NULL && argc - first_arg > 1) {
        /* Each rank's file holds its share of every input in turn, so only
        ** one input keeps "the files in rank order are the output". */
        wm_cli_error("--output-per-rank takes one FILE (%d given): run once per file",
                     argc - first_arg);
        fail_early(&a, &r);
        return WM_EXIT_ERROR;
    }
    if (a.sh.format == WM_OUT_SAM) {
        /* one header: the records of one FILE are its @SQ lines */
        if (a.recurse || argc - first_arg > 1 || r.dist) {
            wm_cli_error("--format sam takes one FILE (its records are the header's @SQ "
                         "lines), not -r, and not under mpirun or --output-per-rank");
            fail_early(&a, &r);
            return WM_EXIT_ERROR;
        }
        /* a record per occurrence: within k, the best end of each locus */
        if (a.o.max_edits > 0) a.best_locus = 1;
        r.sam_seen = calloc(a.set.n, 1);
        if (r.sam_seen == NULL) {
            wm_cli_error("%s", wm_strerror(WM_NOMEM));
            fail_early(&a, &r);
            return WM_EXIT_ERROR;
        }
        r.argc = argc;
        r.argv = argv;
    }
    if (a.color < 0) { /* --color auto: a terminal; under mpirun stdout is the launcher's */
        const char *term = getenv("TERM");
        a.color = !r.dist && isatty(STDOUT_FILENO) && term != NULL && strcmp(term, "dumb") != 0;
    }
    if (r.dist &&
        (a.word || a.best_locus || a.whole_line || a.recurse || a.max_count != UINT64_MAX)) {
        /* a rank holds its bytes and the halo before them, not the bytes
        ** after, nor the rows of the ranks before it */
        wm_cli_error("-w, -m, -r, --line and --best-per-locus are not supported under "
                     "mpirun or --output-per-rank (-n, -o, -l, -L are)");
        fail_early(&a, &r);
        return WM_EXIT_ERROR;
    }
    if (a.stream > 0) { /* -r's files are tested for binary bytes whole, unless -a */
        r.walked = a.recurse;
        const char *why = wm_cli_search_stream_blocker(&r);
        r.walked = 0;
        if (why != NULL) {
            wm_cli_error("--stream reads each input in batches; %s needs whole files", why);
            fail_early(&a, &r);
            return WM_EXIT_ERROR;
        }
    }
    wm_cli_dist_device(&a.sh.co);
    if (a.per_rank != NULL && wm_cli_search_open_rank_file(&r) < 0) {
        fail_early(&a, &r);
        return WM_EXIT_ERROR;
    }
    /* A streamed input waits for the context: auto offers it no cover. (Each
    ** FILE is opened to know: a few at most.) */
    for (int i = first_arg; a.sh.co.backend == WM_BACKEND_AUTO && wm_cuda_built() && !r.dist &&
                            !a.recurse && argc - first_arg <= 16 && !a.streamed_input && i < argc;
         i++)
        a.streamed_input = wm_cli_search_would_stream(&r, argv[i]);
    wm_cli_choose_search(&a, argc, argv, first_arg); /* --backend auto for these files */
    if (r.early && a.sh.co.backend == WM_BACKEND_CPU) {
        /* The guess was wrong: the start-up is waited for and dropped (its
        ** thread writes into r.bg, which the CPU's context reuses). */
        wm_cli_context_abandon(&r.bg);
        r.early = 0;
    }
    r.cover = !r.dist && wm_cli_search_cover_wanted(&a);
    /* Ranks agree on their contexts before any reads; one process makes
    ** its context while it reads its first file. */
    wm_status cst = r.dist    ? wm_cli_context_new(&a.sh.co, &r.cx)
                    : r.early ? WM_OK
                              : wm_cli_context_start(&r.bg, &a.sh.co);
    if (r.dist && wm_cli_search_dist_failed(&r, cst != WM_OK, wm_cli_last_error(), 1))
        cst = WM_DEVICE;
    if (cst != WM_OK) {
        if (r.rank_out != NULL) fclose(r.rank_out);
        wm_cli_search_free(&a);
        return WM_EXIT_ERROR;
    }

    wm_cli_paths_t walk;
    memset(&walk, 0, sizeof walk);
    if (a.recurse && wm_cli_walk(&walk, argv + first_arg, argc - first_arg, &r.any_error) < 0)
        r.fatal = r.any_error = 1;
    r.show_names =
        a.with_filename == 1 || (a.with_filename < 0 && (a.recurse || argc - first_arg > 1));
    if (a.recurse) {
        for (size_t i = 0; i < walk.n && !r.fatal; ++i) {
            r.walked = walk.walked[i];
            search_file(&r, walk.path[i]);
            if (r.fatal || r.write_failed || (a.quiet && r.any_match)) break;
        }
    } else if (first_arg >= argc) {
        (r.dist ? wm_cli_search_file_dist : search_file)(&r, "-");
    } else {
        for (int i = first_arg; i < argc; ++i) {
            (r.dist ? wm_cli_search_file_dist : search_file)(&r, argv[i]);
            if (r.fatal || r.write_failed || (a.quiet && r.any_match)) break;
        }
    }
    wm_cli_paths_free(&walk);
    /* No file got as far as its search: the context is still owed its wait.
    ** Unless the CPU covered every file before it was ready: the process then
    ** leaves without it (main.c) rather than wait for a GPU it no longer needs. */
    if (!r.dist && r.cx == NULL && !(r.cover_cx != NULL && wm_cli_context_leave(&r.bg)) &&
        wm_cli_context_wait(&r.bg, &r.cx) != WM_OK)
        r.any_error = 1;
    if (a.sh.format == WM_OUT_JSON && !a.count && !a.quiet && !r.fatal && !r.write_failed)
        wm_out_search_json_summary(r.out, r.n_matches, r.n_sources, r.n_bytes);

    wm_cli_rows_free(r.rows); /* drained by each sink */
    double t_free = wm_cli_now();
    wm_db_free(r.db[0]);
    wm_db_free(r.db[1]);
    free(r.per_pattern);
    free(r.sam_seen);
    if (wm_cli_timing_on())
        fprintf(stderr,
                "search: patterns read in %.4f s, inputs read %.4f s, compiled %.4f s, searched "
                "and printed %.4f s, compiled sets freed %.4f s\n",
                r.t_patterns, r.t_read, r.t_compile, r.t_search, wm_cli_now() - t_free);
    wm_cli_gpu_timing(r.cx, a.sh.co.device);
    wm_cli_search_cover_free(&r);
    wm_cli_search_free(&a);
    wm_cli_note(r.cx);
    wm_cli_context_free(r.cx);
    wm_progress_free(&r.pg);
    if (r.rank_out != NULL && fclose(r.rank_out) != 0 && !r.write_failed) {
        r.write_failed = 1;
        r.write_errno = errno;
    }

    int w = wm_cli_flush_stdout(r.write_failed, r.write_errno);
    if (w < 0) return WM_EXIT_ERROR;
    if (w > 0) /* a closed pipe: the status of what was done */
        return (a.quiet && r.any_match) || (!r.any_error && r.any_match) ? WM_EXIT_MATCH
               : r.any_error                                             ? WM_EXIT_ERROR
                                                                         : WM_EXIT_NOMATCH;
    if (a.quiet && r.any_match) return WM_EXIT_MATCH;
    if (r.any_error || r.fatal) return WM_EXIT_ERROR;
    return r.any_match ? WM_EXIT_MATCH : WM_EXIT_NOMATCH;
}
