/*
** setk.h -- a set of patterns within k errors (wm_compile_set with
** max_edits > 0): every pattern's own matches, as wm_compile of that pattern
** alone gives them, labelled with its index.
**
** How (seed and verify, full sensitivity): cut each pattern (each strand)
** into k + 1 pieces; an occurrence with at most k errors leaves one piece
** untouched (the pigeonhole principle), so it holds that piece exactly and
** ends within k (edit; 0 for Hamming) of where the piece's place says; cut
** into k + s pieces, it leaves s, whose places agree within k (s up to 3,
** as the pattern's length allows). One
** key of q symbols from every piece goes into one hash table (seeds.c); the
** text is scanned once, a rolling key per position (scan.c), and each key
** found gives its patterns a window of ends. The windows of a pattern are
** merged and verified by that pattern's own bit-parallel kernel (bitap or
** Myers, compiled as the scan meets the pattern), from a halo before each,
** so every end reported is the kernel's own, exactly as the single pattern
** reports it. A pattern whose pieces are too short to key (fewer than
** WM_SETK_QMIN symbols) is scanned whole instead ("direct").
**
** The body holds the patterns' bytes and the table only: the match tables
** of 10^6 patterns would not fit (a 150-byte pattern's are 24 KiB).
*/
#ifndef WM_SETK_SETK_H
#define WM_SETK_SETK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "core/internal.h"
#include "search/search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Key lengths, in symbols: DNA keys are 2 bits a base (at most 32 bases in
** a 64-bit key; 16 keep random hits at 4^-16 a key and position), byte keys
** 8 bits a byte. Shorter pieces than QMIN would flood the verifier with
** random hits: such patterns are scanned whole. */
#define WM_SETK_QMAX_DNA 16u
#define WM_SETK_QMIN_DNA 12u
#define WM_SETK_QMAX_BYTES 8u
#define WM_SETK_QMIN_BYTES 4u
/* A set of short DNA patterns only (primers: 20-25 bases at k = 2, pieces
** of 6-8) takes keys down to this many bases while its seeds stay sparse:
** at most WM_SETK_SHORT_LOAD seeds a key value, on average (a window a
** text position at most). Scanning each pattern whole costs a pass each. */
#define WM_SETK_QMIN_DNA_SHORT 6u
#define WM_SETK_SHORT_LOAD 0.5

/* One key of one piece: where the key starts in the pattern as searched on
** its strand (the reverse complement for strand 1), which piece it is, and
** how many pieces of the pattern must be found near one end before it is
** verified: with k + s pieces an occurrence leaves at least s untouched
** (an edit touches one piece at most), so a pattern long enough for k + 3
** pieces of q symbols asks three, else for k + 2 two, which cuts the windows
** of repeats (a piece of an Alu read occurs thousands of times in a genome,
** three seldom together: 150 bp reads at k = 4 against chrX kept 11.4 M of
** 75 M seeds asking two, and verifying them was 42% of the time). The GPU's
** pairing (setk_cuda.cu) asks as many, each within k of the seed's end. */
typedef struct {
    uint32_t pat;
    uint32_t key_off;
    uint16_t piece;
    uint8_t strand;
    uint8_t need; /* 1, 2 or 3 */
} wm_seed_t;

/* A seed with its key, as the compile makes them (in pattern, strand and
** piece order): what a table is built from. */
typedef struct {
    uint64_t code;
    wm_seed_t seed;
} wm_setk_keyed_seed_t;

typedef struct {
    size_t n;            /* patterns */
    uint64_t id;         /* unique in the process: what a GPU's copy of the tables is of */
    unsigned pat_bits;   /* bits of the largest index, n - 1 */
    const uint8_t **pat; /* pattern i: pat[i], len[i] bytes (into arena) */
    size_t *len;
    uint8_t *arena;
    wm_opts_t opts;  /* as given (k, metric, alphabet, revcomp, case) */
    uint32_t spread; /* how far an end may move: k (edit) or 0 */
    /* opts.exact_prefix / exact_suffix: seeds and windows are the middle's;
    ** on strand s a match ends suf[s] after its middle (strand 1: the
    ** reverse complement's regions, swapped). shift_max: the larger. */
    uint32_t pre[2], suf[2], shift_max;
    int dna;          /* keys of bases (else of bytes) */
    unsigned q;       /* key length in symbols; 0 when nothing is seeded */
    int16_t sym[256]; /* a text byte's key symbol, -1 for none */
    /* The keyed seeds (n_seeds of them), kept until the host's table is
    ** built from them. The table is built where it is first needed: on the
    ** host by wm_setk_host_table (the CPU's scan), on a GPU from these by
    ** its first batch (setk_cuda.cu). Building it on the host took 0.3 s of
    ** a million reads' 0.5 s compile on 16 cores, and uploading it moved
    ** 470 MB; a GPU run now never builds it on the host. The lock guards
    ** keyed and the building; once built (host_table), keyed is freed and a
    ** GPU uploads the host's table. */
    wm_setk_keyed_seed_t *keyed;
    int host_table;
    pthread_mutex_t lock;
    int lock_made;
    /* The host's table: slot[h] = 1 + u for key u (0 = empty), linear
    ** probing; key u's seeds are seed[first[u] .. first[u + 1]). */
    unsigned bits;
    uint32_t *slot;
    /* A bit per key hashed into 16 bits a key or so (at most 2^30): most
    ** text positions hold no key, and this answers them from cache where the
    ** slots would not (a set of 10^6 reads has 10^7 keys). */
    unsigned filter_bits;
    uint64_t *filter;
    uint64_t *key;
    uint32_t *first;
    size_t n_keys; /* distinct keys: 0 until the host's table is built */
    wm_seed_t *seed;
    size_t n_seeds;   /* the keyed seeds (0: nothing seeded) */
    uint32_t *direct; /* patterns scanned whole, in index order */
    size_t n_direct;
    uint64_t max_reach; /* the longest occurrence: max len + spread */
} wm_setk_t;

/* The length of pattern i's middle (all of it without exact regions). */
static inline size_t wm_setk_mid_len(const wm_setk_t *s, size_t i) {
    return s->len[i] - s->opts.exact_prefix - s->opts.exact_suffix;
}

/* Compile (seeds.c). Arguments as wm_compile_set's, max_edits > 0; the
** patterns are checked here as wm_compile checks one. The host's table is
** not built yet: */
wm_status wm_setk_compile(const uint8_t *const *patterns, const size_t *lens, size_t n,
                          const wm_opts_t *o, wm_setk_t **out);
/* Build the host's table from the keyed seeds, once (any thread; on pool's
** threads, or one without a pool). The same table whatever the pool. */
wm_status wm_setk_host_table(const wm_setk_t *s, wm_pool_t *pool);
/* Key u's code's hash slot and filter bit of a table of 2^bits slots and a
** filter of 2^filter_bits bits: the host's and the GPU's tables alike. */
static inline uint64_t wm_setk_hash(uint64_t code, unsigned bits) {
    return (code * 0x9E3779B97F4A7C15ull) >> (64 - bits);
}
static inline uint64_t wm_setk_filter_bit(uint64_t code, unsigned bits) {
    return ((code ^ code >> 29) * 0xD6E8FEB86659FD93ull) >> (64 - bits);
}
/* A table's sizes for nk keys: at least twice as many slots, 16 filter bits
** a key (at most 2^30). */
static inline unsigned wm_setk_slot_bits(size_t nk) {
    unsigned bits = 4;
    while (((size_t)1 << bits) < 2 * nk) bits++;
    return bits;
}
static inline unsigned wm_setk_filter_bits(size_t nk) {
    unsigned fbits = 12;
    while (fbits < 30 && ((size_t)1 << fbits) < 16 * nk) fbits++;
    return fbits;
}
void wm_setk_free(void *body);

/* Sort n records of size bytes, each starting with a uint64_t key below
** 2^key_bits (the passes stop there), by key, stably (radix.c). 0, or -1
** out of memory. */
int wm_setk_radix_sort(void *a, size_t n, size_t size, unsigned key_bits);
/* The same on a pool's threads (the same order), for large n; serial below
** WM_SETK_PAR_SORT_MIN records or on one thread. */
#define WM_SETK_PAR_SORT_MIN (1u << 16)
int wm_setk_radix_sort_on(wm_pool_t *pool, void *a, size_t n, size_t size, unsigned key_bits);
/* By the key's bits [lo_bit, hi_bit) alone, the keys below 2^hi_bit
** (records equal there keep their order): wm_setk_radix_sort_on is
** lo_bit = 0, hi_bit = key_bits. */
int wm_setk_radix_sort_bits_on(wm_pool_t *pool, void *a, size_t n, size_t size, unsigned lo_bit,
                               unsigned hi_bit);
/* The bits a key field needs to hold 0..most (at least 1): the sorts run no
** pass over bits that are always 0. */
unsigned wm_setk_bits_for(uint64_t most);
/* A record to radix-sort by its key, and the place (or value) it orders. */
typedef struct {
    uint64_t key;
    uint64_t at;
} wm_setk_keyed_t;
/* Matches whose absolute ends (rs[record] + end) lie in (lo, hi] into the
** order wm_search promises, (record, end, pattern, strand): a record's ends
** follow its start, so the absolute end orders records too. A radix sort of
** (end, pattern, strand) keys where there are many: qsort moved 40-byte
** matches by memcpy calls, 20% of the CPU's time on 10,000 guides' 13
** million rows. 0, or -1 out of memory. */
int wm_setk_sort_matches(wm_matchvec_t *v, const uint64_t *rs, uint64_t lo, uint64_t hi,
                         unsigned pat_bits);

/* ---- direct Hamming patterns on the CPU, together (planes.c) ------------------
** The set's direct patterns of up to 64 bases, with Hamming distance on DNA,
** as bit masks against the text's four base planes. new: NULL when the set
** has none (or *failed set: out of memory); isa: the widest SIMD it may use
** (wm_simd_isa_pick); rule: which groups of patterns get a pigeonhole index
** (wm_tuning_t.planes_index, planes_index.c). takes: pattern i is scanned
** here (not one at a time). scan: the matches of every such pattern and
** strand whose occurrence ends in (own_from, own_to] of record rec (its
** first byte rb), into out; 0, or -1 out of memory. */
typedef struct wm_setk_planes wm_setk_planes_t;
wm_setk_planes_t *wm_setk_planes_new(const wm_setk_t *s, wm_simd_isa_t isa, int rule, int *failed);
int wm_setk_planes_takes(const wm_setk_planes_t *pl, uint32_t i);
int wm_setk_planes_scan(const wm_setk_planes_t *pl, const uint8_t *text, size_t rec, uint64_t rb,
                        uint64_t own_from, uint64_t own_to, uint32_t k, wm_matchvec_t *out);
void wm_setk_planes_free(wm_setk_planes_t *pl);

/* ---- the GPU table (setk_cuda.cu) ---------------------------------------------
** batch: the hits of the owned ends (lo, hi] of text (records rs, n_rec + 1
** entries): every (pattern, strand, end) within k with its errors, each
** once, into out (its buffer grown with wm_setk_gpu_hits_reserve and kept
** from batch to batch). With a layout (Hamming on DNA) the hits come as that
** layout's keys, sorted on the GPU, and the host sorts nothing; without one,
** as wm_setk_hit_t in any order, and the host finds starts and sorts
** (gpu_finish.c). With exact regions the ends are the middle's.
** supports: DNA sets whose seeded patterns are at most 256 long and whose
** direct ones the GPU scans whole (Hamming: a middle of at most 64; edits:
** at most 256, no regions); exact regions with nothing seeded. */
typedef struct {
    uint64_t end; /* absolute */
    uint32_t pat, strand, errors;
} wm_setk_hit_t;

/* A hit on DNA as one 64-bit key, from the top: its match's final end as
** an offset into the batch (final end - lo - 1, the final end the middle's
** + suf[strand]), the pattern, the strand, then the errors. Keys sorted by
** their bits [err_bits, bits) are in wm_search's order (end, pattern,
** strand; records follow ends), repeats side by side. A hit whose final end
** lies outside (lo, lo + span] gets the key span << end_shift, which sorts
** after every other and which the host skips.
** Hamming: an occurrence is the m bytes before its end. Edits (no exact
** regions): with `lens` each key comes with its occurrence's length, end -
** start, the start wm_resolve_end gives (the shortest occurrence with the
** fewest errors), found on the GPU: a million reads' 8 M ends had their
** starts searched on the host, 17 s of one core. */
typedef struct {
    uint32_t suf[2];    /* s->suf, or 0 without exact regions */
    unsigned err_bits;  /* the errors: bits [0, err_bits) */
    unsigned end_shift; /* the strand at err_bits, the pattern above it, the end here */
    unsigned bits;      /* the keys are below 2^bits */
    uint64_t span;      /* final ends (lo, lo + span] */
    int lens;           /* edits: the lengths come too (wm_setk_gpu_hits_t.lens) */
} wm_setk_key_layout_t;

typedef struct {
    void *buf;  /* n keys (uint64_t) when keyed, else n wm_setk_hit_t */
    size_t cap; /* bytes of buf */
    size_t n;
    int keyed;
    uint16_t *lens; /* keyed with layout->lens: key i's occurrence length, in buf past the keys */
} wm_setk_gpu_hits_t;
/* Room for bytes in o->buf (its contents are not kept): 0, or -1 out of memory. */
int wm_setk_gpu_hits_reserve(wm_setk_gpu_hits_t *o, size_t bytes);

typedef struct {
    int (*supports)(const wm_setk_t *s);
    wm_status (*batch)(wm_context_t *cx, const wm_setk_t *s, const wm_text_t *text,
                       const uint64_t *rs, size_t n_rec, uint64_t lo, uint64_t hi,
                       const wm_setk_key_layout_t *layout, wm_setk_gpu_hits_t *out);
} wm_setk_gpu_t;
extern const wm_setk_gpu_t wm_setk_gpu_cuda;
void wm_setk_cuda_free_cache(wm_context_t *cx, void *cache);

/* Where matches go, in order (scan.c: wm_setk_deliver hands a vector of
** them over: counted, per pattern, to cb). */
typedef struct {
    wm_match_cb cb;
    void *user;
    uint64_t *per_pattern;
    uint64_t count;
    double deliver_s; /* the GPU path's time handing over (wm_stats_t) */
} wm_setk_sink_t;
wm_status wm_setk_deliver(wm_setk_sink_t *dv, const wm_matchvec_t *v);

/* Which of n hits of one pattern and strand in one record (ends ascending,
** each once; m the pattern's length, k its edits) need their start when the
** caller keeps one match a locus (loci.c says why the others do not): need[x]
** = 1 or 0. rb: the record's first byte; lo: the caller's piece owns the
** ends past it (the earlier ones are out of view). */
void wm_setk_loci_needs(const wm_hit_t *h, size_t n, size_t m, uint32_t k, uint64_t rb, uint64_t lo,
                        uint8_t *need);
/* The start a hit that needs none gets (end e, absolute): e - (m - k), the
** latest an occurrence within k edits can start (loci.c). */
static inline uint64_t wm_setk_loci_stand_in(uint64_t e, size_t m, uint32_t k) {
    return e - (m - k);
}

/* The GPU path (gpu_finish.c): batches of owned ends from own_from, each
** one's hits from gpu->batch turned into matches (starts found on the pool)
** and delivered; *done = the last end delivered, also on failure. */
wm_status wm_setk_gpu_scan(wm_context_t *cx, const wm_setk_gpu_t *gpu, const wm_setk_t *s,
                           const wm_text_t *text, const uint64_t *rs, size_t n_rec,
                           uint64_t own_from, wm_setk_sink_t *dv, uint64_t *done);

/* The family and the ops of its databases (scan.c). */
extern const wm_family_t wm_setk_family;
extern const wm_db_ops_t wm_setk_db_ops;

#ifdef __cplusplus
}
#endif
#endif
