/*
** shiftor.c -- exact search (k = 0) on the CPU: Shift-And over the last
** min(m, 64) pattern positions, and for longer patterns a check of the rest
** at each end the automaton accepts. (Shift-Or and Shift-And are the same
** automaton with the bits inverted; we keep 1 = active so one mask table
** serves every algorithm.)
**
** Four copies of the automaton walk four quarters of the span at once: each
** step of one copy depends on its previous step (shift, or, and), so one copy
** leaves most of a core idle; four independent ones fill it.
**
** Before the automaton, the SIMD literal filter (litfilter.c) finds the
** pattern's occurrences at memory speed; where its survivors turn out dense
** (periodic text) the rest of the span goes to the automaton, which costs
** O(1) per byte always.
*/
#include "search/search.h"
#include "search/litfilter.h"

/* Mask of tail position i (0..t-1) = pattern position m - t + i. */
static inline uint64_t tail_mask(const wm_strand_t *st, size_t nw, size_t m, size_t t, uint8_t c) {
    if (nw == 1) return st->peq[c];
    /* positions m-t .. m-1 straddle at most two words */
    size_t first = m - t, w = first / 64, sh = first % 64;
    uint64_t lo = st->peq[(size_t)c * nw + w] >> sh;
    uint64_t hi = (sh && w + 1 < nw) ? st->peq[(size_t)c * nw + w + 1] << (64 - sh) : 0;
    return lo | hi;
}

static int head_matches(const wm_strand_t *st, size_t nw, size_t m, size_t t, const uint8_t *text,
                        uint64_t e) {
    for (size_t i = 0; i < m - t; i++) {
        uint8_t c = text[e - m + i];
        if (!((st->peq[(size_t)c * nw + i / 64] >> (i % 64)) & 1)) return 0;
    }
    return 1;
}

static int automaton_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                          uint64_t own_from, uint64_t to, wm_hitvec_t *out);

int wm_shiftor_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                    uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const wm_strand_t *st = &pat->strand[strand];
    size_t m = pat->m, nw = pat->n_words;
    wm_litfilter_t made;
    const wm_litfilter_t *lit = &st->lit;
    if (lit->len != m) { /* (compiled with errors, scanned exactly: never today) */
        wm_litfilter_make(st, nw, 0, m, &made);
        lit = &made;
    }
    uint64_t first_end = own_from + 1 > scan_from + m ? own_from + 1 : scan_from + m;
    if (first_end > to) return 0;
    uint64_t s0 = first_end - m, s1 = to - m + 1; /* starts [s0, s1) */
    if (lit->n >= 2 && s1 - s0 >= 64) {
        int64_t r = wm_litfilter_scan(st, nw, lit, text, s0, s1, strand, out);
        if (r < 0) return -1;
        /* the automaton takes the starts the filter left: ends > r + m - 1 */
        own_from = (uint64_t)r + m - 1;
        if (own_from >= to) return 0;
        scan_from = own_from + 1 > m ? own_from + 1 - m : 0;
        if (scan_from < s0) scan_from = s0;
    }
    return automaton_scan(pat, strand, text, scan_from, own_from, to, out);
}

static int automaton_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                          uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const wm_strand_t *st = &pat->strand[strand];
    size_t m = pat->m, nw = pat->n_words, t = m < 64 ? m : 64;
    uint64_t tail[256]; /* one word: the masks themselves, not a copy a scan */
    const uint64_t *B = st->peq;
    if (nw > 1) {
        for (unsigned c = 0; c < 256; c++) tail[c] = tail_mask(st, nw, m, t, (uint8_t)c);
        B = tail;
    }
    const uint64_t accept = 1ull << (t - 1);

    /* The automaton over the tail needs t - 1 bytes before each end; the head
    ** check reads the m - t bytes before those, inside [scan_from, ...). */
    uint64_t halo = t - 1;
    uint64_t first_end = own_from + 1 > scan_from + m ? own_from + 1 : scan_from + m;
    if (first_end > to) return 0;
    /* Span of ends [first_end, to]; split into 4 quarters. */
    uint64_t n_ends = to - first_end + 1;
    uint64_t q = (n_ends + 3) / 4;
    uint64_t lo[4], hi[4], pos[4];
    uint64_t R[4] = { 0, 0, 0, 0 };
    for (int j = 0; j < 4; j++) {
        lo[j] = first_end + q * (uint64_t)j; /* first end of quarter j */
        hi[j] = lo[j] + q - 1;               /* last end of quarter j */
        if (hi[j] > to) hi[j] = to;
        pos[j] = lo[j] - 1 - halo; /* first byte to read */
    }
    /* Each quarter collects its own hits so they come out in end order. */
    wm_hitvec_t part[4] = { { 0 } };
    int rc = 0;
    uint64_t common = q + halo;
    for (int j = 0; j < 4; j++)
        if (lo[j] > hi[j]) common = 0; /* an empty quarter: go one at a time */
    if (common) {
        uint64_t last_full = hi[3] - lo[3] + 1 + halo; /* the shortest quarter */
        if (last_full < common) common = last_full;
        for (uint64_t s = 0; s < common; s++) {
            for (int j = 0; j < 4; j++) {
                R[j] = ((R[j] << 1) | 1) & B[text[pos[j] + s]];
                if (R[j] & accept) {
                    uint64_t e = pos[j] + s + 1;
                    if (e >= lo[j] && (t == m || head_matches(st, nw, m, t, text, e)))
                        rc |= wm_hitvec_push(&part[j], e, 0, (uint32_t)strand);
                }
            }
        }
    }
    /* Finish each quarter alone. */
    for (int j = 0; j < 4; j++) {
        if (lo[j] > hi[j]) continue;
        uint64_t end_byte = hi[j]; /* exclusive byte bound */
        for (uint64_t p = pos[j] + common; p < end_byte; p++) {
            R[j] = ((R[j] << 1) | 1) & B[text[p]];
            if (R[j] & accept) {
                uint64_t e = p + 1;
                if (e >= lo[j] && (t == m || head_matches(st, nw, m, t, text, e)))
                    rc |= wm_hitvec_push(&part[j], e, 0, (uint32_t)strand);
            }
        }
    }
    for (int j = 0; j < 4; j++) {
        for (size_t i = 0; i < part[j].n && rc == 0; i++)
            rc |= wm_hitvec_push(out, part[j].a[i].end, 0, (uint32_t)strand);
        wm_hitvec_free(&part[j]);
    }
    return rc;
}
