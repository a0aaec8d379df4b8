/*
** oracle.h -- the brute-force reference for warpmatch's search contract.
**
** Written for clarity, never optimised, and independent of src/: it includes
** only the public header (for the option, text and match types) and calls
** nothing from the library. Every backend is checked against it.
**
** The contract it implements (include/warpmatch.h, wm_match_t):
**   for each record r, each end e in 1..len(r) (offsets within the record),
**   each strand (0 = the pattern; 1 = its reverse complement, only with
**   o->revcomp):
**     d(e) = min over s in [0, e] of dist(P, T[s, e))
**   where dist is the unit-cost edit distance, or with WM_METRIC_HAMMING only
**   s = e - m counts (the number of mismatching positions; e < m: no match).
**   When d(e) <= k the match {r, start, e, d(e), strand} is reported, with
**   start = the largest s such that dist(P, T[s, e)) = d(e).
**   Matches are sorted by (record, end, strand).
*/
#ifndef WM_ORACLE_H
#define WM_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

/* Every match of pattern `pat` (m bytes) in text `t` under options `o`
** (NULL = wm_opts_default() values, but computed here without the library).
** *out receives a malloc'd array (NULL when there are no matches) which the
** caller frees; the return value is its length. Aborts (assert) on arguments
** the library would refuse: m == 0, k >= m, revcomp of a pattern that is not
** made of IUPAC nucleotide letters, or out-of-memory. */
size_t oracle_search(const uint8_t *pat, size_t m, const wm_opts_t *o, const wm_text_t *t,
                     wm_match_t **out);

/* Unit-cost edit (Levenshtein) distance of a[0,n) and b[0,m), byte equality. */
size_t oracle_edit_distance(const uint8_t *a, size_t n, const uint8_t *b, size_t m);

/* Does pattern byte p match text byte c under options o? (The equality the
** oracle uses; exposed so tests can build expectations by hand.) */
int oracle_char_match(uint8_t p, uint8_t c, const wm_opts_t *o);

/* The 4-bit base set (A=1, C=2, G=4, T=8) of an IUPAC code, either case, U as
** T; 0 for a byte that is not an IUPAC nucleotide letter. */
unsigned oracle_iupac_set(uint8_t code);

/* Complement of an IUPAC code, preserving case; 0 when `code` is not one. */
uint8_t oracle_iupac_complement(uint8_t code);

/* Definition-level brute force: like oracle_search but computing
** dist(P, T[s, e)) separately for every (s, e) pair. Hopelessly slow (only for
** texts of a few dozen bytes); used to check oracle_search itself. */
size_t oracle_search_naive(const uint8_t *pat, size_t m, const wm_opts_t *o, const wm_text_t *t,
                           wm_match_t **out);

#endif /* WM_ORACLE_H */
