/*
** dtwio.c -- the inputs of `warpmatch dtw` (dtwio.h): the format words and
** reading a signal file with the reader's message on failure. The output
** lines are out_dtw.c's.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "dtwio.h"
#include "mpi/dist.h"

const char *const wm_cli_sigfmt_words[] = {
    "auto", "text", "csv", "npy", "npz", "f32", "f64", NULL
};
const wm_sigfmt_t wm_cli_sigfmt_values[] = { WM_SIGFMT_AUTO, WM_SIGFMT_TEXT, WM_SIGFMT_CSV,
                                             WM_SIGFMT_NPY,  WM_SIGFMT_NPZ,  WM_SIGFMT_F32,
                                             WM_SIGFMT_F64 };

/* "data.npz:name": a path that is no file, whose part before the last ':'
** is one. Returns the copy of that part (malloc'd) and *array, or NULL. A
** file really named "a:b" is read as itself. */
static char *split_array(const char *path, const char **array) {
    struct stat st;
    const char *colon = strrchr(path, ':');
    if (colon == NULL || colon[1] == '\0' || stat(path, &st) == 0 || errno != ENOENT) return NULL;
    size_t n = (size_t)(colon - path);
    char *file = malloc(n + 1);
    if (!file) return NULL;
    memcpy(file, path, n);
    file[n] = '\0';
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(file);
        return NULL;
    }
    *array = colon + 1;
    return file;
}

int wm_cli_dtw_read(const char *path, wm_sigfmt_t fmt, const char *column, int several, int labels,
                    int force_raw, int csv_rows, wm_sigs_t *out) {
    char err[1024] = "";
    wm_sigread_opts_t o;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.column = column;
    o.several = several;
    o.labels = labels;
    o.raw_force = force_raw;
    o.csv_rows = csv_rows;
    char *file = NULL;
    if (fmt == WM_SIGFMT_AUTO || fmt == WM_SIGFMT_NPZ) file = split_array(path, &o.array);
    int rc = wm_sig_read(file ? file : path, &o, out, err, sizeof err);
    free(file);
    if (rc == 0) {
        if (err[0] && wm_dist.rank == 0) /* every rank reads; one says it */
            fprintf(stderr, "%s: note: %s\n", WM_PROG, err);
        return 0;
    }
    wm_cli_error("%s", err[0] ? err : "cannot read the signal");
    return -1;
}
