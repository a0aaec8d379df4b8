/*
** align.h -- what the files of `warpmatch align` share: its options, the
** run, and who does which job.
**
**     cmd_align.c     its own flags, reading and checking the inputs, the
**                     pairs one by one or in batches, the exit status
**     dist_align.c    the same over the ranks of an MPI job
**     out_align.c     the lines (TSV, JSON Lines)
*/
#ifndef WM_CLI_ALIGN_H
#define WM_CLI_ALIGN_H

#include <stdio.h>

#include "warpmatch.h"
#include "alignio.h"
#include "flags.h"
#include "pairtsv.h"
#include "sniff.h"

/* The --mode words, in wm_align_mode_t order. */
extern const char *const wm_cli_align_mode_words[];

typedef struct {
    wm_cli_shared_t sh; /* the flags every command shares */
    wm_align_opts_t o;
    int pairs, explain, mode_given;
} wm_cli_align_args_t;

typedef struct {
    const wm_cli_align_args_t *a;
    wm_align_opts_t o; /* a->o with the alphabet picked */
    wm_context_t *cx;
    wm_cli_input_t q, t;
    wm_cli_pairtsv_t pt; /* --pairs PAIRS.tsv */
    int tsv;
    FILE *out;
    uint64_t n_printed;
    int write_failed, write_errno; /* a write failed, with this errno */
} wm_cli_align_run_t;

/* ---- cmd_align.c ------------------------------------------------------------- */

/* Read both inputs (targ NULL: qarg is a PAIRS.tsv file) and check
** everything that can be checked before the first alignment. Returns 0 or
** -1 (message printed). */
int wm_cli_align_prepare(wm_cli_align_run_t *r, const char *qarg, const char *targ);

/* The alphabet of a run into *alpha: --alphabet's, or auto's from the data
** (sniff.h): the target's (target_dna, agreed on by every rank; tsn what
** this rank saw) decides, and the query (qsn, and q_iupac: every record is
** IUPAC letters) must fit DNA when the target is DNA. targ and qarg name the
** inputs in messages. Prints the --explain-alphabet lines (rank 0).
** Returns 0, or -1 after a message (a DNA target, a query that is not). */
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

/* Print one alignment and count it. */
void wm_cli_align_print(wm_cli_align_run_t *r, const char *qname, const char *tname,
                        const wm_alignment_t *al);

/* Remember a failed write on r->out (e.g. a closed pipe). */
void wm_cli_align_note_write_error(wm_cli_align_run_t *r);

/* ---- dist_align.c ------------------------------------------------------------ */

/* The run over the ranks of an MPI job; rank 0 prints what one process
** would. targ NULL: qarg is a PAIRS.tsv file. Returns 0 or -1 (printed). */
int wm_cli_align_dist(wm_cli_align_run_t *r, const char *qarg, const char *targ);

#endif
