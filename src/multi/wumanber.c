/*
** wumanber.c -- the multi-pattern Wu-Manber algorithm on the CPU, in two
** builds that share the scan contract of mset.h:
**
**   paper = 1 (WM_ALGO_WUMANBER_PAPER): as paper 003 ran it (Algorithms 4
**     and 5): a window of m = min_len bytes, SHIFT over blocks of B = 3
**     bytes, HASH lists of the patterns whose block ending at position m has
**     that hash, PREFIX = the hash of each pattern's first B' = 2 bytes,
**     h1 = h2 = shift-and-add (hash << 2) + byte over the folded bytes,
**     SHIFT with sum_{i<B} 256 * 4^i entries (the whole hash range), then
**     a direct comparison. Only what exactness needs is added: B = min_len
**     and B' = min(2, min_len) for short patterns, the whole pattern
**     compared (its end may lie past the window), text folded (case, U).
**
**   paper = 0 (WM_ALGO_WUMANBER, "tuned"): the same skeleton made cheap per
**     window: the block is read with one 8-byte load and turned into a key
**     without tables -- on DNA the 2 bits (c >> 1) & 3 of each base (A C T G
**     in either case, U = T) packed into an exact index of 4^B entries, else
**     a multiplicative hash of the (case-folded) bytes into 2^10..2^20
**     entries; B chosen from min_len, the set size and the alphabet; SHIFT
**     in bytes (it stays in L1/L2); HASH as one CSR bucket array over the
**     SHIFT index, each entry carrying an 8-byte prefix fingerprint that is
**     compared before the pattern is.
**
** Keys and fingerprints may merge bytes that fold does not merge (N with G
** on DNA, '@' with '`' under case folding): they only filter, a merged key
** can only make a shift smaller (safe) or a candidate more (verified), and
** every match is confirmed byte by byte through s->fold, so bytes outside the
** patterns ("other") never match.
**
** Order of the reports: occurrences found at window start w end at w + len,
** len in [min_len, max_len]; later windows start later, so their ends are
** >= w' + min_len > w + min_len. With one length (or a counts sink) the
** window order is the end order; with mixed lengths the ends past w + min_len
** wait in a small binary heap, and at each window that finds something every
** waiting end <= w + min_len goes out first (the rest at the end of the scan).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "multi/mset.h"

/* ---- keys and loads ------------------------------------------------------ */

enum { WU_RAW = 0, WU_CASE = 1, WU_DNA = 2, WU_TABLE = 3 };

#define WU_BMAX 8u        /* a block is read with one 8-byte load */
#define WU_SHIFT_CAP 255u /* SHIFT entries are bytes; a smaller shift is safe */

static inline uint64_t load64le(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* The n (< 8) bytes at p, zeros above: for the last bytes of the text. */
static inline uint64_t loadpart(const uint8_t *p, size_t n) {
    uint8_t b[8] = { 0 };
    memcpy(b, p, n);
    return load64le(b);
}

static inline uint64_t byte_mask(uint32_t n) {
    return n >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * n)) - 1);
}

typedef struct {
    uint64_t fp; /* the first min(len, 8) bytes: as they are when fold is
                    the identity (then exact), else through xform */
    uint32_t uid, len;
} wu_ent_t;

struct wm_wu {
    int paper;
    uint32_t m, B, Bp; /* window (min_len), block, prefix block */
    int fold_id;       /* fold is the identity: memcmp verifies */

    /* paper = 1 */
    uint32_t *pshift;  /* n_hash entries */
    uint32_t *phstart; /* n_hash + 1: HASH[h] = phlist[phstart[h]..] */
    uint32_t *phlist;  /* uids, ascending within a list */
    uint32_t *pprefix; /* per uid: h2 of its first B' bytes */
    size_t n_hash;

    /* paper = 0 */
    int mode;       /* WU_RAW, WU_CASE, WU_DNA, WU_TABLE */
    uint32_t tbits; /* SHIFT has 1 << tbits entries */
    int direct;     /* key = the packed block itself (no hash) */
    uint64_t bmask; /* the block's bytes within a load */
    uint8_t *shift;
    uint32_t *bstart; /* (1 << tbits) + 1 */
    wu_ent_t *ent;
    uint8_t xtab[256]; /* WU_TABLE: byte -> folded byte */
};

/* Bytes -> bytes that fold cannot tell apart stay equal (see the top). */
static inline uint64_t xform(const struct wm_wu *wu, uint64_t v) {
    switch (wu->mode) {
    case WU_RAW: return v;
    case WU_CASE: return v | 0x2020202020202020ull;
    case WU_DNA: return (v >> 1) & 0x0303030303030303ull;
    default: {
        uint64_t r = 0;
        for (int j = 0; j < 8; j++) r |= (uint64_t)wu->xtab[(v >> (8 * j)) & 0xff] << (8 * j);
        return r;
    }
    }
}

/* The SHIFT / HASH index of a block held in the low B bytes of v. */
static inline uint32_t block_key(const struct wm_wu *wu, uint64_t v) {
    uint64_t x = xform(wu, v) & wu->bmask;
    if (wu->mode == WU_DNA) {
        /* eight 2-bit codes, one a byte, packed into 16 bits */
        x = (x | (x >> 6)) & 0x000F000F000F000Full;
        x = (x | (x >> 12)) & 0x000000FF000000FFull;
        x = (x | (x >> 24)) & 0xFFFFull;
        return (uint32_t)x;
    }
    if (wu->direct) return (uint32_t)x;
    return (uint32_t)((x * 0x9E3779B97F4A7C15ull) >> (64 - wu->tbits));
}

/* ---- ordered output -------------------------------------------------------- */

typedef struct {
    wm_msink_t *out;
    int direct; /* counts, or one length: window order is end order */
    uint32_t min_len;
    wm_mhit_t *h; /* min-heap on end */
    size_t n, cap;
    wm_mhit_t local[128];
} wu_emit_t;

static void emit_init(wu_emit_t *e, const wm_mset_t *s, wm_msink_t *out) {
    e->out = out;
    e->direct = out->counts != NULL || s->min_len == s->max_len;
    e->min_len = s->min_len;
    e->h = e->local;
    e->n = 0;
    e->cap = sizeof e->local / sizeof e->local[0];
}

static void emit_fini(wu_emit_t *e) {
    if (e->h != e->local) free(e->h);
}

static int heap_pop(wu_emit_t *e) {
    wm_mhit_t top = e->h[0];
    wm_mhit_t last = e->h[--e->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= e->n) break;
        if (c + 1 < e->n && e->h[c + 1].end < e->h[c].end) c++;
        if (e->h[c].end >= last.end) break;
        e->h[i] = e->h[c];
        i = c;
    }
    if (e->n) e->h[i] = last;
    return wm_msink_put(e->out, top.end, top.uid);
}

static int heap_push(wu_emit_t *e, uint64_t end, uint32_t uid) {
    if (e->n == e->cap) {
        size_t cap = e->cap * 2;
        wm_mhit_t *h = malloc(cap * sizeof *h);
        if (!h) return -1;
        memcpy(h, e->h, e->n * sizeof *h);
        if (e->h != e->local) free(e->h);
        e->h = h;
        e->cap = cap;
    }
    size_t i = e->n++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (e->h[p].end <= end) break;
        e->h[i] = e->h[p];
        i = p;
    }
    e->h[i].end = end;
    e->h[i].uid = uid;
    e->h[i].pad_ = 0;
    return 0;
}

/* Before reporting at window start w: what waits and ends by w + min_len. */
static inline int emit_window(wu_emit_t *e, uint64_t w) {
    while (e->n && e->h[0].end <= w + e->min_len)
        if (heap_pop(e)) return -1;
    return 0;
}

/* An occurrence found at window start w (emit_window(e, w) called before). */
static inline int emit_put(wu_emit_t *e, uint64_t w, uint64_t end, uint32_t uid) {
    if (e->direct || end == w + e->min_len) return wm_msink_put(e->out, end, uid);
    return heap_push(e, end, uid);
}

static int emit_flush(wu_emit_t *e) {
    while (e->n)
        if (heap_pop(e)) return -1;
    return 0;
}

/* ---- verification ------------------------------------------------------------ */

static inline int same_folded(const uint8_t *fold, const uint8_t *t, const uint8_t *p, size_t n) {
    for (size_t j = 0; j < n; j++)
        if (fold[t[j]] != p[j]) return 0;
    return 1;
}

static inline int verify(const wm_mset_t *s, int fold_id, const uint8_t *t, const uint8_t *p,
                         size_t n) {
    return fold_id ? memcmp(t, p, n) == 0 : same_folded(s->fold, t, p, n);
}

/* The first window start that can end an occurrence past own_from. */
static uint64_t first_start(const wm_mset_t *s, uint64_t scan_from, uint64_t own_from) {
    uint64_t w = own_from + 1 >= s->max_len ? own_from + 1 - s->max_len : 0;
    return w > scan_from ? w : scan_from;
}

/* ---- build ---------------------------------------------------------------------- */

void wm_wu_free(struct wm_wu *wu) {
    if (!wu) return;
    free(wu->pshift);
    free(wu->phstart);
    free(wu->phlist);
    free(wu->pprefix);
    free(wu->shift);
    free(wu->bstart);
    free(wu->ent);
    free(wu);
}

/* h1 of B folded bytes, and the hash range that holds every such value
** (sum_{i<B} 256 * 4^i). */
static inline uint32_t add_hash(const uint8_t *p, uint32_t B) {
    uint32_t h = 0;
    for (uint32_t j = 0; j < B; j++) h = (h << 2) + p[j];
    return h;
}

static size_t hash_range(uint32_t B) {
    size_t nh = 0;
    for (uint32_t i = 0, p = 1; i < B; i++, p *= 4) nh += (size_t)256 * p;
    return nh;
}

static wm_status build_paper(wm_mset_t *s, struct wm_wu *wu) {
    uint32_t m = s->min_len, B = wu->B, Bp = wu->Bp;
    size_t nh = hash_range(B);
    wu->n_hash = nh;
    wu->pshift = malloc(nh * sizeof *wu->pshift);
    wu->phstart = calloc(nh + 1, sizeof *wu->phstart);
    wu->phlist = malloc((s->n_uniq ? s->n_uniq : 1) * sizeof *wu->phlist);
    wu->pprefix = malloc((s->n_uniq ? s->n_uniq : 1) * sizeof *wu->pprefix);
    if (!wu->pshift || !wu->phstart || !wu->phlist || !wu->pprefix) return WM_NOMEM;
    for (size_t h = 0; h < nh; h++) wu->pshift[h] = m - B + 1;
    for (size_t u = 0; u < s->n_uniq; u++) {
        const uint8_t *p = wm_mset_str(s, u);
        for (uint32_t q = m; q >= B; q--) {
            uint32_t h = add_hash(p + q - B, B);
            if (m - q < wu->pshift[h]) wu->pshift[h] = m - q;
            if (q == m) wu->phstart[h + 1]++;
        }
        wu->pprefix[u] = add_hash(p, Bp);
    }
    for (size_t h = 0; h < nh; h++) wu->phstart[h + 1] += wu->phstart[h];
    uint32_t *fill = malloc(nh * sizeof *fill);
    if (!fill) return WM_NOMEM;
    memcpy(fill, wu->phstart, nh * sizeof *fill);
    for (size_t u = 0; u < s->n_uniq; u++) {
        wu->phlist[fill[add_hash(wm_mset_str(s, u) + m - B, B)]++] = (uint32_t)u;
    }
    free(fill);
    return WM_OK;
}

void wm_wu_end_free(wm_wu_end_t *t) {
    free(t->shift);
    free(t->hstart);
    free(t->hlist);
    free(t->prefix);
    memset(t, 0, sizeof *t);
}

wm_status wm_wu_end_tables(const wm_mset_t *s, wm_wu_end_t *t) {
    memset(t, 0, sizeof *t);
    uint32_t m = s->min_len;
    if (m == 0 || s->n_uniq == 0) return WM_INVALID;
    t->B = m < 3 ? m : 3;
    t->Bp = m < 2 ? m : 2;
    size_t nh = t->n_hash = hash_range(t->B);
    t->shift = malloc(nh * sizeof *t->shift);
    t->hstart = calloc(nh + 1, sizeof *t->hstart);
    t->hlist = malloc(s->n_uniq * sizeof *t->hlist);
    t->prefix = malloc(s->n_uniq * sizeof *t->prefix);
    uint32_t *fill = malloc(nh * sizeof *fill);
    if (!t->shift || !t->hstart || !t->hlist || !t->prefix || !fill) {
        free(fill);
        wm_wu_end_free(t);
        return WM_NOMEM;
    }
    uint32_t s0 = m - t->B + 1 < 65535 ? m - t->B + 1 : 65535;
    for (size_t h = 0; h < nh; h++) t->shift[h] = (uint16_t)s0;
    for (size_t u = 0; u < s->n_uniq; u++) {
        const uint8_t *w = wm_mset_str(s, u) + wm_mset_len(s, u) - m; /* the window */
        for (uint32_t q = m; q >= t->B; q--) {
            uint32_t h = add_hash(w + q - t->B, t->B);
            if (m - q < t->shift[h]) t->shift[h] = (uint16_t)(m - q);
            if (q == m) t->hstart[h + 1]++;
        }
        t->prefix[u] = add_hash(w, t->Bp);
    }
    for (size_t h = 0; h < nh; h++) t->hstart[h + 1] += t->hstart[h];
    memcpy(fill, t->hstart, nh * sizeof *fill);
    for (size_t u = 0; u < s->n_uniq; u++) {
        const uint8_t *w = wm_mset_str(s, u) + wm_mset_len(s, u) - m;
        t->hlist[fill[add_hash(w + m - t->B, t->B)]++] = (uint32_t)u;
    }
    free(fill);
    return WM_OK;
}

static int ilog2_ceil(uint64_t x) {
    int b = 0;
    while (b < 63 && ((uint64_t)1 << b) < x) b++;
    return b;
}

/* Which cheap transform keeps fold's classes together (xform's contract):
** every byte c and its fold must look the same. */
static int pick_mode(const wm_mset_t *s, struct wm_wu *wu) {
    int id = 1;
    for (int c = 0; c < 256; c++)
        if (s->fold[c] != c) id = 0;
    if (s->dna) {
        wu->mode = WU_DNA;
    } else if (id) {
        wu->mode = WU_RAW;
    } else {
        wu->mode = WU_CASE;
    }
    for (int c = 0; c < 256; c++) wu->xtab[c] = s->fold[c];
    for (int c = 0; c < 256; c++)
        if (xform(wu, (uint64_t)s->fold[c]) != xform(wu, (uint64_t)c)) {
            wu->mode = WU_TABLE;
            break;
        }
    return id;
}

static int ent_cmp(const void *pa, const void *pb) {
    const wu_ent_t *a = pa, *b = pb;
    uint32_t ga = a->len < 8 ? a->len : 8, gb = b->len < 8 ? b->len : 8;
    if (ga != gb) return ga < gb ? -1 : 1;
    if (a->fp != b->fp) return a->fp < b->fp ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

static wm_status build_tuned(wm_mset_t *s, struct wm_wu *wu) {
    uint32_t m = s->min_len;
    uint64_t n = s->n_uniq;
    /* B: the smallest block whose combinations outnumber the set's blocks
    ** well (most windows then meet a block no pattern has), no larger, since
    ** the longest shift is m - B + 1. Combinations are counted with the
    ** alphabet the strings effectively use, 2^entropy of their symbols
    ** (English text: ~20 of its ~90 bytes; DNA: ~4): sets from natural text
    ** need the larger block (measured: 10,000 strings of 4..64 bytes, B = 4
    ** beats B = 3 by 1.3x; 1,000 DNA 8-mers B = 7 beats 6 and 8 by 1.4x). */
    uint64_t freq[256] = { 0 };
    for (uint64_t x = 0; x < s->off[n]; x++) freq[s->sym[s->bytes[x]]]++;
    double H = 0, tot = (double)s->off[n];
    for (int c = 0; c < 256; c++)
        if (freq[c]) H -= (double)freq[c] / tot * log2((double)freq[c] / tot);
    double sig = exp2(H);
    if (sig < 2) sig = 2;
    uint32_t bmax = m < WU_BMAX ? m : WU_BMAX;
    uint32_t B = bmax;
    for (uint32_t b = 1; b <= bmax; b++) {
        if (pow(sig, (double)b) >= 4.0 * (double)n * (double)(m - b + 1)) {
            B = b;
            break;
        }
    }
    wu->B = B;
    wu->bmask = byte_mask(B);
    if (wu->mode == WU_DNA) {
        wu->direct = 1;
        wu->tbits = 2 * B;
    } else if (8 * B <= 16) {
        wu->direct = 1;
        wu->tbits = 8 * B;
    } else {
        int tb = ilog2_ceil(n * (uint64_t)(m - B + 1)) + 3;
        if (tb < 12) tb = 12;
        if (tb > 20) tb = 20;
        wu->direct = 0;
        wu->tbits = (uint32_t)tb;
    }
    size_t ts = (size_t)1 << wu->tbits;
    uint32_t s0 = m - B + 1 < WU_SHIFT_CAP ? m - B + 1 : WU_SHIFT_CAP;
    wu->shift = malloc(ts);
    wu->bstart = calloc(ts + 1, sizeof *wu->bstart);
    wu->ent = malloc((n ? n : 1) * sizeof *wu->ent);
    uint32_t *key_of = malloc((n ? n : 1) * sizeof *key_of);
    if (!wu->shift || !wu->bstart || !wu->ent || !key_of) {
        free(key_of);
        return WM_NOMEM;
    }
    memset(wu->shift, (int)s0, ts);
    for (size_t u = 0; u < n; u++) {
        const uint8_t *p = wm_mset_str(s, u);
        for (uint32_t q = B; q <= m; q++) {
            uint32_t k = block_key(wu, loadpart(p + q - B, B));
            uint32_t sh = m - q;
            if (sh < wu->shift[k]) wu->shift[k] = (uint8_t)sh;
            if (q == m) key_of[u] = k;
        }
        wu->bstart[key_of[u] + 1]++;
    }
    for (size_t k = 0; k < ts; k++) wu->bstart[k + 1] += wu->bstart[k];
    uint32_t *fill = malloc(ts * sizeof *fill);
    if (!fill) {
        free(key_of);
        return WM_NOMEM;
    }
    memcpy(fill, wu->bstart, ts * sizeof *fill);
    for (size_t u = 0; u < n; u++) {
        const uint8_t *p = wm_mset_str(s, u);
        uint32_t len = wm_mset_len(s, u);
        uint32_t f = len < 8 ? len : 8;
        wu_ent_t *e = &wu->ent[fill[key_of[u]]++];
        e->fp = wu->fold_id ? loadpart(p, f) : xform(wu, loadpart(p, f)) & byte_mask(f);
        e->uid = (uint32_t)u;
        e->len = len;
    }
    free(fill);
    free(key_of);
    /* Each bucket by (min(len, 8), fingerprint): a binary search per length
    ** group (fingerprints of patterns under 8 bytes are partial). */
    for (size_t k = 0; k < ts; k++)
        if (wu->bstart[k + 1] - wu->bstart[k] > 1)
            qsort(wu->ent + wu->bstart[k], wu->bstart[k + 1] - wu->bstart[k], sizeof *wu->ent,
                  ent_cmp);
    return WM_OK;
}

wm_status wm_wu_build(wm_mset_t *s, int paper) {
    if (!s || s->n_uniq == 0 || s->min_len == 0) return WM_INVALID;
    struct wm_wu *wu = calloc(1, sizeof *wu);
    if (!wu) return WM_NOMEM;
    wu->paper = paper;
    wu->m = s->min_len;
    wu->fold_id = pick_mode(s, wu);
    wm_status st;
    if (paper) {
        wu->B = s->min_len < 3 ? s->min_len : 3;
        wu->Bp = s->min_len < 2 ? s->min_len : 2;
        st = build_paper(s, wu);
    } else {
        st = build_tuned(s, wu);
    }
    if (st != WM_OK) {
        wm_wu_free(wu);
        return st;
    }
    s->wu = wu;
    return WM_OK;
}

/* ---- scan --------------------------------------------------------------------- */

static int scan_paper(const wm_mset_t *s, const struct wm_wu *wu, const uint8_t *text, uint64_t w0,
                      uint64_t own_from, uint64_t to, wu_emit_t *e) {
    const uint8_t *fold = s->fold;
    const uint32_t *shift = wu->pshift;
    uint32_t m = wu->m, B = wu->B, Bp = wu->Bp;
    int fid = wu->fold_id;
    for (uint64_t i = w0 + m - 1; i < to;) {
        uint32_t h = 0;
        for (uint32_t j = 0; j < B; j++) h = (h << 2) + fold[text[i + 1 - B + j]];
        uint32_t sh = shift[h];
        if (sh) {
            i += sh;
            continue;
        }
        uint64_t w = i + 1 - m;
        uint32_t hp = 0;
        for (uint32_t j = 0; j < Bp; j++) hp = (hp << 2) + fold[text[w + j]];
        if (emit_window(e, w)) return -1;
        for (uint32_t x = wu->phstart[h]; x < wu->phstart[h + 1]; x++) {
            uint32_t r = wu->phlist[x];
            if (wu->pprefix[r] != hp) continue;
            uint32_t len = wm_mset_len(s, r);
            uint64_t end = w + len;
            if (end > to || end <= own_from) continue;
            if (verify(s, fid, text + w, wm_mset_str(s, r), len) && emit_put(e, w, end, r))
                return -1;
        }
        i++;
    }
    return 0;
}

/* Entries are ordered by (group, fp), group = min(len, 8): the first index
** in [lo, hi) at or after (g, f). */
static inline uint32_t ent_lower(const wu_ent_t *ent, uint32_t lo, uint32_t hi, uint32_t g,
                                 uint64_t f) {
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t gm = ent[mid].len < 8 ? ent[mid].len : 8;
        if (gm < g || (gm == g && ent[mid].fp < f)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* One entry whose fingerprint agrees: confirm it and report it. */
static inline int tuned_hit(const wm_mset_t *s, const struct wm_wu *wu, const uint8_t *text,
                            uint64_t w, const wu_ent_t *en, uint64_t own_from, uint64_t to,
                            wu_emit_t *e) {
    uint64_t end = w + en->len;
    if (end > to || end <= own_from) return 0;
    /* fold = identity: the fingerprint compared the first min(len, 8) bytes */
    uint32_t skip = wu->fold_id ? (en->len < 8 ? en->len : 8) : 0;
    if (en->len > skip &&
        !verify(s, wu->fold_id, text + w + skip, wm_mset_str(s, en->uid) + skip, en->len - skip))
        return 0;
    return emit_put(e, w, end, en->uid);
}

/* Window end i (inclusive) with shift 0: check bucket k at start w. */
static inline int tuned_check(const wm_mset_t *s, const struct wm_wu *wu, const uint8_t *text,
                              uint64_t w, uint32_t k, uint64_t own_from, uint64_t to,
                              wu_emit_t *e) {
    uint64_t v = w + 8 <= to ? load64le(text + w) : loadpart(text + w, to - w);
    uint64_t fp = wu->fold_id ? v : xform(wu, v);
    const wu_ent_t *ent = wu->ent;
    uint32_t a = wu->bstart[k], b = wu->bstart[k + 1];
    if (emit_window(e, w)) return -1;
    if (b - a <= 8) {
        for (uint32_t x = a; x < b; x++)
            if ((fp & byte_mask(ent[x].len)) == ent[x].fp &&
                tuned_hit(s, wu, text, w, &ent[x], own_from, to, e))
                return -1;
        return 0;
    }
    /* A large bucket: per length group (1..7, then 8 for all longer), a
    ** binary search for the fingerprint, then past the group. */
    for (uint32_t x = a; x < b;) {
        uint32_t g = ent[x].len < 8 ? ent[x].len : 8;
        uint64_t f = fp & byte_mask(g);
        x = ent_lower(ent, x, b, g, f);
        for (; x < b && (ent[x].len < 8 ? ent[x].len : 8) == g && ent[x].fp == f; x++)
            if (tuned_hit(s, wu, text, w, &ent[x], own_from, to, e)) return -1;
        if (g == 8) break;
        x = ent_lower(ent, x, b, g + 1, 0);
    }
    return 0;
}

static int scan_tuned(const wm_mset_t *s, const struct wm_wu *wu, const uint8_t *text, uint64_t w0,
                      uint64_t own_from, uint64_t to, wu_emit_t *e) {
    const uint8_t *shift = wu->shift;
    uint32_t m = wu->m, B = wu->B;
    uint64_t i = w0 + m - 1;
    /* The block is read with one 8-byte load while that stays below `to`
    ** (i + 1 - B + 8 <= to), then byte by byte. */
    uint64_t lim = to + B >= 8 ? to + B - 8 : 0;
    while (i < to) {
        const uint8_t *bp = text + i + 1 - B;
        uint32_t k = block_key(wu, i < lim ? load64le(bp) : loadpart(bp, B));
        uint32_t sh = shift[k];
        if (sh) {
            i += sh;
            continue;
        }
        if (tuned_check(s, wu, text, i + 1 - m, k, own_from, to, e)) return -1;
        i++;
    }
    return 0;
}

int wm_wu_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
               uint64_t to, wm_msink_t *out) {
    const struct wm_wu *wu = s->wu;
    uint64_t w0 = first_start(s, scan_from, own_from);
    if (w0 >= to || to - w0 < s->min_len) return 0;
    wu_emit_t e;
    emit_init(&e, s, out);
    int r = wu->paper ? scan_paper(s, wu, text, w0, own_from, to, &e)
                      : scan_tuned(s, wu, text, w0, own_from, to, &e);
    if (!r) r = emit_flush(&e);
    emit_fini(&e);
    return r;
}
