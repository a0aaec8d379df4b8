/*
** mset.c -- compiling a pattern set: check every pattern, fold it (case,
** DNA's U -> T), add reverse complements, merge equal strings into one uid
** that remembers every pattern id it stands for, number the symbols, then
** let the chosen algorithm build its tables.
*/
#include <stdlib.h>
#include <string.h>

#include "multi/mset.h"
#include "setk/setk.h"

int wm_mhitvec_grow(wm_mhitvec_t *v) {
    return wm_vec_grow((void **)&v->a, &v->cap, v->n + 1, sizeof *v->a);
}

void wm_mhitvec_free(wm_mhitvec_t *v) {
    free(v->a);
    v->a = NULL;
    v->n = v->cap = 0;
}

static int is_nucleotide(uint8_t c) {
    switch (c) {
    case 'A':
    case 'C':
    case 'G':
    case 'T':
    case 'U':
    case 'a':
    case 'c':
    case 'g':
    case 't':
    case 'u': return 1;
    default: return 0;
    }
}

/* Complement, keeping case (U pairs with A). */
static uint8_t complement(uint8_t c) {
    switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T':
    case 'U': return 'A';
    case 'a': return 't';
    case 'c': return 'g';
    case 'g': return 'c';
    case 't':
    case 'u': return 'a';
    default: return c;
    }
}

static void make_fold(const wm_opts_t *o, uint8_t fold[256]) {
    for (int c = 0; c < 256; c++) fold[c] = (uint8_t)c;
    if (o->alphabet == WM_ALPHABET_DNA) {
        /* Bases in either case; U reads as T. Other bytes stay themselves and,
        ** since no DNA pattern holds them, match nothing. */
        fold['a'] = 'A';
        fold['c'] = 'C';
        fold['g'] = 'G';
        fold['t'] = 'T';
        fold['u'] = 'T';
        fold['U'] = 'T';
    } else if (o->case_insensitive) {
        for (int c = 'A'; c <= 'Z'; c++) fold[c] = (uint8_t)(c - 'A' + 'a');
    }
}

static int is_set_algo(wm_algo_t a) {
    return a == WM_ALGO_AUTO || a == WM_ALGO_AC || a == WM_ALGO_PFAC || a == WM_ALGO_WUMANBER ||
           a == WM_ALGO_WUMANBER_PAPER || a == WM_ALGO_QGRAM || a == WM_ALGO_TEDDY;
}

/* Strings to merge: entry e = (pattern id << 1) | strand, its folded bytes. */
typedef struct {
    const uint8_t *bytes;
    uint32_t len;
    uint32_t ent;
} item_t;

/* A string's hash: eight bytes at a time, each mixed in by a multiply. */
static uint64_t str_hash(const uint8_t *p, uint32_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
}

/* uid_of[x]: the uid of item x's string, numbered in the order items first
** show it; first_of[u]: that first item. Open addressing, at most half
** full; a slot holds the hash's top 32 bits and uid + 1, so that most
** probes of another string end without reading it. 0, or -1 out of memory. */
static int merge_items(const item_t *it, size_t n_items, uint32_t *uid_of, uint32_t *first_of,
                       size_t *n_uniq) {
    size_t cap = 16;
    while (cap < 2 * n_items) cap *= 2;
    uint64_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    size_t nu = 0;
    /* Hashes a window ahead, their slots prefetched: the probe's cache miss
    ** was most of the merge. */
    enum { AHEAD = 16 };
    uint64_t hq[AHEAD];
    for (size_t x = 0; x < n_items && x < AHEAD; x++) {
        hq[x] = str_hash(it[x].bytes, it[x].len);
        __builtin_prefetch(&slot[hq[x] & (cap - 1)]);
    }
    for (size_t x = 0; x < n_items; x++) {
        uint64_t h = hq[x % AHEAD];
        if (x + AHEAD < n_items) {
            uint64_t hn = str_hash(it[x + AHEAD].bytes, it[x + AHEAD].len);
            hq[x % AHEAD] = hn;
            __builtin_prefetch(&slot[hn & (cap - 1)]);
        }
        uint64_t tag = h >> 32 << 32;
        for (size_t i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1)) {
            if (slot[i] == 0) { /* a new string */
                slot[i] = tag | (uint64_t)(nu + 1);
                first_of[nu] = (uint32_t)x;
                uid_of[x] = (uint32_t)nu++;
                break;
            }
            if ((slot[i] & ~0xFFFFFFFFull) != tag) continue;
            uint32_t u = (uint32_t)(slot[i] & 0xFFFFFFFFu) - 1;
            const item_t *y = &it[first_of[u]];
            if (y->len == it[x].len && memcmp(y->bytes, it[x].bytes, y->len) == 0) {
                uid_of[x] = u;
                break;
            }
        }
    }
    free(slot);
    *n_uniq = nu;
    return 0;
}

static wm_algo_t choose_algo(const wm_mset_t *s) {
    /* Measured (BENCHMARKS.md 4b, 4c): DNA sets go to the q-gram bitmap (one
    ** probe per base); byte sets to the q-gram index by 4 and 8 bytes
    ** (qgram_bytes.c: 3-8x tuned Wu-Manber from 100 to 100,000 signatures),
    ** except a few long patterns, where Wu-Manber's skips pay (10 patterns
    ** of 20-30 bytes case-folded: 0.05 s against 0.09 s for 64 MiB); sets
    ** with patterns too short to index, to the automaton. */
    /* Byte sets of up to 24 strings of 2 bytes or more: nibble fingerprints
    ** (teddy.c; 1 core, 64 MiB of mixed text: 10 strings of 20-30 bytes 0.011 s
    ** against Wu-Manber's 0.046, 8 of 3-10 0.0055 s against the automaton's
    ** 0.13, 24 of 4-64 0.032 against qgram's 0.042; past that the buckets
    ** let too many windows through). */
    if (!s->dna && s->n_uniq <= 24 && s->n_patterns <= WM_TEDDY_MAX_PATTERNS && s->min_len >= 2)
        return WM_ALGO_TEDDY;
    if (s->min_len < WM_QGRAM_MIN_LEN) return WM_ALGO_AC;
    if (s->dna || s->n_uniq >= 64 || s->min_len < 16) return WM_ALGO_QGRAM;
    return WM_ALGO_WUMANBER;
}

wm_status wm_mset_compile(const uint8_t *const *patterns, const size_t *lens, size_t n,
                          const wm_opts_t *o, wm_mset_t **out) {
    *out = NULL;
    if (!patterns || !lens || n == 0 || !o || o->max_edits > 0 || !is_set_algo(o->algo))
        return WM_INVALID;
    int strands = o->revcomp ? 2 : 1;
    if ((uint64_t)n * (uint64_t)strands > (uint64_t)INT32_MAX) return WM_INVALID;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] == 0) return WM_PATTERN_EMPTY;
        if (lens[i] > WM_MAX_PATTERN) return WM_PATTERN_TOO_LONG;
        if (!patterns[i]) return WM_INVALID;
        if (o->alphabet == WM_ALPHABET_DNA || o->revcomp)
            for (size_t j = 0; j < lens[i]; j++)
                if (!is_nucleotide(patterns[i][j])) return WM_INVALID;
        total += lens[i];
    }

    wm_mset_t *s = calloc(1, sizeof *s);
    item_t *it = malloc(n * strands * sizeof *it);
    uint8_t *folded = malloc(total * strands);
    if (!s || !it || !folded) {
        free(s);
        free(it);
        free(folded);
        return WM_NOMEM;
    }
    s->n_patterns = n;
    make_fold(o, s->fold);

    size_t n_items = 0;
    uint8_t *w = folded;
    for (size_t i = 0; i < n; i++) {
        size_t m = lens[i];
        for (size_t j = 0; j < m; j++) w[j] = s->fold[patterns[i][j]];
        it[n_items++] = (item_t){ w, (uint32_t)m, (uint32_t)(i << 1) };
        w += m;
        if (strands == 2) {
            for (size_t j = 0; j < m; j++) w[j] = s->fold[complement(patterns[i][m - 1 - j])];
            it[n_items++] = (item_t){ w, (uint32_t)m, (uint32_t)(i << 1 | 1) };
            w += m;
        }
    }
    /* Equal strings merged by a hash table (a sort of ten million strings by
    ** memcmp took most of a compile), walking the items in entry order so
    ** that uids are numbered by their smallest entry and follow pattern order,
    ** and each uid's entries come in increasing order. */
    wm_status st = WM_NOMEM;
    uint32_t *uid_of = malloc(n_items * sizeof *uid_of);
    uint32_t *first_of = malloc(n_items * sizeof *first_of); /* a uid's first item */
    size_t n_uniq = 0;
    uint64_t uniq_bytes = 0;
    if (!uid_of || !first_of || merge_items(it, n_items, uid_of, first_of, &n_uniq) != 0) goto fail;
    s->n_uniq = n_uniq;
    for (size_t u = 0; u < n_uniq; u++) uniq_bytes += it[first_of[u]].len;
    s->bytes = malloc(uniq_bytes ? uniq_bytes : 1);
    s->off = malloc((n_uniq + 1) * sizeof *s->off);
    s->ent_off = calloc(n_uniq + 1, sizeof *s->ent_off);
    s->ent = malloc(n_items * sizeof *s->ent);
    if (!s->bytes || !s->off || !s->ent_off || !s->ent) goto fail;
    /* Strings and entry lists in uid order. */
    for (size_t x = 0; x < n_items; x++) s->ent_off[uid_of[x] + 1]++;
    for (size_t u = 0; u < n_uniq; u++) s->ent_off[u + 1] += s->ent_off[u];
    uint64_t at = 0;
    s->min_len = UINT32_MAX;
    for (size_t u = 0; u < n_uniq; u++) {
        const item_t *x = &it[first_of[u]];
        memcpy(s->bytes + at, x->bytes, x->len);
        s->off[u] = at;
        at += x->len;
        if (x->len < s->min_len) s->min_len = x->len;
        if (x->len > s->max_len) s->max_len = x->len;
    }
    s->off[n_uniq] = at;
    for (size_t x = 0; x < n_items; x++) s->ent[s->ent_off[uid_of[x]]++] = it[x].ent;
    for (size_t u = n_uniq; u > 0; u--) s->ent_off[u] = s->ent_off[u - 1]; /* back to starts */
    s->ent_off[0] = 0;

    /* Symbols: A C G T as 0..3 when every string is over them (2 bits a
    ** base), else the bytes the strings use in byte order; one more for
    ** every other byte. */
    int used[256] = { 0 };
    for (uint64_t x = 0; x < uniq_bytes;) { /* until all 256 are seen, as byte sets soon are */
        uint64_t end = uniq_bytes - x < 65536 ? uniq_bytes : x + 65536;
        for (; x < end; x++) used[s->bytes[x]] = 1;
        int all = 1;
        for (int c = 0; c < 256 && all; c++) all = used[c];
        if (all) break;
    }
    s->dna = 1;
    for (int c = 0; c < 256; c++)
        if (used[c] && c != 'A' && c != 'C' && c != 'G' && c != 'T') s->dna = 0;
    uint8_t code[256];
    uint32_t sigma = 0;
    if (s->dna) {
        memset(code, 4, sizeof code);
        code['A'] = 0;
        code['C'] = 1;
        code['G'] = 2;
        code['T'] = 3;
        sigma = 5;
    } else {
        for (int c = 0; c < 256; c++) code[c] = used[c] ? (uint8_t)sigma++ : 0;
        sigma++; /* "other" */
        for (int c = 0; c < 256; c++)
            if (!used[c]) code[c] = (uint8_t)(sigma - 1);
    }
    /* When the strings use all 256 bytes there is no "other" byte, and
    ** symbol sigma - 1 is a real one. */
    if (sigma > 256) sigma = 256;
    s->sigma = sigma;
    memset(s->sym_byte, 0, sizeof s->sym_byte);
    for (int c = 0; c < 256; c++) {
        s->sym[c] = code[s->fold[c]];
        if (used[c]) s->sym_byte[code[c]] = (uint8_t)c;
    }

    s->asked = o->algo;
    s->algo = o->algo == WM_ALGO_AUTO ? choose_algo(s) : o->algo;
    switch (s->algo) {
    case WM_ALGO_AC:
    case WM_ALGO_PFAC: st = wm_ac_build(s); break;
    case WM_ALGO_WUMANBER:
    case WM_ALGO_WUMANBER_PAPER: st = wm_wu_build(s, s->algo == WM_ALGO_WUMANBER_PAPER); break;
    case WM_ALGO_QGRAM: st = s->min_len >= WM_QGRAM_MIN_LEN ? wm_qgram_build(s) : WM_INVALID; break;
    case WM_ALGO_TEDDY: st = wm_teddy_build(s); break;
    default: st = WM_INVALID;
    }
    if (st != WM_OK) goto fail;
    free(uid_of);
    free(first_of);
    free(it);
    free(folded);
    *out = s;
    return WM_OK;

fail:
    free(uid_of);
    free(first_of);
    free(it);
    free(folded);
    wm_mset_free(s);
    return st;
}

void wm_mset_free(wm_mset_t *s) {
    if (!s) return;
    wm_ac_free(s->ac);
    wm_wu_free(s->wu);
    wm_qgram_free(s->qg);
    wm_teddy_free(s->td);
    free(s->bytes);
    free(s->off);
    free(s->ent_off);
    free(s->ent);
    free(s);
}

/* ---- wm_compile_set ------------------------------------------------------------ */

static void free_body(void *body) { wm_mset_free((wm_mset_t *)body); }

const wm_db_ops_t wm_multi_db_ops = { "set", wm_multi_scan, free_body };

wm_status wm_compile_set(const uint8_t *const *patterns, const size_t *lens, size_t n,
                         const wm_opts_t *o, wm_db_t **out) {
    if (!out) return WM_INVALID;
    *out = NULL;
    wm_opts_t opts = o ? *o : wm_opts_default();
    if ((unsigned)opts.alphabet > WM_ALPHABET_DNA || (unsigned)opts.algo > WM_ALGO_TEDDY)
        return WM_INVALID;
    if (opts.max_edits > 0) { /* within k errors: another family's */
        wm_setk_t *sk;
        wm_status st = wm_setk_compile(patterns, lens, n, &opts, &sk);
        if (st != WM_OK) return st;
        *out = wm_db_new(&wm_setk_db_ops, sk, n, sk->max_reach - 1,
                         opts.metric == WM_METRIC_HAMMING ? WM_ALGO_BITAP : WM_ALGO_MYERS, &opts);
        return *out ? WM_OK : WM_NOMEM;
    }
    wm_mset_t *s;
    wm_status st = wm_mset_compile(patterns, lens, n, &opts, &s);
    if (st != WM_OK) return st;
    *out = wm_db_new(&wm_multi_db_ops, s, s->n_patterns, s->max_len - 1, s->algo, &opts);
    return *out ? WM_OK : WM_NOMEM;
}
