/*
** cmd_align.c -- `warpmatch align [OPTIONS] QUERY TARGET`: the best alignment,
** by edit distance, of each query record in each target record (infix: the
** closest substring of the target; global: the whole target), or of each
** pair of a --pairs file.
**
** Flow: parse the options -> read QUERY and TARGET once each (alignio.c:
** literal or file, every record checked) or the pair file (pairtsv.c) ->
** --pairs counts -> the alphabet -> one context -> infix: wm_align for each
** pair, query-major; global: the same pairs in batches of up to 2^20 through
** wm_align_pairs (so the GPU gets many at once) -> TSV or JSON Lines. Every
** input error is found before the first line is printed; a library error
** stops the run (exit 2) after the lines already printed.
*/
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "io/seqrange.h"
#include "mpi/dist.h"
#include "cli.h"
#include "alignio.h"
#include "out.h"
#include "pairtsv.h"

typedef enum { ALPHA_AUTO = 0, ALPHA_DNA = 1, ALPHA_TEXT = 2 } alpha_choice_t;

static const char *const alphabet_words[] = { "auto", "dna", "text", NULL };
/* Same order as wm_align_mode_t. */
static const char *const mode_words[] = { "infix", "global", NULL };

static void print_help(void) {
    fputs(
"Usage: warpmatch align [OPTIONS] QUERY TARGET\n"
"       warpmatch align [OPTIONS] --pairs PAIRS.tsv\n"
"       warpmatch align --algo four-russians --explain [--block-t T] [--alphabet dna]\n"
"\n"
"Align QUERY to TARGET by edit distance (unit costs: a substitution, an\n"
"insertion or a deletion costs 1) and print the distance, where the query lies\n"
"in the target, and on request the alignment itself.\n"
"\n"
"QUERY and TARGET are each a sequence given on the command line or a file:\n"
"FASTA, FASTQ or plain, each possibly gzip-compressed; - is standard input (for\n"
"one of the two only). An argument that names an existing file is that file;\n"
"any other is the sequence itself, named query or target in the output (an\n"
"argument with a '/' or a .fa, .fasta, .fna, .fq, .fastq, .gz or .txt ending\n"
"that names no file is an error: no such file).\n"
"Every query record is aligned to every target record, query-major (for each\n"
"query record, each target record in file order); with --pairs, record i of\n"
"QUERY to record i of TARGET only.\n"
"\n"
"Modes:\n"
"  infix   approximate string matching (ASM): the substring target[start, end)\n"
"          with the smallest edit distance to the whole query. The query is\n"
"          aligned end to end, the target's flanks cost nothing. A query longer\n"
"          than the target is still defined: the distance is then at least\n"
"          m - n (query length m, target length n).\n"
"          Ties: the leftmost end, and for it the largest start (the shortest\n"
"          substring), the same rule as search.\n"
"  global  the edit distance of the whole query and the whole target\n"
"          (start 0, end = the target's length). Empty sequences are allowed.\n"
"\n"
"Alignment:\n"
"      --mode M          infix or global [infix]\n"
"  -k, --max-distance N  report nothing worse than N: a pair whose best\n"
"                        distance is over N prints nothing. -k also prunes the\n"
"                        work (the DP is cut to a band), so a small N is faster\n"
"                        [no limit]\n"
"      --cigar           add the extended CIGAR of one optimal alignment\n"
"      --all-ends        infix: one line for every end position that reaches\n"
"                        the best distance, in end order, each with its largest\n"
"                        start [only the leftmost end]\n"
"      --pairs           record i of QUERY against record i of TARGET (the two\n"
"                        must have as many records: a missing mate is an\n"
"                        error) [every query against every target]. With one\n"
"                        file instead of QUERY TARGET: a file of pairs, one a\n"
"                        line, QUERY<TAB>TARGET (plain or gzip; blank lines\n"
"                        skipped), each pair named by its line number\n"
"  -i, --ignore-case     fold ASCII letter case [case matters in text mode]\n"
"      --alphabet A      auto, dna or text [auto]\n"
"                          dna:  case ignored, U reads as T; only A, C, G and T\n"
"                                match (N and other codes match nothing, not\n"
"                                even themselves)\n"
"                          text: each byte is itself; a plain file is aligned\n"
"                                byte for byte, line breaks included\n"
"                          auto: dna when every FILE is FASTA or FASTQ and\n"
"                                every query record (and a TARGET given on the\n"
"                                command line) has IUPAC nucleotide letters\n"
"                                only (ACGTURYSWKMBDHVN), as search decides for\n"
"                                its pattern; else text\n"
"                        Under auto and dna a plain file is one sequence: its\n"
"                        blanks and line breaks are dropped, and a file with\n"
"                        other bytes (NUL, controls, bytes >= 0x80) is refused\n"
"                        as binary (--alphabet text aligns raw bytes).\n"
"      --algo A          auto, bitvector, dp (also: wavefront) or four-russians\n"
"                        [auto = bitvector]\n"
"                          bitvector: Myers/Hyyro bit-parallel DP, banded\n"
"                          dp: the plain DP (infix: anti-diagonals on the GPU,\n"
"                              columns on the CPU; global: anti-diagonals)\n"
"                          four-russians: global only; paper 001's t-blocks\n"
"                              looked up in a table of every block, blocks on\n"
"                              anti-diagonals in parallel\n"
"                        dp and four-russians take pairs of at most 2^37 cells\n"
"      --block-t T       four-russians block size, 1 to 4 [3]; the table has\n"
"                        4^2T x 9^T entries (--alphabet dna, keyed by the\n"
"                        block's strings as in the paper) or 2^(T*T) x 9^T\n"
"                        (keyed by which symbols are equal), 2 bytes each:\n"
"                        860 MB at T = 4\n"
"      --explain         with --algo four-russians: print the table's t, key,\n"
"                        entries, bytes and build time to standard error\n"
"\n"
"Execution:\n"
"      --backend B       auto, cpu or cuda [auto: cuda when built and a GPU is\n"
"                        found, else cpu]\n"
"  -j, --threads N       CPU threads, 0 = all online cores [0]\n"
"      --gpus LIST       all, or GPU numbers such as 0,2,3: split each target\n"
"                        (infix) or the pairs over these GPUs; the same output\n"
"                        [one GPU]. Under mpirun: the GPUs this host's ranks\n"
"                        take in turn [local rank mod the GPUs found]\n"
"\n"
"Under mpirun (or srun) each rank aligns the queries to its own byte range of\n"
"a TARGET file (infix), or its share of the pairs; rank 0 prints what one\n"
"process would.\n"
"\n"
"Output:\n"
"      --json            JSON Lines: one object per alignment with the keys\n"
"                        query, target, distance, start, end (and cigar)\n"
"  -h, --help            show this help\n"
"\n"
"Output lines (no header), one per alignment, tab-separated:\n"
"  query  target  distance  start  end  [cigar]\n"
"  query, target: the record names: the first word of a FASTA/FASTQ header,\n"
"                 a plain file's path as given (- for standard input), or\n"
"                 query / target for a sequence given on the command line\n"
"  distance:      the edit distance\n"
"  start, end:    0-based, half-open, in the target record\n"
"  cigar:         with --cigar: the extended CIGAR, SAM's convention with the\n"
"                 target as the reference: runs of = (match), X (mismatch),\n"
"                 I (a query symbol absent from the target) and D (a target\n"
"                 symbol absent from the query); e.g. 3=1X2=1I4=; * for the\n"
"                 empty alignment. Of the optimal alignments it is the one a\n"
"                 traceback from the end takes when it prefers a diagonal\n"
"                 step, then I, then D\n"
"Lines are the same for every --algo, backend and thread count.\n"
"\n"
"Exit status: 0 if at least one alignment was printed, 1 if none (every pair\n"
"over -k), 2 if an error occurred.\n", stdout);
}

static void usage_hint(void) {
    fprintf(stderr, "Try 'warpmatch align --help'.\n");
}

/* ---- options --------------------------------------------------------------- */

typedef struct {
    wm_align_opts_t o;
    wm_context_opts_t co;
    alpha_choice_t alphabet;
    int pairs, json, explain, mode_given;
} align_args_t;

enum {
    OPT_MODE = 256, OPT_CIGAR, OPT_ALL_ENDS, OPT_PAIRS, OPT_ALPHABET, OPT_ALGO,
    OPT_BACKEND, OPT_JSON, OPT_BLOCK_T, OPT_EXPLAIN, OPT_GPUS
};

static const struct option long_opts[] = {
    { "mode",         required_argument, NULL, OPT_MODE },
    { "max-distance", required_argument, NULL, 'k' },
    { "cigar",        no_argument,       NULL, OPT_CIGAR },
    { "all-ends",     no_argument,       NULL, OPT_ALL_ENDS },
    { "pairs",        no_argument,       NULL, OPT_PAIRS },
    { "ignore-case",  no_argument,       NULL, 'i' },
    { "alphabet",     required_argument, NULL, OPT_ALPHABET },
    { "algo",         required_argument, NULL, OPT_ALGO },
    { "block-t",      required_argument, NULL, OPT_BLOCK_T },
    { "explain",      no_argument,       NULL, OPT_EXPLAIN },
    { "backend",      required_argument, NULL, OPT_BACKEND },
    { "threads",      required_argument, NULL, 'j' },
    { "gpus",         required_argument, NULL, OPT_GPUS },
    { "json",         no_argument,       NULL, OPT_JSON },
    { "help",         no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

/* Returns 0 to go on, 1 after --help (exit 0), -1 on a bad option (exit 2).
** *first_arg is the index of the first non-option argument. */
static int parse_args(int argc, char **argv, align_args_t *a, int *first_arg) {
    /* The --algo words come from the library, in wm_align_algo_t order. */
    const char *algo_words[] = { wm_align_algo_name(WM_ALIGN_ALGO_AUTO),
                                 wm_align_algo_name(WM_ALIGN_ALGO_WAVEFRONT),
                                 wm_align_algo_name(WM_ALIGN_ALGO_BITVECTOR),
                                 wm_align_algo_name(WM_ALIGN_ALGO_FOUR_RUSSIANS), NULL };
    uint64_t v;
    int c, i;

    a->o = wm_align_opts_default();
    a->co = wm_context_opts_default();
    a->alphabet = ALPHA_AUTO;

    opterr = 0;                 /* our own messages, in our own form */
    optind = 1;
    while ((c = getopt_long(argc, argv, ":k:ij:h", long_opts, NULL)) != -1) {
        switch (c) {
        case OPT_MODE:
            if ((i = wm_cli_choose("--mode", optarg, mode_words)) < 0)
                return -1;
            a->o.mode = (wm_align_mode_t)i;
            a->mode_given = 1;
            break;
        case 'k':
            if (wm_cli_option_u64("-k/--max-distance", optarg, INT64_MAX, 0, &v) < 0)
                return -1;
            a->o.max_distance = (int64_t)v;
            break;
        case OPT_CIGAR: a->o.cigar = 1; break;
        case OPT_ALL_ENDS: a->o.all_ends = 1; break;
        case OPT_PAIRS: a->pairs = 1; break;
        case 'i': a->o.case_insensitive = 1; break;
        case OPT_ALPHABET:
            if ((i = wm_cli_choose("--alphabet", optarg, alphabet_words)) < 0)
                return -1;
            a->alphabet = (alpha_choice_t)i;
            break;
        case OPT_ALGO:
            if ((i = wm_cli_choose("--algo", strcmp(optarg, "dp") == 0 ? "wavefront" : optarg,
                                   algo_words)) < 0)
                return -1;
            a->o.algo = (wm_align_algo_t)i;
            break;
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
        case OPT_JSON: a->json = 1; break;
        case OPT_GPUS:
            if (wm_cli_option_gpus(optarg, &a->co) < 0)
                return -1;
            break;
        case OPT_EXPLAIN: a->explain = 1; break;
        case OPT_BLOCK_T:
            if (wm_cli_parse_u64(optarg, WM_FR_MAX_T, 0, &v) < 0 || v < 1) {
                wm_cli_error("invalid value '%s' for --block-t (expected 1 to %d; t = 5 would "
                             "need a table of at least 124 GB)", optarg, WM_FR_MAX_T);
                return -1;
            }
            a->o.fr_t = (int)v;
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
    if (a->o.algo == WM_ALIGN_ALGO_FOUR_RUSSIANS && !a->mode_given)
        a->o.mode = WM_ALIGN_GLOBAL;               /* it has no other mode */
    if (a->o.algo == WM_ALIGN_ALGO_FOUR_RUSSIANS && a->o.mode != WM_ALIGN_GLOBAL) {
        wm_cli_error("--algo four-russians computes global edit distances: add --mode global");
        return -1;
    }
    if (a->explain && a->o.algo != WM_ALIGN_ALGO_FOUR_RUSSIANS) {
        wm_cli_error("--explain describes the four-russians table: use it with "
                     "--algo four-russians");
        return -1;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------ */

typedef struct {
    const align_args_t *a;
    wm_align_opts_t o;           /* a->o with the alphabet picked               */
    wm_context_t *cx;
    wm_cli_input_t q, t;
    wm_cli_pairtsv_t pt;         /* --pairs PAIRS.tsv                           */
    int tsv;
    FILE *out;
    uint64_t n_printed;
    int write_failed, write_errno;   /* a write failed, with this errno        */
} run_t;

static void print_alignment(run_t *r, const char *qname, const char *tname,
                            const wm_alignment_t *al) {
    wm_out_align(r->out, r->a->json, r->o.cigar, qname, tname, al);
    r->n_printed++;
}

static void note_write_error(run_t *r) {
    if (ferror(r->out) && !r->write_failed) {
        r->write_failed = 1;               /* e.g. a closed pipe */
        r->write_errno = errno;
    }
}

/* Align query record qi to target record ti and print what comes back.
** Returns 0, or -1 after a library error (message printed). */
static int align_pair(run_t *r, size_t qi, size_t ti) {
    uint64_t m, n;
    const uint8_t *q = wm_cli_input_rec(&r->q, qi, &m);
    const uint8_t *t = wm_cli_input_rec(&r->t, ti, &n);
    const char *qname = wm_cli_input_name(&r->q, qi);
    const char *tname = wm_cli_input_name(&r->t, ti);
    wm_alignments_t res = { NULL, 0 };

    wm_status st = wm_align(r->cx, q, (size_t)m, t, n, &r->o, &res);
    if (st != WM_OK) {
        fflush(r->out);          /* the lines before the error come first */
        wm_cli_error("cannot align query '%.200s' to target '%.200s' (%s mode): %s", qname,
                     tname, mode_words[r->o.mode], wm_cli_status_msg(r->cx, st));
        wm_alignments_free(&res);
        return -1;
    }
    for (size_t i = 0; i < res.n; ++i)
        print_alignment(r, qname, tname, &res.a[i]);
    wm_alignments_free(&res);
    note_write_error(r);
    return 0;
}

/* ---- batches of pairs (global mode, and any --pairs PAIRS.tsv) ------------- */

#define PAIR_BATCH ((size_t)1 << 20)

static size_t pair_count(const run_t *r) {
    if (r->tsv) return r->pt.n;
    if (r->a->pairs) return r->q.n_rec;
    return r->q.n_rec * r->t.n_rec;                 /* checked against overflow in prepare */
}

/* Pair number k (query-major, as the one-by-one loop): its sequences and
** names (line numbers go through buf). */
static void pair_at(const run_t *r, size_t k, wm_pair_t *p, const char **qname,
                    const char **tname, char *buf, size_t buflen) {
    if (r->tsv) {
        p->query = r->pt.seq[2 * k];
        p->m = (size_t)r->pt.len[2 * k];
        p->target = r->pt.seq[2 * k + 1];
        p->n = r->pt.len[2 * k + 1];
        snprintf(buf, buflen, "%llu", (unsigned long long)r->pt.line[k]);
        *qname = *tname = buf;
        return;
    }
    size_t qi = r->a->pairs ? k : k / r->t.n_rec, ti = r->a->pairs ? k : k % r->t.n_rec;
    uint64_t m;
    p->query = wm_cli_input_rec(&r->q, qi, &m);
    p->m = (size_t)m;
    p->target = wm_cli_input_rec(&r->t, ti, &p->n);
    *qname = wm_cli_input_name(&r->q, qi);
    *tname = wm_cli_input_name(&r->t, ti);
}

/* Pairs [from, to) of pair_count. Returns 0, or -1 after a library error
** (message printed). */
static int align_batches(run_t *r, size_t from, size_t to) {
    size_t total = to - from, cap = total < PAIR_BATCH ? total : PAIR_BATCH;
    wm_pair_t *P = malloc((cap ? cap : 1) * sizeof *P);
    wm_alignment_t *A = malloc((cap ? cap : 1) * sizeof *A);
    int rc = 0;
    if (!P || !A) {
        wm_cli_error("out of memory for a batch of %zu pairs", cap);
        rc = -1;
    }
    char buf[2][32];
    const char *qn, *tn;
    for (size_t base = from; rc == 0 && base < to && !ferror(r->out); base += cap) {
        size_t nb = to - base < cap ? to - base : cap;
        for (size_t k = 0; k < nb; k++) pair_at(r, base + k, &P[k], &qn, &tn, buf[0], sizeof buf[0]);
        wm_status st = wm_align_pairs(r->cx, P, nb, &r->o, A);
        if (st != WM_OK) {
            /* the library names the pair by its index in the batch */
            const char *msg = wm_context_errmsg(r->cx);
            size_t bad = 0;
            int used = 0;
            fflush(r->out);
            if (sscanf(msg, "pair %zu: %n", &bad, &used) == 1 && used > 0 && bad < nb) {
                pair_at(r, base + bad, &P[bad], &qn, &tn, buf[0], sizeof buf[0]);
                wm_cli_error("cannot align query '%.200s' to target '%.200s' (%s mode): %s", qn,
                             tn, mode_words[r->o.mode], msg + used);
            } else {
                wm_cli_error("cannot align (%s mode): %s", mode_words[r->o.mode],
                             wm_cli_status_msg(r->cx, st));
            }
            rc = -1;
            break;
        }
        for (size_t k = 0; k < nb; k++) {
            if (A[k].distance == WM_ALIGN_NONE) continue;
            pair_at(r, base + k, &P[k], &qn, &tn, buf[1], sizeof buf[1]);
            print_alignment(r, qn, tn, &A[k]);
        }
        wm_alignment_clear(A, nb);
        note_write_error(r);
    }
    free(P);
    free(A);
    return rc;
}

/* --explain: what the four-russians table costs (built now if need be). */
static int explain(run_t *r) {
    wm_fr_info_t fi;
    wm_status st = wm_align_fr_info(r->cx, &r->o, &fi);
    if (st != WM_OK) {
        wm_cli_error("four-russians table: %s", wm_cli_status_msg(r->cx, st));
        return -1;
    }
    fprintf(stderr, "four-russians: t = %u, key = %s, %llu entries, %llu bytes, built in %.6f s "
            "on %d threads\n", fi.t, fi.key_strings ? "strings" : "matrix",
            (unsigned long long)fi.entries, (unsigned long long)fi.bytes, fi.build_seconds,
            fi.build_threads);
    return 0;
}

/* --alphabet auto: dna when every file is FASTA/FASTQ (there is at least one)
** and the query records, and a literal target, are IUPAC letters, as search
** decides with its pattern and FASTA/FASTQ texts. */
static wm_alphabet_t pick_alphabet(const run_t *r) {
    const wm_cli_input_t *q = &r->q, *t = &r->t;
    if (r->a->alphabet != ALPHA_AUTO)
        return r->a->alphabet == ALPHA_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    int any_seqfile = q->is_seqfile || t->is_seqfile;
    int any_plain = (q->is_file && !q->is_seqfile) || (t->is_file && !t->is_seqfile);
    if (any_seqfile && !any_plain && wm_cli_input_iupac(q) &&
        (t->is_file || wm_cli_input_iupac(t)))
        return WM_ALPHABET_DNA;
    return WM_ALPHABET_BYTES;
}

/* Read both inputs and check everything that can be checked before the
** first alignment. Returns 0 or -1 (message printed). */
static int prepare(run_t *r, const char *qarg, const char *targ) {
    const align_args_t *a = r->a;
    int raw = a->alphabet == ALPHA_TEXT;
    r->o = a->o;
    if (targ == NULL) {                             /* --pairs PAIRS.tsv */
        r->tsv = 1;
        if (wm_cli_pairtsv_open(&r->pt, qarg, WM_MAX_QUERY) < 0) return -1;
        r->o.alphabet = a->alphabet == ALPHA_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        if (a->alphabet == ALPHA_AUTO) {           /* dna when every sequence is IUPAC */
            int iupac = 1;
            for (size_t i = 0; iupac && i < 2 * r->pt.n; i++)
                iupac = wm_cli_is_iupac(r->pt.seq[i], (size_t)r->pt.len[i]);
            if (iupac) r->o.alphabet = WM_ALPHABET_DNA;
        }
        if (r->o.mode != WM_ALIGN_GLOBAL)
            for (size_t i = 0; i < r->pt.n; i++)
                if (r->pt.len[2 * i] == 0) {
                    wm_cli_error("%s:%llu: the query is empty (infix mode needs one; global "
                                 "mode takes empty sequences)", qarg,
                                 (unsigned long long)r->pt.line[i]);
                    return -1;
                }
        return 0;
    }
    r->q.allow_empty = r->t.allow_empty = a->o.mode == WM_ALIGN_GLOBAL;
    if (strcmp(qarg, "-") == 0 && strcmp(targ, "-") == 0) {
        wm_cli_error("QUERY and TARGET are both - (standard input can be read only once)");
        return -1;
    }
    if (wm_cli_input_open(&r->q, "query", qarg, raw, WM_MAX_QUERY) < 0 ||
        wm_cli_input_open(&r->t, "target", targ, raw, 0) < 0)
        return -1;
    if (a->pairs && r->q.n_rec != r->t.n_rec) {
        size_t lone = r->q.n_rec < r->t.n_rec ? r->q.n_rec : r->t.n_rec;
        const wm_cli_input_t *more = r->q.n_rec > r->t.n_rec ? &r->q : &r->t;
        wm_cli_error("--pairs: missing mate: the query has %zu records and the target %zu; "
                     "%s record %zu ('%.200s') has no mate", r->q.n_rec, r->t.n_rec, more->role,
                     lone + 1, wm_cli_input_name(more, lone));
        return -1;
    }
    if (!a->pairs && r->t.n_rec && r->q.n_rec > SIZE_MAX / r->t.n_rec) {
        wm_cli_error("%zu query records x %zu target records is too many pairs", r->q.n_rec,
                     r->t.n_rec);
        return -1;
    }
    r->o.alphabet = pick_alphabet(r);
    return 0;
}

/* ---- an MPI job -----------------------------------------------------------------
**
** infix with a TARGET file: every rank reads its own byte range of the
** target (src/io/seqrange.h) with a halo of m + min(k, m) bytes before it,
** the longest alignment that can matter, and aligns every query to its
** part of each target record. A rank owns the ends whose last byte is in
** its range; an end in the halo (an earlier rank's) can only look worse
** here than it is, so when the best end found lies there, an earlier rank
** has an end as good or better further left, and this rank keeps only the
** owned ends among those listed. Rank 0 gathers each rank's alignments and, per (query, target
** record), keeps those at the smallest distance: the first (the leftmost
** end) or, with --all-ends, all of them in rank order.
** Everything else (global mode, --pairs, a literal or gzip target) splits
** the list of pairs among the ranks; standard input is read by rank 0
** alone, which then does all the work. */

/* One alignment on its way to rank 0. */
typedef struct {
    uint64_t query, record, distance, start, end;
    uint32_t name_len, cigar_len;              /* then the name and the CIGAR bytes */
} dal_head_t;

typedef struct {
    char *p;
    size_t n, cap;
    int failed;
} bytes_t;

static void bytes_put(bytes_t *b, const void *x, size_t n) {
    if (b->failed) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) { b->failed = 1; return; }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}

static void put_alignment(bytes_t *b, uint64_t q, uint64_t rec, const char *name,
                          const wm_alignment_t *al, uint64_t shift) {
    dal_head_t h = { q, rec, al->distance, al->start + shift, al->end + shift,
                     (uint32_t)strlen(name), al->cigar ? (uint32_t)strlen(al->cigar) : 0 };
    bytes_put(b, &h, sizeof h);
    bytes_put(b, name, h.name_len);
    if (al->cigar) bytes_put(b, al->cigar, h.cigar_len);
}

/* Align query qi to local target record ti of the range and append what this
** rank owns. Returns 0 or -1 (message in why). */
static int align_owned(run_t *r, const wm_range_t *R, const char *tname, size_t qi, size_t ti,
                       bytes_t *out, char *why, size_t whylen) {
    uint64_t m, n = R->text.rec_start[ti + 1] - R->text.rec_start[ti];
    const uint8_t *q = wm_cli_input_rec(&r->q, qi, &m);
    const uint8_t *t = R->text.seq + R->text.rec_start[ti];
    uint64_t own_after = ti == 0 && R->continues ? R->halo : 0;   /* ends > this are ours */
    int first_end_ours = own_after == 0;                          /* end 0 too */
    wm_alignments_t res = { NULL, 0 };
    wm_status st = wm_align(r->cx, q, (size_t)m, t, n, &r->o, &res);
    if (st != WM_OK) {
        snprintf(why, whylen, "cannot align query '%.200s' to target '%.200s' (%s mode): %s",
                 wm_cli_input_name(&r->q, qi), tname, mode_words[r->o.mode],
                 wm_cli_status_msg(r->cx, st));
        wm_alignments_free(&res);
        return -1;
    }
    /* Without --all-ends a best end in the halo means that an earlier rank
    ** has an end at least as good further left: nothing to say. With it,
    ** every end at the best distance is listed: keep the owned ones. */
    for (size_t i = 0; i < res.n; ++i) {
        const wm_alignment_t *al = &res.a[i];
        if (al->end > own_after || (first_end_ours && al->end == 0))
            put_alignment(out, qi, R->grec[ti], tname, al, R->base[ti]);
    }
    wm_alignments_free(&res);
    return 0;
}

typedef struct {
    dal_head_t h;
    const char *name, *cigar;
    size_t order;
} dal_t;

static int dal_cmp(const void *x, const void *y) {
    const dal_t *a = x, *b = y;
    if (a->h.query != b->h.query) return a->h.query < b->h.query ? -1 : 1;
    if (a->h.record != b->h.record) return a->h.record < b->h.record ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Rank 0: every rank's alignments, in (query, record, rank) order; print the
** best of each pair. Returns -1 when out of memory. */
static int print_merged(run_t *r, const char *all, uint64_t len) {
    size_t n = 0, cap = 1024;
    dal_t *v = malloc(cap * sizeof *v);
    if (!v) return -1;
    for (uint64_t at = 0; at < len;) {
        if (n == cap) {
            dal_t *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) { free(v); return -1; }
            v = nv;
        }
        memcpy(&v[n].h, all + at, sizeof v[n].h);
        at += sizeof v[n].h;
        v[n].name = all + at;
        at += v[n].h.name_len;
        v[n].cigar = all + at;
        at += v[n].h.cigar_len;
        v[n].order = n;
        n++;
    }
    qsort(v, n, sizeof *v, dal_cmp);
    char name[4096], cigar_buf[1];
    (void)cigar_buf;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t best = UINT64_MAX;
        while (j < n && v[j].h.query == v[i].h.query && v[j].h.record == v[i].h.record) {
            if (v[j].h.distance < best) best = v[j].h.distance;
            j++;
        }
        for (size_t k = i; k < j; ++k) {
            if (v[k].h.distance != best) continue;
            size_t nl = v[k].h.name_len < sizeof name - 1 ? v[k].h.name_len : sizeof name - 1;
            memcpy(name, v[k].name, nl);
            name[nl] = '\0';
            char *cigar = NULL;
            if (r->o.cigar) {
                cigar = malloc(v[k].h.cigar_len + 1);
                if (!cigar) { free(v); return -1; }
                memcpy(cigar, v[k].cigar, v[k].h.cigar_len);
                cigar[v[k].h.cigar_len] = '\0';
            }
            wm_alignment_t al = { v[k].h.distance, v[k].h.start, v[k].h.end, cigar };
            print_alignment(r, wm_cli_input_name(&r->q, (size_t)v[k].h.query), name, &al);
            free(cigar);
            if (!r->o.all_ends) break;
        }
        i = j;
    }
    free(v);
    return 0;
}

/* A record of the target that no rank may leave empty (infix needs one). */
static int check_split_records(const wm_range_t *R, const char *targ, char *why, size_t len) {
    uint64_t tail = wm_range_record_tail(R->sums, (uint64_t)wm_dist.size, (uint64_t)wm_dist.rank);
    for (size_t i = R->continues ? 1 : 0; i < R->text.n_rec; ++i) {
        uint64_t n = R->text.rec_start[i + 1] - R->text.rec_start[i];
        if (i + 1 == R->text.n_rec) n += tail;
        if (n > 0) continue;
        if (R->format == WM_FMT_PLAIN)
            snprintf(why, len, "%s: %s", targ, R->size == 0 ? "the target file is empty"
                                                             : "no target sequence (only blanks "
                                                               "and line breaks)");
        else
            snprintf(why, len, "%.1000s: record %llu '%.200s' is empty (no sequence)", targ,
                     (unsigned long long)R->grec[i] + 1, R->names[i]);
        return -1;
    }
    return 0;
}

/* The infix job over a split target. Returns 0 or -1 (printed). */
static int align_split(run_t *r, const char *qarg, const char *targ, wm_range_t *R,
                       double read_s) {
    char why[2048] = "";
    int failed = 0;
    /* The query as one process reads it; the target's records come from R. */
    int raw = r->a->alphabet == ALPHA_TEXT;
    r->o = r->a->o;
    failed = wm_cli_input_open(&r->q, "query", qarg, raw, WM_MAX_QUERY) < 0;
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1)) return -1;
    if (check_split_records(R, targ, why, sizeof why) < 0) failed = 1;
    if (wm_cli_dist_failed(failed, why, 0)) return -1;
    r->t.is_file = 1;
    r->t.is_seqfile = R->format != WM_FMT_PLAIN;
    r->t.arg = targ;
    r->o.alphabet = pick_alphabet(r);
    failed = wm_cli_context_new(&r->a->co, &r->cx) != WM_OK;
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1)) return -1;

    double t1 = wm_dist_now();
    bytes_t out = { 0 };
    for (size_t qi = 0; qi < r->q.n_rec && !failed; ++qi)
        for (size_t ti = 0; ti < R->text.n_rec && !failed; ++ti) {
            const char *tname = r->t.is_seqfile ? R->names[ti] : targ;
            failed = align_owned(r, R, tname, qi, ti, &out, why, sizeof why) < 0;
        }
    if (out.failed && !failed) {
        failed = 1;
        snprintf(why, sizeof why, "%s", wm_strerror(WM_NOMEM));
    }
    if (wm_cli_dist_failed(failed, why, 0)) {
        free(out.p);
        return -1;
    }
    double t2 = wm_dist_now();
    void *all = NULL;
    uint64_t *lens = malloc((size_t)wm_dist.size * sizeof *lens);
    if (!lens || wm_dist_gather(out.p, out.n, &all, lens) < 0) wm_dist_abort(WM_EXIT_ERROR);
    int rc = 0;
    if (wm_dist.rank == 0) {
        uint64_t total = 0;
        for (int i = 0; i < wm_dist.size; ++i) total += lens[i];
        rc = print_merged(r, all, total);
        if (rc < 0) wm_cli_error("%s", wm_strerror(WM_NOMEM));
        note_write_error(r);
    }
    free(all);
    free(lens);
    free(out.p);
    /* Every rank leaves with rank 0's count of lines. */
    r->n_printed = wm_dist_sum(wm_dist.rank == 0 ? r->n_printed : 0);
    rc = wm_dist_bcast_int(rc);
    wm_dist_report(targ, read_s, t2 - t1, wm_dist_now() - t2);
    return rc;
}

/* Everything but a split infix target: rank r takes its share of the pairs
** in the one-process order (query-major), its lines go to rank 0 in rank
** order. Standard input is rank 0's alone, so with it rank 0 does all. */
static int align_share(run_t *r, const char *qarg, const char *targ) {
    const align_args_t *a = r->a;
    int stdin_used = strcmp(qarg, "-") == 0 || (targ && strcmp(targ, "-") == 0);
    int idle = stdin_used && wm_dist.rank != 0;
    int failed = !idle && prepare(r, qarg, targ) < 0;
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1)) return -1;
    failed = !idle && wm_cli_context_new(&a->co, &r->cx) != WM_OK;
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1)) return -1;

    char *mem = NULL;
    size_t mem_len = 0;
    FILE *stdout_was = r->out;
    r->out = open_memstream(&mem, &mem_len);
    if (!r->out) wm_dist_abort(WM_EXIT_ERROR);
    uint64_t parts = stdin_used ? 1 : (uint64_t)wm_dist.size, me = (uint64_t)wm_dist.rank;
    if (!idle) {
        size_t total = pair_count(r);
        size_t lo = (size_t)((unsigned __int128)total * me / parts);
        size_t hi = (size_t)((unsigned __int128)total * (me + 1) / parts);
        if (r->tsv || r->o.mode == WM_ALIGN_GLOBAL) {
            failed = align_batches(r, lo, hi) < 0;
        } else {
            for (size_t k = lo; k < hi && !failed; ++k) {
                size_t qi = a->pairs ? k : k / r->t.n_rec, ti = a->pairs ? k : k % r->t.n_rec;
                failed = align_pair(r, qi, ti) < 0;
            }
        }
    }
    fclose(r->out);
    r->out = stdout_was;
    int bad = wm_cli_dist_failed(failed, wm_cli_last_error(), 1);
    if (wm_dist_write_ordered(mem, mem_len, r->out) < 0) note_write_error(r);
    free(mem);
    r->n_printed = wm_dist_sum(r->n_printed);
    return bad ? -1 : 0;
}

/* Under MPI: split the target when it is a file that can be read by byte
** range, else share the pairs. */
static int align_dist(run_t *r, const char *qarg, const char *targ) {
    if (targ == NULL || r->a->pairs || r->a->o.mode == WM_ALIGN_GLOBAL ||
        strcmp(targ, "-") == 0 || strcmp(qarg, "-") == 0 || access(targ, R_OK) != 0)
        return align_share(r, qarg, targ);
    /* The halo: the longest alignment any query can need, m + min(k, m). */
    wm_cli_input_t q;
    memset(&q, 0, sizeof q);
    int raw = r->a->alphabet == ALPHA_TEXT;
    int failed = wm_cli_input_open(&q, "query", qarg, raw, WM_MAX_QUERY) < 0;
    uint64_t halo = 0;
    for (size_t i = 0; !failed && i < q.n_rec; ++i) {
        uint64_t m, k = r->a->o.max_distance < 0 ? UINT64_MAX : (uint64_t)r->a->o.max_distance;
        (void)wm_cli_input_rec(&q, i, &m);
        uint64_t h = m + (k < m ? k : m);
        if (h > halo) halo = h;
    }
    wm_cli_input_close(&q);
    if (wm_cli_dist_failed(failed, wm_cli_last_error(), 1)) return -1;
    wm_range_t R;
    char err[1024] = "";
    double t0 = wm_dist_now();
    wm_status st = wm_range_read(&R, targ, raw ? WM_RANGE_RECORDS : WM_RANGE_SEQUENCE,
                                 (uint64_t)wm_dist.rank, (uint64_t)wm_dist.size, halo,
                                 wm_dist_allgather_cb, NULL, err, sizeof err);
    if (wm_cli_dist_failed(st != WM_OK, err[0] ? err : wm_strerror(st), 0)) {
        wm_range_close(&R);
        return -1;
    }
    double read_s = wm_dist_now() - t0;
    int rc = R.whole ? align_share(r, qarg, targ) : align_split(r, qarg, targ, &R, read_s);
    wm_range_close(&R);
    return rc;
}

int wm_cmd_align(int argc, char **argv) {
    static char outbuf[1 << 20];
    align_args_t a;
    run_t r;
    int first_arg = 0, failed = 0;

    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    r.a = &a;
    r.out = stdout;

    int rc = parse_args(argc, argv, &a, &first_arg);
    if (rc == 1)
        return fflush(stdout) == 0 ? 0 : WM_EXIT_ERROR;
    int n_args = argc - first_arg;
    if (rc == 0 && a.explain && n_args == 0) {      /* the table alone */
        r.o = a.o;
        r.o.alphabet = a.alphabet == ALPHA_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        rc = wm_cli_context_new(&a.co, &r.cx) == WM_OK ? explain(&r) : -1;
        wm_context_free(r.cx);
        return rc == 0 ? 0 : WM_EXIT_ERROR;
    }
    if (rc < 0 || !(n_args == 2 || (n_args == 1 && a.pairs))) {
        if (rc == 0)
            wm_cli_error("align needs a QUERY and a TARGET, or --pairs and a pair file (%d "
                         "argument%s given)", n_args, n_args == 1 ? "" : "s");
        usage_hint();
        return WM_EXIT_ERROR;
    }
    wm_cli_dist_device(&a.co);
    double t_read = wm_dist_now();
    if (wm_dist.active) {
        failed = align_dist(&r, argv[first_arg], n_args == 2 ? argv[first_arg + 1] : NULL) < 0;
    } else if (prepare(&r, argv[first_arg], n_args == 2 ? argv[first_arg + 1] : NULL) < 0 ||
               ((t_read = wm_dist_now() - t_read), 0) ||
               wm_cli_context_new(&a.co, &r.cx) != WM_OK || (a.explain && explain(&r) < 0)) {
        failed = 1;
    } else if (r.tsv || r.o.mode == WM_ALIGN_GLOBAL) {
        failed = align_batches(&r, 0, pair_count(&r)) < 0;
    } else if (a.pairs) {
        for (size_t i = 0; i < r.q.n_rec && !failed && !ferror(r.out); ++i)
            failed = align_pair(&r, i, i) < 0;
    } else {
        double t0 = wm_dist_now();      /* t_read: reading the inputs */
        for (size_t i = 0; i < r.q.n_rec && !failed && !ferror(r.out); ++i)
            for (size_t j = 0; j < r.t.n_rec && !failed && !ferror(r.out); ++j)
                failed = align_pair(&r, i, j) < 0;
        wm_dist_report(argv[first_arg + 1], t_read, wm_dist_now() - t0, 0.0);
    }
    wm_context_free(r.cx);
    wm_cli_input_close(&r.q);
    wm_cli_input_close(&r.t);
    wm_cli_pairtsv_close(&r.pt);

    /* A closed pipe (1) ends quietly with the status of what was done. */
    if (wm_cli_flush_stdout(r.write_failed, r.write_errno) < 0 || failed)
        return WM_EXIT_ERROR;
    return r.n_printed > 0 ? WM_EXIT_MATCH : WM_EXIT_NOMATCH;
}
