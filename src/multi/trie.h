/*
** trie.h -- the trie of a pattern set, in the two forms the automata use.
**
** States are numbered breadth-first (root = 0), so the children of a state
** are consecutive states: child_off[v] .. child_off[v+1]-1, sorted by the
** symbol of the edge into them (label[]). That alone is the compact form.
** The full form adds a table of `stride` (sigma rounded up to a power of
** two) entries per state, built when it fits in WM_TRIE_TABLE_MAX bytes:
**   forward Aho-Corasick (ac.c):  the DFA, delta(v, a) with the failure links
**                                 folded in; an entry is the target's row
**                                 offset (state * stride) | WM_TRIE_OUT when
**                                 the target reports something;
**   reverse trie (PFAC):          goto only, 0 = no edge (the root is never a
**                                 target), with the same flag.
** out[v] is the uid whose string ends at v (or WM_TRIE_NONE); dict[v] is the
** nearest state on v's failure chain with an out (0 = none; forward only).
*/
#ifndef WM_MULTI_TRIE_H
#define WM_MULTI_TRIE_H

#include <stdint.h>
#include "multi/mset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_TRIE_NONE 0xffffffffu
#define WM_TRIE_OUT 0x80000000u
#define WM_TRIE_TABLE_MAX (256ull << 20)

typedef struct wm_trie {
    uint32_t n_states;
    uint32_t sigma, stride, shift; /* stride = 1 << shift >= sigma */
    int reverse;                   /* built over the reversed strings */
    uint32_t *child_off;           /* n_states + 1 */
    uint8_t *label;                /* n_states: symbol of the edge into v */
    uint32_t *out;                 /* n_states */
    uint8_t *reports;              /* n_states: out or dict says something */
    uint32_t *fail;                /* forward only */
    uint32_t *dict;                /* forward only */
    uint32_t *table;               /* full form, or NULL */
    uint32_t max_depth;
} wm_trie_t;

/* Build the trie of s's uids (reversed strings when reverse = 1). Forward
** tries get failure and dictionary links; want_table asks for the full form
** (given only when it fits). Returns WM_OK or WM_NOMEM. */
wm_status wm_trie_build(const wm_mset_t *s, int reverse, int want_table, wm_trie_t **out);
void wm_trie_free(wm_trie_t *t);

/* The child of v by symbol a, or 0 when there is none (compact form). */
static inline uint32_t wm_trie_child(const wm_trie_t *t, uint32_t v, uint32_t a) {
    uint32_t lo = t->child_off[v], hi = t->child_off[v + 1];
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (t->label[mid] < a) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->child_off[v + 1] && t->label[lo] == a ? lo : 0;
}

struct wm_ac {
    wm_trie_t *fwd; /* AC: forward automaton */
    wm_trie_t *rev; /* PFAC: reverse trie */
};

#ifdef __cplusplus
}
#endif
#endif
