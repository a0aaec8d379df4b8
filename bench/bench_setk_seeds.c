/*
** bench_setk_seeds.c -- how many seeds a set within k errors finds in a
** genome, and how they spread over its keys: what the GPU's seed kernel
** writes (setk_cuda.cu) and the CPU's scan sorts (scan.c). Repeats decide
** it: a key shared by many reads (an Alu piece) occurs in many places, and
** each place gives every read holding it a seed.
**
** Usage: bench_setk_seeds READS.fa GENOME.fa [K]   [4]
**
** The reads are compiled as `search -f READS -k K --revcomp` compiles them
** (both strands, edits), the host's table built (wm_setk_host_table), and
** every text position's key looked up, as the scans do (a key across an N
** is none; records are not cut here, a key across two makes no difference
** to the counts worth speaking of). Prints the keys and seeds compiled, the
** keys by their seed counts, the positions holding a key and the seeds
** found, split by the seed count of the key that gave them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/seqfile.h"
#include "setk_reads.h"
#include "setk/setk.h"
#include "warpmatch.h"

/* The decade of n: 0 for 1-9, 1 for 10-99, ... (at most 4: 10,000 and up). */
static int decade(size_t n) {
    int d = 0;
    while (n >= 10 && d < 4) n /= 10, d++;
    return d;
}

/* Key code's seed count in s's host table, 0 when it has none. */
static size_t seeds_of(const wm_setk_t *s, uint64_t code) {
    uint64_t f = wm_setk_filter_bit(code, s->filter_bits);
    if (!(s->filter[f >> 6] >> (f & 63) & 1)) return 0;
    uint64_t mask = ((uint64_t)1 << s->bits) - 1;
    for (uint64_t h = wm_setk_hash(code, s->bits);; h = (h + 1) & mask) {
        uint32_t u = s->slot[h];
        if (u == 0) return 0;
        if (s->key[u - 1] == code) return s->first[u] - s->first[u - 1];
    }
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: bench_setk_seeds READS.fa GENOME.fa [K]\n");
        return 2;
    }
    uint32_t k = argc > 3 ? (uint32_t)atoi(argv[3]) : 4;
    wm_seqfile_t rf, gf;
    const uint8_t **pp;
    size_t *len, np;
    if (setk_read_inputs("bench_setk_seeds", argv[1], argv[2], &rf, &gf, &pp, &len, &np)) return 1;
    wm_opts_t o = wm_opts_default();
    o.alphabet = WM_ALPHABET_DNA;
    o.max_edits = k;
    o.revcomp = 1;
    wm_setk_t *s = NULL;
    if (wm_setk_compile(pp, len, np, &o, &s) != WM_OK || wm_setk_host_table(s, NULL) != WM_OK) {
        fprintf(stderr, "bench_setk_seeds: the compile failed\n");
        return 1;
    }
    size_t keys[5] = { 0 }, most = 0;
    for (size_t u = 0; u < s->n_keys; u++) {
        size_t c = s->first[u + 1] - s->first[u];
        keys[decade(c)]++;
        if (c > most) most = c;
    }
    uint64_t code = 0, mask = ((uint64_t)1 << (2 * s->q)) - 1, held = 0, found = 0;
    uint64_t by[5] = { 0 };
    unsigned run = 0;
    for (uint64_t x = 0; s->q > 0 && x < gf.text.len; x++) {
        int c = s->sym[gf.text.seq[x]];
        if (c < 0) {
            run = 0;
            continue;
        }
        code = (code << 2 | (uint64_t)c) & mask;
        if (++run < s->q) continue;
        size_t n = seeds_of(s, code);
        held += n > 0;
        found += n;
        by[decade(n)] += n;
    }
    printf("bench_setk_seeds: %zu reads, k = %u, both strands, q = %u: %zu keys, %zu seeds\n", np,
           k, s->q, s->n_keys, s->n_seeds);
    printf("keys by seeds: 1-9 %zu, 10-99 %zu, 100-999 %zu, 1,000+ %zu (the most %zu)\n", keys[0],
           keys[1], keys[2], keys[3] + keys[4], most);
    printf("genome: %llu positions, %llu holding a key, %llu seeds found\n",
           (unsigned long long)gf.text.len, (unsigned long long)held, (unsigned long long)found);
    printf("seeds found from keys of 1-9 seeds %llu, 10-99 %llu, 100-999 %llu, 1,000+ %llu "
           "(%.1f%% from keys of 100 or more)\n",
           (unsigned long long)by[0], (unsigned long long)by[1], (unsigned long long)by[2],
           (unsigned long long)(by[3] + by[4]),
           found ? 100.0 * (double)(by[2] + by[3] + by[4]) / (double)found : 0.0);
    wm_setk_free(s);
    free(pp);
    free(len);
    wm_seqfile_close(&rf);
    wm_seqfile_close(&gf);
    return 0;
}
