/*
** test_qgram_bytes.c -- the CPU's q-gram index of byte sets by 4 and 8 bytes
** (src/multi/qgram_bytes.c) at its edges, against the set oracle
** (tests/oracle/moracle.c), with QGRAM and AUTO:
**   - sets with only strings of 4..7 bytes (side 1 empty), only strings of
**     8 and more (side 0 empty), and both; 1 to 2,000 patterns; strings
**     sharing their last 4 or 8 bytes (one bucket, one bitmap bit);
**   - case-sensitive sets (each end's code one load; on an AVX2 CPU 8 ends a
**     block) and case-insensitive ones (the folded bytes rolled in);
**   - texts of 0..300 bytes and a few thousand: occurrences planted at the
**     buffer's first 8 bytes (rolled, before the first load), in its last 7
**     (after the last 8-end block), across record borders (never reported)
**     and right after them; records shorter than a pattern;
**   - contexts of 1 and 3 threads, default and tiny chunks (occurrences
**     straddle chunk borders), listing and counting.
** test_multi_diff.c covers the set algorithms at large; this test makes
** sure each of these edges is met, on every run.
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

#define MAX_LEN 64

typedef setcase_t qcase;

static void describe(const void *p) {
    const qcase *c = p;
    printf("  set kind %d (0: 4-7 bytes, 1: 8+, 2: both), %zu patterns, %s; text %zu bytes, "
           "%zu records\n",
           c->kind, c->n_pats, c->icase ? "case-insensitive" : "case-sensitive", c->n_text,
           c->n_rec);
    for (size_t i = 0; i < c->n_pats && i < 6; i++)
        printf("    pattern %zu: '%.*s'\n", i, (int)c->lens[i], (const char *)c->pats[i]);
    print_text(c->text, c->n_text, c->rec_start, c->n_rec);
}

/* Bytes from a small alphabet (so that planted strings also occur by
** chance), letters of both cases when the set is case-insensitive. */
static uint8_t any_byte(const qcase *c) {
    static const char lower[] = "abcd", upper[] = "ABCD";
    if (chance(3)) return (uint8_t)below(256); /* now and then any byte */
    return (uint8_t)(c->icase && chance(50) ? upper[below(4)] : lower[below(4)]);
}

static size_t pick_len(int kind) {
    int k = kind == 2 ? (int)below(2) : kind;
    return k == 0       ? (size_t)range(4, 7)
           : chance(70) ? (size_t)range(8, 16)
                        : (size_t)range(17, MAX_LEN);
}

static void make_case(qcase *c) {
    memset(c, 0, sizeof *c);
    c->kind = (int)below(3);
    c->icase = chance(40);
    static const size_t NP[] = { 1, 2, 3, 7, 70, 600, 2000 };
    c->n_pats = NP[below(sizeof NP / sizeof *NP)];
    c->n_text = chance(50) ? (size_t)below(301) : (size_t)range(1000, 6000);
    c->text = malloc(c->n_text ? c->n_text : 1);
    for (size_t j = 0; j < c->n_text; j++) c->text[j] = any_byte(c);
    /* records: one, or several with borders anywhere (some shorter than 4) */
    c->rec_start = setcase_records(c->n_text, &c->n_rec);
    for (size_t i = 0; i < c->n_pats; i++) {
        size_t len = pick_len(c->kind);
        c->lens[i] = len;
        c->pats[i] = malloc(len);
        if (i > 0 && chance(25)) {
            /* shares its last 4 or 8 bytes with an earlier pattern */
            size_t e = below(i), k = c->lens[e] < len ? c->lens[e] : len;
            size_t tail = k >= 8 && chance(50) ? 8 : 4;
            for (size_t j = 0; j < len; j++) c->pats[i][j] = any_byte(c);
            memcpy(c->pats[i] + len - tail, c->pats[e] + c->lens[e] - tail, tail);
        } else if (c->n_text >= len && chance(60)) {
            memcpy(c->pats[i], c->text + below(c->n_text - len + 1), len); /* occurs */
        } else {
            for (size_t j = 0; j < len; j++) c->pats[i][j] = any_byte(c);
        }
    }
    /* plant patterns at the edges: the first 8 bytes, the last 7, across and
    ** right after record borders */
    for (int p = 0; p < 6 && c->n_text > 0; p++) {
        size_t i = below(c->n_pats), len = c->lens[i];
        if (len > c->n_text) continue;
        size_t at;
        switch (p) {
        case 0: at = below(8 < c->n_text - len + 1 ? 8 : c->n_text - len + 1); break;
        case 1: { /* ending in the last 8 bytes, after the last full block */
            size_t room = c->n_text - len;
            at = room - below((room < 7 ? room : 7) + 1);
            break;
        }
        case 2: at = c->n_text - len; break;
        default: {
            uint64_t b = c->rec_start[below(c->n_rec)];
            at = b >= len / 2 ? b - len / 2 : 0; /* across a border, or after it */
            if (p == 5) at = b;
            if (at + len > c->n_text) at = c->n_text - len;
        }
        }
        memcpy(c->text + at, c->pats[i], len);
        if (c->icase) setcase_other_case(c->text + at, len); /* the planted copy */
    }
}

int main(int argc, char **argv) {
    return setcase_main("test_qgram_bytes", argc, argv, 20261126ull, 400, describe, make_case,
                        WM_ALGO_QGRAM, "qgram");
}
