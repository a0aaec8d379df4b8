/*
** gen.c -- the generators of gen.h.
*/
#include "gen.h"

#include <string.h>

#include "harness.h"

uint8_t flip_case(uint8_t c)
{
    if (c >= 'a' && c <= 'z') return (uint8_t)(c - 32);
    if (c >= 'A' && c <= 'Z') return (uint8_t)(c + 32);
    return c;
}

/* ---- bytes of DNA ------------------------------------------------------------------- */

const dna_mix_t DNA_FILE = { 820, 920, 950, 970, 990, "RYKMSWBDHV-*." };
const dna_mix_t DNA_SOFTMASKED = { 800, 930, 960, 975, 990, "-XRY*." };

uint8_t rand_dna_mix(const dna_mix_t *mix)
{
    uint64_t r = below(1000);
    if (r < mix->upper) return (uint8_t)"ACGT"[below(4)];
    if (r < mix->lower) return (uint8_t)"acgt"[below(4)];
    if (r < mix->n) return chance(70) ? 'N' : 'n';
    if (r < mix->u) return chance(50) ? 'U' : 'u';
    if (r < mix->other) return (uint8_t)mix->others[below(strlen(mix->others))];
    return (uint8_t)below(256);
}

uint8_t rand_dna_byte(void) { return rand_dna_mix(&DNA_FILE); }

void random_symbols(uint8_t *sym, size_t n)
{
    uint8_t all[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    for (size_t i = 0; i < n && i < 256; i++) {
        size_t j = i + (size_t)below(256 - i);
        uint8_t x = all[i]; all[i] = all[j]; all[j] = x;
        sym[i] = all[i];
    }
}

/* ---- the alphabets of the pairwise tests --------------------------------------------- */

const char *const AK_NAME[AK_COUNT] = {
    "bytes/2", "bytes/acgt", "bytes/20", "bytes/256", "bytes/small", "bytes/1",
    "bytes/letters -i", "dna"
};

void alphabet_of(alphabet_t *a, alpha_kind kind, const char *symbols)
{
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->n_sym = strlen(symbols);
    memcpy(a->sym, symbols, a->n_sym);
}

void alphabet_pick(alphabet_t *a, const weighted_t *kinds, size_t n_kinds,
                   const alphabet_style_t *style)
{
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
    case AK_ONE: a->sym[0] = (uint8_t)below(256); a->n_sym = 1; break;
    case AK_CI: {
        size_t nl = (size_t)range(1, style->ci_pairs);
        for (size_t i = 0; i < nl; i++) {
            uint8_t l = (uint8_t)('a' + below(26));
            a->sym[a->n_sym++] = l;
            a->sym[a->n_sym++] = flip_case(l);
        }
        if (chance(50)) {                      /* differ by 0x20 but do not fold */
            a->sym[a->n_sym++] = chance(50) ? '@' : '[';
            a->sym[a->n_sym++] = chance(50) ? '`' : '{';
        }
        a->fold = 1;
        break;
    }
    case AK_DNA:
        a->fold = chance(30);                  /* must change nothing */
        break;
    default:
        break;
    }
}

uint8_t alphabet_byte(const alphabet_t *a)
{
    if (a->kind == AK_DNA)
        return rand_dna_byte();
    if (a->kind == AK_ONE)
        return chance(a->one_pct) ? a->sym[0] : (uint8_t)below(256);
    if (a->letters && chance(80))
        return (uint8_t)"abcdABCD"[below(8)];
    return a->sym[below(a->n_sym)];
}

uint8_t alphabet_disguise(const alphabet_t *a, uint8_t x)
{
    if (a->kind == AK_DNA) {
        if (chance(20)) x = flip_case(x);
        uint8_t u = (uint8_t)(x | 0x20);
        if (u == 't' && chance(15)) x = (x == 't') ? 'u' : 'U';
        else if (u == 'u' && chance(50)) x = (x == 'u') ? 't' : 'T';
        return x;
    }
    if (a->fold && chance(30))
        return flip_case(x);
    return x;
}

size_t alphabet_mutate(const alphabet_t *a, const uint8_t *src, size_t len, size_t n_edits,
                       uint8_t *out)
{
    memcpy(out, src, len);
    for (size_t k = 0; k < n_edits; k++) {
        uint64_t w = below(3);
        if (w == 0 && len > 0) {                     /* substitution */
            out[below(len)] = alphabet_byte(a);
        } else if (w == 1 || len == 0) {             /* insertion */
            size_t at = (size_t)below(len + 1);
            memmove(out + at + 1, out + at, len - at);
            out[at] = alphabet_byte(a);
            len++;
        } else {                                     /* deletion */
            size_t at = (size_t)below(len);
            memmove(out + at, out + at + 1, len - at - 1);
            len--;
        }
    }
    for (size_t k = 0; k < len; k++)
        out[k] = alphabet_disguise(a, out[k]);
    return len;
}

/* ---- records and plants --------------------------------------------------------------- */

/* Record layouts and how often each comes. */
enum { RECS_NONE, RECS_ONE, RECS_FEW, RECS_SOME, RECS_MANY };
static const weighted_t LAYOUTS[] = {
    { RECS_NONE, 40 }, { RECS_ONE, 50 }, { RECS_FEW, 80 }, { RECS_SOME, 96 }, { RECS_MANY, 100 },
};

size_t split_records(size_t n, size_t typical_len, uint64_t **rec_start)
{
    size_t nr;
    switch (pick_weighted(LAYOUTS, N_OF(LAYOUTS))) {
    case RECS_NONE: *rec_start = NULL; return 0;          /* rec_start NULL: one record */
    case RECS_ONE: nr = 1; break;
    case RECS_FEW: nr = (size_t)range(2, 8); break;
    case RECS_SOME: nr = (size_t)range(2, 60); break;
    default: nr = (size_t)range(100, 2000); break;        /* many tiny records per chunk */
    }
    uint64_t *rs = xmalloc(nr * sizeof *rs);
    rs[0] = 0;
    int short_recs = chance(25);           /* records mostly shorter than typical_len */
    for (size_t i = 1; i < nr; i++) {
        uint64_t step;
        if (chance(15)) step = 0;                              /* an empty record */
        else if (short_recs) step = below(typical_len + 1);
        else step = below(2 * (n / nr) + 2);
        uint64_t s = rs[i - 1] + step;
        rs[i] = s > n ? n : s;
    }
    *rec_start = rs;
    return nr;
}

size_t plant_pos(size_t n, const uint64_t *rec_start, size_t n_rec, size_t m)
{
    size_t r = n_rec ? (size_t)below(n_rec) : 0;
    uint64_t beg = n_rec ? rec_start[r] : 0;
    uint64_t end = (n_rec && r + 1 < n_rec) ? rec_start[r + 1] : n;
    uint64_t w = below(4);
    if (w == 0) return (size_t)beg;                                        /* record start */
    if (w == 1) return end >= beg + m ? (size_t)(end - m) : (size_t)beg;   /* record end */
    if (w == 2) return end > m / 2 ? (size_t)(end - m / 2) : 0;            /* across its end */
    return (size_t)below(n);
}
