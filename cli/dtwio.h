/*
** dtwio.h -- the inputs and the output lines of `warpmatch dtw`.
**
** Inputs: QUERY and SERIES are signal files read whole by wm_sig_read
** (src/io/signal.h: text, CSV, .npy, raw f32/f64, gzip; "-" = standard
** input); a failed read prints the reader's message, which names the file
** and the place.
** Output: one line per match, tab-separated,
**     query  start  end  distance  [path]
** with the distance in the shortest of "%.15g" and "%.17g" that reads back
** to the same double, and the path as comma-separated "q:s" cells.
*/
#ifndef WM_CLI_DTWIO_H
#define WM_CLI_DTWIO_H

#include <stdio.h>

#include "warpmatch.h"
#include "io/signal.h"

/* The --format, --query-format and --dtype words, NULL-terminated, and the
** format of each (same index). */
extern const char *const wm_cli_sigfmt_words[];
extern const wm_sigfmt_t wm_cli_sigfmt_values[];

/* Read `path` ("-" = standard input) as `fmt`, `column` (NULL = the
** default) and `several` (1: a query file of several signals). Returns 0, or
** -1 after printing "warpmatch: <the reader's message>"; *out is then empty.
** Free *out with wm_sigs_free. */
int wm_cli_dtw_read(const char *path, wm_sigfmt_t fmt, const char *column, int several,
                    wm_sigs_t *out);

/* The label of query i in the output: its name (a tab in it printed as a
** space), or its 0-based index when it has none. buf holds the index. */
const char *wm_cli_dtw_query_label(const wm_sigs_t *q, size_t i, char *buf, size_t buflen);

/* Write d in the shortest of "%.15g" and "%.17g" that strtod reads back to
** the same double. */
void wm_cli_dtw_put_distance(FILE *f, double d);

/* Write one match line: label, start, end, distance and, when path != 0,
** the path of m (cells q:s, comma-separated). */
void wm_cli_dtw_put_match(FILE *f, const char *label, const wm_dtw_match_t *m, int path);

#endif
