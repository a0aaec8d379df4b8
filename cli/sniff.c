/*
** sniff.c -- --alphabet auto's look at the data (see sniff.h).
*/
#include "sniff.h"

#include <stdio.h>

static int is_blank(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_nucleotide(uint8_t c) {
    switch (c | 0x20) { /* ASCII lowercase; no other byte lands on these */
    case 'a':
    case 'c':
    case 'g':
    case 't':
    case 'u':
    case 'n': return 1;
    default: return 0;
    }
}

void wm_sniff_add(wm_sniff_t *s, const uint8_t *p, uint64_t n) {
    for (uint64_t i = 0; i < n && s->seen < WM_SNIFF_BYTES; ++i) {
        if (is_blank(p[i])) continue;
        s->seen++;
        s->nuc += (uint64_t)is_nucleotide(p[i]);
    }
}

void wm_sniff_text(wm_sniff_t *s, const wm_text_t *t) {
    if (t != NULL && t->seq != NULL) wm_sniff_add(s, t->seq, t->len);
}

int wm_sniff_is_dna(const wm_sniff_t *s) {
    /* nuc/seen >= permille/1000, in integers (seen <= 64 Ki: no overflow) */
    return s->seen > 0 && s->nuc * 1000 >= s->seen * WM_SNIFF_DNA_PERMILLE;
}

const char *wm_sniff_why(const wm_sniff_t *s, char *buf, size_t len) {
    if (s->seen == 0) {
        snprintf(buf, len, "no sequence bytes to look at");
        return buf;
    }
    /* one decimal, rounded down, so that 89.96% never prints as 90.0% */
    uint64_t tenths = s->nuc * 1000 / s->seen;
    snprintf(buf, len,
             "%llu.%llu%% of the first %llu sequence bytes are A, C, G, T, U or N (%d%% makes DNA)",
             (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10),
             (unsigned long long)s->seen, WM_SNIFF_DNA_PERMILLE / 10);
    return buf;
}
