/*
** nibbles.c -- nibbles.h's map and its scalar packer; the AVX2 one is in
** nibbles_avx2.c.
*/
#include <string.h>

#include "align/nibbles.h"

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
    nm->isa = wm_simd_isa_pick(max_isa);
}

void wm_nib_pack(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst) {
    size_t i = 0;
#if WM_SIMD_X86
    if (nm->isa >= WM_SIMD_AVX2) i = wm_nib_pack_avx2(nm, src, n, dst);
#endif
    const uint8_t *map = nm->map;
    for (; i + 2 <= n; i += 2) dst[i / 2] = (uint8_t)(map[src[i]] | map[src[i + 1]] << 4);
    if (i < n) dst[i / 2] = (uint8_t)(map[src[i]] | WM_NIB_NONE << 4);
}
