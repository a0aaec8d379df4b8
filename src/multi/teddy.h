/*
** teddy.h -- small byte sets by nibble fingerprints (Hyperscan's "Teddy"):
** the tables that teddy.c builds and its AVX2 scan (teddy_avx2.c) reads.
**
** The strings go into 8 buckets. For each of a string's last f bytes
** (f = min(3, shortest string)), two 16-entry tables hold the buckets whose
** byte at that place may have a text byte's low nibble, and its high one:
** a window of f text bytes is a candidate for the buckets set in every
** place's two lookups. With PSHUFB the lookups take 32 windows at once;
** candidates are rare in text the strings do not resemble, and each is
** verified against its buckets' strings, which end where the window ends.
*/
#ifndef WM_MULTI_TEDDY_H
#define WM_MULTI_TEDDY_H

#include "multi/mset.h"

#define WM_TD_BUCKETS 8
#define WM_TD_MAXF 4

struct wm_teddy {
    uint32_t f;                         /* fingerprint bytes: the last f of every string */
    uint8_t lo[WM_TD_MAXF][16];         /* place p: buckets taking a byte of low nibble n */
    uint8_t hi[WM_TD_MAXF][16];         /* ... of high nibble n */
    uint32_t bstart[WM_TD_BUCKETS + 1]; /* bucket b: ids[bstart[b] .. bstart[b + 1]) */
    uint32_t *ids;                      /* uids, bucket by bucket */
    uint32_t *tail;                     /* beside ids: the last 4 bytes of a string of 4 or more */
    int ident;                          /* the set's fold is the identity: memcmp verifies */
};

/* Verify window w's candidate buckets (a byte mask) and report what ends at
** w + f, in the scan's terms (mset.h). 0, or -1 (no memory). */
int wm_teddy_verify(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t w,
                    uint32_t buckets, wm_msink_t *out);

/* Windows from `from` on, 32 at a time while all f places' loads stay below
** `to`; returns the first window not looked at, or UINT64_MAX (no memory). */
uint64_t wm_teddy_scan_avx2(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from,
                            uint64_t from, uint64_t to, wm_msink_t *out);

#endif
