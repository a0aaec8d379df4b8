/*
** outfile.c -- --output FILE: the results go to a file the process opens
** itself. Under mpirun that is rank 0, whose standard output would reach the
** terminal or the shell's file through the launcher's forwarding (about
** 12 MB/s with Open MPI, BENCHMARKS section 8); the other ranks' standard
** output is /dev/null already (main.c).
**
** The file is emptied when it is opened, before the inputs are read, as a
** shell's `> FILE` would: so a FILE that is also an input (a pattern file, a
** target, QUERY, SERIES) is refused, where the shell would silently read an
** empty file.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "flags.h"
#include "mpi/dist.h"

/* Does `word` (a command-line word, or the value after "--flag=") name the
** same file as `out`? */
static int same_file(const char *word, const struct stat *out) {
    struct stat st;
    return stat(word, &st) == 0 && st.st_dev == out->st_dev && st.st_ino == out->st_ino;
}

/* Which word of the command line, if any, names the file `path` is. The word
** that holds --output's own value is skipped. */
static const char *input_named(const char *path, int argc, char **argv) {
    struct stat out;
    if (stat(path, &out) != 0) return NULL; /* a new file is no input */
    for (int i = 1; i < argc; ++i) {
        const char *w = argv[i];
        if (path >= w && path <= w + strlen(w)) continue; /* --output's value */
        if (same_file(w, &out)) return w;
        const char *eq = w[0] == '-' && w[1] == '-' ? strchr(w, '=') : NULL;
        if (eq != NULL && same_file(eq + 1, &out)) return eq + 1;
    }
    return NULL;
}

int wm_cli_open_output(const wm_cli_shared_t *sh, int argc, char **argv) {
    if (sh->output == NULL) return 0;
    int failed = 0;
    const char *in = input_named(sh->output, argc, argv);
    if (in != NULL) {
        wm_cli_error("--output %s: the same file as the input '%s' (it would be emptied "
                     "before it is read)",
                     sh->output, in);
        failed = 1;
    } else if (wm_dist.rank == 0) {
        /* The file takes stdout's descriptor, so the stream (and everything
        ** that prints to it) stays as it is; nothing has been written yet. */
        int fd = open(sh->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0 || fflush(stdout) != 0 || dup2(fd, STDOUT_FILENO) < 0) {
            wm_cli_error("--output: cannot write '%s': %s", sh->output, strerror(errno));
            failed = 1;
        } else {
            wm_cli_buffer_stdout(); /* a file now: full buffering */
        }
        if (fd >= 0) close(fd);
    }
    /* the same answer on every rank, so that none goes on alone */
    return wm_cli_dist_agree(failed) ? -1 : 0;
}
