/*
** cmd_dtw_matrix.c -- `warpmatch dtw --mode matrix A [B]`: the global DTW
** distance of every signal of A against every signal of B (or of A against
** itself), printed as a matrix (TSV, JSON Lines), written as a .npy array
** (--npy), or reduced to each row's K nearest neighbours (--knn K) with the
** 1-NN accuracy when both sides are labelled (the UCR archive's test).
**
** Flow: read A and B (several signals each: '>' records, a line each, the
** rows of a 2-D .npy; a .csv name is read as rows of numbers, as
** numpy.loadtxt does) -> the band radius -> one context (--backend auto
** by the cost model) -> wm_dtw_matrix on blocks of rows of at most 256 MiB
** of distances (one block for A against itself when it fits: the library then
** computes each pair once) -> each block printed as soon as it is done.
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

#define BLOCK_BYTES ((uint64_t)256 << 20)

typedef struct {
    const wm_cli_dtw_args_t *a;
    const char *apath, *bpath; /* bpath NULL: A against itself */
    wm_sigs_t A, B;            /* B empty when A against itself */
    const wm_sigs_t *cols;     /* B, or A */
    FILE *npy;
    uint64_t nn_right, nn_rows; /* 1-NN: rows whose nearest has their label */
    int write_failed, write_errno;
} mrun_t;

static const char *shown(const char *path) {
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* A's or B's signals: a .csv name without a column is rows of numbers. */
static int read_side(const wm_cli_dtw_args_t *a, const char *path, wm_sigfmt_t fmt,
                     const char *column, wm_sigs_t *out) {
    return wm_cli_dtw_read(path, fmt, column, 1, a->labels, a->force_raw, column == NULL, out);
}

/* ---- output ------------------------------------------------------------------ */

/* A signal as the first column: its name, else its index. */
static void put_id(FILE *f, int json, const wm_sig_t *s, size_t i) {
    if (s->name && s->name[0]) {
        if (json) {
            wm_out_json_cstr(f, s->name);
        } else {
            for (const char *c = s->name; *c; c++) putc(*c == '\t' ? ' ' : *c, f);
        }
    } else {
        wm_out_u64(f, i);
    }
}

static void put_value(FILE *f, int json, double d, int f32) {
    if (json && !isfinite(d)) fputs("null", f); /* JSON has no infinity */
    else wm_out_real(f, d, f32);
}

static void put_label(FILE *f, int json, const char *label) {
    if (json) {
        wm_out_json_cstr(f, label ? label : "");
    } else {
        if (!label) label = ".";
        for (const char *c = label; *c; c++) putc(*c == '\t' ? ' ' : *c, f);
    }
}

/* Rows [r0, r1) of the matrix, d holding them (nb distances a row). */
static void print_rows(mrun_t *r, const double *d, size_t r0, size_t r1) {
    const int json = r->a->sh.format == WM_OUT_JSON;
    const size_t nb = r->cols->n;
    for (size_t i = r0; i < r1 && !ferror(stdout); i++) {
        const double *row = d + (i - r0) * nb;
        if (json) {
            fputs("{\"row\":", stdout);
            put_id(stdout, 1, &r->A.a[i], i);
            if (r->A.a[i].label) {
                fputs(",\"label\":", stdout);
                put_label(stdout, 1, r->A.a[i].label);
            }
            fputs(",\"distances\":[", stdout);
        }
        for (size_t j = 0; j < nb; j++) {
            if (j) putc(json ? ',' : '\t', stdout);
            put_value(stdout, json, row[j], r->a->o.precision == WM_DTW_F32);
        }
        fputs(json ? "]}\n" : "\n", stdout);
    }
}

/* Each row's K nearest columns (not itself for A against itself): smaller
** distance first, then the smaller index. */
static void print_knn(mrun_t *r, const double *d, size_t r0, size_t r1) {
    const int json = r->a->sh.format == WM_OUT_JSON;
    const size_t nb = r->cols->n;
    const int self = r->bpath == NULL;
    const int labels = r->A.a[0].label != NULL || r->cols->a[0].label != NULL;
    size_t k_max = r->a->knn < nb ? (size_t)r->a->knn : nb;
    size_t *best = malloc((k_max ? k_max : 1) * sizeof *best);
    if (!best) {
        wm_cli_error("out of memory for --knn %zu", k_max);
        r->write_failed = 1;
        r->write_errno = ENOMEM;
        return;
    }
    for (size_t i = r0; i < r1 && !ferror(stdout); i++) {
        const double *row = d + (i - r0) * nb;
        size_t k = 0;
        for (size_t j = 0; j < nb; j++) {
            if (self && j == i) continue;
            /* insert j into the sorted best[0, k): ties keep the earlier j */
            size_t at = k;
            while (at > 0 && row[best[at - 1]] > row[j]) at--;
            if (at >= k_max) continue;
            size_t last = k < k_max ? k : k_max - 1;
            memmove(best + at + 1, best + at, (last - at) * sizeof *best);
            best[at] = j;
            if (k < k_max) k++;
        }
        for (size_t q = 0; q < k; q++) {
            const wm_sig_t *nb_sig = &r->cols->a[best[q]];
            if (json) {
                fputs("{\"query\":", stdout);
                put_id(stdout, 1, &r->A.a[i], i);
                if (labels) {
                    fputs(",\"label\":", stdout);
                    put_label(stdout, 1, r->A.a[i].label);
                }
                wm_out_key_u64(stdout, "rank", q + 1);
                fputs(",\"neighbour\":", stdout);
                put_id(stdout, 1, nb_sig, best[q]);
                if (labels) {
                    fputs(",\"neighbour_label\":", stdout);
                    put_label(stdout, 1, nb_sig->label);
                }
                fputs(",\"distance\":", stdout);
                put_value(stdout, 1, row[best[q]], r->a->o.precision == WM_DTW_F32);
                fputs("}\n", stdout);
            } else {
                put_id(stdout, 0, &r->A.a[i], i);
                wm_out_tab_u64(stdout, q + 1);
                putc('\t', stdout);
                put_id(stdout, 0, nb_sig, best[q]);
                putc('\t', stdout);
                put_value(stdout, 0, row[best[q]], r->a->o.precision == WM_DTW_F32);
                if (labels) {
                    putc('\t', stdout);
                    put_label(stdout, 0, r->A.a[i].label);
                    putc('\t', stdout);
                    put_label(stdout, 0, nb_sig->label);
                }
                putc('\n', stdout);
            }
        }
        if (k > 0 && r->A.a[i].label && r->cols->a[best[0]].label) {
            r->nn_rows++;
            r->nn_right += strcmp(r->A.a[i].label, r->cols->a[best[0]].label) == 0;
        }
    }
    free(best);
}

/* The .npy header (version 1.0) of an na x nb float64 (f32: float32)
** C-order array. */
static int npy_header(FILE *f, size_t na, size_t nb, int f32) {
    char dict[128];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '<f%d', 'fortran_order': False, 'shape': (%zu, %zu), }",
                     f32 ? 4 : 8, na, nb);
    size_t total = 10 + (size_t)n + 1; /* magic, version, length, dict, '\n' */
    size_t pad = (64 - total % 64) % 64;
    unsigned char head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0 };
    size_t hlen = (size_t)n + pad + 1;
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8);
    fwrite(head, 1, 10, f);
    fwrite(dict, 1, (size_t)n, f);
    for (size_t i = 0; i < pad; i++) putc(' ', f);
    putc('\n', f);
    return ferror(f) ? -1 : 0;
}

/* Rows as little-endian float64 (the hosts warpmatch builds on are), or
** float32 (f32: each distance is a float already, so exactly). */
static int npy_rows(FILE *f, const double *d, size_t rows, size_t nb, int f32) {
    if (!f32) return fwrite(d, sizeof *d, rows * nb, f) == rows * nb ? 0 : -1;
    for (size_t k = 0; k < rows * nb; k++) {
        float v = (float)d[k];
        if (fwrite(&v, sizeof v, 1, f) != 1) return -1;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------- */

static int check_sides(const mrun_t *r, int64_t *radius) {
    const wm_cli_dtw_args_t *a = r->a;
    uint64_t lmin = UINT64_MAX, lmax = 0;
    const wm_sigs_t *sides[2] = { &r->A, r->cols };
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < sides[s]->n; i++) {
            uint64_t n = sides[s]->a[i].n;
            if (n < lmin) lmin = n;
            if (n > lmax) lmax = n;
        }
    if (a->window_kind == 2) {
        *radius = (int64_t)floor(a->window_frac * (double)lmax);
        if (lmin != lmax)
            fprintf(stderr,
                    "%s: note: --window %g is a radius of %lld samples for every pair (of "
                    "the longest signal, %llu samples; the shortest has %llu)\n",
                    WM_PROG, a->window_frac, (long long)*radius, (unsigned long long)lmax,
                    (unsigned long long)lmin);
    } else {
        *radius = a->window_kind == 1 ? a->o.window : -1;
    }
    return 0;
}

/* --backend auto: the cells of every pair, as the cost model's dtw work. */
static void choose(mrun_t *r) {
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    w.kind = WM_WORK_DTW;
    uint64_t sa = 0, sb = 0;
    for (size_t i = 0; i < r->A.n; i++) sa += r->A.a[i].n;
    for (size_t i = 0; i < r->cols->n; i++) sb += r->cols->a[i].n;
    w.n = r->A.n;
    w.m = sa;
    w.bytes = 8 * (r->bpath ? sb : (sb + 1) / 2); /* a x a: each pair once */
    wm_cli_choose_backend((wm_cli_shared_t *)&r->a->sh, &w, NULL);
}

static int run_blocks(mrun_t *r, wm_context_t *cx, const wm_dtw_opts_t *o) {
    const size_t na = r->A.n, nb = r->cols->n;
    const int self = r->bpath == NULL;
    const double **av = malloc(na * sizeof *av), **bv = malloc(nb * sizeof *bv);
    size_t *al = malloc(na * sizeof *al), *bl = malloc(nb * sizeof *bl);
    size_t rows = (size_t)(BLOCK_BYTES / 8 / nb);
    if (rows < 1) rows = 1;
    int whole = self && rows >= na; /* one call: each pair once */
    if (whole) rows = na;
    if (rows > na) rows = na;
    double *d = av && bv && al && bl ? malloc(rows * nb * sizeof *d) : NULL;
    if (!d) {
        wm_cli_error("out of memory for %zu x %zu distances", rows, nb);
        free(av), free(bv), free(al), free(bl);
        return -1;
    }
    for (size_t i = 0; i < na; i++) av[i] = r->A.a[i].v, al[i] = (size_t)r->A.a[i].n;
    for (size_t j = 0; j < nb; j++) bv[j] = r->cols->a[j].v, bl[j] = (size_t)r->cols->a[j].n;
    int rc = 0;
    for (size_t r0 = 0; r0 < na && rc == 0; r0 += rows) {
        size_t r1 = r0 + rows < na ? r0 + rows : na;
        wm_status st = whole ? wm_dtw_matrix(cx, av, al, na, NULL, NULL, 0, o, d)
                             : wm_dtw_matrix(cx, av + r0, al + r0, r1 - r0, bv, bl, nb, o, d);
        if (st != WM_OK) {
            wm_cli_error("cannot compute the dtw matrix of %s%s%s: %s", shown(r->apath),
                         r->bpath ? " against " : "", r->bpath ? shown(r->bpath) : "",
                         wm_cli_status_msg(cx, st));
            rc = -1;
            break;
        }
        if (r->a->sqrt_out)
            for (size_t e = 0; e < (r1 - r0) * nb; e++) d[e] = sqrt(d[e]);
        if (r->npy && npy_rows(r->npy, d, r1 - r0, nb, r->a->o.precision == WM_DTW_F32) < 0) {
            wm_cli_error("cannot write %s: %s", r->a->npy, strerror(errno));
            rc = -1;
            break;
        }
        if (r->a->knn) print_knn(r, d, r0, r1);
        else if (!r->npy) print_rows(r, d, r0, r1);
        if (r->write_failed || ferror(stdout)) break;
    }
    free(d);
    free(av), free(bv), free(al), free(bl);
    return rc;
}

int wm_cli_dtw_matrix(wm_cli_dtw_args_t *a, int n_args, char **args) {
    mrun_t r;
    memset(&r, 0, sizeof r);
    r.a = a;
    if (n_args < 1 || n_args > 2) {
        wm_cli_error("dtw --mode matrix needs A, or A and B (%d argument%s given)", n_args,
                     n_args == 1 ? "" : "s");
        wm_flags_usage_hint(&wm_cli_cmd_dtw);
        return WM_EXIT_ERROR;
    }
    if (wm_dist.active && wm_dist.size > 1) {
        wm_cli_error("dtw --mode matrix runs in one process (one GPU, or --gpus for several); "
                     "run it without mpirun");
        return WM_EXIT_ERROR;
    }
    r.apath = args[0];
    r.bpath = n_args == 2 ? args[1] : NULL;
    if (r.bpath && strcmp(r.apath, "-") == 0 && strcmp(r.bpath, "-") == 0) {
        wm_cli_error("A and B are both - (standard input can be read only once)");
        return WM_EXIT_ERROR;
    }
    wm_context_t *cx = NULL;
    int failed = read_side(a, r.apath, a->qfmt, a->qcolumn, &r.A) < 0 ||
                 (r.bpath && read_side(a, r.bpath, a->fmt, a->column, &r.B) < 0);
    r.cols = r.bpath ? &r.B : &r.A;
    int64_t radius = -1;
    if (!failed) failed = check_sides(&r, &radius) < 0;
    if (!failed && a->npy) {
        r.npy = fopen(a->npy, "wb");
        if (!r.npy || npy_header(r.npy, r.A.n, r.cols->n, a->o.precision == WM_DTW_F32) < 0) {
            wm_cli_error("cannot write %s: %s", a->npy, strerror(errno));
            failed = 1;
        }
    }
    if (!failed) {
        wm_cli_dist_device(&a->sh.co);
        choose(&r);
        failed = wm_cli_context_new(&a->sh.co, &cx) != WM_OK;
    }
    if (!failed) {
        wm_dtw_opts_t o = a->o;
        o.mode = WM_DTW_GLOBAL;
        o.window = radius;
        failed = run_blocks(&r, cx, &o) < 0;
    }
    if (r.npy && fclose(r.npy) != 0 && !failed) {
        wm_cli_error("cannot write %s: %s", a->npy, strerror(errno));
        failed = 1;
    }
    if (!failed && a->knn && r.nn_rows > 0)
        fprintf(stderr,
                "%s: 1-NN accuracy %llu/%llu = %.6f (each row of %s takes the label "
                "of its nearest signal in %s)\n",
                WM_PROG, (unsigned long long)r.nn_right, (unsigned long long)r.nn_rows,
                (double)r.nn_right / (double)r.nn_rows, shown(r.apath),
                r.bpath ? shown(r.bpath) : "the others");
    wm_cli_note(cx);
    wm_context_free(cx);
    wm_sigs_free(&r.A);
    wm_sigs_free(&r.B);
    if (ferror(stdout)) {
        r.write_failed = 1;
        r.write_errno = errno;
    }
    if (wm_cli_flush_stdout(r.write_failed, r.write_errno) < 0 || failed) return WM_EXIT_ERROR;
    return WM_EXIT_MATCH;
}
