/*
** cmd_dtw.c -- `warpmatch dtw [OPTIONS] QUERY SERIES`: where each query
** signal fits best in one long series under dynamic time warping
** (subsequence DTW), the DTW distance of two whole signals (global), or the
** UCR Suite's z-normalised, banded window search (ucr).
**
** Flow: parse the options (the flag table, and dtw's own here) -> read
** QUERY (several signals) and SERIES (one) through dtwio.c -> check what
** the library would refuse, naming the file and query -> one context -> the
** queries in groups of equal band radius (a fractional --window gives each
** query length its own radius), each group in wm_dtw_many_target calls (the
** GPU batches them; the series is uploaded once) -> the lines, queries in file order (out_dtw.c). The run is
** dist_dtw.c's, which shares the queries out under MPI. Every input error
** is found before the first line is printed.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"
#include "cli.h"
#include "choose.h"
#include "dtw.h"
#include "dtwio.h"
#include "out.h"
#include "mpi/dist.h"

/* Same order as wm_dtw_mode_t and wm_dtw_cost_t. */
static const char *const mode_words[] = { "subsequence", "global", "ucr", "matrix", NULL };
static const char *const cost_words[] = { "abs", "squared", NULL };
static const char *const dtype_words[] = { "f32", "f64", NULL };
static const char *const precision_words[] = { "f64", "f32", NULL }; /* as wm_dtw_precision_t */

/* ---- options --------------------------------------------------------------- */

/* A whole-string strtod: 0 and *out, or -1 (empty, blanks, trailing bytes). */
static int parse_double(const char *s, double *out) {
    char *end;
    if (s[0] == '\0' || s[0] == ' ' || s[0] == '\t') return -1;
    errno = 0;
    *out = strtod(s, &end);
    return *end == '\0' ? 0 : -1;
}

/* --window: a radius in samples, or a fraction below 1 (a '.' or an 'e'). */
static int parse_window(const char *s, wm_cli_dtw_args_t *a) {
    uint64_t v;
    double f;
    if (strpbrk(s, ".eE") != NULL) {
        if (parse_double(s, &f) == 0 && f >= 0 && f < 1) {
            a->window_kind = 2;
            a->window_frac = f;
            return 0;
        }
    } else if (wm_cli_parse_u64(s, INT64_MAX, 0, &v) == 0) {
        a->window_kind = 1;
        a->o.window = (int64_t)v;
        return 0;
    }
    wm_cli_error("invalid value '%s' for --window (expected a radius in samples, a whole "
                 "number, or a fraction below 1 such as 0.1)",
                 s);
    return -1;
}

/* The flags that are dtw's own (wm_flag_own_t). */
static int apply_own(const wm_flag_t *f, const char *val, void *args) {
    wm_cli_dtw_args_t *a = args;
    char name[64];
    uint64_t v;
    double d;
    int i;
    wm_flag_display(f, name, sizeof name);
    switch (f->id) {
    case WM_F_MODE:
        if ((i = wm_cli_choose("--mode", val, mode_words)) < 0) return -1;
        a->matrix = i == 3; /* a matrix of global distances */
        a->o.mode = a->matrix ? WM_DTW_GLOBAL : (wm_dtw_mode_t)i;
        break;
    case WM_F_KNN:
        if (wm_cli_option_u64("--knn", val, UINT32_MAX, 0, &v) < 0) return -1;
        if (v == 0) {
            wm_cli_error("invalid value '0' for --knn (expected at least 1)");
            return -1;
        }
        a->knn = v;
        break;
    case WM_F_NPY: a->npy = val; break;
    case WM_F_COST:
        if ((i = wm_cli_choose("--cost", val, cost_words)) < 0) return -1;
        a->o.cost = (wm_dtw_cost_t)i;
        a->cost_given = 1;
        break;
    case WM_F_WINDOW: return parse_window(val, a);
    case WM_F_ZNORM: a->o.znorm = 1; break;
    case WM_F_LENGTH:
        if (wm_cli_parse_u64(val, UINT64_MAX, 0, &v) < 0 || v == 0) {
            wm_cli_error("invalid value '%s' for --length (expected a whole number of "
                         "samples, at least 1)",
                         val);
            return -1;
        }
        a->o.length = v;
        a->length_given = 1;
        break;
    case WM_F_TOP:
        if (wm_cli_option_u64("--top", val, UINT64_MAX, 0, &v) < 0) return -1;
        if (v == 0) {
            wm_cli_error("invalid value '0' for --top (expected at least 1; "
                         "--max-distance D without --top prints every match within D)");
            return -1;
        }
        a->o.top = v;
        a->top_given = 1;
        break;
    case 'k':
        if (parse_double(val, &d) < 0 || !isfinite(d) || d < 0) {
            wm_cli_error("invalid value '%s' for %s (expected a finite number >= 0)", val, name);
            return -1;
        }
        a->o.max_distance = d;
        a->maxd_given = 1;
        break;
    case WM_F_PATH: a->o.path = 1; break;
    case WM_F_SQRT: a->sqrt_out = 1; break;
    case WM_F_LABELS: a->labels = 1; break;
    case WM_F_NO_LABELS: a->labels = -1; break;
    case WM_F_FORCE_RAW: a->force_raw = 1; break;
    case WM_F_NO_PROGRESS: a->progress = 0; break;
    case WM_F_SERIES_FORMAT: /* --series-format, or its old --format */
    case WM_F_QUERY_FORMAT:
        if ((i = wm_cli_choose(name, val, wm_cli_sigfmt_words)) < 0) return -1;
        if (f->id == WM_F_SERIES_FORMAT) {
            a->fmt = wm_cli_sigfmt_values[i];
            a->fmt_given = 1;
        } else {
            a->qfmt = wm_cli_sigfmt_values[i];
            a->qfmt_given = 1;
        }
        break;
    case WM_F_DTYPE:
        if ((i = wm_cli_choose("--dtype", val, dtype_words)) < 0) return -1;
        a->dtype = i == 0 ? WM_SIGFMT_F32 : WM_SIGFMT_F64;
        a->dtype_given = 1;
        break;
    case WM_F_PRECISION:
        if ((i = wm_cli_choose("--precision", val, precision_words)) < 0) return -1;
        a->o.precision = (wm_dtw_precision_t)i;
        break;
    case WM_F_COLUMN: a->column = val; break;
    case WM_F_QUERY_COLUMN: a->qcolumn = val; break;
    case WM_F_PIECE:
        if (wm_cli_parse_u64(val, UINT64_MAX / 8, 0, &v) < 0 || v == 0) {
            wm_cli_error("invalid value '%s' for --piece (expected a whole number of "
                         "samples, at least 1)",
                         val);
            return -1;
        }
        a->sh.co.chunk_bytes = 8 * v; /* the library cuts chunk_bytes / 8 samples */
        break;
    }
    return 0;
}

/* Returns 0 to go on, 1 after --help (exit 0), -1 on a bad option (exit 2).
** *first_arg is the index of the first non-option argument. */
static int parse_args(int argc, char **argv, wm_cli_dtw_args_t *a, int *first_arg) {
    a->o = wm_dtw_opts_default();
    a->progress = 1;
    int rc = wm_flags_parse(&wm_cli_cmd_dtw, argc, argv, &a->sh, apply_own, a, first_arg);
    if (rc != 0) return rc;
    if ((a->knn || a->npy) && !a->matrix) {
        wm_cli_error("%s needs --mode matrix", a->knn ? "--knn" : "--npy");
        return -1;
    }
    if (a->matrix && (a->top_given || a->maxd_given || a->o.path || a->length_given)) {
        wm_cli_error("%s: --mode matrix prints every pair's distance (--knn K: the K "
                     "nearest)",
                     a->top_given    ? "--top"
                     : a->maxd_given ? "--max-distance"
                     : a->o.path     ? "--path"
                                     : "--length");
        return -1;
    }
    if (a->window_kind != 0 && a->o.mode == WM_DTW_SUBSEQUENCE) {
        wm_cli_error("--window needs --mode global or ucr (a subsequence match has no fixed "
                     "diagonal to band around)");
        return -1;
    }
    if (a->length_given && a->o.mode != WM_DTW_UCR) {
        wm_cli_error("--length is the window length of --mode ucr; the %s mode matches the "
                     "whole query",
                     mode_words[a->o.mode]);
        return -1;
    }
    if (a->o.precision == WM_DTW_F32 && a->o.mode == WM_DTW_UCR) {
        wm_cli_error("--precision f32: ucr mode runs in float64 only (its lower bounds prune "
                     "windows against exact float64 sums)");
        return -1;
    }
    if (!a->cost_given && a->o.mode == WM_DTW_UCR)
        a->o.cost = WM_DTW_SQUARED;                   /* as the UCR Suite */
    if (a->maxd_given && !a->top_given) a->o.top = 0; /* every match within D, series order */
    if (a->sqrt_out && a->o.cost != WM_DTW_SQUARED) {
        wm_cli_error("--sqrt needs --cost squared (the root of a sum of squares, as "
                     "dtaidistance prints; an abs cost is already in the samples' unit)");
        return -1;
    }
    if (a->sqrt_out && a->maxd_given) {
        /* D is in the unit printed: the library compares the sum of squares
        ** with D^2 (one step up, so that rounding loses no match), and the
        ** print drops what is over D after the root. */
        a->maxd_root = a->o.max_distance;
        a->o.max_distance = nextafter(a->o.max_distance * a->o.max_distance, INFINITY);
    }
    if (a->dtype_given) {
        if (!a->fmt_given) a->fmt = a->dtype;
        if (!a->qfmt_given) a->qfmt = a->dtype;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------ */

static const char *shown(const char *path) {
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* "query 3" or "query 'beat'" for messages. */
static const char *query_word(const wm_cli_dtw_run_t *r, size_t i, char *buf, size_t len) {
    if (r->q.a[i].name != NULL && r->q.a[i].name[0] != '\0')
        snprintf(buf, len, "query '%.200s'", r->q.a[i].name);
    else snprintf(buf, len, "query %zu", i);
    return buf;
}

int wm_cli_dtw_prepare(wm_cli_dtw_run_t *r) {
    const wm_cli_dtw_args_t *a = r->a;
    char qw[256];
    if (strcmp(r->qpath, "-") == 0 && strcmp(r->spath, "-") == 0) {
        wm_cli_error("QUERY and SERIES are both - (standard input can be read only once)");
        return -1;
    }
    if (wm_cli_dtw_read(r->qpath, a->qfmt, a->qcolumn, 1, a->labels, a->force_raw, 0, &r->q) < 0 ||
        wm_cli_dtw_read(r->spath, a->fmt, a->column, 0, a->labels, a->force_raw, 0, &r->s) < 0)
        return -1;
    uint64_t n = r->s.a[0].n;
    r->radius = malloc(r->q.n * sizeof *r->radius);
    r->res = calloc(r->q.n, sizeof *r->res);
    if (!r->radius || !r->res) {
        wm_cli_error("out of memory for %zu queries", r->q.n);
        return -1;
    }
    for (size_t i = 0; i < r->q.n; i++) {
        uint64_t m = r->q.a[i].n;
        if (m > WM_DTW_MAX_QUERY) {
            wm_cli_error("%s: %s has %llu samples; at most %u are accepted", shown(r->qpath),
                         query_word(r, i, qw, sizeof qw), (unsigned long long)m, WM_DTW_MAX_QUERY);
            return -1;
        }
        uint64_t len = a->o.length ? a->o.length : m;
        if (a->o.mode == WM_DTW_UCR && len > n) {
            wm_cli_error("ucr mode: the window of %llu samples (%s%s) is longer than the "
                         "series %s (%llu samples)",
                         (unsigned long long)len, a->o.length ? "--length" : "the length of ",
                         a->o.length ? "" : query_word(r, i, qw, sizeof qw), shown(r->spath),
                         (unsigned long long)n);
            return -1;
        }
        if (a->window_kind == 2) {
            /* the fraction of the query (ucr) or of the longer signal (global) */
            uint64_t of = a->o.mode == WM_DTW_UCR ? m : (m > n ? m : n);
            r->radius[i] = (int64_t)floor(a->window_frac * (double)of);
        } else {
            r->radius[i] = a->window_kind == 1 ? a->o.window : -1;
        }
    }
    wm_cli_choose_dtw(r); /* --backend auto for these signals */
    return 0;
}

static const int64_t *sort_radius;
static int by_radius(const void *x, const void *y) {
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    if (sort_radius[i] != sort_radius[j]) return sort_radius[i] < sort_radius[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* The library's message for a failed group, its "query K" (K counted in the
** group) turned back into the query's place in QUERY. */
static void report_failure(const wm_cli_dtw_run_t *r, const size_t *grp, size_t cnt, wm_status st) {
    const char *msg = wm_cli_status_msg(r->cx, st);
    size_t k = 0;
    int used = 0;
    char qw[256];
    if (sscanf(msg, "query %zu%n", &k, &used) == 1 && used > 0 && k < cnt)
        wm_cli_error("cannot match %s against %s (%s mode): %s%s", shown(r->qpath), shown(r->spath),
                     mode_words[r->a->o.mode], query_word(r, grp[k], qw, sizeof qw), msg + used);
    else
        wm_cli_error("cannot match %s against %s (%s mode): %s", shown(r->qpath), shown(r->spath),
                     mode_words[r->a->o.mode], msg);
}

/* The DP cells of query i against the series (what the progress line counts). */
static uint64_t query_cells(const wm_cli_dtw_run_t *r, size_t i) {
    uint64_t m = r->q.a[i].n, n = r->s.a[0].n;
    return m > UINT64_MAX / n ? UINT64_MAX / 64 : m * n;
}

/* In groups of one band radius, one wm_dtw_many call each (or a few, for
** the progress line). */
int wm_cli_dtw_match(wm_cli_dtw_run_t *r, size_t from, size_t to) {
    size_t nq = to - from;
    size_t *order = malloc(nq * sizeof *order);
    const double **qv = malloc(nq * sizeof *qv);
    size_t *lens = malloc(nq * sizeof *lens);
    wm_dtw_matches_t *out = calloc(nq, sizeof *out);
    unsigned char *ready = NULL; /* the queries done */
    wm_target_t *series = NULL;
    int rc = 0;
    if (!order || !qv || !lens || !out) {
        wm_cli_error("out of memory for %zu queries", nq);
        rc = -1;
        goto done;
    }
    /* One process prints each query's rows once it and every query before
    ** it are done (the queries run grouped by band radius: in order when
    ** they share one); ranks print theirs at the end, gathered. */
    int stream = !wm_dist.active;
    /* the series stays on the GPU across the calls (uploaded and checked
    ** once) */
    if (wm_target_new_series(r->cx, r->s.a[0].v, r->s.a[0].n, &series) != WM_OK) {
        wm_cli_error("out of memory for the series");
        rc = -1;
        goto done;
    }
    ready = calloc(nq ? nq : 1, 1); /* none: the rows wait for the end */
    r->next_print = from;
    uint64_t total = 0, done_cells = 0;
    wm_progress_start_item(&r->pg); /* the rate counts the matching alone */
    for (size_t i = from; i < to; i++) total += query_cells(r, i);
    for (size_t i = 0; i < nq; i++) order[i] = from + i;
    sort_radius = r->radius;
    qsort(order, nq, sizeof *order, by_radius);
    for (size_t g = 0; g < nq;) {
        size_t e = g;
        while (e < nq && r->radius[order[e]] == r->radius[order[g]]) e++;
        for (size_t k = g; k < e; k++) {
            qv[k - g] = r->q.a[order[k]].v;
            lens[k - g] = (size_t)r->q.a[order[k]].n;
        }
        wm_dtw_opts_t o = r->a->o;
        o.window = r->radius[order[g]];
        /* Calls of about 1/64 of the cells each (at least 2^28 cells, ~0.1 s
        ** on a core, so a small job stays one call), so that the progress
        ** line moves (the library reports nothing while it matches) and
        ** finished queries' rows go out; one call for the group when neither
        ** is wanted (ranks: their rows are gathered at the end). */
        uint64_t per_call = total / 64 > (1ull << 28) ? total / 64 : 1ull << 28;
        for (size_t b = g; b < e;) {
            size_t c = e;
            if (r->pg.enabled || stream)
                for (uint64_t cells = 0, c0 = c = b; c < e && (c == c0 || cells < per_call); c++)
                    cells += query_cells(r, order[c]);
            wm_status st = wm_dtw_many_target(r->cx, qv + (b - g), lens + (b - g), c - b, series,
                                              &o, out + (b - g));
            if (st != WM_OK) {
                report_failure(r, order + b, c - b, st);
                rc = -1;
                goto done;
            }
            for (size_t k = b; k < c; k++) {
                r->res[order[k]] = out[k - g];
                done_cells += query_cells(r, order[k]);
                if (ready) ready[order[k] - from] = 1;
            }
            if (stream && ready) {
                size_t p0 = r->next_print;
                while (r->next_print < to && ready[r->next_print - from]) r->next_print++;
                if (r->next_print > p0) {
                    wm_cli_dtw_print(r, stdout, p0, r->next_print);
                    wm_out_flush_due(stdout, &r->t_flush, 0.5);
                }
            }
            wm_progress_report(done_cells, total, &r->pg);
            b = c;
        }
        g = e;
    }
done:
    wm_target_free(series);
    free(ready);
    free(order);
    free(qv);
    free(lens);
    free(out);
    return rc;
}

void wm_cli_dtw_print(wm_cli_dtw_run_t *r, FILE *out, size_t from, size_t to) {
    const wm_cli_dtw_args_t *a = r->a;
    int json = a->sh.format == WM_OUT_JSON;
    wm_progress_clear(&r->pg);
    for (size_t i = from; i < to && !ferror(out); i++) {
        for (size_t k = 0; k < r->res[i].n; k++) {
            wm_dtw_match_t m = r->res[i].a[k];
            const int f32 = a->o.precision == WM_DTW_F32;
            if (a->sqrt_out) { /* f32: the float root of the float sum */
                m.distance = f32 ? (double)sqrtf((float)m.distance) : sqrt(m.distance);
                if (a->maxd_given && !(m.distance <= a->maxd_root)) continue;
            }
            wm_out_dtw_row(out, json, &r->q.a[i], i, &m, a->o.path, f32);
            r->n_printed++;
        }
    }
}

int wm_cmd_dtw(int argc, char **argv) {
    wm_cli_dtw_args_t a;
    wm_cli_dtw_run_t r;
    int first_arg = 0;

    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    wm_cli_buffer_stdout();
    r.a = &a;
    wm_progress_init(&r.pg); /* its first second counts from here */

    int rc = parse_args(argc, argv, &a, &first_arg);
    if (rc != 0) wm_progress_free(&r.pg);
    if (rc == 1) return wm_cli_help_status();
    int n_args = argc - first_arg;
    if (rc == 0 && wm_cli_open_output(&a.sh, argc, argv) < 0) {
        wm_progress_free(&r.pg);
        return WM_EXIT_ERROR;
    }
    if (rc == 0 && a.matrix) {
        wm_progress_free(&r.pg);
        return wm_cli_dtw_matrix(&a, n_args, argv + first_arg);
    }
    if (rc < 0 || n_args != 2) {
        if (rc == 0)
            wm_cli_error("dtw needs a QUERY and a SERIES (%d argument%s given)", n_args,
                         n_args == 1 ? "" : "s");
        wm_flags_usage_hint(&wm_cli_cmd_dtw);
        if (rc == 0) wm_progress_free(&r.pg);
        return WM_EXIT_ERROR;
    }
    r.qpath = argv[first_arg];
    r.spath = argv[first_arg + 1];
    wm_cli_dist_device(&a.sh.co);
    /* Under MPI the ranks' lines would fight over one terminal. */
    wm_progress_enable(&r.pg, a.progress && !wm_dist.active);
    int failed = wm_cli_dtw_dist(&r) < 0;
    wm_progress_clear(&r.pg);
    wm_progress_free(&r.pg);

    if (r.res)
        for (size_t i = 0; i < r.q.n; i++) wm_dtw_matches_free(&r.res[i]);
    free(r.res);
    free(r.radius);
    wm_cli_note(r.cx);
    wm_context_free(r.cx);
    wm_sigs_free(&r.q);
    wm_sigs_free(&r.s);

    /* A closed pipe (1) ends quietly with the status of what was done. */
    if (wm_cli_flush_stdout(r.write_failed, r.write_errno) < 0 || failed) return WM_EXIT_ERROR;
    return r.n_printed > 0 ? WM_EXIT_MATCH : WM_EXIT_NOMATCH;
}
