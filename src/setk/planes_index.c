/*
** planes_index.c -- a group's pigeonhole index (planes.h): k + 1 blocks of
** the middle, and for each block and key the patterns whose bases there
** accept that key, their masks laid out slot by slot so that a window's
** bucket is read in order (and eight slots a vector in planes_avx512.c).
**
** Whether a group gets one (the rule, wm_tuning_t.planes_index):
** - 0, the default: blocks of at least 3 bases (64 keys), 4^w >= 8 (k + 1),
**   and at least IX_MIN_GROUP patterns. The tile tries a window against a
**   pattern in about one instruction a pair (eight with AVX-512); a probe
**   pays k + 1 keys and bucket reads first, which a group of a few dozen
**   patterns does not repay.
** - 1: every group whose middle holds k + 1 blocks (tests: every shape);
** - -1: none (benchmarks: the tile alone).
*/
#include <stdlib.h>
#include <string.h>

#include "setk/planes.h"

#define IX_MIN_GROUP 64

/* The accepted keys of entry e's block at..at+wd-1 into keys (at most
** IX_MAX_KEYS); their count, or IX_MAX_KEYS + 1 when there are more. */
static uint32_t block_keys(const entry_t *e, uint32_t at, uint32_t wd, uint32_t *keys) {
    uint32_t n = 1;
    keys[0] = 0;
    for (uint32_t j = 0; j < wd; j++) {
        uint32_t grown = 0, next[IX_MAX_KEYS];
        for (uint32_t b = 0; b < 4; b++) {
            if (!(e->accept[b] >> (at + j) & 1)) continue;
            for (uint32_t x = 0; x < n; x++) {
                if (grown == IX_MAX_KEYS) return IX_MAX_KEYS + 1;
                next[grown++] = keys[x] | (b & 1u) << j | (b >> 1) << (wd + j);
            }
        }
        n = grown;
        memcpy(keys, next, n * sizeof *keys);
        if (n == 0) return 0; /* a position that accepts no base: never exact */
    }
    return n;
}

ix_t *wm_setk_ix_new(const entry_t *first, const entry_t *last, uint32_t k, int rule,
                     uint8_t *loose, int *failed) {
    *failed = 0;
    size_t n = (size_t)(last - first);
    uint64_t mid = first->middle;
    if (rule < 0 || mid == 0) return NULL;
    uint32_t lo = (uint32_t)__builtin_ctzll(mid), span = 64 - (uint32_t)__builtin_clzll(mid) - lo;
    uint32_t nb = k + 1, stride = span / nb;
    if (stride == 0 || nb > IX_MAX_BLOCKS) return NULL; /* k + 1 blocks do not fit */
    uint32_t wd = stride < IX_MAX_W ? stride : IX_MAX_W;
    /* no more keys than 4 a pattern: the offsets (4^w a block) stay within
    ** a few words a pattern however many groups there are */
    while (wd > 1 && (1ull << 2 * wd) > 4 * (uint64_t)n) wd--;
    if (rule == 0 && (wd < 3 || (1ull << 2 * wd) < 8ull * nb || n < IX_MIN_GROUP)) return NULL;

    ix_t *ix = calloc(1, sizeof *ix);
    if (!ix) {
        *failed = 1;
        return NULL;
    }
    ix->n_blocks = nb;
    ix->w = wd;
    ix->middle = mid;
    for (uint32_t b = 0; b < nb; b++) {
        ix->at[b] = lo + b * stride;
        ix->bmask[b] = ((1ull << wd) - 1) << ix->at[b];
    }
    size_t keys_a_block = (size_t)1 << 2 * wd, n_off = nb * keys_a_block + 1;
    uint32_t keys[IX_MAX_KEYS];
    /* which entries are loose, and how many slots each (block, key) holds */
    ix->off = calloc(n_off, sizeof *ix->off);
    if (!ix->off) goto oom;
    size_t slots = 0;
    for (size_t x = 0; x < n; x++) {
        loose[x] = 0;
        for (uint32_t b = 0; b < nb && !loose[x]; b++)
            loose[x] = block_keys(&first[x], ix->at[b], wd, keys) > IX_MAX_KEYS;
        for (uint32_t b = 0; b < nb && !loose[x]; b++) {
            uint32_t c = block_keys(&first[x], ix->at[b], wd, keys);
            for (uint32_t y = 0; y < c; y++) ix->off[b * keys_a_block + keys[y] + 1]++;
            slots += c;
        }
    }
    for (size_t i = 1; i < n_off; i++) ix->off[i] += ix->off[i - 1];
    for (int b = 0; b < 4; b++) {
        ix->acc[b] = malloc((slots ? slots : 1) * sizeof *ix->acc[b]);
        if (!ix->acc[b]) goto oom;
    }
    ix->entry = malloc((slots ? slots : 1) * sizeof *ix->entry);
    if (!ix->entry) goto oom;
    /* fill, moving each (block, key)'s start up to its end: off[i] becomes
    ** the start of i + 1, so shift back afterwards */
    for (size_t x = 0; x < n; x++) {
        if (loose[x]) continue;
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t c = block_keys(&first[x], ix->at[b], wd, keys);
            for (uint32_t y = 0; y < c; y++) {
                uint32_t at = ix->off[b * keys_a_block + keys[y]]++;
                for (int q = 0; q < 4; q++) ix->acc[q][at] = first[x].accept[q];
                ix->entry[at] = (uint32_t)x;
            }
        }
    }
    memmove(ix->off + 1, ix->off, (n_off - 1) * sizeof *ix->off);
    ix->off[0] = 0;
    return ix;
oom:
    wm_setk_ix_free(ix);
    *failed = 1;
    return NULL;
}

void wm_setk_ix_free(ix_t *ix) {
    if (!ix) return;
    free(ix->off);
    for (int b = 0; b < 4; b++) free(ix->acc[b]);
    free(ix->entry);
    free(ix);
}

/* The probe, inlined into a build with the popcnt instruction and one
** without (planes.c's flush says why). */
static inline __attribute__((always_inline)) int probe_body(const ix_t *ix, const entry_t *e,
                                                            const uint64_t w[4], uint64_t end,
                                                            size_t rec, uint64_t rb, uint32_t k,
                                                            wm_matchvec_t *out) {
    size_t keys_a_block = (size_t)1 << 2 * ix->w;
    for (uint32_t b = 0; b < ix->n_blocks; b++) {
        int64_t key = ix_key(w, ix->at[b], ix->w);
        if (key < 0) continue;
        const uint32_t *o = &ix->off[b * keys_a_block + (size_t)key];
        for (uint32_t s = o[0]; s < o[1]; s++) {
            uint64_t hit = (w[0] & ix->acc[0][s]) | (w[1] & ix->acc[1][s]) |
                           (w[2] & ix->acc[2][s]) | (w[3] & ix->acc[3][s]);
            uint32_t errors = (uint32_t)__builtin_popcountll(ix->middle & ~hit);
            if (errors > k || ix_seen(ix, b, hit)) continue;
            if (planes_push(out, &e[ix->entry[s]], end, rec, rb, errors)) return -1;
        }
    }
    return 0;
}

static int probe_plain(const ix_t *ix, const entry_t *e, const uint64_t w[4], uint64_t end,
                       size_t rec, uint64_t rb, uint32_t k, wm_matchvec_t *out) {
    return probe_body(ix, e, w, end, rec, rb, k, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static int probe_popcnt(const ix_t *ix, const entry_t *e,
                                                          const uint64_t w[4], uint64_t end,
                                                          size_t rec, uint64_t rb, uint32_t k,
                                                          wm_matchvec_t *out) {
    return probe_body(ix, e, w, end, rec, rb, k, out);
}
#else
#define probe_popcnt probe_plain
#endif

int wm_setk_ix_probe(const ix_t *ix, const entry_t *e, const uint64_t w[4], uint64_t end,
                     size_t rec, uint64_t rb, uint32_t k, int popcnt, wm_matchvec_t *out) {
    return (popcnt ? probe_popcnt : probe_plain)(ix, e, w, end, rec, rb, k, out);
}
