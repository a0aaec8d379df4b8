/*
** search.h -- what the files of `warpmatch search` share: its options, the
** run, the match sink, and who does which job.
**
**     search_args.c   parse and check the options, read the pattern set
**     cmd_search.c    the command: one context, each file read, searched,
**                     counted, the exit status
**     dist_search.c   one file over the ranks of an MPI job
**     out_search.c    the lines (TSV, BED, counts, JSON Lines)
**     out_text.c      grep's conventions: line numbers, -w, -o/--line lines
**     locus.c         --best-per-locus: one row per occurrence
**     walk.c          -r: directories into sorted lists of files
*/
#ifndef WM_CLI_SEARCH_H
#define WM_CLI_SEARCH_H

#include <stdio.h>

#include "warpmatch.h"
#include "io/seqfile.h"
#include "cli.h"
#include "flags.h"
#include "out.h"
#include "patfile.h"
#include "progress.h"
#include "rows.h"
#include "sniff.h"

/* Same order as wm_algo_t: the index is the enum value. */
extern const char *const wm_cli_search_algo_words[];

/* One -e P or -f FILE: the set is read in the order these were given. */
typedef struct {
    char opt; /* 'e' or 'f' */
    const char *arg;
} wm_cli_patarg_t;

typedef struct {
    wm_cli_shared_t sh; /* the flags every command shares */
    const uint8_t *pattern;
    size_t m;
    int iupac;   /* the pattern has IUPAC nucleotide letters only */
    wm_opts_t o; /* alphabet is set per database */
    int count, by_record, quiet, progress;
    int per_pattern, all_patterns; /* --count-per-pattern, --all-patterns */
    char bed_name[WM_BED_NAME_MAX + 1];
    /* set mode */
    wm_cli_patarg_t *pat_args; /* every -e and -f, in argv order */
    size_t n_pat_args;
    const char *last_e; /* the last -e pattern */
    size_t n_e, n_f;    /* how many -e and -f */
    int is_set;
    int acgtu;     /* every pattern of the set is A/C/G/T/U only */
    int any_acgtu; /* some pattern of the set is A/C/G/T/U only */
    wm_patset_t set;
    const char *per_rank; /* --output-per-rank PREFIX, else NULL */
    /* grep's text conventions */
    int line_no;        /* -n */
    int only_matching;  /* -o: grep-style lines of the matched bytes */
    int whole_line;     /* --line: grep-style lines of the lines holding matches */
    int list_files;     /* -l: 1, -L: 2 */
    int with_filename;  /* -H: 1, --no-filename: 0, else -1: when several files */
    int word;           /* -w */
    int recurse;        /* -r */
    int binary_too;     /* -a: -r searches binary files too */
    int color;          /* --color, resolved: 1 to colour */
    uint64_t max_count; /* -m N, else UINT64_MAX */
    int line_buffered;  /* --line-buffered */
    int best_locus;     /* --best-per-locus */
    int cigar;          /* --cigar: each row's CIGAR */
    /* how inputs are read */
    int stream;            /* --stream: 1, every input in batches; --no-stream: -1, none */
    int streamed_input;    /* one of the FILEs will be read in batches (no CPU cover) */
    uint64_t stream_batch; /* --stream-batch: a batch's sequence bytes */
    /* --backend auto chose the GPU with the CPU covering its start-up
    ** (choose.c), and the model's GPU figures for what is left after it */
    int cover;
    double cover_gpu_fixed_s, cover_gpu_s_per_byte;
} wm_cli_search_args_t;

/* Where a line number was last counted (out_text.c). */
typedef struct {
    uint64_t pos, line;
} wm_cli_linepos_t;

/* A FASTA file's sequence lines: line i of the whole file holds the bytes
** of its record from off[i]; record r's lines are [rec_first[r], rec_first[r+1]). */
typedef struct {
    uint64_t *off, *line;
    size_t n, cap;
    size_t *rec_first;
} wm_cli_fasta_lines_t;

/* Open loci of --best-per-locus (locus.c). The chosen matches go out in
** runs, as wm_cli_search_row_run takes them. */
typedef int (*wm_cli_emit_t)(void *user, const wm_match_t *m, size_t n);
typedef struct {
    uint64_t span; /* the longest match: m + k */
    wm_cli_emit_t emit;
    void *user;
    struct wm_cli_locus_node *node; /* the open loci, and free nodes */
    uint32_t cap_node, free_node;
    /* open loci by their last end [0] and by their first end [1]: the oldest first */
    uint32_t head[2], tail[2];
    struct wm_cli_locus_slot *slot; /* pattern * 2 + strand -> its open loci */
    size_t n_slots, n_used;         /* a power of two; keys with open loci */
    wm_match_t *ready;              /* closed loci's matches waiting for their turn */
    size_t n_ready, cap_ready;
    uint64_t rec;
    int any, stopped;
} wm_cli_locus_t;

/* -r's files (walk.c): walked[i] is 1 for a file found in a directory. */
typedef struct {
    char **path;
    unsigned char *walked;
    size_t n, cap;
    int bare_dot;
} wm_cli_paths_t;

/* Where one file's matches go. */
typedef struct {
    FILE *out;
    const wm_cli_search_args_t *a;
    const char *source;
    const wm_seqfile_t *sf;
    uint64_t n;           /* matches in this file */
    uint64_t *per_record; /* --by-record counts, else NULL */
    wm_progress_t *pg;
    int write_failed, write_errno;
    double t_flushed;   /* when the output was last flushed (a line goes out within 0.5 s) */
    unsigned unchecked; /* rows printed since ferror was last asked */
    /* grep's text conventions */
    int count_rows;                 /* count what would print (-c, -l, -L with a filter) */
    const uint64_t *base;           /* MPI: the record offset of each local record, else NULL */
    const char *prefix;             /* the file name before -o/--line lines, else NULL */
    wm_cli_linepos_t lp;            /* -n on a plain input */
    const wm_cli_fasta_lines_t *fl; /* -n on FASTA, else NULL */
    wm_cli_locus_t *locus;          /* --best-per-locus, else NULL */
    int locus_failed;
    /* --line: the line being gathered, with the spans of its matches */
    int line_open;
    uint64_t line_rec, line_lo, line_hi, line_num;
    uint64_t *spans;
    size_t n_spans, cap_spans;
    uint64_t done_hi; /* --line: where the last printed line ended */
    uint64_t done_rec;
    int done_any;
    /* --format sam */
    int dna;           /* the file's alphabet (the CIGAR's match rule) */
    uint8_t *sam_seen; /* a pattern's first record is primary, the rest 256 */
    /* rows formatted in batches on threads (rows.h), else NULL: one at a time */
    wm_cli_rows_t *rows;
    void *view; /* the sink as the batches print it (a copy taken at its first
                   batched row, freed by wm_cli_search_sink_drain) */
} wm_cli_search_sink_t;

typedef struct {
    wm_cli_search_args_t *a;
    wm_context_t *cx; /* NULL until bg's is ready (made while the first file is read) */
    wm_cli_context_bg_t bg;
    wm_db_t *db[2];        /* [0] BYTES, [1] DNA; compiled on first use */
    uint64_t *per_pattern; /* --count-per-pattern counts, one per pattern */
    wm_progress_t pg;
    FILE *out;
    uint64_t n_matches, n_sources, n_bytes;
    int any_match, any_error, fatal, write_failed, write_errno;
    int dist;       /* ranks share the files (MPI, or --output-per-rank) */
    int early;      /* bg started before the patterns were read (--backend cuda, or
                       auto's guess: wm_cli_search_gpu_likely) */
    FILE *rank_out; /* --output-per-rank: this rank's file */
    int walked;     /* -r: the file now searched was found in a directory */
    int show_names; /* -o/--line lines start with FILE: */
    int argc;       /* the command line, for SAM's @PG */
    char **argv;
    uint8_t *sam_seen;   /* --format sam: one flag a pattern */
    wm_cli_rows_t *rows; /* the rows' writer, made for the first sink that may use it */
    int rows_tried;
    /* where the time went, printed under WM_CUDA_TIMING (wm_cli_timing_on) */
    double t_patterns, t_read, t_compile, t_search;
    /* the CPU covering the GPU's start-up (search_cover.c) */
    int cover;                      /* whole files are scanned through it */
    wm_context_t *cover_cx;         /* its CPU context, made at the first part */
    uint64_t cover_bytes;           /* owned ends it scanned before the context was ready */
    double t_cover;                 /* and the seconds that took */
    double cover_from, cover_ready; /* its first part and the context's readiness, seconds
                                       after the context was started; -1: not yet */
    int loci_starts;                /* the tuning --best-per-locus sets on each context; -1: none */
    const wm_context_t *msg_cx;     /* the context whose message explains the last failed scan */
    int said;                       /* the last failure's message is printed already */
} wm_cli_search_run_t;

/* ---- search_args.c ----------------------------------------------------------- */

/* Parse argv. Returns 0 to go on, 1 after --help (exit 0), -1 on a bad
** option (exit 2, message printed). *first_arg is the index of the first
** argument that is not an option. */
int wm_cli_search_parse(int argc, char **argv, wm_cli_search_args_t *a, int *first_arg);

/* The bytes before a match's end that it can depend on: the longest
** occurrence, the longest pattern with k insertions (a set within k too).
** A part of a text searched from there on with that many bytes before it
** (an MPI rank's range, a streamed batch) finds its matches whole. */
uint64_t wm_cli_search_halo(const wm_cli_search_args_t *a);

/* What a file's search does: count per pattern (--count-per-pattern), let
** the library count (-c, when none of grep's conventions filters or
** reshapes the rows: -w, -m, --line, --best-per-locus, --by-record), or list
** the matches (printed, or counted as printed). */
typedef enum {
    WM_CLI_SEARCH_LIST,
    WM_CLI_SEARCH_COUNT,
    WM_CLI_SEARCH_PER_PATTERN
} wm_cli_search_mode_t;
wm_cli_search_mode_t wm_cli_search_mode(const wm_cli_search_args_t *a);

/* Free what parsing and the pattern set hold (safe twice). */
void wm_cli_search_free(wm_cli_search_args_t *a);

/* The checks of one pattern's options, and of a set's (argv[first, argc)
** are the FILEs), before any file is read. Returns 0 or -1 (printed). */
int wm_cli_search_check(const wm_cli_search_args_t *a);
int wm_cli_search_check_set(const wm_cli_search_args_t *a, int argc, char **argv, int first);

/* Read the -e patterns and -f files in argv order and check the patterns
** against the options, naming the first one at fault. Returns 0 or -1. */
int wm_cli_search_load_set(wm_cli_search_args_t *a);

/* ---- cmd_search.c ------------------------------------------------------------ */

/* The database for a DNA (dna = 1) or byte text, compiled on first use;
** NULL after a message (r->fatal is then set). */
wm_db_t *wm_cli_search_db(wm_cli_search_run_t *r, int dna);

/* What an input's data is under --alphabet: 1 = dna, 0 = text; auto looks
** at the text read (sniff.h), and *sn gets what it saw (zeroed otherwise). */
int wm_cli_search_data_is_dna(const wm_cli_search_args_t *a, const wm_text_t *t, wm_sniff_t *sn);

/* Whether input `path` is searched as DNA, given what its data is
** (dna_data, agreed on by every rank): 1 dna, 0 text, or -1 after a
** message. On DNA data under auto: a pattern that is no nucleotide pattern
** at all (a letter outside the IUPAC codes; a set: no pattern of A, C, G,
** T, U only, the letters a set is searched by as DNA) is searched as text,
** the only reading it has; a set that mixes such patterns with those of
** A, C, G, T, U only is refused. Prints the --explain-alphabet line
** (rank 0). */
int wm_cli_search_is_dna(const wm_cli_search_args_t *a, const char *path, int dna_data,
                         const wm_sniff_t *sn);

/* The wm_match_cb of a search: counts, and prints unless counting. */
int wm_cli_search_on_match(const wm_match_t *m, void *user);
/* wm_search_batches' callback: a run of matches, each as on_match takes it. */
int wm_cli_search_on_matches(const wm_match_t *m, size_t n, void *user);
/* A run of matches found in pieces of their records (a streamed batch, a
** rank's range): start and end moved by base[record] into the coordinates
** of the whole record (the record index stays the piece's), then taken as
** on_matches takes them. 1 to stop. */
int wm_cli_search_on_matches_at(wm_cli_search_sink_t *s, const uint64_t *base, const wm_match_t *m,
                                size_t n);

/* The run's writer of rows on threads (rows.h) when the options let rows be
** formatted in batches, else NULL (made on first use; freed by the command). */
wm_cli_rows_t *wm_cli_search_rows(wm_cli_search_run_t *r);

/* A file's sink, for its records sf (dna: its alphabet, SAM's CIGARs). */
void wm_cli_search_sink_init(wm_cli_search_run_t *r, wm_cli_search_sink_t *s, const char *path,
                             const wm_seqfile_t *sf, int dna);

/* After a file's matches were listed (not counted by the library): -c's
** count of the rows, -l/-L's name. */
void wm_cli_search_listed(wm_cli_search_run_t *r, const wm_cli_search_sink_t *s, const char *path,
                          wm_status st);

/* The end of a file, whatever was done: the message of a failed st, JSON's
** summary line, the run's totals and its write failure. */
void wm_cli_search_file_done(wm_cli_search_run_t *r, const wm_cli_search_sink_t *s,
                             const char *path, wm_status st);

/* --count-per-pattern's lines of one file (zero counts with --all-patterns);
** returns their sum. */
uint64_t wm_cli_search_print_per_pattern(wm_cli_search_run_t *r, const char *path,
                                         const uint64_t *counts, size_t np);

/* ---- search_cover.c ----------------------------------------------------------- */

/* Whether whole files are scanned with the CPU covering the start-up: --backend
** auto chose it, or the WM_TEST_COVER hook; never with --progress. */
int wm_cli_search_cover_wanted(const wm_cli_search_args_t *a);
/* db's scan of the whole text of file path (sf): listing in runs (runs != NULL) or
** counting (*n_matches, and per_pattern when not NULL), in the order and
** with the counts of one wm_search_batches / wm_count / wm_count_per_pattern
** call. On r->cx, made now if it is not yet; with r->cover, the CPU takes
** parts from the front until it is ready. On a failure r->msg_cx is the
** context whose message explains it (r->said: printed already, r->fatal). */
wm_status wm_cli_search_scan(wm_cli_search_run_t *r, const wm_db_t *db, const char *path,
                             const wm_seqfile_t *sf, wm_matches_cb runs, void *user,
                             uint64_t *n_matches, uint64_t *per_pattern);
/* Whether the GPU's staging of sf's text will read the file (a plain file
** mapped as it is, one pattern): its pages then need no faulting in while
** the context is made. */
int wm_cli_search_reads_file(const wm_cli_search_run_t *r, const wm_seqfile_t *sf);
/* Whether GPU staging may read files with pread (in one process and under
** mpirun): yes, unless WM_STAGE_MAPPED=1, a benchmark's side by side that
** copies from the mapping as before. */
int wm_cli_stage_by_pread(void);
/* The cover's context freed (its time printed under WM_CUDA_TIMING). */
void wm_cli_search_cover_free(wm_cli_search_run_t *r);

/* ---- search_stream.c ---------------------------------------------------------- */

/* Why the options need whole files (not streamed), or NULL when they
** do not: -w, -n, --line, --best-per-locus, --format sam, under mpirun. */
const char *wm_cli_search_stream_blocker(const wm_cli_search_run_t *r);

/* Search path in batches when it is to be streamed (standard input, a pipe,
** a compressed file, FASTQ, or any input with --stream) and the options
** allow it. Returns 1 when done so (results printed, errors reported), 0
** when the caller is to read the file whole. */
int wm_cli_search_stream(wm_cli_search_run_t *r, const char *path);
/* Whether wm_cli_search_stream will take path, asked before the search: a
** regular file is opened and its first bytes read; standard input and
** pipes are not touched (yes). */
int wm_cli_search_would_stream(const wm_cli_search_run_t *r, const char *path);

/* ---- dist_search.c ----------------------------------------------------------- */

/* Search `path` over the ranks of an MPI job (or alone with
** --output-per-rank); rank 0 prints what one process would. */
void wm_cli_search_file_dist(wm_cli_search_run_t *r, const char *path);

/* --output-per-rank: open this rank's PREFIX.RANK as r->rank_out, agreed on
** over the job. Returns 0, or -1 after a message (on every rank). */
int wm_cli_search_open_rank_file(wm_cli_search_run_t *r);

/* Agree over the job on a failure (wm_cli_dist_failed) and note it as an
** error of the run. Returns 1 when some rank failed. */
int wm_cli_search_dist_failed(wm_cli_search_run_t *r, int failed, const char *why,
                              int rank0_printed);

/* Under MPI only rank 0 has standard input: it reads `-f -` and sends the
** bytes to every rank, which reads them from a file of its own. Returns 0
** or -1 (message printed); tmp gets the file's name ("" when none), for the
** caller to remove. */
int wm_cli_search_share_stdin_patterns(wm_cli_search_args_t *a, char *tmp, size_t len);

/* ---- out_search.c ------------------------------------------------------------ */

/* A record's name as printed: "." when it has none. */
const char *wm_cli_search_record_name(const wm_seqfile_t *sf, uint64_t r);

/* A set's pattern i as printed: its FASTA name, else its 1-based number
** written into buf (24 bytes). */
const char *wm_cli_search_pattern_label(const wm_cli_search_args_t *a, uint32_t i, char *buf);

/* One match in the chosen format, a single pattern's or a set's. */
void wm_cli_search_print(wm_cli_search_sink_t *s, const wm_match_t *m);

/* A row of the sink after -w and --best-per-locus: counted, printed (or
** its line gathered); non-zero to stop. wm_cli_search_sink_end prints
** what the sink still holds (--best-per-locus, --line) at a file's end;
** 0, or -1 when memory ran out (message printed). */
int wm_cli_search_row(void *sink, const wm_match_t *m);
/* The same for a run m[0, n), the matches in order: 1 to stop. */
int wm_cli_search_row_run(void *sink, const wm_match_t *m, size_t n);
int wm_cli_search_sink_end(wm_cli_search_sink_t *s);

/* Write the rows batched so far, before what the sink prints by refers to
** changes (a streamed batch's records) or anything else is printed; a
** failed write is noted in s. wm_cli_search_sink_end drains too. */
void wm_cli_search_sink_drain(wm_cli_search_sink_t *s);

/* ---- out_text.c ----------------------------------------------------------------- */

/* The 1-based line number of byte pos of seq, counted from c (which starts
** at { 0, 1 }, or where a rank's bytes begin). */
uint64_t wm_cli_line_at(wm_cli_linepos_t *c, const uint8_t *seq, uint64_t pos);

/* Read path again as plain bytes and find the line of each FASTA sequence
** line of sf. Returns 0, or -1 after a message. */
int wm_cli_fasta_lines_build(wm_cli_fasta_lines_t *fl, const char *path, const wm_seqfile_t *sf);
uint64_t wm_cli_fasta_line_at(const wm_cli_fasta_lines_t *fl, uint64_t rec, uint64_t pos);
void wm_cli_fasta_lines_free(wm_cli_fasta_lines_t *fl);

/* -w: rec[start, end) has a non-word byte (not ASCII alnum or '_') or the
** record's edge on each side. */
int wm_cli_is_word(const uint8_t *rec, uint64_t rec_len, uint64_t start, uint64_t end);

/* grep-style lines: "name:" (name NULL: none) and "line:" (0: none), then
** s[0, n) with spans (pairs [a, b), ascending) highlighted, and '\n';
** colour as grep's defaults when color is set. */
void wm_cli_text_prefix(FILE *out, int color, const char *name, uint64_t line);
void wm_cli_text_body(FILE *out, int color, const uint8_t *s, uint64_t n, const uint64_t *spans,
                      size_t n_spans);

/* JSON: ,"text":"..." when s[0, n) is UTF-8, else ,"bytes":"<base64>". */
void wm_cli_json_text(FILE *out, const uint8_t *s, size_t n);

/* ---- search_cigar.c: the CIGAR of an occurrence (SAM) ---------------------------- */

typedef struct {
    wm_opts_t o; /* the match rule: alphabet, case (wm_pat_accepts) */
    int hamming; /* gapless */
} wm_cli_cigar_rule_t;

/* The canonical CIGAR (=, X, I, D; align's rule) of pattern p[0, m) as
** searched on its strand against the occurrence t[0, n), under search's match
** rule; malloc'd, "*" when the table would be too large, NULL out of memory. */
char *wm_cli_occurrence_cigar(const wm_cli_cigar_rule_t *r, const uint8_t *p, size_t m,
                              const uint8_t *t, size_t n);

/* The CIGAR of a match as the sink's file and pattern make it (SAM,
** --cigar); malloc'd, NULL out of memory. */
char *wm_cli_match_cigar(const wm_cli_search_sink_t *s, const wm_match_t *m);

/* The SAM header of one file's search: @HD, an @SQ per record, @PG. */
void wm_cli_search_sam_header(FILE *out, const wm_seqfile_t *sf, const char *source, int argc,
                              char **argv);

/* One SAM record of a set's match (search_sam.c); 0, or -1 out of memory. */
int wm_cli_search_sam_row(wm_cli_search_sink_t *s, const wm_match_t *m);

/* ---- locus.c -------------------------------------------------------------------- */

int wm_cli_locus_init(wm_cli_locus_t *L, uint64_t span, wm_cli_emit_t emit, void *user);
/* A match in (record, end, strand) order; non-zero to stop (-1: no memory). */
int wm_cli_locus_push(wm_cli_locus_t *L, const wm_match_t *m);
/* The end of the matches: print what is left. 0, or -1 (no memory). */
int wm_cli_locus_finish(wm_cli_locus_t *L);
void wm_cli_locus_free(wm_cli_locus_t *L);

/* ---- walk.c --------------------------------------------------------------------- */

/* -r: args (n_args of them; none: ".") with each directory replaced by its
** regular files, recursively, sorted by name; symlinks inside directories
** skipped. Returns 0 (*any_error set after a message for an unreadable
** directory), or -1 when memory ran out (message printed). */
int wm_cli_walk(wm_cli_paths_t *p, char **args, int n_args, int *any_error);
void wm_cli_paths_free(wm_cli_paths_t *p);

#endif
