/*
** align.h -- what the files of `warpmatch align` share: its options, the
** run, and who does which job.
**
**     cmd_align.c     its own flags, reading and checking the inputs, the
**                     pairs one by one or in batches, the exit status
**     dist_align.c    the same over the ranks of an MPI job
**     align_hits.c    each query's alignments gathered, both strands, the
**                     better strand, --best, SAM's primary and unmapped
**     out_align.c     the lines (TSV, JSON Lines, SAM, PAF)
*/
#ifndef WM_CLI_ALIGN_H
#define WM_CLI_ALIGN_H

#include <stdio.h>

#include "warpmatch.h"
#include "alignio.h"
#include "flags.h"
#include "pairtsv.h"
#include "sniff.h"
#include "progress.h"

/* The --mode words, in wm_align_mode_t order. */
extern const char *const wm_cli_align_mode_words[];

typedef struct {
    wm_cli_shared_t sh; /* the flags every command shares */
    wm_align_opts_t o;
    int pairs, explain, mode_given;
    int strands;     /* --revcomp 2, --no-revcomp 1, else 0: both for DNA in
                        infix mode (wm_cli_align_strands) */
    int best;        /* --best: only each query's best target records */
    int cigar_m;     /* --cigar-m: SAM/PAF CIGARs with M for = and X */
    int no_progress; /* --no-progress */
} wm_cli_align_args_t;

/* One alignment of the query being gathered (align_hits.c). */
typedef struct {
    size_t ti;         /* the target record (its order) */
    char *tname;       /* owned copy */
    uint64_t tlen;     /* the target record's length */
    int strand;        /* 0 '+', 1 '-' (the query reverse-complemented) */
    wm_alignment_t al; /* its CIGAR owned */
} wm_cli_hit_t;

/* The query whose alignments are being gathered, and them. */
typedef struct {
    int open;
    size_t key; /* which query: a record index, or a pair's index */
    const char *qname;
    const uint8_t *seq, *qual; /* the query as given; qual NULL: none */
    uint64_t m;
    wm_cli_hit_t *v;
    size_t n, cap;
    int failed; /* out of memory */
} wm_cli_hits_t;

typedef struct {
    const wm_cli_align_args_t *a;
    wm_align_opts_t o; /* a->o with the alphabet picked */
    wm_context_t *cx;
    wm_cli_input_t q, t;
    wm_cli_pairtsv_t pt; /* --pairs PAIRS.tsv */
    int tsv;
    FILE *out;
    int both_strands; /* align the reverse complement of each query too */
    uint8_t *rc;      /* the queries' reverse complements, at q's offsets
                         (or, --pairs PAIRS.tsv, at rc_at[pair]) */
    uint64_t *rc_at;
    wm_cli_hits_t hits;
    wm_progress_t pg;
    uint64_t cells_total, cells_done; /* for the progress line */
    uint64_t pair_cells;              /* the cells of the pair being aligned */
    wm_target_t *tgt; /* every target record, kept on the GPU across the queries, or NULL */
    double t_flush;   /* last flush of rows made final */
    int argc;         /* the command line, for SAM's @PG */
    char **argv;
    uint64_t n_printed;
    int write_failed, write_errno; /* a write failed, with this errno */
    double t_views, t_lib, t_rows; /* the batches' time split (WM_CUDA_TIMING) */
} wm_cli_align_run_t;

/* ---- cmd_align.c ------------------------------------------------------------- */

/* Read both inputs (targ NULL: qarg is a PAIRS.tsv file) and check
** everything that can be checked before the first alignment. Returns 0 or
** -1 (message printed). */
int wm_cli_align_prepare(wm_cli_align_run_t *r, const char *qarg, const char *targ);

/* The rest of wm_cli_align_prepare for r->q and r->t read elsewhere (a
** rank's share of --pairs files, dist_pairs.c), given what the whole inputs
** would show: the target's and the query's sniffs and whether every query
** is IUPAC. Returns 0 or -1 (message printed). */
int wm_cli_align_prepare_read(wm_cli_align_run_t *r, const char *qarg, const char *targ,
                              const wm_sniff_t *tsn, const wm_sniff_t *qsn, int q_iupac);

/* The alphabet of a run into *alpha: --alphabet's, or auto's from the data
** (sniff.h): the target's (target_dna, agreed on by every rank; tsn what
** this rank saw) decides, and the query (qsn, and q_iupac: every record is
** IUPAC letters) must fit DNA when the target is DNA. targ and qarg name the
** inputs in messages. Prints the --explain-alphabet lines (rank 0).
** Returns 0, or -1 after a message (a DNA target, a query that is not; or
** --revcomp, a target that is not DNA: --revcomp never picks the alphabet). */
int wm_cli_align_alphabet(const wm_cli_align_args_t *a, const char *targ, int target_dna,
                          const wm_sniff_t *tsn, const char *qarg, const wm_sniff_t *qsn,
                          int q_iupac, wm_alphabet_t *alpha);

/* The pairs of the run: query-major, or record i with record i (--pairs),
** or the lines of a PAIRS.tsv. */
size_t wm_cli_align_pair_count(const wm_cli_align_run_t *r);

/* Align query record qi to target record ti and print what comes back.
** Returns 0, or -1 after a library error (message printed). */
int wm_cli_align_pair(wm_cli_align_run_t *r, size_t qi, size_t ti);

/* Pairs [from, to) of wm_cli_align_pair_count, in batches through
** wm_align_pairs. Returns 0, or -1 after a library error (printed). */
int wm_cli_align_batches(wm_cli_align_run_t *r, size_t from, size_t to);

/* The SAM header (SAM output; rank 0): @HD, @SQ of every target, @PG. */
void wm_cli_align_sam_header(wm_cli_align_run_t *r, int argc, char **argv);

/* Remember a failed write on r->out (e.g. a closed pipe). */
void wm_cli_align_note_write_error(wm_cli_align_run_t *r);

/* ---- dist_pairs.c ------------------------------------------------------------- */

/* Under MPI, --pairs of two FASTA files: read this rank's share of the
** pairs' records alone, and prepare as wm_cli_align_prepare would for the
** whole files. Collective. Returns 1 with r->q and r->t holding the records
** of pairs [*lo, *hi) (as local records 0 .. *hi - *lo - 1), 0 when the
** files cannot be shared so (nothing read: read them whole), -1 when the
** preparing failed (message printed, on every rank). */
int wm_cli_dist_pairs_read(wm_cli_align_run_t *r, const char *qarg, const char *targ, size_t *lo,
                           size_t *hi);

/* ---- align_hits.c -------------------------------------------------------------- */

/* Decide the strands (after the alphabet is known) and, for both, build the
** queries' reverse complements. Returns 0 or -1 (message printed). */
int wm_cli_align_strands(wm_cli_align_run_t *r);

/* The reverse complement of query record qi (pair qi of a PAIRS.tsv). */
const uint8_t *wm_cli_align_rc(const wm_cli_align_run_t *r, size_t qi);

/* Start gathering query `key` (prints the one before when it differs).
** Returns -1 when printing that one failed (message printed), else 0. */
int wm_cli_hits_begin(wm_cli_align_run_t *r, size_t key, const char *qname, const uint8_t *seq,
                      uint64_t m, const uint8_t *qual);

/* Add one alignment of the open query to target record ti; takes its CIGAR
** (al->cigar set to NULL). */
void wm_cli_hits_add(wm_cli_align_run_t *r, size_t ti, const char *tname, uint64_t tlen, int strand,
                     wm_alignment_t *al);

/* Print what the open query has (the better strand per target, --best;
** SAM: its primary, or an unmapped record) and close it. Returns -1 when
** out of memory (message printed), else 0. */
int wm_cli_hits_flush(wm_cli_align_run_t *r);

void wm_cli_align_free_strands(wm_cli_align_run_t *r);

/* ---- dist_align.c ------------------------------------------------------------ */

/* The run over the ranks of an MPI job; rank 0 prints what one process
** would. targ NULL: qarg is a PAIRS.tsv file. Returns 0 or -1 (printed). */
int wm_cli_align_dist(wm_cli_align_run_t *r, const char *qarg, const char *targ);

#endif
