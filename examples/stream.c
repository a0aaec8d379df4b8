/*
** stream.c -- a search over input that arrives in blocks: where three
** restriction enzymes cut a genome read from a file or a pipe, 64 KiB at a time.
**   example_stream [FASTA | -]     (data/lambda_phage.fa by default; - = stdin)
** A stream is one text of plain bytes fed in blocks of any size; matches come as
** each block is fed, at offsets in the whole stream, as wm_search gives them on
** the whole text (examples/set.c prints the same). '>' lines and breaks are dropped.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "warpmatch.h"

static const char *const NAME[3] = { "EcoRI", "BamHI", "HindIII" };
static const char *const SITE[3] = { "GAATTC", "GGATCC", "AAGCTT" };
static const size_t LEN[3] = { 6, 6, 6 };

static int on_match(const wm_match_t *m, void *user) {
    (void)user;
    printf("%-8s %s at %" PRIu64 "\n", NAME[m->pattern], SITE[m->pattern], m->start + 1);
    return 0;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "data/lambda_phage.fa";
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        perror("example_stream");
        return 2;
    }
    wm_opts_t opts = wm_opts_default();
    opts.alphabet = WM_ALPHABET_DNA;
    wm_db_t *db = NULL;
    wm_context_t *cx = NULL;
    wm_stream_t *st = NULL;
    wm_status rc = wm_compile_set((const uint8_t *const *)SITE, LEN, 3, &opts, &db);
    if (rc == WM_OK) rc = wm_context_new(NULL, &cx);
    if (rc == WM_OK) rc = wm_stream_open(cx, db, on_match, NULL, &st);
    static uint8_t block[1 << 16];
    size_t got;
    int header = 0; /* inside a '>' line, which may go on into the next block */
    while (rc == WM_OK && (got = fread(block, 1, sizeof block, f)) > 0) {
        size_t n = 0;
        for (size_t i = 0; i < got; i++) {
            if (block[i] == '>') header = 1;
            else if (block[i] == '\n') header = 0;
            else if (!header && block[i] != '\r') block[n++] = block[i];
        }
        rc = wm_stream_feed(st, block, n); /* prints the sites this block completes */
    }
    if (rc == WM_OK) rc = wm_stream_close(st); /* no feed after this */
    if (rc != WM_OK) fprintf(stderr, "example_stream: %s\n", wm_strerror(rc));
    wm_stream_free(st);
    wm_context_free(cx);
    wm_db_free(db);
    if (f != stdin) fclose(f);
    return rc == WM_OK ? 0 : 2;
}
