/*
** dtwio.c -- the inputs of `warpmatch dtw` (dtwio.h): the format words and
** reading a signal file with the reader's message on failure. The output
** lines are out_dtw.c's.
*/
#include <string.h>

#include "cli.h"
#include "dtwio.h"

const char *const wm_cli_sigfmt_words[] = { "auto", "text", "csv", "npy", "f32", "f64", NULL };
const wm_sigfmt_t wm_cli_sigfmt_values[] = { WM_SIGFMT_AUTO, WM_SIGFMT_TEXT, WM_SIGFMT_CSV,
                                             WM_SIGFMT_NPY,  WM_SIGFMT_F32,  WM_SIGFMT_F64 };

int wm_cli_dtw_read(const char *path, wm_sigfmt_t fmt, const char *column, int several,
                    wm_sigs_t *out) {
    char err[1024] = "";
    wm_sigread_opts_t o;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.column = column;
    o.several = several;
    if (wm_sig_read(path, &o, out, err, sizeof err) == 0) return 0;
    wm_cli_error("%s", err[0] ? err : "cannot read the signal");
    return -1;
}
