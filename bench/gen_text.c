/*
 * gen_text.c - benchmark inputs: random texts, DNA cut from FASTA, patterns.
 *
 *   gen_text random SIGMA BYTES SEED OUT
 *       BYTES uniform random symbols. SIGMA = 4 uses "ACGT"; any other SIGMA in
 *       2..64 uses the first SIGMA symbols of the base64 alphabet
 *       "A-Za-z0-9+/" (all printable, no newline).
 *   gen_text dna FASTA_OR_GZ BYTES OUT
 *       The sequence of a FASTA file (plain or gzip): header lines ('>' or ';')
 *       and whitespace removed, a-z uppercased, other bytes (N, IUPAC codes)
 *       kept. Repeated to BYTES if shorter, and stderr says how many times.
 *   gen_text pattern FILE M SEED
 *       Prints to stdout M bytes cut from a random position of FILE, then a
 *       newline. Windows with a newline, and DNA windows (only ACGTN) with an
 *       N, are skipped; N is kept in the 64-symbol texts.
 *
 * BYTES takes a K/M/G suffix (powers of 1024). OUT "-" is stdout. Output goes
 * out in 1 MiB blocks. Exit 0 ok, 2 error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "bench_util.h"

#define GT_BLOCK ((size_t)1 << 20)

static const char GT_B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* splitmix64: seeds and drives everything; plenty for benchmark text. */
static uint64_t gt_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static FILE *gt_open_out(const char *path) {
    if (!strcmp(path, "-")) return stdout;
    FILE *f = fopen(path, "wb");
    if (!f) fprintf(stderr, "gen_text: %s: %s\n", path, strerror(errno));
    return f;
}

static int gt_close_out(FILE *f, const char *path) {
    int bad = ferror(f);
    if (f != stdout) bad |= fclose(f);
    else bad |= fflush(f);
    if (bad) {
        fprintf(stderr, "gen_text: writing %s failed\n", path);
        return 2;
    }
    return 0;
}

static int gt_random(int sigma, uint64_t n, uint64_t seed, const char *path) {
    const char *alpha = sigma == 4 ? "ACGT" : GT_B64;
    unsigned char *buf = malloc(GT_BLOCK);
    FILE *f = gt_open_out(path);
    if (!buf || !f) {
        free(buf);
        return 2;
    }
    uint64_t s = seed;
    int pow2 = (sigma & (sigma - 1)) == 0, bits = 0;
    while ((1 << bits) < sigma) bits++;
    while (n > 0) {
        size_t len = n < GT_BLOCK ? (size_t)n : GT_BLOCK, i = 0;
        if (pow2) {
            /* 64 / bits symbols per draw */
            unsigned per = 64u / (unsigned)bits, mask = (unsigned)sigma - 1;
            while (i < len) {
                uint64_t r = gt_next(&s);
                for (unsigned j = 0; j < per && i < len; j++, r >>= bits)
                    buf[i++] = (unsigned char)alpha[r & mask];
            }
        } else {
            for (; i < len; i++) {
                uint32_t r = (uint32_t)(gt_next(&s) >> 32);
                buf[i] = (unsigned char)alpha[((uint64_t)r * (uint64_t)sigma) >> 32];
            }
        }
        if (fwrite(buf, 1, len, f) != len) break;
        n -= len;
    }
    free(buf);
    return gt_close_out(f, path);
}

static int gt_dna(const char *in, uint64_t n, const char *path) {
    gzFile g = gzopen(in, "rb"); /* reads plain files too */
    if (!g) {
        fprintf(stderr, "gen_text: %s: cannot open\n", in);
        return 2;
    }
    gzbuffer(g, 1 << 20);
    size_t cap = 1 << 24, len = 0;
    unsigned char *seq = malloc(cap), *blk = malloc(GT_BLOCK);
    if (!seq || !blk) {
        fprintf(stderr, "gen_text: out of memory\n");
        return 2;
    }
    int at_line_start = 1, in_header = 0;
    while (len < n) {
        int got = gzread(g, blk, (unsigned)GT_BLOCK);
        if (got < 0) {
            int e;
            fprintf(stderr, "gen_text: %s: %s\n", in, gzerror(g, &e));
            return 2;
        }
        if (got == 0) break;
        for (int i = 0; i < got && len < n; i++) {
            unsigned char c = blk[i];
            if (at_line_start && (c == '>' || c == ';')) in_header = 1;
            at_line_start = c == '\n';
            if (in_header) {
                if (c == '\n') in_header = 0;
                continue;
            }
            if (isspace(c)) continue;
            if (len == cap) {
                cap *= 2;
                unsigned char *p = realloc(seq, cap);
                if (!p) {
                    fprintf(stderr, "gen_text: out of memory\n");
                    return 2;
                }
                seq = p;
            }
            seq[len++] = (unsigned char)((c >= 'a' && c <= 'z') ? c - 32 : c);
        }
    }
    gzclose(g);
    free(blk);
    if (len == 0) {
        fprintf(stderr, "gen_text: %s: no sequence\n", in);
        return 2;
    }
    if (len < n)
        fprintf(stderr, "gen_text: %s: sequence is %zu bytes; repeated %.3f times to %llu bytes\n",
                in, len, (double)n / (double)len, (unsigned long long)n);
    FILE *f = gt_open_out(path);
    if (!f) return 2;
    uint64_t left = n;
    size_t pos = 0;
    while (left > 0) {
        size_t w = len - pos;
        if (w > GT_BLOCK) w = GT_BLOCK;
        if (w > left) w = (size_t)left;
        if (fwrite(seq + pos, 1, w, f) != w) break;
        left -= w;
        pos += w;
        if (pos == len) pos = 0;
    }
    free(seq);
    return gt_close_out(f, path);
}

/* A window is unusable if it holds a newline, or if it is DNA (only ACGTN,
 * any case) holding an N; N is an ordinary symbol of the 64-letter texts. */
static int gt_bad_window(const unsigned char *w, size_t m) {
    int dna = 1, has_n = 0;
    for (size_t i = 0; i < m; i++) {
        unsigned char c = w[i] & 0xDF; /* uppercase letters */
        if (w[i] == '\n' || w[i] == '\r') return 1;
        if (c == 'N') has_n = 1;
        else if (c != 'A' && c != 'C' && c != 'G' && c != 'T') dna = 0;
    }
    return dna && has_n;
}

static int gt_pattern(const char *in, uint64_t m, uint64_t seed) {
    FILE *f = fopen(in, "rb");
    if (!f) {
        fprintf(stderr, "gen_text: %s: %s\n", in, strerror(errno));
        return 2;
    }
    if (fseeko(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "gen_text: %s: cannot seek\n", in);
        return 2;
    }
    uint64_t n = (uint64_t)ftello(f);
    if (m == 0 || m > n) {
        fprintf(stderr, "gen_text: %s: pattern length %llu not in 1..%llu\n", in,
                (unsigned long long)m, (unsigned long long)n);
        return 2;
    }
    unsigned char *buf = malloc((size_t)m + 1);
    if (!buf) return 2;
    uint64_t s = seed;
    for (int tries = 0; tries < 10000; tries++) {
        uint64_t pos = gt_next(&s) % (n - m + 1);
        if (fseeko(f, (off_t)pos, SEEK_SET) != 0 || fread(buf, 1, (size_t)m, f) != m) break;
        if (gt_bad_window(buf, (size_t)m)) continue;
        fwrite(buf, 1, (size_t)m, stdout);
        putchar('\n');
        fclose(f);
        free(buf);
        return fflush(stdout) ? 2 : 0;
    }
    fclose(f);
    free(buf);
    fprintf(stderr, "gen_text: %s: no window of %llu bytes free of newlines (and of N in DNA)\n",
            in, (unsigned long long)m);
    return 2;
}

static void gt_usage(FILE *f) {
    fprintf(f, "usage: gen_text random SIGMA BYTES SEED OUT   (SIGMA 4 = ACGT, else 2..64 base64 "
               "symbols)\n"
               "       gen_text dna FASTA_OR_GZ BYTES OUT     (sequence only, uppercased, repeated "
               "to BYTES)\n"
               "       gen_text pattern FILE M SEED           (M bytes, no N in DNA, to stdout)\n"
               "BYTES takes K/M/G suffixes (1024-based); OUT '-' is stdout.\n");
}

int main(int argc, char **argv) {
    uint64_t n, seed;
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        gt_usage(stdout);
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "random")) {
        int sigma = atoi(argv[2]);
        if (sigma < 2 || sigma > 64 || bu_parse_size(argv[3], &n) ||
            bu_parse_size(argv[4], &seed)) {
            gt_usage(stderr);
            return 2;
        }
        return gt_random(sigma, n, seed, argv[5]);
    }
    if (argc == 5 && !strcmp(argv[1], "dna")) {
        if (bu_parse_size(argv[3], &n)) {
            gt_usage(stderr);
            return 2;
        }
        return gt_dna(argv[2], n, argv[4]);
    }
    if (argc == 5 && !strcmp(argv[1], "pattern")) {
        if (bu_parse_size(argv[3], &n) || bu_parse_size(argv[4], &seed)) {
            gt_usage(stderr);
            return 2;
        }
        return gt_pattern(argv[2], n, seed);
    }
    gt_usage(stderr);
    return 2;
}
