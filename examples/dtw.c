/*
** dtw.c -- subsequence dynamic time warping: where a short signal (one
** bump) fits best in a longer series that holds it stretched, squeezed and
** with noise, however slowly or quickly it goes there.
**
**   example_dtw
**
** Signals are arrays of doubles. The distance sums |query - series| along the
** best warping path; a match is the stretch [start, end) of the series
** whose distance to the whole query is smallest. opts.top asks for that many
** matches that do not overlap, best first.
*/
#include <inttypes.h>
#include <stdio.h>

#include "warpmatch.h"

static const double QUERY[] = { 0, 1, 3, 4, 3, 1, 0 };
/* the bump: nearly as is at 3, twice as slow from 13, squeezed into a spike at 30 */
static const double SERIES[] = {
    0.1, 0.0, -0.1, 0.0, 1.0, 2.9, 4.1, 3.0, 1.1, 0.0, 0.2, 0.1, 0.0, 0.5,
    1.0, 1.0, 2.0,  3.0, 3.0, 4.0, 4.0, 3.0, 3.0, 2.0, 1.0, 0.0, 0.1, 0.0,
    0.1, 0.0, 0.0,  2.0, 4.2, 1.0, 0.0, 0.1, 0.2, 0.1, 0.0, 0.1,
};
#define LEN(a) (sizeof a / sizeof a[0])

int main(void) {
    wm_dtw_opts_t opts = wm_dtw_opts_default(); /* subsequence, |x - y|, best 1 */
    opts.top = 3;
    wm_context_t *cx = NULL;
    wm_dtw_matches_t out = { 0 };
    wm_status rc = wm_context_new(NULL, &cx);
    if (rc == WM_OK) rc = wm_dtw(cx, QUERY, LEN(QUERY), SERIES, LEN(SERIES), &opts, &out);
    if (rc != WM_OK) fprintf(stderr, "example_dtw: %s\n", wm_strerror(rc));
    for (size_t i = 0; i < out.n; i++)
        printf("match %zu: series [%" PRIu64 ", %" PRIu64 "), distance %.2f\n", i + 1,
               out.a[i].start, out.a[i].end, out.a[i].distance);
    wm_dtw_matches_free(&out);
    wm_context_free(cx);
    return rc == WM_OK ? 0 : 2;
}
