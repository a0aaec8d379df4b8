/*
** bench_global.c -- `align --mode global` (issue 5) timed beside edlib (NW)
** in the same run on the same bytes, with the ratio to a measured floor.
**
**   bench_global grid  [options]   paper 001's experiment: DNA, m = n =
**                                  1,000..10,000, every algorithm, FR t = 1..3
**   bench_global long  [options]   m = n = 100,000 and 1,000,000, random and
**                                  real (E. coli vs a mutated copy)
**   bench_global pairs [options]   1,000,000 pairs of 150 bp reads from two
**                                  FASTA files, wm_align_pairs
**
** Inputs come from bench/prep_global.sh (-d DIR [.bench/global]): bare
** sequence files (no header, no newline) and, for pairs, reads_a.fa /
** reads_b.fa. Sequence a is the query (m), b the target (n), for every tool.
**
** Options:
**   --backend B      cpu or cuda: ours' backend [cpu]; edlib is always on the
**                    host's cores
**   -j LIST          ours' CPU threads, comma separated, "all" = the CPUs this
**                    process may use [cpu: 1,all; cuda: all]; each count is a
**                    row (with cuda: the host threads of the context)
**   --reps N         timed runs per row after one untimed run [5]
**   --only LIST      rows: bitvector (bv), bitvector+cigar (bv+cigar), dp,
**                    four-russians (fr), fr-table, edlib, edlib-path
**                    [grid: all; long: all but fr-table; pairs: bitvector,
**                    bitvector+cigar, edlib, edlib-path]
**   --fr-t LIST      four-russians block sizes [grid 1,2,3; long 3; pairs 3]
**   --sizes LIST     grid: m = n values [1000,2000,...,10000]
**   --inputs LIST    grid: rand (two independent random sequences, the
**                    paper's setting), mut (a and a copy with ~5% edits)
**                    [rand,mut]; long: rand100k, real100k, rand1M, real1M [all]
**   --max-pairs N    pairs: the first N pairs of the files [all]
**   --reads NAME     pairs: the files NAME_a.fa and NAME_b.fa [reads: 150 bp;
**                    reads1k: 1,000 bp, from bench/prep_global.sh]
**   --packed         pairs: ours through wm_align_pairs_packed (the files'
**                    parsed buffers and offsets as the columns: no wm_pair_t)
**                    instead of wm_align_pairs; the call alone is timed, its
**                    result columns returned (not copied into a struct a pair)
**   --pairs-batch N  pairs, cuda: pairs a GPU batch (tuning.pairs_batch)
**                    [the library's]; each GPU row is followed by a line of
**                    where one more call's time went (wm_stats_t)
**   --meet-min N     cuda: one pair's distance without a bound from both ends
**                    from targets of N columns on (tuning.global_meet_min; 0
**                    the library's 2,048; 18446744073709551615 never) [0]
**   --meet-cut       cuda: from both ends met at n / 2, not on the stair
**                    (tuning.global_meet_cut)
**   --ckpts R        cuda: where one long pair's CIGAR takes its checkpoints
**                    (tuning.global_ckpts): 0 the library's choice, 1 kept by
**                    the distance pass where they fit, 2 a second GPU pass,
**                    -1 the CPU's forward pass [the library's]
**   --procs LIST     pairs: edlib's rows, one per count of processes
**                    [1,all]
**   --skip-slow      long: on rand1M, skip edlib and ours' CPU rows below the
**                    largest -j count (edlib fills its whole matrix there:
**                    minutes a run)
**   --alphabet A     dna or bytes for ours [dna]; prep_global.sh writes
**                    A/C/G/T only, where both equal edlib's byte equality
**   --device N       CUDA device [0]
**   --max-s S        a row whose untimed run took over S s is reported from
**                    that run alone [20]
**   --budget-s S     otherwise at most S s of timed runs per row, >= 3 runs [60]
**   --min-s S        and at least S s of timed runs (short rows run more than
**                    REPS times, up to 1000) [0.2]
**   --floor-s S      seconds per floor measurement [0.15]
**   -d DIR           input folder [.bench/global]
**
** What is timed. Ours: wm_align (mode global, max_distance -1) from host
** memory, with wm_alignments_free; with cuda that is copy + kernel + copy
** back (+ the host's CIGAR); the context (threads, GPU) and the
** four-russians table are made before, outside the timing (the table by
** wm_align_fr_info on the row's context; `fr-table` rows time that
** construction on a fresh context). Pairs: wm_align_pairs alone; freeing the
** CIGARs (wm_alignment_clear) is timed apart and given in the note.
** edlib: edlibAlign(a, b, EDLIB_MODE_NW, EDLIB_TASK_DISTANCE or
** EDLIB_TASK_PATH, k = -1: edlib doubles its band from k = 64) +
** edlibFreeAlignResult, one core for a single pair; pairs on P processes
** for each P of --procs (fork; each takes 1/P of the pairs in order; all
** released at once, the time runs to the last one's end). Every row: one
** untimed run, then REPS timed runs (see --max-s, --budget-s, --min-s),
** the median.
**
** Checks (exit 1 and "!!! MISMATCH" on any failure): every row's distance
** equals the workload's reference (edlib's distance row when run, else the
** first row; pairs: pair by pair), every timed run agrees with the untimed
** one, and every CIGAR (ours) and edlib path is an alignment of exactly a
** and b ('=' on equal symbols, 'X' on different ones) whose cost (X + I + D)
** is the distance. Failed rows (e.g. WM_UNSUPPORTED) print "!!! FAILED"
** and give exit 2.
**
** Columns: GCUPS = m * n / median_s / 1e9 (pairs: the sum over pairs).
** x_floor = median_s / floor time; floor time = n * ceil(m / 64) block steps
** at rate(T), the Myers block-step rate of T threads measured first
** (bench_util.c; bench_cpu_align.c's header defines it): bit-vector rows on
** the CPU only (bitvector, bitvector+cigar, edlib, edlib-path). Below 1 = the
** tool skipped blocks (Ukkonen's band). For cuda the floor is the GPU's
** bit-vector step peak, which bench_gpu_align measures with a kernel; this
** plain-C program prints "-". t/edlib = median_s / edlib's median_s for the
** same task (distance rows vs edlib, CIGAR rows vs edlib-path): CPU rows
** against edlib on as many cores where it ran (pairs: --procs), else on 1
** core ("@1c"); GPU rows against edlib on the most cores it ran on ("@Nc");
** < 1: ours faster.
*/
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "core/internal.h"
#include "warpmatch.h"
#ifdef WM_HAVE_EDLIB
#include <edlib.h>
#endif

#define BG_MAX_LIST 32
#define BG_MAX_RUNS 1000 /* timed runs of a row, at most (see --min-s) */

typedef enum {
    TL_BV,
    TL_BV_CIGAR,
    TL_DP,
    TL_FR,
    TL_FR_TABLE,
    TL_EDLIB,
    TL_EDLIB_PATH,
    TL_N
} tool_t;
static const char *const tool_name[TL_N] = { "bitvector",     "bitvector+cigar", "dp",
                                             "four-russians", "fr-table",        "edlib",
                                             "edlib-path" };

typedef struct {
    const char *mode, *data;
    wm_backend_t backend;
    wm_alphabet_t alphabet;
    int device, reps, skip_slow;
    int procs[BG_MAX_LIST], n_procs;
    int thr[BG_MAX_LIST], n_thr;
    int fr_t[BG_MAX_LIST], n_fr;
    int sizes[BG_MAX_LIST], n_sizes;
    char inputs[256];
    int use[TL_N];
    size_t max_pairs;
    int packed;
    uint64_t pairs_batch;
    int ckpts, ckpts_set; /* --ckpts */
    uint64_t meet_min;    /* --meet-min (0: the library's) */
    int meet_cut;         /* --meet-cut */
    const char *reads;    /* pairs: the files READS_a.fa, READS_b.fa */
    char reads_label[32];
    double max_s, budget_s, min_s, floor_s;
} cfg_t;

static cfg_t C;
static int n_mismatch, n_fail;

/* ---- small helpers -------------------------------------------------------------- */

static int want_input(const char *name) {
    char buf[300];
    snprintf(buf, sizeof buf, ",%s,", C.inputs);
    char key[64];
    snprintf(key, sizeof key, ",%s,", name);
    return strstr(buf, key) != NULL;
}

static int parse_ints(const char *s, int *out, int max, int allow_all) {
    char buf[512];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t && n < max; t = strtok(NULL, ",")) {
        int v = allow_all && !strcmp(t, "all") ? bu_usable_cpus() : atoi(t);
        if (v < 1) {
            fprintf(stderr, "bench_global: bad number %s\n", t);
            exit(2);
        }
        int dup = 0;
        for (int j = 0; j < n; j++) dup |= out[j] == v;
        if (!dup) out[n++] = v;
    }
    return n;
}

/* Floor rates (block steps/s) by thread count, measured on first use. */
typedef struct {
    int t;
    double rate;
} floor_ent_t;
static floor_ent_t floor_cache[BG_MAX_LIST * 2];
static int n_floor;
static double floor_rate_for(int t) {
    for (int i = 0; i < n_floor; i++)
        if (floor_cache[i].t == t) return floor_cache[i].rate;
    double r = bu_floor_rate(t, C.floor_s, 5);
    if (n_floor < BG_MAX_LIST * 2) floor_cache[n_floor++] = (floor_ent_t){ t, r };
    return r;
}

static double block_steps(uint64_t m, uint64_t n) { return (double)((m + 63) / 64) * (double)n; }

/* Ours' contexts by thread count, made once and kept (outside every timing). */
static struct {
    int t;
    wm_context_t *cx;
} cx_cache[BG_MAX_LIST];
static int n_cx;
static wm_context_t *new_context(int threads) {
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = C.backend;
    co.threads = threads;
    co.device = C.device;
    wm_context_t *cx = NULL;
    wm_status st = wm_context_new(&co, &cx);
    if (st != WM_OK) {
        fprintf(stderr, "bench_global: wm_context_new (%s, %d threads): %s%s%s\n",
                C.backend == WM_BACKEND_CUDA ? "cuda" : "cpu", threads, wm_strerror(st),
                cx ? ": " : "", cx ? wm_context_errmsg(cx) : "");
        wm_context_free(cx);
        exit(2);
    }
    if (C.ckpts_set) wm_context_tuning(cx)->global_ckpts = C.ckpts;
    wm_context_tuning(cx)->global_meet_min = C.meet_min;
    wm_context_tuning(cx)->global_meet_cut = C.meet_cut;
    return cx;
}
static wm_context_t *context_for(int threads) {
    for (int i = 0; i < n_cx; i++)
        if (cx_cache[i].t == threads) return cx_cache[i].cx;
    wm_context_t *cx = new_context(threads);
    cx_cache[n_cx].t = threads;
    cx_cache[n_cx++].cx = cx;
    return cx;
}

static const char *dev_name(void) { return C.backend == WM_BACKEND_CUDA ? "cuda" : "cpu"; }

/* Symbol equality as ours sees it (DNA: case folded, U = T, only ACGT). */
static int sym_eq(uint8_t x, uint8_t y) {
    if (C.alphabet == WM_ALPHABET_BYTES) return x == y;
    x = (uint8_t)(x >= 'a' && x <= 'z' ? x - 32 : x);
    y = (uint8_t)(y >= 'a' && y <= 'z' ? y - 32 : y);
    if (x == 'U') x = 'T';
    if (y == 'U') y = 'T';
    return x == y && (x == 'A' || x == 'C' || x == 'G' || x == 'T');
}

/* An extended CIGAR (ours: '=', 'X', 'I' query only, 'D' target only) checked
** against a (query, m) and b (target, n): 0 when it aligns them exactly with
** cost d, else -1 and why in msg. */
static int check_cigar(const char *cg, const uint8_t *a, uint64_t m, const uint8_t *b, uint64_t n,
                       uint64_t d, char *msg, size_t len) {
    uint64_t i = 0, j = 0, cost = 0;
    if (!cg) {
        snprintf(msg, len, "no CIGAR");
        return -1;
    }
    for (const char *p = cg; *p;) {
        uint64_t run = 0;
        if (*p < '0' || *p > '9') {
            snprintf(msg, len, "CIGAR: no count at offset %zu", (size_t)(p - cg));
            return -1;
        }
        while (*p >= '0' && *p <= '9') run = run * 10 + (uint64_t)(*p++ - '0');
        char op = *p++;
        if (run == 0) {
            snprintf(msg, len, "CIGAR: a run of 0");
            return -1;
        }
        switch (op) {
        case '=':
        case 'X':
            if (i + run > m || j + run > n) {
                snprintf(msg, len, "CIGAR runs past the sequences");
                return -1;
            }
            for (uint64_t k = 0; k < run; k++, i++, j++)
                if (sym_eq(a[i], b[j]) != (op == '=')) {
                    snprintf(msg, len, "CIGAR '%c' at query %llu, target %llu on '%c' vs '%c'", op,
                             (unsigned long long)i, (unsigned long long)j, a[i], b[j]);
                    return -1;
                }
            if (op == 'X') cost += run;
            break;
        case 'I':
            i += run;
            cost += run;
            break;
        case 'D':
            j += run;
            cost += run;
            break;
        default: snprintf(msg, len, "CIGAR: unknown operation '%c'", op ? op : '0'); return -1;
        }
        if (i > m || j > n) {
            snprintf(msg, len, "CIGAR runs past the sequences");
            return -1;
        }
    }
    if (i != m || j != n) {
        snprintf(msg, len, "CIGAR covers %llu x %llu of %llu x %llu", (unsigned long long)i,
                 (unsigned long long)j, (unsigned long long)m, (unsigned long long)n);
        return -1;
    }
    if (cost != d) {
        snprintf(msg, len, "CIGAR costs %llu, distance %llu", (unsigned long long)cost,
                 (unsigned long long)d);
        return -1;
    }
    return 0;
}

#ifdef WM_HAVE_EDLIB
/* edlib's alignment (0 match, 1 insertion to the target = a query symbol,
** 2 insertion to the query = a target symbol, 3 mismatch), checked as above
** with byte equality (edlib's). */
static int check_edpath(const unsigned char *al, int len_al, const uint8_t *a, uint64_t m,
                        const uint8_t *b, uint64_t n, uint64_t d, char *msg, size_t len) {
    uint64_t i = 0, j = 0, cost = 0;
    if (!al) {
        snprintf(msg, len, "edlib gave no path");
        return -1;
    }
    for (int k = 0; k < len_al; k++) {
        unsigned op = al[k];
        if (op == EDLIB_EDOP_MATCH || op == EDLIB_EDOP_MISMATCH) {
            if (i >= m || j >= n) {
                snprintf(msg, len, "edlib path runs past the sequences");
                return -1;
            }
            if ((a[i] == b[j]) != (op == EDLIB_EDOP_MATCH)) {
                snprintf(msg, len, "edlib path op %u at %llu,%llu", op, (unsigned long long)i,
                         (unsigned long long)j);
                return -1;
            }
            cost += op == EDLIB_EDOP_MISMATCH;
            i++, j++;
        } else if (op == EDLIB_EDOP_INSERT) i++, cost++;
        else if (op == EDLIB_EDOP_DELETE) j++, cost++;
        else {
            snprintf(msg, len, "edlib path: op %u", op);
            return -1;
        }
    }
    if (i != m || j != n || cost != d) {
        snprintf(msg, len,
                 "edlib path covers %llu x %llu of %llu x %llu, costs %llu, distance %llu",
                 (unsigned long long)i, (unsigned long long)j, (unsigned long long)m,
                 (unsigned long long)n, (unsigned long long)cost, (unsigned long long)d);
        return -1;
    }
    return 0;
}
#endif

/* ---- measuring a row ---------------------------------------------------------------
** A run function does one run and returns its timed part in seconds, or < 0
** with why in msg. first = 1 for the untimed first run, which also records
** the result and checks CIGARs/paths; later runs compare with it. */
typedef double (*run_fn)(void *job, int first, char *msg, size_t len);

/* One more call with the context's timing on and its stats zeroed first,
** for the line after a GPU row that says where that call's time went. */
static double split_call(wm_context_t *cx, run_fn fn, void *job, const wm_stats_t **stats) {
    wm_stats_t *stt = (wm_stats_t *)wm_context_stats(cx);
    memset(stt, 0, sizeof *stt);
    wm_context_tuning(cx)->timing = 1;
    char msg[256];
    double t = fn(job, 0, msg, sizeof msg);
    wm_context_tuning(cx)->timing = 0;
    *stats = stt;
    return t;
}

typedef struct {
    int ok, reps;
    double median_s;
    char msg[512];
} meas_t;

static void measure(run_fn fn, void *job, meas_t *r) {
    memset(r, 0, sizeof *r);
    double first = fn(job, 1, r->msg, sizeof r->msg);
    if (first < 0) return;
    int reps = C.reps;
    if (first > C.max_s) reps = 0;
    else if (first * reps > C.budget_s) {
        reps = (int)(C.budget_s / (first > 1e-9 ? first : 1e-9));
        if (reps < 3) reps = 3;
        if (reps > C.reps) reps = C.reps;
    }
    if (reps == 0) {
        r->ok = 1;
        r->reps = 1;
        r->median_s = first;
        return;
    }
    /* short rows run on until min_s of timed runs (at most BG_MAX_RUNS) */
    int cap = reps;
    if (first * reps < C.min_s) {
        cap = (int)(C.min_s / (first > 1e-7 ? first : 1e-7)) + 1;
        if (cap > BG_MAX_RUNS) cap = BG_MAX_RUNS;
        if (cap < reps) cap = reps;
    }
    double *t = calloc((size_t)cap, sizeof *t), sum = 0;
    if (!t) {
        snprintf(r->msg, sizeof r->msg, "out of memory");
        return;
    }
    int n = 0;
    while (n < reps || (n < cap && sum < C.min_s)) {
        t[n] = fn(job, 0, r->msg, sizeof r->msg);
        if (t[n] < 0) {
            free(t);
            return;
        }
        sum += t[n++];
    }
    r->ok = 1;
    r->reps = n;
    r->median_s = bu_median(t, (size_t)n);
    free(t);
}

/* Four-Russians rows: the context builds its table now, so that no run of
** the row (the untimed one included) pays for it; fr-table rows time that. */
static int fr_prebuild(wm_context_t *cx, const wm_align_opts_t *o, char *msg, size_t len) {
    if (!cx || o->algo != WM_ALIGN_ALGO_FOUR_RUSSIANS) return 0;
    wm_fr_info_t info;
    wm_status st = wm_align_fr_info(cx, o, &info);
    if (st == WM_OK) return 0;
    snprintf(msg, len, "wm_align_fr_info: %s: %s", wm_strerror(st), wm_context_errmsg(cx));
    return -1;
}

static void fmt_ratio(char *buf, size_t len, double ours, double edlib, int same_cores) {
    if (edlib <= 0) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.3f%s", ours / edlib, same_cores ? "" : "@1c");
}

/* ---- one pair: grid and long ----------------------------------------------------------- */

typedef struct {
    tool_t tool;
    wm_context_t *cx;
    wm_align_opts_t o;
    const uint8_t *a, *b;
    uint64_t m, n;
    uint64_t d; /* the first run's distance */
} pjob_t;

static double p_ours(void *p, int first, char *msg, size_t len) {
    pjob_t *j = p;
    wm_alignments_t out = { 0 };
    double t0 = bu_now_s();
    wm_status st = wm_align(j->cx, j->a, (size_t)j->m, j->b, j->n, &j->o, &out);
    double t1 = bu_now_s();
    if (st != WM_OK) {
        snprintf(msg, len, "wm_align: %s: %s", wm_strerror(st), wm_context_errmsg(j->cx));
        return -1;
    }
    if (out.n != 1) {
        snprintf(msg, len, "wm_align gave %zu alignments, want 1", out.n);
        wm_alignments_free(&out);
        return -1;
    }
    uint64_t d = out.a[0].distance;
    int bad = 0;
    if (first) {
        j->d = d;
        if (j->o.cigar) bad = check_cigar(out.a[0].cigar, j->a, j->m, j->b, j->n, d, msg, len);
    } else if (d != j->d) {
        snprintf(msg, len, "runs disagree: %llu then %llu", (unsigned long long)j->d,
                 (unsigned long long)d);
        bad = -1;
    }
    double t2 = bu_now_s();
    wm_alignments_free(&out);
    double t3 = bu_now_s();
    if (bad) {
        n_mismatch++;
        return -1;
    }
    return (t1 - t0) + (t3 - t2);
}

#ifdef WM_HAVE_EDLIB
static double p_edlib(void *p, int first, char *msg, size_t len) {
    pjob_t *j = p;
    int path = j->tool == TL_EDLIB_PATH;
    EdlibAlignConfig cfg = edlibNewAlignConfig(
        -1, EDLIB_MODE_NW, path ? EDLIB_TASK_PATH : EDLIB_TASK_DISTANCE, NULL, 0);
    double t0 = bu_now_s();
    EdlibAlignResult r =
        edlibAlign((const char *)j->a, (int)j->m, (const char *)j->b, (int)j->n, cfg);
    double t1 = bu_now_s();
    int bad = 0;
    if (r.status != EDLIB_STATUS_OK || r.editDistance < 0) {
        snprintf(msg, len, "edlibAlign: status %d, distance %d", r.status, r.editDistance);
        edlibFreeAlignResult(r);
        return -1;
    }
    uint64_t d = (uint64_t)r.editDistance;
    if (first) {
        j->d = d;
        if (path)
            bad = check_edpath(r.alignment, r.alignmentLength, j->a, j->m, j->b, j->n, d, msg, len);
    } else if (d != j->d) {
        snprintf(msg, len, "runs disagree: %llu then %llu", (unsigned long long)j->d,
                 (unsigned long long)d);
        bad = -1;
    }
    double t2 = bu_now_s();
    edlibFreeAlignResult(r);
    double t3 = bu_now_s();
    if (bad) {
        n_mismatch++;
        return -1;
    }
    return (t1 - t0) + (t3 - t2);
}
#endif

typedef struct {
    int have;
    uint64_t d;
    char name[64];
    double edlib_s[2]; /* distance, path: edlib's median on 1 core */
} pref_t;

static void p_header(void) {
    printf("%-10s %8s %8s %-15s %2s %-4s %3s %4s %11s %9s %7s %11s %9s  %s\n", "workload", "m", "n",
           "tool", "t", "dev", "thr", "reps", "median_s", "GCUPS", "x_floor", "t/edlib", "distance",
           "note");
}

static void p_skip(const char *w, uint64_t m, uint64_t n, const char *tool, int t, const char *dev,
                   int thr, const char *why) {
    char tb[8] = "-";
    if (t) snprintf(tb, sizeof tb, "%d", t);
    printf("%-10s %8llu %8llu %-15s %2s %-4s %3d %4s %11s %9s %7s %11s %9s  skipped: %s\n", w,
           (unsigned long long)m, (unsigned long long)n, tool, tb, dev, thr, "-", "-", "", "", "",
           "", why);
    fflush(stdout);
}

/* One row: run, check against the reference, print. */
static void p_row(const char *w, pref_t *ref, tool_t tool, int fr_t, int thr, const uint8_t *a,
                  uint64_t m, const uint8_t *b, uint64_t n) {
    int is_edlib = tool == TL_EDLIB || tool == TL_EDLIB_PATH;
    const char *dev = is_edlib ? "cpu" : dev_name();
    if (!is_edlib && tool != TL_BV && tool != TL_BV_CIGAR &&
        (double)m * (double)n > (double)WM_ALIGN_MAX_CELLS) {
        p_skip(w, m, n, tool_name[tool], fr_t, dev, thr,
               "m*n > WM_ALIGN_MAX_CELLS (the library refuses it)");
        return;
    }
    pjob_t j = { 0 };
    j.tool = tool;
    j.a = a;
    j.b = b;
    j.m = m;
    j.n = n;
    run_fn fn = NULL;
    if (is_edlib) {
#ifdef WM_HAVE_EDLIB
        fn = p_edlib;
#endif
    } else {
        j.cx = context_for(thr);
        j.o = wm_align_opts_default();
        j.o.mode = WM_ALIGN_GLOBAL;
        j.o.alphabet = C.alphabet;
        j.o.algo = tool == TL_DP   ? WM_ALIGN_ALGO_DP
                   : tool == TL_FR ? WM_ALIGN_ALGO_FOUR_RUSSIANS
                                   : WM_ALIGN_ALGO_BITVECTOR;
        j.o.fr_t = tool == TL_FR ? fr_t : 0;
        j.o.cigar = tool == TL_BV_CIGAR;
        fn = p_ours;
    }
    meas_t r;
    if (fr_prebuild(j.cx, &j.o, r.msg, sizeof r.msg)) r.ok = 0;
    else measure(fn, &j, &r);
    char tb[8] = "-";
    if (tool == TL_FR) snprintf(tb, sizeof tb, "%d", fr_t);
    if (!r.ok) {
        n_fail++;
        printf("%-10s %8llu %8llu %-15s %2s %-4s %3d %4s %11s %9s %7s %11s %9s  !!! FAILED: %s\n",
               w, (unsigned long long)m, (unsigned long long)n, tool_name[tool], tb, dev, thr, "-",
               "-", "", "", "", "", r.msg);
        fflush(stdout);
        return;
    }
    char note[256] = "";
    if (tool == TL_BV_CIGAR || tool == TL_EDLIB_PATH) snprintf(note, sizeof note, "path checked");
    if (r.reps == 1 && C.reps > 1)
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s1 run (over --max-s)",
                 *note ? "; " : "");
    if (!ref->have) {
        ref->have = 1;
        ref->d = j.d;
        snprintf(ref->name, sizeof ref->name, "%s", tool_name[tool]);
    } else if (j.d != ref->d) {
        n_mismatch++;
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s!!! MISMATCH with %s (%llu)",
                 *note ? "; " : "", ref->name, (unsigned long long)ref->d);
    }
    int bitv = tool == TL_BV || tool == TL_BV_CIGAR || is_edlib;
    char xf[16] = "-", ratio[16] = "-";
    if (bitv && (is_edlib || C.backend == WM_BACKEND_CPU))
        snprintf(xf, sizeof xf, "%.2f",
                 r.median_s / (block_steps(m, n) / floor_rate_for(is_edlib ? 1 : thr)));
    if (tool == TL_EDLIB) ref->edlib_s[0] = r.median_s;
    else if (tool == TL_EDLIB_PATH) ref->edlib_s[1] = r.median_s;
    else
        fmt_ratio(ratio, sizeof ratio, r.median_s, ref->edlib_s[tool == TL_BV_CIGAR],
                  thr == 1 && C.backend == WM_BACKEND_CPU);
    printf("%-10s %8llu %8llu %-15s %2s %-4s %3d %4d %11.6f %9.3f %7s %11s %9llu  %s\n", w,
           (unsigned long long)m, (unsigned long long)n, tool_name[tool], tb, dev,
           is_edlib ? 1 : thr, r.reps, r.median_s, (double)m * (double)n / r.median_s / 1e9, xf,
           ratio, (unsigned long long)j.d, note);
    if (tool == TL_BV_CIGAR && C.backend == WM_BACKEND_CUDA) { /* one more call, its split */
        const wm_stats_t *stt;
        double t1 = split_call(j.cx, p_ours, &j, &stt);
        int cpu_ck = stt->global_gpu_ckpts_on_cpu > 0;
        printf("# %s split of one call (%.5f s): distance %.5f s, checkpoints %.5f s (%s; "
               "copy and cut %.5f s), segments and walk %.5f s\n",
               tool_name[tool], t1, stt->global_gpu_distance_s,
               cpu_ck ? 0.0 : stt->global_gpu_ckpts_s,
               cpu_ck                           ? "the CPU's, counted with the segments"
               : stt->global_gpu_ckpts_kept > 0 ? "kept by the distance pass: gathered and copied"
                                                : "the GPU's pass and copy",
               stt->global_gpu_ckpts_copy_s,
               cpu_ck ? t1 - stt->global_gpu_distance_s : stt->global_gpu_cigar_s);
    }
    fflush(stdout);
}

/* Every row of one pair: edlib first (the reference and the ratios'
** denominators), then ours per thread count. skip_slow: edlib and ours'
** CPU rows below the largest thread count are listed as skipped. */
static void pair_rows(const char *w, const uint8_t *a, uint64_t m, const uint8_t *b, uint64_t n,
                      int skip_slow) {
    pref_t ref = { 0 };
    int max_thr = 0;
    for (int i = 0; i < C.n_thr; i++) max_thr = C.thr[i] > max_thr ? C.thr[i] : max_thr;
    for (int t = TL_EDLIB; t <= TL_EDLIB_PATH; t++) {
        if (!C.use[t]) continue;
        if (skip_slow) p_skip(w, m, n, tool_name[t], 0, "cpu", 1, "--skip-slow");
        else p_row(w, &ref, (tool_t)t, 0, 1, a, m, b, n);
    }
    for (int ti = 0; ti < C.n_thr; ti++) {
        int thr = C.thr[ti];
        int slow = skip_slow && C.backend == WM_BACKEND_CPU && thr < max_thr;
        for (int t = TL_BV; t <= TL_FR; t++) {
            if (!C.use[t]) continue;
            int nt = t == TL_FR ? C.n_fr : 1;
            for (int k = 0; k < nt; k++) {
                int frt = t == TL_FR ? C.fr_t[k] : 0;
                if (slow) p_skip(w, m, n, tool_name[t], frt, dev_name(), thr, "--skip-slow");
                else p_row(w, &ref, (tool_t)t, frt, thr, a, m, b, n);
            }
        }
    }
}

static uint8_t *load(const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", C.data, name);
    uint8_t *p = bu_read_file(path, len);
    if (!p) {
        fprintf(stderr, "bench_global: run bench/prep_global.sh first (inputs in %s)\n", C.data);
        n_fail++;
    }
    return p;
}

/* The four-russians table for each t, on a fresh context. */
static void fr_table_rows(void) {
    printf("# fr-table: wm_align_fr_info on a fresh context (%s backend, %d threads): the table "
           "for t is built "
           "there; build_s = the library's own clock, call_s = this program's around the call\n",
           dev_name(), C.thr[C.n_thr - 1]);
    printf("%-8s %2s %-7s %14s %14s %12s %12s %7s\n", "row", "t", "key", "entries", "bytes",
           "build_s", "call_s", "threads");
    for (int k = 0; k < C.n_fr; k++) {
        wm_context_t *cx = new_context(C.thr[C.n_thr - 1]);
        wm_align_opts_t o = wm_align_opts_default();
        o.mode = WM_ALIGN_GLOBAL;
        o.algo = WM_ALIGN_ALGO_FOUR_RUSSIANS;
        o.alphabet = C.alphabet;
        o.fr_t = C.fr_t[k];
        wm_fr_info_t info;
        memset(&info, 0, sizeof info);
        double t0 = bu_now_s();
        wm_status st = wm_align_fr_info(cx, &o, &info);
        double t1 = bu_now_s();
        if (st != WM_OK) {
            n_fail++;
            printf("%-8s %2d  !!! FAILED: wm_align_fr_info: %s: %s\n", "fr-table", C.fr_t[k],
                   wm_strerror(st), wm_context_errmsg(cx));
        } else {
            printf("%-8s %2u %-7s %14llu %14llu %12.6f %12.6f %7d\n", "fr-table", info.t,
                   info.key_strings ? "strings" : "eqmatrix", (unsigned long long)info.entries,
                   (unsigned long long)info.bytes, info.build_seconds, t1 - t0, info.build_threads);
        }
        fflush(stdout);
        wm_context_free(cx);
    }
}

static void mode_grid(void) {
    if (C.use[TL_FR_TABLE]) fr_table_rows();
    p_header();
    const char *kinds[2] = { "rand", "mut" };
    for (int si = 0; si < C.n_sizes; si++) {
        int L = C.sizes[si];
        char fa[64], fb[64];
        snprintf(fa, sizeof fa, "rand%d_a.seq", L);
        size_t m;
        uint8_t *a = load(fa, &m);
        if (!a) continue;
        for (int k = 0; k < 2; k++) {
            if (!want_input(kinds[k])) continue;
            snprintf(fb, sizeof fb, k ? "rand%d_mut.seq" : "rand%d_b.seq", L);
            size_t n;
            uint8_t *b = load(fb, &n);
            if (!b) continue;
            pair_rows(kinds[k], a, m, b, n, 0);
            free(b);
        }
        free(a);
    }
}

static void mode_long(void) {
    p_header();
    const char *w[4] = { "rand100k", "real100k", "rand1M", "real1M" };
    for (int k = 0; k < 4; k++) {
        if (!want_input(w[k])) continue;
        char fa[64], fb[64];
        snprintf(fa, sizeof fa, "%s_a.seq", w[k]);
        snprintf(fb, sizeof fb, "%s_b.seq", w[k]);
        size_t m, n;
        uint8_t *a = load(fa, &m);
        uint8_t *b = a ? load(fb, &n) : NULL;
        if (a && b) pair_rows(w[k], a, m, b, n, C.skip_slow && !strcmp(w[k], "rand1M"));
        free(a);
        free(b);
    }
}

/* ---- many pairs --------------------------------------------------------------------- */

typedef struct {
    uint8_t *abuf, *bbuf;
    uint64_t *aoff, *boff;
    size_t np;
} reads_t;

typedef struct {
    tool_t tool;
    wm_context_t *cx;
    wm_align_opts_t o;
    const reads_t *R;
    const wm_pair_t *pairs;
    wm_alignment_t *out; /* ours */
    uint64_t *d;         /* the first run's distances */
    int procs;           /* edlib */
    int path, check;
    int32_t *sh_d;    /* edlib: shared with the children */
    uint64_t *sh_bad; /* edlib: per process, paths that fail the check */
    char *sh_msg;     /* edlib: the first bad path's message, per process */
    double clear_s[64];
    int n_clear;
} qjob_t;

/* Ours through wm_align_pairs_packed, its columns viewed as j->out (the
** CIGARs copied out on the first run only, to be checked). The call alone
** is timed (*secs): the columns are what a caller gets, and copying them
** into a struct a pair on one thread (the bench's own checking) took a
** third of a million short pairs' time. */
static wm_status ours_packed(qjob_t *j, int first, double *secs) {
    const reads_t *R = j->R;
    size_t np = R->np;
    wm_pairs_packed_t in = { np, R->abuf, R->aoff, R->bbuf, R->boff };
    wm_pair_results_t res;
    double t0 = bu_now_s();
    wm_status st = wm_align_pairs_packed(j->cx, &in, &j->o, &res);
    *secs = bu_now_s() - t0;
    if (st != WM_OK) return st;
    for (size_t i = 0; i < np; i++) {
        j->out[i].distance = res.distance[i];
        if (!first || !j->o.cigar || res.distance[i] == WM_ALIGN_NONE) continue;
        size_t len = (size_t)(res.cigar_off[i + 1] - res.cigar_off[i]);
        if ((j->out[i].cigar = malloc(len + 1))) {
            memcpy(j->out[i].cigar, res.cigar + res.cigar_off[i], len);
            j->out[i].cigar[len] = 0;
        }
    }
    wm_pair_results_free(&res);
    return WM_OK;
}

static double q_ours(void *p, int first, char *msg, size_t len) {
    qjob_t *j = p;
    size_t np = j->R->np;
    double t0 = bu_now_s(), t_call = 0;
    wm_status st = C.packed ? ours_packed(j, first, &t_call)
                            : wm_align_pairs(j->cx, j->pairs, np, &j->o, j->out);
    double t = C.packed ? t_call : bu_now_s() - t0;
    if (st != WM_OK) {
        snprintf(msg, len, "%s: %s: %s", C.packed ? "wm_align_pairs_packed" : "wm_align_pairs",
                 wm_strerror(st), wm_context_errmsg(j->cx));
        return -1;
    }
    uint64_t bad = 0, differ = 0, none = 0;
    char why[256] = "";
    for (size_t i = 0; i < np; i++) {
        uint64_t d = j->out[i].distance;
        if (d == WM_ALIGN_NONE) {
            none++;
            continue;
        }
        if (first) {
            j->d[i] = d;
            char w[256];
            if (j->o.cigar &&
                check_cigar(j->out[i].cigar, j->pairs[i].query, j->pairs[i].m, j->pairs[i].target,
                            j->pairs[i].n, d, w, sizeof w) &&
                !bad++)
                memcpy(why, w, sizeof why);
        } else if (d != j->d[i]) differ++;
    }
    double c0 = bu_now_s();
    wm_alignment_clear(j->out, np);
    if (j->n_clear < 64) j->clear_s[j->n_clear++] = bu_now_s() - c0;
    if (none) {
        snprintf(msg, len, "%llu pair(s) with no alignment", (unsigned long long)none);
        return -1;
    }
    if (bad) {
        n_mismatch++;
        snprintf(msg, len, "!!! %llu bad CIGAR(s), first: %s", (unsigned long long)bad, why);
        return -1;
    }
    if (differ) {
        snprintf(msg, len, "runs disagree on %llu pair(s)", (unsigned long long)differ);
        return -1;
    }
    return t;
}

#ifdef WM_HAVE_EDLIB
static int q_edlib_part(int part, int n_parts, void *arg) {
    qjob_t *j = arg;
    size_t np = j->R->np, lo = np * (size_t)part / (size_t)n_parts,
           hi = np * (size_t)(part + 1) / (size_t)n_parts;
    EdlibAlignConfig cfg = edlibNewAlignConfig(
        -1, EDLIB_MODE_NW, j->path ? EDLIB_TASK_PATH : EDLIB_TASK_DISTANCE, NULL, 0);
    for (size_t i = lo; i < hi; i++) {
        const wm_pair_t *q = &j->pairs[i];
        EdlibAlignResult r =
            edlibAlign((const char *)q->query, (int)q->m, (const char *)q->target, (int)q->n, cfg);
        j->sh_d[i] = r.status == EDLIB_STATUS_OK ? r.editDistance : -1;
        if (j->check && j->path && r.status == EDLIB_STATUS_OK && r.editDistance >= 0) {
            char why[256];
            if (check_edpath(r.alignment, r.alignmentLength, q->query, q->m, q->target, q->n,
                             (uint64_t)r.editDistance, why, sizeof why)) {
                if (!j->sh_bad[part]) memcpy(j->sh_msg + 256 * (size_t)part, why, sizeof why);
                j->sh_bad[part]++;
            }
        }
        edlibFreeAlignResult(r);
    }
    return 0;
}

static double q_edlib(void *p, int first, char *msg, size_t len) {
    qjob_t *j = p;
    size_t np = j->R->np;
    j->check = first;
    memset(j->sh_bad, 0, (size_t)j->procs * sizeof *j->sh_bad);
    double t = bu_fork_split(j->procs, q_edlib_part, j, msg, len);
    if (t < 0) return -1;
    uint64_t failed = 0, differ = 0, bad = 0;
    for (size_t i = 0; i < np; i++) {
        if (j->sh_d[i] < 0) {
            failed++;
            continue;
        }
        if (first) j->d[i] = (uint64_t)j->sh_d[i];
        else if (j->d[i] != (uint64_t)j->sh_d[i]) differ++;
    }
    for (int k = 0; k < j->procs; k++) bad += j->sh_bad[k];
    if (failed) {
        snprintf(msg, len, "edlibAlign failed on %llu pair(s)", (unsigned long long)failed);
        return -1;
    }
    if (bad) {
        n_mismatch++;
        for (int k = 0; k < j->procs; k++)
            if (j->sh_bad[k]) {
                snprintf(msg, len, "!!! %llu bad edlib path(s), first: %.200s",
                         (unsigned long long)bad, j->sh_msg + 256 * (size_t)k);
                break;
            }
        return -1;
    }
    if (differ) {
        snprintf(msg, len, "runs disagree on %llu pair(s)", (unsigned long long)differ);
        return -1;
    }
    return t;
}
#endif

/* The two FASTA files, read and parsed by this program (bu_fasta_parse). */
static int read_pairs(reads_t *R, double *secs) {
    char pa[4096], pb[4096];
    snprintf(pa, sizeof pa, "%s/%s_a.fa", C.data, C.reads);
    snprintf(pb, sizeof pb, "%s/%s_b.fa", C.data, C.reads);
    double t0 = bu_now_s();
    size_t la, lb;
    memset(R, 0, sizeof *R);
    R->abuf = bu_read_file(pa, &la);
    R->bbuf = R->abuf ? bu_read_file(pb, &lb) : NULL;
    if (!R->bbuf) return -1;
    long na = bu_fasta_parse(R->abuf, la, &R->aoff);
    long nb = na >= 0 ? bu_fasta_parse(R->bbuf, lb, &R->boff) : -1;
    *secs = bu_now_s() - t0;
    if (na < 0 || nb < 0) return -1;
    if (na != nb) {
        fprintf(stderr, "bench_global: %s has %ld records, %s %ld\n", pa, na, pb, nb);
        return -1;
    }
    R->np = (size_t)na;
    return 0;
}

static void free_pairs(reads_t *R) {
    free(R->abuf);
    free(R->bbuf);
    free(R->aoff);
    free(R->boff);
    memset(R, 0, sizeof *R);
}

static void mode_pairs(void) {
    reads_t R;
    double rd[5];
    int n_rd = 0;
    /* read + parse: 3 times (the first may come from disk, then the page cache) */
    for (int r = 0; r < 3; r++) {
        if (r) free_pairs(&R);
        if (read_pairs(&R, &rd[n_rd])) {
            n_fail++;
            return;
        }
        n_rd++;
    }
    size_t n_file = R.np;
    if (C.max_pairs && C.max_pairs < R.np) R.np = C.max_pairs;
    size_t np = R.np;
    wm_pair_t *pairs = malloc((np ? np : 1) * sizeof *pairs);
    uint64_t *d_ref = malloc((np ? np : 1) * sizeof *d_ref),
             *d_row = malloc((np ? np : 1) * sizeof *d_row);
    wm_alignment_t *out = calloc(np ? np : 1, sizeof *out);
    if (!pairs || !d_ref || !d_row || !out) {
        fprintf(stderr, "bench_global: out of memory\n");
        exit(2);
    }
    double cells = 0, steps = 0;
    uint64_t bases = 0;
    for (size_t i = 0; i < np; i++) {
        pairs[i].query = R.abuf + R.aoff[i];
        pairs[i].m = (size_t)(R.aoff[i + 1] - R.aoff[i]);
        pairs[i].target = R.bbuf + R.boff[i];
        pairs[i].n = R.boff[i + 1] - R.boff[i];
        cells += (double)pairs[i].m * (double)pairs[i].n;
        steps += block_steps(pairs[i].m, pairs[i].n);
        bases += pairs[i].m + pairs[i].n;
    }
    double rd_med = bu_median(rd, (size_t)n_rd);
    printf(
        "# pairs: %zu of the %zu in %s/%s_{a,b}.fa (%llu bases in all); read + parse of both "
        "whole files by "
        "this program (one thread): median of %d = %.4f s (%.1f M pairs/s of the files' pairs)\n",
        np, n_file, C.data, C.reads, (unsigned long long)bases, n_rd, rd_med,
        (double)n_file / rd_med / 1e6);
    printf("%-10s %8s %-17s %-4s %3s %4s %10s %9s %9s %7s %11s %11s  %s\n", "workload", "pairs",
           "tool", "dev", "thr", "reps", "median_s", "Mpairs/s", "GCUPS", "x_floor", "t/edlib",
           "sum_dist", "note");
    fflush(stdout);
    int have_ref = 0;
    char ref_name[64] = "";
    double ed_s[2][BG_MAX_LIST]; /* [distance, path][index in C.procs] */
    memset(ed_s, 0, sizeof ed_s);
    int max_k = 0, one_k = -1; /* the largest process count, and 1 */
    for (int k = 0; k < C.n_procs; k++) {
        if (C.procs[k] > C.procs[max_k]) max_k = k;
        if (C.procs[k] == 1) one_k = k;
    }

    /* rows: edlib (1, P) x (distance, path), then ours per thread count */
    typedef struct {
        tool_t tool;
        int thr;
    } row_t;
    row_t rows[4 + 2 * BG_MAX_LIST * 4];
    int n_rows = 0;
    for (int t = TL_EDLIB; t <= TL_EDLIB_PATH; t++)
        for (int k = 0; k < C.n_procs; k++)
            if (C.use[t]) rows[n_rows++] = (row_t){ (tool_t)t, C.procs[k] };
    for (int ti = 0; ti < C.n_thr; ti++)
        for (int t = TL_BV; t <= TL_FR; t++)
            if (C.use[t]) rows[n_rows++] = (row_t){ (tool_t)t, C.thr[ti] };

    for (int ri = 0; ri < n_rows; ri++) {
        tool_t tool = rows[ri].tool;
        int thr = rows[ri].thr, is_edlib = tool == TL_EDLIB || tool == TL_EDLIB_PATH;
        int nt = tool == TL_FR ? C.n_fr : 1;
        for (int k = 0; k < nt; k++) {
            int frt = tool == TL_FR ? C.fr_t[k] : 0;
            char tname[32];
            snprintf(tname, sizeof tname, tool == TL_FR ? "%s t=%d" : "%s", tool_name[tool], frt);
            if (tool != TL_FR && C.packed && !is_edlib)
                snprintf(tname, sizeof tname, "%s/cols", tool == TL_BV ? "bv" : "bv+cigar");
            qjob_t j;
            memset(&j, 0, sizeof j);
            j.tool = tool;
            j.R = &R;
            j.pairs = pairs;
            j.out = out;
            j.d = d_row;
            run_fn fn = NULL;
            size_t d_bytes = (np * sizeof(int32_t) + 7) / 8 * 8; /* then 8-byte aligned counters */
            size_t sh_bytes = d_bytes + (size_t)thr * (sizeof(uint64_t) + 256);
            void *sh = NULL;
            if (is_edlib) {
#ifdef WM_HAVE_EDLIB
                sh = bu_shared_alloc(sh_bytes);
                if (!sh) {
                    fprintf(stderr, "bench_global: mmap failed\n");
                    exit(2);
                }
                j.sh_d = sh;
                j.sh_bad = (uint64_t *)((char *)sh + d_bytes);
                j.sh_msg = (char *)(j.sh_bad + thr);
                j.procs = thr;
                j.path = tool == TL_EDLIB_PATH;
                fn = q_edlib;
#endif
            } else {
                j.cx = context_for(thr);
                j.o = wm_align_opts_default();
                j.o.mode = WM_ALIGN_GLOBAL;
                j.o.alphabet = C.alphabet;
                j.o.algo = tool == TL_DP   ? WM_ALIGN_ALGO_DP
                           : tool == TL_FR ? WM_ALIGN_ALGO_FOUR_RUSSIANS
                                           : WM_ALIGN_ALGO_BITVECTOR;
                j.o.fr_t = frt;
                j.o.cigar = tool == TL_BV_CIGAR;
                wm_context_tuning(j.cx)->pairs_batch = C.pairs_batch;
                fn = q_ours;
            }
            meas_t r;
            if (!is_edlib && fr_prebuild(j.cx, &j.o, r.msg, sizeof r.msg)) r.ok = 0;
            else measure(fn, &j, &r);
            if (sh) bu_shared_free(sh, sh_bytes);
            const char *dev = is_edlib ? "cpu" : dev_name();
            if (!r.ok) {
                n_fail++;
                printf("%-10s %8zu %-17s %-4s %3d %4s %10s %9s %9s %7s %11s %11s  !!! FAILED: %s\n",
                       C.reads_label, np, tname, dev, thr, "-", "-", "", "", "", "", "", r.msg);
                fflush(stdout);
                continue;
            }
            uint64_t sum = 0, differ = 0;
            size_t first_diff = 0;
            for (size_t i = 0; i < np; i++) sum += d_row[i];
            char note[320] = "";
            if (!have_ref) {
                have_ref = 1;
                memcpy(d_ref, d_row, np * sizeof *d_ref);
                snprintf(ref_name, sizeof ref_name, "%s (%d)", tname, thr);
            } else {
                for (size_t i = 0; i < np; i++)
                    if (d_row[i] != d_ref[i] && !differ++) first_diff = i;
                if (differ) {
                    n_mismatch++;
                    snprintf(note, sizeof note,
                             "!!! MISMATCH with %s on %llu pair(s), first #%zu: %llu vs %llu; ",
                             ref_name, (unsigned long long)differ, first_diff,
                             (unsigned long long)d_row[first_diff],
                             (unsigned long long)d_ref[first_diff]);
                }
            }
            if (tool == TL_BV_CIGAR || tool == TL_EDLIB_PATH)
                snprintf(note + strlen(note), sizeof note - strlen(note), "paths checked; ");
            if (tool == TL_BV_CIGAR && j.n_clear)
                snprintf(note + strlen(note), sizeof note - strlen(note),
                         "wm_alignment_clear median %.4f s; ",
                         bu_median(j.clear_s, (size_t)j.n_clear));
            if (r.reps == 1 && C.reps > 1)
                snprintf(note + strlen(note), sizeof note - strlen(note), "1 run (over --max-s); ");
            size_t nl = strlen(note);
            if (nl >= 2) note[nl - 2] = '\0';
            char xf[16] = "-", ratio[16] = "-";
            if ((tool == TL_BV || tool == TL_BV_CIGAR || is_edlib) &&
                (is_edlib || C.backend == WM_BACKEND_CPU))
                snprintf(xf, sizeof xf, "%.2f", r.median_s / (steps / floor_rate_for(thr)));
            int task = tool == TL_BV_CIGAR || tool == TL_EDLIB_PATH;
            int same_k = -1;
            for (int k = 0; k < C.n_procs; k++)
                if (C.procs[k] == thr) same_k = k;
            if (is_edlib) ed_s[task][same_k] = r.median_s;
            else if (C.backend == WM_BACKEND_CPU && same_k >= 0 && ed_s[task][same_k] > 0)
                fmt_ratio(ratio, sizeof ratio, r.median_s, ed_s[task][same_k], 1);
            else {
                /* the CPU at another count: vs edlib on 1 core; the GPU: vs edlib on the most cores */
                int k = C.backend == WM_BACKEND_CPU && one_k >= 0 ? one_k : max_k;
                if (C.n_procs && ed_s[task][k] > 0)
                    snprintf(ratio, sizeof ratio, "%.3f@%dc", r.median_s / ed_s[task][k],
                             C.procs[k]);
            }
            printf("%-10s %8zu %-17s %-4s %3d %4d %10.5f %9.3f %9.3f %7s %11s %11llu  %s\n",
                   C.reads_label, np, tname, dev, thr, r.reps, r.median_s,
                   (double)np / r.median_s / 1e6, cells / r.median_s / 1e9, xf, ratio,
                   (unsigned long long)sum, note);
            if (!is_edlib && C.backend == WM_BACKEND_CUDA) { /* one more call, its split */
                const wm_stats_t *stt;
                double t1 = split_call(j.cx, q_ours, &j, &stt);
                printf("# %s split of one call (%.5f s): pack %.5f s, waiting for the GPU %.5f s "
                       "(kernels %.5f s), results out %.5f s, %llu batches of up to %llu pairs\n",
                       tname, t1, stt->pairs_gpu_pack_s, stt->pairs_gpu_wait_s,
                       stt->pairs_gpu_kernel_s, stt->pairs_gpu_deliver_s,
                       (unsigned long long)stt->pairs_gpu_batches,
                       (unsigned long long)(C.pairs_batch ? C.pairs_batch
                                                          : wm_tuning_default().pairs_batch));
            }
            if (!is_edlib && C.backend == WM_BACKEND_CUDA && np == n_file)
                printf(
                    "# %s end to end from the files = read+parse %.4f s + %.5f s = %.3f M pairs/s "
                    "(sum of the two medians above)\n",
                    tname, rd_med, r.median_s, (double)np / (rd_med + r.median_s) / 1e6);
            fflush(stdout);
        }
    }
    free(pairs);
    free(d_ref);
    free(d_row);
    free(out);
    free_pairs(&R);
}

/* ---- main ---------------------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr, "usage: bench_global grid|long|pairs [--backend cpu|cuda] [-j LIST] [--reps N] "
                    "[--only LIST]\n"
                    "                    [--fr-t LIST] [--sizes LIST] [--inputs LIST] [--max-pairs "
                    "N] [--procs LIST]\n"
                    "                    [--skip-slow] [--alphabet dna|bytes] [--device N] "
                    "[--max-s S] [--budget-s S]\n"
                    "                    [--min-s S] [--floor-s S] [-d DIR]\n"
                    "       bench_global --info        (prints edlib=0|1)\n"
                    "See the header of bench/bench_global.c for what each row measures.\n");
    exit(2);
}

static void parse_tools(const char *s) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    memset(C.use, 0, sizeof C.use);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int k = -1;
        for (int i = 0; i < TL_N; i++)
            if (!strcmp(t, tool_name[i])) k = i;
        if (!strcmp(t, "bv")) k = TL_BV;
        if (!strcmp(t, "bv+cigar")) k = TL_BV_CIGAR;
        if (!strcmp(t, "fr")) k = TL_FR;
        if (k < 0) {
            fprintf(stderr, "bench_global: unknown row %s\n", t);
            exit(2);
        }
        C.use[k] = 1;
    }
}

int main(int argc, char **argv) {
    bu_prog = "bench_global";
    if (argc >= 2 && !strcmp(argv[1], "--info")) {
#ifdef WM_HAVE_EDLIB
        printf("edlib=1\n");
#else
        printf("edlib=0\n");
#endif
        return 0;
    }
    if (argc < 2) usage();
    C.mode = argv[1];
    int grid = !strcmp(C.mode, "grid"), lng = !strcmp(C.mode, "long"),
        prs = !strcmp(C.mode, "pairs");
    if (!grid && !lng && !prs) usage();
    C.data = ".bench/global";
    C.reads = "reads";
    C.backend = WM_BACKEND_CPU;
    C.alphabet = WM_ALPHABET_DNA;
    C.reps = 5;
    C.max_s = 20;
    C.budget_s = 60;
    C.min_s = 0.2;
    C.floor_s = 0.15;
    const char *thr = NULL, *procs = "1,all", *only = NULL, *frt = NULL,
               *sizes = "1000,2000,3000,4000,5000,6000,7000,8000,9000,10000";
    const char *inputs = grid ? "rand,mut" : "rand100k,real100k,rand1M,real1M";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
#define NEXT() (i + 1 < argc ? argv[++i] : (usage(), (char *)0))
        if (!strcmp(a, "--backend")) {
            const char *b = NEXT();
            if (!strcmp(b, "cpu")) C.backend = WM_BACKEND_CPU;
            else if (!strcmp(b, "cuda")) C.backend = WM_BACKEND_CUDA;
            else usage();
        } else if (!strcmp(a, "-j")) thr = NEXT();
        else if (!strcmp(a, "--reps")) C.reps = atoi(NEXT());
        else if (!strcmp(a, "--only")) only = NEXT();
        else if (!strcmp(a, "--fr-t")) frt = NEXT();
        else if (!strcmp(a, "--sizes")) sizes = NEXT();
        else if (!strcmp(a, "--inputs")) inputs = NEXT();
        else if (!strcmp(a, "--max-pairs")) C.max_pairs = (size_t)strtoull(NEXT(), NULL, 10);
        else if (!strcmp(a, "--packed")) C.packed = 1;
        else if (!strcmp(a, "--reads")) C.reads = NEXT();
        else if (!strcmp(a, "--pairs-batch")) C.pairs_batch = strtoull(NEXT(), NULL, 10);
        else if (!strcmp(a, "--procs")) procs = NEXT();
        else if (!strcmp(a, "--meet-min")) C.meet_min = strtoull(NEXT(), NULL, 10);
        else if (!strcmp(a, "--meet-cut")) C.meet_cut = 1;
        else if (!strcmp(a, "--ckpts")) {
            C.ckpts = atoi(NEXT());
            C.ckpts_set = 1;
        } else if (!strcmp(a, "--skip-slow")) C.skip_slow = 1;
        else if (!strcmp(a, "--alphabet")) {
            const char *b = NEXT();
            if (!strcmp(b, "dna")) C.alphabet = WM_ALPHABET_DNA;
            else if (!strcmp(b, "bytes")) C.alphabet = WM_ALPHABET_BYTES;
            else usage();
        } else if (!strcmp(a, "--device")) C.device = atoi(NEXT());
        else if (!strcmp(a, "--max-s")) C.max_s = atof(NEXT());
        else if (!strcmp(a, "--budget-s")) C.budget_s = atof(NEXT());
        else if (!strcmp(a, "--min-s")) C.min_s = atof(NEXT());
        else if (!strcmp(a, "--floor-s")) C.floor_s = atof(NEXT());
        else if (!strcmp(a, "-d")) C.data = NEXT();
        else usage();
#undef NEXT
    }
    if (C.reps < 1) usage();
    C.n_procs = parse_ints(procs, C.procs, BG_MAX_LIST, 1);
    if (!thr) thr = C.backend == WM_BACKEND_CUDA ? "all" : "1,all";
    C.n_thr = parse_ints(thr, C.thr, BG_MAX_LIST, 1);
    C.n_sizes = parse_ints(sizes, C.sizes, BG_MAX_LIST, 0);
    C.n_fr = parse_ints(frt ? frt : grid ? "1,2,3" : "3", C.fr_t, BG_MAX_LIST, 0);
    snprintf(C.inputs, sizeof C.inputs, "%s", inputs);
    parse_tools(only   ? only
                : grid ? "bitvector,bitvector+cigar,dp,four-russians,fr-table,edlib,edlib-path"
                : lng  ? "bitvector,bitvector+cigar,dp,four-russians,edlib,edlib-path"
                       : "bitvector,bitvector+cigar,edlib,edlib-path");
#ifndef WM_HAVE_EDLIB
    if (C.use[TL_EDLIB] || C.use[TL_EDLIB_PATH])
        fprintf(stderr, "bench_global: edlib not built in (edlib.h/libedlib not found by cmake); "
                        "its rows skipped\n");
    C.use[TL_EDLIB] = C.use[TL_EDLIB_PATH] = 0;
#endif
    if (!grid) C.use[TL_FR_TABLE] = 0;

    /* the workload's name in the rows: reads150 for the 150 bp reads */
    snprintf(C.reads_label, sizeof C.reads_label, "%s",
             strcmp(C.reads, "reads") == 0 ? "reads150" : C.reads);
    /* the header: what runs where */
    printf(
        "# bench_global %s: ours on the %s backend, -j %s, reps %d, alphabet %s, inputs %s (%s)\n",
        C.mode, dev_name(), thr, C.reps, C.alphabet == WM_ALPHABET_DNA ? "dna" : "bytes", C.data,
        grid  ? "rand{m}_a/_b/_mut.seq"
        : lng ? "{workload}_a/_b.seq"
              : (C.reads_label[0] == 'r' && strcmp(C.reads, "reads") == 0 ? "reads_a.fa, reads_b.fa"
                                                                          : C.reads));
    bu_print_device();
    if (C.backend == WM_BACKEND_CUDA) {
        char name[256] = "";
        uint64_t total = 0, free_b = 0;
        int sms = 0;
        wm_status st = wm_cuda_device_info(C.device, name, sizeof name, &total, &free_b, &sms);
        if (st != WM_OK) {
            fprintf(stderr, "bench_global: wm_cuda_device_info(%d): %s\n", C.device,
                    wm_strerror(st));
            return 2;
        }
        printf("# gpu: %s (device %d), %d SMs, %.1f GiB\n", name, C.device, sms,
               (double)total / (1u << 30));
        printf("# floor of the cuda rows: see bench_gpu_align's bit-vector step peak (a kernel; "
               "not measured by "
               "this plain-C program)\n");
    }
    printf("# floor: Myers 64-row block steps (bench_util.c, as bench_cpu_align), rate(T) = block "
           "steps/s of T "
           "threads at once (best of 5 x %.2f s):",
           C.floor_s);
    {
        int ts[2 * BG_MAX_LIST + 1], nt = 0;
        ts[nt++] = 1;
        if (C.backend == WM_BACKEND_CPU)
            for (int i = 0; i < C.n_thr; i++) ts[nt++] = C.thr[i];
        if (prs && (C.use[TL_EDLIB] || C.use[TL_EDLIB_PATH]))
            for (int i = 0; i < C.n_procs; i++) ts[nt++] = C.procs[i];
        for (int i = 0; i < nt; i++) {
            int dup = 0;
            for (int k = 0; k < i; k++) dup |= ts[k] == ts[i];
            if (!dup) printf(" T=%d %.3f G", ts[i], floor_rate_for(ts[i]) / 1e9);
        }
    }
    printf("\n# floor time = n * ceil(m/64) / rate(T) (pairs: summed); x_floor = median_s / floor "
           "time, bit-vector "
           "rows on the CPU only\n");
    printf("# edlib: EDLIB_MODE_NW, k = -1, EDLIB_TASK_DISTANCE (edlib) or EDLIB_TASK_PATH "
           "(edlib-path)%s; "
           "ours: wm_align%s mode global, max_distance -1\n",
           prs ? "; with P processes (thr) each takes 1/P of the pairs (fork)" : ", 1 core",
           prs ? "_pairs" : "");
    printf(
        "# t/edlib: median_s / edlib's for the same task (CIGAR rows vs edlib-path); CPU rows: "
        "edlib on as "
        "many cores, else on 1 (@1c); GPU rows: edlib on %s (@Nc = on N cores); < 1: ours faster\n",
        prs ? "the most processes run" : "1 core");
    printf("# reps: 1 untimed run (checks CIGARs and paths), then %d timed (median); 1 when the "
           "untimed run took "
           "over %.0f s, fewer (>= 3) when %d would take over %.0f s, more (up to %d) until %.2f s "
           "of timed runs\n",
           C.reps, C.max_s, C.reps, C.budget_s, BG_MAX_RUNS, C.min_s);
    fflush(stdout);

    if (grid) mode_grid();
    else if (lng) mode_long();
    else mode_pairs();

    for (int i = 0; i < n_cx; i++) wm_context_free(cx_cache[i].cx);
    if (n_mismatch) {
        printf("!!! %d MISMATCH(es): distances or paths disagree, see the rows marked !!!\n",
               n_mismatch);
        fprintf(stderr, "bench_global: %d mismatch(es)\n", n_mismatch);
    }
    if (n_fail) fprintf(stderr, "bench_global: %d row(s) failed\n", n_fail);
    return n_mismatch ? 1 : n_fail ? 2 : 0;
}
