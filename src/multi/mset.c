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
           a == WM_ALGO_WUMANBER_PAPER || a == WM_ALGO_QGRAM;
}

/* Strings to merge: entry e = (pattern id << 1) | strand, its folded bytes. */
typedef struct {
    const uint8_t *bytes;
    uint32_t len;
    uint32_t ent;
} item_t;

static int item_cmp(const void *pa, const void *pb) {
    const item_t *a = pa, *b = pb;
    uint32_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->bytes, b->bytes, n);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return a->ent < b->ent ? -1 : a->ent > b->ent;
}

static wm_algo_t choose_algo(const wm_mset_t *s) {
    /* Measured (BENCHMARKS.md): DNA sets go to the q-gram bitmap (one probe
    ** per base), byte sets to tuned Wu-Manber (it skips, and compiles a
    ** million patterns in about a second where the automaton takes ten);
    ** sets with patterns too short to skip or index, to the automaton. */
    if (s->min_len >= WM_QGRAM_MIN_LEN) return s->dna ? WM_ALGO_QGRAM : WM_ALGO_WUMANBER;
    return WM_ALGO_AC;
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
    qsort(it, n_items, sizeof *it, item_cmp);

    /* Groups of equal strings; uids numbered by their smallest entry, so that
    ** uid order follows pattern order. */
    size_t n_groups = 0;
    uint32_t *group_of = malloc(2 * n * sizeof *group_of);         /* by entry */
    uint32_t *group_first = malloc(n_items * sizeof *group_first); /* item index */
    uint32_t *uid_of_group = malloc(n_items * sizeof *uid_of_group);
    wm_status st = WM_NOMEM;
    if (!group_of || !group_first || !uid_of_group) goto fail;
    for (size_t x = 0; x < n_items; x++) {
        if (x == 0 || it[x].len != it[x - 1].len || memcmp(it[x].bytes, it[x - 1].bytes, it[x].len))
            group_first[n_groups++] = (uint32_t)x;
        group_of[it[x].ent] = (uint32_t)(n_groups - 1);
    }
    for (size_t g = 0; g < n_groups; g++) uid_of_group[g] = UINT32_MAX;
    size_t n_uniq = 0;
    uint64_t uniq_bytes = 0;
    for (uint32_t e = 0; e < (uint32_t)(n * strands); e++) {
        uint32_t ent = strands == 2 ? e : e << 1;
        uint32_t g = group_of[ent];
        if (uid_of_group[g] == UINT32_MAX) {
            uid_of_group[g] = (uint32_t)n_uniq++;
            uniq_bytes += it[group_first[g]].len;
        }
    }
    s->n_uniq = n_uniq;
    s->bytes = malloc(uniq_bytes ? uniq_bytes : 1);
    s->off = malloc((n_uniq + 1) * sizeof *s->off);
    s->ent_off = calloc(n_uniq + 1, sizeof *s->ent_off);
    s->ent = malloc(n_items * sizeof *s->ent);
    if (!s->bytes || !s->off || !s->ent_off || !s->ent) goto fail;
    /* Strings and entry lists in uid order; items of a group are sorted by entry. */
    uint32_t *group_of_uid = malloc(n_uniq * sizeof *group_of_uid);
    if (!group_of_uid) goto fail;
    for (size_t g = 0; g < n_groups; g++) group_of_uid[uid_of_group[g]] = (uint32_t)g;
    uint64_t at = 0;
    uint32_t ne = 0;
    s->min_len = UINT32_MAX;
    for (size_t u = 0; u < n_uniq; u++) {
        uint32_t x = group_first[group_of_uid[u]];
        memcpy(s->bytes + at, it[x].bytes, it[x].len);
        s->off[u] = at;
        at += it[x].len;
        if (it[x].len < s->min_len) s->min_len = it[x].len;
        if (it[x].len > s->max_len) s->max_len = it[x].len;
        s->ent_off[u] = ne;
        for (uint32_t y = x;
             y < n_items && it[y].len == it[x].len && !memcmp(it[y].bytes, it[x].bytes, it[x].len);
             y++)
            s->ent[ne++] = it[y].ent;
    }
    s->off[n_uniq] = at;
    s->ent_off[n_uniq] = ne;
    free(group_of_uid);

    /* Symbols: A C G T as 0..3 when every string is over them (2 bits a
    ** base), else the bytes the strings use in byte order; one more for
    ** every other byte. */
    int used[256] = { 0 };
    for (uint64_t x = 0; x < uniq_bytes; x++) used[s->bytes[x]] = 1;
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
    default: st = WM_INVALID;
    }
    if (st != WM_OK) goto fail;
    free(group_of);
    free(group_first);
    free(uid_of_group);
    free(it);
    free(folded);
    *out = s;
    return WM_OK;

fail:
    free(group_of);
    free(group_first);
    free(uid_of_group);
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
    if ((unsigned)opts.alphabet > WM_ALPHABET_DNA || (unsigned)opts.algo > WM_ALGO_QGRAM)
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
