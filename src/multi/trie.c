/*
** trie.c -- building the trie of a pattern set (see trie.h).
**
** The strings are sorted first; then one pass adds, for each string, the
** nodes below its longest common prefix with the one before, so every
** node's children arrive in symbol order. A breadth-first renumbering makes
** siblings consecutive, which is the compact form; failure links, dictionary
** links and the full table follow in that same order.
*/
#include <stdlib.h>
#include <string.h>

#include "multi/trie.h"

typedef struct {
    const wm_mset_t *s;
    int reverse;
} sort_ctx_t;

static inline uint8_t sym_at(const wm_mset_t *s, uint32_t u, uint32_t j, int reverse) {
    uint32_t m = wm_mset_len(s, u);
    return s->sym[wm_mset_str(s, u)[reverse ? m - 1 - j : j]];
}

static int cmp_uid(const void *pa, const void *pb, void *arg) {
    const sort_ctx_t *c = arg;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    uint32_t ma = wm_mset_len(c->s, a), mb = wm_mset_len(c->s, b);
    uint32_t n = ma < mb ? ma : mb;
    for (uint32_t j = 0; j < n; j++) {
        uint8_t x = sym_at(c->s, a, j, c->reverse), y = sym_at(c->s, b, j, c->reverse);
        if (x != y) return x < y ? -1 : 1;
    }
    return ma < mb ? -1 : ma > mb;
}

void wm_trie_free(wm_trie_t *t) {
    if (!t) return;
    free(t->child_off);
    free(t->label);
    free(t->out);
    free(t->reports);
    free(t->fail);
    free(t->dict);
    free(t->table);
    free(t);
}

wm_status wm_trie_build(const wm_mset_t *s, int reverse, int want_table, wm_trie_t **out) {
    *out = NULL;
    uint64_t total = s->off[s->n_uniq];
    if (total >= 0x7fffffffull) return WM_NOMEM; /* states must fit 31 bits */
    size_t cap = (size_t)total + 1;
    uint32_t *order = malloc(s->n_uniq * sizeof *order);
    /* The linked trie, in creation order. */
    uint32_t *first = malloc(cap * sizeof *first), *last = malloc(cap * sizeof *last);
    uint32_t *next = malloc(cap * sizeof *next), *lout = malloc(cap * sizeof *lout);
    uint8_t *llabel = malloc(cap);
    uint32_t *path = malloc(((size_t)s->max_len + 1) * sizeof *path);
    uint32_t *bfs = NULL;
    wm_trie_t *t = calloc(1, sizeof *t);
    wm_status st = WM_NOMEM;
    if (!order || !first || !last || !next || !lout || !llabel || !path || !t) goto done;

    for (uint32_t u = 0; u < s->n_uniq; u++) order[u] = u;
    sort_ctx_t sc = { s, reverse };
    qsort_r(order, s->n_uniq, sizeof *order, cmp_uid, &sc);

    uint32_t n = 1;
    first[0] = last[0] = next[0] = 0;
    lout[0] = WM_TRIE_NONE;
    llabel[0] = 0;
    path[0] = 0;
    uint32_t prev = WM_TRIE_NONE, depth = 0;
    for (size_t x = 0; x < s->n_uniq; x++) {
        uint32_t u = order[x], m = wm_mset_len(s, u), lcp = 0;
        if (prev != WM_TRIE_NONE) {
            uint32_t pm = wm_mset_len(s, prev), lim = m < pm ? m : pm;
            while (lcp < lim && sym_at(s, u, lcp, reverse) == sym_at(s, prev, lcp, reverse)) lcp++;
        }
        for (uint32_t j = lcp; j < m; j++) {
            uint32_t v = path[j], c = n++;
            first[c] = last[c] = next[c] = 0;
            lout[c] = WM_TRIE_NONE;
            llabel[c] = sym_at(s, u, j, reverse);
            if (first[v] == 0) first[v] = c;
            else next[last[v]] = c;
            last[v] = c;
            path[j + 1] = c;
        }
        lout[path[m]] = u;
        prev = u;
        if (m > depth) depth = m;
    }

    /* Breadth-first renumbering: siblings become consecutive. */
    bfs = malloc((size_t)n * sizeof *bfs);
    t->n_states = n;
    t->sigma = s->sigma;
    t->shift = 0;
    while ((1u << t->shift) < s->sigma) t->shift++;
    t->stride = 1u << t->shift;
    t->reverse = reverse;
    t->max_depth = depth;
    t->child_off = malloc(((size_t)n + 1) * sizeof *t->child_off);
    t->label = malloc(n);
    t->out = malloc((size_t)n * sizeof *t->out);
    t->reports = calloc(n, 1);
    if (!bfs || !t->child_off || !t->label || !t->out || !t->reports) goto done;
    uint32_t head = 0, tail = 1;
    bfs[0] = 0;
    while (head < tail) {
        uint32_t v = bfs[head];
        t->child_off[head] = tail;
        for (uint32_t c = first[v]; c != 0; c = next[c]) bfs[tail++] = c;
        head++;
    }
    t->child_off[n] = n;
    for (uint32_t i = 0; i < n; i++) {
        t->label[i] = llabel[bfs[i]];
        t->out[i] = lout[bfs[i]];
        t->reports[i] = t->out[i] != WM_TRIE_NONE;
    }
    free(first);
    first = NULL;
    free(last);
    last = NULL;
    free(next);
    next = NULL;
    free(lout);
    lout = NULL;
    free(llabel);
    llabel = NULL;

    uint64_t table_bytes = (uint64_t)n * t->stride * sizeof(uint32_t);
    int table = want_table && table_bytes <= WM_TRIE_TABLE_MAX;
    if (table) {
        t->table = calloc((size_t)n * t->stride, sizeof *t->table);
        if (!t->table) goto done;
    }

    if (!reverse) {
        /* Failure links in breadth-first order: a state's failure is the
        ** longest proper suffix of its string that is a prefix in the trie. */
        t->fail = calloc(n, sizeof *t->fail);
        t->dict = calloc(n, sizeof *t->dict);
        if (!t->fail || !t->dict) goto done;
        for (uint32_t v = 0; v < n; v++) {
            for (uint32_t c = t->child_off[v]; c < t->child_off[v + 1]; c++) {
                uint32_t a = t->label[c], f = 0;
                if (v != 0) {
                    if (table) {
                        f = t->table[((size_t)t->fail[v] << t->shift) + a] & ~WM_TRIE_OUT;
                        f >>= t->shift;
                    } else {
                        uint32_t w = t->fail[v];
                        for (;;) {
                            uint32_t x = wm_trie_child(t, w, a);
                            if (x) {
                                f = x;
                                break;
                            }
                            if (w == 0) break;
                            w = t->fail[w];
                        }
                    }
                }
                t->fail[c] = f;
                t->dict[c] = t->out[f] != WM_TRIE_NONE ? f : t->dict[f];
                if (t->dict[c]) t->reports[c] = 1;
            }
            if (table) {
                /* v's row: its own edges, else the failure state's row (done,
                ** since the failure state is shallower). Root: edges or root. */
                uint32_t *row = t->table + ((size_t)v << t->shift);
                if (v != 0)
                    memcpy(row, t->table + ((size_t)t->fail[v] << t->shift),
                           t->stride * sizeof *row);
                for (uint32_t c = t->child_off[v]; c < t->child_off[v + 1]; c++)
                    row[t->label[c]] = c << t->shift;
            }
        }
        if (table) {
            for (size_t i = 0; i < (size_t)n * t->stride; i++)
                if (t->reports[t->table[i] >> t->shift]) t->table[i] |= WM_TRIE_OUT;
        }
    } else if (table) {
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t c = t->child_off[v]; c < t->child_off[v + 1]; c++)
                t->table[((size_t)v << t->shift) + t->label[c]] =
                    (c << t->shift) | (t->reports[c] ? WM_TRIE_OUT : 0);
    }
    st = WM_OK;
    *out = t;
    t = NULL;
done:
    free(order);
    free(first);
    free(last);
    free(next);
    free(lout);
    free(llabel);
    free(path);
    free(bfs);
    wm_trie_free(t);
    return st;
}
