/*
** align.c -- the best alignment of a query, by edit distance, with its
** CIGAR: infix (the closest substring of a longer target, as a read against
** a reference) and global (two whole sequences end to end).
**
**   example_align
**
** CIGAR operations: '=' match, 'X' mismatch, 'I' a query symbol missing from
** the target, 'D' a target symbol missing from the query (SAM's convention,
** the target as the reference).
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "warpmatch.h"

/* Align query to target in mode; print what was found. */
static wm_status show(wm_context_t *cx, wm_align_mode_t mode, const char *query,
                      const char *target) {
    wm_align_opts_t opts = wm_align_opts_default();
    opts.mode = mode;
    opts.cigar = 1;
    wm_alignments_t out;
    wm_status rc = wm_align(cx, (const uint8_t *)query, strlen(query), (const uint8_t *)target,
                            strlen(target), &opts, &out);
    if (rc != WM_OK) return rc;
    for (size_t i = 0; i < out.n; i++) /* one, unless opts.all_ends */
        printf("%s %s in %s: distance %" PRIu64 ", target [%" PRIu64 ", %" PRIu64 "), CIGAR %s\n",
               mode == WM_ALIGN_INFIX ? "infix " : "global", query, target, out.a[i].distance,
               out.a[i].start, out.a[i].end, out.a[i].cigar);
    wm_alignments_free(&out);
    return WM_OK;
}

int main(void) {
    wm_context_t *cx = NULL;
    wm_status rc = wm_context_new(NULL, &cx);
    /* a read of GATTACAGCTTTAGG with one base changed (A -> T) and one T lost */
    if (rc == WM_OK) rc = show(cx, WM_ALIGN_INFIX, "GATTACTGCTTAGG", "CCTAGCATGATTACAGCTTTAGGCAT");
    /* the textbook pair: kitten -> sitting takes three edits */
    if (rc == WM_OK) rc = show(cx, WM_ALIGN_GLOBAL, "kitten", "sitting");
    if (rc != WM_OK) fprintf(stderr, "example_align: %s\n", wm_strerror(rc));
    wm_context_free(cx);
    return rc == WM_OK ? 0 : 2;
}
