/*
** help.c -- each command's --help: its usage lines and prose (the command
** descriptors of flags.h), around the lines of its flags made from the
** table (flags.c).
**
** A flag's lines: "  -k, --max-edits N" padded to column HELP_COL (or
** alone on its line when longer), then its help wrapped at WRAP_COL. The
** help is lines separated by '\n'; the first one gets the command's note
** (flags.c's wm_flag_notes) and then the default in brackets (kept on one
** line when short: "[one GPU]"); the others follow, then the note's other
** lines. A line that starts with blanks is
** indented by them, and when its first word ends in ':' (a list such as
** "  dna:  ...") its next lines hang under the text after that word (or 4
** columns in, after a word too long for that to read well).
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "flags.h"

enum { HELP_COL = 24, WRAP_COL = 79, MAX_HANG = 8, SHORT_DEFAULT = 20 };

/* Stands for a blank that does not break a line: inside a short default. */
#define NO_BREAK '\x1f'

/* ---- the commands ------------------------------------------------------------- */

static const char *const search_formats[] = { "tsv", "bed", "json", "sam", NULL };
static const char *const align_formats[] = { "tsv", "json", "sam", "paf", NULL };

const wm_cli_command_t wm_cli_cmd_search = {
    "search",
    WM_CMD_SEARCH,
    search_formats,
    "Usage: warpmatch search [OPTIONS] PATTERN [FILE...]\n"
    "       warpmatch search [OPTIONS] -f PATFILE | -e P -e P ... [FILE...]\n",

    "Find every occurrence of PATTERN in each FILE, exactly or within k errors, or\n"
    "(second form) of every pattern of a pattern set, exactly or within k errors.\n"
    "With no FILE, or where FILE is -, read standard input. A file may be plain\n"
    "(searched as bytes, binary bytes included), FASTA or FASTQ (searched record by\n"
    "record; a match never crosses a record border), each possibly compressed\n"
    "(gzip, xz, bzip2 or zstd, told by their first bytes; any other compressed\n"
    "format is an error).\n",
    {
        [WM_SEC_SETS] =
            "  Patterns are numbered from 1 in the order given: -e and -f in command-line\n"
            "  order, a file's patterns in file order. With -k 0 matching is exact and\n"
            "  literal, as grep -F; every occurrence of every pattern is reported,\n"
            "  overlapping ones included, a duplicate once under each number.\n"
            "  With -k K > 0 (--hamming: substitutions only) each pattern gives exactly\n"
            "  the rows it gives alone (search -k K -e P), labelled with its number, so\n"
            "  patterns may hold IUPAC codes, as one pattern may, and K must be less than\n"
            "  every pattern's length. Found through exact pieces (k + 1 per pattern,\n"
            "  which an occurrence cannot all miss), verified by each pattern's own\n"
            "  kernel; a pattern under 12 bases (4 bytes of text) a piece is scanned\n"
            "  whole. --backend cuda runs DNA sets of patterns up to 256 bases on the\n"
            "  GPU (exact regions: Hamming patterns scanned whole only); the others run\n"
            "  on the CPU threads, and a note says so.\n"
            "  PATFILE: one pattern per line, 1 to 65536 bytes, every byte as it is (NUL\n"
            "  included; a '\\r' before the '\\n' is kept, as grep -F keeps it, so convert\n"
            "  CRLF files first); the last line needs no '\\n'; an empty line is an error\n"
            "  (grep -F would match everything with it).\n"
            "  A PATFILE whose first byte is '>' is FASTA: each record's sequence (lines\n"
            "  joined, whitespace dropped) is one pattern, printed as the first word of its\n"
            "  header instead of its number (a control byte in it is an error).\n"
            "  A PATFILE whose first line starts with '@' and whose third starts with '+'\n"
            "  is FASTQ: each 4-line record's sequence is one pattern, named likewise; its\n"
            "  qualities go to SAM output.\n"
            "  PATFILEs may be compressed (gzip, xz, bzip2 or zstd).\n"
            "  --revcomp and --alphabet dna need patterns of A, C, G, T, U only (either\n"
            "  case; with -k > 0, IUPAC codes); --alphabet auto picks dna for a FILE\n"
            "  whose data is DNA (see --alphabet), and such a FILE then needs every\n"
            "  pattern to be such.\n",
    },
    "Output lines (no header):\n"
    "  tsv   source<TAB>record<TAB>start<TAB>end<TAB>errors<TAB>strand\n"
    "  bed   record<TAB>start<TAB>end<TAB>name<TAB>errors<TAB>strand (BED6; name is\n"
    "        the pattern cut to 64 bytes; a plain file's source is the chrom)\n"
    "  json  JSON Lines: {\"type\":\"begin\",...} per source, {\"type\":\"match\",...}\n"
    "        per match, {\"type\":\"end\",...} per source, one {\"type\":\"summary\",...}\n"
    "        (its bytes: the sequence bytes searched, after FASTA/FASTQ parsing)\n"
    "  source is FILE as given (- for standard input), record the sequence name\n"
    "  (the first word of its FASTA/FASTQ header; a control byte in it is an error;\n"
    "  . for plain input), strand + or -.\n"
    "  With a pattern set, pattern is the pattern's number or FASTA name:\n"
    "  tsv   source<TAB>record<TAB>start<TAB>end<TAB>pattern (+ <TAB>errors with\n"
    "        -k > 0, + <TAB>strand with --revcomp)\n"
    "  bed   name = pattern, score errors;  json: \"pattern\", and \"errors\" with\n"
    "        -k > 0\n"
    "  sam   (sets, one FILE) a header (@SQ for each record), then one record per\n"
    "        occurrence (with -k > 0, as --best-per-locus): QNAME the pattern's name\n"
    "        or number, FLAG 16 on '-' and 256 for all but the pattern's first\n"
    "        record (SEQ and QUAL then *), POS, MAPQ 255, the CIGAR (=, X, I, D;\n"
    "        IUPAC codes match the bases they name), SEQ as it aligns, QUAL from a\n"
    "        FASTQ PATFILE, NM:i errors; samtools reads it\n"
    "\n"
    "Which matches: one line per end position e (and strand) where some substring\n"
    "ending at e is within k errors of the pattern. errors = the smallest such\n"
    "count; start = the largest s with distance(pattern, text[s,e)) = errors (the\n"
    "shortest occurrence). Coordinates are 0-based, half-open, within the record;\n"
    "strand '-' hits use forward-strand coordinates. Lines are sorted by source (in\n"
    "the order given), record, end, strand (a set: record, end, pattern, strand),\n"
    "and are the same for every backend and thread count.\n"
    "\n"
    "grep's conventions: -o and --line print grep-style lines instead of rows,\n"
    "[FILE:][LINE:]TEXT (FILE: with several FILEs or -r, -H, --no-filename); -n\n"
    "adds a line column to tsv rows (\"line\" in json); -c counts what would print\n"
    "(rows after -w, -m and --best-per-locus; lines with --line). Under mpirun -n,\n"
    "-o, -l and -L work (-n: plain files); -w, -m, -r, --line, --best-per-locus do\n"
    "not.\n"
    "\n"
    "Exit status: 0 if a match was found, 1 if none, 2 if an error occurred (an\n"
    "error wins, unless -q found a match).\n"
};

const wm_cli_command_t wm_cli_cmd_align = {
    "align",
    WM_CMD_ALIGN,
    align_formats,
    "Usage: warpmatch align [OPTIONS] QUERY TARGET\n"
    "       warpmatch align [OPTIONS] --pairs PAIRS.tsv\n"
    "       warpmatch align --algo four-russians --explain [--block-t T] [--alphabet dna]\n",

    "Align QUERY to TARGET by edit distance (unit costs: a substitution, an\n"
    "insertion or a deletion costs 1) and print the distance, where the query lies\n"
    "in the target, and on request the alignment itself.\n"
    "\n"
    "QUERY and TARGET are each a file: FASTA, FASTQ or plain, each possibly\n"
    "gzip-compressed; - is standard input (for one of the two only); or a sequence\n"
    "given on the command line, written seq:SEQUENCE (seq:GATTACA; seq: alone is\n"
    "the empty sequence), named query or target in the output. Any other argument\n"
    "is a file name, and one that names no file is an error (No such file or\n"
    "directory): a misspelt name is never aligned as a sequence.\n"
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
    "Strands: with the dna alphabet, infix mode aligns each query and its reverse\n"
    "complement (minimap2 does the same) and keeps, per target record, the strand\n"
    "with the smaller distance, '+' on a tie. --no-revcomp aligns the query as\n"
    "given only; --revcomp asks for both in global mode too (and is an error with\n"
    "the text alphabet).\n",
    {
        [WM_SEC_EXEC] =
            "  Under mpirun (or srun) each rank aligns the queries to its own byte range\n"
            "  of a TARGET file (infix), or its share of the pairs; rank 0 prints what one\n"
            "  process would.\n",
    },
    "Output lines (no header), one per alignment, tab-separated:\n"
    "  query  target  distance  start  end  [cigar]  strand  qlen\n"
    "  query, target: the record names: the first word of a FASTA/FASTQ header\n"
    "                 (a control byte in it is an error),\n"
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
    "                 step, then I, then D (on strand -: of the query's reverse\n"
    "                 complement, as SAM writes it)\n"
    "  strand:        + or -: the query, or its reverse complement, aligned to\n"
    "                 the target as given (start and end on the target's strand)\n"
    "  qlen:          the query's length\n"
    "  json:          one object a line with the same keys (and \"\" for the empty\n"
    "                 alignment's CIGAR)\n"
    "  sam, paf:      see --format; SAM and PAF always carry the CIGAR\n"
    "Queries in order, each query's lines in target order, written out as soon as\n"
    "the query is done (on a terminal, line by line). A progress line (cells\n"
    "aligned, rate, ETA) shows on standard error when it is a terminal and the run\n"
    "lasts over 1 s; it moves one pair at a time.\n"
    "Lines are the same for every --algo, backend and thread count.\n"
    "\n"
    "Exit status: 0 if at least one alignment was printed, 1 if none (every pair\n"
    "over -k; SAM's unmapped records are not alignments), 2 if an error occurred.\n"
};

const wm_cli_command_t wm_cli_cmd_dtw = {
    "dtw",
    WM_CMD_DTW,
    NULL,
    "Usage: warpmatch dtw [OPTIONS] QUERY SERIES\n"
    "       warpmatch dtw --mode matrix [OPTIONS] A [B]\n",

    "Find where each query signal fits best in a long series under dynamic time\n"
    "warping (DTW) and print the distance and where the match lies in the series,\n"
    "and on request the warping path.\n"
    "\n"
    "QUERY and SERIES are files of numbers, each possibly compressed; - is\n"
    "standard input (for one of the two only). SERIES is one signal. QUERY may\n"
    "hold several queries, each matched on its own: one per '>' record of a text\n"
    "file, one per line when a line holds several numbers (a file of one number\n"
    "a line is one query), or one per row of a 2-D .npy.\n"
    "\n"
    "Formats (--series-format for SERIES, --query-format for QUERY):\n"
    "  auto   npy when the file starts with the .npy magic, npz when it is a zip,\n"
    "         csv when its name ends in .csv or .csv.gz, else text [auto]\n"
    "  text   numbers separated by blanks, commas, semicolons and line breaks;\n"
    "         lines starting with '#' are comments; a '>' line names the record\n"
    "         made of the numbers up to the next '>'\n"
    "         Labelled (a name ending in .tsv, or --labels): the UCR-2018 layout,\n"
    "         a class label then the series on every line; each line of QUERY is\n"
    "         one query that keeps its label (printed last), a labelled SERIES\n"
    "         is its lines' samples joined, labels dropped\n"
    "  csv    one column (',', ';' or tab separated; '#' lines skipped); a first\n"
    "         line with a field that is not a number is the header and names the\n"
    "         signal. --column / --query-column pick the column by header name or\n"
    "         0-based number; a file of several columns needs one\n"
    "  npy    NumPy .npy: float32, float64 or integers; shape (n,), or (r, c): the\n"
    "         column given by --column / --query-column, else each row of a query\n"
    "         file, else the only column\n"
    "  npz    NumPy .npz (np.savez, np.savez_compressed): FILE.npz:NAME reads the\n"
    "         array NAME (or NAME.npy), read as npy; without a name the only\n"
    "         array, or the first with a note. A regular file only\n"
    "  f32, f64  raw little-endian float32 / float64, the whole file one signal;\n"
    "         a file whose first 4 KiB look like text is refused (--force-raw)\n"
    "Every sample must be a finite number: a NaN, an infinity, a malformed number\n"
    "or a file without samples is an error that names the file and the place.\n"
    "\n"
    "Modes:\n"
    "  subsequence  the stretch series[start, end) whose DTW distance to the\n"
    "               whole query is smallest (subsequence DTW: the series' flanks\n"
    "               cost nothing). Ties: the leftmost end, and for it the largest\n"
    "               start.\n"
    "  global       the DTW distance of the whole query and the whole series: one\n"
    "               line, start 0, end = the series' length\n"
    "  ucr          the UCR Suite's search: every window series[s, s + L), L = the\n"
    "               query's length or --length, z-normalised on its own, against\n"
    "               the z-normalised query, within the band of --window; ranked as\n"
    "               in subsequence mode. LB_Kim and LB_Keogh skip windows; --top 1\n"
    "               runs on the GPU with --backend cuda (auto keeps ucr on the\n"
    "               CPU), more on the CPU\n"
    "  matrix       the global DTW distance of every signal of A against every\n"
    "               signal of B, or of A against itself (each pair once, 0 on the\n"
    "               diagonal): a line per signal of A, its distances tab-separated\n"
    "               (numpy.loadtxt reads it); --npy FILE writes it as a float64\n"
    "               .npy; --knn K prints each row's K nearest instead, and the\n"
    "               1-NN accuracy when A and B are labelled (UCR .tsv). A and B\n"
    "               are read as QUERY is (a .csv name: one signal a line); a\n"
    "               fractional --window is of the longest signal. Under mpirun:\n"
    "               an error (one process; --gpus shares the pairs out)\n",
    {
        [WM_SEC_EXEC] =
            "  Under mpirun (or srun) every rank matches its share of the queries on its\n"
            "  GPU; rank 0 prints what one process would.\n",
    },
    "Output lines (no header), one per match, tab-separated:\n"
    "  query  start  end  distance  [path]  [label]\n"
    "  query:       the query's name (its '>' line, or its CSV column's header),\n"
    "               else its 0-based index in QUERY; a tab in a name prints as a\n"
    "               space\n"
    "  start, end:  0-based, half-open, in the series\n"
    "  distance:    the sum of the costs along the warping path, in the shorter of\n"
    "               %.15g and %.17g that reads back to the same double. With\n"
    "               --cost squared it is the sum of (x - y)^2, where dtaidistance\n"
    "               (dtw.distance) prints its square root: --sqrt prints that\n"
    "  path:        with --path: the cells of the path, q:s (0-based query and\n"
    "               series index) from the first to the last, comma-separated. It\n"
    "               is the traceback from the last cell that prefers the diagonal\n"
    "               step, then the query step, then the series step (ucr: in the\n"
    "               normalised window)\n"
    "  label:       a labelled QUERY's label for the query (.tsv, --labels)\n"
    "  json:        {\"query\":...,\"start\":...,\"end\":...,\"distance\":...} a line,\n"
    "               \"path\":[[q,s],...] with --path; query is the name as a string,\n"
    "               or the index as a number when the query has none; \"label\"\n"
    "               after it for a labelled query\n"
    "Matrix mode (--mode matrix), a line per signal of A: its distances to B's\n"
    "signals, tab-separated, each as distance above; json: {\"row\":...,\"label\":...,\n"
    "\"distances\":[...]} (null for +inf). With --knn K, per row, nearest first\n"
    "(ties: the earlier signal):\n"
    "  query  rank  neighbour  distance  [label  neighbour_label]\n"
    "  (names or 0-based indices; labels when a side is labelled, '.' for none;\n"
    "  json: the same keys, \"label\" after \"query\")\n"
    "Queries in file order; a query's matches best first (with --max-distance\n"
    "alone: in series order). Lines are the same for every backend, --threads\n"
    "and --piece.\n"
    "\n"
    "Exit status: 0 if at least one match was printed (matrix mode: the matrix was\n"
    "written), 1 if none (every match over --max-distance), 2 if an error occurred.\n"
};

const wm_cli_command_t wm_cli_cmd_info = {
    "info",
    WM_CMD_INFO,
    NULL,
    "Usage: warpmatch info [--json]\n",

    "Show the version, the backends built into this binary (cpu, cuda), the\n"
    "library's build features (cuda, SIMD kernels, compressed input), each\n"
    "GPU the CUDA backend finds (index, name, total and free memory, SMs),\n"
    "how '--backend auto' picks (per run, by a cost model, when a GPU is found;\n"
    "else the CPU), the GPU start-up the model assumes, and the CPU threads online.\n",
    { NULL },
    NULL
};

/* ---- printing ---------------------------------------------------------------- */

static const char *const sec_titles[WM_N_SECS] = {
    [WM_SEC_MATCH] = "Matching", [WM_SEC_SETS] = "Pattern sets (any -f, or -e more than once)",
    [WM_SEC_INPUT] = "Input",    [WM_SEC_EXEC] = "Execution",
    [WM_SEC_OUTPUT] = "Output",
};

/* The help of one flag for one command, assembled as help.c's comment says. */
static void assemble(const wm_flag_t *f, unsigned cmd, char *buf, size_t len) {
    const char *note = NULL;
    for (const wm_flag_note_t *n = wm_flag_notes; n->name != NULL; ++n)
        if ((n->cmds & cmd) && strcmp(n->name, f->name) == 0) note = n->text;
    const char *help_nl = strchr(f->help, '\n');
    const char *note_nl = note != NULL ? strchr(note, '\n') : NULL;
    int help_first = help_nl ? (int)(help_nl - f->help) : (int)strlen(f->help);
    int note_first = note == NULL ? 0 : note_nl ? (int)(note_nl - note) : (int)strlen(note);
    char dflt[128] = "";
    if (f->dflt != NULL) {
        snprintf(dflt, sizeof dflt, " [%s]", f->dflt);
        if (strlen(f->dflt) <= SHORT_DEFAULT)
            for (char *c = dflt + 1; *c != '\0'; ++c)
                if (*c == ' ') *c = NO_BREAK;
    }
    snprintf(buf, len, "%.*s%s%.*s%s%s%s", help_first, f->help, note_first > 0 ? " " : "",
             note_first, note != NULL ? note : "", dflt, help_nl ? help_nl : "",
             note_nl ? note_nl : "");
}

/* Print one line of help text starting at column `col` (the cursor is
** there), wrapped at WRAP_COL; every line it starts begins at HELP_COL. */
static void put_wrapped(const char *line, size_t n, int col) {
    size_t ind = 0, hang;
    while (ind < n && line[ind] == ' ') ++ind;
    hang = ind;
    if (ind > 0) { /* "  dna:  ...": hang after "dna:" */
        size_t w = ind;
        while (w < n && line[w] != ' ') ++w;
        if (w > ind && line[w - 1] == ':') {
            while (w < n && line[w] == ' ') ++w;
            hang = w - ind <= MAX_HANG ? w : ind + 4; /* a long word: a short step */
        }
    }
    printf("%*s", (int)ind, "");
    col += (int)ind;
    int at_start = 1;
    for (size_t i = ind; i < n;) {
        size_t j = i;
        while (j < n && line[j] != ' ') ++j;
        int wlen = (int)(j - i);
        if (!at_start && col + 1 + wlen > WRAP_COL) {
            printf("\n%*s", HELP_COL + (int)hang, "");
            col = HELP_COL + (int)hang;
            at_start = 1;
        }
        if (!at_start) {
            putchar(' ');
            col++;
        }
        for (size_t c = i; c < j; ++c) putchar(line[c] == NO_BREAK ? ' ' : line[c]);
        col += wlen;
        at_start = 0;
        /* Runs of blanks inside a line (a list's "dna:  ") print as they are. */
        size_t k = j;
        while (k < n && line[k] == ' ') ++k;
        if (k > j + 1 && k < n) {
            printf("%*s", (int)(k - j - 1), "");
            col += (int)(k - j - 1);
        }
        i = k;
    }
    putchar('\n');
}

static void put_flag(const wm_flag_t *f, unsigned cmd) {
    char text[2048], head[96];
    int n = snprintf(head, sizeof head, "  %s%c%s--%s%s%s", f->short_name ? "-" : " ",
                     f->short_name ? f->short_name : ' ', f->short_name ? ", " : "  ", f->name,
                     f->arg ? " " : "", f->arg ? f->arg : "");
    fputs(head, stdout);
    if (n > HELP_COL - 2) printf("\n%*s", HELP_COL, "");
    else printf("%*s", HELP_COL - n, "");
    assemble(f, cmd, text, sizeof text);
    for (const char *p = text;;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        put_wrapped(p, len, HELP_COL);
        if (nl == NULL) break;
        p = nl + 1;
        printf("%*s", HELP_COL, "");
    }
}

void wm_flags_help(const wm_cli_command_t *cmd) {
    fputs(cmd->usage, stdout);
    printf("\n%s", cmd->about);
    for (int s = 0; s < WM_N_SECS; ++s) {
        int any = 0;
        for (const wm_flag_t *f = wm_flags; f->name != NULL; ++f)
            any |= f->sec == (wm_flag_sec_t)s && (f->cmds & cmd->bit);
        if (!any) continue;
        printf("\n%s:\n", sec_titles[s]);
        if (cmd->intro[s] != NULL) fputs(cmd->intro[s], stdout);
        for (const wm_flag_t *f = wm_flags; f->name != NULL; ++f)
            if (f->sec == (wm_flag_sec_t)s && (f->cmds & cmd->bit)) put_flag(f, cmd->bit);
    }
    if (cmd->details != NULL) printf("\n%s", cmd->details);
}

void wm_flags_usage_hint(const wm_cli_command_t *cmd) {
    fprintf(stderr, "Try 'warpmatch %s --help'.\n", cmd->name);
}
