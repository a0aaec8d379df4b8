/*
** dtwio.h -- the inputs of `warpmatch dtw`: QUERY and SERIES are signal
** files read whole by wm_sig_read (src/io/signal.h: text, labelled text,
** CSV, .npy, .npz, raw f32/f64, gzip; "-" = standard input); a failed read prints the reader's
** message, which names the file and the place. (The output lines: out.h.)
*/
#ifndef WM_CLI_DTWIO_H
#define WM_CLI_DTWIO_H

#include "warpmatch.h"
#include "io/signal.h"

/* The --format, --query-format and --dtype words, NULL-terminated, and the
** format of each (same index). */
extern const char *const wm_cli_sigfmt_words[];
extern const wm_sigfmt_t wm_cli_sigfmt_values[];

/* Read `path` ("-" = standard input) as `fmt`, `column` (NULL = the
** default), `several` (1: a query file of several signals), `labels` (1
** --labels, -1 --no-labels, 0 by the name), `force_raw` (--force-raw) and
** `csv_rows` (auto: a .csv name holds a signal a line, not one column).
** "file.npz:name" reads the array `name` of file.npz (when no file has the
** whole name). Returns 0 (after printing the reader's note, if any), or -1
** after printing "warpmatch: <the reader's message>"; *out is then empty.
** Free *out with wm_sigs_free. */
int wm_cli_dtw_read(const char *path, wm_sigfmt_t fmt, const char *column, int several, int labels,
                    int force_raw, int csv_rows, wm_sigs_t *out);

#endif
