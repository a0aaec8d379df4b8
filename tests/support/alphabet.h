/*
** alphabet.h -- the alphabets of the pairwise differential tests (infix
** align, global align): their kinds and symbols, random bytes of them, and
** the edits and "disguises" (changes the oracle must see as no change: case
** flips where case folds, T / U in DNA) of the copies they plant. Draws
** come from g_rng in the order the tests' own copies drew them.
*/
#ifndef WM_TEST_ALPHABET_H
#define WM_TEST_ALPHABET_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

typedef enum {
    AK_BIN,     /* BYTES, '0'/'1' or bytes 0/1 */
    AK_ACGT,    /* BYTES, ACGT */
    AK_PROT20,  /* BYTES, the 20 amino acids */
    AK_BYTE256, /* BYTES, every byte value (NUL included) */
    AK_SMALL,   /* BYTES, 3..16 random bytes */
    AK_ONE,     /* BYTES, one symbol with rare defects */
    AK_CI,      /* BYTES, letters of both cases, case_insensitive */
    AK_DNA,     /* the DNA alphabet, bytes as files have them */
    AK_COUNT
} alpha_kind;

extern const char *const AK_NAME[AK_COUNT];

typedef struct {
    alpha_kind kind;
    uint8_t sym[256]; /* the symbols of random bytes */
    size_t n_sym;
    int letters;      /* AK_BYTE256: 80 % of the bytes from "abcdABCD" */
    int fold;         /* case_insensitive: case flips are no change */
    unsigned one_pct; /* AK_ONE: the symbol this often, else any byte */
} alphabet_t;

/* What the tests' alphabets differ in. */
typedef struct {
    unsigned one_pct;    /* AK_ONE's share of its one symbol */
    int byte256_letters; /* AK_BYTE256 is letter-heavy half the time */
    unsigned ci_pairs;   /* AK_CI: 1..ci_pairs letters, in both cases */
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

#endif /* WM_TEST_ALPHABET_H */
