/*
** dist_align.c -- `warpmatch align` over the ranks of an MPI job.
**
** Infix with a TARGET file: every rank reads its own byte range of the
** target (src/io/seqrange.h) with a halo of m + min(k, m) bytes before it,
** the longest alignment that can matter, and aligns every query to its
** part of each target record. A rank owns the ends whose last byte is in
** its range; an end in the halo (an earlier rank's) can only look worse
** here than it is, so when the best end found lies there, an earlier rank
** has an end as good or better further left, and this rank keeps only the
** owned ends among those listed. Rank 0 gathers each rank's alignments
** and, per (query, target record), keeps those at the smallest distance:
** the first (the leftmost end) or, with --all-ends, all of them in rank
** order.
** Everything else (global mode, --pairs, a literal or gzip target) splits
** the list of pairs among the ranks; standard input is read by rank 0
** alone, which then does all the work.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "io/seqrange.h"
#include "mpi/dist.h"
#include "cli.h"
#include "align.h"

/* One alignment on its way to rank 0. */
typedef struct {
    uint64_t query, record, distance, start, end, strand;
    uint32_t name_len, cigar_len; /* then the name and the CIGAR bytes */
} dal_head_t;

typedef struct {
    char *p;
    size_t n, cap;
    int failed;
} bytes_t;

static void bytes_put(bytes_t *b, const void *x, size_t n) {
    if (b->failed) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->failed = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}

static void put_alignment(bytes_t *b, uint64_t q, uint64_t rec, const char *name,
                          const wm_alignment_t *al, uint64_t shift, int strand) {
    dal_head_t h = { q,
                     rec,
                     al->distance,
                     al->start + shift,
                     al->end + shift,
                     (uint64_t)strand,
                     (uint32_t)strlen(name),
                     al->cigar ? (uint32_t)strlen(al->cigar) : 0 };
    bytes_put(b, &h, sizeof h);
    bytes_put(b, name, h.name_len);
    if (al->cigar) bytes_put(b, al->cigar, h.cigar_len);
}

/* Align query qi to local target record ti of the range and append what this
** rank owns. Returns 0 or -1 (message in why). */
static int align_owned(wm_cli_align_run_t *r, const wm_range_t *R, const char *tname, size_t qi,
                       size_t ti, bytes_t *out, char *why, size_t whylen) {
    uint64_t m, n = R->text.rec_start[ti + 1] - R->text.rec_start[ti];
    const uint8_t *q = wm_cli_input_rec(&r->q, qi, &m);
    const uint8_t *t = R->text.seq + R->text.rec_start[ti];
    uint64_t own_after = ti == 0 && R->continues ? R->halo : 0; /* ends > this are ours */
    int first_end_ours = own_after == 0;                        /* end 0 too */
    for (int strand = 0; strand <= r->both_strands; ++strand) {
        wm_alignments_t res = { NULL, 0 };
        wm_status st =
            wm_align(r->cx, strand ? wm_cli_align_rc(r, qi) : q, (size_t)m, t, n, &r->o, &res);
        if (st != WM_OK) {
            snprintf(why, whylen, "cannot align query '%.200s'%s to target '%.200s' (%s mode): %s",
                     wm_cli_input_name(&r->q, qi), strand ? " (reverse complement)" : "", tname,
                     wm_cli_align_mode_words[r->o.mode], wm_cli_status_msg(r->cx, st));
            wm_alignments_free(&res);
            return -1;
        }
        /* Without --all-ends a best end in the halo means that an earlier rank
        ** has an end at least as good further left: nothing to say. With it,
        ** every end at the best distance is listed: keep the owned ones. */
        for (size_t i = 0; i < res.n; ++i) {
            const wm_alignment_t *al = &res.a[i];
            if (al->end > own_after || (first_end_ours && al->end == 0))
                put_alignment(out, qi, R->grec[ti], tname, al, R->base[ti], strand);
        }
        wm_alignments_free(&res);
    }
    return 0;
}

typedef struct {
    dal_head_t h;
    const char *name, *cigar;
    size_t order;
} dal_t;

static int dal_cmp(const void *x, const void *y) {
    const dal_t *a = x, *b = y;
    if (a->h.query != b->h.query) return a->h.query < b->h.query ? -1 : 1;
    if (a->h.record != b->h.record) return a->h.record < b->h.record ? -1 : 1;
    if (a->h.strand != b->h.strand) return a->h.strand < b->h.strand ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Rank 0: every rank's alignments, in (query, record, rank) order; print the
** best of each pair. Returns -1 when out of memory. */
static int print_merged(wm_cli_align_run_t *r, const char *all, uint64_t len) {
    size_t n = 0, cap = 1024;
    dal_t *v = malloc(cap * sizeof *v);
    if (!v) return -1;
    for (uint64_t at = 0; at < len;) {
        if (n == cap) {
            dal_t *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) {
                free(v);
                return -1;
            }
            v = nv;
        }
        memcpy(&v[n].h, all + at, sizeof v[n].h);
        at += sizeof v[n].h;
        v[n].name = all + at;
        at += v[n].h.name_len;
        v[n].cigar = all + at;
        at += v[n].h.cigar_len;
        v[n].order = n;
        n++;
    }
    qsort(v, n, sizeof *v, dal_cmp);
    char name[4096];
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0;) {
        size_t j = i;
        uint64_t best = UINT64_MAX;
        while (j < n && v[j].h.query == v[i].h.query && v[j].h.record == v[i].h.record &&
               v[j].h.strand == v[i].h.strand) {
            if (v[j].h.distance < best) best = v[j].h.distance;
            j++;
        }
        size_t qi = (size_t)v[i].h.query;
        uint64_t m;
        const uint8_t *q = wm_cli_input_rec(&r->q, qi, &m);
        if (wm_cli_hits_begin(r, qi, wm_cli_input_name(&r->q, qi), q, m, NULL) < 0) rc = -1;
        for (size_t k = i; k < j && rc == 0; ++k) {
            if (v[k].h.distance != best) continue;
            size_t nl = v[k].h.name_len < sizeof name - 1 ? v[k].h.name_len : sizeof name - 1;
            memcpy(name, v[k].name, nl);
            name[nl] = '\0';
            char *cigar = NULL;
            if (r->o.cigar) {
                cigar = malloc(v[k].h.cigar_len + 1);
                if (!cigar) {
                    free(v);
                    return -1;
                }
                memcpy(cigar, v[k].cigar, v[k].h.cigar_len);
                cigar[v[k].h.cigar_len] = '\0';
            }
            /* the record's length is not known here: PAF and SAM, which
            ** print it, never split the target */
            wm_alignment_t al = { v[k].h.distance, v[k].h.start, v[k].h.end, cigar };
            wm_cli_hits_add(r, (size_t)v[k].h.record, name, 0, (int)v[k].h.strand, &al);
            free(al.cigar);
            if (!r->o.all_ends) break;
        }
        i = j;
    }
    if (rc == 0 && wm_cli_hits_flush(r) < 0) rc = -1;
    free(v);
    return rc;
}

/* A record of the target that no rank may leave empty (infix needs one). */
static int check_split_records(const wm_range_t *R, const char *targ, char *why, size_t len) {
    uint64_t tail = wm_range_record_tail(R->sums, (uint64_t)wm_dist.size, (uint64_t)wm_dist.rank);
    for (size_t i = R->continues ? 1 : 0; i < R->text.n_rec; ++i) {
        uint64_t n = R->text.rec_start[i + 1] - R->text.rec_start[i];
        if (i + 1 == R->text.n_rec) n += tail;
        if (n > 0) continue;
        if (R->format == WM_FMT_PLAIN)
            snprintf(why, len, "%s: %s", targ,
                     R->size == 0 ? "the target file is empty"
                                  : "no target sequence (only blanks "
                                    "and line breaks)");
        else
            snprintf(why, len, "%.1000s: record %llu '%.200s' is empty (no sequence)", targ,
                     (unsigned long long)R->grec[i] + 1, R->names[i]);
        return -1;
    }
    return 0;
}

/* The infix job over a split target. Returns 0 or -1 (printed). */
static int align_split(wm_cli_align_run_t *r, const char *qarg, const char *targ, wm_range_t *R,
                       double read_s) {
    char why[2048] = "";
    int failed = 0;
    /* The query as one process reads it; the target's records come from R. */
    int raw = r->a->sh.alphabet == WM_ALPHA_TEXT;
    r->o = r->a->o;
    failed = wm_cli_input_open(&r->q, "query", qarg, raw, WM_MAX_QUERY) < 0;
    if (wm_cli_dist_agree(failed)) return -1;
    if (check_split_records(R, targ, why, sizeof why) < 0) failed = 1;
    if (wm_cli_dist_failed(failed, why, 0)) return -1;
    r->t.is_file = 1;
    r->t.is_seqfile = R->format != WM_FMT_PLAIN;
    r->t.arg = targ;
    /* rank 0's range holds the target's first bytes: its look decides for all */
    wm_sniff_t tsn, qsn;
    memset(&tsn, 0, sizeof tsn);
    memset(&qsn, 0, sizeof qsn);
    wm_sniff_text(&tsn, &R->text);
    wm_sniff_add(&qsn, r->q.seq, r->q.starts[r->q.n_rec] - r->q.starts[0]);
    int target_dna = wm_dist_bcast_int(wm_sniff_is_dna(&tsn));
    failed = wm_cli_align_alphabet(r->a, targ, target_dna, &tsn, qarg, &qsn,
                                   wm_cli_input_iupac(&r->q), &r->o.alphabet) < 0;
    if (!failed) failed = wm_cli_align_strands(r) < 0;
    if (wm_cli_dist_agree(failed)) return -1;
    failed = wm_cli_context_new(&r->a->sh.co, &r->cx) != WM_OK;
    if (wm_cli_dist_agree(failed)) return -1;

    double t1 = wm_dist_now();
    bytes_t out = { 0 };
    for (size_t qi = 0; qi < r->q.n_rec && !failed; ++qi)
        for (size_t ti = 0; ti < R->text.n_rec && !failed; ++ti) {
            const char *tname = r->t.is_seqfile ? R->names[ti] : targ;
            failed = align_owned(r, R, tname, qi, ti, &out, why, sizeof why) < 0;
        }
    if (out.failed && !failed) {
        failed = 1;
        snprintf(why, sizeof why, "%s", wm_strerror(WM_NOMEM));
    }
    if (wm_cli_dist_failed(failed, why, 0)) {
        free(out.p);
        return -1;
    }
    double t2 = wm_dist_now();
    void *all = NULL;
    uint64_t *lens = malloc((size_t)wm_dist.size * sizeof *lens);
    if (!lens || wm_dist_gather(out.p, out.n, &all, lens) < 0) wm_dist_abort(WM_EXIT_ERROR);
    int rc = 0;
    if (wm_dist.rank == 0) {
        uint64_t total = 0;
        for (int i = 0; i < wm_dist.size; ++i) total += lens[i];
        rc = print_merged(r, all, total);
        if (rc < 0) wm_cli_error("%s", wm_strerror(WM_NOMEM));
        wm_cli_align_note_write_error(r);
    }
    free(all);
    free(lens);
    free(out.p);
    /* Every rank leaves with rank 0's count of lines. */
    r->n_printed = wm_dist_sum(wm_dist.rank == 0 ? r->n_printed : 0);
    rc = wm_dist_bcast_int(rc);
    wm_dist_report(targ, read_s, t2 - t1, wm_dist_now() - t2);
    return rc;
}

/* Everything but a split infix target: rank r takes its share of the pairs
** in the one-process order (query-major), its lines go to rank 0 in rank
** order. Standard input is rank 0's alone, so with it rank 0 does all. */
static int align_share(wm_cli_align_run_t *r, const char *qarg, const char *targ) {
    const wm_cli_align_args_t *a = r->a;
    int stdin_used = strcmp(qarg, "-") == 0 || (targ && strcmp(targ, "-") == 0);
    int idle = stdin_used && wm_dist.rank != 0;
    double t0 = wm_dist_now();
    /* --backend cuda: CUDA starts (0.3-1 s) while the inputs are read */
    wm_cli_context_bg_t bg;
    int early = !idle && wm_cli_context_start_cuda(&bg, &a->sh.co);
    /* --pairs of two FASTA files: each rank reads its pairs' records alone */
    size_t lo = 0, hi = 0;
    int split = wm_cli_dist_pairs_read(r, qarg, targ, &lo, &hi);
    if (split < 0 ||
        (!split && wm_cli_dist_agree(!idle && wm_cli_align_prepare(r, qarg, targ) < 0))) {
        if (early) wm_cli_context_abandon(&bg);
        return -1;
    }
    if (wm_cli_dist_agree(!idle && wm_cli_context_take(&bg, early, &a->sh.co, &r->cx) != WM_OK))
        return -1;
    double t1 = wm_dist_now(); /* read: the inputs and the context */

    if (wm_dist.rank == 0 && a->sh.format == WM_OUT_SAM)
        wm_cli_align_sam_header(r, r->argc, r->argv);
    wm_cli_lines_t lines;
    FILE *stdout_was = r->out;
    r->out = wm_cli_lines_open(&lines);
    int failed = 0;
    if (split) { /* local records 0 .. hi - lo - 1 are pairs lo .. hi - 1 */
        if (r->o.mode == WM_ALIGN_GLOBAL) {
            failed = wm_cli_align_batches(r, 0, hi - lo) < 0;
        } else {
            for (size_t k = 0; k < hi - lo && !failed; ++k) failed = wm_cli_align_pair(r, k, k) < 0;
        }
        if (!failed && wm_cli_hits_flush(r) < 0) failed = 1;
    } else if (!idle) {
        if (r->tsv || r->o.mode == WM_ALIGN_GLOBAL) {
            /* all-vs-all: whole queries to a rank, so that --best and SAM's
            ** primary see every target record of a query */
            size_t per_query = r->tsv || a->pairs ? 1 : r->t.n_rec;
            wm_cli_dist_share(wm_cli_align_pair_count(r) / (per_query ? per_query : 1), stdin_used,
                              &lo, &hi);
            failed = wm_cli_align_batches(r, lo * per_query, hi * per_query) < 0;
        } else {
            wm_cli_dist_share(r->q.n_rec, stdin_used, &lo, &hi);
            if (!a->pairs) { /* whole queries, as above */
                lo *= r->t.n_rec;
                hi *= r->t.n_rec;
            }
            for (size_t k = lo; k < hi && !failed; ++k) {
                size_t qi = a->pairs ? k : k / r->t.n_rec, ti = a->pairs ? k : k % r->t.n_rec;
                failed = wm_cli_align_pair(r, qi, ti) < 0;
            }
        }
        if (!failed && wm_cli_hits_flush(r) < 0) failed = 1;
    }
    r->out = stdout_was;
    int bad = wm_cli_dist_agree(failed);
    double t2 = wm_dist_now();
    if (wm_cli_lines_write(&lines, r->out) < 0) wm_cli_align_note_write_error(r);
    r->n_printed = wm_dist_sum(r->n_printed);
    if (!bad) wm_dist_report(targ ? targ : qarg, t1 - t0, t2 - t1, wm_dist_now() - t2);
    if (wm_cli_timing_on() && wm_dist.rank == 0)
        fprintf(stderr, "align, rank 0: pairs viewed %.4f s, aligned %.4f s, rows %.4f s\n",
                r->t_views, r->t_lib, r->t_rows);
    if (wm_dist.rank == 0) wm_cli_pairs_timing(r->cx);
    return bad ? -1 : 0;
}

/* Under MPI: split the target when it is a file that can be read by byte
** range, else share the pairs. */
int wm_cli_align_dist(wm_cli_align_run_t *r, const char *qarg, const char *targ) {
    if (targ == NULL || r->a->pairs || r->a->o.mode == WM_ALIGN_GLOBAL ||
        r->a->sh.format == WM_OUT_SAM || r->a->sh.format == WM_OUT_PAF || strcmp(targ, "-") == 0 ||
        strcmp(qarg, "-") == 0 || access(targ, R_OK) != 0)
        return align_share(r, qarg, targ);
    /* The halo: the longest alignment any query can need, m + min(k, m). */
    wm_cli_input_t q;
    memset(&q, 0, sizeof q);
    int raw = r->a->sh.alphabet == WM_ALPHA_TEXT;
    int failed = wm_cli_input_open(&q, "query", qarg, raw, WM_MAX_QUERY) < 0;
    uint64_t halo = 0;
    for (size_t i = 0; !failed && i < q.n_rec; ++i) {
        uint64_t m, k = r->a->o.max_distance < 0 ? UINT64_MAX : (uint64_t)r->a->o.max_distance;
        (void)wm_cli_input_rec(&q, i, &m);
        uint64_t h = m + (k < m ? k : m);
        if (h > halo) halo = h;
    }
    wm_cli_input_close(&q);
    if (wm_cli_dist_agree(failed)) return -1;
    wm_range_t R;
    char err[1024] = "";
    double t0 = wm_dist_now();
    wm_status st =
        wm_range_read(&R, targ, raw ? WM_RANGE_RECORDS : WM_RANGE_SEQUENCE, (uint64_t)wm_dist.rank,
                      (uint64_t)wm_dist.size, halo, wm_dist_allgather_cb, NULL, err, sizeof err);
    if (wm_cli_dist_failed(st != WM_OK, err[0] ? err : wm_strerror(st), 0)) {
        wm_range_close(&R);
        return -1;
    }
    double read_s = wm_dist_now() - t0;
    int rc = R.whole ? align_share(r, qarg, targ) : align_split(r, qarg, targ, &R, read_s);
    wm_range_close(&R);
    return rc;
}
