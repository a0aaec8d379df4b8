/*
** search_args.c -- the options of `warpmatch search`: its own flags (the
** table's, flags.c, applied here), the checks made before any file is
** read, with messages that name the option at fault, and the pattern set
** read from -e and -f in command-line order.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "cli.h"
#include "search.h"

const char *const wm_cli_search_algo_words[] = { "auto",  "shiftor", "bitap",    "myers",
                                                 "ac",    "pfac",    "wumanber", "wumanber-paper",
                                                 "qgram", "teddy",   NULL };

/* The flags that are search's own (wm_flag_own_t). */
static int apply_own(const wm_flag_t *f, const char *val, void *args) {
    wm_cli_search_args_t *a = args;
    char name[64];
    uint64_t v;
    int i;
    switch (f->id) {
    case 'k':
        if (wm_cli_option_u64(wm_flag_display(f, name, sizeof name), val, UINT32_MAX, 0, &v) < 0)
            return -1;
        a->o.max_edits = (uint32_t)v;
        break;
    case WM_F_HAMMING: a->o.metric = WM_METRIC_HAMMING; break;
    case WM_F_EXACT_PREFIX:
    case WM_F_EXACT_SUFFIX:
        if (wm_cli_option_u64(wm_flag_display(f, name, sizeof name), val, WM_MAX_PATTERN, 0, &v) <
            0)
            return -1;
        *(f->id == WM_F_EXACT_PREFIX ? &a->o.exact_prefix : &a->o.exact_suffix) = (uint32_t)v;
        break;
    case WM_F_CIGAR: a->cigar = 1; break;
    case WM_F_REVCOMP: a->o.revcomp = 1; break;
    case WM_F_ALGO:
        if ((i = wm_cli_choose("--algo", val, wm_cli_search_algo_words)) < 0) return -1;
        a->o.algo = (wm_algo_t)i; /* same order as wm_algo_t */
        break;
    case 'e':
    case 'f':
        a->pat_args[a->n_pat_args].opt = (char)f->id;
        a->pat_args[a->n_pat_args++].arg = val;
        if (f->id == 'e') {
            a->last_e = val;
            a->n_e++;
        } else {
            a->n_f++;
        }
        break;
    case WM_F_CHUNK:
        if (wm_cli_option_u64("--chunk-bytes", val, UINT64_MAX, 1, &v) < 0) return -1;
        a->sh.co.chunk_bytes = v;
        break;
    case WM_F_NO_PROGRESS: a->progress = 0; break;
    case 'c': a->count = 1; break;
    case WM_F_BY_RECORD:
        a->by_record = 1;
        a->count = 1;
        break;
    case WM_F_PER_PATTERN:
        a->per_pattern = 1;
        a->count = 1;
        break;
    case WM_F_ALL_PATTERNS: a->all_patterns = a->per_pattern = a->count = 1; break;
    case WM_F_PER_RANK: a->per_rank = val; break;
    case 'q': a->quiet = 1; break;
    case 'n': a->line_no = 1; break;
    case 'o': a->only_matching = 1; break;
    case WM_F_LINE: a->whole_line = 1; break;
    case 'H': a->with_filename = 1; break;
    case WM_F_NO_FILENAME: a->with_filename = 0; break;
    case 'l': a->list_files = 1; break;
    case 'L': a->list_files = 2; break;
    case 'w': a->word = 1; break;
    case 'r': a->recurse = 1; break;
    case 'a': a->binary_too = 1; break;
    case 'm':
        if (wm_cli_option_u64("-m/--max-count", val, UINT64_MAX - 1, 0, &v) < 0) return -1;
        a->max_count = v;
        break;
    case WM_F_COLOR: {
        static const char *const when[] = { "auto", "always", "never", NULL };
        if ((i = wm_cli_choose("--color", val, when)) < 0) return -1;
        a->color = i == 0 ? -1 : i == 1; /* auto: decided by the command (MPI: never) */
        break;
    }
    case WM_F_LINE_BUFFERED: a->line_buffered = 1; break;
    case WM_F_BEST_LOCUS: a->best_locus = 1; break;
    case WM_F_STREAM: a->stream = 1; break;
    case WM_F_NO_STREAM: a->stream = -1; break;
    case WM_F_STREAM_BATCH:
        if (wm_cli_option_u64("--stream-batch", val, (uint64_t)1 << 32, 1, &v) < 0) return -1;
        if (v == 0) {
            wm_cli_error("--stream-batch must be at least 1 byte");
            return -1;
        }
        a->stream_batch = v;
        break;
    }
    return 0;
}

int wm_cli_search_parse(int argc, char **argv, wm_cli_search_args_t *a, int *first_arg) {
    a->pat_args = malloc((size_t)argc * sizeof *a->pat_args);
    if (a->pat_args == NULL) {
        wm_cli_error("%s", wm_strerror(WM_NOMEM));
        return -1;
    }
    a->o = wm_opts_default();
    a->progress = 1;
    a->with_filename = -1;
    a->max_count = UINT64_MAX;
    a->color = -1; /* --color auto */
    a->stream_batch = (uint64_t)32 << 20;
    int rc = wm_flags_parse(&wm_cli_cmd_search, argc, argv, &a->sh, apply_own, a, first_arg);
    if (rc != 0) return rc;
    if (a->sh.ignore_case) a->o.case_insensitive = 1;
    if (a->n_f > 0 || a->n_e > 1) {
        a->is_set = 1; /* the patterns are read later, by load_set */
        return 0;
    }
    const char *pattern = a->last_e;
    if (pattern == NULL) {
        if (*first_arg >= argc) {
            wm_cli_error("no pattern given");
            return -1;
        }
        pattern = argv[(*first_arg)++];
    }
    a->pattern = (const uint8_t *)pattern;
    a->m = strlen(pattern);
    a->iupac = wm_cli_is_iupac(a->pattern, a->m);
    wm_out_bed_name(a->bed_name, a->pattern, a->m);
    return 0;
}

uint64_t wm_cli_search_halo(const wm_cli_search_args_t *a) {
    uint64_t halo = a->o.max_edits;
    if (a->is_set) {
        size_t longest = 0;
        for (size_t i = 0; i < a->set.n; ++i)
            if (a->set.len[i] > longest) longest = a->set.len[i];
        halo += longest;
    } else {
        halo += a->m;
    }
    return halo;
}

wm_cli_search_mode_t wm_cli_search_mode(const wm_cli_search_args_t *a) {
    if (a->quiet) return WM_CLI_SEARCH_LIST; /* stops at the first match */
    if (a->per_pattern) return WM_CLI_SEARCH_PER_PATTERN;
    int filtered = a->word || a->best_locus || a->whole_line || a->max_count != UINT64_MAX;
    return a->count && !a->by_record && !filtered ? WM_CLI_SEARCH_COUNT : WM_CLI_SEARCH_LIST;
}

void wm_cli_search_free(wm_cli_search_args_t *a) {
    free(a->pat_args);
    a->pat_args = NULL;
    wm_patset_free(&a->set);
}

/* Whether --exact-prefix / --exact-suffix leave a pattern of m bytes more
** than k positions for the errors (none asked: yes). */
static int exact_regions_fit(const wm_cli_search_args_t *a, size_t m) {
    uint64_t exact = (uint64_t)a->o.exact_prefix + a->o.exact_suffix;
    return exact == 0 || (exact < m && a->o.max_edits < m - exact);
}

/* The message when they do not (what names the pattern). Returns 0 or -1
** (printed). */
static int exact_regions_bad(const wm_cli_search_args_t *a, size_t m, const char *what) {
    if (exact_regions_fit(a, m)) return 0;
    uint64_t exact = (uint64_t)a->o.exact_prefix + a->o.exact_suffix;
    wm_cli_error("--exact-prefix %u and --exact-suffix %u leave %s %llu position%s for "
                 "the errors; -k %u needs more than %u",
                 a->o.exact_prefix, a->o.exact_suffix, what,
                 (unsigned long long)(exact >= m ? 0 : m - exact), exact + 1 == m ? "" : "s",
                 a->o.max_edits, a->o.max_edits);
    return -1;
}

/* grep's conventions: which combine. Returns 0 or -1 (message printed). */
static int check_text(const wm_cli_search_args_t *a) {
    const char *shape = a->only_matching ? "-o/--only-matching" : "--line";
    if (a->only_matching && a->whole_line) {
        wm_cli_error("-o/--only-matching and --line print different lines; give one");
        return -1;
    }
    if ((a->only_matching || a->whole_line) && a->sh.format == WM_OUT_BED) {
        wm_cli_error("%s prints grep-style lines; it cannot be combined with --format bed", shape);
        return -1;
    }
    if (a->whole_line && a->sh.format == WM_OUT_JSON) {
        wm_cli_error("--line prints grep-style lines; with --format json use -o (the "
                     "matched text)");
        return -1;
    }
    if (a->line_no && a->sh.format == WM_OUT_BED) {
        wm_cli_error("-n/--line-number cannot be combined with --format bed (BED6 has "
                     "no line column)");
        return -1;
    }
    if (a->list_files && (a->count || a->quiet || a->sh.format != WM_OUT_TSV)) {
        wm_cli_error("%s prints file names; it cannot be combined with -c, -q or --format",
                     a->list_files == 1 ? "-l/--files-with-matches" : "-L/--files-without-match");
        return -1;
    }
    if (a->best_locus && a->is_set && a->o.max_edits == 0) {
        wm_cli_error("--best-per-locus is for matches within k errors (an exact set's "
                     "matches are each their own locus)");
        return -1;
    }
    if (a->per_pattern &&
        (a->word || a->best_locus || a->whole_line || a->max_count != UINT64_MAX)) {
        wm_cli_error("--count-per-pattern counts every match; it cannot be combined with "
                     "-w, -m, --line or --best-per-locus");
        return -1;
    }
    if (a->binary_too && !a->recurse) {
        wm_cli_error("-a/--text applies to -r (a FILE named is always searched)");
        return -1;
    }
    return 0;
}

/* --format sam: records of occurrences of named reads. */
static int check_sam(const wm_cli_search_args_t *a) {
    if (a->sh.format != WM_OUT_SAM) return 0;
    if (!a->is_set) {
        wm_cli_error("--format sam is for pattern sets (-f PATFILE, or -e given more than "
                     "once): a SAM record's QNAME is the pattern's name");
        return -1;
    }
    if (a->count || a->per_pattern || a->list_files || a->only_matching || a->whole_line ||
        a->line_no || a->word || a->max_count != UINT64_MAX) {
        wm_cli_error("--format sam prints a record per occurrence; it cannot be combined with "
                     "-c, --count-per-pattern, -l, -L, -o, --line, -n, -w or -m");
        return -1;
    }
    return 0;
}

/* The output checks both modes share. Returns 0 or -1 (message printed). */
static int check_output(const wm_cli_search_args_t *a) {
    if (check_sam(a) < 0) return -1;
    if (a->cigar && (a->sh.format == WM_OUT_BED || a->sh.format == WM_OUT_SAM || a->count ||
                     a->only_matching || a->whole_line || a->list_files || a->per_pattern)) {
        wm_cli_error("--cigar adds a column to tsv and json rows (SAM has its own); not with "
                     "--format bed, -c, -o, --line, -l, -L or --count-per-pattern");
        return -1;
    }
    if (a->count && a->sh.format != WM_OUT_TSV && !a->quiet) {
        wm_cli_error("%s prints TSV lines; it cannot be combined with --format %s",
                     a->per_pattern ? "--count-per-pattern" : "-c/--count",
                     wm_cli_format_words[a->sh.format]);
        return -1;
    }
    if (a->per_rank != NULL && (a->count || a->quiet || a->sh.format == WM_OUT_JSON)) {
        wm_cli_error("--output-per-rank writes the matches of each rank to its own file: "
                     "it lists matches as tsv or bed (not with -c, -q or --format json)");
        return -1;
    }
    if (a->per_rank != NULL && a->per_rank[0] == '\0') {
        wm_cli_error("--output-per-rank needs a file name prefix");
        return -1;
    }
    if (check_text(a) < 0) return -1;
    if (a->per_pattern && a->by_record) {
        wm_cli_error("--count-per-pattern counts per file; it cannot be combined "
                     "with --by-record");
        return -1;
    }
    return 0;
}

/* The checks that do not depend on a file, with messages that name the
** option at fault. Returns 0 or -1 (message printed). */
int wm_cli_search_check(const wm_cli_search_args_t *a) {
    if (a->m == 0) {
        wm_cli_error("the pattern is empty");
        return -1;
    }
    if (a->m > WM_MAX_PATTERN) {
        wm_cli_error("the pattern is %zu bytes long; the longest allowed is %u", a->m,
                     WM_MAX_PATTERN);
        return -1;
    }
    if (a->o.max_edits >= a->m) {
        wm_cli_error("-k %u must be less than the pattern length %zu "
                     "(with k >= m every position would match)",
                     a->o.max_edits, a->m);
        return -1;
    }
    if (exact_regions_bad(a, a->m, "the pattern") < 0) return -1;
    if (a->o.algo >= WM_ALGO_AC) {
        wm_cli_error("--algo %s is for pattern sets (-f FILE, or -e given more than once)",
                     wm_cli_search_algo_words[a->o.algo]);
        return -1;
    }
    if (a->o.algo == WM_ALGO_SHIFTOR && a->o.max_edits > 0) {
        wm_cli_error("--algo shiftor finds exact matches only (-k 0); use bitap or myers");
        return -1;
    }
    if (a->o.algo == WM_ALGO_MYERS && a->o.metric == WM_METRIC_HAMMING) {
        wm_cli_error("--algo myers computes edit distance only; use bitap with --hamming");
        return -1;
    }
    if (a->o.revcomp && !a->iupac) {
        wm_cli_error("--revcomp needs a nucleotide pattern (IUPAC letters ACGTURYSWKMBDHVN)");
        return -1;
    }
    if (a->sh.alphabet == WM_ALPHA_DNA && !a->iupac) {
        wm_cli_error("--alphabet dna needs a pattern of IUPAC nucleotide letters "
                     "(ACGTURYSWKMBDHVN)");
        return -1;
    }
    return check_output(a);
}

/* ---- pattern sets ----------------------------------------------------------------- */

/* Set-mode option checks, before any pattern file is read. The text FILEs are
** argv[first, argc): none, or "-" among them, means the text is on stdin. */
int wm_cli_search_check_set(const wm_cli_search_args_t *a, int argc, char **argv, int first) {
    if (a->o.max_edits > 0 && a->o.algo != WM_ALGO_AUTO) {
        wm_cli_error("--algo %s: a pattern set within k errors takes auto (each pattern's "
                     "kernel is chosen for it, as for one pattern)",
                     wm_cli_search_algo_words[a->o.algo]);
        return -1;
    }
    if (a->o.algo != WM_ALGO_AUTO && a->o.algo < WM_ALGO_AC) {
        wm_cli_error("--algo %s searches for one pattern; a pattern set takes auto, ac, "
                     "pfac, wumanber, wumanber-paper or qgram",
                     wm_cli_search_algo_words[a->o.algo]);
        return -1;
    }
    int stdin_text = first >= argc, stdin_pats = 0;
    for (int i = first; i < argc; ++i) stdin_text |= strcmp(argv[i], "-") == 0;
    for (size_t i = 0; i < a->n_pat_args; ++i)
        if (a->pat_args[i].opt == 'f' && strcmp(a->pat_args[i].arg, "-") == 0) stdin_pats++;
    if (stdin_pats > 1) {
        wm_cli_error("-f - given twice: standard input can be read only once");
        return -1;
    }
    if (stdin_pats && stdin_text) {
        wm_cli_error("-f - reads the patterns from standard input, so the text cannot "
                     "come from there too; name the FILEs to search");
        return -1;
    }
    return check_output(a);
}

/* Name pattern i in a message: "pattern 3 (pats.txt:3)", with its FASTA name. */
static const char *describe(const wm_cli_search_args_t *a, size_t i, char *buf, size_t len) {
    char where[1024];
    wm_patset_where(&a->set, i, where, sizeof where);
    if (a->set.name != NULL && a->set.name[i] != NULL)
        snprintf(buf, len, "pattern %zu '%.200s' (%s)", i + 1, a->set.name[i], where);
    else snprintf(buf, len, "pattern %zu (%s)", i + 1, where);
    return buf;
}

/* Which patterns hold only the letters in `ok` (flags[i] = 1), on threads
** for a large set: a million reads are 150 MB, a tenth of a second of one
** thread. */
#define LETTERS_PARALLEL_MIN (32u << 20)
typedef struct {
    const wm_patset_t *set;
    const uint8_t *ok;
    uint8_t *flags;
    size_t slices;
} letters_job_t;

static void letters_slice(void *arg, size_t r, int tid) {
    (void)tid;
    const letters_job_t *J = arg;
    size_t n = J->set->n, lo = n * r / J->slices, hi = n * (r + 1) / J->slices;
    for (size_t i = lo; i < hi; ++i) {
        const uint8_t *p = J->set->pat[i];
        size_t m = J->set->len[i], j = 0;
        while (j < m && J->ok[p[j]]) ++j;
        J->flags[i] = j == m;
    }
}

/* NULL out of memory (message printed). */
static uint8_t *letters_only(const wm_patset_t *set, const uint8_t *ok, int threads) {
    uint8_t *flags = malloc(set->n ? set->n : 1);
    if (flags == NULL) {
        wm_cli_error("out of memory while checking the patterns");
        return NULL;
    }
    size_t bytes = 0;
    for (size_t i = 0; i < set->n; ++i) bytes += set->len[i];
    wm_pool_t *pool = bytes >= LETTERS_PARALLEL_MIN && set->n > 1 ? wm_cli_pool(threads) : NULL;
    letters_job_t J = { set, ok, flags, pool ? 4 * (size_t)wm_pool_size(pool) : 1 };
    if (J.slices > set->n) J.slices = set->n ? set->n : 1;
    if (pool) wm_pool_for(pool, J.slices, letters_slice, &J);
    else letters_slice(&J, 0, 0);
    wm_pool_free(pool);
    return flags;
}

/* Pattern i (m bytes; letters: it holds only the nucleotide letters the
** set takes) against the options: 0, or -1 with a message naming it. A
** pattern of other bytes makes the set a byte set (a->acgtu = 0). */
static int check_one(wm_cli_search_args_t *a, size_t i, size_t m, int letters, int within_k,
                     char *what, size_t what_len) {
    if (letters) a->any_acgtu = 1;
    if (!letters) {
        a->acgtu = 0;
        if (a->o.revcomp || a->sh.alphabet == WM_ALPHA_DNA) {
            wm_cli_error("%s needs patterns of %s only; %s is not",
                         a->o.revcomp ? "--revcomp" : "--alphabet dna",
                         within_k ? "IUPAC nucleotide codes" : "A, C, G, T, U",
                         describe(a, i, what, what_len));
            return -1;
        }
    }
    if (a->o.max_edits >= m) {
        wm_cli_error("-k %u is not less than the length of %s (%zu bytes): every "
                     "position would match",
                     a->o.max_edits, describe(a, i, what, what_len), m);
        return -1;
    }
    if (!exact_regions_fit(a, m) && /* the pattern named only then */
        exact_regions_bad(a, m, describe(a, i, what, what_len)) < 0)
        return -1;
    if (a->o.algo == WM_ALGO_QGRAM && m < WM_QGRAM_MIN_LEN) {
        wm_cli_error("--algo qgram needs patterns of at least %u bytes; %s has %zu",
                     WM_QGRAM_MIN_LEN, describe(a, i, what, what_len), m);
        return -1;
    }
    return 0;
}

/* Read the -e patterns and -f files in argv order, then check the patterns
** against the options, naming the first pattern at fault. */
int wm_cli_search_load_set(wm_cli_search_args_t *a) {
    static uint8_t acgtu[256];
    char what[1400];
    a->set.threads = a->sh.co.threads; /* -j: a large FASTA file is parsed on threads */

    for (size_t i = 0; i < a->n_pat_args; ++i) {
        const wm_cli_patarg_t *p = &a->pat_args[i];
        if (p->opt == 'e' && p->arg[0] == '\0') {
            wm_cli_error("-e: empty pattern (pattern %zu)", a->set.n + 1);
            return -1;
        }
        if ((p->opt == 'e' ? wm_patset_add_string(&a->set, p->arg)
                           : wm_patset_add_file(&a->set, p->arg)) < 0)
            return -1;
    }
    if (a->set.n > UINT32_MAX) {
        wm_cli_error("%zu patterns; at most %u are allowed", a->set.n, UINT32_MAX);
        return -1;
    }
    if (a->o.algo == WM_ALGO_TEDDY && a->set.n > WM_TEDDY_MAX_PATTERNS) {
        wm_cli_error("--algo teddy takes sets of up to %u patterns; this one has %zu (--algo "
                     "auto picks for larger sets)",
                     WM_TEDDY_MAX_PATTERNS, a->set.n);
        return -1;
    }
    /* Nucleotide patterns: an exact set's engines take A, C, G, T, U; a set
    ** within k errors runs each pattern's own kernel, which takes every
    ** IUPAC code, as one pattern does. */
    int within_k = a->o.max_edits > 0;
    const char *letters = within_k ? "ACGTURYSWKMBDHVNacgturyswkmbdhvn" : "ACGTUacgtu";
    memset(acgtu, 0, sizeof acgtu);
    for (const char *c = letters; *c != '\0'; ++c) acgtu[(uint8_t)*c] = 1;
    a->acgtu = 1;
    uint8_t *only = letters_only(&a->set, acgtu, a->sh.co.threads);
    if (only == NULL) return -1;
    int rc = 0;
    for (size_t i = 0; i < a->set.n && rc == 0; ++i)
        rc = check_one(a, i, a->set.len[i], only[i], within_k, what, sizeof what);
    free(only);
    return rc;
}
