/*
** moracle.h -- the brute-force reference for warpmatch's pattern sets
** (wm_compile_set + wm_search / wm_count / wm_count_per_pattern).
**
** Written for clarity and independent of src/: it includes only the public
** header (for the option, text and match types) and calls nothing from the
** library. test_multi_diff.c checks every set algorithm against it.
**
** The contract it implements (include/warpmatch.h, wm_compile_set):
**   for each record r of the text (rec_start / n_rec; n_rec = 0: one record),
**   each pattern i (0-based, duplicates each under their own index),
**   each strand: 0 = pattern i; 1 = its reverse complement (only with
**     o->revcomp): reversed, A<->T, C<->G, U -> A, the case of each letter kept,
**   each start s with s + len <= length of record r:
**     a match when every byte j of the searched string P matches text byte
**     T[s + j] of the record:
**       BYTES alphabet: P[j] == T[s+j], or with case_insensitive
**                       tolower(P[j]) == tolower(T[s+j]) (ASCII letters only);
**       DNA alphabet:   P[j] in {A,C,G,T,U} (either case) matches a text byte
**                       that is the same base in either case, U and T being
**                       one base (in the pattern and in the text); any other
**                       text byte (N, IUPAC codes, junk) matches nothing.
**   reported as { record r, start s, end s + len, errors 0, strand, pattern i },
**   sorted by (record, end, pattern, strand).
** max_edits, metric and algo are ignored (the library refuses k > 0).
*/
#ifndef WM_MORACLE_H
#define WM_MORACLE_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

/* Every match of the set (pattern i = pats[i], lens[i] bytes, n patterns) in
** text `t` under options `o` (NULL = all-zero options: BYTES, case-sensitive,
** one strand). *out receives a malloc'd array (NULL when there are no
** matches) which the caller frees; the return value is its length.
** Aborts (assert) on sets the library must refuse: n == 0, an empty pattern,
** DNA or revcomp with a pattern byte outside A/C/G/T/U (either case).
** Uses hashing of folded strings to be quick; moracle_search_naive below is
** the definition itself, and the test checks one against the other. */
size_t moracle_search(const uint8_t *const *pats, const size_t *lens, size_t n, const wm_opts_t *o,
                      const wm_text_t *t, wm_match_t **out);

/* counts[i] = the number of matches of pattern i (both strands) as
** moracle_search defines them; counts has n entries and is overwritten.
** Returns the total. Does not build the match list. */
uint64_t moracle_count_per_pattern(const uint8_t *const *pats, const size_t *lens, size_t n,
                                   const wm_opts_t *o, const wm_text_t *t, uint64_t *counts);

/* The definition, literally: for every record, start, pattern and strand,
** compare byte by byte with moracle_char_match. O(n_text * n * len); only for
** small cases. Same output as moracle_search. */
size_t moracle_search_naive(const uint8_t *const *pats, const size_t *lens, size_t n,
                            const wm_opts_t *o, const wm_text_t *t, wm_match_t **out);

/* Does searched-string byte p (a pattern byte, or a complemented one on
** strand 1) match text byte c under options o? */
int moracle_char_match(uint8_t p, uint8_t c, const wm_opts_t *o);

/* The complement of a nucleotide letter A C G T U (either case, U -> A),
** case kept; 0 for any other byte. */
uint8_t moracle_complement(uint8_t c);

/* 1 when byte c is one of A C G T U in either case. */
int moracle_is_nucleotide(uint8_t c);

/* What wm_compile_set must return for this set and these options when at
** most one thing is wrong with them (the contract does not order errors, so
** the test never makes two go wrong at once): WM_INVALID for n == 0,
** max_edits > 0, an algorithm other than AUTO and the set algorithms, a
** non-ACGTU pattern with DNA or revcomp, QGRAM with a pattern shorter than
** WM_QGRAM_MIN_LEN; WM_PATTERN_EMPTY for an empty pattern;
** WM_PATTERN_TOO_LONG for one over WM_MAX_PATTERN; else WM_OK.
** Checked in this order: n, k, algo, then pattern by pattern: empty, too
** long, not nucleotide, too short for QGRAM. */
wm_status moracle_set_status(const uint8_t *const *pats, const size_t *lens, size_t n,
                             const wm_opts_t *o);

#endif /* WM_MORACLE_H */
