/*
** test_setk_gpu_finish.c -- the host's half of a set within k errors on the
** GPU (src/setk/gpu_finish.c), with no GPU: a table whose batch gives what a
** GPU's batch gives -- every (pattern, strand, middle end, errors) within k
** whose occurrence would end in the batch, in a scrambled order, some twice
** -- computed by the oracle, or, when the host asks a key layout, half the
** time as the GPU's sorted keys (with edits each with its occurrence's
** length, the oracle's start) -- run through wm_setk_gpu_scan in batches of 1
** byte to the whole text. Its matches must be wm_search's on the CPU, every
** field (test_setk_diff checks those against the oracle), for listing and
** for counting. CI has no GPU: this keeps the GPU path's starts, exact
** regions, order and batching under test there.
**
** Cases: random DNA in 1-4 records (soft-masked stretches, N runs), 1-12
** patterns cut from it with up to k planted edits, long ones (seeded) and
** short ones (scanned whole), IUPAC codes now and then; k 1..4, edit or
** Hamming, revcomp half the time; a PAM (NGG) as an exact suffix, and now
** and then an exact prefix, on Hamming cases; often copies of a pattern
** back to back with edits. With tuning.loci_starts (one match a locus: stand-in
** starts where no locus reads them, setk/loci.c) the loci and their
** choices, by brute force, must be those of the CPU's true starts, from
** this path and from the CPU's (at the same chunk sizes).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "core/internal.h"
#include "harness.h"
#include "matches.h"
#include "oracle.h"
#include "rng.h"
#include "search/search.h"
#include "setk/setk.h"
#include "warpmatch.h"

#define MAX_TEXT 6000
#define MAX_PATS 12

/* ---- the table standing in for a GPU ------------------------------------------ */

/* Pattern i as searched on strand st: its middle's bytes (the reverse
** complement's on strand 1) into mid, their count returned. */
static size_t middle(const wm_setk_t *s, size_t i, int st, uint8_t *mid) {
    size_t m = s->len[i], pre = s->pre[st], suf = s->suf[st];
    uint8_t full[512];
    for (size_t j = 0; j < m; j++)
        full[j] = st ? wm_iupac_complement(s->pat[i][m - 1 - j]) : s->pat[i][j];
    memcpy(mid, full + pre, m - pre - suf);
    return m - pre - suf;
}

static int fake_supports(const wm_setk_t *s) {
    (void)s;
    return 1;
}

/* Every hit of the whole text, computed once a case (the oracle is slow):
** the batches take theirs from it. */
static wm_setk_hit_t *g_hits;
static uint16_t *g_lens; /* each hit's occurrence length, the oracle's end - start */
static size_t g_n_hits;

static void all_hits(const wm_setk_t *s, const wm_text_t *text, const uint64_t *rs) {
    size_t cap = 16;
    g_n_hits = 0;
    g_hits = malloc(cap * sizeof *g_hits);
    g_lens = malloc(cap * sizeof *g_lens);
    wm_opts_t o = s->opts;
    o.revcomp = 0;
    o.exact_prefix = o.exact_suffix = 0;
    for (size_t i = 0; i < s->n; i++)
        for (int st = 0; st < (s->opts.revcomp ? 2 : 1); st++) {
            uint8_t mid[512];
            size_t mm = middle(s, i, st, mid);
            wm_match_t *ms = NULL;
            size_t nm = oracle_search(mid, mm, &o, text, &ms);
            for (size_t x = 0; x < nm; x++) {
                if (g_n_hits == cap && (!(g_hits = realloc(g_hits, 2 * cap * sizeof *g_hits)) ||
                                        !(g_lens = realloc(g_lens, (cap *= 2) * sizeof *g_lens))))
                    abort();
                g_lens[g_n_hits] = (uint16_t)(ms[x].end - ms[x].start);
                wm_setk_hit_t *h = &g_hits[g_n_hits++];
                h->end = rs[ms[x].record] + ms[x].end;
                h->pat = (uint32_t)i;
                h->strand = (uint32_t)st;
                h->errors = ms[x].errors;
            }
            free(ms);
        }
}

/* A hit as the GPU's key (setk.h: wm_setk_key_layout_t), from its contract. */
static uint64_t key_of(const wm_setk_key_layout_t *L, const wm_setk_hit_t *h, uint64_t lo) {
    uint64_t e = h->end + L->suf[h->strand];
    if (e <= lo || e - lo > L->span) return L->span << L->end_shift;
    return (e - lo - 1) << L->end_shift | (uint64_t)h->pat << (L->err_bits + 1) |
           (uint64_t)h->strand << L->err_bits | h->errors;
}

typedef struct {
    uint64_t key;
    uint16_t len;
} keyed_len_t;

static int by_key(const void *a, const void *b) {
    uint64_t x = ((const keyed_len_t *)a)->key, y = ((const keyed_len_t *)b)->key;
    return x < y ? -1 : x > y;
}

/* The batch's hits, in any order; or, asked a layout, half the time as
** sorted keys (with edits, each with its occurrence's length), with now and
** then a hit from outside the batch (its key the span's, which the host
** skips). */
static wm_status fake_batch(wm_context_t *cx, const wm_setk_t *s, const wm_text_t *text,
                            const uint64_t *rs, size_t n_rec, uint64_t lo, uint64_t hi,
                            const wm_setk_key_layout_t *layout, wm_setk_gpu_hits_t *out) {
    (void)cx;
    (void)text;
    (void)rs;
    (void)n_rec;
    size_t n = 0, cap = 16;
    wm_setk_hit_t *h = malloc(cap * sizeof *h);
    uint16_t *hl = malloc(cap * sizeof *hl);
    if (!h || !hl) abort();
    int keyed = layout != NULL && chance(50);
    for (size_t x = 0; x < g_n_hits; x++) {
        uint64_t e = g_hits[x].end + s->suf[g_hits[x].strand];
        if (e <= lo || e > hi) { /* the batch owns (lo, hi]; past the span a GPU may give */
            if (!keyed || !(e <= lo || e - lo > layout->span) || !chance(3)) continue;
        }
        for (int twice = 0; twice < (chance(5) ? 2 : 1); twice++) {
            if (n == cap && (!(h = realloc(h, 2 * cap * sizeof *h)) ||
                             !(hl = realloc(hl, (cap *= 2) * sizeof *hl))))
                abort();
            hl[n] = g_lens[x];
            h[n++] = g_hits[x];
        }
    }
    for (size_t x = n; x > 1; x--) { /* a GPU's hits come in any order */
        size_t y = (size_t)below(x);
        wm_setk_hit_t t = h[x - 1];
        h[x - 1] = h[y];
        h[y] = t;
        uint16_t tl = hl[x - 1];
        hl[x - 1] = hl[y];
        hl[y] = tl;
    }
    size_t each = keyed ? sizeof(uint64_t) + (layout->lens ? sizeof(uint16_t) : 0) : sizeof *h;
    if (wm_setk_gpu_hits_reserve(out, n * each)) abort();
    out->lens = keyed && layout->lens && n > 0 ? (uint16_t *)((uint64_t *)out->buf + n) : NULL;
    if (keyed && n > 0) {
        keyed_len_t *kl = malloc(n * sizeof *kl);
        if (!kl) abort();
        for (size_t x = 0; x < n; x++) {
            kl[x].key = key_of(layout, &h[x], lo);
            kl[x].len = hl[x];
        }
        qsort(kl, n, sizeof *kl, by_key);
        uint64_t *k = out->buf;
        for (size_t x = 0; x < n; x++) {
            k[x] = kl[x].key;
            if (out->lens) out->lens[x] = kl[x].len;
        }
        free(kl);
    } else if (n > 0) {
        memcpy(out->buf, h, n * sizeof *h);
    }
    out->n = n;
    out->keyed = keyed;
    free(h);
    free(hl);
    return WM_OK;
}

static const wm_setk_gpu_t fake_gpu = { fake_supports, fake_batch };

/* ---- one match a locus ----------------------------------------------------------- */

/* The loci of a list of matches (tuning.loci_starts, setk/loci.c), by brute
** force: matches of one record, pattern and strand whose intervals share a
** byte, transitively; each locus's fewest errors, leftmost end; in
** (record, end, pattern, strand) order, into *out. Stand-in starts must give
** the loci of the true ones, and never be a locus's choice. */
static int by_group_start(const void *a, const void *b) {
    const wm_match_t *x = a, *y = b;
    if (x->record != y->record) return x->record < y->record ? -1 : 1;
    if (x->pattern != y->pattern) return x->pattern < y->pattern ? -1 : 1;
    if (x->strand != y->strand) return x->strand < y->strand ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}
static void loci_of(const match_vec *in, match_vec *out) {
    wm_match_t *m = malloc((in->n + 1) * sizeof *m);
    if (!m) abort();
    if (in->n > 0) memcpy(m, in->a, in->n * sizeof *m); /* (in->a is NULL when empty) */
    qsort(m, in->n, sizeof *m, by_group_start);
    out->n = 0;
    for (size_t x = 0, y; x < in->n; x = y) {
        wm_match_t best = m[x];
        uint64_t hi = m[x].end;
        for (y = x + 1; y < in->n && m[y].record == m[x].record && m[y].pattern == m[x].pattern &&
                        m[y].strand == m[x].strand && m[y].start < hi;
             y++) {
            if (m[y].end > hi) hi = m[y].end;
            if (m[y].errors < best.errors || (m[y].errors == best.errors && m[y].end < best.end))
                best = m[y];
        }
        collect(&best, out);
    }
    sort_matches(out->a, out->n);
    free(m);
}

/* ---- the cases ------------------------------------------------------------------ */

static uint8_t base(void) { return (uint8_t) "ACGT"[below(4)]; }

static void one_case(long idx) {
    static uint8_t text[MAX_TEXT];
    size_t n = (size_t)range(200, MAX_TEXT);
    for (size_t i = 0; i < n; i++) text[i] = base();
    if (chance(40)) memset(text + below(n / 2), 'N', (size_t)range(1, 30));
    if (chance(40))
        for (size_t i = below(n / 2), e = i + range(10, 200); i < e && i < n; i++)
            text[i] = (uint8_t)(text[i] | 0x20); /* soft-masked */
    uint64_t rec[4] = { 0 };
    size_t n_rec = (size_t)range(1, 4);
    for (size_t r = 1; r < n_rec; r++) rec[r] = rec[r - 1] + below((n - rec[r - 1]) / 2 + 1);

    wm_opts_t o = wm_opts_default();
    o.alphabet = WM_ALPHABET_DNA;
    o.max_edits = (uint32_t)range(1, 4);
    o.metric = chance(50) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    o.revcomp = chance(50);
    int pam = o.metric == WM_METRIC_HAMMING && chance(40);
    if (pam) {
        o.exact_suffix = 3;
        o.exact_prefix = chance(30) ? 2 : 0;
    }
    uint8_t pats[MAX_PATS][320];
    const uint8_t *pp[MAX_PATS];
    size_t len[MAX_PATS], np = (size_t)range(1, MAX_PATS);
    for (size_t i = 0; i < np; i++) {
        /* short (scanned whole) or long (seeded) */
        size_t m = chance(50) ? (size_t)range(o.max_edits + 8, 30) : (size_t)range(40, 300);
        if (m + 2 > n) m = n - 2;
        size_t at = (size_t)below(n - m);
        memcpy(pats[i], text + at, m);
        for (size_t j = 0; j < m; j++) pats[i][j] = (uint8_t)(pats[i][j] & ~0x20); /* upper */
        for (size_t j = 0; j < m; j++)
            if (pats[i][j] == 'N') pats[i][j] = base();
        for (unsigned e = (unsigned)below(o.max_edits + 1); e > 0; e--)
            pats[i][below(m)] = base(); /* substitutions: both metrics find them */
        if (chance(15)) pats[i][below(m)] = (uint8_t) "RYN"[below(3)];
        if (pam) memcpy(pats[i] + m - 3, "NGG", 3);
        pp[i] = pats[i];
        len[i] = m;
    }
    /* often copies of a pattern back to back, -2k..k+3 bytes apart, with
    ** edits (some copies over k): loci whose starts decide their chaining;
    ** patterns of two letters make near-copies everywhere */
    if (!pam && chance(40))
        for (size_t i = 0; i < np; i++)
            for (size_t j = 0; j < len[i]; j++) pats[i][j] = (uint8_t) "AC"[pats[i][j] & 1];
    for (int run = 0; run < 3 && !pam && chance(60); run++) {
        const size_t i = (size_t)below(np);
        int64_t at = (int64_t)below(n / 2), k = (int64_t)o.max_edits;
        for (int c = (int)range(2, 8); c > 0; c--) {
            uint8_t cp[400];
            size_t m = len[i];
            memcpy(cp, pats[i], m);
            for (int e = (int)below(k + 2); e > 0; e--) {
                size_t j = (size_t)below(m);
                int op = (int)below(3);
                if (op == 0) cp[j] = base();
                else if (op == 1 && m > 1) memmove(cp + j, cp + j + 1, --m - j);
                else if (m < sizeof cp) {
                    memmove(cp + j + 1, cp + j, m++ - j);
                    cp[j] = base();
                }
            }
            if (at < 0) at = 0;
            if ((size_t)at + m > n) break;
            for (size_t j = 0; j < m; j++) /* IUPAC codes of the pattern: a base */
                text[at + (int64_t)j] = strchr("ACGT", cp[j]) ? cp[j] : (uint8_t)'A';
            at += (int64_t)m + range(-2 * k, k + 3);
        }
    }
    wm_text_t t = { text, n, rec, n_rec };

    wm_db_t *db = NULL;
    wm_context_t *cx = cpu_context(2, 0);
    if (!cx) return;
    wm_status rc = wm_compile_set(pp, len, np, &o, &db);
    if (!CHECK(rc == WM_OK, "case %ld: compile: %d", idx, (int)rc)) {
        wm_context_free(cx);
        return;
    }
    match_vec want = { 0 }, got = { 0 };
    CHECK(wm_search(cx, db, &t, collect, &want) == WM_OK, "case %ld: cpu search", idx);

    const wm_setk_t *s = db->body;
    size_t nr = 0;
    uint64_t *rs = wm_text_record_starts(&t, &nr);
    all_hits(s, &t, rs);
    /* batches of 1 byte .. the whole text (chunk_bytes sizes them) */
    static const uint64_t sizes[] = { 1, 7, 64, 333, 4096, 0 };
    /* (1-byte batches: thousands of them, so on short texts only) */
    for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++) {
        if (sizes[b] == 1 && n > 1500) continue;
        cx->opts.chunk_bytes = sizes[b];
        got.n = 0;
        wm_setk_sink_t dv = { collect, &got, NULL, 0, 0 };
        uint64_t done = 0;
        rc = wm_setk_gpu_scan(cx, &fake_gpu, s, &t, rs, nr, 0, &dv, &done);
        CHECK(rc == WM_OK && done == n, "case %ld, batches of %llu: status %d, done %llu of %zu",
              idx, (unsigned long long)sizes[b], (int)rc, (unsigned long long)done, n);
        int same = got.n == want.n;
        for (size_t x = 0; same && x < got.n; x++)
            same = memcmp(&got.a[x], &want.a[x], sizeof *got.a) == 0;
        if (!CHECK(same, "case %ld, batches of %llu: %zu matches, the CPU %zu (k %u, %s%s%s)", idx,
                   (unsigned long long)sizes[b], got.n, want.n, o.max_edits,
                   o.metric == WM_METRIC_HAMMING ? "hamming" : "edit", o.revcomp ? ", revcomp" : "",
                   pam ? ", NGG" : ""))
            break;
        /* counting: no starts asked, the regions still decide */
        wm_setk_sink_t dc = { NULL, NULL, NULL, 0, 0 };
        rc = wm_setk_gpu_scan(cx, &fake_gpu, s, &t, rs, nr, 0, &dc, &done);
        CHECK(rc == WM_OK && dc.count == want.n, "case %ld, batches of %llu: counted %llu of %zu",
              idx, (unsigned long long)sizes[b], (unsigned long long)dc.count, want.n);
        /* one match a locus (loci_starts): stand-in starts where no locus
        ** reads them, the same loci and choices as the true starts give */
        match_vec want_loci = { 0 }, got_loci = { 0 };
        loci_of(&want, &want_loci);
        wm_context_tuning(cx)->loci_starts = 1;
        got.n = 0;
        wm_setk_sink_t dl = { collect, &got, NULL, 0, 0 };
        rc = wm_setk_gpu_scan(cx, &fake_gpu, s, &t, rs, nr, 0, &dl, &done);
        loci_of(&got, &got_loci);
        same = rc == WM_OK && got.n == want.n && got_loci.n == want_loci.n;
        for (size_t x = 0; same && x < got_loci.n; x++)
            same = same_match(&got_loci.a[x], &want_loci.a[x]);
        CHECK(same, "case %ld, batches of %llu, loci: %zu loci of %zu matches, the CPU %zu of %zu",
              idx, (unsigned long long)sizes[b], got_loci.n, got.n, want_loci.n, want.n);
        /* and the CPU's own path with it */
        got.n = 0;
        CHECK(wm_search(cx, db, &t, collect, &got) == WM_OK, "case %ld: cpu search, loci", idx);
        loci_of(&got, &got_loci);
        same = got_loci.n == want_loci.n;
        for (size_t x = 0; same && x < got_loci.n; x++)
            same = same_match(&got_loci.a[x], &want_loci.a[x]);
        CHECK(same, "case %ld, chunks of %llu, the CPU's loci: %zu, without stand-ins %zu", idx,
              (unsigned long long)sizes[b], got_loci.n, want_loci.n);
        wm_context_tuning(cx)->loci_starts = 0;
        free(want_loci.a);
        free(got_loci.a);
    }
    free(rs);
    free(g_hits);
    free(g_lens);
    g_hits = NULL;
    g_lens = NULL;
    free(want.a);
    free(got.a);
    wm_db_free(db);
    wm_context_free(cx);
}

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261126ull, &scale, &only);
    run_cases((long)(300 * scale), only, 0x5e7c, 50, one_case);
    return test_finish();
}
