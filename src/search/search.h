/*
** search.h -- one pattern, exactly or within k errors: the compiled pattern
** (the body of a wm_compile database), the CPU scanning kernels, the
** resolver that turns an end into a match, and the GPU table.
**
** Who does what: compile.c builds a wm_pat_t; driver.c scans texts with it
** (CPU chunks on the pool, or the GPU table's scan when the context runs on
** a GPU and supports the pattern); resolve.c finds starts and re-checks
** candidates; shiftor.c, bitap.c, myers.c (with pigeonhole.c and litfilter.c
** in front) are the CPU kernels, shiftor.cu, bitap.cu, myers.cu the GPU ones
** driven by search_cuda.cu.
*/
#ifndef WM_SEARCH_SEARCH_H
#define WM_SEARCH_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_WORD_BITS 64

/* Pattern positions [off, off + len) of one strand, and up to four of them
** whose class is one byte or one letter in either case, to compare 16 text
** positions at a time (litfilter.c). */
typedef struct {
    size_t off, len;
    int n;           /* positions tested (0..4); under 2 filters too little */
    size_t pos[4];   /* offsets within the stretch */
    uint8_t byte[4]; /* the byte (lower case when folded) */
    uint8_t fold[4]; /* 0x20 when either case is accepted */
} wm_litfilter_t;

/* One strand's pattern, compiled. peq[c * n_words + w] has bit i of word w
** set when pattern position 64*w+i matches text byte c (Shift-And / Myers
** convention: 1 = match). */
typedef struct {
    uint8_t *bytes; /* the pattern as searched on this strand */
    uint64_t *peq;  /* 256 * n_words words */
    uint64_t *rpeq; /* the same for the pattern read backwards */
    /* k = 0: the whole pattern's literal filter, chosen once here, not at
    ** each scan (a read file's every record is a scan of its own: the choice
    ** was 62% of a search of a million reads' FASTQ); len 0 otherwise */
    wm_litfilter_t lit;
} wm_strand_t;

/* One pattern compiled: a wm_compile database's body. */
typedef struct wm_pat {
    size_t m;   /* pattern length */
    uint32_t k; /* errors allowed */
    wm_metric_t metric;
    wm_algo_t algo; /* chosen for the CPU (never AUTO) */
    wm_opts_t opts; /* as given */
    int n_strands;  /* 1, or 2 with revcomp */
    size_t n_words; /* ceil(m / 64) */
    wm_strand_t strand[2];
    /* For m > 64 and small k, the CPU scans the last 64 positions of each
    ** strand (this pattern's own suffix) as a filter and verifies each end
    ** it finds against the whole pattern: a match within k errors contains
    ** its suffix within k errors. NULL when not used. */
    struct wm_pat *suffix;
    /* opts.exact_prefix / exact_suffix (flanks.c): the tables above are the
    ** middle's (m its length), and this the whole pattern; NULL without. */
    struct wm_flanks *flanks;
} wm_pat_t;

/* A pattern's exact regions, per strand: full[s] the whole pattern as
** searched on strand s (its reverse complement on 1), pre[s] positions that
** match exactly before the middle and suf[s] after it (strand 1 swaps
** them). full_m = pre + middle + suf. */
typedef struct wm_flanks {
    uint8_t *full[2];
    size_t full_m;
    uint32_t pre[2], suf[2];
} wm_flanks_t;

/* The exact regions of opts for a pattern of m bytes: WM_OK (none, or they
** leave more than max_edits positions), WM_INVALID (they cover it all),
** WM_K_TOO_LARGE. */
wm_status wm_flanks_check(size_t m, const wm_opts_t *o);

/* A hit of the middle (its end e_mid, d errors, strand) of a pattern with
** flanks, in the record [rb, re): 1 and the match's start, end (absolute)
** and errors when the regions match exactly there (the start only when
** want_start or an exact prefix asks: with a prefix the errors are the
** fewest over the starts the prefix allows), else 0. */
int wm_flanks_finish(const wm_pat_t *p, int strand, const uint8_t *text, uint64_t rb, uint64_t re,
                     uint64_t e_mid, uint32_t d, int want_start, uint64_t *start, uint64_t *end,
                     uint32_t *errors);
#define WM_SUFFIX_FILTER_MAX_K 8

/* The family, and the ops behind a wm_compile database. */
extern const wm_family_t wm_search_family;
extern const wm_db_ops_t wm_search_db_ops;
wm_status wm_search_scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                         uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                         uint64_t *per_pattern);
void wm_pat_free(void *pat);

/* The body of wm_compile without the handle, for callers that compile
** patterns of their own (src/setk): the arguments checked by the caller as
** wm_compile checks them; suffix_filter 0 leaves the long-pattern filter out
** (a caller that scans short windows gains nothing from it). */
wm_status wm_pat_new(const uint8_t *pattern, size_t m, const wm_opts_t *o, int suffix_filter,
                     wm_pat_t **out);

/* The pattern of a wm_compile database. */
static inline const wm_pat_t *wm_pat_of(const wm_db_t *db) { return (const wm_pat_t *)db->body; }

/* The halo a scan needs before the first end it reports: the longest
** occurrence (m + k) minus one. */
static inline uint64_t wm_pat_halo(const wm_pat_t *p) {
    return (uint64_t)p->m + (p->metric == WM_METRIC_EDIT ? p->k : 0) - 1;
}

/* A hit as a scanning kernel reports it: the end offset in the whole text
** buffer (exclusive), the errors there, and the strand. */
typedef struct {
    uint64_t end;
    uint32_t errors;
    uint32_t strand;
} wm_hit_t;

/* A growable array of raw hits. */
typedef struct {
    wm_hit_t *a;
    size_t n, cap;
} wm_hitvec_t;

int wm_hitvec_push(wm_hitvec_t *v, uint64_t end, uint32_t errors, uint32_t strand);
void wm_hitvec_free(wm_hitvec_t *v);

/* Resolve one candidate end. text[rec_begin, e) is the part of its record
** before e. errors_hint is the errors the scan found (exact when the scan
** started at the record's beginning or at least halo bytes before e), or -1
** when it may be low (the scan ran across a record border). Returns 1 and
** sets *start (absolute) and *errors when within k, else 0. */
int wm_resolve_end(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t rec_begin,
                   uint64_t e, int errors_hint, uint64_t *start, uint32_t *errors);

/* ---- CPU scanning kernels (one file per algorithm) --------------------------
** Each scans text[scan_from, to) starting from a fresh state and pushes every
** end e with own_from < e <= to whose distance is within k. */
typedef int (*wm_cpu_scan_fn)(const wm_pat_t *pat, int strand, const uint8_t *text,
                              uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out);
int wm_shiftor_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                    uint64_t own_from, uint64_t to, wm_hitvec_t *out);
int wm_bitap_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                  uint64_t own_from, uint64_t to, wm_hitvec_t *out);
int wm_myers_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                  uint64_t own_from, uint64_t to, wm_hitvec_t *out);
/* IUPAC codes (compile.c): the bases of a code as bits A=1 C=2 G=4 T=8
** (either case, U = T; 0 = no code), and its complement in the same case (0
** = no code). */
unsigned wm_iupac_bases(uint8_t c);
uint8_t wm_iupac_complement(uint8_t c);
/* Whether pattern byte p accepts text byte c under o, as the match tables
** say (DNA: the bases of p's code against a text base, either case; bytes:
** itself, or its other case with case_insensitive). */
int wm_pat_accepts(const wm_opts_t *o, uint8_t p, uint8_t c);

/* The kernel the CPU runs for a pattern (its algo: shiftor, myers or bitap). */
wm_cpu_scan_fn wm_pat_kernel(const wm_pat_t *pat);
/* k >= 1: find the ends through exact pieces (pigeonhole), verifying windows
** with `verify`. Returns 0 when done, 1 when the filter does not pay here (the
** caller scans the span itself; nothing was pushed), -1 out of memory. */
int wm_pigeonhole_scan(const wm_pat_t *pat, int strand, wm_cpu_scan_fn verify, const uint8_t *text,
                       uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out);

/* ---- the GPU table (search_cuda.cu) -------------------------------------------
** scan: the raw hits of text ends (own_from, len] on the GPU, records
** ignored (hits within the halo of a record start are candidates the host
** re-checks), to sink in batches in increasing end order (strand 0 before 1
** on equal ends). *done: the ends (own_from, *done] whose hits reached the
** sink, also on failure, so that a caller can go on from there. Batches are
** sized with wm_gpu_piece (core/internal.h). */
typedef wm_status (*wm_hit_batch_fn)(const wm_hit_t *hits, size_t n, void *user);
typedef struct {
    int (*supports)(const wm_pat_t *pat); /* else the CPU runs it */
    wm_status (*scan)(wm_context_t *cx, const wm_pat_t *pat, const wm_text_t *text,
                      uint64_t own_from, wm_hit_batch_fn sink, void *user, uint64_t *done);
} wm_search_gpu_t;
extern const wm_search_gpu_t wm_search_gpu_cuda;
void wm_search_cuda_free_cache(wm_context_t *cx, void *cache); /* its device buffers */

#ifdef __cplusplus
}
#endif
#endif
