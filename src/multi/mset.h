/*
** mset.h -- a compiled pattern set, and the contract every set algorithm
** (src/multi/ on the CPU, .cu files beside them on the GPU) keeps.
**
** What the algorithms see. Patterns are folded once at compile time (case,
** DNA's U -> T) and de-duplicated: the algorithms search n_uniq distinct
** strings ("uids"), and the driver turns each (end, uid) into the matches of
** every pattern id (and strand) that string stands for. Text bytes go through
** `sym` (fold, then a dense symbol number) in the scanning loop; bytes that
** occur in no pattern all share the last symbol, sigma - 1, which no pattern
** has, so "any other byte" costs one table column (unless the strings use
** all 256 bytes: then sigma = 256 and there is no other byte).
**
** The scan contract (CPU): scan text[scan_from, to) from a fresh state and
** report every occurrence (end, uid) with own_from < end <= to and
** start = end - len(uid) >= scan_from, ends non-decreasing (any order among
** uids at one end). The driver makes scan_from = max(record start,
** own_from - (max_len - 1)), so chunk and record borders cost nothing here.
*/
#ifndef WM_MULTI_MSET_H
#define WM_MULTI_MSET_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"
#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wm_ac;    /* ac.c:        trie, failure links, DFA */
struct wm_wu;    /* wumanber.c:  SHIFT / HASH / PREFIX tables */
struct wm_qgram; /* qgram.c:     q-gram bitmap and buckets */
struct wm_teddy; /* teddy.c:     nibble fingerprints of small byte sets */

typedef struct wm_mset {
    size_t n_patterns;         /* as given; ids 0 .. n_patterns-1 */
    size_t n_uniq;             /* distinct folded strings, both strands */
    uint8_t *bytes;            /* uid u is bytes[off[u] .. off[u+1]), folded */
    uint64_t *off;             /* n_uniq + 1 */
    uint32_t *ent_off;         /* n_uniq + 1: u stands for ent[ent_off[u] .. ent_off[u+1]) */
    uint32_t *ent;             /* (pattern id << 1) | strand, ascending per uid */
    uint8_t fold[256];         /* text byte -> folded byte */
    uint8_t sym[256];          /* text byte -> symbol 0 .. sigma-1 (after fold) */
    uint8_t sym_byte[256];     /* symbol -> its folded byte (sigma-1: 0, unused) */
    uint32_t sigma;            /* symbols in the patterns + 1 for "other" */
    uint32_t min_len, max_len; /* over the uids */
    int dna;                   /* every uid is over the folded bytes A C G T */
    wm_algo_t algo;            /* the CPU algorithm (never AUTO) */
    wm_algo_t asked;           /* the algorithm the options asked for (AUTO ok) */
    struct wm_ac *ac;          /* built for AC and PFAC (NULL otherwise) */
    struct wm_wu *wu;          /* built for WUMANBER and WUMANBER_PAPER */
    struct wm_qgram *qg;       /* built for QGRAM */
    struct wm_teddy *td;       /* built for TEDDY */
} wm_mset_t;

static inline uint32_t wm_mset_len(const wm_mset_t *s, size_t u) {
    return (uint32_t)(s->off[u + 1] - s->off[u]);
}
static inline const uint8_t *wm_mset_str(const wm_mset_t *s, size_t u) {
    return s->bytes + s->off[u];
}

/* One occurrence as an algorithm reports it: the end (exclusive, absolute in
** the text buffer) and the uid. */
typedef struct {
    uint64_t end;
    uint32_t uid;
    uint32_t pad_;
} wm_mhit_t;

/* One occurrence as the GPU lists it: the end counted from its batch's first
** byte, which the batch's base places (batches span under 4 GiB), and the
** uid. Half a wm_mhit_t: dense DNA sets list more bytes of hits than they
** read of text, so the hits' size is the listing's speed on the device and
** over the bus. */
typedef struct {
    uint32_t end;
    uint32_t uid;
} wm_mhit32_t;

typedef struct {
    wm_mhit_t *a;
    size_t n, cap;
} wm_mhitvec_t;

int wm_mhitvec_grow(wm_mhitvec_t *v); /* 0 or -1 (no memory) */
static inline int wm_mhitvec_push(wm_mhitvec_t *v, uint64_t end, uint32_t uid) {
    if (v->n == v->cap && wm_mhitvec_grow(v)) return -1;
    v->a[v->n].end = end;
    v->a[v->n].uid = uid;
    v->a[v->n].pad_ = 0;
    v->n++;
    return 0;
}
void wm_mhitvec_free(wm_mhitvec_t *v);

/* Where a scan puts what it finds: exactly one of the two is non-NULL.
** hits: list every occurrence; counts: counts[uid] += 1 per occurrence. */
typedef struct {
    wm_mhitvec_t *hits;
    uint64_t *counts;
} wm_msink_t;

/* Report one occurrence into a sink; 0 or -1 (no memory). */
static inline int wm_msink_put(wm_msink_t *k, uint64_t end, uint32_t uid) {
    if (k->counts) {
        k->counts[uid]++;
        return 0;
    }
    return wm_mhitvec_push(k->hits, end, uid);
}

/* A CPU set algorithm's scan (see the contract above). 0, or -1 (no memory). */
typedef int (*wm_mscan_fn)(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from,
                           uint64_t own_from, uint64_t to, wm_msink_t *out);

/* Build / free / scan, one triple per algorithm file. Builds return WM_OK,
** WM_NOMEM or WM_INVALID (the set does not suit the algorithm). */
wm_status wm_ac_build(wm_mset_t *s);
void wm_ac_free(struct wm_ac *ac);
int wm_ac_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
               uint64_t to, wm_msink_t *out);
int wm_pfac_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
                 uint64_t to, wm_msink_t *out);

/* paper = 1: B = 3, B' = 2, shift-and-add hashing as paper 003 ran it. */
wm_status wm_wu_build(wm_mset_t *s, int paper);
void wm_wu_free(struct wm_wu *wu);

/* The paper's tables (B = min(3, m), B' = min(2, m), shift-and-add hashes,
** m = min_len) with each pattern's window anchored at its END: its last m
** bytes. Windows then come in end order, which the GPU kernel's threads
** must report in (wumanber.cu); when every pattern is m long, as in paper
** 003's experiment, these are the tables wm_wu_build(s, 1) makes. SHIFT
** entries are clamped to 65,535 (a smaller shift is safe). */
typedef struct {
    uint32_t B, Bp;
    size_t n_hash;    /* SHIFT and HASH entries */
    uint16_t *shift;  /* n_hash */
    uint32_t *hstart; /* n_hash + 1: HASH[h] = hlist[hstart[h] ..] */
    uint32_t *hlist;  /* uids, ascending within a list */
    uint32_t *prefix; /* per uid: the hash of its window's first B' bytes */
} wm_wu_end_t;
wm_status wm_wu_end_tables(const wm_mset_t *s, wm_wu_end_t *t);
void wm_wu_end_free(wm_wu_end_t *t);
int wm_wu_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
               uint64_t to, wm_msink_t *out);

wm_status wm_qgram_build(wm_mset_t *s);
void wm_qgram_free(struct wm_qgram *qg);
int wm_qgram_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
                  uint64_t to, wm_msink_t *out);

wm_status wm_teddy_build(wm_mset_t *s);
void wm_teddy_free(struct wm_teddy *td);
int wm_teddy_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
                  uint64_t to, wm_msink_t *out);

/* Compile (mset.c): fold, check, de-duplicate, choose and build the algorithm. */
wm_status wm_mset_compile(const uint8_t *const *patterns, const size_t *lens, size_t n,
                          const wm_opts_t *o, wm_mset_t **out);
void wm_mset_free(wm_mset_t *s);

/* ---- the family: a wm_compile_set database's body is a wm_mset_t ---------- */
extern const wm_family_t wm_multi_family;
extern const wm_db_ops_t wm_multi_db_ops;
static inline const wm_mset_t *wm_mset_of(const wm_db_t *db) { return (const wm_mset_t *)db->body; }

/* The driver (driver.c): the scan of a set database (wm_db_ops_t.scan). */
wm_status wm_multi_scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                        uint64_t *per_pattern);

/* The GPU table (multi_cuda.cu). scan: every occurrence whose end e lies in
** (own_from, len], record borders ignored. With sink: batches of hits in end
** order (any uid order at one end), each end base + hits[i].end. Without, with
** uid_counts: uid_counts[u] += occurrences of uid u; else *total += matches
** (occurrences times the pattern ids of each). *done: the ends
** (own_from, *done] whose hits reached the sink, also on failure (counts
** are added only when the whole scan succeeds: *done stays own_from).
** Batches are sized with wm_gpu_piece (core/internal.h). */
typedef wm_status (*wm_mhit_batch_fn)(const wm_mhit32_t *hits, size_t n, uint64_t base, void *user);
typedef struct {
    int (*supports)(const wm_mset_t *s); /* else the CPU runs it */
    wm_status (*scan)(wm_context_t *cx, const wm_mset_t *s, const wm_text_t *text,
                      uint64_t own_from, wm_mhit_batch_fn sink, void *user, uint64_t *uid_counts,
                      uint64_t *total, uint64_t *done);
} wm_multi_gpu_t;
extern const wm_multi_gpu_t wm_multi_gpu_cuda;
void wm_multi_cuda_free_cache(wm_context_t *cx, void *cache); /* its device buffers */

#ifdef __cplusplus
}
#endif
#endif
