/*
** alphabet.c -- the pairwise tests' alphabets (alphabet.h).
*/
#include "alphabet.h"

#include <string.h>

#include "gen.h"

const char *const AK_NAME[AK_COUNT] = { "bytes/2",          "bytes/acgt",  "bytes/20",
                                        "bytes/256",        "bytes/small", "bytes/1",
                                        "bytes/letters -i", "dna" };

void alphabet_of(alphabet_t *a, alpha_kind kind, const char *symbols) {
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->n_sym = strlen(symbols);
    memcpy(a->sym, symbols, a->n_sym);
}

void alphabet_pick(alphabet_t *a, const weighted_t *kinds, size_t n_kinds,
                   const alphabet_style_t *style) {
    memset(a, 0, sizeof *a);
    a->kind = (alpha_kind)pick_weighted(kinds, n_kinds);
    a->one_pct = style->one_pct;
    switch (a->kind) {
    case AK_BIN:
        a->sym[0] = chance(50) ? '0' : 0;
        a->sym[1] = (uint8_t)(a->sym[0] + 1);
        a->n_sym = 2;
        break;
    case AK_ACGT: alphabet_of(a, AK_ACGT, "ACGT"); break;
    case AK_PROT20: alphabet_of(a, AK_PROT20, "ACDEFGHIKLMNPQRSTVWY"); break;
    case AK_BYTE256:
        for (int i = 0; i < 256; i++) a->sym[i] = (uint8_t)i;
        a->n_sym = 256;
        if (style->byte256_letters) a->letters = chance(50);
        a->fold = chance(25);
        break;
    case AK_SMALL:
        a->n_sym = (size_t)range(3, 16);
        random_symbols(a->sym, a->n_sym);
        break;
    case AK_ONE:
        a->sym[0] = (uint8_t)below(256);
        a->n_sym = 1;
        break;
    case AK_CI: {
        size_t nl = (size_t)range(1, style->ci_pairs);
        for (size_t i = 0; i < nl; i++) {
            uint8_t l = (uint8_t)('a' + below(26));
            a->sym[a->n_sym++] = l;
            a->sym[a->n_sym++] = flip_case(l);
        }
        if (chance(50)) { /* differ by 0x20 but do not fold */
            a->sym[a->n_sym++] = chance(50) ? '@' : '[';
            a->sym[a->n_sym++] = chance(50) ? '`' : '{';
        }
        a->fold = 1;
        break;
    }
    case AK_DNA:
        a->fold = chance(30); /* must change nothing */
        break;
    default: break;
    }
}

uint8_t alphabet_byte(const alphabet_t *a) {
    if (a->kind == AK_DNA) return rand_dna_byte();
    if (a->kind == AK_ONE) return chance(a->one_pct) ? a->sym[0] : (uint8_t)below(256);
    if (a->letters && chance(80)) return (uint8_t) "abcdABCD"[below(8)];
    return a->sym[below(a->n_sym)];
}

uint8_t alphabet_disguise(const alphabet_t *a, uint8_t x) {
    if (a->kind == AK_DNA) {
        if (chance(20)) x = flip_case(x);
        uint8_t u = (uint8_t)(x | 0x20);
        if (u == 't' && chance(15)) x = (x == 't') ? 'u' : 'U';
        else if (u == 'u' && chance(50)) x = (x == 'u') ? 't' : 'T';
        return x;
    }
    if (a->fold && chance(30)) return flip_case(x);
    return x;
}

size_t alphabet_mutate(const alphabet_t *a, const uint8_t *src, size_t len, size_t n_edits,
                       uint8_t *out) {
    memcpy(out, src, len);
    for (size_t k = 0; k < n_edits; k++) {
        uint64_t w = below(3);
        if (w == 0 && len > 0) { /* substitution */
            out[below(len)] = alphabet_byte(a);
        } else if (w == 1 || len == 0) { /* insertion */
            size_t at = (size_t)below(len + 1);
            memmove(out + at + 1, out + at, len - at);
            out[at] = alphabet_byte(a);
            len++;
        } else { /* deletion */
            size_t at = (size_t)below(len);
            memmove(out + at, out + at + 1, len - at - 1);
            len--;
        }
    }
    for (size_t k = 0; k < len; k++) out[k] = alphabet_disguise(a, out[k]);
    return len;
}
