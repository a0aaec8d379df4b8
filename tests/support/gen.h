/*
** gen.h -- random inputs that several differential tests generate alike:
** bytes of DNA files, random symbol sets, record layouts over a text and
** where to plant an occurrence in them (the alphabets of the pairwise tests
** are in alphabet.h). Each draws from g_rng in a fixed order, so the tests'
** cases are what they were when each test had its own copy.
*/
#ifndef WM_TEST_GEN_H
#define WM_TEST_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* ASCII letters change case; other bytes stay. */
uint8_t flip_case(uint8_t c);

/* ---- bytes of DNA --------------------------------------------------------------- */

/* How often each sort of byte comes, as running totals per mille: upper
** case ACGT, lower case acgt, N / n (70 : 30), U / u (even), one of
** `others`; the rest any byte value. */
typedef struct {
    unsigned upper, lower, n, u, other;
    const char *others;
} dna_mix_t;

/* As real files have them: mostly ACGT, some lower case, N, U, the other
** IUPAC codes and punctuation, a few of any value. */
extern const dna_mix_t DNA_FILE;
/* Soft-masked texts for the search tests: more lower case, fewer codes. */
extern const dna_mix_t DNA_SOFTMASKED;

uint8_t rand_dna_mix(const dna_mix_t *mix);
uint8_t rand_dna_byte(void); /* rand_dna_mix(&DNA_FILE) */

/* The first n of all 256 byte values in a random order (a partial
** Fisher-Yates shuffle): n distinct random symbols. */
void random_symbols(uint8_t *sym, size_t n);

/* ---- records and plants ---------------------------------------------------------- */

/* Record starts over a text of n bytes: none (one record, NULL) 40 % of the
** time, else 1, 2..8, 2..60 or 100..2,000 records, empty ones among them,
** a quarter of the time mostly shorter than typical_len. Returns the count
** (0 with *rec_start NULL); the caller frees *rec_start. */
size_t split_records(size_t n, size_t typical_len, uint64_t **rec_start);

/* Where an occurrence of m bytes goes in a text of n bytes (> 0) cut by
** rec_start (n_rec of them, or none): a record's start, its end, across
** its end, or anywhere. The result may be >= n (nothing to plant). */
size_t plant_pos(size_t n, const uint64_t *rec_start, size_t n_rec, size_t m);

#endif /* WM_TEST_GEN_H */
