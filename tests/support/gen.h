/*
** gen.h -- random inputs that several differential tests generate alike:
** bytes of DNA files, the alphabets of the pairwise tests (align, global)
** with their edits and "disguises" (changes the oracle must see as no
** change), record layouts over a text and where to plant an occurrence in
** them. Each draws from g_rng in a fixed order, so the tests' cases are
** what they were when each test had its own copy.
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
uint8_t rand_dna_byte(void);                 /* rand_dna_mix(&DNA_FILE) */

/* The first n of all 256 byte values in a random order (a partial
** Fisher-Yates shuffle): n distinct random symbols. */
void random_symbols(uint8_t *sym, size_t n);

/* ---- the alphabets of the pairwise tests ------------------------------------------ */

typedef enum {
    AK_BIN,        /* BYTES, '0'/'1' or bytes 0/1                               */
    AK_ACGT,       /* BYTES, ACGT                                               */
    AK_PROT20,     /* BYTES, the 20 amino acids                                 */
    AK_BYTE256,    /* BYTES, every byte value (NUL included)                    */
    AK_SMALL,      /* BYTES, 3..16 random bytes                                 */
    AK_ONE,        /* BYTES, one symbol with rare defects                       */
    AK_CI,         /* BYTES, letters of both cases, case_insensitive            */
    AK_DNA,        /* the DNA alphabet, bytes as files have them                */
    AK_COUNT
} alpha_kind;

extern const char *const AK_NAME[AK_COUNT];

typedef struct {
    alpha_kind kind;
    uint8_t sym[256];     /* the symbols of random bytes                         */
    size_t n_sym;
    int letters;          /* AK_BYTE256: 80 % of the bytes from "abcdABCD"        */
    int fold;             /* case_insensitive: case flips are no change           */
    unsigned one_pct;     /* AK_ONE: the symbol this often, else any byte         */
} alphabet_t;

/* What the tests' alphabets differ in. */
typedef struct {
    unsigned one_pct;     /* AK_ONE's share of its one symbol                     */
    int byte256_letters;  /* AK_BYTE256 is letter-heavy half the time             */
    unsigned ci_pairs;    /* AK_CI: 1..ci_pairs letters, in both cases            */
} alphabet_style_t;

/* Draw a kind by weights, then its symbols and folding. */
void alphabet_pick(alphabet_t *a, const weighted_t *kinds, size_t n_kinds,
                   const alphabet_style_t *style);

/* A fixed alphabet of the given symbols (no folding, no DNA). */
void alphabet_of(alphabet_t *a, alpha_kind kind, const char *symbols);

/* A random byte of the alphabet. */
uint8_t alphabet_byte(const alphabet_t *a);

/* A byte the oracle sees as equal to x: case flips where they fold, T / U
** in DNA. Copies so changed still match. */
uint8_t alphabet_disguise(const alphabet_t *a, uint8_t x);

/* src[0, len) with n_edits random substitutions, insertions and deletions
** into out (room for len + n_edits), then disguised. Returns the length. */
size_t alphabet_mutate(const alphabet_t *a, const uint8_t *src, size_t len, size_t n_edits,
                       uint8_t *out);

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
