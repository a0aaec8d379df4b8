/*
** ac.c -- Aho-Corasick on the CPU, and its failureless cousin PFAC.
**
** AC: one pass over the text through the automaton. With the full DFA each
** byte costs one table load, the row offset of the next state being the
** entry itself (no multiply on the dependent chain) and its top bit saying
** whether the state reports; the compact form walks goto lists and failure
** links instead. A reporting state gives its own uid and then those on its
** dictionary-link chain (the shorter patterns that end at the same place).
**
** PFAC: for every end position, walk the trie of the reversed strings
** backwards through the text until the walk falls off; every uid on the way
** ends here. No failure links, ends come out in order.
*/
#include <stdlib.h>

#include "multi/trie.h"

wm_status wm_ac_build(wm_mset_t *s) {
    struct wm_ac *ac = calloc(1, sizeof *ac);
    if (!ac) return WM_NOMEM;
    s->ac = ac;
    if (s->algo == WM_ALGO_PFAC) return wm_trie_build(s, 1, 1, &ac->rev);
    return wm_trie_build(s, 0, 1, &ac->fwd);
}

void wm_ac_free(struct wm_ac *ac) {
    if (!ac) return;
    wm_trie_free(ac->fwd);
    wm_trie_free(ac->rev);
    free(ac);
}

/* Every uid that ends at reporting state v. */
static inline int emit_state(const wm_trie_t *t, uint32_t v, uint64_t end, wm_msink_t *out) {
    if (t->out[v] != WM_TRIE_NONE && wm_msink_put(out, end, t->out[v])) return -1;
    for (uint32_t w = t->dict[v]; w != 0; w = t->dict[w])
        if (wm_msink_put(out, end, t->out[w])) return -1;
    return 0;
}

int wm_ac_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
               uint64_t to, wm_msink_t *out) {
    const wm_trie_t *t = s->ac->fwd;
    const uint8_t *sym = s->sym;
    if (t->table) {
        const uint32_t *T = t->table;
        uint32_t row = 0;
        for (uint64_t i = scan_from; i < to; i++) {
            uint32_t e = T[row + sym[text[i]]];
            row = e & ~WM_TRIE_OUT;
            if ((e & WM_TRIE_OUT) && i >= own_from && emit_state(t, row >> t->shift, i + 1, out))
                return -1;
        }
        return 0;
    }
    uint32_t v = 0;
    for (uint64_t i = scan_from; i < to; i++) {
        uint32_t a = sym[text[i]];
        for (;;) {
            uint32_t c = wm_trie_child(t, v, a);
            if (c) {
                v = c;
                break;
            }
            if (v == 0) break;
            v = t->fail[v];
        }
        if (t->reports[v] && i >= own_from && emit_state(t, v, i + 1, out)) return -1;
    }
    return 0;
}

int wm_pfac_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
                 uint64_t to, wm_msink_t *out) {
    const wm_trie_t *t = s->ac->rev;
    const uint8_t *sym = s->sym;
    for (uint64_t e = own_from + 1; e <= to; e++) {
        uint32_t v = 0;
        for (uint64_t j = e; j > scan_from;) {
            uint32_t a = sym[text[--j]];
            if (t->table) {
                uint32_t x = t->table[((size_t)v << t->shift) + a];
                if (x == 0) break;
                v = (x & ~WM_TRIE_OUT) >> t->shift;
            } else {
                v = wm_trie_child(t, v, a);
                if (v == 0) break;
            }
            if (t->out[v] != WM_TRIE_NONE && wm_msink_put(out, e, t->out[v])) return -1;
        }
    }
    return 0;
}
