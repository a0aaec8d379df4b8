/*
** choose.c -- `--backend auto` chosen per invocation by the library's cost
** model, and the one line `--explain-backend` prints (choose.h).
**
**     warpmatch: backend cpu: predicted 0.08 s on 16 CPU threads vs 0.45 s on
**     the GPU (start-up 0.40 s, set-up 0.01 s, 1.07 GB moved at 29 GB/s,
**     kernels at 2929 GB/s; search k=0, 1.07 GB)
*/
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "choose.h"
#include "mpi/dist.h"

/* ---- the line --------------------------------------------------------------- */

/* "1.07 GB", "25 GB/s", "7.02 T cells", "460 G cells/s": a decimal prefix. */
static const char *amount(char *buf, size_t len, double v, const char *unit) {
    static const char *const prefix[] = { "", "k", "M", "G", "T", "P", "E" };
    int p = 0;
    while (v >= 1000.0 && p < 6) {
        v /= 1000.0;
        p++;
    }
    int bytes = unit[0] == 'B';
    snprintf(buf, len, "%.3g %s%s%s", v, prefix[p], p && !bytes ? " " : "", unit);
    return buf;
}

/* The line: "backend NAME: " then the model's two predictions, the chosen
** one first, or `why` (a choice the model did not make) and them after. */
static void explain(const wm_backend_choice_t *c, const char *name, const char *why,
                    const char *unknown) {
    char work[32], moved[32], mrate[32], grate[32], unit_s[16];
    snprintf(unit_s, sizeof unit_s, "%s/s", c->unit);
    amount(work, sizeof work, c->work, c->unit);
    char cpu[96];
    snprintf(cpu, sizeof cpu, "%.2f s on %d CPU thread%s", c->cpu_s, c->threads,
             c->threads == 1 ? "" : "s");
    char gpu[256] = "";
    if (c->gpu_s >= 0)
        snprintf(gpu, sizeof gpu,
                 "%.2f s on the GPU (start-up %.2f s, set-up %.2f s, %s moved at %s, "
                 "kernels at %s)",
                 c->gpu_s, c->gpu_startup_s, c->gpu_fixed_s,
                 amount(moved, sizeof moved, c->gpu_move_s * c->move_rate, "B"),
                 amount(mrate, sizeof mrate, c->move_rate, "B/s"),
                 amount(grate, sizeof grate, c->gpu_rate, unit_s));
    char note[160] = "";
    if (unknown)
        snprintf(note, sizeof note, "; the size of %.100s is unknown and counts as 0", unknown);
    int gpu_first = why == NULL && c->backend == WM_BACKEND_CUDA;
    const char *first = gpu_first ? gpu : cpu, *second = gpu_first ? cpu : gpu;
    if (wm_dist.rank != 0) return;
    fprintf(stderr, "%s: backend %s: %s%spredicted %s%s%s (%s, %s%s)\n", WM_PROG, name,
            why ? why : "", why ? "; " : "", first, second[0] ? " vs " : "", second, c->row, work,
            note);
}

/* ---- the choice --------------------------------------------------------------- */

/* Whether the NVIDIA driver lists a GPU this process may use, asked without
** starting CUDA: asking CUDA (cudaGetDeviceCount) initialises the driver on
** this thread, 0.1-0.2 s before anything else can start, where the context's
** own thread (args.c) would do it while the input is read and, with the
** cover, scanned. The driver lists its GPUs in /proc/driver/nvidia/gpus (or
** has made /dev/nvidia0); CUDA_VISIBLE_DEVICES empty or -1 hides them. 0
** means "not known": CUDA is asked. A wrong yes costs only that start-up:
** auto's context falls back to the CPU quietly. */
static int gpu_listed(void) {
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis != NULL && (vis[0] == '\0' || vis[0] == '-')) return 0;
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    int found = 0;
    for (struct dirent *e; d != NULL && !found && (e = readdir(d)) != NULL;)
        found = e->d_name[0] != '.';
    if (d != NULL) closedir(d);
    return found || access("/dev/nvidia0", F_OK) == 0;
}

/* choose.h: the CPU scans what it can in the start-up, the GPU the rest. */
double wm_cli_cover_seconds(const wm_backend_choice_t *c, double bytes, double *covered) {
    double scan = c->cpu_rate > 0 ? c->work / c->cpu_rate : 0; /* the CPU's scan of it all */
    if (c->gpu_s < 0 || bytes <= 0 || scan <= 0) return -1.0;
    *covered = bytes * c->gpu_startup_s / scan;
    if (*covered >= bytes) return -1.0;
    return c->gpu_s - *covered / bytes * (c->gpu_move_s + c->gpu_work_s);
}

static void explain_cover(const wm_backend_choice_t *c, double cover_s, double covered,
                          double bytes) {
    char a[32], b[32], mrate[32], grate[32], unit_s[16], work[32];
    snprintf(unit_s, sizeof unit_s, "%s/s", c->unit);
    if (wm_dist.rank != 0) return;
    fprintf(stderr,
            "%s: backend cuda, the CPU covering its start-up: predicted %.2f s (the CPU "
            "scans about %s in the start-up of %.2f s, the GPU the other %s: set-up %.2f s, "
            "moved at %s, kernels at %s) vs %.2f s on %d CPU thread%s alone and %.2f s on "
            "the GPU alone (%s, %s)\n",
            WM_PROG, cover_s, amount(a, sizeof a, covered, "B"), c->gpu_startup_s,
            amount(b, sizeof b, bytes - covered, "B"), c->gpu_fixed_s,
            amount(mrate, sizeof mrate, c->move_rate, "B/s"),
            amount(grate, sizeof grate, c->gpu_rate, unit_s), c->cpu_s, c->threads,
            c->threads == 1 ? "" : "s", c->gpu_s, c->row,
            amount(work, sizeof work, c->work, c->unit));
}

/* wm_cli_choose_backend; cover: a search whose whole files the CPU may scan
** during the GPU's start-up (its cover fields are set when that is chosen),
** else NULL. */
static void choose_backend(wm_cli_shared_t *sh, wm_workload_t *w, const char *unknown,
                           wm_cli_search_args_t *cover) {
    wm_context_opts_t *co = &sh->co;
    wm_backend_choice_t c;
    int built = wm_cuda_built();
    w->threads = co->threads;
    w->n_gpus = built ? 1 : 0; /* whether one is found is asked below, when it matters */
    if (wm_backend_choose(w, &c) != WM_OK) return; /* cannot happen: AUTO stays */
    if (co->backend != WM_BACKEND_AUTO || wm_dist.active) {
        if (sh->explain_backend)
            explain(&c, wm_cli_backend_words[co->backend],
                    co->backend == WM_BACKEND_CPU    ? "asked for with --backend cpu"
                    : co->backend == WM_BACKEND_CUDA ? "asked for with --backend cuda"
                                                     : "under MPI every rank takes a GPU when "
                                                       "one is found",
                    unknown);
        return;
    }
    const char *why = NULL;
    double cover_s = -1.0, covered = 0.0;
    if (cover != NULL && built && !w->cpu_only && unknown == NULL && sh->co.progress == NULL) {
        cover_s = wm_cli_cover_seconds(&c, (double)w->bytes, &covered);
        if (cover_s >= 0 && cover_s < c.cpu_s) c.backend = WM_BACKEND_CUDA;
        else cover_s = -1.0;
    }
    if (!built) {
        why = "no CUDA backend in this build";
    } else if (w->cpu_only) {
        why = "the GPU backend would run this on the CPU";
    } else if (c.backend == WM_BACKEND_CUDA || sh->explain_backend) {
        /* Is there a GPU? Asked only when it would win, or when the
        ** explanation must not predict for a GPU that is not there, which
        ** asks CUDA itself; the choice alone trusts the driver's list. */
        int found = !sh->explain_backend && gpu_listed() ? 1 : wm_cuda_device_count() > 0;
        if (!found) {
            why = "no GPU found";
            c.backend = WM_BACKEND_CPU;
            c.gpu_s = -1.0;
        }
    }
    if (c.backend == WM_BACKEND_CPU) {
        co->backend = WM_BACKEND_CPU;
        co->devices = NULL; /* a --gpus list is not used on the CPU */
        co->n_devices = 0;
    } /* the GPU: AUTO stays, so that a GPU that fails to start falls back */
    if (c.backend == WM_BACKEND_CUDA && cover_s >= 0) {
        cover->cover = 1;
        cover->cover_gpu_fixed_s = c.gpu_fixed_s;
        cover->cover_gpu_s_per_byte = (c.gpu_move_s + c.gpu_work_s) / (double)w->bytes;
        if (sh->explain_backend) explain_cover(&c, cover_s, covered, (double)w->bytes);
        return;
    }
    if (sh->explain_backend)
        explain(&c, c.backend == WM_BACKEND_CUDA ? "cuda" : "cpu", why, unknown);
}

void wm_cli_choose_backend(wm_cli_shared_t *sh, wm_workload_t *w, const char *unknown) {
    choose_backend(sh, w, unknown, NULL);
}

/* ---- the commands' workloads ---------------------------------------------- */

/* Bytes of a FILE argument before it is read: a regular file's size (gzip,
** known by its magic bytes: 4 times it, about what DNA inflates to); -1 for
** standard input or a pipe; 0 for a file that cannot be read (it is
** reported when its turn comes). */
static double file_bytes(const char *path) {
    struct stat st;
    if (strcmp(path, "-") == 0) return -1.0;
    if (stat(path, &st) != 0) return 0.0;
    if (!S_ISREG(st.st_mode)) return -1.0;
    unsigned char magic[2] = { 0, 0 };
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0.0;
    ssize_t got = read(fd, magic, 2);
    close(fd);
    int gz = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    return (double)st.st_size * (gz ? 4.0 : 1.0);
}

void wm_cli_choose_search(wm_cli_search_args_t *a, int argc, char **argv, int first) {
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    double bytes = 0;
    const char *unknown = NULL;
    if (first >= argc) {
        unknown = "standard input";
    } else {
        for (int i = first; i < argc; i++) {
            double b = file_bytes(argv[i]);
            if (b < 0) unknown = strcmp(argv[i], "-") == 0 ? "standard input" : argv[i];
            else bytes += b;
        }
    }
    w.bytes = (uint64_t)bytes;
    if (a->is_set) {
        w.kind = WM_WORK_SEARCH_SET;
        w.n = a->set.n;
        w.k = a->o.max_edits;
        size_t shortest = SIZE_MAX, longest = 0;
        for (size_t i = 0; i < a->set.n; i++) {
            if (a->set.len[i] < shortest) shortest = a->set.len[i];
            if (a->set.len[i] > longest) longest = a->set.len[i];
        }
        w.m = a->set.n ? shortest : 0;
        w.hamming = a->o.metric == WM_METRIC_HAMMING && a->sh.alphabet != WM_ALPHA_TEXT;
        /* Sets within k errors the GPU does not take (src/setk/setk_cuda.cu,
        ** supports): text, patterns over 256, exact regions with edits. */
        int regions = a->o.exact_prefix > 0 || a->o.exact_suffix > 0;
        w.cpu_only = w.k > 0 && (a->sh.alphabet == WM_ALPHA_TEXT || longest > 256 ||
                                 (regions && a->o.metric != WM_METRIC_HAMMING));
        /* exact sets: the algorithms the GPU does not run (multi_cuda.cu, supports) */
        if (w.k == 0 && (a->o.algo == WM_ALGO_WUMANBER || a->o.algo == WM_ALGO_TEDDY))
            w.cpu_only = 1;
    } else {
        w.kind = WM_WORK_SEARCH;
        w.m = a->m;
        w.k = a->o.max_edits;
        /* What the GPU backend hands to the CPU (DESIGN.md, issue 2). */
        w.cpu_only = (a->o.metric == WM_METRIC_HAMMING && w.k > 4) || (a->m > 4096 && w.k > 8) ||
                     a->o.exact_prefix > 0 || a->o.exact_suffix > 0; /* regions: CPU code */
    }
    /* --stream reads every input in batches (and FASTQ, compressed and
    ** very large files are read so anyway), which wait for the context. A
    ** seeded set within k has no CPU cover: the CPU's part would build the
    ** host's seed table (0.3 s of 16 cores for a million reads) that the GPU
    ** builds itself, and the GPU would then upload the host's (setk.h); a
    ** million reads took 2.7 s so against 0.94 s on the GPU alone. */
    int seeded = a->is_set && w.k > 0 && w.m / ((uint64_t)w.k + 1) >= 12;
    choose_backend(&a->sh, &w, unknown, a->stream > 0 || a->streamed_input || seeded ? NULL : a);
}

void wm_cli_choose_align(const wm_cli_align_run_t *r, wm_cli_shared_t *sh) {
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    w.cigar = r->o.cigar;
    double cells = 0, bytes = 0, qsum = 0, tsum = 0;
    uint64_t m, n;
    if (r->tsv) {
        for (size_t i = 0; i < r->pt.n; i++) {
            cells += (double)r->pt.len[2 * i] * (double)r->pt.len[2 * i + 1];
            bytes += (double)r->pt.len[2 * i] + (double)r->pt.len[2 * i + 1];
        }
        w.kind = WM_WORK_ALIGN_PAIRS;
        w.n = r->pt.n;
    } else {
        for (size_t i = 0; i < r->q.n_rec; i++) {
            wm_cli_input_rec(&r->q, i, &m);
            qsum += (double)m;
            if (r->a->pairs && i < r->t.n_rec) {
                wm_cli_input_rec(&r->t, i, &n);
                cells += (double)m * (double)n;
            }
        }
        for (size_t j = 0; j < r->t.n_rec; j++) {
            wm_cli_input_rec(&r->t, j, &n);
            tsum += (double)n;
        }
        if (!r->a->pairs) cells = qsum * tsum; /* every query against every target */
        if (r->o.mode == WM_ALIGN_GLOBAL) {
            w.kind = WM_WORK_ALIGN_PAIRS;
            w.n = wm_cli_align_pair_count(r);
            bytes =
                r->a->pairs ? qsum + tsum : qsum * (double)r->t.n_rec + tsum * (double)r->q.n_rec;
        } else {
            /* work = (m + 32 n) x target bytes: --pairs as one mean query */
            w.kind = WM_WORK_ALIGN_INFIX;
            w.n = r->a->pairs ? 1 : r->q.n_rec;
            w.m =
                r->a->pairs && r->q.n_rec ? (uint64_t)(qsum / (double)r->q.n_rec) : (uint64_t)qsum;
            bytes = tsum;
        }
    }
    w.bytes = (uint64_t)bytes;
    w.cells = (uint64_t)cells;
    wm_cli_choose_backend(sh, &w, NULL);
}

void wm_cli_choose_dtw(wm_cli_dtw_run_t *r) {
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    w.kind = WM_WORK_DTW;
    w.n = r->q.n;
    for (size_t i = 0; i < r->q.n; i++) w.m += r->q.a[i].n;
    w.bytes = r->s.n > 0 ? 8 * r->s.a[0].n : 0;
    /* ucr prunes most windows: the cost model has no row for it, so auto
    ** keeps it on the CPU (--backend cuda runs top 1 on the GPU) */
    w.cpu_only = r->a->o.mode == WM_DTW_UCR;
    wm_cli_choose_backend(&r->a->sh, &w, NULL);
}

/* ---- align's guess before reading ----------------------------------------------- */

/* A FASTA or FASTQ file's records and sequence bytes, estimated from its
** first 64 KiB and its size: 0, or -1 when they cannot be (gzip, not a
** regular file, no whole record in the sample). */
#define PEEK_BYTES (64u << 10)
static int peek_records(const char *path, double *n_rec, double *seq_bytes) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return -1;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    static char buf[PEEK_BYTES];
    ssize_t got = read(fd, buf, sizeof buf);
    close(fd);
    if (got < 2 || (buf[0] != '>' && buf[0] != '@')) return -1; /* gzip, plain, empty */
    int fastq = buf[0] == '@';
    /* whole lines only: the sample ends at its last newline */
    size_t end = (size_t)got;
    while (end > 0 && buf[end - 1] != '\n') end--;
    double recs = 0, seq = 0;
    size_t line = 0; /* the line's number within a FASTQ record */
    for (size_t at = 0; at < end;) {
        const char *nl = memchr(buf + at, '\n', end - at);
        size_t len = (size_t)(nl - (buf + at));
        if (len > 0 && buf[at + len - 1] == '\r') len--;
        if (fastq) {
            if (line == 0) recs++;
            else if (line == 1) seq += (double)len;
            line = (line + 1) % 4;
        } else if (len > 0 && buf[at] == '>') {
            recs++;
        } else {
            seq += (double)len;
        }
        at = (size_t)(nl - buf) + 1;
    }
    if (recs < 1 || seq <= 0) return -1;
    double scale = (double)st.st_size / (double)end; /* 1 when the sample is the file */
    *n_rec = recs * scale;
    *seq_bytes = seq * scale;
    return 0;
}

int wm_cli_align_gpu_likely(const wm_cli_align_args_t *a, const char *q, const char *t) {
    if (a->sh.co.backend != WM_BACKEND_AUTO || !wm_cuda_built() || wm_dist.active || !a->pairs ||
        a->o.mode != WM_ALIGN_GLOBAL || q == NULL || t == NULL)
        return 0;
    double qn, qs, tn, ts;
    if (peek_records(q, &qn, &qs) < 0 || peek_records(t, &tn, &ts) < 0) return 0;
    double n = qn < tn ? qn : tn; /* pairs */
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    w.kind = WM_WORK_ALIGN_PAIRS;
    w.cigar = a->o.cigar;
    w.n = (uint64_t)n;
    w.bytes = (uint64_t)(n * (qs / qn + ts / tn));
    w.cells = (uint64_t)(n * (qs / qn) * (ts / tn));
    w.threads = a->sh.co.threads;
    w.n_gpus = 1; /* whether one is there is the start-up's to find */
    wm_backend_choice_t c;
    return wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA;
}

/* ---- search's guess before reading: a seeded set within k ------------------------ */

int wm_cli_search_gpu_likely(const wm_cli_search_args_t *a, int argc, char **argv, int first) {
    if (a->sh.co.backend != WM_BACKEND_AUTO || !wm_cuda_built() || wm_dist.active || !a->is_set ||
        a->o.max_edits == 0 || a->sh.alphabet == WM_ALPHA_TEXT || a->stream > 0 || first >= argc ||
        a->o.exact_prefix > 0 || a->o.exact_suffix > 0 || !gpu_listed())
        return 0;
    double n = 0, seq = 0, bytes = 0;
    for (size_t i = 0; i < a->n_pat_args; i++) {
        double pn, ps;
        if (a->pat_args[i].opt != 'f') continue; /* a few -e strings weigh nothing */
        if (peek_records(a->pat_args[i].arg, &pn, &ps) < 0) return 0;
        n += pn;
        seq += ps;
    }
    for (int i = first; i < argc; i++) {
        double b = file_bytes(argv[i]);
        if (b < 0) return 0;
        bytes += b;
    }
    wm_workload_t w;
    memset(&w, 0, sizeof w);
    w.kind = WM_WORK_SEARCH_SET;
    w.n = (uint64_t)n;
    w.k = a->o.max_edits;
    w.m = n >= 1 ? (uint64_t)(seq / n) : 0; /* the mean: the shortest is not known yet */
    w.hamming = a->o.metric == WM_METRIC_HAMMING;
    w.bytes = (uint64_t)bytes;
    w.threads = a->sh.co.threads;
    w.n_gpus = 1;
    /* seeded sets only: the others have the CPU's cover (wm_cli_choose_search) */
    if (w.n == 0 || w.m / ((uint64_t)w.k + 1) < 12) return 0;
    wm_backend_choice_t c;
    return wm_backend_choose(&w, &c) == WM_OK && c.backend == WM_BACKEND_CUDA;
}
