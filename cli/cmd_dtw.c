/*
** cmd_dtw.c -- `warpmatch dtw [OPTIONS] QUERY SERIES`: where each query
** signal fits best in one long series under dynamic time warping
** (subsequence DTW), the DTW distance of two whole signals (global), or the
** UCR Suite's z-normalised, banded window search (ucr).
**
** Flow: parse the options -> read QUERY (several signals) and SERIES (one)
** through dtwio.c -> check what the library would refuse, naming the file
** and query -> one context -> the queries in groups of equal band radius
** (a fractional --window gives each query length its own radius), each group
** in one wm_dtw_many call (the GPU batches them) -> the lines, queries in file
** order. Every input error is found before the first line is printed.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"
#include "cli.h"
#include "mpi/dist.h"
#include "dtwio.h"
#include "out.h"

/* Same order as wm_dtw_mode_t and wm_dtw_cost_t. */
static const char *const mode_words[] = { "subsequence", "global", "ucr", NULL };
static const char *const cost_words[] = { "abs", "squared", NULL };
static const char *const dtype_words[] = { "f32", "f64", NULL };

static void print_help(void) {
    fputs(
"Usage: warpmatch dtw [OPTIONS] QUERY SERIES\n"
"\n"
"Find where each query signal fits best in a long series under dynamic time\n"
"warping (DTW) and print the distance and where the match lies in the series,\n"
"and on request the warping path.\n"
"\n"
"QUERY and SERIES are files of numbers, each possibly gzip-compressed; - is\n"
"standard input (for one of the two only). SERIES is one signal. QUERY may\n"
"hold several queries, each matched on its own: one per '>' record of a text\n"
"file, one per line when a line holds several numbers (a file of one number\n"
"a line is one query), or one per row of a 2-D .npy.\n"
"\n"
"Formats (--format for SERIES, --query-format for QUERY):\n"
"  auto   npy when the file starts with the .npy magic, csv when its name ends\n"
"         in .csv or .csv.gz, else text [auto]\n"
"  text   numbers separated by blanks, commas, semicolons and line breaks;\n"
"         lines starting with '#' are comments; a '>' line names the record\n"
"         made of the numbers up to the next '>'\n"
"  csv    one column (',', ';' or tab separated; '#' lines skipped); a first\n"
"         line with a field that is not a number is the header and names the\n"
"         signal. --column / --query-column pick the column by header name or\n"
"         0-based number; a file of several columns needs one\n"
"  npy    NumPy .npy: float32, float64 or integers; shape (n,), or (r, c): the\n"
"         column given by --column / --query-column, else each row of a query\n"
"         file, else the only column\n"
"  f32, f64  raw little-endian float32 / float64, the whole file one signal\n"
"Every sample must be a finite number: a NaN, an infinity, a malformed number\n"
"or a file without samples is an error that names the file and the place.\n"
"\n"
"Modes:\n"
"  subsequence  the stretch series[start, end) whose DTW distance to the\n"
"               whole query is smallest (subsequence DTW: the series' flanks\n"
"               cost nothing). Ties: the leftmost end, and for it the largest\n"
"               start.\n"
"  global       the DTW distance of the whole query and the whole series: one\n"
"               line, start 0, end = the series' length\n"
"  ucr          the UCR Suite's search: every window series[s, s + L), L = the\n"
"               query's length or --length, z-normalised on its own, against\n"
"               the z-normalised query, within the band of --window; ranked as\n"
"               in subsequence mode. LB_Kim and LB_Keogh skip windows; it runs\n"
"               on the CPU whatever the backend\n"
"\n"
"Matching:\n"
"      --mode M          subsequence, global or ucr [subsequence]\n"
"      --cost C          the cost of matching samples x and y: abs |x - y| or\n"
"                        squared (x - y)^2 [abs; squared in ucr mode, as the\n"
"                        UCR Suite]\n"
"      --window R        Sakoe-Chiba band radius, global and ucr modes only\n"
"                        [no band]: a whole number of samples, or a fraction\n"
"                        below 1 written with a '.' or an 'e' (0.1, 5e-2):\n"
"                        R = floor(fraction x L), L = the query's length in\n"
"                        ucr mode, the longer of the query and the series in\n"
"                        global mode. Cell (i, j) of a query of m and a series\n"
"                        (ucr: window) of n samples is allowed when\n"
"                          i - R - max(0, m - n) <= j <= i + R + max(0, n - m)\n"
"      --znorm           z-normalise the query and the series, each as a whole\n"
"                        (population sd; a constant signal becomes zeros); ucr\n"
"                        mode always normalises, each window on its own\n"
"      --length L        ucr mode: the window length [the query's length]\n"
"      --top K           the K best matches, best first, none overlapping one\n"
"                        before it [1]\n"
"  -k, --max-distance D  only matches with a distance <= D (a finite number\n"
"                        >= 0). Without --top: every match within D that\n"
"                        overlaps no better one, in series order\n"
"      --path            add the warping path of each match\n"
"\n"
"Input:\n"
"      --format F        SERIES's format: auto, text, csv, npy, f32 or f64\n"
"                        [auto]\n"
"      --query-format F  QUERY's format, the same words [auto]\n"
"      --dtype T         f32 or f64: both files are raw of type T (--format T\n"
"                        --query-format T); an explicit --format or\n"
"                        --query-format still decides for its file\n"
"      --column C        SERIES's CSV column (header name or 0-based number) or\n"
"                        2-D .npy column (number)\n"
"      --query-column C  QUERY's column, the same way (then QUERY is one query)\n"
"\n"
"Execution:\n"
"      --backend B       auto, cpu or cuda [auto: cuda when built and a GPU is\n"
"                        found, else cpu]\n"
"  -j, --threads N       CPU threads, 0 = all online cores [0]\n"
"      --device N        the CUDA GPU to use, numbered as 'warpmatch info'\n"
"      --gpus LIST       all, or GPU numbers such as 0,2,3: the queries are\n"
"                        shared out over these GPUs; the same output. Under\n"
"                        mpirun every rank matches its share of the queries on\n"
"                        its GPU (local rank mod the GPUs found, or the list)\n"
"                        lists them [0]\n"
"      --piece N         cut the series into pieces of N samples for the threads\n"
"                        and the GPU (for testing: warping paths then cross\n"
"                        pieces; the output must not change) [tuned]\n"
"  -h, --help            show this help\n"
"\n"
"Output lines (no header), one per match, tab-separated:\n"
"  query  start  end  distance  [path]\n"
"  query:       the query's name (its '>' line, or its CSV column's header),\n"
"               else its 0-based index in QUERY; a tab in a name prints as a\n"
"               space\n"
"  start, end:  0-based, half-open, in the series\n"
"  distance:    the sum of the costs along the warping path, in the shorter of\n"
"               %.15g and %.17g that reads back to the same double\n"
"  path:        with --path: the cells of the path, q:s (0-based query and\n"
"               series index) from the first to the last, comma-separated. It\n"
"               is the traceback from the last cell that prefers the diagonal\n"
"               step, then the query step, then the series step (ucr: in the\n"
"               normalised window)\n"
"Queries in file order; a query's matches best first (with --max-distance\n"
"alone: in series order). Lines are the same for every backend, --threads\n"
"and --piece.\n"
"\n"
"Exit status: 0 if at least one match was printed, 1 if none (every match over\n"
"--max-distance), 2 if an error occurred.\n", stdout);
}

static void usage_hint(void) {
    fprintf(stderr, "Try 'warpmatch dtw --help'.\n");
}

/* ---- options --------------------------------------------------------------- */

typedef struct {
    wm_dtw_opts_t o;
    wm_context_opts_t co;
    int cost_given, top_given, maxd_given, length_given;
    int window_kind;             /* 0 none, 1 samples (o.window), 2 a fraction */
    double window_frac;
    int fmt_given, qfmt_given, dtype_given;
    wm_sigfmt_t fmt, qfmt, dtype;
    const char *column, *qcolumn;
} dtw_args_t;

enum {
    OPT_MODE = 256, OPT_COST, OPT_WINDOW, OPT_ZNORM, OPT_LENGTH, OPT_TOP, OPT_PATH,
    OPT_FORMAT, OPT_QFORMAT, OPT_DTYPE, OPT_COLUMN, OPT_QCOLUMN, OPT_BACKEND, OPT_DEVICE, OPT_GPUS,
    OPT_PIECE
};

static const struct option long_opts[] = {
    { "mode",         required_argument, NULL, OPT_MODE },
    { "cost",         required_argument, NULL, OPT_COST },
    { "window",       required_argument, NULL, OPT_WINDOW },
    { "znorm",        no_argument,       NULL, OPT_ZNORM },
    { "length",       required_argument, NULL, OPT_LENGTH },
    { "top",          required_argument, NULL, OPT_TOP },
    { "max-distance", required_argument, NULL, 'k' },
    { "path",         no_argument,       NULL, OPT_PATH },
    { "format",       required_argument, NULL, OPT_FORMAT },
    { "query-format", required_argument, NULL, OPT_QFORMAT },
    { "dtype",        required_argument, NULL, OPT_DTYPE },
    { "column",       required_argument, NULL, OPT_COLUMN },
    { "query-column", required_argument, NULL, OPT_QCOLUMN },
    { "backend",      required_argument, NULL, OPT_BACKEND },
    { "threads",      required_argument, NULL, 'j' },
    { "device",       required_argument, NULL, OPT_DEVICE },
    { "gpus",         required_argument, NULL, OPT_GPUS },
    { "piece",        required_argument, NULL, OPT_PIECE },
    { "help",         no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

/* A whole-string strtod: 0 and *out, or -1 (empty, blanks, trailing bytes). */
static int parse_double(const char *s, double *out) {
    char *end;
    if (s[0] == '\0' || s[0] == ' ' || s[0] == '\t')
        return -1;
    errno = 0;
    *out = strtod(s, &end);
    return *end == '\0' ? 0 : -1;
}

/* --window: a radius in samples, or a fraction below 1 (a '.' or an 'e'). */
static int parse_window(const char *s, dtw_args_t *a) {
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
                 "number, or a fraction below 1 such as 0.1)", s);
    return -1;
}

/* Returns 0 to go on, 1 after --help (exit 0), -1 on a bad option (exit 2).
** *first_arg is the index of the first non-option argument. */
static int parse_args(int argc, char **argv, dtw_args_t *a, int *first_arg) {
    uint64_t v;
    double d;
    int c, i;

    a->o = wm_dtw_opts_default();
    a->co = wm_context_opts_default();

    opterr = 0;                 /* our own messages, in our own form */
    optind = 1;
    while ((c = getopt_long(argc, argv, ":k:j:h", long_opts, NULL)) != -1) {
        switch (c) {
        case OPT_MODE:
            if ((i = wm_cli_choose("--mode", optarg, mode_words)) < 0)
                return -1;
            a->o.mode = (wm_dtw_mode_t)i;
            break;
        case OPT_COST:
            if ((i = wm_cli_choose("--cost", optarg, cost_words)) < 0)
                return -1;
            a->o.cost = (wm_dtw_cost_t)i;
            a->cost_given = 1;
            break;
        case OPT_WINDOW:
            if (parse_window(optarg, a) < 0)
                return -1;
            break;
        case OPT_ZNORM: a->o.znorm = 1; break;
        case OPT_LENGTH:
            if (wm_cli_parse_u64(optarg, UINT64_MAX, 0, &v) < 0 || v == 0) {
                wm_cli_error("invalid value '%s' for --length (expected a whole number of "
                             "samples, at least 1)", optarg);
                return -1;
            }
            a->o.length = v;
            a->length_given = 1;
            break;
        case OPT_TOP:
            if (wm_cli_option_u64("--top", optarg, UINT64_MAX, 0, &v) < 0)
                return -1;
            if (v == 0) {
                wm_cli_error("invalid value '0' for --top (expected at least 1; "
                             "--max-distance D without --top prints every match within D)");
                return -1;
            }
            a->o.top = v;
            a->top_given = 1;
            break;
        case 'k':
            if (parse_double(optarg, &d) < 0 || !isfinite(d) || d < 0) {
                wm_cli_error("invalid value '%s' for -k/--max-distance (expected a finite "
                             "number >= 0)", optarg);
                return -1;
            }
            a->o.max_distance = d;
            a->maxd_given = 1;
            break;
        case OPT_PATH: a->o.path = 1; break;
        case OPT_FORMAT:
        case OPT_QFORMAT:
            if ((i = wm_cli_choose(c == OPT_FORMAT ? "--format" : "--query-format", optarg,
                                   wm_cli_sigfmt_words)) < 0)
                return -1;
            if (c == OPT_FORMAT) {
                a->fmt = wm_cli_sigfmt_values[i];
                a->fmt_given = 1;
            } else {
                a->qfmt = wm_cli_sigfmt_values[i];
                a->qfmt_given = 1;
            }
            break;
        case OPT_DTYPE:
            if ((i = wm_cli_choose("--dtype", optarg, dtype_words)) < 0)
                return -1;
            a->dtype = i == 0 ? WM_SIGFMT_F32 : WM_SIGFMT_F64;
            a->dtype_given = 1;
            break;
        case OPT_COLUMN: a->column = optarg; break;
        case OPT_QCOLUMN: a->qcolumn = optarg; break;
        case OPT_BACKEND:
            if ((i = wm_cli_choose("--backend", optarg, wm_cli_backend_words)) < 0)
                return -1;
            a->co.backend = (wm_backend_t)i;
            break;
        case 'j':
            if (wm_cli_option_u64("-j/--threads", optarg, 65536, 0, &v) < 0)
                return -1;
            a->co.threads = (int)v;
            break;
        case OPT_GPUS:
            if (wm_cli_option_gpus(optarg, &a->co) < 0)
                return -1;
            break;
        case OPT_DEVICE:
            if (wm_cli_option_u64("--device", optarg, INT_MAX, 0, &v) < 0)
                return -1;
            a->co.device = (int)v;
            break;
        case OPT_PIECE:
            if (wm_cli_parse_u64(optarg, UINT64_MAX / 8, 0, &v) < 0 || v == 0) {
                wm_cli_error("invalid value '%s' for --piece (expected a whole number of "
                             "samples, at least 1)", optarg);
                return -1;
            }
            a->co.chunk_bytes = 8 * v;          /* the library cuts chunk_bytes / 8 samples */
            break;
        case 'h':
            print_help();
            return 1;
        default:                 /* ':' (no value) or '?' (unknown) */
            wm_cli_getopt_error(c, argv);
            return -1;
        }
    }
    *first_arg = optind;

    if (a->window_kind != 0 && a->o.mode == WM_DTW_SUBSEQUENCE) {
        wm_cli_error("--window needs --mode global or ucr (a subsequence match has no fixed "
                     "diagonal to band around)");
        return -1;
    }
    if (a->length_given && a->o.mode != WM_DTW_UCR) {
        wm_cli_error("--length is the window length of --mode ucr; the %s mode matches the "
                     "whole query", mode_words[a->o.mode]);
        return -1;
    }
    if (!a->cost_given && a->o.mode == WM_DTW_UCR)
        a->o.cost = WM_DTW_SQUARED;             /* as the UCR Suite */
    if (a->maxd_given && !a->top_given)
        a->o.top = 0;                           /* every match within D, series order */
    if (a->dtype_given) {
        if (!a->fmt_given) a->fmt = a->dtype;
        if (!a->qfmt_given) a->qfmt = a->dtype;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------ */

typedef struct {
    const dtw_args_t *a;
    const char *qpath, *spath;   /* as the messages show them                   */
    wm_sigs_t q, s;              /* the queries; the series is s.a[0]           */
    int64_t *radius;             /* each query's band radius, -1 = none         */
    wm_dtw_matches_t *res;       /* each query's matches                        */
    wm_context_t *cx;
} run_t;

static const char *shown(const char *path) {
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* "query 3" or "query 'beat'" for messages. */
static const char *query_word(const run_t *r, size_t i, char *buf, size_t len) {
    if (r->q.a[i].name != NULL && r->q.a[i].name[0] != '\0')
        snprintf(buf, len, "query '%.200s'", r->q.a[i].name);
    else
        snprintf(buf, len, "query %zu", i);
    return buf;
}

/* Read both files and check what the library would refuse, so that the
** message can name the file and the query. Returns 0 or -1 (printed). */
static int prepare(run_t *r) {
    const dtw_args_t *a = r->a;
    char qw[256];
    if (strcmp(r->qpath, "-") == 0 && strcmp(r->spath, "-") == 0) {
        wm_cli_error("QUERY and SERIES are both - (standard input can be read only once)");
        return -1;
    }
    if (wm_cli_dtw_read(r->qpath, a->qfmt, a->qcolumn, 1, &r->q) < 0 ||
        wm_cli_dtw_read(r->spath, a->fmt, a->column, 0, &r->s) < 0)
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
                         query_word(r, i, qw, sizeof qw), (unsigned long long)m,
                         WM_DTW_MAX_QUERY);
            return -1;
        }
        uint64_t len = a->o.length ? a->o.length : m;
        if (a->o.mode == WM_DTW_UCR && len > n) {
            wm_cli_error("ucr mode: the window of %llu samples (%s%s) is longer than the "
                         "series %s (%llu samples)", (unsigned long long)len,
                         a->o.length ? "--length" : "the length of ",
                         a->o.length ? "" : query_word(r, i, qw, sizeof qw),
                         shown(r->spath), (unsigned long long)n);
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
static void report_failure(const run_t *r, const size_t *grp, size_t cnt, wm_status st) {
    const char *msg = wm_cli_status_msg(r->cx, st);
    size_t k = 0;
    int used = 0;
    char qw[256];
    if (sscanf(msg, "query %zu%n", &k, &used) == 1 && used > 0 && k < cnt)
        wm_cli_error("cannot match %s against %s (%s mode): %s%s", shown(r->qpath),
                     shown(r->spath), mode_words[r->a->o.mode],
                     query_word(r, grp[k], qw, sizeof qw), msg + used);
    else
        wm_cli_error("cannot match %s against %s (%s mode): %s", shown(r->qpath),
                     shown(r->spath), mode_words[r->a->o.mode], msg);
}

/* Queries [from, to), in groups of one band radius, one wm_dtw_many call
** each. Returns 0, or -1 after a library error (message printed). */
static int match_range(run_t *r, size_t from, size_t to) {
    size_t nq = to - from;
    size_t *order = malloc(nq * sizeof *order);
    const double **qv = malloc(nq * sizeof *qv);
    size_t *lens = malloc(nq * sizeof *lens);
    wm_dtw_matches_t *out = calloc(nq, sizeof *out);
    int rc = 0;
    if (!order || !qv || !lens || !out) {
        wm_cli_error("out of memory for %zu queries", nq);
        rc = -1;
        goto done;
    }
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
        wm_status st = wm_dtw_many(r->cx, qv, lens, e - g, r->s.a[0].v, r->s.a[0].n, &o, out);
        if (st != WM_OK) {
            report_failure(r, order + g, e - g, st);
            rc = -1;
            goto done;
        }
        for (size_t k = g; k < e; k++) r->res[order[k]] = out[k - g];
        g = e;
    }
done:
    free(order);
    free(qv);
    free(lens);
    free(out);
    return rc;
}

int wm_cmd_dtw(int argc, char **argv) {
    static char outbuf[1 << 20];
    dtw_args_t a;
    run_t r;
    int first_arg = 0, failed = 0, write_failed = 0, write_errno = 0;
    uint64_t n_printed = 0;

    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    r.a = &a;

    int rc = parse_args(argc, argv, &a, &first_arg);
    if (rc == 1)
        return fflush(stdout) == 0 ? 0 : WM_EXIT_ERROR;
    int n_args = argc - first_arg;
    if (rc < 0 || n_args != 2) {
        if (rc == 0)
            wm_cli_error("dtw needs a QUERY and a SERIES (%d argument%s given)", n_args,
                         n_args == 1 ? "" : "s");
        usage_hint();
        return WM_EXIT_ERROR;
    }
    r.qpath = argv[first_arg];
    r.spath = argv[first_arg + 1];
    /* Under MPI every rank reads both signals and matches its share of the
    ** queries (contiguous, in QUERY order); rank 0 prints every rank's lines
    ** in rank order. Standard input is rank 0's alone: it then does all. */
    wm_cli_dist_device(&a.co);
    int stdin_used = strcmp(r.qpath, "-") == 0 || strcmp(r.spath, "-") == 0;
    int idle = stdin_used && wm_dist.rank != 0;
    failed = !idle && prepare(&r) < 0;
    failed = wm_cli_dist_failed(failed, wm_cli_last_error(), 1);
    if (!failed) {
        failed = !idle && wm_cli_context_new(&a.co, &r.cx) != WM_OK;
        failed = wm_cli_dist_failed(failed, wm_cli_last_error(), 1);
    }
    size_t lo = 0, hi = 0;
    if (!failed) {
        if (!idle) {
            uint64_t parts = stdin_used ? 1 : (uint64_t)wm_dist.size;
            uint64_t me = (uint64_t)wm_dist.rank;
            lo = (size_t)((unsigned __int128)r.q.n * me / parts);
            hi = (size_t)((unsigned __int128)r.q.n * (me + 1) / parts);
            failed = match_range(&r, lo, hi) < 0;
        }
        failed = wm_cli_dist_failed(failed, wm_cli_last_error(), 1);
    }
    if (!failed) {
        char *mem = NULL;
        size_t mem_len = 0;
        FILE *out = wm_dist.active ? open_memstream(&mem, &mem_len) : stdout;
        if (out == NULL)
            wm_dist_abort(WM_EXIT_ERROR);
        for (size_t i = lo; i < hi && !ferror(out); i++) {
            for (size_t k = 0; k < r.res[i].n; k++)
                wm_out_dtw_match(out, 0, r.q.a[i].name, i, &r.res[i].a[k], a.o.path);
            n_printed += r.res[i].n;
        }
        if (out != stdout) {
            fclose(out);
            if (wm_dist_write_ordered(mem, mem_len, stdout) < 0) {
                write_failed = 1;
                write_errno = errno;
            }
            free(mem);
            n_printed = wm_dist_sum(n_printed);
        }
        if (ferror(stdout)) {
            write_failed = 1;                   /* e.g. a closed pipe */
            write_errno = errno;
        }
    }
    if (r.res)
        for (size_t i = 0; i < r.q.n; i++) wm_dtw_matches_free(&r.res[i]);
    free(r.res);
    free(r.radius);
    wm_context_free(r.cx);
    wm_sigs_free(&r.q);
    wm_sigs_free(&r.s);

    /* A closed pipe (1) ends quietly with the status of what was done. */
    if (wm_cli_flush_stdout(write_failed, write_errno) < 0 || failed)
        return WM_EXIT_ERROR;
    return n_printed > 0 ? WM_EXIT_MATCH : WM_EXIT_NOMATCH;
}
