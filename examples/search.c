/*
** search.c -- warpmatch in one page: every place a pattern occurs in a text
** with at most k errors (edit distance: substitutions, insertions,
** deletions), one match a line.
**
**   example_search [PATTERN [K]]        (GATTACA and 1 by default)
**
** The three steps of every search: compile the pattern once into a database
** (immutable, shareable between threads), make a context (the threads, and
** the GPU when one is built in and found), then scan; matches come back
** through a callback, in text order.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpmatch.h"

static const char TEXT[] = "TTGATTACAGGCAGATTCAGTTGATACAGATTACCAGGATTAACA";

/* One call per match: [start, end) is the shortest substring ending at end
** within k errors of the pattern. Return non-zero to stop the search. */
static int on_match(const wm_match_t *m, void *user) {
    const char *text = user;
    printf("%" PRIu64 "-%" PRIu64 " errors=%u %.*s\n", m->start, m->end, m->errors,
           (int)(m->end - m->start), text + m->start);
    return 0;
}

int main(int argc, char **argv) {
    const char *pattern = argc > 1 ? argv[1] : "GATTACA";
    wm_opts_t opts = wm_opts_default(); /* exact, edit distance, bytes */
    opts.max_edits = argc > 2 ? (uint32_t)atoi(argv[2]) : 1;

    wm_db_t *db = NULL;
    wm_context_t *cx = NULL;
    wm_status rc = wm_compile((const uint8_t *)pattern, strlen(pattern), &opts, &db);
    if (rc == WM_OK) rc = wm_context_new(NULL, &cx); /* NULL: the defaults */
    if (rc == WM_OK) {
        wm_text_t text = { (const uint8_t *)TEXT, strlen(TEXT), NULL, 0 }; /* one record */
        rc = wm_search(cx, db, &text, on_match, (void *)TEXT);
    }
    if (rc != WM_OK) fprintf(stderr, "example_search: %s\n", wm_strerror(rc));
    wm_context_free(cx); /* both take NULL */
    wm_db_free(db);
    return rc == WM_OK ? 0 : 2;
}
