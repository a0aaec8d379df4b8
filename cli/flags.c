/*
** flags.c -- the table of every flag (flags.h), the notes a command adds to
** a shared flag's help, the shared flags' parsers, and the parser that makes
** getopt_long's arrays for a command from the table.
**
** Help text: lines separated by '\n', wrapped by help.c to the screen; the
** default, in brackets, ends the first line. Order within a section is the
** order printed.
*/
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flags.h"

const char *const wm_cli_format_words[] = { "tsv", "bed", "json", "sam", "paf", NULL };
static const char *const alphabet_words[] = { "auto", "dna", "text", NULL };

#define S WM_CMD_SEARCH
#define A WM_CMD_ALIGN
#define D WM_CMD_DTW
#define I WM_CMD_INFO

/* ---- the shared flags' parsers ---------------------------------------------- */

static int apply_help(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                      const wm_cli_command_t *cmd) {
    wm_flags_help(cmd);
    return 1;
}

static int apply_backend(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                         const wm_cli_command_t *cmd) {
    int i = wm_cli_choose("--backend", val, wm_cli_backend_words);
    if (i < 0) return -1;
    sh->co.backend = (wm_backend_t)i; /* same order as wm_backend_t */
    return 0;
}

static int apply_explain_backend(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                                 const wm_cli_command_t *cmd) {
    sh->explain_backend = 1;
    return 0;
}

static int apply_explain_alphabet(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                                  const wm_cli_command_t *cmd) {
    sh->explain_alphabet = 1;
    return 0;
}

static int apply_threads(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                         const wm_cli_command_t *cmd) {
    uint64_t v;
    if (wm_cli_option_u64("-j/--threads", val, 65536, 0, &v) < 0) return -1;
    sh->co.threads = (int)v;
    return 0;
}

static int apply_gpus(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                      const wm_cli_command_t *cmd) {
    return wm_cli_option_gpus(val, &sh->co);
}

/* --device N, dtw's old spelling: one ordinal, the list of one of --gpus N
** (a list of one is that device, for the library too). */
static int apply_device(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                        const wm_cli_command_t *cmd) {
    uint64_t v;
    if (wm_cli_option_u64("--device", val, INT_MAX, 0, &v) < 0) return -1;
    return wm_cli_option_gpus(val, &sh->co);
}

static int apply_json(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                      const wm_cli_command_t *cmd) {
    sh->format = WM_OUT_JSON;
    return 0;
}

static int apply_format(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                        const wm_cli_command_t *cmd) {
    int i = wm_cli_choose("--format", val, cmd->formats);
    if (i < 0) return -1;
    sh->format = (wm_cli_format_t)wm_cli_lookup(cmd->formats[i], wm_cli_format_words);
    return 0;
}

static int apply_alphabet(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                          const wm_cli_command_t *cmd) {
    int i = wm_cli_choose("--alphabet", val, alphabet_words);
    if (i < 0) return -1;
    sh->alphabet = (wm_cli_alpha_t)i;
    return 0;
}

static int apply_output(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                        const wm_cli_command_t *cmd) {
    if (val[0] == '\0') {
        wm_cli_error("--output: empty file name");
        return -1;
    }
    sh->output = val;
    return 0;
}

static int apply_ignore_case(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                             const wm_cli_command_t *cmd) {
    sh->ignore_case = 1;
    return 0;
}

/* ---- the table --------------------------------------------------------------- */

const wm_flag_t wm_flags[] = {
    /* -- matching ------------------------------------------------------------- */
    { 'k', 'k', "max-edits", "N", WM_SEC_MATCH, S, NULL, "0",
      "errors allowed, less than the pattern length" },
    { WM_F_EXACT_PREFIX, 0, "exact-prefix", "N", WM_SEC_MATCH, S, NULL, "0",
      "the first N positions of each pattern match with no error (IUPAC codes "
      "allowed: a PAM such as TTTV); on strand '-' the last N of the reverse "
      "complement" },
    { WM_F_EXACT_SUFFIX, 0, "exact-suffix", "N", WM_SEC_MATCH, S, NULL, "0",
      "the last N positions match with no error (a PAM such as NGG); the errors "
      "are the rest's, and with edits the gaps stay inside it (bulges). Runs on "
      "the CPU threads" },
    { WM_F_MODE, 0, "mode", "M", WM_SEC_MATCH, A, NULL, "infix", "infix or global" },
    { WM_F_MODE, 0, "mode", "M", WM_SEC_MATCH, D, NULL, "subsequence",
      "subsequence, global, ucr or matrix" },
    { 'k', 'k', "max-distance", "N", WM_SEC_MATCH, A, NULL, "no limit",
      "report nothing worse than N: a pair whose best distance is over N prints "
      "nothing. -k also prunes the work (the DP is cut to a band), so a small N is "
      "faster" },
    { WM_F_HAMMING, 0, "hamming", NULL, WM_SEC_MATCH, S, NULL,
      "edit distance: substitutions, insertions, deletions",
      "count substitutions only (Hamming distance)" },
    { WM_F_CIGAR, 0, "cigar", NULL, WM_SEC_MATCH, A, NULL, NULL,
      "add the extended CIGAR of one optimal alignment" },
    { WM_F_CIGAR, 0, "cigar", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "add each row's CIGAR (=, X, I, D: the pattern as searched, its reverse "
      "complement on '-', aligned with text[start,end) by align's canonical rule; "
      "IUPAC codes match the bases they name) after the strand column; json: "
      "\"cigar\"" },
    { WM_F_ALL_ENDS, 0, "all-ends", NULL, WM_SEC_MATCH, A, NULL, "only the leftmost end",
      "infix: one line for every end position that reaches the best distance, in "
      "end order, each with its largest start" },
    { WM_F_PAIRS, 0, "pairs", NULL, WM_SEC_MATCH, A, NULL, "every query against every target",
      "record i of QUERY against record i of TARGET (the two must have as many "
      "records: a missing mate is an error)\n"
      "With one file instead of QUERY TARGET: a file of pairs, one a line, "
      "QUERY<TAB>TARGET (plain or compressed; lines of nothing but spaces and tabs skipped), "
      "each pair named by its line number" },
    { WM_F_COST, 0, "cost", "C", WM_SEC_MATCH, D, NULL,
      "abs; squared in ucr mode, as the UCR Suite",
      "the cost of matching samples x and y: abs |x - y| or squared (x - y)^2" },
    { WM_F_SQRT, 0, "sqrt", NULL, WM_SEC_MATCH, D, NULL, NULL,
      "with --cost squared: print the square root of the distance (the sum of "
      "(x - y)^2 along the path), as dtaidistance's dtw.distance does; "
      "--max-distance D then compares the root with D" },
    { WM_F_WINDOW, 0, "window", "R", WM_SEC_MATCH, D, NULL, "no band",
      "Sakoe-Chiba band radius, global and ucr modes\n"
      "a whole number of samples, or a fraction below 1 written with a '.' or an "
      "'e' (0.1, 5e-2): "
      "R = floor(fraction x L), L = the query's length in ucr mode, the longer of "
      "the query and the series in global mode. Cell (i, j) of a query of m and a "
      "series (ucr: window) of n samples is allowed when\n"
      "  i - R - max(0, m - n) <= j <= i + R + max(0, n - m)" },
    { WM_F_ZNORM, 0, "znorm", NULL, WM_SEC_MATCH, D, NULL, NULL,
      "z-normalise the query and the series, each as a whole (population sd; a "
      "constant signal becomes zeros); ucr mode always normalises, each window on "
      "its own" },
    { WM_F_LENGTH, 0, "length", "L", WM_SEC_MATCH, D, NULL, "the query's length",
      "ucr mode: the window length" },
    { WM_F_TOP, 0, "top", "K", WM_SEC_MATCH, D, NULL, "1",
      "the K best matches, best first, none overlapping one before it" },
    { 'k', 'k', "max-distance", "D", WM_SEC_MATCH, D, NULL, NULL,
      "only matches with a distance <= D (a finite number >= 0). Without --top: "
      "every match within D that overlaps no better one, in series order" },
    { WM_F_PATH, 0, "path", NULL, WM_SEC_MATCH, D, NULL, NULL,
      "add the warping path of each match" },
    { WM_F_PRECISION, 0, "precision", "P", WM_SEC_MATCH, D, NULL, "f64",
      "f64 or f32: the DP's arithmetic (not ucr). f32 rounds each sample to a "
      "float and runs in float32 on every backend (the same bits on each; twice "
      "the SIMD lanes, several times the GPU's speed); its distances differ from "
      "f64's by rounding, and print as floats" },
    { WM_F_KNN, 0, "knn", "K", WM_SEC_MATCH, D, NULL, NULL,
      "matrix mode: print each signal of A's K nearest signals of B (of A "
      "without itself when there is no B) instead of the matrix, and with "
      "labels on both sides the 1-NN accuracy on standard error" },
    { 'i', 'i', "ignore-case", NULL, WM_SEC_MATCH, S | A, apply_ignore_case,
      "case matters in text mode", "fold ASCII letter case" },
    { WM_F_REVCOMP, 0, "revcomp", NULL, WM_SEC_MATCH, S, NULL, NULL,
      "also search the reverse complement of a nucleotide pattern; its hits are "
      "reported on strand '-'" },
    { WM_F_REVCOMP, 0, "revcomp", NULL, WM_SEC_MATCH, A, NULL, "on for DNA in infix mode",
      "align the reverse complement of each query too, and keep per target record "
      "the strand with the smaller distance ('+' on a tie); '-' rows "
      "use the target's coordinates and the CIGAR of the reverse complement, as "
      "SAM does. Needs DNA: --alphabet dna, or under auto a target whose data is "
      "DNA; an error with text" },
    { WM_F_NO_REVCOMP, 0, "no-revcomp", NULL, WM_SEC_MATCH, A, NULL, NULL,
      "align the query as given only (strand always '+')" },
    { WM_F_BEST, 0, "best", NULL, WM_SEC_MATCH, A, NULL, "every target record",
      "print only the target records where the query's best distance is reached "
      "(ties: all of them, in target order)" },
    { WM_F_ALPHABET, 0, "alphabet", "A", WM_SEC_MATCH, S | A, apply_alphabet, "auto",
      "auto, dna or text" },
    { WM_F_EXPLAIN_ALPHABET, 0, "explain-alphabet", NULL, WM_SEC_MATCH, S | A,
      apply_explain_alphabet, NULL,
      "print on standard error the alphabet of each input and why (auto: the share "
      "of nucleotide letters in its first 64 KiB of sequence)" },
    { WM_F_ALGO, 0, "algo", "A", WM_SEC_MATCH, S, NULL,
      "auto: chosen by pattern length, k and metric",
      "auto, shiftor (k = 0 only), bitap, myers (edit distance only)\n"
      "for a pattern set: auto, ac (Aho-Corasick), pfac (failureless AC), wumanber, "
      "wumanber-paper (as published: B = 3, B' = 2), qgram (patterns of 4+ bytes), "
      "teddy (nibble fingerprints, for tens of byte patterns; CPU) "
      "[auto: chosen from the set]" },
    { WM_F_ALGO, 0, "algo", "A", WM_SEC_MATCH, A, NULL, "auto = bitvector",
      "auto, bitvector, dp (also: wavefront) or four-russians\n"
      "  bitvector: Myers/Hyyro bit-parallel DP, banded\n"
      "  dp: the plain DP (infix: anti-diagonals on the GPU, columns on the CPU; "
      "global: anti-diagonals)\n"
      "  four-russians: --mode global only (an error without it); paper 001's t-blocks looked up "
      "in a table of "
      "every block, blocks on anti-diagonals in parallel\n"
      "dp and four-russians take pairs of at most 2^37 cells" },
    { WM_F_BLOCK_T, 0, "block-t", "T", WM_SEC_MATCH, A, NULL, "3",
      "four-russians block size, 1 to 4\n"
      "the table has 4^2T x 9^T entries (--alphabet dna, keyed by the block's strings "
      "as in the paper) or 2^(T*T) x 9^T (keyed by which symbols are equal), 2 bytes "
      "each: 860 MB at T = 4" },
    { WM_F_EXPLAIN, 0, "explain", NULL, WM_SEC_MATCH, A, NULL, NULL,
      "with --algo four-russians: print the table's t, key, entries, bytes and build "
      "time to standard error" },
    { 'e', 'e', "pattern", "P", WM_SEC_MATCH, S, NULL, NULL,
      "use P as the pattern (for a pattern starting with '-'); every argument is "
      "then a FILE; given more than once, the patterns form a set" },
    { 'f', 'f', "file", "PATFILE", WM_SEC_MATCH, S, NULL, NULL,
      "read a pattern set from PATFILE (- = standard input, only when no FILE is "
      "read from it); repeatable, may be mixed with -e; every argument is then a "
      "FILE" },
    /* -- pattern sets ---------------------------------------------------------- */
    { WM_F_PER_PATTERN, 0, "count-per-pattern", NULL, WM_SEC_SETS, S, NULL, NULL,
      "print source<TAB>pattern<TAB>count per file for each pattern found, in "
      "pattern order, instead of the matches" },
    { WM_F_ALL_PATTERNS, 0, "all-patterns", NULL, WM_SEC_SETS, S, NULL, NULL,
      "with --count-per-pattern (implied): list patterns with count 0 too" },
    /* -- input ----------------------------------------------------------------- */
    { WM_F_STREAM, 0, "stream", NULL, WM_SEC_INPUT, S, NULL, NULL,
      "read every input in batches, memory bounded whatever its size. Without it "
      "standard input, pipes, compressed files, FASTQ and files over a quarter of "
      "the memory are read so; other plain and FASTA files are mapped and parsed "
      "whole by all threads, which is faster" },
    { WM_F_NO_STREAM, 0, "no-stream", NULL, WM_SEC_INPUT, S, NULL, NULL,
      "read every input whole into memory (the way -w, -n, --line, "
      "--best-per-locus and --format sam always read)" },
    { WM_F_STREAM_BATCH, 0, "stream-batch", "N", WM_SEC_INPUT, S, NULL, "32M",
      "sequence bytes a streamed input is searched in at a time, K/M/G suffixes "
      "allowed; memory holds about three batches" },
    { WM_F_SERIES_FORMAT, 0, "series-format", "F", WM_SEC_INPUT, D, NULL, "auto",
      "SERIES's format: auto, text, csv, npy, f32 or f64" },
    { WM_F_SERIES_FORMAT, 0, "format", "F", WM_SEC_INPUT, D, NULL, NULL,
      "the old spelling of --series-format, kept: dtw's --format takes input "
      "formats (auto, text, csv, npy, f32, f64); JSON output is --json" },
    { WM_F_QUERY_FORMAT, 0, "query-format", "F", WM_SEC_INPUT, D, NULL, "auto",
      "QUERY's format, the same words" },
    { WM_F_DTYPE, 0, "dtype", "T", WM_SEC_INPUT, D, NULL, NULL,
      "f32 or f64: both files are raw of type T (--series-format T --query-format "
      "T); an explicit --series-format or --query-format still decides for its "
      "file" },
    { WM_F_COLUMN, 0, "column", "C", WM_SEC_INPUT, D, NULL, NULL,
      "SERIES's CSV column (header name or 0-based number) or 2-D .npy column "
      "(number)" },
    { WM_F_QUERY_COLUMN, 0, "query-column", "C", WM_SEC_INPUT, D, NULL, NULL,
      "QUERY's column, the same way (then QUERY is one query)" },
    { WM_F_LABELS, 0, "labels", NULL, WM_SEC_INPUT, D, NULL, "for names ending in .tsv",
      "text files hold a label first on every line (UCR-2018 .tsv: label, then "
      "the series): each line of QUERY is one query that keeps its label; in "
      "SERIES the labels are dropped and the lines joined" },
    { WM_F_NO_LABELS, 0, "no-labels", NULL, WM_SEC_INPUT, D, NULL, NULL,
      "read a .tsv file's first field as a sample" },
    { WM_F_FORCE_RAW, 0, "force-raw", NULL, WM_SEC_INPUT, D, NULL, NULL,
      "read an f32 or f64 file even when its first 4 KiB look like text (over 95% "
      "printable), which is refused otherwise" },
    /* -- execution ------------------------------------------------------------- */
    { WM_F_BACKEND, 0, "backend", "B", WM_SEC_EXEC, S | A | D, apply_backend,
      "auto: cuda only when a GPU is found and a cost model predicts it faster for "
      "this run, else cpu",
      "auto, cpu or cuda" },
    { WM_F_EXPLAIN_BACKEND, 0, "explain-backend", NULL, WM_SEC_EXEC, S | A | D,
      apply_explain_backend, NULL,
      "print on standard error the backend that runs and why: the seconds the cost "
      "model predicts on the CPU threads and on the GPU (start-up, set-up, moving, "
      "kernels)" },
    { 'j', 'j', "threads", "N", WM_SEC_EXEC, S | A | D, apply_threads, "0",
      "CPU threads, 0 = all online cores" },
    { WM_F_CHUNK, 0, "chunk-bytes", "N", WM_SEC_EXEC, S, NULL, "0 = tuned",
      "work unit per thread or GPU batch, K/M/G suffixes allowed (for testing)" },
    { WM_F_GPUS, 0, "gpus", "LIST", WM_SEC_EXEC, S | A | D, apply_gpus, "one GPU",
      "all, or GPU numbers such as 0,2,3:\n"
      "Under mpirun: the GPUs this host's ranks take in turn [local rank mod the "
      "GPUs found]" },
    { WM_F_GPUS, 0, "device", "N", WM_SEC_EXEC, D, apply_device, NULL,
      "the old spelling of --gpus N: the CUDA GPU to use, numbered as 'warpmatch "
      "info'" },
    { WM_F_PIECE, 0, "piece", "N", WM_SEC_EXEC, D, NULL, "tuned",
      "for testing: cut the series into pieces of N samples for the threads and "
      "the GPU (warping paths then cross pieces; the output must not change)" },
    { WM_F_NO_PROGRESS, 0, "no-progress", NULL, WM_SEC_EXEC, S | A | D, NULL, NULL,
      "never show the progress line (shown on stderr only when stderr is a "
      "terminal and the run lasts over 1 s)" },
    /* -- output ---------------------------------------------------------------- */
    { WM_F_FORMAT, 0, "format", "F", WM_SEC_OUTPUT, S | A, apply_format, "tsv",
      "the output format:" },
    { WM_F_JSON, 0, "json", NULL, WM_SEC_OUTPUT, S | A | D | I, apply_json, NULL, "JSON Lines" },
    { WM_F_CIGAR_M, 0, "cigar-m", NULL, WM_SEC_OUTPUT, A, NULL, NULL,
      "SAM: write the CIGAR with M (match or mismatch) instead of = and X" },
    { 'c', 'c', "count", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "print one line per file, source<TAB>count, instead of the matches (not with "
      "--format bed or json)" },
    { WM_F_BY_RECORD, 0, "by-record", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "with -c (implied): one line per record, source<TAB>record<TAB>count, "
      "records with 0 included" },
    { 'q', 'q', "quiet", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "no output, exit status only; stop at the first match" },
    { WM_F_BEST_LOCUS, 0, "best-per-locus", NULL, WM_SEC_OUTPUT, S, NULL,
      "one row per end position",
      "one row per occurrence: of overlapping matches (intervals [start,end) "
      "sharing a byte, chained, one pattern and strand, within a record) only the "
      "one with the fewest errors, the leftmost end on ties; -c counts these" },
    { 'n', 'n', "line-number", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "the 1-based line of the match's start in the file as it is (CRLF and gzip "
      "files too; FASTA: the file's line, not the record's): a last column in tsv, "
      "\"line\" in json, LINE: before -o/--line lines" },
    { 'o', 'o', "only-matching", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "print the matched bytes instead of rows, as grep -o: [FILE:][LINE:]MATCH, "
      "one line per row (the bytes as they are); in json, add \"text\" (or "
      "\"bytes\", base64, when they are not UTF-8) to each match" },
    { WM_F_LINE, 0, "line", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "print each line holding a match start once, as grep: [FILE:][LINE:]LINE "
      "(plain text only; -c and -m then count lines)" },
    { 'H', 'H', "with-filename", NULL, WM_SEC_OUTPUT, S, NULL, "when more than one FILE or -r",
      "print FILE: before -o/--line lines" },
    { WM_F_NO_FILENAME, 0, "no-filename", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "never print FILE: before -o/--line lines" },
    { 'l', 'l', "files-with-matches", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "print only the names of files with a match, one a line" },
    { 'L', 'L', "files-without-match", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "print only the names of files with no match, one a line" },
    { 'w', 'w', "word-regexp", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "only matches with a non-word byte (not ASCII letter, digit or '_') or the "
      "record's edge on each side, as grep -w; for k > 0 the test is on the "
      "reported (shortest) occurrence" },
    { 'm', 'm', "max-count", "N", WM_SEC_OUTPUT, S, NULL, "no limit",
      "stop each file after N rows (N lines with --line)" },
    { 'r', 'r', "recursive", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "search the regular files under each directory FILE (no FILE: .), in name "
      "order, symlinks inside not followed, binary files (a NUL byte) skipped" },
    { 'a', 'a', "text", NULL, WM_SEC_OUTPUT, S, NULL, NULL, "with -r: search binary files too" },
    { WM_F_COLOR, 0, "color", "WHEN", WM_SEC_OUTPUT, S, NULL, "auto",
      "auto, always or never: colour -o/--line lines as grep does (auto: when "
      "standard output is a terminal and TERM is not dumb; never under mpirun)" },
    { WM_F_LINE_BUFFERED, 0, "line-buffered", NULL, WM_SEC_OUTPUT, S, NULL, NULL,
      "write each line out at once (for a pipe read as it comes)" },
    { WM_F_OUTPUT, 0, "output", "FILE", WM_SEC_OUTPUT, S | A | D, apply_output, "standard output",
      "write the results to FILE (made or emptied) instead of standard output; under "
      "mpirun rank 0 writes it itself, where its standard output would go through "
      "mpirun's forwarding (slow for large outputs). FILE may not be one of the "
      "inputs" },
    { WM_F_PER_RANK, 0, "output-per-rank", "PREFIX", WM_SEC_OUTPUT, S, NULL, NULL,
      "under mpirun: each rank writes its own matches, sorted, to PREFIX.RANK (5 "
      "digits: PREFIX.00000, ...) instead of sending them to rank 0; the files in "
      "rank order are the one-process output (tsv and bed, one FILE; for large "
      "outputs: rank 0's stdout goes through mpirun, slowly)" },
    { WM_F_NPY, 0, "npy", "FILE", WM_SEC_OUTPUT, D, NULL, NULL,
      "matrix mode: write the matrix to FILE as a NumPy .npy array (float64, "
      "float32 with --precision f32; A's signals as rows) instead of printing it" },
    { 'h', 'h', "help", NULL, WM_SEC_OUTPUT, S | A | D | I, apply_help, NULL, "show this help" },
    { 0, 0, NULL, NULL, 0, 0, NULL, NULL, NULL }
};

/* What a command adds to a shared flag's help: the note's first line joins
** the flag's first (before its default), its other lines follow the flag's. */
const wm_flag_note_t wm_flag_notes[] = {
    { "alphabet", S,
      "\n"
      "  dna:  pattern letters are IUPAC codes (ACGTURYSWKMBDHVN, either case) "
      "matching the bases A, C, G, T of the text, either case; other text bytes "
      "(N too) match nothing\n"
      "  text: each byte matches itself; case matters unless -i\n"
      "  auto: chosen per FILE from its data, never from the pattern: dna when at "
      "least 90% of the first 64 KiB of its sequence (FASTA/FASTQ: the records' "
      "letters; plain: the file's bytes; blanks and line breaks skipped) are A, C, "
      "G, T, U or N in either case, else text (protein, prose, binary). So one "
      "sequence gets the same case rules as plain, FASTA or FASTQ. On DNA data a "
      "pattern with a letter that is no IUPAC code (HELLO) is searched as text, "
      "its only reading (a set: when no pattern is A, C, G, T, U only); a set that "
      "mixes patterns of A, C, G, T, U only with others is an error for that "
      "FILE: give --alphabet text. --explain-alphabet says what was chosen and why" },
    { "alphabet", A,
      "\n"
      "  dna:  case ignored, U reads as T; only A, C, G and T match (N and other "
      "codes match nothing, not even themselves)\n"
      "  text: each byte is itself, case matters unless -i; a plain file is "
      "aligned byte for byte, line breaks included\n"
      "  auto: the TARGET's data decides, by search's rule: dna when at least 90% "
      "of the first 64 KiB of its sequence are A, C, G, T, U or N (either case), "
      "else text. A DNA target needs a query that is DNA by the same rule or IUPAC "
      "letters only (else an error: give --alphabet text); a DNA query against a "
      "text or protein target is aligned as text. --pairs PAIRS.tsv: the second "
      "column is the target\n"
      "Under auto and dna a plain file is one sequence: its blanks and line breaks "
      "are dropped, and a file with other bytes (NUL, controls, bytes >= 0x80) is "
      "refused as binary (--alphabet text aligns raw bytes)." },
    { "gpus", S,
      "split the text over these GPUs of one host (one part each); the "
      "same output" },
    { "gpus", A,
      "split each target (infix) or the pairs over these GPUs of one "
      "host; the same output" },
    { "gpus", D,
      "share the queries out over these GPUs of one host; the same "
      "output" },
    { "format", S, "tsv, bed or json" },
    { "format", A,
      "tsv, json, sam or paf\n"
      "  sam:  a header (@HD, @SQ for every target record, @PG), then one record "
      "per alignment: FLAG 16 for '-', 256 for all but the query's first best "
      "row, 4 for a query with no alignment (within -k); POS 1-based; MAPQ 60 "
      "when the best distance is reached once, else 0; CIGAR with = and X (M "
      "with --cigar-m); SEQ reverse-complemented for '-' (and * in secondary "
      "records); QUAL from a FASTQ QUERY file (reversed for '-'; * for standard "
      "input and other inputs); NM:i = distance, AS:i = -distance\n"
      "  paf:  minimap2's 12 columns (qname qlen qstart qend strand tname tlen "
      "tstart tend matches block mapq), then tp:A:P|S, NM:i and cg:Z: (M, I, D); "
      "query bases inserted before the first or after the last aligned base are "
      "left out of the query span, NM and cg" },
    { "json", S, "output, the same as --format json" },
    { "json", A,
      "output, the same as --format json: one object per alignment "
      "with the keys query, target, distance, start, end, (cigar,) strand, qlen" },
    { "json", D,
      "output: one object per match with the keys query, start, end, "
      "distance (and path)" },
    { NULL, 0, NULL }
};

#undef S
#undef A
#undef D
#undef I

/* ---- parsing ------------------------------------------------------------------ */

const char *wm_flag_display(const wm_flag_t *f, char *buf, size_t len) {
    if (f->short_name != 0) snprintf(buf, len, "-%c/--%s", f->short_name, f->name);
    else snprintf(buf, len, "--%s", f->name);
    return buf;
}

int wm_flags_parse(const wm_cli_command_t *cmd, int argc, char **argv, wm_cli_shared_t *sh,
                   wm_flag_own_t own, void *args, int *first_arg) {
    /* getopt_long's arrays for this command: the long options (each entry
    ** remembered, so that a spelling finds its own entry), and the short
    ** letters after a ':' (our own message for a missing value). */
    enum { MAX_FLAGS = 64 };
    struct option longs[MAX_FLAGS + 1];
    const wm_flag_t *entry[MAX_FLAGS];
    char shorts[2 * MAX_FLAGS + 2] = ":";
    size_t n = 0, ns = 1;
    for (const wm_flag_t *f = wm_flags; f->name != NULL; ++f) {
        if (!(f->cmds & cmd->bit)) continue;
        if (n == MAX_FLAGS) abort();   /* the table outgrew MAX_FLAGS */
        for (size_t i = 0; i < n; ++i) /* one spelling, one flag */
            if (strcmp(entry[i]->name, f->name) == 0 ||
                (f->short_name != 0 && entry[i]->short_name == f->short_name))
                abort();
        longs[n].name = f->name;
        longs[n].has_arg = f->arg != NULL ? required_argument : no_argument;
        longs[n].flag = NULL;
        longs[n].val = f->id;
        entry[n++] = f;
        if (f->short_name != 0) {
            shorts[ns++] = f->short_name;
            if (f->arg != NULL) shorts[ns++] = ':';
        }
    }
    memset(&longs[n], 0, sizeof longs[n]);
    shorts[ns] = '\0';

    memset(sh, 0, sizeof *sh);
    sh->co = wm_context_opts_default();
    sh->format = WM_OUT_TSV;
    sh->alphabet = WM_ALPHA_AUTO;

    opterr = 0; /* our own messages, in our own form */
    /* 0, not 1: glibc's getopt (and musl's) then starts afresh. With 1 it
    ** goes on from where the last parse stopped inside a group of short
    ** options ("-ixq" refused at x leaves "q" pending): a second parse in
    ** one process would read that stale group, and its string may be freed
    ** (found by tests/fuzz/fuzz_args.c; input corpus/args/getopt_stale). */
    optind = 0;
    for (;;) {
        int at = -1;
        int c = getopt_long(argc, argv, shorts, longs, &at);
        if (c == -1) break;
        if (c == ':' || c == '?') {
            wm_cli_getopt_error(c, argv);
            return -1;
        }
        const wm_flag_t *f = NULL;
        if (at >= 0) {
            f = entry[at];
        } else {
            for (size_t i = 0; i < n && f == NULL; ++i)
                if (entry[i]->short_name == c) f = entry[i];
        }
        int rc = f->apply != NULL ? f->apply(f, optarg, sh, cmd) : own(f, optarg, args);
        if (rc != 0) return rc;
    }
    *first_arg = optind;
    return 0;
}
