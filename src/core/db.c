/*
** db.c -- the database handle: what every compiled database has whatever
** family compiled it (magic, the family's ops, pattern count, halo, the
** options), and the calls that only need that much. The body -- one
** pattern's match tables (src/search/compile.c) or a set's automata
** (src/multi/mset.c) -- belongs to its family.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

wm_opts_t wm_opts_default(void) {
    wm_opts_t o;
    memset(&o, 0, sizeof o);
    o.max_edits = 0;
    o.metric = WM_METRIC_EDIT;
    o.case_insensitive = 0;
    o.alphabet = WM_ALPHABET_BYTES;
    o.revcomp = 0;
    o.algo = WM_ALGO_AUTO;
    return o;
}

const char *wm_algo_name(wm_algo_t a) {
    switch (a) {
    case WM_ALGO_AUTO: return "auto";
    case WM_ALGO_SHIFTOR: return "shiftor";
    case WM_ALGO_BITAP: return "bitap";
    case WM_ALGO_MYERS: return "myers";
    case WM_ALGO_AC: return "ac";
    case WM_ALGO_PFAC: return "pfac";
    case WM_ALGO_WUMANBER: return "wumanber";
    case WM_ALGO_WUMANBER_PAPER: return "wumanber-paper";
    case WM_ALGO_QGRAM: return "qgram";
    case WM_ALGO_TEDDY: return "teddy";
    }
    return "unknown";
}

wm_db_t *wm_db_new(const wm_db_ops_t *ops, void *body, size_t n_patterns, uint64_t halo,
                   wm_algo_t algo, const wm_opts_t *opts) {
    wm_db_t *db = calloc(1, sizeof *db);
    if (!db) {
        ops->free_body(body);
        return NULL;
    }
    db->magic = WM_DB_MAGIC;
    db->ops = ops;
    db->body = body;
    db->n_patterns = n_patterns;
    db->halo = halo;
    db->algo = algo;
    db->opts = *opts;
    return db;
}

size_t wm_db_pattern_count(const wm_db_t *db) {
    return db && db->magic == WM_DB_MAGIC ? db->n_patterns : 0;
}

wm_algo_t wm_db_algo(const wm_db_t *db) {
    return db && db->magic == WM_DB_MAGIC ? db->algo : WM_ALGO_AUTO;
}

void wm_db_free(wm_db_t *db) {
    if (!db || db->magic != WM_DB_MAGIC) return;
    db->ops->free_body(db->body);
    db->magic = 0;
    free(db);
}
