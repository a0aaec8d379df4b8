/*
** nibbles.c -- nibbles.h's map and its scalar packer; the AVX2 one is in
** nibbles_avx2.c.
*/
#include <string.h>

#include "align/nibbles.h"

/* nibbles.h's fast form with mask M, if the map has one. */
static int fast_with(wm_nib_map_t *nm, uint8_t M) {
    for (int l = 0; l < 16; l++) {
        int have = 0;
        uint8_t want = 0, v = WM_NIB_NONE;
        for (int b = l; b < 256; b += 16) {
            if (nm->map[b] == WM_NIB_NONE) continue;
            if (!have) {
                have = 1;
                want = (uint8_t)(b & M);
                v = nm->map[b];
            } else if ((b & M) != want || nm->map[b] != v) {
                return 0;
            }
        }
        /* every byte the mask lets through must be one of them */
        for (int b = l; have && b < 256; b += 16)
            if ((b & M) == want && nm->map[b] != v) return 0;
        nm->ftab[l] = v;
        nm->fexp[l] = have ? want : (uint8_t)(l ^ 1);
    }
    nm->fmask = M;
    return 1;
}

void wm_nib_map_make(wm_nib_map_t *nm, const uint8_t code[256], uint32_t ncodes,
                     wm_simd_isa_t max_isa) {
    memset(nm, 0, sizeof *nm);
    memset(nm->lo, WM_NIB_NONE, sizeof nm->lo);
    int used[16] = { 0 };
    for (int b = 0; b < 256; b++) {
        uint8_t v = code[b] < ncodes && code[b] < WM_NIB_NONE ? code[b] : WM_NIB_NONE;
        nm->map[b] = v;
        if (v != WM_NIB_NONE) {
            used[b >> 4] = 1;
            nm->lo[b >> 4][b & 15] = v;
        }
    }
    /* the tables of the used high nibbles, first in hi[]'s order */
    for (int h = 0; h < 16; h++)
        if (used[h]) {
            memmove(nm->lo[nm->n_hi], nm->lo[h], 16);
            nm->hi[nm->n_hi++] = (uint8_t)h;
        }
    nm->fast = fast_with(nm, 0xff) || fast_with(nm, 0xdf);
    nm->isa = wm_simd_isa_pick(max_isa);
}

void wm_nib_pack(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst) {
#if WM_SIMD_X86
    if (nm->isa >= WM_SIMD_AVX2) {
        wm_nib_pack_avx2(nm, src, n, dst);
        return;
    }
#endif
    size_t i = 0;
    const uint8_t *map = nm->map;
    for (; i + 2 <= n; i += 2) dst[i / 2] = (uint8_t)(map[src[i]] | map[src[i + 1]] << 4);
    if (i < n) dst[i / 2] = (uint8_t)(map[src[i]] | WM_NIB_NONE << 4);
}
