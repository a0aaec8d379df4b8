/*
** fr.c -- the compute step of paper 001's Four-Russians method on the CPU:
** D cut into t-blocks, each block's (vin, hin, key) looked up in the table of
** src/align/fr_table.c, the global distance read off the last block row
** (D[m][n] = m + the sum of its hout differences).
**
** Order. Block (r, c) needs (r - 1, c) and (r, c - 1), so the paper runs the
** blocks of one anti-diagonal at the same time, one thread a block. Here the
** same wavefront runs on the pool's threads as a pipeline:
**   - block rows are taken in groups of FR_GROUP_ROWS; inside a group the
**     rows run skewed by one column (row i on column step - i), so the
**     group's blocks at one step lie on one anti-diagonal, depend on nothing
**     of each other, and their table loads are in flight together (a single
**     row waits for every load before it can form its next index: at t = 4
**     a random read of an 860 MB table);
**   - groups are dealt round robin to S stripes, one pool task each, S no
**     more than the pool's threads; a stripe sweeps its groups in order, and
**     before column c a group waits until the group above has finished
**     column c (and FR_LAG more, so that the two do not write one cache line
**     of h_border at the same time). The groups in flight work on
**     neighbouring anti-diagonals.
**
** Deadlock. A stripe only ever waits for the stripe holding the group above,
** and that one is running: wm_pool_for hands each of its threads one index
** at a time, in any order, and a thread holding a stripe keeps it until the
** stripe is done. With S <= threads every stripe gets a thread of its own,
** whatever order they start in.
**
** State. Only the borders between groups are kept: h_border[c] is the hout
** of the last group that finished column c, one byte a block column, read
** and overwritten by the group below. Groups touch column c strictly one
** after the other (a group waits for the release of column c by the group
** above), so one array serves all of them: O(n / t) bytes, never O(mn).
** Progress is published with release stores every FR_PUBLISH_EVERY columns
** and read with acquire loads; a waiting stripe spins, then yields, then
** naps, so that more threads than free cores still make progress.
**
** limit >= 0: every alignment crosses every row of D, and D never decreases
** along an alignment, so once the least D of a finished block row's bottom
** row is above limit, so is D[m][n]: the stripe that sees it raises a flag
** that every stripe checks when it waits and every FR_PUBLISH_EVERY columns.
*/
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "align/fr.h"
#include "core/internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FR_PAUSE() _mm_pause()
#else
#define FR_PAUSE() ((void)0)
#endif

#define FR_NO_KEY 0xffffu    /* a target block the DNA key cannot name */
#define FR_PUBLISH_EVERY 64u /* block columns between progress stores */
#define FR_LAG 64u           /* columns a group keeps behind the one above */
#define FR_GROUP_ROWS 8u     /* block rows a stripe sweeps together */
#define FR_SPINS 256u        /* waiting: pauses, then yields, then naps */
#define FR_YIELDS 16u
#define FR_NAP_NS 20000L
/* Below this many blocks the pool's start-up costs more than it saves. */
#define FR_MIN_PARALLEL_BLOCKS 1024u

typedef struct {
    _Alignas(64) atomic_uint_fast64_t done; /* blocks this stripe finished, counted
                                               as local row * n_bcols + columns */
} fr_progress_t;

typedef struct {
    const wm_aq_t *aq;
    const uint8_t *x, *y;
    uint64_t m, n;
    const uint16_t *out; /* the table's entries */
    int strings;
    unsigned t, p3; /* t and 3^t */
    uint64_t n_brows, n_bcols;
    uint64_t n_groups;             /* groups of FR_GROUP_ROWS block rows */
    unsigned last_rows, last_cols; /* rows of the last block row, columns of
                                      the last block column (t when t divides) */
    uint8_t *h_border;             /* [n_bcols] */
    const uint16_t *y_key;         /* strings: [n / t] yk, or FR_NO_KEY */
    uint16_t *col_bits;            /* matrix: per stripe and group row,
                                      n_codes + 1 entries */
    uint16_t spread[16];           /* matrix: bit i -> bit i * t */
    int8_t h_sum[81], h_min[81];   /* digit sum, and least prefix sum of 1 .. t
                                      digits, of a t-digit difference code */
    fr_progress_t *progress;       /* [n_stripes] */
    uint64_t n_stripes;
    int64_t limit;
    atomic_int stop;                 /* set when a row proved D[m][n] > limit */
    atomic_uint_fast64_t stop_value; /* a lower bound of D[m][n] above limit */
    uint64_t d;                      /* written by the stripe of the last row */
} fr_job_t;

/* Wait until the group above has finished column c (its count of finished
** blocks passes pred_base + c); *ready gets how many of its columns are done.
** Returns 0 when the sweep was stopped meanwhile. */
static int fr_wait(fr_job_t *job, const fr_progress_t *pred, uint64_t pred_base, uint64_t c,
                   uint64_t *ready) {
    /* Ask for FR_LAG columns more than needed, so that the two groups do not
    ** write one cache line of h_border at the same time. */
    uint64_t need = (c / FR_PUBLISH_EVERY + 1) * FR_PUBLISH_EVERY + FR_LAG;
    if (need > job->n_bcols) need = job->n_bcols;
    unsigned tries = 0;
    for (;;) {
        uint64_t done = atomic_load_explicit(&pred->done, memory_order_acquire);
        if (done >= pred_base + need) {
            done -= pred_base;
            *ready = done < job->n_bcols ? done : job->n_bcols;
            return 1;
        }
        if (atomic_load_explicit(&job->stop, memory_order_relaxed)) return 0;
        /* Spin while the group above is running on another core; when it
        ** does not come (more threads than free cores), give the core up,
        ** and at last sleep, which makes room for it for certain. */
        tries++;
        if (tries < FR_SPINS) {
            FR_PAUSE();
        } else if (tries < FR_SPINS + FR_YIELDS) {
            sched_yield();
        } else {
            struct timespec nap = { 0, FR_NAP_NS };
            nanosleep(&nap, NULL);
        }
    }
}

static void fr_publish(fr_progress_t *p, uint64_t done) {
    atomic_store_explicit(&p->done, done, memory_order_release);
}

/* Sum and least prefix sum of the first `digits` differences of a code. */
static void fr_digit_sums(unsigned code, unsigned digits, int *sum, int *least) {
    int s = 0, lo = 0;
    for (unsigned j = 0; j < digits; j++, code /= 3) {
        s += (int)(code % 3) - 1;
        if (j == 0 || s < lo) lo = s;
    }
    *sum = s;
    *least = lo;
}

/* Bits r0 .. r0 + t - 1 of one row of the query's match masks. */
static unsigned fr_peq_bits(const uint64_t *row, size_t n_words, uint64_t r0, unsigned t) {
    size_t w = (size_t)(r0 / 64);
    unsigned b = (unsigned)(r0 % 64);
    uint64_t bits = row[w] >> b;
    if (b + t > 64 && w + 1 < n_words) bits |= row[w + 1] << (64 - b);
    return (unsigned)(bits & ((1u << t) - 1));
}

/* The rows of a group while it is being swept, by row: what stays the same
** along a row (its symbols and key part) and what one block hands the next
** (v: the vout of its last block; sum, least: D[R][j] - D[R][0] so far and
** its minimum). Kept in arrays of locals so that the compiler can hold them
** in registers across the stores to h_border. */
typedef struct {
    const uint8_t *xs[FR_GROUP_ROWS];
    unsigned rows[FR_GROUP_ROWS];            /* t, or fewer in the last block row */
    int keyed[FR_GROUP_ROWS];                /* its full blocks can be looked up */
    uint64_t q_part[FR_GROUP_ROWS];          /* strings: qk * 4^t */
    const uint16_t *col_bits[FR_GROUP_ROWS]; /* matrix: key bits by target symbol */
} fr_rows_t;

static void fr_row_begin(const fr_job_t *job, fr_rows_t *g, unsigned i, uint64_t r,
                         uint16_t *col_bits) {
    const unsigned t = job->t;
    const wm_aq_t *aq = job->aq;
    g->xs[i] = job->x + r * t;
    g->rows[i] = r + 1 == job->n_brows ? job->last_rows : t;
    g->keyed[i] = g->rows[i] == t;
    g->q_part[i] = 0;
    g->col_bits[i] = col_bits;
    if (!g->keyed[i]) return;
    if (job->strings) {
        uint64_t qk = 0;
        for (unsigned k = 0; k < t; k++) {
            unsigned code = aq->code[g->xs[i][k]];
            if (code >= 4) g->keyed[i] = 0;
            qk |= (uint64_t)(code & 3u) << (2 * k);
        }
        g->q_part[i] = qk << (2 * t);
    } else {
        for (unsigned s = 0; s <= aq->n_codes; s++)
            col_bits[s] =
                job->spread[fr_peq_bits(aq->peq + (size_t)s * aq->n_words, aq->n_words, r * t, t)];
    }
}

/* One group of up to FR_GROUP_ROWS block rows, following the group above.
** The rows run skewed by one column (row i on column step - i), so the
** group's blocks at one step are independent and their table loads overlap:
** one row alone waits for each load before it can form the next key. Only
** the top row reads h_border and only the bottom row writes it; the rows in
** between hand their borders down through h_pass. Returns 0 when the sweep
** stopped. */
static int fr_group_sweep(fr_job_t *job, uint64_t stripe, uint64_t g) {
    const unsigned t = job->t, p3 = job->p3, last_cols = job->last_cols;
    const int strings = job->strings, track_min = job->limit >= 0;
    const uint64_t n_bcols = job->n_bcols, S = job->n_stripes;
    const uint16_t *const out = job->out, *const y_key = job->y_key;
    const uint16_t *const code = job->aq->code;
    const uint8_t *const y = job->y;
    const int8_t *const h_sum = job->h_sum, *const h_min = job->h_min;
    uint8_t *restrict const h_border = job->h_border;
    const uint64_t first_row = g * FR_GROUP_ROWS;
    const unsigned g_rows =
        (unsigned)(job->n_brows - first_row < FR_GROUP_ROWS ? job->n_brows - first_row
                                                            : FR_GROUP_ROWS);
    fr_progress_t *mine = &job->progress[stripe];
    const fr_progress_t *pred = g ? &job->progress[(g - 1) % S] : NULL;
    const uint64_t pred_base = g ? (g - 1) / S * n_bcols : 0;
    const uint64_t my_base = g / S * n_bcols;
    /* One stripe: the group above is always finished. */
    uint64_t ready = (g == 0 || S == 1) ? n_bcols : 0;

    fr_rows_t rows;
    const size_t n_sym = job->aq->n_codes + 1u;
    for (unsigned i = 0; i < g_rows; i++)
        fr_row_begin(job, &rows, i, first_row + i,
                     job->col_bits ? job->col_bits + (stripe * FR_GROUP_ROWS + i) * n_sym : NULL);
    unsigned v[FR_GROUP_ROWS], h_pass[FR_GROUP_ROWS];
    int64_t sum[FR_GROUP_ROWS], least[FR_GROUP_ROWS];
    for (unsigned i = 0; i < FR_GROUP_ROWS; i++) {
        v[i] = p3 - 1; /* the left border: D[i][0] = i */
        h_pass[i] = 0;
        sum[i] = least[i] = 0;
    }

    /* The steady state: a full group of keyed rows, every row on a full
    ** block, and (DNA) no target symbol the key cannot name under the
    ** group: then each step is G lookups and nothing else. */
    int group_keyed = g_rows == FR_GROUP_ROWS;
    for (unsigned i = 0; i < g_rows; i++) group_keyed &= rows.keyed[i];
    const uint64_t n_keyed_cols = strings ? job->n / t : n_bcols; /* y_key's length */
    uint64_t next_unkeyed = 0; /* strings: the first FR_NO_KEY column not yet behind */
    if (strings)
        while (next_unkeyed < n_keyed_cols && y_key[next_unkeyed] != FR_NO_KEY) next_unkeyed++;

    const uint64_t n_steps = n_bcols + g_rows - 1;
    for (uint64_t step = 0; step < n_steps; step++) {
        if (step < n_bcols && step >= ready && !fr_wait(job, pred, pred_base, step, &ready))
            return 0;
        int steady = group_keyed && step >= FR_GROUP_ROWS - 1 && step + 1 < n_bcols;
        if (steady && strings) {
            if (next_unkeyed + FR_GROUP_ROWS <= step) { /* behind the group: find the next */
                next_unkeyed = step - (FR_GROUP_ROWS - 1);
                while (next_unkeyed < n_keyed_cols && y_key[next_unkeyed] != FR_NO_KEY)
                    next_unkeyed++;
            }
            steady = next_unkeyed > step;
        }
        /* Bottom up: row i takes h_pass[i - 1] before row i - 1 replaces it.
        ** The row loops run over all FR_GROUP_ROWS rows: unrolled with
        ** constant i, the arrays below live in registers. */
        if (steady) {
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
            for (unsigned i = FR_GROUP_ROWS; i-- > 0;) {
                const uint64_t col = step - i;
                const unsigned h = i ? h_pass[i - 1] : h_border[col];
                uint64_t key;
                if (strings) {
                    key = rows.q_part[i] | y_key[col];
                } else {
                    const uint8_t *ys = y + col * t;
                    key = 0;
                    for (unsigned j = 0; j < t; j++)
                        key |= (uint64_t)rows.col_bits[i][code[ys[j]]] << j;
                }
                const unsigned e = out[(key * p3 + v[i]) * p3 + h], h_out = e >> 8;
                v[i] = e & 0xffu;
                if (track_min && sum[i] + h_min[h_out] < least[i]) least[i] = sum[i] + h_min[h_out];
                sum[i] += h_sum[h_out];
                if (i + 1 == FR_GROUP_ROWS) h_border[col] = (uint8_t)h_out;
                else h_pass[i] = h_out;
            }
        } else {
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
            for (unsigned i = FR_GROUP_ROWS; i-- > 0;) {
                if (i >= g_rows || step < i || step - i >= n_bcols) continue;
                const uint64_t col = step - i;
                const unsigned h = i ? h_pass[i - 1] : h_border[col];
                const unsigned cols = col + 1 == n_bcols ? last_cols : t;
                unsigned h_out, e = 0;
                int keyed = rows.keyed[i] && cols == t;
                if (keyed && strings) {
                    unsigned yk = y_key[col];
                    keyed = yk != FR_NO_KEY;
                    if (keyed) e = out[((rows.q_part[i] | yk) * p3 + v[i]) * p3 + h];
                } else if (keyed) {
                    const uint8_t *ys = y + col * t;
                    uint64_t key = 0;
                    for (unsigned j = 0; j < t; j++)
                        key |= (uint64_t)rows.col_bits[i][code[ys[j]]] << j;
                    e = out[(key * p3 + v[i]) * p3 + h];
                }
                int s, lo;
                if (keyed) {
                    v[i] = e & 0xffu;
                    h_out = e >> 8;
                    s = h_sum[h_out];
                    lo = h_min[h_out];
                } else {
                    unsigned v_out;
                    wm_fr_block_direct(job->aq, rows.xs[i], rows.rows[i], y + col * t, cols, v[i],
                                       h, &v_out, &h_out);
                    v[i] = v_out;
                    fr_digit_sums(h_out, cols, &s, &lo);
                }
                if (track_min && sum[i] + lo < least[i]) least[i] = sum[i] + lo;
                sum[i] += s;
                if (i + 1 == g_rows) h_border[col] = (uint8_t)h_out;
                else h_pass[i] = h_out;
            }
        }
        if (step >= g_rows - 1) {
            uint64_t finished = step - (g_rows - 1) + 1; /* bottom row's columns */
            if (finished % FR_PUBLISH_EVERY == 0 && finished < n_bcols) {
                fr_publish(mine, my_base + finished);
                if (atomic_load_explicit(&job->stop, memory_order_relaxed)) return 0;
            }
        }
    }
    fr_publish(mine, my_base + n_bcols);

    for (unsigned i = 0; i < g_rows; i++) {
        const uint64_t r = first_row + i;
        const uint64_t row_index = r * t + rows.rows[i]; /* D[row_index][0] */
        if (track_min && (int64_t)row_index + least[i] > job->limit) {
            /* Every alignment crosses this row, and D never falls along a path. */
            uint_fast64_t none = 0;
            atomic_compare_exchange_strong(&job->stop_value, &none,
                                           (uint_fast64_t)((int64_t)row_index + least[i]));
            atomic_store_explicit(&job->stop, 1, memory_order_relaxed);
            return 0;
        }
        if (r + 1 == job->n_brows) job->d = (uint64_t)((int64_t)row_index + sum[i]);
    }
    return 1;
}

static void fr_stripe(void *arg, size_t stripe, int tid) {
    (void)tid;
    fr_job_t *job = arg;
    for (uint64_t g = stripe; g < job->n_groups; g += job->n_stripes) {
        if (atomic_load_explicit(&job->stop, memory_order_relaxed)) return;
        if (!fr_group_sweep(job, stripe, g)) return;
    }
}

static void fr_job_free(fr_job_t *job) {
    free(job->h_border);
    free((void *)job->y_key);
    free(job->col_bits);
    free(job->progress);
}

wm_status wm_global_fr(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                       const wm_fr_table_t *tab, int64_t limit, uint64_t *d) {
    if (!tab || !tab->out || tab->t < 1 || tab->t > WM_FR_MAX_T) {
        wm_context_set_error(cx, "four-russians: no table");
        return WM_INVALID;
    }
    if (tab->strings && aq->n_codes != 4) {
        wm_context_set_error(cx, "four-russians: the DNA-keyed table needs the DNA alphabet");
        return WM_INVALID;
    }
    const uint64_t m = aq->m;
    if (wm_global_trivial(m, n, limit, d)) return WM_OK; /* D >= |m - n| */

    const unsigned t = tab->t;
    fr_job_t job;
    memset(&job, 0, sizeof job);
    job.aq = aq;
    job.x = aq->q;
    job.y = y;
    job.m = m;
    job.n = n;
    job.out = tab->out;
    job.strings = tab->strings;
    job.t = t;
    job.p3 = tab->pow3;
    job.n_brows = (m + t - 1) / t;
    job.n_bcols = (n + t - 1) / t;
    job.n_groups = (job.n_brows + FR_GROUP_ROWS - 1) / FR_GROUP_ROWS;
    job.last_rows = m % t ? (unsigned)(m % t) : t;
    job.last_cols = n % t ? (unsigned)(n % t) : t;
    job.limit = limit;
    atomic_init(&job.stop, 0);
    atomic_init(&job.stop_value, 0);
    for (unsigned code = 0; code < job.p3; code++) {
        int s, lo;
        fr_digit_sums(code, t, &s, &lo);
        job.h_sum[code] = (int8_t)s;
        job.h_min[code] = (int8_t)lo;
    }
    for (unsigned bits = 0; bits < (1u << t); bits++) {
        unsigned spread = 0;
        for (unsigned i = 0; i < t; i++) spread |= (bits >> i & 1u) << (i * t);
        job.spread[bits] = (uint16_t)spread;
    }

    uint64_t stripes = (uint64_t)wm_pool_size(cx->pool);
    if (stripes > job.n_groups) stripes = job.n_groups;
    if (job.n_brows * job.n_bcols < FR_MIN_PARALLEL_BLOCKS) stripes = 1;
    job.n_stripes = stripes;

    const uint64_t n_full = n / t;
    job.h_border = malloc(job.n_bcols);
    job.progress = aligned_alloc(_Alignof(fr_progress_t), stripes * sizeof *job.progress);
    if (tab->strings) job.y_key = malloc((n_full ? n_full : 1) * sizeof *job.y_key);
    else job.col_bits = malloc(stripes * FR_GROUP_ROWS * (aq->n_codes + 1) * sizeof *job.col_bits);
    if (!job.h_border || !job.progress || (tab->strings ? !job.y_key : !job.col_bits)) {
        fr_job_free(&job);
        wm_context_set_error(cx, "four-russians: out of memory for the borders of %llu blocks",
                             (unsigned long long)job.n_bcols);
        return WM_NOMEM;
    }
    memset(job.h_border, (int)(job.p3 - 1), job.n_bcols); /* the top row: D[0][j] = j */
    for (uint64_t s = 0; s < stripes; s++) atomic_init(&job.progress[s].done, 0);
    if (tab->strings) {
        uint16_t *y_key = (uint16_t *)job.y_key;
        for (uint64_t c = 0; c < n_full; c++) {
            unsigned yk = 0;
            for (unsigned j = 0; j < t; j++) {
                unsigned code = aq->code[y[c * t + j]];
                if (code >= 4) {
                    yk = FR_NO_KEY;
                    break;
                }
                yk |= code << (2 * j);
            }
            y_key[c] = (uint16_t)yk;
        }
    }

    wm_pool_for(cx->pool, (size_t)stripes, fr_stripe, &job);

    *d = atomic_load(&job.stop) ? (uint64_t)atomic_load(&job.stop_value) : job.d;
    fr_job_free(&job);
    return WM_OK;
}
