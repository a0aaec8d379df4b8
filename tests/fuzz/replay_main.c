/*
** replay_main.c -- a harness without libFuzzer: runs LLVMFuzzerTestOneInput
** once on each file named on the command line (a folder: every file in it,
** its subfolders too). What ctest runs in every build, so that the seed
** corpus and the regression inputs of tests/fuzz/ are checked by each
** harness's oracle on every commit. A failing check aborts (the harness
** prints what differs); the file being run is printed first with -v.
**     replay_HARNESS [-v] FILE|FOLDER...
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int verbose;
static long n_files;

static void run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) exit(2);
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    fclose(f);
    if (verbose) fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    /* An exact-size copy, so that ASan sees a read past the input's end. */
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL) exit(2);
    memcpy(copy, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    n_files++;
}

static void run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) { /* a folder not made yet (no regressions) */
        fprintf(stderr, "replay: %s: not found, skipped\n", path);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    struct dirent **ents;
    int k = scandir(path, &ents, NULL, alphasort); /* sorted: the same order every run */
    if (k < 0) {
        perror(path);
        exit(2);
    }
    for (int i = 0; i < k; i++) {
        const char *name = ents[i]->d_name;
        if (name[0] != '.') {
            size_t len = strlen(path) + strlen(name) + 2;
            char *sub = malloc(len);
            if (sub == NULL) exit(2);
            snprintf(sub, len, "%s/%s", path, name);
            run_path(sub);
            free(sub);
        }
        free(ents[i]);
    }
    free(ents);
}

int main(int argc, char **argv) {
    int i = 1;
    if (i < argc && strcmp(argv[i], "-v") == 0) {
        verbose = 1;
        i++;
    }
    for (; i < argc; i++) run_path(argv[i]);
    printf("%s: %ld inputs replayed, every check held\n", argv[0], n_files);
    return 0;
}
