/*
** bench_cpu_align.c -- wm_align (issue 4) on the CPU backend beside edlib, in
** the same process on the same bytes, with the ratio to a measured floor.
**
**   bench_cpu_align [options] TARGET_FILE QUERY_FILE...
**
** Files are read whole, as bytes (no FASTA parsing: bench/prep_align.sh makes
** plain one-sequence files). Per query, per thread count, per tool: one
** untimed run, then REPS timed runs, the median reported (see --max-s and
** --budget-s for long cells). Every cell (tool x threads) runs in a forked
** child, so that --cell-max-s can stop one that takes too long without losing
** the rest; ours builds its context (thread pool) inside the child, outside
** the timing. Clock, CPU name, file reads and the floor: bench_util.c.
**
** Options:
**   -w NAME          workload label [TARGET_FILE's base name]
**   -t LIST          thread counts, comma separated; "all" = the CPUs this
**                    process may run on [1,all]
**   -r REPS          timed runs per cell [5]
**   --tools LIST     edlib,bitvector,auto,wavefront (bv, wf) [all four]
**   --wf-max-m M     wavefront (Sellers' DP, one column at a time) only for
**                    m <= M [256]: it is O(mn) scalar work
**   -k K             max_distance for ours and k for edlib [-1 = none]
**   --edlib-k K      k for edlib alone (bounds its work; with a distance above
**                    K it reports none and is not compared) [-k]
**   --dna            ours with WM_ALPHABET_DNA (equal to byte equality on
**                    A/C/G/T-only inputs; edlib always compares bytes)
**   --max-s S        a cell whose untimed run took over S s is reported from
**                    that run alone (reps=1) [20]
**   --budget-s S     otherwise at most S s of timed runs per cell, and at
**                    least 3 runs [60]
**   --cell-max-s S   kill a cell after S s; its time reads ">S" (not an
**                    error, not compared) [0 = never]
**   --floor-s S      seconds per floor measurement [0.15]
**   --no-header      do not print the column header (the device and floor
**                    lines are always printed)
**   --info           print "edlib=0|1" and exit
**
** Output: "# " lines (device: CPU model, physical cores, logical CPUs; floor;
** definitions), then one row per cell:
**   workload m n tool threads reps median_s GCUPS x_floor t/edlib distance end start note
** GCUPS = m * n / median_s / 1e9. x_floor = median_s / floor time (below).
** t/edlib = median_s / edlib's median_s at the same thread count (< 1: we are
** faster). end is exclusive and 0-based for both tools (edlib's inclusive end
** + 1); start: ours = the largest start reaching the distance (the shortest
** substring), edlib = the start its EDLIB_TASK_LOC reports for that end (the
** longest alignment), so starts may differ and are not compared. Distance and
** end (the leftmost end reaching the best distance) must agree between every
** row of a query: a difference prints "!!! MISMATCH" and the exit code is 1.
**
** edlib: edlibAlign(query, target, EDLIB_MODE_HW, EDLIB_TASK_LOC, k). HW mode
** is infix: the query end to end, the target's flanks free. TASK_LOC returns
** the best distance, every end location (inclusive) reaching it in increasing
** order, and for each end the start of the longest alignment ending there;
** with k = -1 edlib tries k = 64, 128, ... until one is found. With T > 1
** threads the target is cut into T pieces; piece i owns the ends in
** [i*n/T, (i+1)*n/T) and is searched from 2m before its first owned position
** (an optimal alignment is at most m + distance <= 2m long); the result is the
** smallest distance of any piece and the leftmost end among the pieces that
** reach it (an end in an overlap can only be over-estimated by the piece that
** does not own it, so this is exact).
**
** Floor: the time the block steps alone would take at the best rate this CPU
** sustains. A Myers/Hyyro step makes one 64-row block of one column:
**   Xv = Eq|Mv; Xh = (((Eq&Pv)+Pv)^Pv)|Eq; Ph = Mv|~(Xh|Pv); Mh = Pv&Xh;
**   hout from the top bits of Ph/Mh; Ph = Ph<<1|hin>0; Mh = Mh<<1|hin<0;
**   Pv = Mh|~(Xv|Ph); Mv = Ph&Xv    (hin<0 also enters Eq's bit 0)
** The microbenchmark (bench_util.c) steps a column of BU_FLOOR_CHAINS blocks
** at a time, each block's hout feeding the next block's hin (as in a
** multi-block column), block 0 taking a hin held in registers, the last hout
** summed into a score;
** Eq and the states start from words read through a volatile and the states
** are pinned to registers each column, so nothing can be folded or
** vectorized; no text, no match masks, no block arrays: the only memory
** operands are what the compiler spills (gcc 12 -O3: two loop invariants,
** the score and the loop counter, all in L1). Consecutive columns overlap in
** the pipeline (block 0 of column j+1 waits only for block 0 of column j), so
** the loop runs at the CPU's integer-op throughput. rate(T) = steps per second of T
** threads running it at once (best of several runs); floor time for (m, n, T)
** = n * ceil(m/64) / rate(T): every block of every column, so a tool that
** prunes blocks (Ukkonen's band: edlib; ours when the distance is small) can
** run below it (x_floor < 1).
*/
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "warpmatch.h"
#ifdef WM_HAVE_EDLIB
#include <edlib.h>
#endif

#define BA_MAX_THREADS 16 /* entries of -t */

/* ---- one cell: a tool, a thread count, a query ------------------------------------- */

typedef enum { T_EDLIB, T_BV, T_AUTO, T_WF, T_N } tool_t;
static const char *const tool_name[T_N] = { "edlib", "bitvector", "auto", "wavefront" };

typedef struct {   /* what a child sends back; fits in one pipe write */
    int ok;        /* 1 ran; 0 failed or timed out (msg) */
    int timed_out; /* stopped by --cell-max-s: not an error */
    int found;     /* an alignment within k */
    int64_t distance;
    uint64_t start, end;
    int64_t n_ends; /* edlib: ends reaching the distance (all pieces); -1 */
    int reps;
    double median_s, first_s;
    char msg[160];
} cellres_t;

typedef struct {
    const uint8_t *q, *t;
    size_t m;
    uint64_t n;
    int threads;
    int64_t k, edlib_k;
    int dna;
    int reps;
    double max_s, budget_s;
} cellcfg_t;

/* one run of a tool: fills found/distance/start/end/n_ends, or ok = 0 */
typedef void (*runner_fn)(void *state, const cellcfg_t *c, cellres_t *r);

typedef struct {
    wm_context_t *cx;
    wm_align_opts_t o;
} ours_state_t;

static void run_ours(void *state, const cellcfg_t *c, cellres_t *r) {
    ours_state_t *s = state;
    wm_alignments_t out = { 0 };
    wm_status st = wm_align(s->cx, c->q, c->m, c->t, c->n, &s->o, &out);
    if (st != WM_OK) {
        r->ok = 0;
        snprintf(r->msg, sizeof r->msg, "wm_align: %s %s", wm_strerror(st),
                 wm_context_errmsg(s->cx));
        return;
    }
    r->ok = 1;
    r->found = out.n > 0;
    r->n_ends = -1;
    if (out.n) {
        r->distance = (int64_t)out.a[0].distance;
        r->start = out.a[0].start;
        r->end = out.a[0].end;
    }
    wm_alignments_free(&out);
}

#ifdef WM_HAVE_EDLIB
typedef struct {
    const char *q, *t;
    int m;
    uint64_t from, to; /* scanned: t[from, to) */
    EdlibAlignConfig cfg;
    int status, d, n_loc;
    uint64_t start, end; /* absolute; end exclusive */
} ed_piece_t;

static void *ed_piece_run(void *p) {
    ed_piece_t *e = p;
    EdlibAlignResult r = edlibAlign(e->q, e->m, e->t + e->from, (int)(e->to - e->from), e->cfg);
    e->status = r.status;
    e->d = r.editDistance;
    e->n_loc = 0;
    if (r.status == EDLIB_STATUS_OK && r.editDistance >= 0 && r.numLocations > 0) {
        int best = 0;
        for (int i = 1; i < r.numLocations; i++)
            if (r.endLocations[i] < r.endLocations[best]) best = i;
        e->n_loc = r.numLocations;
        /* endLocation -1 (the whole query before the target) only at d = m */
        e->end = e->from + (uint64_t)(r.endLocations[best] + 1);
        e->start = e->from + (uint64_t)(r.startLocations ? r.startLocations[best] : 0);
    }
    edlibFreeAlignResult(r);
    return NULL;
}

static void run_edlib(void *state, const cellcfg_t *c, cellres_t *r) {
    (void)state;
    int T = c->threads < 1 ? 1 : c->threads;
    ed_piece_t piece[256];
    pthread_t tid[256];
    if (T > 256) T = 256;
    uint64_t ov = 2 * (uint64_t)c->m;
    EdlibAlignConfig cfg =
        edlibNewAlignConfig((int)c->edlib_k, EDLIB_MODE_HW, EDLIB_TASK_LOC, NULL, 0);
    for (int i = 0; i < T; i++) {
        uint64_t own0 = c->n * (uint64_t)i / (uint64_t)T,
                 own1 = c->n * (uint64_t)(i + 1) / (uint64_t)T;
        piece[i] = (ed_piece_t){ (const char *)c->q,
                                 (const char *)c->t,
                                 (int)c->m,
                                 own0 > ov ? own0 - ov : 0,
                                 own1,
                                 cfg,
                                 0,
                                 -1,
                                 0,
                                 0,
                                 0 };
    }
    int started = 0;
    if (T == 1) ed_piece_run(&piece[0]);
    else
        for (; started < T; started++)
            if (pthread_create(&tid[started], NULL, ed_piece_run, &piece[started])) break;
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    if (T > 1 && started < T) {
        r->ok = 0;
        snprintf(r->msg, sizeof r->msg, "pthread_create failed");
        return;
    }
    r->ok = 1;
    r->found = 0;
    r->n_ends = 0;
    for (int i = 0; i < T; i++) {
        if (piece[i].status != EDLIB_STATUS_OK) {
            r->ok = 0;
            snprintf(r->msg, sizeof r->msg, "edlibAlign status %d", piece[i].status);
            return;
        }
        if (piece[i].d < 0 || piece[i].n_loc == 0) continue;
        if (!r->found || piece[i].d < r->distance) {
            r->found = 1;
            r->distance = piece[i].d;
            r->end = piece[i].end;
            r->start = piece[i].start;
            r->n_ends = 0;
        }
        if (piece[i].d == r->distance) {
            r->n_ends += piece[i].n_loc; /* ends in overlaps may count twice */
            if (piece[i].end < r->end) {
                r->end = piece[i].end;
                r->start = piece[i].start;
            }
        }
    }
}
#endif

/* In the child: set up, one untimed run, the timed runs. */
static void cell_measure(tool_t tool, const cellcfg_t *c, cellres_t *res) {
    memset(res, 0, sizeof *res);
    ours_state_t os;
    void *state = NULL;
    runner_fn run = NULL;
    if (tool == T_EDLIB) {
#ifdef WM_HAVE_EDLIB
        run = run_edlib;
#else
        snprintf(res->msg, sizeof res->msg, "edlib not built in");
        return;
#endif
    } else {
        wm_context_opts_t co = wm_context_opts_default();
        co.backend = WM_BACKEND_CPU;
        co.threads = c->threads;
        wm_status st = wm_context_new(&co, &os.cx);
        if (st != WM_OK) {
            snprintf(res->msg, sizeof res->msg, "wm_context_new: %s", wm_strerror(st));
            return;
        }
        os.o = wm_align_opts_default();
        os.o.mode = WM_ALIGN_INFIX;
        os.o.algo = tool == T_BV   ? WM_ALIGN_ALGO_BITVECTOR
                    : tool == T_WF ? WM_ALIGN_ALGO_WAVEFRONT
                                   : WM_ALIGN_ALGO_AUTO;
        os.o.max_distance = c->k;
        os.o.alphabet = c->dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        state = &os;
        run = run_ours;
    }
    double t0 = bu_now_s();
    run(state, c, res);
    res->first_s = bu_now_s() - t0;
    if (!res->ok) goto done;
    cellres_t first = *res;
    int reps = c->reps;
    if (res->first_s > c->max_s) reps = 0;
    else if (res->first_s * reps > c->budget_s) {
        reps = (int)(c->budget_s / res->first_s);
        if (reps < 3) reps = 3;
        if (reps > c->reps) reps = c->reps;
    }
    if (reps == 0) {
        res->reps = 1;
        res->median_s = res->first_s;
        goto done;
    }
    double *t = calloc((size_t)reps, sizeof *t);
    for (int i = 0; i < reps; i++) {
        cellres_t r = { 0 };
        double a = bu_now_s();
        run(state, c, &r);
        t[i] = bu_now_s() - a;
        if (!r.ok || r.found != first.found ||
            (r.found && (r.distance != first.distance || r.end != first.end))) {
            snprintf(res->msg, sizeof res->msg, "runs disagree (%.120s)", r.ok ? "result" : r.msg);
            res->ok = 0;
            free(t);
            goto done;
        }
    }
    qsort(t, (size_t)reps, sizeof *t, bu_cmp_double);
    res->reps = reps;
    res->median_s = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    free(t);
done:
    if (tool != T_EDLIB && state) wm_context_free(os.cx);
}

/* Runs a cell in a child process; limit_s > 0 kills it after that long. */
static void cell_run(tool_t tool, const cellcfg_t *c, double limit_s, cellres_t *res) {
    int fd[2];
    memset(res, 0, sizeof *res);
    fflush(stdout);
    fflush(stderr);
    if (pipe(fd) != 0) {
        snprintf(res->msg, sizeof res->msg, "pipe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(res->msg, sizeof res->msg, "fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        close(fd[0]);
        cellres_t r;
        cell_measure(tool, c, &r);
        ssize_t w = write(fd[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 3);
    }
    close(fd[1]);
    size_t got = 0;
    double deadline = limit_s > 0 ? bu_now_s() + limit_s : 0;
    int timed_out = 0;
    while (got < sizeof *res) {
        int wait_ms = -1;
        if (deadline > 0) {
            double left = deadline - bu_now_s();
            if (left <= 0) {
                timed_out = 1;
                break;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd p = { fd[0], POLLIN, 0 };
        int pr = poll(&p, 1, wait_ms);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) {
            timed_out = 1;
            break;
        }
        ssize_t r = read(fd[0], (char *)res + got, sizeof *res - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (timed_out) {
        memset(res, 0, sizeof *res);
        res->timed_out = 1;
        snprintf(res->msg, sizeof res->msg, "stopped after --cell-max-s %g s", limit_s);
    } else if (got < sizeof *res) {
        memset(res, 0, sizeof *res);
        snprintf(res->msg, sizeof res->msg, "child died (%s %d)",
                 WIFSIGNALED(status) ? "signal" : "exit",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    }
}

/* ---- main ---------------------------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr,
            "usage: bench_cpu_align [-w NAME] [-t LIST] [-r REPS] [--tools LIST] [--wf-max-m M]\n"
            "                       [-k K] [--edlib-k K] [--dna] [--max-s S] [--budget-s S]\n"
            "                       [--cell-max-s S] [--floor-s S] [--no-header] TARGET QUERY...\n"
            "       bench_cpu_align --info\n");
    exit(2);
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int main(int argc, char **argv) {
    bu_prog = "bench_cpu_align";
    const char *label = NULL, *thr_list = "1,all", *tool_list = "edlib,bitvector,auto,wavefront";
    int reps = 5, dna = 0, header = 1;
    int64_t k = -1, edlib_k = INT64_MIN;
    size_t wf_max_m = 256;
    double max_s = 20, budget_s = 60, cell_max_s = 0, floor_s = 0.15;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *a = argv[i];
#define NEXT() (i + 1 < argc ? argv[++i] : (usage(), (char *)0))
        if (!strcmp(a, "-w")) label = NEXT();
        else if (!strcmp(a, "-t")) thr_list = NEXT();
        else if (!strcmp(a, "-r")) reps = atoi(NEXT());
        else if (!strcmp(a, "--tools")) tool_list = NEXT();
        else if (!strcmp(a, "--wf-max-m")) wf_max_m = (size_t)strtoull(NEXT(), NULL, 10);
        else if (!strcmp(a, "-k")) k = strtoll(NEXT(), NULL, 10);
        else if (!strcmp(a, "--edlib-k")) edlib_k = strtoll(NEXT(), NULL, 10);
        else if (!strcmp(a, "--dna")) dna = 1;
        else if (!strcmp(a, "--max-s")) max_s = atof(NEXT());
        else if (!strcmp(a, "--budget-s")) budget_s = atof(NEXT());
        else if (!strcmp(a, "--cell-max-s")) cell_max_s = atof(NEXT());
        else if (!strcmp(a, "--floor-s")) floor_s = atof(NEXT());
        else if (!strcmp(a, "--no-header")) header = 0;
        else if (!strcmp(a, "--info")) {
#ifdef WM_HAVE_EDLIB
            printf("edlib=1\n");
#else
            printf("edlib=0\n");
#endif
            return 0;
        } else usage();
#undef NEXT
    }
    if (argc - i < 2 || reps < 1) usage();
    if (edlib_k == INT64_MIN) edlib_k = k;
    if (k < -1 || edlib_k < -1 || edlib_k > INT32_MAX) usage();

    /* tools and threads */
    int use[T_N] = { 0 };
    {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", tool_list);
        for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
            if (!strcmp(s, "edlib")) use[T_EDLIB] = 1;
            else if (!strcmp(s, "bitvector") || !strcmp(s, "bv")) use[T_BV] = 1;
            else if (!strcmp(s, "auto")) use[T_AUTO] = 1;
            else if (!strcmp(s, "wavefront") || !strcmp(s, "wf")) use[T_WF] = 1;
            else {
                fprintf(stderr, "bench_cpu_align: unknown tool %s\n", s);
                return 2;
            }
        }
    }
#ifndef WM_HAVE_EDLIB
    if (use[T_EDLIB])
        fprintf(
            stderr,
            "bench_cpu_align: edlib not built in (edlib.h/libedlib not found by cmake); skipped\n");
    use[T_EDLIB] = 0;
#endif
    int thr[BA_MAX_THREADS], n_thr = 0;
    {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", thr_list);
        for (char *s = strtok(buf, ","); s && n_thr < BA_MAX_THREADS; s = strtok(NULL, ",")) {
            int t = !strcmp(s, "all") ? bu_usable_cpus() : atoi(s);
            if (t < 1) {
                fprintf(stderr, "bench_cpu_align: bad thread count %s\n", s);
                return 2;
            }
            int dup = 0;
            for (int j = 0; j < n_thr; j++) dup |= thr[j] == t;
            if (!dup) thr[n_thr++] = t;
        }
    }

    size_t n_sz;
    uint8_t *target = bu_read_file(argv[i], &n_sz);
    if (!target) return 2;
    uint64_t n = n_sz;
    if (use[T_EDLIB] && n > INT32_MAX) {
        fprintf(
            stderr,
            "bench_cpu_align: target over 2^31-1 bytes: edlib takes int lengths; edlib skipped\n");
        use[T_EDLIB] = 0;
    }
    if (!label) label = base_name(argv[i]);

    /* header: device, floor, definitions */
    bu_print_device();
    double frate[BA_MAX_THREADS];
    printf("# floor: Myers 64-row block steps (20 64-bit ALU ops each), columns of %d blocks "
           "chained by hin/hout, "
           "registers only; rate(T) = block steps/s of T threads at once (best of 5 x %.2f s):",
           BU_FLOOR_CHAINS, floor_s);
    for (int j = 0; j < n_thr; j++) {
        frate[j] = bu_floor_rate(thr[j], floor_s, 5);
        printf(" T=%d %.3f G", thr[j], frate[j] / 1e9);
    }
    printf("\n# floor time = n * ceil(m/64) / rate(T); x_floor = median_s / floor time (1.00 = at "
           "the floor; "
           "below 1 = the tool skipped blocks, e.g. by Ukkonen's band)\n");
    printf("# GCUPS = m*n/median_s/1e9; t/edlib = median_s / edlib's at the same threads (< 1: "
           "ours faster)\n");
    printf("# end: exclusive, 0-based, the leftmost end at the best distance (edlib's inclusive "
           "end + 1); "
           "start: ours = largest (shortest substring), edlib = its TASK_LOC start (longest), not "
           "compared\n");
    printf("# edlib: HW mode, EDLIB_TASK_LOC, k=%lld%s; T threads = T target pieces overlapping by "
           "2m; "
           "ours: wm_align infix, CPU backend, max_distance=%lld, alphabet %s; wavefront only for "
           "m <= %zu\n",
           (long long)edlib_k, edlib_k < 0 ? " (edlib doubles k from 64)" : "", (long long)k,
           dna ? "DNA" : "bytes", wf_max_m);
    printf(
        "# reps: 1 untimed run, then %d timed (median); 1 when the untimed run took over %.0f s, "
        "fewer (>= 3) when %d would take over %.0f s\n",
        reps, max_s, reps, budget_s);
    if (header)
        printf("%-12s %7s %10s %-10s %3s %4s %10s %8s %7s %7s %9s %10s %10s  %s\n", "workload", "m",
               "n", "tool", "thr", "reps", "median_s", "GCUPS", "x_floor", "t/edlib", "distance",
               "end", "start", "note");
    fflush(stdout);

    int mismatches = 0, failures = 0;
    for (int qi = i + 1; qi < argc; qi++) {
        size_t m;
        uint8_t *q = bu_read_file(argv[qi], &m);
        if (!q) {
            failures++;
            continue;
        }
        if (m == 0) {
            fprintf(stderr, "bench_cpu_align: %s is empty\n", argv[qi]);
            free(q);
            failures++;
            continue;
        }
        const char *qname = base_name(argv[qi]);
        int have_ref = 0;
        cellres_t ref = { 0 };
        char ref_name[64] = "";
        for (int j = 0; j < n_thr; j++) {
            double edlib_t = 0;
            for (int tool = 0; tool < T_N; tool++) {
                if (!use[tool]) continue;
                if (tool == T_WF && m > wf_max_m) continue;
                cellcfg_t c = { q, target, m, n, thr[j], k, edlib_k, dna, reps, max_s, budget_s };
                cellres_t r;
                cell_run((tool_t)tool, &c, cell_max_s, &r);
                char note[256];
                snprintf(note, sizeof note, "%s", qname);
                if (!r.ok) {
                    char tb[24] = "n/a";
                    if (r.timed_out) snprintf(tb, sizeof tb, ">%g", cell_max_s);
                    else failures++;
                    printf("%-12s %7zu %10llu %-10s %3d %4s %10s %8s %7s %7s %9s %10s %10s  %s; "
                           "%s%s\n",
                           label, m, (unsigned long long)n, tool_name[tool], thr[j], "-", tb, "",
                           "", "", "", "", "", note, r.timed_out ? "" : "!!! FAILED: ", r.msg);
                    fflush(stdout);
                    continue;
                }
                double cells = (double)m * (double)n;
                double ftime = (double)n * (double)((m + 63) / 64) / frate[j];
                char xf[16] = "-", ratio[16] = "-", dist[24], endb[24], startb[24];
                if (tool != T_WF) snprintf(xf, sizeof xf, "%.2f", r.median_s / ftime);
                if (tool == T_EDLIB) edlib_t = r.median_s;
                else if (edlib_t > 0) snprintf(ratio, sizeof ratio, "%.3f", r.median_s / edlib_t);
                if (r.found) {
                    snprintf(dist, sizeof dist, "%lld", (long long)r.distance);
                    snprintf(endb, sizeof endb, "%llu", (unsigned long long)r.end);
                    snprintf(startb, sizeof startb, "%llu", (unsigned long long)r.start);
                } else {
                    snprintf(dist, sizeof dist, ">%lld",
                             (long long)(tool == T_EDLIB ? edlib_k : k));
                    snprintf(endb, sizeof endb, "-");
                    snprintf(startb, sizeof startb, "-");
                }
                if (tool == T_EDLIB && r.found)
                    snprintf(note + strlen(note), sizeof note - strlen(note),
                             "; %lld end(s) at the distance", (long long)r.n_ends);
                if (r.reps == 1 && reps > 1)
                    snprintf(note + strlen(note), sizeof note - strlen(note),
                             "; 1 run (over --max-s)");
                /* agreement: the first row that found one is the reference */
                if (r.found) {
                    if (!have_ref) {
                        have_ref = 1;
                        ref = r;
                        snprintf(ref_name, sizeof ref_name, "%s T=%d", tool_name[tool], thr[j]);
                    } else if (r.distance != ref.distance || r.end != ref.end) {
                        mismatches++;
                        snprintf(note + strlen(note), sizeof note - strlen(note),
                                 "; !!! MISMATCH with %s (distance %lld end %llu)", ref_name,
                                 (long long)ref.distance, (unsigned long long)ref.end);
                    }
                } else if (have_ref && ((tool == T_EDLIB ? edlib_k : k) < 0 ||
                                        ref.distance <= (tool == T_EDLIB ? edlib_k : k))) {
                    mismatches++; /* it should have found one within its limit */
                    snprintf(note + strlen(note), sizeof note - strlen(note),
                             "; !!! MISMATCH: none found, %s found distance %lld", ref_name,
                             (long long)ref.distance);
                }
                printf("%-12s %7zu %10llu %-10s %3d %4d %10.4f %8.3f %7s %7s %9s %10s %10s  %s\n",
                       label, m, (unsigned long long)n, tool_name[tool], thr[j], r.reps, r.median_s,
                       cells / r.median_s / 1e9, xf, ratio, dist, endb, startb, note);
                fflush(stdout);
            }
        }
        free(q);
    }
    free(target);
    if (mismatches) {
        printf("!!! %d MISMATCH(es) between tools (distance or leftmost end), see the rows marked "
               "!!!\n",
               mismatches);
        fprintf(stderr, "bench_cpu_align: %d mismatch(es)\n", mismatches);
    }
    if (failures) fprintf(stderr, "bench_cpu_align: %d cell(s) failed\n", failures);
    return mismatches ? 1 : failures ? 2 : 0;
}
