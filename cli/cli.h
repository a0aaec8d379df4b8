/*
** cli.h -- what the files of the command-line tool share: the commands,
** error printing in the "warpmatch: message" form, and option value parsers.
**
** Conventions (STYLE.md, "CLI behaves like grep/ripgrep"): results go to
** stdout, messages to stderr as "warpmatch: ...", exit status 0 = a match,
** 1 = none, 2 = an error.
*/
#ifndef WM_CLI_H
#define WM_CLI_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warpmatch.h"

#define WM_PROG "warpmatch"

/* Exit statuses, as grep and ripgrep use them. */
enum { WM_EXIT_MATCH = 0, WM_EXIT_NOMATCH = 1, WM_EXIT_ERROR = 2 };

/* The commands. argv[0] is the command's name ("search", "dtw"); each
** returns the process exit status. */
int wm_cmd_search(int argc, char **argv);
int wm_cmd_align(int argc, char **argv);
int wm_cmd_dtw(int argc, char **argv);
int wm_cmd_info(int argc, char **argv);

/* Print "warpmatch: <formatted message>\n" on stderr. */
void wm_cli_error(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The last message wm_cli_error formed (without "warpmatch: "), printed or
** not: under MPI only rank 0 prints, and the others' messages travel to it. */
const char *wm_cli_last_error(void);

/* --gpus all|N[,N...]: the devices of one process (co->devices, co->n_devices;
** co->backend is left to the caller). "all" lists every GPU that
** wm_cuda_device_count() finds; otherwise non-negative ordinals separated by
** commas, no empty items, at most WM_CLI_MAX_GPUS, repeats allowed (two
** contexts on one GPU). The list lives in a static array of the parser (until
** its next call), so co may keep pointing at it for the whole process.
** Returns 0, or -1 after "warpmatch: invalid value 'x' for --gpus (...)" or
** "warpmatch: --gpus all: no CUDA GPU found". */
#define WM_CLI_MAX_GPUS 64
int wm_cli_option_gpus(const char *val, wm_context_opts_t *co);

/* Parse a whole string as an unsigned decimal number no larger than max.
** allow_suffix accepts one of K, M, G, T (powers of 1024, either case).
** Returns 0 and sets *out, or -1 (nothing printed). */
int wm_cli_parse_u64(const char *s, uint64_t max, int allow_suffix, uint64_t *out);

/* Parse an option value with wm_cli_parse_u64; on failure print
** "warpmatch: invalid value 'x' for --name (...)" and return -1. */
int wm_cli_option_u64(const char *name, const char *s, uint64_t max, int allow_suffix,
                      uint64_t *out);

/* Index of s in the NULL-terminated list `words`, or -1. */
int wm_cli_lookup(const char *s, const char *const *words);

/* wm_cli_lookup, printing "warpmatch: unknown OPT 'val' (expected a, b or c)"
** when val is not among words. Returns the index or -1. */
int wm_cli_choose(const char *opt, const char *val, const char *const *words);

/* After getopt_long (with a leading ':' in its option string and opterr = 0)
** returned c = ':' or '?': print "option '-k' needs a value" or
** "unknown option '--x'" (argv is the one given to getopt_long). */
void wm_cli_getopt_error(int c, char **argv);

/* 1 when p[0, m) holds IUPAC nucleotide letters only (ACGTURYSWKMBDHVN,
** either case), else 0 (a NUL byte included). */
int wm_cli_is_iupac(const uint8_t *p, size_t m);

/* The --backend words, in wm_backend_t order, NULL-terminated. */
extern const char *const wm_cli_backend_words[];

/* What went wrong in a failed library call: the context's last message when
** it has one (CUDA's own text included), else wm_strerror(st). */
const char *wm_cli_status_msg(const wm_context_t *cx, wm_status st);

/* wm_context_new; on failure print "cannot use the B backend: why", free
** the context and set *cx to NULL. Returns the library's status. */
wm_status wm_cli_context_new(const wm_context_opts_t *co, wm_context_t **cx);

/* A context made on a thread of its own while the command reads its first
** input, so that CUDA's start-up (0.3-0.4 s: the driver, the primary
** context) overlaps the reading and parsing instead of preceding it. A CPU
** context costs microseconds and is made at once, as wm_cli_context_new
** does, its error printed there. */
typedef struct {
    pthread_t thread;
    int running; /* a thread to join */
    wm_context_opts_t co;
    wm_context_t *cx;
    wm_status st;
    double seconds;     /* how long wm_context_new took */
    double started;     /* wm_cli_now() when it was started */
    volatile int ready; /* the thread has made it (read by the warm-up) */
    size_t warmed;      /* input bytes the warm-up faulted in */
} wm_cli_context_bg_t;

/* Start making a context of co (copied; what its pointers point to must
** live until wm_cli_context_wait). WM_OK, or a CPU context's failure. */
wm_status wm_cli_context_start(wm_cli_context_bg_t *bg, const wm_context_opts_t *co);
/* The context, once made (waits for the thread the first time; later calls
** return at once). On failure "cannot use the B backend: why" is printed
** once and *cx is NULL. */
wm_status wm_cli_context_wait(wm_cli_context_bg_t *bg, wm_context_t **cx);
/* --backend cuda: wm_cli_context_start, so that CUDA starts while the
** inputs are read; returns whether it was started (0 for any other backend,
** or a build without CUDA: the context is then made after the reading, its
** errors in the order they always came). */
int wm_cli_context_start_cuda(wm_cli_context_bg_t *bg, const wm_context_opts_t *co);
/* The context: the one started (wm_cli_context_wait), else a new one of co. */
wm_status wm_cli_context_take(wm_cli_context_bg_t *bg, int started, const wm_context_opts_t *co,
                              wm_context_t **cx);
/* A context started but not wanted (the command failed before it): the
** thread joined, the context freed, nothing printed. */
void wm_cli_context_abandon(wm_cli_context_bg_t *bg);
/* A context still being made that the command no longer needs (the CPU did
** all the work meanwhile): its thread is left to run, and the process ends
** through wm_cli_exit without joining it (exit's handlers would meet the
** driver half started; the kernel releases the GPU as for a killed process).
** Returns 1 when it was left; 0 when there is no thread still making it (a
** CPU context, made at once, or one already made): the caller then takes it
** with wm_cli_context_wait and frees it as usual. */
int wm_cli_context_leave(wm_cli_context_bg_t *bg);
/* The end of the process with status rc: _exit when a context was left
** running (stdout is closed by then, stderr unbuffered), else rc returned. */
int wm_cli_exit(int rc);

/* wm_cli_context_wait, and while the context is still being made, the
** first pages of the input (p, n) faulted in by threads (-j, or all
** cores): a memory-mapped file's pages are otherwise faulted in one by one
** by the backend's first pass over them, after the wait. Stops touching
** when the context is ready. */
wm_status wm_cli_context_wait_warm(wm_cli_context_bg_t *bg, wm_context_t **cx, const void *p,
                                   size_t n);

/* Give stdout a 1 MiB buffer, so that a command's lines go out in large
** writes; line-buffered instead when stdout is a terminal. */
void wm_cli_buffer_stdout(void);

/* The exit status after --help, --version or info printed: 0, or 2 after
** "warpmatch: error writing the output: ..." when stdout could not be
** written (wm_cli_flush_stdout). */
int wm_cli_help_status(void);

/* Flush stdout at the end of a command; write_failed says a write failed
** before, with errno write_errno (0 = unknown). Returns 0 when everything
** was written, 1 when the reader closed the pipe (`| head -1` with SIGPIPE
** ignored: a quiet end, as in ripgrep), -1 after "warpmatch: error writing
** the output: ...". */
int wm_cli_flush_stdout(int write_failed, int write_errno);

/* The last word on stdout, for main() after any command: flush and close
** it, and when that fails (or a write failed before) and no command said
** so, print "warpmatch: error writing the output: ..." and return 2; else
** return rc. A closed pipe stays quiet. Nothing may be written to stdout
** after it. */
int wm_cli_close_stdout(int rc);

/* With WM_CUDA_TIMING=1 in the environment, the time split of the GPU
** searches a context ran (its wm_stats_t) as one line on stderr: what
** bench/run_dist.sh reads. The library itself prints nothing. */
/* The context's note, when it had to change where work ran (a GPU out of
** memory: smaller pieces, or the CPU), as "warpmatch: note: ..." on stderr. */
void wm_cli_note(const wm_context_t *cx);
void wm_cli_gpu_timing(const wm_context_t *cx, int device);
/* Under WM_CUDA_TIMING: the GPU pair batches' host time, a line a device. */
void wm_cli_pairs_timing(const wm_context_t *cx);
/* wm_context_free, its time printed under WM_CUDA_TIMING for a GPU context. */
void wm_cli_context_free(wm_context_t *cx);

/* Seconds from a monotonic clock. */
double wm_cli_now(void);
/* The threads -j asks for a pass over a large input (asked <= 0: every
** online core), at most 256, and a pool of them (the library's, core/
** internal.h), or NULL when that is one thread. */
int wm_cli_threads(int asked);
struct wm_pool *wm_cli_pool(int asked);
/* 1 with WM_CUDA_TIMING=1 in the environment: commands print where their
** time went on stderr. */
int wm_cli_timing_on(void);

/* ---- the commands' MPI paths (dist_job.c) ------------------------------------ */

/* Under MPI: the GPU of this rank, local rank mod the GPUs found (or mod the
** --gpus list, which then no longer splits one rank's work), and without -j
** its share of the host's cores (no more than it is bound to). */
void wm_cli_dist_device(wm_context_opts_t *co);

/* Agree over the MPI job on a failure: every rank says whether it failed and
** why (why: the message without "warpmatch: "); rank 0 prints the first
** failing rank's message as "rank R: why" (not when R is 0 and rank0_printed:
** it has printed it already). Returns 1 when some rank failed, on every rank.
** Every rank must call it at the same point. */
int wm_cli_dist_failed(int failed, const char *why, int rank0_printed);

/* wm_cli_dist_failed for a step whose failure was reported with
** wm_cli_error (printed on rank 0, kept on the others). */
int wm_cli_dist_agree(int failed);

/* This rank's share [*lo, *hi) of n items: contiguous, in order, so that
** the ranks' outputs in rank order are one process's. alone: rank 0 takes
** all (it alone can read standard input), the others none. */
void wm_cli_dist_share(size_t n, int alone, size_t *lo, size_t *hi);

/* A rank's lines, kept in memory until rank 0 prints every rank's in rank
** order (wm_dist_write_ordered). open aborts the job when there is no
** memory for the buffer (the ranks could no longer agree); write returns
** -1 when rank 0's write failed (errno set), else 0, and frees the lines. */
typedef struct {
    FILE *f;
    char *mem;
    size_t len, cap;
} wm_cli_lines_t;
FILE *wm_cli_lines_open(wm_cli_lines_t *b);
int wm_cli_lines_write(wm_cli_lines_t *b, FILE *out);
/* wm_dist_write_ordered's bytes (every rank's buf, in rank order, after what
** rank 0 has written to out): with --output on one host each rank writes
** its own at its place in FILE; else rank 0 writes them all. Returns 0, or
** -1 at rank 0 when a write failed (errno set, a failing rank's). */
int wm_cli_output_write(const void *buf, uint64_t len, FILE *out);

#endif
