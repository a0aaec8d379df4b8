/*
** flags.h -- every flag of the tool, defined once (flags.c), in the manner
** of ripgrep's flags/defs.rs: one table of {short, long, argument, section,
** commands, default, help, apply} from which each command's getopt_long
** arrays and its --help are made (help.c).
**
** A flag that several commands take (--backend, -j, --gpus, --json,
** --format, --alphabet, -i, --help) is parsed here, once, into
** wm_cli_shared_t; a flag that is one command's own goes to that command's
** handler, which keeps only what is its. A word means one thing on every
** command: --format is the output format; dtw's input formats are
** --series-format and --query-format (dtw's --format is the old spelling of
** --series-format, kept: its values are input formats); --gpus names the
** devices (dtw's --device N, the old spelling, is --gpus N).
**
** Messages name a flag as its spelling shows it ("-j/--threads",
** "--backend"); errors are printed in the "warpmatch: ..." form.
*/
#ifndef WM_CLI_FLAGS_H
#define WM_CLI_FLAGS_H

#include <stddef.h>

#include "warpmatch.h"

/* The commands, as bits of wm_flag_t.cmds. */
enum { WM_CMD_SEARCH = 1, WM_CMD_ALIGN = 2, WM_CMD_DTW = 4, WM_CMD_INFO = 8 };

/* The sections of a command's --help, in the order printed. */
typedef enum {
    WM_SEC_MATCH,
    WM_SEC_SETS,
    WM_SEC_INPUT,
    WM_SEC_EXEC,
    WM_SEC_OUTPUT,
    WM_N_SECS
} wm_flag_sec_t;

/* Output formats (--format, --json), in the order of wm_cli_format_words. */
typedef enum { WM_OUT_TSV = 0, WM_OUT_BED = 1, WM_OUT_JSON = 2 } wm_cli_format_t;
/* align's own formats: kept out of the enum, so that the switches of the
** other commands' printers, which never see them, need no case for them. */
#define WM_OUT_SAM ((wm_cli_format_t)3)
#define WM_OUT_PAF ((wm_cli_format_t)4)
extern const char *const wm_cli_format_words[];

/* --alphabet, in the order of its words (auto, dna, text). */
typedef enum { WM_ALPHA_AUTO = 0, WM_ALPHA_DNA = 1, WM_ALPHA_TEXT = 2 } wm_cli_alpha_t;

/* What the shared flags set; each command takes from it what it uses. */
typedef struct {
    wm_context_opts_t co;    /* --backend, -j/--threads, --gpus (--device) */
    wm_cli_format_t format;  /* --format, --json [tsv] */
    wm_cli_alpha_t alphabet; /* --alphabet [auto] */
    int ignore_case;         /* -i/--ignore-case */
    int explain_backend;     /* --explain-backend (choose.c) */
    int explain_alphabet;    /* --explain-alphabet: say what auto chose, and why */
    const char *output;      /* --output FILE: rank 0 writes there (outfile.c) */
} wm_cli_shared_t;

/* A command as its help shows it. The prose is written as printed
** (wrapped, no tab); flags' lines are made from the table. */
typedef struct {
    const char *name;             /* "search" */
    unsigned bit;                 /* WM_CMD_* */
    const char *const *formats;   /* the --format words it prints, its default
                                     first, NULL-terminated; NULL: no --format */
    const char *usage;            /* "Usage: ..." lines */
    const char *about;            /* what it does, before the flags */
    const char *intro[WM_N_SECS]; /* said under a section's heading, or NULL */
    const char *details;          /* after the flags: output lines, exit status */
} wm_cli_command_t;

extern const wm_cli_command_t wm_cli_cmd_search, wm_cli_cmd_align, wm_cli_cmd_dtw, wm_cli_cmd_info;

/* The ids of the flags: what getopt_long returns. A flag with a short name
** returns its letter; the others these. Two spellings of one flag (an old
** one kept) share an id; two commands' flags of one letter (-k) do too. */
enum {
    WM_F_BACKEND = 256,
    WM_F_GPUS,
    WM_F_JSON,
    WM_F_FORMAT,
    WM_F_ALPHABET,
    WM_F_ALGO,
    WM_F_MODE,
    WM_F_HAMMING,
    WM_F_EXACT_PREFIX,
    WM_F_EXACT_SUFFIX,
    WM_F_REVCOMP,
    WM_F_CHUNK,
    WM_F_NO_PROGRESS,
    WM_F_BY_RECORD,
    WM_F_PER_PATTERN,
    WM_F_ALL_PATTERNS,
    WM_F_PER_RANK,
    WM_F_CIGAR,
    WM_F_ALL_ENDS,
    WM_F_PAIRS,
    WM_F_BLOCK_T,
    WM_F_EXPLAIN,
    WM_F_COST,
    WM_F_WINDOW,
    WM_F_ZNORM,
    WM_F_LENGTH,
    WM_F_TOP,
    WM_F_PATH,
    WM_F_SQRT,
    WM_F_LABELS,
    WM_F_NO_LABELS,
    WM_F_FORCE_RAW,
    WM_F_SERIES_FORMAT,
    WM_F_QUERY_FORMAT,
    WM_F_DTYPE,
    WM_F_COLUMN,
    WM_F_QUERY_COLUMN,
    WM_F_PIECE,
    WM_F_EXPLAIN_ALPHABET,
    WM_F_EXPLAIN_BACKEND,
    WM_F_NO_REVCOMP,
    WM_F_BEST,
    WM_F_CIGAR_M,
    WM_F_LINE,
    WM_F_NO_FILENAME,
    WM_F_COLOR,
    WM_F_LINE_BUFFERED,
    WM_F_BEST_LOCUS,
    WM_F_STREAM,
    WM_F_NO_STREAM,
    WM_F_STREAM_BATCH,
    WM_F_KNN,
    WM_F_NPY,
    WM_F_PRECISION,
    WM_F_OUTPUT
};

typedef struct wm_flag wm_flag_t;

/* How a shared flag applies its value (NULL for a switch). Returns 0, 1 to
** stop parsing with exit status 0 (--help), or -1 after a message. */
typedef int (*wm_flag_apply_t)(const wm_flag_t *f, const char *val, wm_cli_shared_t *sh,
                               const wm_cli_command_t *cmd);

/* A command's own flags: the same contract, with the command's options. */
typedef int (*wm_flag_own_t)(const wm_flag_t *f, const char *val, void *args);

struct wm_flag {
    int id;           /* WM_F_*, or the short letter */
    char short_name;  /* 0: none */
    const char *name; /* the long name, without "--" */
    const char *arg;  /* the value's name in help; NULL: takes none */
    wm_flag_sec_t sec;
    unsigned cmds;         /* WM_CMD_* of the commands that take it */
    wm_flag_apply_t apply; /* shared: parsed here; NULL: the command's own */
    const char *dflt;      /* shown as [dflt] after the first line; or NULL */
    const char *help;      /* lines separated by '\n'; see help.c */
};

/* The table, ended by an entry whose name is NULL. */
extern const wm_flag_t wm_flags[];

/* What one command's help adds to a flag's (help.c says where it goes). */
typedef struct {
    const char *name; /* the flag's long name */
    unsigned cmds;
    const char *text;
} wm_flag_note_t;

extern const wm_flag_note_t wm_flag_notes[];

/* How messages name f: "-k/--max-edits", "--backend". Returns buf. */
const char *wm_flag_display(const wm_flag_t *f, char *buf, size_t len);

/* --output FILE (outfile.c): a FILE that is also an input is refused; rank
** 0 (every process outside mpirun) then writes its standard output to FILE.
** Every rank agrees on the result. Returns 0, or -1 after a message. */
int wm_cli_open_output(const wm_cli_shared_t *sh, int argc, char **argv);

/* Parse cmd's options in argv[1..] (argv[0] is the command's name): sets
** *sh to the defaults, then applies each flag, the shared ones here, the
** others through own(f, value, args). Options and arguments may mix, as
** with GNU tools; "--" ends the options. Returns 0 with *first_arg the
** index of the first argument, 1 after --help was printed, or -1 after a
** message ("unknown option", "option '-k' needs a value", a bad value). */
int wm_flags_parse(const wm_cli_command_t *cmd, int argc, char **argv, wm_cli_shared_t *sh,
                   wm_flag_own_t own, void *args, int *first_arg);

/* Print cmd's --help on stdout (help.c). */
void wm_flags_help(const wm_cli_command_t *cmd);

/* "Try 'warpmatch CMD --help'." on stderr, after an option error. */
void wm_flags_usage_hint(const wm_cli_command_t *cmd);

#endif
