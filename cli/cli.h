/*
** cli.h -- what the files of the command-line tool share: the commands,
** error printing in the "warpmatch: message" form, and option value parsers.
**
** Conventions (STYLE.md, "CLI behaves like grep/ripgrep"): results go to
** stdout, messages to stderr as "warpmatch: ...", exit status 0 = a match,
** 1 = none, 2 = an error.
*/
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>

#define WM_PROG "warpmatch"

/* Exit statuses, as grep and ripgrep use them. */
enum { WM_EXIT_MATCH = 0, WM_EXIT_NOMATCH = 1, WM_EXIT_ERROR = 2 };

/* The commands. argv[0] is the command's name ("search", "info"); each
** returns the process exit status. */
int wm_cmd_search(int argc, char **argv);
int wm_cmd_info(int argc, char **argv);

/* Print "warpmatch: <formatted message>\n" on stderr. */
void wm_cli_error(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Parse a whole string as an unsigned decimal number no larger than max.
** allow_suffix accepts one of K, M, G, T (powers of 1024, either case).
** Returns 0 and sets *out, or -1 (nothing printed). */
int wm_cli_parse_u64(const char *s, uint64_t max, int allow_suffix, uint64_t *out);

/* Parse an option value with wm_cli_parse_u64; on failure print
** "warpmatch: invalid value 'x' for --name (...)" and return -1. */
int wm_cli_option_u64(const char *name, const char *s, uint64_t max,
                      int allow_suffix, uint64_t *out);

/* Index of s in the NULL-terminated list `words`, or -1. */
int wm_cli_lookup(const char *s, const char *const *words);

/* Seconds from a monotonic clock. */
double wm_cli_now(void);

#endif
