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
**
** When every rank runs on rank 0's host and sees the same file there (the
** same device and inode), each rank also opens it, and the lines a rank
** keeps in memory (wm_cli_lines_t) are written by the rank itself at their
** place in rank order (wm_cli_output_write) instead of being sent to rank 0
** to write: the bytes are the same, and rank 0 no longer receives and writes
** every other rank's rows. Ranks on other hosts could see another file of
** that name, so any doubt keeps rank 0 writing everything.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

static void share_output(const char *path);

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
    if (wm_cli_dist_agree(failed)) return -1;
    share_output(sh->output);
    return 0;
}

/* ---- each rank writing its own lines into FILE ------------------------------------- */

static int shared_fd = -1; /* FILE, as every rank may write it (rank 0: stdout's) */

typedef struct {
    char host[256];
    uint64_t dev, ino;
    int32_t ok, pad;
} file_id_t;

/* Every rank sees rank 0's file on rank 0's host: each then opens it. */
static void share_output(const char *path) {
    if (!wm_dist.active) return;
    file_id_t me, *all = malloc((size_t)wm_dist.size * sizeof *all);
    if (!all) wm_dist_abort(WM_EXIT_ERROR); /* the ranks could no longer agree */
    memset(&me, 0, sizeof me);
    struct stat st;
    int fd = wm_dist.rank == 0 ? STDOUT_FILENO : open(path, O_WRONLY | O_CLOEXEC);
    me.ok = fd >= 0 && gethostname(me.host, sizeof me.host - 1) == 0 && fstat(fd, &st) == 0 &&
            S_ISREG(st.st_mode);
    if (me.ok) {
        me.dev = (uint64_t)st.st_dev;
        me.ino = (uint64_t)st.st_ino;
    }
    wm_dist_allgather(&me, sizeof me, all);
    int same = 1;
    for (int r = 0; r < wm_dist.size; r++)
        same &= all[r].ok && all[r].dev == all[0].dev && all[r].ino == all[0].ino &&
                strcmp(all[r].host, all[0].host) == 0;
    free(all);
    if (same) shared_fd = fd;
    else if (fd >= 0 && wm_dist.rank != 0) close(fd);
    const char *timing = getenv("WM_DIST_TIMING");
    if (timing != NULL && atoi(timing) > 0 && wm_dist.rank == 0)
        fprintf(stderr, "--output: %s\n",
                same ? "each rank writes its own lines into the file"
                     : "rank 0 writes every rank's lines (not one host, or not one file)");
}

/* Write n bytes at off, in pieces write(2) takes. Returns 0, or -1 (errno). */
static int write_at(int fd, const char *p, uint64_t n, uint64_t off) {
    while (n > 0) {
        size_t want = n > ((uint64_t)1 << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t k = pwrite(fd, p, want, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (k == 0) errno = EIO;
            return -1;
        }
        p += k;
        off += (uint64_t)k;
        n -= (uint64_t)k;
    }
    return 0;
}

typedef struct {
    uint64_t len;
    int64_t base; /* rank 0: where FILE's next byte goes; -1: unknown */
    int32_t err, pad;
} piece_t;

int wm_cli_output_write(const void *buf, uint64_t len, FILE *out) {
    if (shared_fd < 0 || out != stdout) return wm_dist_write_ordered(buf, len, out);
    piece_t me = { len, -1, 0, 0 }, *all = malloc((size_t)wm_dist.size * sizeof *all);
    if (!all) wm_dist_abort(WM_EXIT_ERROR);
    if (wm_dist.rank == 0 && fflush(out) == 0) me.base = (int64_t)ftello(out);
    wm_dist_allgather(&me, sizeof me, all);
    if (all[0].base < 0) { /* rank 0's stream has no place: it writes everything */
        free(all);
        return wm_dist_write_ordered(buf, len, out);
    }
    uint64_t at = (uint64_t)all[0].base, end = at;
    for (int r = 0; r < wm_dist.size; r++) {
        if (r == wm_dist.rank) at = end;
        end += all[r].len;
    }
    me.err = write_at(shared_fd, buf, len, at) < 0 ? errno : 0;
    wm_dist_allgather(&me, sizeof me, all);
    int err = 0;
    for (int r = 0; r < wm_dist.size && err == 0; r++) err = all[r].err;
    free(all);
    /* rank 0's later lines (a JSON end, the next input's) go after all of them */
    if (wm_dist.rank == 0 && fseeko(out, (off_t)end, SEEK_SET) != 0 && err == 0) err = errno;
    if (err == 0) return 0;
    errno = err;
    return wm_dist.rank == 0 ? -1 : 0;
}
