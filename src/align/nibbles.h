/*
** nibbles.h -- sequences four bits a symbol, for the GPU's pairs: a DNA
** batch of 300 MB goes up as 150 MB, and is written into pinned staging
** at half the bytes. The host's packing and the upload were most of a
** million short pairs' call (BENCHMARKS section 19); the kernels read a
** nibble where they read a byte.
**
** A nibble holds the symbol's code (0..14) or 15, which matches nothing
** (DNA's N and every byte that is not a base). Symbol s of a packed
** stream is the low nibble of byte s / 2 when s is even, the high one when
** odd; a stream is always packed from an even symbol on, so two packers
** never write the same byte.
*/
#ifndef WM_ALIGN_NIBBLES_H
#define WM_ALIGN_NIBBLES_H

#include <stddef.h>
#include <stdint.h>

#include "core/simd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_NIB_NONE 15 /* the code that matches nothing */

typedef struct {
    uint8_t map[256]; /* byte -> nibble */
    /* for PSHUFB: the high nibbles that hold a symbol, and for each the
    ** nibbles of its 16 bytes by low nibble (WM_NIB_NONE where none) */
    uint8_t n_hi;
    uint8_t hi[16];
    uint8_t lo[16][16];
    /* fast: a byte's nibble follows from its low nibble l alone, once the
    ** byte, masked by fmask (0xff, or 0xdf to fold case), is the one byte
    ** fexp[l] that l allows: DNA's A C G T U are 1 3 7 4 5 in either case.
    ** Two lookups and a compare a vector instead of one per high nibble. */
    int fast;
    uint8_t fmask;
    uint8_t ftab[16];  /* the nibble of low nibble l (WM_NIB_NONE: none) */
    uint8_t fexp[16];  /* the masked byte l allows (none: one whose low nibble is not l) */
    wm_simd_isa_t isa; /* the variant wm_nib_pack runs */
} wm_nib_map_t;

/* The map of an alphabet of ncodes (<= 15) symbols, code[b] its byte's
** code (>= ncodes: matches nothing); max_isa bounds the SIMD used. */
void wm_nib_map_make(wm_nib_map_t *nm, const uint8_t code[256], uint32_t ncodes,
                     wm_simd_isa_t max_isa);

/* n symbols of src into dst, from dst's low nibble on: dst[k] = map[src[2k]]
** | map[src[2k + 1]] << 4, and for an odd n the last byte's high nibble
** WM_NIB_NONE. Writes (n + 1) / 2 bytes. */
void wm_nib_pack(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst);

#if WM_SIMD_X86
/* nibbles_avx2.c: wm_nib_pack with AVX2 */
void wm_nib_pack_avx2(const wm_nib_map_t *nm, const uint8_t *src, size_t n, uint8_t *dst);
#endif

#ifdef __cplusplus
}
#endif
#endif /* WM_ALIGN_NIBBLES_H */
