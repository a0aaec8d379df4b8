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

#include "warpmatch.h"
#include "io/print.h"
#include "cli.h"
#include "alignio.h"
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
    OPT_BACKEND, OPT_JSON, OPT_BLOCK_T, OPT_EXPLAIN
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

static void put_u64(FILE *f, uint64_t v) {
    char b[24], *p = b + sizeof b;
    do *--p = (char)('0' + v % 10); while (v /= 10);
    fwrite(p, 1, (size_t)(b + sizeof b - p), f);
}

static void print_alignment(run_t *r, const char *qname, const char *tname,
                            const wm_alignment_t *al) {
    /* A CIGAR was asked for; NULL should never show. "" is the empty
    ** alignment (global mode, both sequences empty): * in TSV, as in SAM. */
    const char *cigar = al->cigar != NULL ? al->cigar : "*";
    if (r->a->json) {
        fputs("{\"query\":", r->out);
        wm_print_json_string(r->out, qname, strlen(qname));
        fputs(",\"target\":", r->out);
        wm_print_json_string(r->out, tname, strlen(tname));
        fprintf(r->out, ",\"distance\":%llu,\"start\":%llu,\"end\":%llu",
                (unsigned long long)al->distance, (unsigned long long)al->start,
                (unsigned long long)al->end);
        if (r->o.cigar) {
            fputs(",\"cigar\":", r->out);
            wm_print_json_string(r->out, cigar, strlen(cigar));
        }
        fputs("}\n", r->out);
    } else {
        /* by hand: a million short pairs make fprintf the slowest part */
        fputs(qname, r->out);
        putc('\t', r->out);
        fputs(tname, r->out);
        putc('\t', r->out);
        put_u64(r->out, al->distance);
        putc('\t', r->out);
        put_u64(r->out, al->start);
        putc('\t', r->out);
        put_u64(r->out, al->end);
        if (r->o.cigar) {
            putc('\t', r->out);
            fputs(cigar[0] ? cigar : "*", r->out);
        }
        putc('\n', r->out);
    }
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

/* Returns 0, or -1 after a library error (message printed). */
static int align_batches(run_t *r) {
    size_t total = pair_count(r), cap = total < PAIR_BATCH ? total : PAIR_BATCH;
    wm_pair_t *P = malloc((cap ? cap : 1) * sizeof *P);
    wm_alignment_t *A = malloc((cap ? cap : 1) * sizeof *A);
    int rc = 0;
    if (!P || !A) {
        wm_cli_error("out of memory for a batch of %zu pairs", cap);
        rc = -1;
    }
    char buf[2][32];
    const char *qn, *tn;
    for (size_t base = 0; rc == 0 && base < total && !ferror(r->out); base += cap) {
        size_t nb = total - base < cap ? total - base : cap;
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
    if (prepare(&r, argv[first_arg], n_args == 2 ? argv[first_arg + 1] : NULL) < 0 ||
        wm_cli_context_new(&a.co, &r.cx) != WM_OK || (a.explain && explain(&r) < 0)) {
        failed = 1;
    } else if (r.tsv || r.o.mode == WM_ALIGN_GLOBAL) {
        failed = align_batches(&r) < 0;
    } else if (a.pairs) {
        for (size_t i = 0; i < r.q.n_rec && !failed && !ferror(r.out); ++i)
            failed = align_pair(&r, i, i) < 0;
    } else {
        for (size_t i = 0; i < r.q.n_rec && !failed && !ferror(r.out); ++i)
            for (size_t j = 0; j < r.t.n_rec && !failed && !ferror(r.out); ++j)
                failed = align_pair(&r, i, j) < 0;
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
