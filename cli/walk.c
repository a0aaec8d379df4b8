/*
** walk.c -- search -r: the FILE arguments with each directory replaced by
** the files under it (search.h).
**
** As ripgrep and grep -r: a directory's entries are visited in byte order of
** their names (strcmp), so the output is the same on every file system and
** run; symbolic links met inside a directory are not followed (one named on
** the command line is); only regular files are searched (no FIFOs, devices
** or sockets, which could block). Binary files are skipped later, when read
** (cmd_search.c), since a gzip file is binary only once inflated.
*/
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "search.h"

static int add(wm_cli_paths_t *p, char *path, int walked) {
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        char **v = realloc(p->path, cap * sizeof *v);
        if (v == NULL) return -1;
        p->path = v;
        unsigned char *w = realloc(p->walked, cap);
        if (w == NULL) return -1;
        p->walked = w;
        p->cap = cap;
    }
    p->path[p->n] = path;
    p->walked[p->n++] = (unsigned char)walked;
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir's entries, sorted; a message and -1 when it cannot be read. */
static int walk_dir(wm_cli_paths_t *p, const char *dir, int *any_error) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        wm_cli_error("%s: %s", dir, strerror(errno));
        *any_error = 1;
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **v = realloc(names, cap * sizeof *v);
            if (v == NULL) rc = -1;
            else names = v;
        }
        if (rc == 0 && (names[n] = strdup(e->d_name)) == NULL) rc = -1;
        if (rc == 0) ++n;
    }
    closedir(d);
    if (rc == 0) qsort(names, n, sizeof *names, by_name);
    size_t dl = strlen(dir);
    int slash = dl > 0 && dir[dl - 1] == '/';
    for (size_t i = 0; i < n; ++i) {
        char *path = NULL;
        struct stat st;
        if (rc == 0) {
            /* "." walked for a missing FILE prints names without "./", as rg */
            int bare = strcmp(dir, ".") == 0 && p->bare_dot;
            size_t len = (bare ? 0 : dl + !slash) + strlen(names[i]) + 1;
            if ((path = malloc(len)) == NULL) rc = -1;
            else if (bare) snprintf(path, len, "%s", names[i]);
            else snprintf(path, len, "%s%s%s", dir, slash ? "" : "/", names[i]);
        }
        if (rc == 0 && lstat(path, &st) != 0) {
            wm_cli_error("%s: %s", path, strerror(errno));
            *any_error = 1;
        } else if (rc == 0 && S_ISDIR(st.st_mode)) {
            rc = walk_dir(p, path, any_error);
        } else if (rc == 0 && S_ISREG(st.st_mode)) {
            if (add(p, path, 1) < 0) rc = -1;
            path = NULL;
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return rc;
}

int wm_cli_walk(wm_cli_paths_t *p, char **args, int n_args, int *any_error) {
    memset(p, 0, sizeof *p);
    int rc = 0;
    if (n_args == 0) {
        p->bare_dot = 1;
        rc = walk_dir(p, ".", any_error);
    }
    for (int i = 0; i < n_args && rc == 0; ++i) {
        struct stat st;
        if (strcmp(args[i], "-") != 0 && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = walk_dir(p, args[i], any_error);
        } else { /* a file, or a name that fails later with its own message */
            char *path = strdup(args[i]);
            if (path == NULL || add(p, path, 0) < 0) {
                free(path);
                rc = -1;
            }
        }
    }
    if (rc < 0) {
        wm_cli_error("%s", wm_strerror(WM_NOMEM));
        wm_cli_paths_free(p);
    }
    return rc;
}

void wm_cli_paths_free(wm_cli_paths_t *p) {
    for (size_t i = 0; i < p->n; ++i) free(p->path[i]);
    free(p->path);
    free(p->walked);
    memset(p, 0, sizeof *p);
}
