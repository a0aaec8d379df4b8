/*
** test_teddy.c -- small byte sets by nibble fingerprints (src/multi/teddy.c,
** teddy_avx2.c) at their edges, against the set oracle
** (tests/oracle/moracle.c), with TEDDY and AUTO:
**   - 1 to 40 strings (3 fingerprint places up to 16 strings, 4 past), of
**     1 to 24 bytes, so that f (the places, at most the shortest string) is
**     1, 2, 3 or 4; strings sharing their last bytes (one bucket's tables),
**     bytes >= 0x80 and NUL among them;
**   - case-sensitive sets (memcmp verifies) and case-insensitive ones (the
**     nibble tables take both cases, the fold verifies);
**   - texts of 0..300 bytes and a few thousand, occurrences planted at the
**     first bytes, about the AVX2 loop's 64- and 32-window steps (window
**     offsets 28..36 and 60..68 from a step's start), in the last 70 bytes
**     (the steps' tail, a window at a time), across record borders (never
**     reported) and right after them;
**   - contexts of 1 and 3 threads, default and tiny chunks (each chunk a
**     scan of its own: the scalar loop), listing and counting.
** test_multi_diff.c runs teddy among every set algorithm at large; this
** test makes sure each of these edges is met, on every run.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"
#include "setcase.h"
#include "warpmatch.h"

#define MAX_LEN 24

typedef setcase_t tcase;

static void describe(const void *p) {
    const tcase *c = p;
    printf("  %zu patterns, %s; text %zu bytes, %zu records\n", c->n_pats,
           c->icase ? "case-insensitive" : "case-sensitive", c->n_text, c->n_rec);
    for (size_t i = 0; i < c->n_pats && i < 6; i++) {
        printf("    pattern %zu:", i);
        for (size_t j = 0; j < c->lens[i]; j++) printf(" %02x", c->pats[i][j]);
        printf("\n");
    }
    print_text(c->text, c->n_text, c->rec_start, c->n_rec);
}

/* Bytes from a small alphabet (planted strings also occur by chance; nibbles
** shared between bytes), letters of both cases when the set folds case. */
static uint8_t any_byte(const tcase *c) {
    static const uint8_t few[] = { 'a', 'b', 'q', 0xe1, 0x00, 'A', 'B' };
    if (chance(3)) return (uint8_t)below(256); /* now and then any byte */
    uint8_t x = few[below(c->icase ? 7 : 5)];
    return x;
}

static void make_case(tcase *c) {
    memset(c, 0, sizeof *c);
    c->icase = chance(40);
    static const size_t NP[] = { 1, 2, 3, 8, 9, 16, 17, 24, 40 };
    c->n_pats = NP[below(sizeof NP / sizeof *NP)];
    size_t shortest = (size_t)range(1, 6); /* f = min(places, shortest) */
    c->n_text = chance(50) ? (size_t)below(301) : (size_t)range(1000, 6000);
    c->text = malloc(c->n_text ? c->n_text : 1);
    for (size_t j = 0; j < c->n_text; j++) c->text[j] = any_byte(c);
    c->rec_start = setcase_records(c->n_text, &c->n_rec);
    for (size_t i = 0; i < c->n_pats; i++) {
        size_t len = i == 0 ? shortest : (size_t)range(shortest, MAX_LEN);
        c->lens[i] = len;
        c->pats[i] = malloc(len);
        if (i > 0 && chance(25)) { /* shares its last bytes with an earlier string */
            size_t e = below(i), k = c->lens[e] < len ? c->lens[e] : len;
            for (size_t j = 0; j < len; j++) c->pats[i][j] = any_byte(c);
            memcpy(c->pats[i] + len - k, c->pats[e] + c->lens[e] - k, k);
        } else if (c->n_text >= len && chance(60)) {
            memcpy(c->pats[i], c->text + below(c->n_text - len + 1), len); /* occurs */
        } else {
            for (size_t j = 0; j < len; j++) c->pats[i][j] = any_byte(c);
        }
    }
    /* plant strings at the edges */
    for (int p = 0; p < 8 && c->n_text > 0; p++) {
        size_t i = below(c->n_pats), len = c->lens[i];
        if (len > c->n_text) continue;
        size_t room = c->n_text - len, at;
        switch (p) {
        case 0: at = below((room < 4 ? room : 4) + 1); break;
        case 1: at = 28 + below(9); break; /* a window about the 32-window step */
        case 2: at = 60 + below(9); break; /* about the 64-window step */
        case 3: at = room - below((room < 70 ? room : 70) + 1); break;
        case 4: at = room; break;
        default: {
            uint64_t b = c->rec_start[below(c->n_rec)];
            at = b >= len / 2 ? b - len / 2 : 0; /* across a border, or after it */
            if (p == 7) at = b;
        }
        }
        if (at > room) at = room;
        memcpy(c->text + at, c->pats[i], len);
        if (c->icase) setcase_other_case(c->text + at, len); /* the planted copy */
    }
}

int main(int argc, char **argv) {
    return setcase_main("test_teddy", argc, argv, 20261127ull, 3000, describe, make_case,
                        WM_ALGO_TEDDY, "teddy");
}
