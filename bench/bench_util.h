/*
** bench_util.h -- helpers the benchmark programs share (bench_cpu_align,
** bench_global, and the generators gen_text and gen_patterns): the clock,
** sizes such as 256MiB, medians, the CPU's name, whole-file reads, the
** Myers-step floor microbenchmark, and a runner that splits work over N
** forked processes released at the same instant.
**
** Not part of the library: bench/CMakeLists.txt compiles bench_util.c into
** each program that uses it. Messages go to stderr prefixed with bu_prog.
*/
#ifndef WM_BENCH_UTIL_H
#define WM_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A size: a decimal count with an optional k/M/G suffix (powers of 2),
** then an optional i and/or B ("256MiB", "256MB", "1G"). 0, or -1 when
** it is not one. */
int bu_parse_size(const char *s, uint64_t *out);

/* Program name for messages ("bench"); set it first thing in main. */
extern const char *bu_prog;

/* CLOCK_MONOTONIC in seconds. */
double bu_now_s(void);

/* qsort comparator for doubles, ascending. */
int bu_cmp_double(const void *a, const void *b);

/* Median of v[0..n) (sorts v); 0 for n = 0. */
double bu_median(double *v, size_t n);

/* CPUs this process may run on (affinity mask), at least 1. */
int bu_usable_cpus(void);

/* Prints "# device: MODEL; N physical cores, L logical CPUs online, U usable
** by this process" (model from /proc/cpuinfo; "?" cores when it does not say). */
void bu_print_device(void);

/* The first "model name" of /proc/cpuinfo into buf ("unknown CPU" if none). */
void bu_cpu_model(char *buf, size_t len);

/* The whole file, malloc'd (free it); NULL after printing why. */
uint8_t *bu_read_file(const char *path, size_t *len);

/* ---- the floor ---------------------------------------------------------------
** Myers/Hyyro 64-row block steps (20 64-bit ALU ops each) in columns of
** BU_FLOOR_CHAINS blocks chained by hin/hout, registers only: see
** bench_cpu_align.c's header for the full definition. Returns block steps per
** second of `threads` threads stepping at once, the best of `tries` runs of
** about `seconds` each. Exits (code 2) if the threads cannot be started. */
#define BU_FLOOR_CHAINS 4
double bu_floor_rate(int threads, double seconds, int tries);

/* ---- N processes, one start ----------------------------------------------------
** bu_fork_split runs fn(part, n_parts, arg) in n_parts forked children. Each
** child waits until all are forked, then they start together; the result is
** the wall time from that release to the last child's finish (each child
** stamps its own end on CLOCK_MONOTONIC, which every process shares), so
** fork and exit are not counted. Children write results only into memory
** from bu_shared_alloc (MAP_SHARED) and leave with _exit: nothing else of
** theirs survives. fn returns 0 on success. On failure (fork, a child dying or
** returning non-zero) returns a negative value and writes why into msg. */
typedef int (*bu_part_fn)(int part, int n_parts, void *arg);
double bu_fork_split(int n_parts, bu_part_fn fn, void *arg, char *msg, size_t msg_len);

/* Zeroed memory shared with forked children; NULL on failure. */
void *bu_shared_alloc(size_t bytes);
void bu_shared_free(void *p, size_t bytes);

/* ---- FASTA records ---------------------------------------------------------------
** bu_fasta_parse reads a whole FASTA file held in buf (len bytes) in place:
** headers ('>' lines) are dropped, each record's sequence lines are joined
** (CR, blanks and tabs dropped, bytes otherwise kept) and moved to the front
** of buf; record r is buf[off[r], off[r + 1]). Text before the first '>' is
** an error. Returns the number of records, or -1 (message printed). *off is
** malloc'd (n + 1 entries). */
long bu_fasta_parse(uint8_t *buf, size_t len, uint64_t **off);

#endif /* WM_BENCH_UTIL_H */
