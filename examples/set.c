/*
** set.c -- many patterns in one pass: where three restriction enzymes cut
** the phage lambda genome.
**
**   example_set [FASTA]            (data/lambda_phage.fa by default)
**
** wm_compile_set takes the whole set and finds every exact occurrence of
** every pattern, each reported with its index in the set. With the DNA
** alphabet, case is ignored and N matches nothing.
*/
#include <inttypes.h>
#include <stdio.h>

#include "warpmatch.h"

#define N_SITES 3
static const char *const NAME[N_SITES] = { "EcoRI", "BamHI", "HindIII" };
static const char *const SITE[N_SITES] = { "GAATTC", "GGATCC", "AAGCTT" };
static const size_t LEN[N_SITES] = { 6, 6, 6 };

/* The file's bases, its '>' lines and line breaks dropped: enough for one
** small genome (real programs read FASTA with a parser such as kseq.h). */
static uint8_t genome[1 << 20];

static int on_match(const wm_match_t *m, void *user) {
    (void)user;
    printf("%-8s %s at %" PRIu64 "\n", NAME[m->pattern], SITE[m->pattern], m->start + 1);
    return 0;
}

int main(int argc, char **argv) {
    FILE *f = fopen(argc > 1 ? argv[1] : "data/lambda_phage.fa", "rb");
    if (!f) {
        perror("example_set");
        return 2;
    }
    size_t len = fread(genome, 1, sizeof genome, f), n = 0;
    fclose(f);
    int header = 0;
    for (size_t i = 0; i < len; i++) {
        if (genome[i] == '>') header = 1;
        else if (genome[i] == '\n') header = 0;
        else if (!header && genome[i] != '\r') genome[n++] = genome[i];
    }

    wm_opts_t opts = wm_opts_default();
    opts.alphabet = WM_ALPHABET_DNA;
    wm_db_t *db = NULL;
    wm_context_t *cx = NULL;
    wm_status rc = wm_compile_set((const uint8_t *const *)SITE, LEN, N_SITES, &opts, &db);
    if (rc == WM_OK) rc = wm_context_new(NULL, &cx);
    wm_text_t text = { genome, n, NULL, 0 };
    if (rc == WM_OK) rc = wm_search(cx, db, &text, on_match, NULL); /* in genome order */
    if (rc != WM_OK) fprintf(stderr, "example_set: %s\n", wm_strerror(rc));
    wm_context_free(cx);
    wm_db_free(db);
    return rc == WM_OK ? 0 : 2;
}
