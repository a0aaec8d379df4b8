/*
** loci.c -- which matches of a set within k edits need their start when the
** caller keeps one match a locus (tuning.loci_starts; the CLI's
** --best-per-locus and SAM, cli/locus.c: matches of one pattern and strand
** chain when their intervals share a byte; a locus prints its fewest
** errors, the leftmost end). Finding a start is a backward bit-vector pass
** an end; a locus prints one of about 3.5 ends.
**
** An occurrence within k edits is m - k to m + k long, so an end less than
** m - k past the one before chains to it whatever the starts: of such a
** run only the best can be printed. A start decides whether its match
** chains to an earlier one only against an earlier end in
** (e - m - k, e - m + k]. Such a match needs its start, and so does one
** whose earlier neighbours may be out of view (within m + k of `lo`, the
** first end the caller's piece owns, when the record began before it).
** Every other match takes the stand-in start e - (m - k), inside the same
** bounds: every overlap of two matches then comes out as with the true
** start, whatever the clustering, and the match is never printed.
*/
#include "setk/setk.h"

void wm_setk_loci_needs(const wm_hit_t *h, size_t n, size_t m, uint32_t k, uint64_t rb, uint64_t lo,
                        uint8_t *need) {
    const uint64_t shortest = m - k, longest = m + k;
    size_t near = 0; /* the first hit whose end is past e - m - k */
    for (size_t x = 0, y; x < n; x = y) {
        size_t best = x;
        for (y = x + 1; y < n && h[y].end - h[y - 1].end < shortest; y++)
            if (h[y].errors < h[best].errors) best = y;
        for (size_t z = x; z < y; z++) {
            uint64_t e = h[z].end;
            while (near < z && h[near].end + longest <= e) near++;
            int decides = near < z && h[near].end + shortest <= e;
            need[z] = z == best || decides || (lo > rb && e < lo + longest);
        }
    }
}
