/*
** cmd_search.c -- `warpmatch search [OPTIONS] PATTERN [FILE...]` and its
** pattern-set form `warpmatch search [OPTIONS] -f PATFILE | -e P -e P... [FILE...]`.
**
** Flow: parse and check the options (all pattern errors are found here,
** before any file is read; pattern files are read here too) -> make one
** context (backend, threads) -> for each file: wm_seqfile_read, pick the
** database for its format (compiled lazily, at most two: DNA and BYTES),
** wm_search / wm_count / wm_count_per_pattern, print -> exit status.
** Set mode (any -f, or -e twice) differs only in what is compiled
** (wm_compile_set) and printed (a pattern column instead of errors); one
** pattern given once keeps the single-pattern mode and its output.
** A file that cannot be read is reported on stderr and the others are still
** searched; option errors stop before the first file.
*/
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "io/seqfile.h"
#include "io/seqrange.h"
#include "mpi/dist.h"
#include "cli.h"
#include "out.h"
#include "patfile.h"

typedef enum { OUT_TSV = 0, OUT_BED = 1, OUT_JSON = 2 } out_format_t;
typedef enum { ALPHA_AUTO = 0, ALPHA_DNA = 1, ALPHA_TEXT = 2 } alpha_choice_t;

static const char *const format_words[] = { "tsv", "bed", "json", NULL };
static const char *const alphabet_words[] = { "auto", "dna", "text", NULL };
/* Same order as wm_algo_t: the index is the enum value. */
static const char *const algo_words[] = { "auto", "shiftor", "bitap", "myers", "ac", "pfac",
                                          "wumanber", "wumanber-paper", "qgram", NULL };

static void print_help(void) {
    fputs(
"Usage: warpmatch search [OPTIONS] PATTERN [FILE...]\n"
"       warpmatch search [OPTIONS] -f PATFILE | -e P -e P ... [FILE...]\n"
"\n"
"Find every occurrence of PATTERN in each FILE, exactly or within k errors, or\n"
"(second form) of every pattern of a pattern set, exactly.\n"
"With no FILE, or where FILE is -, read standard input. A file may be plain\n"
"(searched as bytes, binary bytes included), FASTA or FASTQ (searched record by\n"
"record; a match never crosses a record border), each possibly gzip-compressed.\n"
"\n"
"Matching:\n"
"  -k, --max-edits N     errors allowed, less than the pattern length [0]\n"
"      --hamming         count substitutions only (Hamming distance)\n"
"                        [edit distance: substitutions, insertions, deletions]\n"
"  -i, --ignore-case     fold ASCII letter case [case matters in text mode]\n"
"      --revcomp         also search the reverse complement of a nucleotide\n"
"                        pattern; its hits are reported on strand '-'\n"
"      --alphabet A      auto, dna or text [auto]\n"
"                          dna:  pattern letters are IUPAC codes\n"
"                                (ACGTURYSWKMBDHVN, either case) matching the\n"
"                                bases A, C, G, T of the text, either case;\n"
"                                other text bytes (N too) match nothing\n"
"                          text: each byte matches itself\n"
"                          auto: dna for a FASTA or FASTQ file when the\n"
"                                pattern has IUPAC letters only, else text;\n"
"                                chosen per file (plain files: always text)\n"
"      --algo A          auto, shiftor (k = 0 only), bitap, myers (edit distance\n"
"                        only) [auto: chosen by pattern length, k and metric];\n"
"                        for a pattern set: auto, ac (Aho-Corasick), pfac\n"
"                        (failureless AC), wumanber, wumanber-paper (as\n"
"                        published: B = 3, B' = 2), qgram (patterns of 4+\n"
"                        bytes)\n"
"                        [auto: chosen from the set]\n"
"  -e, --pattern P       use P as the pattern (for a pattern starting with '-');\n"
"                        every argument is then a FILE; given more than once,\n"
"                        the patterns form a set\n"
"  -f, --file PATFILE    read a pattern set from PATFILE (- = standard input,\n"
"                        only when no FILE is read from it); repeatable, may be\n"
"                        mixed with -e; every argument is then a FILE\n"
"\n"
"Pattern sets (any -f, or -e more than once):\n"
"  Patterns are numbered from 1 in the order given: -e and -f in command-line\n"
"  order, a file's patterns in file order. Matching is exact and literal, as\n"
"  grep -F (-k must be 0, no --hamming); every occurrence of every pattern is\n"
"  reported, overlapping ones included, a duplicate once under each number.\n"
"  PATFILE: one pattern per line, 1 to 65536 bytes, every byte as it is (NUL\n"
"  included; a '\\r' before the '\\n' is kept, as grep -F keeps it, so convert\n"
"  CRLF files first); the last line needs no '\\n'; an empty line is an error\n"
"  (grep -F would match everything with it).\n"
"  A PATFILE whose first byte is '>' is FASTA: each record's sequence (lines\n"
"  joined, whitespace dropped) is one pattern, printed as the first word of its\n"
"  header instead of its number. PATFILEs may be gzip-compressed.\n"
"  --revcomp and --alphabet dna need patterns of A, C, G, T, U only (either\n"
"  case); --alphabet auto picks dna for FASTA/FASTQ files when every pattern is\n"
"  such, else text.\n"
"      --count-per-pattern  print source<TAB>pattern<TAB>count per file for each\n"
"                        pattern found, in pattern order, instead of the matches\n"
"      --all-patterns    with --count-per-pattern (implied): list patterns with\n"
"                        count 0 too\n"
"\n"
"Execution:\n"
"      --backend B       auto, cpu or cuda [auto: cuda when built and a GPU is\n"
"                        found, else cpu]\n"
"  -j, --threads N       CPU threads, 0 = all online cores [0]\n"
"      --chunk-bytes N   work unit per thread or GPU batch, K/M/G suffixes\n"
"                        allowed (for testing) [0 = tuned]\n"
"      --gpus LIST       all, or GPU numbers such as 0,2,3: split the text over\n"
"                        these GPUs of one host (one part each); the same output\n"
"                        [one GPU]. Under mpirun: the GPUs this host's ranks\n"
"                        take in turn [local rank mod the GPUs found]\n"
"      --no-progress     never show the progress line (shown on stderr only\n"
"                        when stderr is a terminal and the run lasts over 1 s)\n"
"\n"
"Output:\n"
"      --format F        tsv, bed or json [tsv]\n"
"      --json            the same as --format json\n"
"  -c, --count           print one line per file, source<TAB>count, instead of\n"
"                        the matches (not with --format bed or json)\n"
"      --by-record       with -c (implied): one line per record,\n"
"                        source<TAB>record<TAB>count, records with 0 included\n"
"  -q, --quiet           no output, exit status only; stop at the first match\n"
"      --output-per-rank PREFIX\n"
"                        under mpirun: each rank writes its own matches, sorted,\n"
"                        to PREFIX.RANK (5 digits: PREFIX.00000, ...) instead of\n"
"                        sending them to rank 0; the files in rank order are the\n"
"                        one-process output (tsv and bed, one FILE; for large\n"
"                        outputs: rank 0's stdout goes through mpirun, slowly)\n"
"  -h, --help            show this help\n"
"\n"
"Output lines (no header):\n"
"  tsv   source<TAB>record<TAB>start<TAB>end<TAB>errors<TAB>strand\n"
"  bed   record<TAB>start<TAB>end<TAB>name<TAB>errors<TAB>strand (BED6; name is\n"
"        the pattern cut to 64 bytes; a plain file's source is the chrom)\n"
"  json  JSON Lines: {\"type\":\"begin\",...} per source, {\"type\":\"match\",...}\n"
"        per match, {\"type\":\"end\",...} per source, one {\"type\":\"summary\",...}\n"
"        (its bytes: the sequence bytes searched, after FASTA/FASTQ parsing)\n"
"  source is FILE as given (- for standard input), record the sequence name\n"
"  (. for plain input), strand + or -.\n"
"  With a pattern set, pattern is the pattern's number or FASTA name:\n"
"  tsv   source<TAB>record<TAB>start<TAB>end<TAB>pattern (+ <TAB>strand with\n"
"        --revcomp)\n"
"  bed   name = pattern, score 0;  json: \"pattern\" instead of \"errors\"\n"
"\n"
"Which matches: one line per end position e (and strand) where some substring\n"
"ending at e is within k errors of the pattern. errors = the smallest such\n"
"count; start = the largest s with distance(pattern, text[s,e)) = errors (the\n"
"shortest occurrence). Coordinates are 0-based, half-open, within the record;\n"
"strand '-' hits use forward-strand coordinates. Lines are sorted by source (in\n"
"the order given), record, end, strand (a set: record, end, pattern, strand),\n"
"and are the same for every backend and thread count.\n"
"\n"
"Exit status: 0 if a match was found, 1 if none, 2 if an error occurred (an\n"
"error wins, unless -q found a match).\n", stdout);
}

static void usage_hint(void) {
    fprintf(stderr, "Try 'warpmatch search --help'.\n");
}

/* ---- options --------------------------------------------------------------- */

/* One -e P or -f FILE: the set is read in the order these were given. */
typedef struct {
    char opt;                    /* 'e' or 'f'                                  */
    const char *arg;
} pat_arg_t;

typedef struct {
    const uint8_t *pattern;
    size_t m;
    int iupac;                   /* the pattern has IUPAC nucleotide letters only */
    wm_opts_t o;                 /* alphabet is set per database               */
    alpha_choice_t alphabet;
    wm_context_opts_t co;
    int count, by_record, quiet, progress;
    int per_pattern, all_patterns;   /* --count-per-pattern, --all-patterns     */
    out_format_t format;
    char bed_name[WM_BED_NAME_MAX + 1];
    /* set mode */
    pat_arg_t *pat_args;         /* every -e and -f, in argv order              */
    size_t n_pat_args;
    int is_set;
    int acgtu;                   /* every pattern of the set is A/C/G/T/U only */
    wm_patset_t set;
    const char *per_rank;        /* --output-per-rank PREFIX, else NULL         */
} search_args_t;

/* ---- progress line (stderr, only when it is a terminal) ----------------------- */

typedef struct {
    int enabled;
    double t_start;              /* when the command started                 */
    double t_file;               /* when the current file's search started   */
    double t_last;               /* when the line was last drawn             */
    size_t width;                /* characters of the line on screen, 0 = none */
    int stdout_tty;              /* matches and the line share a terminal     */
    pthread_mutex_t mu;          /* in case the library reports from workers */
} progress_t;

static void human(char *buf, size_t len, double v, const char *unit) {
    static const char *const pre[] = { "", "k", "M", "G", "T", "P" };
    int i = 0;
    while (v >= 1000.0 && i < 5) {
        v /= 1000.0;
        ++i;
    }
    snprintf(buf, len, "%.1f %s%s", v, pre[i], unit);
}

/* Erase the line; the caller holds mu (or no other thread can draw). */
static void progress_clear_locked(progress_t *pg) {
    if (pg->width > 0) {
        fprintf(stderr, "\r%*s\r", (int)pg->width, "");
        pg->width = 0;
    }
}

static void progress_clear(progress_t *pg) {
    if (!pg->enabled)
        return;
    pthread_mutex_lock(&pg->mu);
    progress_clear_locked(pg);
    pthread_mutex_unlock(&pg->mu);
}

static void on_progress(uint64_t done, uint64_t total, void *user) {
    progress_t *pg = user;
    double now = wm_cli_now();
    if (!pg->enabled || now - pg->t_start <= 1.0)
        return;
    pthread_mutex_lock(&pg->mu);
    if (now - pg->t_last >= 0.25) {
        /* "3.2 of 10.0 GB": both in the unit of the total. */
        static const char *const pre[] = { "", "k", "M", "G", "T", "P" };
        double scale = 1.0;
        int i = 0;
        while ((double)total >= scale * 1000.0 && i < 5) {
            scale *= 1000.0;
            ++i;
        }
        char rate[32];
        double dt = now - pg->t_file;
        human(rate, sizeof rate, dt > 0 ? (double)done / dt : 0.0, "B/s");
        char line[128];
        int n = snprintf(line, sizeof line, "%s: %.1f of %.1f %sB, %s", WM_PROG,
                         (double)done / scale, (double)total / scale, pre[i], rate);
        if (pg->stdout_tty)
            fflush(stdout);      /* matches found so far go above the line */
        if (n > 0) {
            size_t w = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
            /* Pad over a longer previous line. */
            fprintf(stderr, "\r%s%*s", line, pg->width > w ? (int)(pg->width - w) : 0, "");
            if (pg->width < w)
                pg->width = w;
        }
        pg->t_last = now;
    }
    pthread_mutex_unlock(&pg->mu);
}

/* ---- the match sink --------------------------------------------------------- */

typedef struct {
    FILE *out;
    const search_args_t *a;
    const char *source;
    const wm_seqfile_t *sf;
    uint64_t n;                  /* matches in this file                        */
    uint64_t *per_record;        /* --by-record counts, else NULL               */
    progress_t *pg;
    int write_failed, write_errno;
} sink_t;

/* A set's pattern i as printed: its FASTA name, else its 1-based number
** written into buf (24 bytes). */
static const char *pattern_label(const search_args_t *a, uint32_t i, char *buf) {
    if (a->is_set && a->set.name != NULL && a->set.name[i] != NULL)
        return a->set.name[i];
    snprintf(buf, 24, "%llu", (unsigned long long)i + 1);
    return buf;
}

static const char *record_name(const wm_seqfile_t *sf, uint64_t r) {
    if (sf->names == NULL || r >= sf->text.n_rec || sf->names[r] == NULL)
        return ".";
    return sf->names[r];
}

static void print_match(sink_t *s, const wm_match_t *m) {
    switch (s->a->format) {
    case OUT_TSV:
        wm_out_search_tsv(s->out, s->source, record_name(s->sf, m->record), m);
        break;
    case OUT_BED:
        wm_out_search_bed(s->out,
                     s->sf->format == WM_FMT_PLAIN ? s->source : record_name(s->sf, m->record),
                     s->a->bed_name, m);
        break;
    case OUT_JSON:
        wm_out_search_json_match(s->out, s->source, record_name(s->sf, m->record), m);
        break;
    }
}

/* A set's match: the pattern (number or FASTA name) where errors would be. */
static void print_set_match(sink_t *s, const wm_match_t *m) {
    const search_args_t *a = s->a;
    const char *name = a->set.name != NULL ? a->set.name[m->pattern] : NULL;
    switch (a->format) {
    case OUT_TSV:
        wm_out_search_tsv_set(s->out, s->source, record_name(s->sf, m->record), m, name,
                         a->o.revcomp);
        break;
    case OUT_BED: {
        char num[24], bed_name[WM_BED_NAME_MAX + 1];
        const char *label = pattern_label(a, m->pattern, num);
        wm_out_bed_name(bed_name, (const uint8_t *)label, strlen(label));
        wm_out_search_bed(s->out,
                     s->sf->format == WM_FMT_PLAIN ? s->source : record_name(s->sf, m->record),
                     bed_name, m);       /* errors is 0: the BED score */
        break;
    }
    case OUT_JSON:
        wm_out_search_json_match_set(s->out, s->source, record_name(s->sf, m->record), m, name);
        break;
    }
}

static int on_match(const wm_match_t *m, void *user) {
    sink_t *s = user;
    s->n++;
    if (s->a->quiet)
        return 1;                                  /* one match decides it */
    if (s->per_record != NULL) {
        if (m->record < s->sf->text.n_rec)
            s->per_record[m->record]++;
        return 0;
    }
    if (s->pg->enabled)
        progress_clear(s->pg);                     /* keep matches off its line */
    if (s->a->is_set)
        print_set_match(s, m);
    else
        print_match(s, m);
    if (ferror(s->out)) {                          /* e.g. a closed pipe */
        s->write_failed = 1;
        s->write_errno = errno;
        return 1;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------ */

typedef struct {
    search_args_t *a;
    wm_context_t *cx;
    wm_db_t *db[2];              /* [0] BYTES, [1] DNA; compiled on first use   */
    uint64_t *per_pattern;       /* --count-per-pattern counts, one per pattern */
    progress_t pg;
    FILE *out;
    uint64_t n_matches, n_sources, n_bytes;
    int any_match, any_error, fatal, write_failed, write_errno;
    int dist;                    /* ranks share the files (MPI, or --output-per-rank) */
    FILE *rank_out;              /* --output-per-rank: this rank's file          */
} run_t;

/* Print "warpmatch: <what>: <library message>" for a failed call. */
static void report_status(run_t *r, const char *what, wm_status st) {
    progress_clear(&r->pg);
    wm_cli_error("%s: %s", what, wm_cli_status_msg(r->cx, st));
}

static wm_db_t *get_db(run_t *r, int dna) {
    if (r->db[dna] != NULL)
        return r->db[dna];
    const search_args_t *a = r->a;
    wm_opts_t o = a->o;
    o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    wm_status st = a->is_set
        ? wm_compile_set(a->set.pat, a->set.len, a->set.n, &o, &r->db[dna])
        : wm_compile(a->pattern, a->m, &o, &r->db[dna]);
    if (st != WM_OK) {
        r->db[dna] = NULL;
        progress_clear(&r->pg);
        wm_cli_error("cannot compile the pattern%s (%s alphabet): %s",
                     a->is_set ? " set" : "", dna ? "dna" : "text", wm_strerror(st));
        r->fatal = 1;
        return NULL;
    }
    return r->db[dna];
}

/* --count-per-pattern for one file: "source<TAB>pattern<TAB>count" lines in
** pattern order (zero counts only with --all-patterns); *total gets the sum. */
static wm_status count_per_pattern(run_t *r, const wm_db_t *db, const wm_seqfile_t *sf,
                                   const char *path, uint64_t *total) {
    size_t np = wm_db_pattern_count(db);
    if (r->per_pattern == NULL) {
        r->per_pattern = malloc(np * sizeof *r->per_pattern);
        if (r->per_pattern == NULL)
            return WM_NOMEM;
    }
    wm_status st = wm_count_per_pattern(r->cx, db, &sf->text, r->per_pattern);
    if (st != WM_OK)
        return st;
    uint64_t sum = 0;
    char num[24];
    for (size_t i = 0; i < np; ++i) {
        uint64_t c = r->per_pattern[i];
        sum += c;
        if (c > 0 || r->a->all_patterns)
            wm_out_count(r->out, path, pattern_label(r->a, (uint32_t)i, num), c);
    }
    *total = sum;
    return WM_OK;
}

static void search_file(run_t *r, const char *path) {
    search_args_t *a = r->a;
    wm_seqfile_t sf;
    char err[1024] = "";
    memset(&sf, 0, sizeof sf);

    double t0 = wm_dist_now();
    wm_status st = wm_seqfile_read(path, 0, &sf, err, sizeof err);
    double t1 = wm_dist_now();
    if (st != WM_OK) {
        progress_clear(&r->pg);
        if (err[0] != '\0')
            wm_cli_error("%s", err);
        else
            wm_cli_error("%s: %s", path, wm_strerror(st));
        r->any_error = 1;
        wm_seqfile_close(&sf);
        return;
    }

    int dna = a->alphabet == ALPHA_DNA ||
              (a->alphabet == ALPHA_AUTO && sf.format != WM_FMT_PLAIN &&
               (a->is_set ? a->acgtu : a->iupac));
    wm_db_t *db = get_db(r, dna);
    if (db == NULL) {
        r->any_error = 1;
        wm_seqfile_close(&sf);
        return;
    }

    sink_t s;
    memset(&s, 0, sizeof s);
    s.out = r->out;
    s.a = a;
    s.source = path;
    s.sf = &sf;
    s.pg = &r->pg;

    r->n_sources++;
    r->n_bytes += sf.text.len;
    r->pg.t_file = wm_cli_now();
    if (a->format == OUT_JSON && !a->count && !a->quiet)
        wm_out_search_json_begin(r->out, path);

    if (a->per_pattern && !a->quiet) {
        st = count_per_pattern(r, db, &sf, path, &s.n);
    } else if (a->count && !a->by_record && !a->quiet) {
        uint64_t n = 0;
        st = wm_count(r->cx, db, &sf.text, &n);
        s.n = n;
        if (st == WM_OK)
            wm_out_count(r->out, path, NULL, n);
    } else {
        if (a->count && a->by_record && !a->quiet) {
            size_t n_rec = sf.text.n_rec > 0 ? sf.text.n_rec : 1;
            s.per_record = calloc(n_rec, sizeof *s.per_record);
            if (s.per_record == NULL) {
                wm_cli_error("%s: %s", path, wm_strerror(WM_NOMEM));
                r->any_error = 1;
                wm_seqfile_close(&sf);
                return;
            }
        }
        st = wm_search(r->cx, db, &sf.text, on_match, &s);
        if (st == WM_STOPPED)
            st = WM_OK;                 /* -q found its match, or a write failed */
        if (st == WM_OK && s.per_record != NULL) {
            size_t n_rec = sf.text.n_rec;
            for (size_t i = 0; i < n_rec; ++i)
                wm_out_count(r->out, path, record_name(&sf, i), s.per_record[i]);
        }
        free(s.per_record);
    }
    progress_clear(&r->pg);
    if (st != WM_OK) {
        report_status(r, path, st);
        r->any_error = 1;
    }
    if (a->format == OUT_JSON && !a->count && !a->quiet)
        wm_out_search_json_end(r->out, path, s.n);

    r->n_matches += s.n;
    if (s.n > 0)
        r->any_match = 1;
    if (s.write_failed || ferror(r->out)) {
        r->write_failed = 1;
        r->write_errno = s.write_failed ? s.write_errno : errno;
    }
    wm_dist_report(path, t1 - t0, wm_dist_now() - t1, 0.0);   /* printing is in the search */
    wm_seqfile_close(&sf);
}

/* ---- one file over the ranks of an MPI job ----------------------------------------
**
** Every rank reads its own byte range of the file (src/io/seqrange.h) plus a
** halo of m + k bytes (the longest pattern, for a set) before it, searches
** that, and keeps the matches whose last byte it owns: a match depends only
** on the m + k bytes before its end, so each is found whole by exactly one
** rank. Ranks cover the file in order and each one's matches come out
** sorted, so rank 0 printing every rank's lines in rank order prints what
** one process would. Counts are summed; a record's count (--by-record) is
** summed over the ranks its bytes fall in, and printed by the rank holding
** its header. */

typedef struct {
    sink_t s;
    const wm_range_t *R;
} dsink_t;

/* Keep owned matches, in the coordinates of their whole record. */
static int on_match_dist(const wm_match_t *m, void *user) {
    dsink_t *d = user;
    if (m->record == 0 && d->R->continues && m->end <= d->R->halo)
        return 0;                               /* an earlier rank's */
    wm_match_t t = *m;
    t.start += d->R->base[m->record];
    t.end += d->R->base[m->record];
    return on_match(&t, &d->s);                 /* t.record stays local: names, counts */
}

/* The matches ending inside the halo, found again on the halo alone (they
** depend on nothing after them), so that counts can leave them out. */
static wm_text_t halo_text(const wm_range_t *R) {
    wm_text_t t = { R->text.seq, R->continues ? R->halo : 0, NULL, 0 };
    return t;
}

static int dist_failed_as(run_t *r, int failed, const char *why, int rank0_printed) {
    int bad = wm_cli_dist_failed(failed, why, rank0_printed);
    r->any_error |= bad;
    return bad;
}

static int dist_failed(run_t *r, int failed, const char *why) {
    return dist_failed_as(r, failed, why, 0);
}

/* --by-record: the counts of this rank's records, each with what the ranks
** after it add to it when it runs on into them, one line per record whose
** header this rank holds. */
static void print_by_record_dist(run_t *r, const char *path, const wm_range_t *R,
                                 const uint64_t *per_record, FILE *out) {
    typedef struct { uint64_t cont_count, has_own; } note_t;
    size_t n = R->text.n_rec, first_own = R->continues ? 1 : 0;
    note_t mine = { R->continues && n > 0 ? per_record[0] : 0, n > first_own };
    note_t *all = malloc((size_t)wm_dist.size * sizeof *all);
    if (all == NULL)
        wm_dist_abort(WM_EXIT_ERROR);
    wm_dist_allgather(&mine, sizeof mine, all);
    uint64_t tail = 0;
    for (int q = wm_dist.rank + 1; q < wm_dist.size; ++q) {
        tail += all[q].cont_count;
        if (all[q].has_own)
            break;
    }
    free(all);
    for (size_t i = first_own; i < n; ++i)
        wm_out_count(out, path, R->names[i], per_record[i] + (i + 1 == n ? tail : 0));
    (void)r;
}

static void search_file_dist(run_t *r, const char *path) {
    search_args_t *a = r->a;
    wm_range_t R;
    char err[1024] = "";
    uint64_t halo = a->o.max_edits;
    if (a->is_set) {
        for (size_t i = 0; i < a->set.n; ++i)
            if (a->set.len[i] > halo) halo = a->set.len[i];
    } else {
        halo += a->m;
    }
    double t0 = wm_dist_now();
    wm_status st = wm_range_read(&R, path, WM_RANGE_RECORDS, (uint64_t)wm_dist.rank,
                                 (uint64_t)wm_dist.size, halo, wm_dist_allgather_cb, NULL, err,
                                 sizeof err);
    if (dist_failed(r, st != WM_OK, err[0] ? err : wm_strerror(st))) {
        wm_range_close(&R);
        return;
    }
    /* Whole inputs (gzip, stdin) are known to rank 0 only: it says what they are. */
    int fmt = (int)R.format;
    if (R.whole && wm_dist.active) {
        int all_fmt[1024];
        int *fmts = wm_dist.size <= 1024 ? all_fmt : malloc((size_t)wm_dist.size * sizeof *fmts);
        if (fmts == NULL)
            wm_dist_abort(WM_EXIT_ERROR);
        wm_dist_allgather(&fmt, sizeof fmt, fmts);
        fmt = fmts[0];
        if (fmts != all_fmt)
            free(fmts);
    }
    int dna = a->alphabet == ALPHA_DNA ||
              (a->alphabet == ALPHA_AUTO && fmt != WM_FMT_PLAIN &&
               (a->is_set ? a->acgtu : a->iupac));
    wm_db_t *db = get_db(r, dna);             /* the same on every rank */
    double t1 = wm_dist_now();
    if (db == NULL) {
        r->any_error = 1;
        wm_range_close(&R);
        return;
    }

    /* This rank's output goes to memory, then to rank 0 in rank order, or
    ** to its own file. */
    char *mem = NULL;
    size_t mem_len = 0;
    FILE *out = r->rank_out;
    if (out == NULL && (out = open_memstream(&mem, &mem_len)) == NULL)
        wm_dist_abort(WM_EXIT_ERROR);

    wm_seqfile_t view;                        /* names for the printers */
    memset(&view, 0, sizeof view);
    view.text = R.text;
    view.names = R.names;
    view.format = (wm_format_t)fmt;
    dsink_t d;
    memset(&d, 0, sizeof d);
    d.s.out = out;
    d.s.a = a;
    d.s.source = path;
    d.s.sf = &view;
    d.s.pg = &r->pg;
    d.R = &R;
    int has_text = R.text.n_rec > 0;
    wm_text_t ht = halo_text(&R);
    uint64_t local_n = 0;
    size_t np = wm_db_pattern_count(db);

    st = WM_OK;
    if (a->per_pattern && !a->quiet) {
        if (r->per_pattern == NULL && (r->per_pattern = malloc(np * sizeof *r->per_pattern)) == NULL)
            st = WM_NOMEM;
        uint64_t *minus = st == WM_OK ? calloc(np, sizeof *minus) : NULL;
        if (st == WM_OK && minus == NULL)
            st = WM_NOMEM;
        if (st == WM_OK)
            memset(r->per_pattern, 0, np * sizeof *r->per_pattern);
        if (st == WM_OK && has_text)
            st = wm_count_per_pattern(r->cx, db, &R.text, r->per_pattern);
        if (st == WM_OK && has_text && ht.len > 0)
            st = wm_count_per_pattern(r->cx, db, &ht, minus);
        for (size_t i = 0; st == WM_OK && i < np; ++i)
            r->per_pattern[i] -= minus[i];
        free(minus);
    } else if (a->count && !a->by_record && !a->quiet) {
        uint64_t n = 0, h = 0;
        if (has_text)
            st = wm_count(r->cx, db, &R.text, &n);
        if (st == WM_OK && has_text && ht.len > 0)
            st = wm_count(r->cx, db, &ht, &h);
        local_n = n - h;
    } else {
        if (a->count && a->by_record && !a->quiet) {
            d.s.per_record = calloc(R.text.n_rec ? R.text.n_rec : 1, sizeof *d.s.per_record);
            if (d.s.per_record == NULL)
                st = WM_NOMEM;
        }
        if (st == WM_OK && has_text)
            st = wm_search(r->cx, db, &R.text, on_match_dist, &d);
        if (st == WM_STOPPED)
            st = WM_OK;
        local_n = d.s.n;
    }
    char why[1200];
    snprintf(why, sizeof why, "%s: %s", path, wm_cli_status_msg(r->cx, st));
    int failed = dist_failed(r, st != WM_OK, why);
    double t2 = wm_dist_now();

    uint64_t n_total = 0;
    if (!failed) {
        r->n_sources++;
        r->n_bytes += wm_dist_sum(R.own_bytes);
        if (a->per_pattern && !a->quiet) {
            wm_dist_sum_array(r->per_pattern, np);
            char num[24];
            for (size_t i = 0; i < np; ++i) {
                uint64_t c = r->per_pattern[i];
                n_total += c;
                if (wm_dist.rank == 0 && (c > 0 || a->all_patterns))
                    wm_out_count(out, path, pattern_label(a, (uint32_t)i, num), c);
            }
        } else {
            n_total = wm_dist_sum(local_n);
            if (a->count && !a->by_record && !a->quiet && wm_dist.rank == 0)
                wm_out_count(out, path, NULL, n_total);
            if (d.s.per_record != NULL)
                print_by_record_dist(r, path, &R, d.s.per_record, out);
        }
    }
    free(d.s.per_record);

    /* Rank 0: the JSON begin line, every rank's lines in rank order, the end line. */
    int json = a->format == OUT_JSON && !a->count && !a->quiet;
    if (mem != NULL || out != r->rank_out) {
        fclose(out);
        if (json && wm_dist.rank == 0 && !failed)
            wm_out_search_json_begin(r->out, path);
        if (wm_dist_write_ordered(mem, mem_len, r->out) < 0 && !r->write_failed) {
            r->write_failed = 1;
            r->write_errno = errno;
        }
        if (json && wm_dist.rank == 0 && !failed)
            wm_out_search_json_end(r->out, path, n_total);
        free(mem);
    } else if (ferror(out) && !r->write_failed) {
        r->write_failed = 1;
        r->write_errno = errno;
    }
    r->n_matches += n_total;
    if (n_total > 0)
        r->any_match = 1;
    wm_dist_report(path, t1 - t0, t2 - t1, wm_dist_now() - t2);
    wm_range_close(&R);
}

/* ---- option parsing ------------------------------------------------------------- */

enum {
    OPT_HAMMING = 256, OPT_REVCOMP, OPT_ALPHABET, OPT_ALGO, OPT_BACKEND,
    OPT_CHUNK, OPT_BY_RECORD, OPT_FORMAT, OPT_JSON, OPT_NO_PROGRESS,
    OPT_PER_PATTERN, OPT_ALL_PATTERNS, OPT_PER_RANK, OPT_GPUS
};

static const struct option long_opts[] = {
    { "max-edits",   required_argument, NULL, 'k' },
    { "hamming",     no_argument,       NULL, OPT_HAMMING },
    { "ignore-case", no_argument,       NULL, 'i' },
    { "revcomp",     no_argument,       NULL, OPT_REVCOMP },
    { "alphabet",    required_argument, NULL, OPT_ALPHABET },
    { "algo",        required_argument, NULL, OPT_ALGO },
    { "pattern",     required_argument, NULL, 'e' },
    { "file",        required_argument, NULL, 'f' },
    { "backend",     required_argument, NULL, OPT_BACKEND },
    { "threads",     required_argument, NULL, 'j' },
    { "chunk-bytes", required_argument, NULL, OPT_CHUNK },
    { "no-progress", no_argument,       NULL, OPT_NO_PROGRESS },
    { "count",       no_argument,       NULL, 'c' },
    { "by-record",   no_argument,       NULL, OPT_BY_RECORD },
    { "count-per-pattern", no_argument, NULL, OPT_PER_PATTERN },
    { "all-patterns", no_argument,      NULL, OPT_ALL_PATTERNS },
    { "output-per-rank", required_argument, NULL, OPT_PER_RANK },
    { "gpus",        required_argument, NULL, OPT_GPUS },
    { "format",      required_argument, NULL, OPT_FORMAT },
    { "json",        no_argument,       NULL, OPT_JSON },
    { "quiet",       no_argument,       NULL, 'q' },
    { "help",        no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

/* Returns 0 to go on, 1 after --help (exit 0), -1 on a bad option (exit 2).
** *first_arg is the index of the first non-option argument. */
static int parse_args(int argc, char **argv, search_args_t *a, int *first_arg) {
    const char *pattern = NULL;
    size_t n_e = 0, n_f = 0;
    uint64_t v;
    int c;

    a->pat_args = malloc((size_t)argc * sizeof *a->pat_args);
    if (a->pat_args == NULL) {
        wm_cli_error("%s", wm_strerror(WM_NOMEM));
        return -1;
    }
    a->o = wm_opts_default();
    a->co = wm_context_opts_default();
    a->alphabet = ALPHA_AUTO;
    a->format = OUT_TSV;
    a->progress = 1;

    opterr = 0;                 /* our own messages, in our own form */
    optind = 1;
    while ((c = getopt_long(argc, argv, ":k:ie:f:j:cqh", long_opts, NULL)) != -1) {
        switch (c) {
        case 'k':
            if (wm_cli_option_u64("-k/--max-edits", optarg, UINT32_MAX, 0, &v) < 0)
                return -1;
            a->o.max_edits = (uint32_t)v;
            break;
        case OPT_HAMMING: a->o.metric = WM_METRIC_HAMMING; break;
        case 'i': a->o.case_insensitive = 1; break;
        case OPT_REVCOMP: a->o.revcomp = 1; break;
        case OPT_ALPHABET: {
            int i = wm_cli_choose("--alphabet", optarg, alphabet_words);
            if (i < 0)
                return -1;
            a->alphabet = (alpha_choice_t)i;
            break;
        }
        case OPT_ALGO: {
            int i = wm_cli_choose("--algo", optarg, algo_words);
            if (i < 0)
                return -1;
            a->o.algo = (wm_algo_t)i;      /* same order as wm_algo_t */
            break;
        }
        case 'e':
        case 'f':
            a->pat_args[a->n_pat_args].opt = (char)c;
            a->pat_args[a->n_pat_args++].arg = optarg;
            if (c == 'e') {
                pattern = optarg;
                n_e++;
            } else {
                n_f++;
            }
            break;
        case OPT_BACKEND: {
            int i = wm_cli_choose("--backend", optarg, wm_cli_backend_words);
            if (i < 0)
                return -1;
            a->co.backend = (wm_backend_t)i;  /* same order as wm_backend_t */
            break;
        }
        case 'j':
            if (wm_cli_option_u64("-j/--threads", optarg, 65536, 0, &v) < 0)
                return -1;
            a->co.threads = (int)v;
            break;
        case OPT_CHUNK:
            if (wm_cli_option_u64("--chunk-bytes", optarg, UINT64_MAX, 1, &v) < 0)
                return -1;
            a->co.chunk_bytes = v;
            break;
        case OPT_NO_PROGRESS: a->progress = 0; break;
        case 'c': a->count = 1; break;
        case OPT_BY_RECORD: a->by_record = 1; a->count = 1; break;
        case OPT_PER_PATTERN: a->per_pattern = 1; a->count = 1; break;
        case OPT_ALL_PATTERNS: a->all_patterns = a->per_pattern = a->count = 1; break;
        case OPT_PER_RANK: a->per_rank = optarg; break;
        case OPT_GPUS:
            if (wm_cli_option_gpus(optarg, &a->co) < 0)
                return -1;
            break;
        case OPT_FORMAT: {
            int i = wm_cli_choose("--format", optarg, format_words);
            if (i < 0)
                return -1;
            a->format = (out_format_t)i;
            break;
        }
        case OPT_JSON: a->format = OUT_JSON; break;
        case 'q': a->quiet = 1; break;
        case 'h':
            print_help();
            return 1;
        default:                 /* ':' (no value) or '?' (unknown) */
            wm_cli_getopt_error(c, argv);
            return -1;
        }
    }
    if (n_f > 0 || n_e > 1) {
        a->is_set = 1;           /* the patterns are read later, by load_set */
        *first_arg = optind;
        return 0;
    }
    if (pattern == NULL) {
        if (optind >= argc) {
            wm_cli_error("no pattern given");
            return -1;
        }
        pattern = argv[optind++];
    }
    *first_arg = optind;
    a->pattern = (const uint8_t *)pattern;
    a->m = strlen(pattern);
    a->iupac = wm_cli_is_iupac(a->pattern, a->m);
    wm_out_bed_name(a->bed_name, a->pattern, a->m);
    return 0;
}

/* The output checks both modes share. Returns 0 or -1 (message printed). */
static int check_output_args(const search_args_t *a) {
    if (a->count && a->format != OUT_TSV && !a->quiet) {
        wm_cli_error("%s prints TSV lines; it cannot be combined with --format %s",
                     a->per_pattern ? "--count-per-pattern" : "-c/--count",
                     format_words[a->format]);
        return -1;
    }
    if (a->per_rank != NULL && (a->count || a->quiet || a->format == OUT_JSON)) {
        wm_cli_error("--output-per-rank writes the matches of each rank to its own file: "
                     "it lists matches as tsv or bed (not with -c, -q or --format json)");
        return -1;
    }
    if (a->per_rank != NULL && a->per_rank[0] == '\0') {
        wm_cli_error("--output-per-rank needs a file name prefix");
        return -1;
    }
    if (a->per_pattern && a->by_record) {
        wm_cli_error("--count-per-pattern counts per file; it cannot be combined "
                     "with --by-record");
        return -1;
    }
    return 0;
}

/* The checks that do not depend on a file, with messages that name the
** option at fault. Returns 0 or -1 (message printed). */
static int check_args(const search_args_t *a) {
    if (a->m == 0) {
        wm_cli_error("the pattern is empty");
        return -1;
    }
    if (a->m > WM_MAX_PATTERN) {
        wm_cli_error("the pattern is %zu bytes long; the longest allowed is %u",
                     a->m, WM_MAX_PATTERN);
        return -1;
    }
    if (a->o.max_edits >= a->m) {
        wm_cli_error("-k %u must be less than the pattern length %zu "
                     "(with k >= m every position would match)", a->o.max_edits, a->m);
        return -1;
    }
    if (a->o.algo >= WM_ALGO_AC) {
        wm_cli_error("--algo %s is for pattern sets (-f FILE, or -e given more than once)",
                     algo_words[a->o.algo]);
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
    if (a->alphabet == ALPHA_DNA && !a->iupac) {
        wm_cli_error("--alphabet dna needs a pattern of IUPAC nucleotide letters "
                     "(ACGTURYSWKMBDHVN)");
        return -1;
    }
    return check_output_args(a);
}

/* ---- pattern sets ----------------------------------------------------------------- */

/* Set-mode option checks, before any pattern file is read. The text FILEs are
** argv[first, argc): none, or "-" among them, means the text is on stdin. */
static int check_set_args(const search_args_t *a, int argc, char **argv, int first) {
    if (a->o.max_edits > 0) {
        wm_cli_error("pattern sets are searched exactly; -k/--max-edits must be 0");
        return -1;
    }
    if (a->o.metric == WM_METRIC_HAMMING) {
        wm_cli_error("pattern sets are searched exactly; --hamming does not apply");
        return -1;
    }
    if (a->o.algo != WM_ALGO_AUTO && a->o.algo < WM_ALGO_AC) {
        wm_cli_error("--algo %s searches for one pattern; a pattern set takes auto, ac, "
                     "pfac, wumanber, wumanber-paper or qgram", algo_words[a->o.algo]);
        return -1;
    }
    int stdin_text = first >= argc, stdin_pats = 0;
    for (int i = first; i < argc; ++i)
        stdin_text |= strcmp(argv[i], "-") == 0;
    for (size_t i = 0; i < a->n_pat_args; ++i)
        if (a->pat_args[i].opt == 'f' && strcmp(a->pat_args[i].arg, "-") == 0)
            stdin_pats++;
    if (stdin_pats > 1) {
        wm_cli_error("-f - given twice: standard input can be read only once");
        return -1;
    }
    if (stdin_pats && stdin_text) {
        wm_cli_error("-f - reads the patterns from standard input, so the text cannot "
                     "come from there too; name the FILEs to search");
        return -1;
    }
    return check_output_args(a);
}

/* Name pattern i in a message: "pattern 3 (pats.txt:3)", with its FASTA name. */
static const char *describe(const search_args_t *a, size_t i, char *buf, size_t len) {
    char where[1024];
    wm_patset_where(&a->set, i, where, sizeof where);
    if (a->set.name != NULL && a->set.name[i] != NULL)
        snprintf(buf, len, "pattern %zu '%.200s' (%s)", i + 1, a->set.name[i], where);
    else
        snprintf(buf, len, "pattern %zu (%s)", i + 1, where);
    return buf;
}

/* Under MPI only rank 0 has standard input: it reads `-f -` and sends the
** bytes to every rank, which reads them from a file of its own. Returns 0
** or -1 (message printed); *tmp gets the file's name ("" when none). */
static int share_stdin_patterns(search_args_t *a, char *tmp, size_t len) {
    tmp[0] = '\0';
    size_t i = 0;
    while (i < a->n_pat_args && !(a->pat_args[i].opt == 'f' && strcmp(a->pat_args[i].arg, "-") == 0))
        ++i;
    if (!wm_dist.active || i == a->n_pat_args)
        return 0;
    void *buf = NULL;
    uint64_t n = 0;
    int failed = 0;
    if (wm_dist.rank == 0) {
        size_t cap = 1 << 16, got;
        buf = malloc(cap);
        while (buf != NULL && (got = fread((char *)buf + n, 1, cap - n, stdin)) > 0) {
            n += got;
            if (n == cap) {
                void *nb = realloc(buf, cap *= 2);
                if (nb == NULL) { free(buf); buf = NULL; }
                else buf = nb;
            }
        }
        failed = buf == NULL || ferror(stdin);
    }
    if (wm_cli_dist_failed(failed, "cannot read the patterns from standard input", 0) ||
        wm_dist_bcast_bytes(&buf, &n) < 0) {
        free(buf);
        return -1;
    }
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmp, len, "%s/warpmatch-patterns-XXXXXX", dir);
    int fd = mkstemp(tmp);
    failed = fd < 0 || write(fd, buf, (size_t)n) != (ssize_t)n;
    if (fd >= 0) close(fd);
    free(buf);
    if (wm_cli_dist_failed(failed, "cannot write the patterns from standard input to a file", 0)) {
        if (fd >= 0) unlink(tmp);
        tmp[0] = '\0';
        return -1;
    }
    a->pat_args[i].arg = tmp;
    return 0;
}

/* Read the -e patterns and -f files in argv order, then check the patterns
** against the options, naming the first pattern at fault. */
static int load_set(search_args_t *a) {
    static uint8_t acgtu[256];
    char what[1400];

    for (size_t i = 0; i < a->n_pat_args; ++i) {
        const pat_arg_t *p = &a->pat_args[i];
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
    for (const char *c = "ACGTUacgtu"; *c != '\0'; ++c)
        acgtu[(uint8_t)*c] = 1;
    a->acgtu = 1;
    for (size_t i = 0; i < a->set.n; ++i) {
        const uint8_t *p = a->set.pat[i];
        size_t m = a->set.len[i], j = 0;
        while (j < m && acgtu[p[j]])
            ++j;
        if (j < m) {
            a->acgtu = 0;
            if (a->o.revcomp || a->alphabet == ALPHA_DNA) {
                wm_cli_error("%s needs patterns of A, C, G, T, U only; %s is not",
                             a->o.revcomp ? "--revcomp" : "--alphabet dna",
                             describe(a, i, what, sizeof what));
                return -1;
            }
        }
        if (a->o.algo == WM_ALGO_QGRAM && m < WM_QGRAM_MIN_LEN) {
            wm_cli_error("--algo qgram needs patterns of at least %u bytes; %s has %zu",
                         WM_QGRAM_MIN_LEN, describe(a, i, what, sizeof what), m);
            return -1;
        }
    }
    return 0;
}

int wm_cmd_search(int argc, char **argv) {
    static char outbuf[1 << 20];
    search_args_t a;
    run_t r;
    int first_arg = 0;

    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    r.a = &a;
    r.out = stdout;
    r.pg.t_start = wm_cli_now();
    pthread_mutex_init(&r.pg.mu, NULL);

    int rc = parse_args(argc, argv, &a, &first_arg);
    if (rc != 0)
        free(a.pat_args);
    if (rc == 1)
        return fflush(stdout) == 0 ? 0 : WM_EXIT_ERROR;
    if (rc < 0) {
        usage_hint();
        return WM_EXIT_ERROR;
    }
    char stdin_pats[4096] = "";
    int bad_args = a.is_set ? check_set_args(&a, argc, argv, first_arg) < 0 ||
                                  share_stdin_patterns(&a, stdin_pats, sizeof stdin_pats) < 0 ||
                                  load_set(&a) < 0
                            : check_args(&a) < 0;
    if (stdin_pats[0] != '\0')
        unlink(stdin_pats);
    if (bad_args) {
        free(a.pat_args);
        wm_patset_free(&a.set);
        return WM_EXIT_ERROR;
    }

    if (a.per_rank != NULL && argc - first_arg > 1) {
        /* Each rank's file holds its share of every input in turn, so only
        ** one input keeps "the files in rank order are the output". */
        wm_cli_error("--output-per-rank takes one FILE (%d given): run once per file",
                     argc - first_arg);
        free(a.pat_args);
        wm_patset_free(&a.set);
        return WM_EXIT_ERROR;
    }
    r.dist = wm_dist.active || a.per_rank != NULL;
    wm_cli_dist_device(&a.co);
    if (a.per_rank != NULL) {
        char name[4096];
        snprintf(name, sizeof name, "%s.%05d", a.per_rank, wm_dist.rank);
        r.rank_out = fopen(name, "w");
        int failed = r.rank_out == NULL;
        char why[4200];
        snprintf(why, sizeof why, "cannot write %s: %s", name, failed ? strerror(errno) : "");
        if (dist_failed(&r, failed, why)) {
            if (r.rank_out != NULL)
                fclose(r.rank_out);
            free(a.pat_args);
            wm_patset_free(&a.set);
            return WM_EXIT_ERROR;
        }
    }
    r.pg.enabled = a.progress && !a.quiet && !r.dist && isatty(STDERR_FILENO);
    r.pg.stdout_tty = isatty(STDOUT_FILENO);
    if (r.pg.enabled) {
        a.co.progress = on_progress;
        a.co.progress_user = &r.pg;
    }
    wm_status cst = wm_cli_context_new(&a.co, &r.cx);
    if (r.dist && dist_failed_as(&r, cst != WM_OK, wm_cli_last_error(), 1))
        cst = WM_DEVICE;
    if (cst != WM_OK) {
        if (r.rank_out != NULL)
            fclose(r.rank_out);
        free(a.pat_args);
        wm_patset_free(&a.set);
        return WM_EXIT_ERROR;
    }

    if (first_arg >= argc) {
        (r.dist ? search_file_dist : search_file)(&r, "-");
    } else {
        for (int i = first_arg; i < argc; ++i) {
            (r.dist ? search_file_dist : search_file)(&r, argv[i]);
            if (r.fatal || r.write_failed || (a.quiet && r.any_match))
                break;
        }
    }
    if (a.format == OUT_JSON && !a.count && !a.quiet && !r.fatal && !r.write_failed)
        wm_out_search_json_summary(r.out, r.n_matches, r.n_sources, r.n_bytes);

    wm_db_free(r.db[0]);
    wm_db_free(r.db[1]);
    free(r.per_pattern);
    free(a.pat_args);
    wm_patset_free(&a.set);
    wm_context_free(r.cx);
    pthread_mutex_destroy(&r.pg.mu);
    if (r.rank_out != NULL && fclose(r.rank_out) != 0 && !r.write_failed) {
        r.write_failed = 1;
        r.write_errno = errno;
    }

    int w = wm_cli_flush_stdout(r.write_failed, r.write_errno);
    if (w < 0)
        return WM_EXIT_ERROR;
    if (w > 0)                   /* a closed pipe: the status of what was done */
        return (a.quiet && r.any_match) || (!r.any_error && r.any_match)
                   ? WM_EXIT_MATCH : r.any_error ? WM_EXIT_ERROR : WM_EXIT_NOMATCH;
    if (a.quiet && r.any_match)
        return WM_EXIT_MATCH;
    if (r.any_error || r.fatal)
        return WM_EXIT_ERROR;
    return r.any_match ? WM_EXIT_MATCH : WM_EXIT_NOMATCH;
}
