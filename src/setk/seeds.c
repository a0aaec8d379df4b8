/*
** seeds.c -- compiling a set within k errors: the patterns copied, their
** pieces keyed into one hash table (setk.h says why pieces and keys).
**
** The key length q is one for the whole set, so the scan rolls one key per
** position: the longest that every keyed pattern's pieces hold (at most
** QMAX), never shorter than QMIN; a pattern whose pieces are shorter, or
** (DNA) one with a piece holding no q bases free of IUPAC codes, is scanned
** whole ("direct"), both strands.
*/
#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "search/search.h"
#include "setk/setk.h"

static int base_code(uint8_t c) {
    switch (c) {
    case 'A':
    case 'a': return 0;
    case 'C':
    case 'c': return 1;
    case 'G':
    case 'g': return 2;
    case 'T':
    case 't':
    case 'U':
    case 'u': return 3;
    default: return -1;
    }
}

/* A text byte's key symbol: a base 0..3 (DNA; -1 for any other byte, which
** no pattern position accepts but IUPAC codes of several bases, never keyed),
** or the byte, folded when case is ignored. */
static int text_symbol(const wm_setk_t *s, uint8_t c) {
    if (s->dna) return base_code(c);
    return s->opts.case_insensitive ? tolower(c) : c;
}

/* A pattern byte's key symbol: as the text's, except that a DNA code for
** several bases (R, N, ...) has none (a key of it would miss some texts). */
static int pattern_symbol(const wm_setk_t *s, uint8_t c) { return text_symbol(s, c); }

typedef wm_setk_keyed_seed_t keyed_t;

/* The key of p[at, at + q), or -1 when a byte there has no symbol. */
static int64_t key_at(const wm_setk_t *s, const uint8_t *p, size_t at) {
    uint64_t code = 0;
    for (unsigned j = 0; j < s->q; j++) {
        int c = pattern_symbol(s, p[at + j]);
        if (c < 0) return -1;
        code = s->dna ? code << 2 | (uint64_t)c : code << 8 | (uint64_t)c;
    }
    return (int64_t)code;
}

/* Key every piece of one strand of pattern i (bytes p), cut into k + need
** pieces, into v: the first q-window of each piece with a key. 0, or 1 when
** a piece has none. */
static int key_pieces(const wm_setk_t *s, uint32_t i, uint32_t strand, const uint8_t *p, size_t m,
                      unsigned need, keyed_t *v, size_t *nv) {
    uint32_t last = s->opts.max_edits + need - 1; /* pieces 0..last */
    size_t L = m / (last + 1);
    for (uint32_t piece = 0; piece <= last; piece++) {
        size_t off = (size_t)piece * L, len = piece < last ? L : m - (size_t)last * L;
        int64_t code = -1;
        size_t at = off;
        for (; at + s->q <= off + len && code < 0; at++) code = key_at(s, p, at);
        if (code < 0) return 1;
        v[*nv].code = (uint64_t)code;
        v[*nv].seed.pat = i;
        v[*nv].seed.key_off = (uint32_t)(at - 1);
        v[*nv].seed.piece = (uint16_t)piece;
        v[*nv].seed.strand = (uint8_t)strand;
        v[*nv].seed.need = (uint8_t)need;
        (*nv)++;
    }
    return 0;
}

/* Key both strands of pattern i with k + need pieces; 0, or 1 (v as it was)
** when a piece of either strand has no key. */
static int key_pattern(const wm_setk_t *s, uint32_t i, const uint8_t *p, size_t m, uint8_t *rc,
                       const uint8_t *comp, unsigned need, keyed_t *v, size_t *nv) {
    size_t before = *nv;
    if (m / (s->opts.max_edits + need) < s->q) return 1;
    int fail = key_pieces(s, i, 0, p, m, need, v, nv);
    if (!fail && s->opts.revcomp) {
        for (size_t j = 0; j < m; j++) rc[j] = comp[p[m - 1 - j]];
        fail = key_pieces(s, i, 1, rc, m, need, v, nv);
    }
    if (fail) *nv = before;
    return fail;
}

/* The patterns' bytes checked on the pool: the first pattern with a byte
** that is no IUPAC code (a million reads are 150 MB, a tenth of a second of
** one thread). */
typedef struct {
    const uint8_t *const *patterns;
    const size_t *lens;
    size_t n, slices;
    uint8_t base[256]; /* a table: a call a byte was a tenth of a million reads' compile */
    size_t *first_bad; /* [slices]: the slice's first pattern at fault, or n */
} bytes_job_t;

static void check_bytes(void *arg, size_t r, int tid) {
    (void)tid;
    bytes_job_t *J = arg;
    size_t lo = J->n * r / J->slices, hi = J->n * (r + 1) / J->slices;
    J->first_bad[r] = J->n;
    for (size_t i = lo; i < hi; i++) {
        const uint8_t *p = J->patterns[i];
        size_t j = 0;
        if (p)
            while (j < J->lens[i] && J->base[p[j]]) j++;
        if (p && j < J->lens[i]) {
            J->first_bad[r] = i;
            return;
        }
    }
}

static wm_status check(const uint8_t *const *patterns, const size_t *lens, size_t n,
                       const wm_opts_t *o, wm_pool_t *pool) {
    if (n == 0 || !patterns || !lens || o->max_edits == 0) return WM_INVALID;
    if ((unsigned)o->metric > WM_METRIC_HAMMING || (unsigned)o->alphabet > WM_ALPHABET_DNA ||
        o->algo != WM_ALGO_AUTO)
        return WM_INVALID;
    size_t bad = n; /* the first pattern with a byte no IUPAC code */
    if (o->alphabet == WM_ALPHABET_DNA || o->revcomp) {
        bytes_job_t J = {
            patterns, lens, n, pool ? 4 * (size_t)wm_pool_size(pool) : 1, { 0 }, NULL
        };
        if (J.slices > n) J.slices = n;
        if (!(J.first_bad = malloc(J.slices * sizeof *J.first_bad))) return WM_NOMEM;
        for (int c = 0; c < 256; c++) J.base[c] = wm_iupac_bases((uint8_t)c) != 0;
        if (pool) wm_pool_for(pool, J.slices, check_bytes, &J);
        else check_bytes(&J, 0, 0);
        for (size_t r = 0; r < J.slices && bad == n; r++) bad = J.first_bad[r];
        free(J.first_bad);
    }
    for (size_t i = 0; i < n; i++) { /* the first pattern at fault says why */
        if (!patterns[i] && lens[i] > 0) return WM_INVALID;
        if (lens[i] == 0) return WM_PATTERN_EMPTY;
        if (lens[i] > WM_MAX_PATTERN) return WM_PATTERN_TOO_LONG;
        if (o->max_edits >= lens[i]) return WM_K_TOO_LARGE;
        wm_status st = wm_flanks_check(lens[i], o);
        if (st != WM_OK) return st;
        if (i == bad) return WM_INVALID;
    }
    return WM_OK;
}

/* The key length: the shortest piece among those at least QMIN long, at most
** QMAX; 0 when no pattern has pieces that long. */
static unsigned shortest_piece(const wm_setk_t *s, unsigned qmin, unsigned q, double *seeds) {
    int any = 0;
    *seeds = 0;
    for (size_t i = 0; i < s->n; i++) {
        size_t L = wm_setk_mid_len(s, i) / (s->opts.max_edits + 1);
        if (L < qmin) continue;
        any = 1;
        *seeds += (double)(s->opts.max_edits + 1) * (s->opts.revcomp ? 2 : 1);
        if (L < q) q = (unsigned)L;
    }
    return any ? q : 0;
}

static unsigned key_length(const wm_setk_t *s) {
    double seeds;
    unsigned q = shortest_piece(s, s->dna ? WM_SETK_QMIN_DNA : WM_SETK_QMIN_BYTES,
                                s->dna ? WM_SETK_QMAX_DNA : WM_SETK_QMAX_BYTES, &seeds);
    if (q > 0 || !s->dna) return q;
    /* no piece of 12 bases: shorter keys, if they stay sparse */
    q = shortest_piece(s, WM_SETK_QMIN_DNA_SHORT, WM_SETK_QMIN_DNA - 1, &seeds);
    return q > 0 && seeds <= WM_SETK_SHORT_LOAD * (double)(1ull << (2 * q)) ? q : 0;
}

/* The table from the sorted seeds, on the pool's threads: slices of the
** seeds count their distinct keys, then (each from its first key's index,
** the counts summed before it) fill key, first and seed, set the filter's
** bits, and note each key's home slot. The keys then go in by home slot:
** linear probing's slots taken in order are one pass over the table, where
** inserting them in key order missed the cache on every probe (for a
** million reads, 10^7 keys in a 128 MiB table: a second of one thread).
** Any order of insertion makes a table linear probing reads the same. */
typedef struct {
    wm_setk_t *s;
    const keyed_t *v;
    size_t nv, slices;
    size_t *at;   /* [slices + 1]: a slice's distinct keys, then its first key's index */
    uint64_t *hu; /* [n_keys]: u << 32 | the key's home slot (the sort's
                     16-bit digits then read no bit of u) */
} table_job_t;

static void table_slice(const table_job_t *J, size_t i, size_t *lo, size_t *hi) {
    *lo = J->nv * i / J->slices;
    *hi = J->nv * (i + 1) / J->slices;
}

static void count_keys(void *arg, size_t i, int tid) {
    (void)tid;
    const table_job_t *J = arg;
    size_t lo, hi, nk = 0;
    table_slice(J, i, &lo, &hi);
    for (size_t x = lo; x < hi; x++) nk += x == 0 || J->v[x].code != J->v[x - 1].code;
    J->at[i] = nk;
}

static void fill_keys(void *arg, size_t i, int tid) {
    (void)tid;
    const table_job_t *J = arg;
    wm_setk_t *s = J->s;
    size_t lo, hi, u = J->at[i];
    table_slice(J, i, &lo, &hi);
    for (size_t x = lo; x < hi; x++) {
        if (x == 0 || J->v[x].code != J->v[x - 1].code) {
            uint64_t code = J->v[x].code;
            s->key[u] = code;
            s->first[u] = (uint32_t)x;
            J->hu[u] = (uint64_t)u << 32 | wm_setk_hash(code, s->bits);
            uint64_t f = wm_setk_filter_bit(code, s->filter_bits);
            __atomic_fetch_or(&s->filter[f >> 6], 1ull << (f & 63), __ATOMIC_RELAXED);
            u++;
        }
        s->seed[x] = J->v[x].seed;
    }
}

/* Put every key in its slot, hu sorted by home slot (ties in key order). */
static void place_keys(wm_setk_t *s, uint64_t *hu, size_t nk) {
    uint64_t mask = ((uint64_t)1 << s->bits) - 1, last = 0;
    size_t wrapped = 0; /* keys pushed past the last slot, kept at hu's front */
    for (size_t i = 0; i < nk; i++) {
        uint64_t h = hu[i] & mask, pos = i > wrapped && last >= h ? last + 1 : h;
        if (pos > mask) {
            hu[wrapped++] = hu[i];
            continue;
        }
        s->slot[pos] = (uint32_t)(hu[i] >> 32) + 1;
        last = pos;
    }
    for (size_t i = 0; i < wrapped; i++) { /* from the table's start, as probing wraps */
        uint64_t h = hu[i] & mask;
        while (s->slot[h] != 0) h = (h + 1) & mask;
        s->slot[h] = (uint32_t)(hu[i] >> 32) + 1;
    }
}

static wm_status build_table(wm_setk_t *s, keyed_t *v, size_t nv, wm_pool_t *pool) {
    free(s->filter); /* (a try that ran out of memory) */
    free(s->slot);
    free(s->key);
    free(s->first);
    free(s->seed);
    s->filter = NULL;
    s->slot = NULL;
    s->key = NULL;
    s->first = NULL;
    s->seed = NULL;
    /* stable: seeds were made in (pattern, strand, piece) order, kept in a key */
    if (wm_setk_radix_sort_on(pool, v, nv, sizeof *v, (s->dna ? 2 : 8) * s->q)) return WM_NOMEM;
    size_t slices = pool && nv >= WM_SETK_PAR_SORT_MIN ? 4 * (size_t)wm_pool_size(pool) : 1;
    table_job_t J = { s, v, nv, slices, calloc(slices + 1, sizeof(size_t)), NULL };
    if (!J.at) return WM_NOMEM;
    if (slices > 1) wm_pool_for(pool, slices, count_keys, &J);
    else count_keys(&J, 0, 0);
    size_t nk = 0;
    for (size_t i = 0; i < slices; i++) { /* counts -> each slice's first key */
        size_t c = J.at[i];
        J.at[i] = nk;
        nk += c;
    }
    unsigned bits = wm_setk_slot_bits(nk);
    s->bits = bits;
    if (bits > 32) { /* 2^31 keys: more than the seeds' 32-bit indices hold anyway */
        free(J.at);
        return WM_NOMEM;
    }
    unsigned fbits = wm_setk_filter_bits(nk);
    s->filter_bits = fbits;
    s->filter = calloc(((size_t)1 << fbits) / 64, sizeof *s->filter);
    s->slot = calloc((size_t)1 << bits, sizeof *s->slot);
    s->key = malloc((nk ? nk : 1) * sizeof *s->key);
    s->first = malloc((nk + 1) * sizeof *s->first);
    s->seed = malloc((nv ? nv : 1) * sizeof *s->seed);
    J.hu = malloc((nk ? nk : 1) * sizeof *J.hu);
    wm_status st = WM_OK;
    if (!s->filter || !s->slot || !s->key || !s->first || !s->seed || !J.hu) st = WM_NOMEM;
    if (st == WM_OK) {
        if (slices > 1) wm_pool_for(pool, slices, fill_keys, &J);
        else fill_keys(&J, 0, 0);
        /* by home slot (the low bits), stably */
        if (wm_setk_radix_sort_on(pool, J.hu, nk, sizeof *J.hu, bits)) st = WM_NOMEM;
    }
    if (st == WM_OK) {
        place_keys(s, J.hu, nk);
        s->first[nk] = (uint32_t)nv;
        s->n_keys = nk;
    }
    free(J.at);
    free(J.hu);
    return st;
}

/* Range r of `ranges` of the patterns, [lo, hi), keyed: its seeds into v
** from lo * per (at most `per` a pattern), its patterns scanned whole into
** s->direct from lo. Three pieces asked where the pattern holds k + 3 keys,
** else two where it holds k + 2, else one; else the pattern is scanned
** whole. */
typedef struct {
    const wm_setk_t *s;
    const uint8_t *const *patterns;
    keyed_t *v;
    size_t per, n, ranges, max_len;
    size_t *nv; /* [ranges] seeds of each range, from lo * per */
    size_t *nd; /* [ranges] patterns scanned whole, from lo */
    int failed;
    uint8_t comp[256]; /* wm_iupac_complement's, a call a byte on the other strand */
} keying_t;

static void key_range(void *arg, size_t r, int tid) {
    (void)tid;
    keying_t *K = arg;
    const wm_setk_t *s = K->s;
    size_t lo = K->n * r / K->ranges, hi = K->n * (r + 1) / K->ranges, nv = 0, nd = 0;
    uint8_t *rc = malloc(K->max_len ? K->max_len : 1);
    if (!rc) {
        K->failed = 1;
        return;
    }
    keyed_t *v = K->v ? K->v + lo * K->per : NULL; /* (none when nothing can be seeded) */
    for (size_t i = lo; i < hi; i++) {
        /* the range's patterns into the arena first (s->pat: their places) */
        memcpy((uint8_t *)s->pat[i], K->patterns[i], s->len[i]);
        int keyed = 0;
        for (unsigned need = 3; s->q > 0 && need >= 1 && !keyed; need--)
            keyed = !key_pattern(s, (uint32_t)i, K->patterns[i] + s->opts.exact_prefix,
                                 wm_setk_mid_len(s, i), rc, K->comp, need, v, &nv);
        if (!keyed) s->direct[lo + nd++] = (uint32_t)i;
    }
    free(rc);
    K->nv[r] = nv;
    K->nd[r] = nd;
}

/* Key every pattern, on `pool` when there is one: ranges of patterns side by
** side, then each range's seeds and direct patterns moved up behind the
** ones before, so that both come in pattern order as on one thread. */
static wm_status key_all(wm_setk_t *s, const uint8_t *const *patterns, size_t max_len, size_t per,
                         keyed_t *v, size_t *nv, wm_pool_t *pool) {
    size_t ranges = pool ? 8 * (size_t)wm_pool_size(pool) : 1;
    if (ranges > s->n) ranges = s->n;
    keying_t K = { s,
                   patterns,
                   v,
                   per,
                   s->n,
                   ranges,
                   max_len,
                   calloc(ranges, sizeof(size_t)),
                   calloc(ranges, sizeof(size_t)),
                   0,
                   { 0 } };
    for (int c = 0; c < 256; c++) K.comp[c] = wm_iupac_complement((uint8_t)c);
    if (!K.nv || !K.nd) {
        free(K.nv);
        free(K.nd);
        return WM_NOMEM;
    }
    if (pool) wm_pool_for(pool, ranges, key_range, &K);
    else key_range(&K, 0, 0);
    size_t at = 0, dn = 0;
    for (size_t r = 0; r < ranges; r++) {
        size_t lo = s->n * r / ranges;
        if (K.nv[r]) memmove(v + at, v + lo * per, K.nv[r] * sizeof *v);
        if (K.nd[r]) memmove(s->direct + dn, s->direct + lo, K.nd[r] * sizeof *s->direct);
        at += K.nv[r];
        dn += K.nd[r];
    }
    *nv = at;
    s->n_direct = dn;
    free(K.nv);
    free(K.nd);
    return K.failed ? WM_NOMEM : WM_OK;
}

/* A pool for compile_threads, when the set is large enough to pay for it. */
static wm_pool_t *compile_pool(const wm_opts_t *o, size_t n) {
    int t = o->compile_threads;
    if (t < 2 || n < 4096) return NULL;
    return wm_pool_new(t > 64 ? 64 : t);
}

wm_status wm_setk_compile(const uint8_t *const *patterns, const size_t *lens, size_t n,
                          const wm_opts_t *o, wm_setk_t **out) {
    *out = NULL;
    wm_pool_t *pool = o && n > 0 ? compile_pool(o, n) : NULL;
    wm_status st = check(patterns, lens, n, o, pool);
    wm_setk_t *s = st == WM_OK ? calloc(1, sizeof *s) : NULL;
    if (st == WM_OK && !s) st = WM_NOMEM;
    if (st != WM_OK) {
        wm_pool_free(pool);
        return st;
    }
    s->n = n;
    static atomic_uint_fast64_t next_id = 1;
    s->id = atomic_fetch_add(&next_id, 1);
    while (s->pat_bits < 32 && ((uint64_t)1 << s->pat_bits) < n) s->pat_bits++;
    s->opts = *o;
    s->dna = o->alphabet == WM_ALPHABET_DNA;
    s->spread = o->metric == WM_METRIC_EDIT ? o->max_edits : 0;
    s->pre[0] = s->suf[1] = o->exact_prefix;
    s->suf[0] = s->pre[1] = o->exact_suffix;
    s->shift_max = o->exact_prefix > o->exact_suffix ? o->exact_prefix : o->exact_suffix;
    size_t total = 0, max_len = 0;
    for (size_t i = 0; i < n; i++) {
        total += lens[i];
        if (lens[i] > max_len) max_len = lens[i];
    }
    s->max_reach = max_len + s->spread;
    for (int c = 0; c < 256; c++) s->sym[c] = (int16_t)text_symbol(s, (uint8_t)c);
    s->pat = malloc(n * sizeof *s->pat);
    s->len = malloc(n * sizeof *s->len);
    s->arena = malloc(total);
    s->direct = malloc(n * sizeof *s->direct);
    int strands = o->revcomp ? 2 : 1;
    /* Seed counts fit the table's 32-bit indices: at most k + 3 a strand. */
    size_t per = (size_t)strands * (o->max_edits + 3), cap = n * per;
    keyed_t *v = NULL;
    if (!s->pat || !s->len || !s->arena || !s->direct) st = WM_NOMEM;
    if (st == WM_OK && cap >= UINT32_MAX) st = WM_NOMEM;
    if (st == WM_OK) {
        size_t at = 0; /* each pattern's place in the arena; key_all copies them there */
        for (size_t i = 0; i < n; i++) {
            s->pat[i] = s->arena + at;
            s->len[i] = lens[i];
            at += lens[i];
        }
        s->q = key_length(s);
    }
    if (st == WM_OK && s->q > 0 && !(v = malloc(cap * sizeof *v))) st = WM_NOMEM;
    size_t nv = 0;
    if (st == WM_OK) st = key_all(s, patterns, max_len, per, v, &nv, pool);
    wm_pool_free(pool);
    if (st == WM_OK && nv > 0 && nv < cap) { /* the room keying did not take */
        keyed_t *fit = realloc(v, nv * sizeof *v);
        if (fit) v = fit;
    }
    s->keyed = v; /* the tables come from them where first needed */
    s->n_seeds = nv;
    if (st == WM_OK && pthread_mutex_init(&s->lock, NULL) != 0) st = WM_NOMEM;
    else if (st == WM_OK) s->lock_made = 1;
    if (st != WM_OK) {
        wm_setk_free(s);
        return st;
    }
    *out = s;
    return WM_OK;
}

wm_status wm_setk_host_table(const wm_setk_t *cs, wm_pool_t *pool) {
    wm_setk_t *s = (wm_setk_t *)cs; /* built once, under its lock */
    pthread_mutex_lock(&s->lock);
    wm_status st = WM_OK;
    if (!s->host_table) {
        st = build_table(s, s->keyed, s->n_seeds, pool);
        if (st == WM_OK) {
            free(s->keyed);
            s->keyed = NULL;
            s->host_table = 1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return st;
}

void wm_setk_free(void *body) {
    wm_setk_t *s = body;
    if (!s) return;
    free(s->pat);
    free(s->len);
    free(s->arena);
    free(s->filter);
    free(s->slot);
    free(s->key);
    free(s->first);
    free(s->seed);
    free(s->direct);
    free(s->keyed);
    if (s->lock_made) pthread_mutex_destroy(&s->lock);
    free(s);
}
