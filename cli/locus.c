/*
** locus.c -- --best-per-locus (search.h): one row per occurrence instead of
** one per end position.
**
** A locus is a set of matches of one pattern and strand within one record
** whose intervals [start, end) chain by overlap: two matches are in the
** same locus when they share a byte, and so is every match sharing a byte
** with any of them (transitively). Each locus prints one match: the one with
** the fewest errors, the leftmost end on ties.
**
** Matches come in (record, end, strand) order, but a locus can only be
** closed once no later match can reach it: a match is at most span = m + k
** bytes long (a set's longest pattern + k), so a later match (end >= e)
** starts at or after e - span, and
** a locus whose last byte is before that is final. A new match may join
** several open loci (its start reaches back over them): they merge. The
** chosen matches are printed in (end, strand) order, like every other
** output: one waits until no open locus could still choose an earlier end.
** Memory is the open loci and the waiting rows: a few per span of text,
** and an index of a pattern's open loci (4 bytes a pattern and strand).
**
** Each match is O(1) work besides its own locus's (a million reads give
** millions of matches, and tens of loci are open at once; scanning all of
** them for each match was a tenth of the process's CPU time, on the one
** thread that delivers):
**   - a locus's last byte (hi) is the end of the match that touched it
**     last, ends coming in order: kept in the order of their last touch, the
**     loci to close are a prefix of that list;
**   - a locus's first end (which bounds what may print) is its oldest
**     member's: kept in the order they began (a merge keeps the oldest
**     one's place), the smallest is the head;
**   - a new match can only join loci of its own pattern and strand: each
**     has a chain of its open loci, found through a small hash table of the
**     keys that have open loci (an array of every pattern's chain, 8 MB for
**     a million reads, cost a cache miss a match: 0.38 s of a million reads'
**     8.3 M matches against chrX on the H200 host's delivering thread).
*/
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define NONE UINT32_MAX

/* The two orders of the open loci (a list each, doubly linked). */
enum { TOUCHED, BORN };

/* An open locus, in three lists: by last touch and by birth (prev/next,
** [TOUCHED] and [BORN]), and its pattern and strand's chain (next_same).
** Free nodes chain by next[TOUCHED]. */
struct wm_cli_locus_node {
    uint64_t lo, hi;    /* the union of the members' intervals */
    uint64_t first_end; /* the smallest end of a member */
    wm_match_t best;
    uint32_t prev[2], next[2], next_same;
};
typedef struct wm_cli_locus_node node_t;

/* ---- the chains: pattern * 2 + strand -> its open loci ------------------------- */

/* Open addressing with linear probing; a free slot's key is EMPTY, and a
** key leaves the table when its last open locus closes (the slots after it
** shifted back, so no tombstones). At most half the slots are used. */
#define EMPTY UINT64_MAX
#define FIRST_SLOTS 64

struct wm_cli_locus_slot {
    uint64_t key;
    uint32_t head; /* the key's first open locus (next_same links the rest) */
};
typedef struct wm_cli_locus_slot slot_t;

static size_t home(const wm_cli_locus_t *L, uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (L->n_slots - 1);
}

static slot_t *slots_new(size_t n) {
    slot_t *t = malloc(n * sizeof *t);
    for (size_t i = 0; t != NULL && i < n; i++) t[i].key = EMPTY;
    return t;
}

/* The key's slot, or NULL when it has no open locus. */
static slot_t *find(const wm_cli_locus_t *L, uint64_t key) {
    for (size_t i = home(L, key);; i = (i + 1) & (L->n_slots - 1)) {
        if (L->slot[i].key == key) return &L->slot[i];
        if (L->slot[i].key == EMPTY) return NULL;
    }
}

/* e into the first free slot from its home (the table has one free). */
static slot_t *place(wm_cli_locus_t *L, slot_t e) {
    size_t i = home(L, e.key);
    while (L->slot[i].key != EMPTY) i = (i + 1) & (L->n_slots - 1);
    L->slot[i] = e;
    return &L->slot[i];
}

/* The key's slot, made (head NONE) when it has none; NULL out of memory.
** Moves the slots: a slot pointer taken before is stale. */
static slot_t *find_or_add(wm_cli_locus_t *L, uint64_t key) {
    slot_t *t = find(L, key);
    if (t != NULL) return t;
    if (2 * (L->n_used + 1) > L->n_slots) { /* grow: rehash into twice the slots */
        slot_t *bigger = slots_new(2 * L->n_slots), *old = L->slot;
        if (bigger == NULL) return NULL;
        size_t old_n = L->n_slots;
        L->slot = bigger;
        L->n_slots = 2 * old_n;
        for (size_t i = 0; i < old_n; i++)
            if (old[i].key != EMPTY) place(L, old[i]);
        free(old);
    }
    L->n_used++;
    slot_t e = { key, NONE };
    return place(L, e);
}

/* Take the slot out, shifting back the slots after it that probed past it. */
static void erase(wm_cli_locus_t *L, slot_t *t) {
    size_t mask = L->n_slots - 1, hole = (size_t)(t - L->slot);
    for (size_t i = (hole + 1) & mask; L->slot[i].key != EMPTY; i = (i + 1) & mask) {
        size_t h = home(L, L->slot[i].key);
        /* slot i may move to the hole when its home is not in (hole, i] */
        if (((i - h) & mask) >= ((i - hole) & mask)) {
            L->slot[hole] = L->slot[i];
            hole = i;
        }
    }
    L->slot[hole].key = EMPTY;
    L->n_used--;
}

int wm_cli_locus_init(wm_cli_locus_t *L, uint64_t span, wm_cli_emit_t emit, void *user) {
    memset(L, 0, sizeof *L);
    L->span = span;
    L->emit = emit;
    L->user = user;
    L->free_node = NONE;
    for (int o = 0; o < 2; o++) L->head[o] = L->tail[o] = NONE;
    L->n_slots = FIRST_SLOTS;
    L->slot = slots_new(L->n_slots);
    return L->slot != NULL ? 0 : -1;
}

void wm_cli_locus_free(wm_cli_locus_t *L) {
    free(L->node);
    free(L->slot);
    free(L->ready);
    L->node = NULL;
    L->slot = NULL;
    L->ready = NULL;
    L->n_ready = L->cap_ready = 0;
    L->cap_node = 0;
    L->n_slots = L->n_used = 0;
}

/* a before b in the output: end, then pattern (a set's), then strand */
static int before(const wm_match_t *a, const wm_match_t *b) {
    if (a->end != b->end) return a->end < b->end;
    if (a->pattern != b->pattern) return a->pattern < b->pattern;
    return a->strand < b->strand;
}

/* The better of two matches of one locus: fewer errors, then the leftmost end. */
static int better(const wm_match_t *a, const wm_match_t *b) {
    return a->errors < b->errors || (a->errors == b->errors && a->end < b->end);
}

static uint64_t key_of(const wm_match_t *m) { return (uint64_t)m->pattern * 2 + (m->strand & 1); }

/* ---- the lists ---------------------------------------------------------------- */

static void unlink_from(wm_cli_locus_t *L, int o, uint32_t i) {
    node_t *n = &L->node[i];
    if (n->prev[o] != NONE) L->node[n->prev[o]].next[o] = n->next[o];
    else L->head[o] = n->next[o];
    if (n->next[o] != NONE) L->node[n->next[o]].prev[o] = n->prev[o];
    else L->tail[o] = n->prev[o];
}

static void append_to(wm_cli_locus_t *L, int o, uint32_t i) {
    node_t *n = &L->node[i];
    n->prev[o] = L->tail[o];
    n->next[o] = NONE;
    if (L->tail[o] != NONE) L->node[L->tail[o]].next[o] = i;
    else L->head[o] = i;
    L->tail[o] = i;
}

/* Take locus i out of its chain and the two lists, and free its node; the
** key leaves the table with its last open locus. */
static void drop(wm_cli_locus_t *L, uint32_t i) {
    slot_t *t = find(L, key_of(&L->node[i].best)); /* (there: i is open) */
    uint32_t *link = &t->head;
    while (*link != i) link = &L->node[*link].next_same;
    *link = L->node[i].next_same;
    if (t->head == NONE) erase(L, t);
    unlink_from(L, TOUCHED, i);
    unlink_from(L, BORN, i);
    L->node[i].next[TOUCHED] = L->free_node;
    L->free_node = i;
}

/* A free node, the arrays grown as needed; NONE out of memory. */
static uint32_t node_new(wm_cli_locus_t *L) {
    if (L->free_node == NONE) {
        uint32_t cap = L->cap_node ? 2 * L->cap_node : 64;
        if (cap <= L->cap_node || cap == NONE) return NONE;
        node_t *n = realloc(L->node, (size_t)cap * sizeof *n);
        if (n == NULL) return NONE;
        L->node = n;
        for (uint32_t i = cap; i-- > L->cap_node;) { /* the lowest first */
            n[i].next[TOUCHED] = L->free_node;
            L->free_node = i;
        }
        L->cap_node = cap;
    }
    uint32_t i = L->free_node;
    L->free_node = L->node[i].next[TOUCHED];
    return i;
}

/* ---- closing and printing --------------------------------------------------------- */

/* Move open locus i's match to the waiting rows, kept in output order. */
static int close_locus(wm_cli_locus_t *L, uint32_t i) {
    if (L->n_ready == L->cap_ready) {
        size_t cap = L->cap_ready ? 2 * L->cap_ready : 16;
        wm_match_t *r = realloc(L->ready, cap * sizeof *r);
        if (r == NULL) return -1;
        L->ready = r;
        L->cap_ready = cap;
    }
    wm_match_t m = L->node[i].best;
    size_t j = L->n_ready;
    while (j > 0 && before(&m, &L->ready[j - 1])) {
        L->ready[j] = L->ready[j - 1];
        --j;
    }
    L->ready[j] = m;
    L->n_ready++;
    drop(L, i);
    return 0;
}

/* Print the waiting rows that no open locus can precede (all of them when
** all is set). Returns non-zero when the printer asked to stop. */
static int release(wm_cli_locus_t *L, int all) {
    uint64_t min_end = all || L->head[BORN] == NONE ? UINT64_MAX : L->node[L->head[BORN]].first_end;
    size_t k = 0;
    while (k < L->n_ready && (all || L->ready[k].end < min_end)) k++;
    int stop = k > 0 && L->emit(L->user, L->ready, k); /* one run */
    if (k > 0) { /* (ready may still be NULL: nothing closed yet) */
        memmove(L->ready, L->ready + k, (L->n_ready - k) * sizeof *L->ready);
        L->n_ready -= k;
    }
    if (stop) L->stopped = 1;
    return stop;
}

/* Close every open locus and print everything: the end of a record. */
static int flush_all(wm_cli_locus_t *L) {
    while (L->head[TOUCHED] != NONE)
        if (close_locus(L, L->head[TOUCHED]) < 0) return -1;
    return release(L, 1);
}

int wm_cli_locus_push(wm_cli_locus_t *L, const wm_match_t *m) {
    if (L->stopped) return 1;
    if (L->any && m->record != L->rec) {
        int rc = flush_all(L);
        if (rc != 0) return rc;
    }
    L->rec = m->record;
    L->any = 1;
    /* loci no later match can reach: their last ends are the oldest */
    while (L->head[TOUCHED] != NONE && L->node[L->head[TOUCHED]].hi + L->span <= m->end)
        if (close_locus(L, L->head[TOUCHED]) < 0) return -1;
    /* the match joins every open locus of its pattern and strand it
    ** overlaps; they become one, in the place of the one born first */
    uint64_t key = key_of(m);
    uint32_t keep = NONE;
    uint64_t lo = m->start, first_end = m->end;
    wm_match_t best = *m;
    const slot_t *t = find(L, key);
    for (uint32_t i = t != NULL ? t->head : NONE, next; i != NONE; i = next) {
        const node_t *o = &L->node[i];
        next = o->next_same;
        if (o->best.pattern != m->pattern || o->best.strand != m->strand || o->hi <= m->start ||
            o->lo >= m->end)
            continue;
        if (o->lo < lo) lo = o->lo;
        if (better(&o->best, &best)) best = o->best;
        uint32_t gone = i; /* of keep and i, the one born later */
        if (keep == NONE) {
            keep = i;
            gone = NONE;
            first_end = o->first_end;
        } else if (o->first_end < first_end) {
            gone = keep;
            keep = i;
            first_end = o->first_end;
        }
        if (gone != NONE) drop(L, gone);
    }
    if (keep == NONE) {
        keep = node_new(L);
        slot_t *add = keep != NONE ? find_or_add(L, key) : NULL;
        if (add == NULL) return -1;
        L->node[keep].next_same = add->head;
        add->head = keep;
        append_to(L, BORN, keep);
    } else {
        unlink_from(L, TOUCHED, keep);
    }
    node_t *n = &L->node[keep];
    n->lo = lo;
    n->hi = m->end; /* ends come in order: the union's last byte */
    n->first_end = first_end;
    n->best = best;
    append_to(L, TOUCHED, keep);
    return release(L, 0);
}

int wm_cli_locus_finish(wm_cli_locus_t *L) {
    if (L->stopped) return 0;
    int rc = flush_all(L);
    L->any = 0;
    return rc < 0 ? -1 : 0;
}
