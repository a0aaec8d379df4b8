/*
** fr_table.c -- the Four-Russians lookup table of paper 001 (section 2.3,
** "preprocessing"): for every key (the block's symbols, or which of them are
** equal) and every pair of encoded borders (vin, hin), the encoded right
** column and bottom row of the t-block. The layout and encodings are
** src/align/fr.h's; the GPU copies the same bytes.
**
** One function, fr_row, steps one row of a block in difference form; the
** direct computation of a block (ragged edges, DNA blocks with N) is fr_row
** applied rows times, and the table is fr_row tabulated and composed, so a
** table entry is exactly what wm_fr_block_direct returns for the same block.
**
** The build has 9^t entries a key and t rows a block: at t = 4 that is 430 M
** entries. Three things keep it to seconds rather than minutes:
**   - a row step is one load from a small table (2^t eq rows x 3^t rows above
**     x 3 left differences, 3,888 entries at t = 4) instead of t cells;
**   - the entries of one key share their top rows: level l holds the state
**     after l rows for every (hin, v[0 .. l-1]), 3^(t + l) of them, and level
**     t is the key's 9^t entries, so a key costs about 1.5 x 9^t steps, not
**     t x 9^t;
**   - consecutive keys of a task differ in their last rows first (the task
**     walks keys in that order), so only the levels below the first row
**     whose equalities changed are recomputed: about 9^t steps a key.
** Keys are split into tasks on the context's pool; each task writes its own
** keys' entries, so no task shares a byte with another.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "align/fr.h"
#include "core/shard.h"

static unsigned pow3u(unsigned e) {
    unsigned p = 1;
    while (e--) p *= 3;
    return p;
}

/* One row of a block in difference form. h_code: the row above's horizontal
** differences (base 3, digit j is h[j] + 1; digits from cols on are read as
** nothing); v: D[i][0] - D[i-1][0] in -1 .. 1; eq: bit j set when this row's
** query symbol equals target symbol j. Returns the new row's horizontal
** differences, cols digits then digit 2 (+1) up to width digits, and puts the
** row's difference at the right edge, D[i][cols] - D[i-1][cols], in *v_right.
** With vd = D[i][j] - D[i-1][j] and h = D[i-1][j+1] - D[i-1][j], the cell
** D[i][j+1] = min(D[i-1][j] + cost, D[i-1][j+1] + 1, D[i][j] + 1) gives
** vd' = min(cost - h, 1, vd + 1 - h) and h' = vd' + h - vd, all in -1 .. 1. */
static unsigned fr_row(unsigned h_code, int v, unsigned eq, unsigned cols, unsigned width,
                       int *v_right) {
    int vd = v;
    unsigned out = 0, place = 1;
    for (unsigned j = 0; j < cols; j++) {
        int h = (int)(h_code % 3) - 1;
        h_code /= 3;
        int cost = (eq >> j & 1u) ? 0 : 1;
        int nv = cost - h;
        if (nv > 1) nv = 1;
        if (vd + 1 - h < nv) nv = vd + 1 - h;
        out += (unsigned)(nv + h - vd + 1) * place;
        place *= 3;
        vd = nv;
    }
    for (unsigned j = cols; j < width; j++, place *= 3) out += 2u * place;
    *v_right = vd;
    return out;
}

/* Digits beyond a ragged block's rows / cols are written as +1 up to
** max(rows, cols) digits: a full block (rows = cols = t) has exactly t, and
** so does every ragged block but the bottom-right corner, whose outputs no
** other block reads (wm_fr_block_direct does not know t). */
void wm_fr_block_direct(const wm_aq_t *aq, const uint8_t *xs, unsigned rows, const uint8_t *ys,
                        unsigned cols, unsigned vin, unsigned hin, unsigned *vout, unsigned *hout) {
    unsigned width = rows > cols ? rows : cols;
    unsigned h = hin, v_code = 0, place = 1;
    for (unsigned i = 0; i < rows; i++, place *= 3) {
        unsigned eq = 0;
        for (unsigned j = 0; j < cols; j++) eq |= (unsigned)wm_aq_eq(aq, xs[i], ys[j]) << j;
        int v_right;
        h = fr_row(h, (int)(vin % 3) - 1, eq, cols, width, &v_right);
        vin /= 3;
        v_code += (unsigned)(v_right + 1) * place;
    }
    for (unsigned i = rows; i < width; i++, place *= 3) v_code += 2u * place;
    *vout = v_code;
    *hout = h;
}

/* ---- the build ------------------------------------------------------------ */

/* Levels 0 .. t-1 of one key: 3^(t + l) states at level l, at most
** 81 * (1 + 3 + 9 + 27) = 3,240 for t = 4. */
#define FR_LEVEL_STATES 3240u

typedef struct {
    wm_fr_table_t *tab;
    const uint16_t *row_step; /* [(eq * 3^t + h) * 3 + v digit] = h' | v_right digit << 8 */
    uint64_t keys_per_task;
} fr_build_t;

/* Task order -> key, and the key's equality rows (bit j of row i: x_i == y_j).
** Strings: pos = yk * 4^t + (query codes, last row in the lowest digit), so
** neighbours differ in the query's last symbols first. Matrix: pos holds
** the rows in reverse order, last row in the lowest t bits. */
static uint64_t fr_key_at(const wm_fr_table_t *tab, uint64_t pos, unsigned *eq_rows) {
    unsigned t = tab->t;
    if (tab->strings) {
        unsigned q_rev = (unsigned)(pos & ((1u << (2 * t)) - 1));
        unsigned yk = (unsigned)(pos >> (2 * t)), qk = 0;
        for (unsigned i = 0; i < t; i++) qk |= ((q_rev >> (2 * (t - 1 - i))) & 3u) << (2 * i);
        for (unsigned i = 0; i < t; i++) {
            unsigned qi = (qk >> (2 * i)) & 3u, row = 0;
            for (unsigned j = 0; j < t; j++) row |= (unsigned)(((yk >> (2 * j)) & 3u) == qi) << j;
            eq_rows[i] = row;
        }
        return ((uint64_t)qk << (2 * t)) | yk;
    }
    uint64_t key = 0;
    unsigned row_mask = (1u << t) - 1;
    for (unsigned i = 0; i < t; i++) {
        unsigned row = (unsigned)(pos >> (t * (t - 1 - i))) & row_mask;
        eq_rows[i] = row;
        key |= (uint64_t)row << (t * i);
    }
    return key;
}

static void fr_build_task(void *arg, size_t task, int tid) {
    (void)tid;
    const fr_build_t *job = arg;
    wm_fr_table_t *tab = job->tab;
    const unsigned t = tab->t, p3 = tab->pow3;
    uint16_t states[FR_LEVEL_STATES];
    uint16_t *level[WM_FR_MAX_T]; /* level[l]: 3^(t + l) states (h | o << 8) */
    unsigned level_size[WM_FR_MAX_T + 1], p3_l[WM_FR_MAX_T + 1];
    size_t used = 0;
    for (unsigned l = 0; l <= t; l++) {
        p3_l[l] = pow3u(l);
        level_size[l] = p3 * p3_l[l];
        if (l < t) {
            level[l] = states + used;
            used += level_size[l];
        }
    }
    for (unsigned h = 0; h < p3; h++) level[0][h] = (uint16_t)h; /* no row yet: o = 0 */

    uint64_t first = (uint64_t)task * job->keys_per_task;
    uint64_t last = first + job->keys_per_task;
    if (last > tab->n_keys) last = tab->n_keys;
    unsigned prev_rows[WM_FR_MAX_T] = { 0 }, rows[WM_FR_MAX_T];
    for (uint64_t pos = first; pos < last; pos++) {
        uint64_t key = fr_key_at(tab, pos, rows);
        /* Levels 0 .. changed are still right: the rows that made them did
        ** not change. The last level is the key's own entries, always made. */
        unsigned changed = 0;
        if (pos != first)
            while (changed < t - 1 && rows[changed] == prev_rows[changed]) changed++;
        for (unsigned l = changed; l < t; l++) {
            const uint16_t *step = job->row_step + (size_t)rows[l] * p3 * 3;
            const uint16_t *src = level[l];
            const unsigned n_src = level_size[l], o_place = p3_l[l];
            if (l + 1 < t) {
                uint16_t *dst = level[l + 1];
                for (unsigned v = 0; v < 3; v++, dst += n_src)
                    for (unsigned s = 0; s < n_src; s++) {
                        unsigned e = src[s], r = step[(e & 0xffu) * 3 + v];
                        dst[s] = (uint16_t)((r & 0xffu) | ((e >> 8) + o_place * (r >> 8)) << 8);
                    }
            } else {
                /* The last row: the entries themselves, vout | hout << 8. */
                uint16_t *dst = tab->out + key * level_size[t];
                for (unsigned v = 0; v < 3; v++, dst += n_src)
                    for (unsigned s = 0; s < n_src; s++) {
                        unsigned e = src[s], r = step[(e & 0xffu) * 3 + v];
                        dst[s] = (uint16_t)(((e >> 8) + o_place * (r >> 8)) | (r & 0xffu) << 8);
                    }
            }
        }
        memcpy(prev_rows, rows, sizeof rows);
    }
}

static double fr_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The entries. Large tables ask for transparent huge pages: the compute
** step reads them at random, one block at a time, and with 4 KiB pages
** nearly every lookup in the 860 MB table of t = 4 would also miss the TLB. */
static uint16_t *fr_alloc_entries(size_t bytes) {
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        void *p = NULL;
        if (posix_memalign(&p, huge, bytes) != 0) return NULL;
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: fine if refused */
        return p;
    }
#endif
    return malloc(bytes);
}

static wm_status fr_build(wm_context_t *cx, unsigned t, int strings, wm_fr_table_t **out) {
    wm_fr_table_t *tab = calloc(1, sizeof *tab);
    if (!tab) return WM_NOMEM;
    tab->t = t;
    tab->strings = strings;
    tab->pow3 = pow3u(t);
    tab->n_keys = strings ? 1ull << (4 * t) : 1ull << (t * t);
    tab->entries = tab->n_keys * tab->pow3 * tab->pow3;
    tab->dev = NULL;
    tab->dev_ordinal = -1;
    tab->out = fr_alloc_entries(tab->entries * sizeof *tab->out);
    if (!tab->out) {
        wm_context_set_error(cx, "four-russians: cannot allocate the %s table for t = %u (%.0f MB)",
                             strings ? "DNA" : "match-matrix", t,
                             (double)(tab->entries * sizeof *tab->out) / 1e6);
        free(tab);
        return WM_NOMEM;
    }

    double t0 = fr_now();
    /* One row, tabulated: 2^t x 3^t x 3 <= 3,888 steps. */
    uint16_t row_step[16 * 81 * 3];
    for (unsigned eq = 0; eq < (1u << t); eq++)
        for (unsigned h = 0; h < tab->pow3; h++)
            for (unsigned v = 0; v < 3; v++) {
                int v_right;
                unsigned h_new = fr_row(h, (int)v - 1, eq, t, t, &v_right);
                row_step[(eq * tab->pow3 + h) * 3 + v] =
                    (uint16_t)(h_new | (unsigned)(v_right + 1) << 8);
            }

    int threads = wm_pool_size(cx->pool);
    /* Tasks of at least 16 keys (the shared top levels pay off over a run of
    ** keys), a few per thread so that uneven threads balance. */
    uint64_t n_tasks = (tab->n_keys + 15) / 16, max_tasks = 16ull * (uint64_t)threads;
    if (n_tasks > max_tasks) n_tasks = max_tasks;
    fr_build_t job = { tab, row_step, (tab->n_keys + n_tasks - 1) / n_tasks };
    n_tasks = (tab->n_keys + job.keys_per_task - 1) / job.keys_per_task;
    wm_pool_for(cx->pool, (size_t)n_tasks, fr_build_task, &job);
    tab->build_seconds = fr_now() - t0;
    tab->build_threads = n_tasks < (uint64_t)threads ? (int)n_tasks : threads;
    *out = tab;
    return WM_OK;
}

wm_status wm_fr_table_get(struct wm_context *cx, unsigned t, int strings,
                          const wm_fr_table_t **out) {
    *out = NULL;
    if (t < 1 || t > WM_FR_MAX_T) {
        wm_context_set_error(cx, "four-russians: block size t = %u is outside 1 .. %d", t,
                             WM_FR_MAX_T);
        return WM_INVALID;
    }
    strings = strings ? 1 : 0;
    wm_align_cache_t *c = wm_align_cache(cx);
    if (!c) return WM_NOMEM;
    if (!c->fr[strings][t]) {
        wm_status st = fr_build(cx, t, strings, &c->fr[strings][t]);
        if (st != WM_OK) return st;
    }
    *out = c->fr[strings][t];
    return WM_OK;
}

void wm_fr_cache_free(wm_align_cache_t *c, const wm_align_gpu_t *gpu) {
    for (int s = 0; s < 2; s++)
        for (int t = 0; t <= WM_FR_MAX_T; t++) {
            wm_fr_table_t *tab = c->fr[s][t];
            if (!tab) continue;
            if (gpu) gpu->fr_table_free(tab);
            free(tab->out);
            free(tab);
            c->fr[s][t] = NULL;
        }
}

unsigned wm_fr_pick_t(const wm_align_opts_t *o) { return o->fr_t ? (unsigned)o->fr_t : 3; }

int wm_fr_pick_strings(const wm_aq_t *aq) { return aq->n_codes == 4; }

wm_status wm_align_fr_info(wm_context_t *cx, const wm_align_opts_t *o, wm_fr_info_t *info) {
    if (!wm_context_ok(cx)) return WM_INVALID;
    if (!info) {
        wm_context_set_error(cx, "four-russians info: info is NULL");
        return WM_INVALID;
    }
    wm_align_opts_t opts = o ? *o : wm_align_opts_default();
    if (opts.fr_t < 0 || opts.fr_t > WM_FR_MAX_T) {
        wm_context_set_error(cx, "four-russians: fr_t = %d is outside 0 (automatic) .. %d",
                             opts.fr_t, WM_FR_MAX_T);
        return WM_INVALID;
    }
    if (opts.alphabet != WM_ALPHABET_BYTES && opts.alphabet != WM_ALPHABET_DNA) {
        wm_context_set_error(cx, "four-russians: unknown alphabet %d", (int)opts.alphabet);
        return WM_INVALID;
    }
    if (cx->n_sub > 1) { /* the first device's */
        wm_status st = wm_align_fr_info(wm_shard_first(cx), &opts, info);
        return st == WM_OK ? st : wm_shard_error(cx, 0, st, NULL, 0, 0);
    }
    unsigned t = wm_fr_pick_t(&opts);
    int strings = opts.alphabet == WM_ALPHABET_DNA;
    const wm_fr_table_t *tab;
    wm_status st = wm_fr_table_get(cx, t, strings, &tab);
    if (st != WM_OK) return st;
    memset(info, 0, sizeof *info);
    info->t = tab->t;
    info->key_strings = tab->strings;
    info->entries = tab->entries;
    info->bytes = tab->entries * sizeof *tab->out;
    info->build_seconds = tab->build_seconds;
    info->build_threads = tab->build_threads;
    return WM_OK;
}
