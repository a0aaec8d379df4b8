/*
** test_nibbles.c -- sequences packed four bits a symbol for the GPU's pairs
** (src/align/nibbles.c, nibbles_avx2.c), scalar and AVX2, against a byte
** by byte reference:
**   - the DNA map (A C G T/U of both cases 0..3, every other byte none),
**     which must take the fast form (a byte's nibble by its low nibble);
**     letters of distinct low nibbles, in one case or both (the fast form
**     with either mask), now and then with one byte more that breaks it;
**     and random alphabets of 1 to 15 codes over any bytes, >= 0x80 and NUL
**     among them, so that 1 to 16 high nibbles hold a symbol;
**   - lengths 0..300 (around the AVX2 loop's 64-symbol steps and its
**     scalar tail, odd ones ending in a half byte) and a few thousand, from
**     sources at every alignment;
**   - a guard byte after the (n + 1) / 2 written must be left as it was.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align/nibbles.h"
#include "harness.h"
#include "rng.h"

static long n_fast, n_maps; /* maps that took the fast form, of all */

/* The map of an alphabet: kind 0 random codes on random bytes, 1 DNA's,
** 2 letters of distinct low nibbles (one case or both). */
static void make_code(uint8_t code[256], uint32_t *ncodes, int kind) {
    if (kind == 1) {
        memset(code, 4, 256);
        static const char *const bases[4] = { "Aa", "Cc", "Gg", "TtUu" };
        for (int b = 0; b < 4; b++)
            for (const char *p = bases[b]; *p; p++) code[(uint8_t)*p] = (uint8_t)b;
        *ncodes = 4;
        return;
    }
    *ncodes = 1 + (uint32_t)below(15);
    for (int b = 0; b < 256; b++) code[b] = (uint8_t)(*ncodes + below(256 - *ncodes)); /* none */
    if (kind == 2) {
        int both = chance(50);
        for (int l = 0; l < 16; l++) {
            if (chance(40)) continue;
            uint8_t b = (uint8_t)(0x40 + 16 * below(2) + l), c = (uint8_t)below(*ncodes);
            code[b] = c;
            if (both) code[b ^ 0x20] = c;
        }
        if (chance(20)) code[below(256)] = (uint8_t)below(*ncodes); /* may break the form */
        return;
    }
    int per = 1 + (int)below(20); /* bytes a code */
    for (uint32_t c = 0; c < *ncodes; c++)
        for (int k = 0; k < per; k++) code[below(256)] = (uint8_t)c;
}

/* A source byte: mostly ones with a code, now and then any. */
static uint8_t any_byte(const uint8_t code[256], uint32_t ncodes) {
    for (int tries = 0; tries < 8 && !chance(10); tries++) {
        uint8_t b = (uint8_t)below(256);
        if (code[b] < ncodes) return b;
    }
    return (uint8_t)below(256);
}

static void one_case(int kind, size_t n, size_t misalign, wm_simd_isa_t isa) {
    uint8_t code[256];
    uint32_t ncodes;
    make_code(code, &ncodes, kind);
    wm_nib_map_t nm;
    wm_nib_map_make(&nm, code, ncodes, isa);
    n_fast += nm.fast;
    n_maps++;
    if (kind == 1) CHECK(nm.fast, "the DNA map takes the fast form");
    uint8_t *src = xmalloc(n + misalign + 1), *s = src + misalign;
    for (size_t i = 0; i < n; i++) s[i] = any_byte(code, ncodes);
    size_t bytes = (n + 1) / 2;
    uint8_t *got = xmalloc(bytes + 1), *want = xmalloc(bytes + 1);
    memset(got, 0xa5, bytes + 1);
    for (size_t i = 0; i < bytes; i++) {
        uint8_t lo = code[s[2 * i]] < ncodes ? code[s[2 * i]] : WM_NIB_NONE;
        uint8_t hi =
            2 * i + 1 < n && code[s[2 * i + 1]] < ncodes ? code[s[2 * i + 1]] : WM_NIB_NONE;
        want[i] = (uint8_t)(lo | hi << 4);
    }
    want[bytes] = 0xa5;
    wm_nib_pack(&nm, s, n, got);
    size_t bad = bytes + 1;
    for (size_t i = 0; i <= bytes && bad > bytes; i++)
        if (got[i] != want[i]) bad = i;
    CHECK(bad > bytes,
          "%s map (%u codes, %s form), %zu symbols from offset %zu, isa %d: byte %zu is %02x, "
          "not %02x",
          kind == 1   ? "DNA"
          : kind == 2 ? "letters"
                      : "random",
          ncodes, nm.fast ? "fast" : "table", n, misalign, (int)nm.isa, bad,
          bad <= bytes ? got[bad] : 0, bad <= bytes ? want[bad] : 0);
    free(src);
    free(got);
    free(want);
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 20261128, NULL, NULL);
    g_rng = g_seed;
    const wm_simd_isa_t isas[] = { WM_SIMD_NONE, WM_SIMD_AUTO };
    printf("test_nibbles: this CPU's widest SIMD %d (3: AVX2)\n", (int)wm_simd_cpu_isa());
    for (size_t k = 0; k < N_OF(isas); k++)
        for (int kind = 0; kind < 3; kind++) {
            for (size_t n = 0; n <= 300; n++) one_case(kind, n, below(32), isas[k]);
            for (int r = 0; r < 20; r++) one_case(kind, 1000 + below(5000), below(32), isas[k]);
        }
    printf("test_nibbles: %ld of %ld maps in the fast form\n", n_fast, n_maps);
    CHECK(n_fast > n_maps / 4 && n_fast < n_maps, "both forms ran: %ld fast of %ld", n_fast,
          n_maps);
    return test_finish();
}
