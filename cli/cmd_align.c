/*
** cmd_align.c -- `warpmatch align [OPTIONS] QUERY TARGET`: the best alignment,
** by edit distance, of each query record in each target record (infix: the
** closest substring of the target; global: the whole target), or of each
** pair of a --pairs file.
**
** Flow: parse the options (the flag table, and align's own here) -> read
** QUERY and TARGET once each (alignio.c: literal or file, every record
** checked) or the pair file (pairtsv.c) -> --pairs counts -> the alphabet
** -> one context -> infix: wm_align for each pair, query-major; global: the
** same pairs in batches of up to 2^20 through wm_align_pairs (so the GPU
** gets many at once) -> each query's rows gathered, both strands for DNA,
** --best, SAM's primary (align_hits.c) -> TSV, JSON Lines, SAM or PAF
** (out_align.c), flushed as each query's rows are final. Under MPI the
** target or the pairs are split over the ranks (dist_align.c). Every input
** error is found before the first line is printed; a library error stops
** the run (exit 2) after the lines already printed.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"
#include "mpi/dist.h"
#include "cli.h"
#include "align.h"
#include "choose.h"
#include "out.h"

const char *const wm_cli_align_mode_words[] = { "infix", "global", NULL };

/* ---- options --------------------------------------------------------------- */

/* The flags that are align's own (wm_flag_own_t). */
static int apply_own(const wm_flag_t *f, const char *val, void *args) {
    wm_cli_align_args_t *a = args;
    /* The --algo words come from the library, in wm_align_algo_t order. */
    const char *algo_words[] = { wm_align_algo_name(WM_ALIGN_ALGO_AUTO),
                                 wm_align_algo_name(WM_ALIGN_ALGO_WAVEFRONT),
                                 wm_align_algo_name(WM_ALIGN_ALGO_BITVECTOR),
                                 wm_align_algo_name(WM_ALIGN_ALGO_FOUR_RUSSIANS), NULL };
    char name[64];
    uint64_t v;
    int i;
    switch (f->id) {
    case WM_F_MODE:
        if ((i = wm_cli_choose("--mode", val, wm_cli_align_mode_words)) < 0) return -1;
        a->o.mode = (wm_align_mode_t)i;
        a->mode_given = 1;
        break;
    case 'k':
        if (wm_cli_option_u64(wm_flag_display(f, name, sizeof name), val, INT64_MAX, 0, &v) < 0)
            return -1;
        a->o.max_distance = (int64_t)v;
        break;
    case WM_F_CIGAR: a->o.cigar = 1; break;
    case WM_F_ALL_ENDS: a->o.all_ends = 1; break;
    case WM_F_PAIRS: a->pairs = 1; break;
    case WM_F_ALGO:
        if ((i = wm_cli_choose("--algo", strcmp(val, "dp") == 0 ? "wavefront" : val, algo_words)) <
            0)
            return -1;
        a->o.algo = (wm_align_algo_t)i;
        break;
    case WM_F_EXPLAIN: a->explain = 1; break;
    case WM_F_REVCOMP: a->strands = 2; break;
    case WM_F_NO_REVCOMP: a->strands = 1; break;
    case WM_F_BEST: a->best = 1; break;
    case WM_F_CIGAR_M: a->cigar_m = 1; break;
    case WM_F_NO_PROGRESS: a->no_progress = 1; break;
    case WM_F_BLOCK_T:
        if (wm_cli_parse_u64(val, WM_FR_MAX_T, 0, &v) < 0 || v < 1) {
            wm_cli_error("invalid value '%s' for --block-t (expected 1 to %d; t = 5 would "
                         "need a table of at least 124 GB)",
                         val, WM_FR_MAX_T);
            return -1;
        }
        a->o.fr_t = (int)v;
        break;
    }
    return 0;
}

/* Returns 0 to go on, 1 after --help (exit 0), -1 on a bad option (exit 2).
** *first_arg is the index of the first non-option argument. */
static int parse_args(int argc, char **argv, wm_cli_align_args_t *a, int *first_arg) {
    a->o = wm_align_opts_default();
    int rc = wm_flags_parse(&wm_cli_cmd_align, argc, argv, &a->sh, apply_own, a, first_arg);
    if (rc != 0) return rc;
    if (a->sh.ignore_case) a->o.case_insensitive = 1;
    if (a->o.algo == WM_ALIGN_ALGO_FOUR_RUSSIANS && a->o.mode != WM_ALIGN_GLOBAL) {
        /* Never switch modes behind the user's back: a global row read as
        ** the infix answer asked for (align's default) would be wrong
        ** without a word. Only --explain alone aligns nothing. */
        if (!a->mode_given && a->explain && *first_arg >= argc) {
            a->o.mode = WM_ALIGN_GLOBAL;
        } else {
            wm_cli_error("--algo four-russians computes global edit distances only, and "
                         "align's mode is %s: add --mode global",
                         a->mode_given ? "infix" : "infix unless --mode says otherwise");
            return -1;
        }
    }
    if (a->cigar_m && a->sh.format != WM_OUT_SAM) {
        wm_cli_error("--cigar-m writes SAM's CIGAR: use it with --format sam (PAF's cg:Z: "
                     "always has M; tsv and json print = and X)");
        return -1;
    }
    if (a->explain && a->o.algo != WM_ALIGN_ALGO_FOUR_RUSSIANS) {
        wm_cli_error("--explain describes the four-russians table: use it with "
                     "--algo four-russians");
        return -1;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------ */

void wm_cli_align_note_write_error(wm_cli_align_run_t *r) {
    wm_out_note_error(r->out, &r->write_failed, &r->write_errno);
}

/* The quality string of query record qi, or NULL. */
static const uint8_t *query_qual(const wm_cli_align_run_t *r, size_t qi) {
    return r->q.quals ? r->q.quals + (r->q.starts[qi] - r->q.starts[0]) : NULL;
}

/* A pair of at least this many cells takes milliseconds or more: the rows
** already final are flushed before it, so that they never wait for it. */
#define FLUSH_BEFORE_CELLS ((uint64_t)1 << 26)

/* One strand of a pair: align and gather. Returns 0 or -1 (printed). */
static int align_strand(wm_cli_align_run_t *r, const uint8_t *q, uint64_t m, size_t ti, int strand,
                        const char *qname) {
    uint64_t n;
    const uint8_t *t = wm_cli_input_rec(&r->t, ti, &n);
    const char *tname = wm_cli_input_name(&r->t, ti);
    wm_alignments_t res = { NULL, 0 };
    if (m * n >= FLUSH_BEFORE_CELLS) fflush(r->out);
    r->pair_cells = m * n; /* the library's progress within this pair (on_pair_progress) */
    uint64_t from = r->t.starts[ti] - r->t.starts[0];
    wm_status st = r->tgt
                       ? wm_align_target(r->cx, q, (size_t)m, r->tgt, from, from + n, &r->o, &res)
                       : wm_align(r->cx, q, (size_t)m, t, n, &r->o, &res);
    r->pair_cells = 0;
    if (st != WM_OK) {
        fflush(r->out); /* the lines before the error come first */
        wm_cli_error("cannot align query '%.200s'%s to target '%.200s' (%s mode): %s", qname,
                     strand ? " (reverse complement)" : "", tname,
                     wm_cli_align_mode_words[r->o.mode], wm_cli_status_msg(r->cx, st));
        wm_alignments_free(&res);
        return -1;
    }
    for (size_t i = 0; i < res.n; ++i) wm_cli_hits_add(r, ti, tname, n, strand, &res.a[i]);
    wm_alignments_free(&res);
    r->cells_done += m * n;
    wm_progress_report(r->cells_done, r->cells_total, &r->pg);
    return 0;
}

/* The library's progress inside one long alignment (a read against a
** chromosome takes minutes on the CPU): the pair's share of its cells. */
static void on_pair_progress(uint64_t done, uint64_t total, void *user) {
    wm_cli_align_run_t *r = user;
    if (!r->pg.enabled || total == 0 || r->pair_cells == 0) return;
    uint64_t part = (uint64_t)((double)r->pair_cells * ((double)done / (double)total));
    wm_progress_report(r->cells_done + part, r->cells_total, &r->pg);
}

int wm_cli_align_pair(wm_cli_align_run_t *r, size_t qi, size_t ti) {
    uint64_t m;
    const uint8_t *q = wm_cli_input_rec(&r->q, qi, &m);
    const char *qname = wm_cli_input_name(&r->q, qi);
    if (wm_cli_hits_begin(r, qi, qname, q, m, query_qual(r, qi)) < 0) return -1;
    if (align_strand(r, q, m, ti, 0, qname) < 0) return -1;
    if (r->both_strands && align_strand(r, wm_cli_align_rc(r, qi), m, ti, 1, qname) < 0) return -1;
    /* --pairs: a query has one target, its rows are final now */
    if (r->a->pairs && wm_cli_hits_flush(r) < 0) return -1;
    wm_cli_align_note_write_error(r);
    return 0;
}

/* --explain: what the four-russians table costs (built now if need be). */
static int explain(wm_cli_align_run_t *r) {
    wm_fr_info_t fi;
    wm_status st = wm_align_fr_info(r->cx, &r->o, &fi);
    if (st != WM_OK) {
        wm_cli_error("four-russians table: %s", wm_cli_status_msg(r->cx, st));
        return -1;
    }
    fprintf(stderr,
            "four-russians: t = %u, key = %s, %llu entries, %llu bytes, built in %.6f s "
            "on %d threads\n",
            fi.t, fi.key_strings ? "strings" : "matrix", (unsigned long long)fi.entries,
            (unsigned long long)fi.bytes, fi.build_seconds, fi.build_threads);
    return 0;
}

/* An input as the --explain-alphabet line names it: a file as given, a
** literal cut to 40 bytes. */
static void input_label(const char *arg, char *buf, size_t len) {
    size_t n = strlen(arg);
    snprintf(buf, len, "%.*s%s", 40, strcmp(arg, "-") == 0 ? "(standard input)" : arg,
             n > 40 ? "..." : "");
}

int wm_cli_align_alphabet(const wm_cli_align_args_t *a, const char *targ, int target_dna,
                          const wm_sniff_t *tsn, const char *qarg, const wm_sniff_t *qsn,
                          int q_iupac, wm_alphabet_t *alpha) {
    char why_t[160], why_q[160], tl[64], ql[64];
    if (a->sh.alphabet != WM_ALPHA_AUTO) {
        *alpha = a->sh.alphabet == WM_ALPHA_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        if (a->sh.explain_alphabet && wm_dist.rank == 0)
            fprintf(stderr, "%s: alphabet %s for align: --alphabet %s\n", WM_PROG,
                    *alpha == WM_ALPHABET_DNA ? "dna" : "text",
                    *alpha == WM_ALPHABET_DNA ? "dna" : "text");
        return 0;
    }
    /* The target is the data, as a search's FILE: it decides. A query fits
    ** DNA when its own bytes are DNA by the same rule or are all IUPAC letters
    ** (a short primer with codes); one that does not is refused, never aligned
    ** under other case rules without a word. */
    int q_dna = wm_sniff_is_dna(qsn) || q_iupac;
    input_label(targ, tl, sizeof tl);
    input_label(qarg, ql, sizeof ql);
    if (target_dna && !q_dna) {
        wm_cli_error("the target %s is DNA (--alphabet auto) but the query %s is not (%s); give "
                     "--alphabet text to align the bytes as they are",
                     tl, ql, wm_sniff_why(qsn, why_q, sizeof why_q));
        return -1;
    }
    /* --revcomp asks for strands, not for an alphabet: a text target stays
    ** text (a protein of IUPAC letters is never complemented as DNA). */
    if (a->strands == 2 && !target_dna) {
        wm_cli_error("--revcomp needs DNA: the alphabet is text here (the target %s is not DNA: "
                     "%s); give --alphabet dna to align it as DNA, or leave --revcomp out",
                     tl, wm_sniff_why(tsn, why_t, sizeof why_t));
        return -1;
    }
    *alpha = target_dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    if (a->sh.explain_alphabet && wm_dist.rank == 0) {
        const char *word = target_dna ? "dna" : "text";
        fprintf(stderr, "%s: alphabet %s for the target %s: %s\n", WM_PROG, word, tl,
                wm_sniff_why(tsn, why_t, sizeof why_t));
        fprintf(stderr, "%s: alphabet %s for the query %s: %s%s%s\n", WM_PROG, word, ql,
                wm_sniff_why(qsn, why_q, sizeof why_q),
                q_iupac && !wm_sniff_is_dna(qsn) ? "; its letters are all IUPAC codes" : "",
                !target_dna && q_dna ? "; aligned as text, as the target is" : "");
    }
    return 0;
}

/* The sniff of an input's records, from the first. */
static void sniff_input(const wm_cli_input_t *in, wm_sniff_t *sn) {
    memset(sn, 0, sizeof *sn);
    wm_sniff_add(sn, in->seq, in->starts[in->n_rec] - in->starts[0]);
}

/* What the output needs once the inputs are read: the strands, SAM's
** qualities, the CIGAR that SAM and PAF always print, and the cells to do. */
static int finish_prepare(wm_cli_align_run_t *r) {
    wm_cli_format_t f = r->a->sh.format;
    if (f == WM_OUT_SAM || f == WM_OUT_PAF) r->o.cigar = 1;
    if (f == WM_OUT_SAM && !r->tsv) wm_cli_input_load_quals(&r->q);
    if (wm_cli_align_strands(r) < 0) return -1;
    uint64_t per = r->both_strands ? 2 : 1, total = 0;
    if (r->tsv) {
        for (size_t i = 0; i < r->pt.n; ++i) total += r->pt.len[2 * i] * r->pt.len[2 * i + 1];
    } else if (r->a->pairs) {
        for (size_t i = 0; i < r->q.n_rec; ++i)
            total += (r->q.starts[i + 1] - r->q.starts[i]) * (r->t.starts[i + 1] - r->t.starts[i]);
    } else {
        total =
            (r->q.starts[r->q.n_rec] - r->q.starts[0]) * (r->t.starts[r->t.n_rec] - r->t.starts[0]);
    }
    r->cells_total = total * per; /* for the progress line: overflow only blurs it */
    return 0;
}

int wm_cli_align_prepare(wm_cli_align_run_t *r, const char *qarg, const char *targ) {
    const wm_cli_align_args_t *a = r->a;
    int raw = a->sh.alphabet == WM_ALPHA_TEXT;
    r->o = a->o;
    if (targ == NULL) { /* --pairs PAIRS.tsv */
        r->tsv = 1;
        if (wm_cli_pairtsv_open(&r->pt, qarg, WM_MAX_QUERY) < 0) return -1;
        /* the second column is the data, the first the queries (sniff.h) */
        wm_sniff_t tsn, qsn;
        int q_iupac = 1;
        memset(&tsn, 0, sizeof tsn);
        memset(&qsn, 0, sizeof qsn);
        for (size_t i = 0; i < r->pt.n; i++) {
            wm_sniff_add(&qsn, r->pt.seq[2 * i], r->pt.len[2 * i]);
            wm_sniff_add(&tsn, r->pt.seq[2 * i + 1], r->pt.len[2 * i + 1]);
            q_iupac = q_iupac && wm_cli_is_iupac(r->pt.seq[2 * i], (size_t)r->pt.len[2 * i]);
        }
        if (wm_cli_align_alphabet(a, qarg, wm_sniff_is_dna(&tsn), &tsn, qarg, &qsn, q_iupac,
                                  &r->o.alphabet) < 0)
            return -1;
        if (r->o.mode != WM_ALIGN_GLOBAL)
            for (size_t i = 0; i < r->pt.n; i++)
                if (r->pt.len[2 * i] == 0) {
                    wm_cli_error("%s:%llu: the query is empty (infix mode needs one; global "
                                 "mode takes empty sequences)",
                                 qarg, (unsigned long long)r->pt.line[i]);
                    return -1;
                }
        return finish_prepare(r);
    }
    r->q.allow_empty = r->t.allow_empty = a->o.mode == WM_ALIGN_GLOBAL;
    r->q.threads = r->t.threads = a->sh.co.threads;
    if (strcmp(qarg, "-") == 0 && strcmp(targ, "-") == 0) {
        wm_cli_error("QUERY and TARGET are both - (standard input can be read only once)");
        return -1;
    }
    if (wm_cli_input_open(&r->q, "query", qarg, raw, WM_MAX_QUERY) < 0 ||
        wm_cli_input_open(&r->t, "target", targ, raw, 0) < 0)
        return -1;
    if (a->pairs && r->q.n_rec != r->t.n_rec) {
        size_t lone = r->q.n_rec < r->t.n_rec ? r->q.n_rec : r->t.n_rec;
        const wm_cli_input_t *more = r->q.n_rec > r->t.n_rec ? &r->q : &r->t;
        wm_cli_error("--pairs: missing mate: the query has %zu records and the target %zu; "
                     "%s record %zu ('%.200s') has no mate",
                     r->q.n_rec, r->t.n_rec, more->role, lone + 1, wm_cli_input_name(more, lone));
        return -1;
    }
    if (!a->pairs && r->t.n_rec && r->q.n_rec > SIZE_MAX / r->t.n_rec) {
        wm_cli_error("%zu query records x %zu target records is too many pairs", r->q.n_rec,
                     r->t.n_rec);
        return -1;
    }
    wm_sniff_t tsn, qsn;
    sniff_input(&r->t, &tsn);
    sniff_input(&r->q, &qsn);
    if (wm_cli_align_alphabet(a, targ, wm_sniff_is_dna(&tsn), &tsn, qarg, &qsn,
                              wm_cli_input_iupac(&r->q), &r->o.alphabet) < 0)
        return -1;
    return finish_prepare(r);
}

int wm_cli_align_prepare_read(wm_cli_align_run_t *r, const char *qarg, const char *targ,
                              const wm_sniff_t *tsn, const wm_sniff_t *qsn, int q_iupac) {
    r->o = r->a->o;
    if (wm_cli_align_alphabet(r->a, targ, wm_sniff_is_dna(tsn), tsn, qarg, qsn, q_iupac,
                              &r->o.alphabet) < 0)
        return -1;
    return finish_prepare(r);
}

/* The context: the one CUDA started while the inputs were read (under
** auto dropped, *early cleared, when the choice was the CPU), or a new one. */
static wm_status align_context(wm_cli_context_bg_t *bg, int *early, const wm_context_opts_t *co,
                               wm_context_t **cx) {
    if (*early && co->backend == WM_BACKEND_CPU) {
        wm_cli_context_abandon(bg);
        *early = 0;
    }
    return wm_cli_context_take(bg, *early, co, cx);
}

int wm_cmd_align(int argc, char **argv) {
    wm_cli_align_args_t a;
    wm_cli_align_run_t r;
    int first_arg = 0, failed = 0;

    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    wm_cli_buffer_stdout();
    wm_out_line_buffer_tty(stdout);
    wm_progress_init(&r.pg);
    r.a = &a;
    r.out = stdout;
    r.argc = argc;
    r.argv = argv;

    int rc = parse_args(argc, argv, &a, &first_arg);
    if (rc == 1) {
        wm_progress_free(&r.pg);
        return wm_cli_help_status();
    }
    int n_args = argc - first_arg;
    if (rc == 0 && wm_cli_open_output(&a.sh, argc, argv) < 0) {
        wm_progress_free(&r.pg);
        return WM_EXIT_ERROR;
    }
    if (rc == 0 && a.explain && n_args == 0) { /* the table alone */
        r.o = a.o;
        r.o.alphabet = a.sh.alphabet == WM_ALPHA_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        rc = wm_cli_context_new(&a.sh.co, &r.cx) == WM_OK ? explain(&r) : -1;
        wm_cli_note(r.cx);
        wm_context_free(r.cx);
        wm_progress_free(&r.pg);
        return rc == 0 ? 0 : WM_EXIT_ERROR;
    }
    if (rc < 0 || !(n_args == 2 || (n_args == 1 && a.pairs))) {
        if (rc == 0)
            wm_cli_error("align needs a QUERY and a TARGET, or --pairs and a pair file (%d "
                         "argument%s given)",
                         n_args, n_args == 1 ? "" : "s");
        wm_flags_usage_hint(&wm_cli_cmd_align);
        return WM_EXIT_ERROR;
    }
    const char *qarg = argv[first_arg], *targ = n_args == 2 ? argv[first_arg + 1] : NULL;
    wm_cli_dist_device(&a.sh.co);
    if (!a.no_progress) { /* the progress line moves within a long pair too */
        a.sh.co.progress = on_pair_progress;
        a.sh.co.progress_user = &r;
    }
    double t_read = wm_dist_now();
    /* --backend cuda: CUDA starts while the inputs are read. auto decides
    ** from the inputs; it starts CUDA while reading too when a look at the
    ** files says the GPU is likely, and drops it if the choice is the CPU */
    wm_cli_context_bg_t bg;
    int early = !wm_dist.active &&
                (a.sh.co.backend == WM_BACKEND_CUDA || wm_cli_align_gpu_likely(&a, qarg, targ)) &&
                wm_cli_context_start(&bg, &a.sh.co) == WM_OK;
    double t_wait = 0;
    if (wm_dist.active) {
        failed = wm_cli_align_dist(&r, qarg, targ) < 0;
    } else if (wm_cli_align_prepare(&r, qarg, targ) < 0 || ((t_read = wm_dist_now() - t_read), 0) ||
               (wm_cli_choose_align(&r, &a.sh), 0) || ((t_wait = wm_dist_now()), 0) ||
               align_context(&bg, &early, &a.sh.co, &r.cx) != WM_OK ||
               ((t_wait = wm_dist_now() - t_wait), 0) || (a.explain && explain(&r) < 0)) {
        failed = 1;
    } else {
        if (a.sh.format == WM_OUT_SAM) wm_cli_align_sam_header(&r, argc, argv);
        r.pg.unit = "cells";
        wm_progress_enable(&r.pg, !a.no_progress);
        wm_progress_start_item(&r.pg);
        double t0 = wm_dist_now(); /* read: the inputs, and the wait for the context */
        if (r.tsv || r.o.mode == WM_ALIGN_GLOBAL) {
            failed = wm_cli_align_batches(&r, 0, wm_cli_align_pair_count(&r)) < 0;
        } else if (a.pairs) {
            for (size_t i = 0; i < r.q.n_rec && !failed && !ferror(r.out); ++i)
                failed = wm_cli_align_pair(&r, i, i) < 0;
        } else {
            /* Every query (and strand) against every target record: the
            ** target's bytes go to the GPU once, not at every call
            ** (wm_target_*; on the CPU the calls are the plain ones). */
            wm_text_t all = { r.t.seq + r.t.starts[0], r.t.starts[r.t.n_rec] - r.t.starts[0], NULL,
                              0 };
            if (wm_target_new(r.cx, &all, &r.tgt) != WM_OK) r.tgt = NULL; /* plain calls */
            for (size_t i = 0; i < r.q.n_rec && !failed && !ferror(r.out); ++i)
                for (size_t j = 0; j < r.t.n_rec && !failed && !ferror(r.out); ++j)
                    failed = wm_cli_align_pair(&r, i, j) < 0;
            wm_target_free(r.tgt);
            r.tgt = NULL;
        }
        /* the last query's rows (a failed run leaves its partial query out) */
        if (!failed && wm_cli_hits_flush(&r) < 0) failed = 1;
        wm_cli_align_note_write_error(&r);
        wm_progress_clear(&r.pg);
        wm_dist_report(targ ? targ : qarg, t_read + t_wait, wm_dist_now() - t0, 0.0);
        if (wm_cli_timing_on())
            fprintf(stderr,
                    "align: inputs read %.4f s; context %s, then waited for %.4f s; pairs "
                    "viewed %.4f s, aligned %.4f s, rows %.4f s\n",
                    t_read, early ? "made while reading" : "made after reading", t_wait, r.t_views,
                    r.t_lib, r.t_rows);
        wm_cli_pairs_timing(r.cx);
    }
    if (early && failed) wm_cli_context_abandon(&bg);
    wm_cli_note(r.cx);
    wm_context_free(r.cx);
    wm_cli_input_close(&r.q);
    wm_cli_input_close(&r.t);
    wm_cli_pairtsv_close(&r.pt);
    wm_cli_align_free_strands(&r);
    wm_progress_free(&r.pg);

    /* A closed pipe (1) ends quietly with the status of what was done. */
    if (wm_cli_flush_stdout(r.write_failed, r.write_errno) < 0 || failed) return WM_EXIT_ERROR;
    return r.n_printed > 0 ? WM_EXIT_MATCH : WM_EXIT_NOMATCH;
}
