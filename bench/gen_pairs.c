/*
 * gen_pairs.c - inputs for the global alignment benchmarks (issue 5): random
 * sequences, genome slices, mutated copies, and pairs of short reads.
 *
 *   gen_pairs random LEN SEED OUT
 *       LEN uniform random bases from ACGT.
 *   gen_pairs slice FASTA_OR_GZ OFFSET LEN OUT
 *       Bases [OFFSET, OFFSET + LEN) of the FASTA's sequence (all records
 *       end to end: header lines and whitespace dropped, a-z uppercased).
 *       Fails if the sequence is shorter.
 *   gen_pairs mutate IN OUT SEED SUB INDEL MAXLEN
 *       A copy of the bare sequence IN with edits: at each position of IN,
 *       with probability SUB the base is replaced by one of the 3 others;
 *       else with probability INDEL an indel of length uniform in 1..MAXLEN
 *       starts there, an insertion (that many random bases, then the base)
 *       or a deletion (that many bases of IN skipped) with equal odds.
 *       stderr: the edits made (their sum bounds the edit distance).
 *   gen_pairs reads FASTA_OR_GZ N LEN MAXFRAC SEED OUT_A OUT_B
 *       N pairs of reads as two FASTA files, one line of sequence a record.
 *       a_i = LEN bases of the genome at a uniform random start (windows
 *       with a base other than A/C/G/T are drawn again); b_i = a_i with e_i
 *       edits, e_i uniform in 0 .. floor(MAXFRAC * LEN), each edit a
 *       substitution (to another base), an insertion (a random base) or a
 *       deletion of one base, the kind uniform, at a uniform position of the
 *       current b_i. Headers: ">r{i} pos={start}" in A, ">r{i} edits={e_i}"
 *       in B. (e_i bounds the distance: edits may cancel or overlap.)
 *
 * Randomness: splitmix64 seeded with SEED (as gen_text.c); integers below n
 * are x % n (bias < n / 2^64). The same arguments give the same bytes on
 * every machine. Bare sequences are written with no header and no newline.
 * OUT "-" is stdout. Exit 0 ok, 2 error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

static const char GP_ACGT[4] = { 'A', 'C', 'G', 'T' };

/* splitmix64, as gen_text.c */
static uint64_t gp_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint64_t gp_below(uint64_t *s, uint64_t n) { return gp_next(s) % n; }
static double gp_unit(uint64_t *s) { return (double)(gp_next(s) >> 11) * 0x1.0p-53; }

static int gp_u64(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end) {
        fprintf(stderr, "gen_pairs: bad number %s\n", s);
        return -1;
    }
    *out = v;
    return 0;
}

static int gp_real(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0 || v > 1) {
        fprintf(stderr, "gen_pairs: bad fraction %s (0..1)\n", s);
        return -1;
    }
    *out = v;
    return 0;
}

static FILE *gp_open_out(const char *path) {
    if (!strcmp(path, "-")) return stdout;
    FILE *f = fopen(path, "wb");
    if (!f) fprintf(stderr, "gen_pairs: %s: %s\n", path, strerror(errno));
    return f;
}

static int gp_close_out(FILE *f, const char *path) {
    int bad = ferror(f);
    if (f != stdout) bad |= fclose(f);
    else bad |= fflush(f);
    if (bad) {
        fprintf(stderr, "gen_pairs: writing %s failed\n", path);
        return 2;
    }
    return 0;
}

/* A growing byte buffer. */
typedef struct {
    char *a;
    size_t n, m;
} gp_buf_t;

static int gp_push(gp_buf_t *b, char c) {
    if (b->n == b->m) {
        size_t m = b->m ? 2 * b->m : 1 << 20;
        char *a = realloc(b->a, m);
        if (!a) {
            fprintf(stderr, "gen_pairs: out of memory\n");
            return -1;
        }
        b->a = a;
        b->m = m;
    }
    b->a[b->n++] = c;
    return 0;
}

/* The whole sequence of a FASTA (plain or gzip) into b, uppercased. */
static int gp_read_fasta(const char *path, gp_buf_t *b) {
    gzFile f = gzopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gen_pairs: %s: %s\n", path, strerror(errno));
        return -1;
    }
    static char line[1 << 16];
    int in_header = 0, at_line_start = 1;
    for (;;) {
        int got = gzread(f, line, sizeof line);
        if (got < 0) {
            fprintf(stderr, "gen_pairs: %s: read error\n", path);
            gzclose(f);
            return -1;
        }
        if (got == 0) break;
        for (int i = 0; i < got; i++) {
            char c = line[i];
            if (at_line_start && (c == '>' || c == ';')) in_header = 1;
            at_line_start = c == '\n';
            if (c == '\n') {
                in_header = 0;
                continue;
            }
            if (in_header || c == '\r' || c == ' ' || c == '\t') continue;
            if (c >= 'a' && c <= 'z') c = (char)(c - 32);
            if (gp_push(b, c)) {
                gzclose(f);
                return -1;
            }
        }
    }
    gzclose(f);
    return 0;
}

static int gp_read_bare(const char *path, gp_buf_t *b) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gen_pairs: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int c;
    while ((c = getc(f)) != EOF)
        if (gp_push(b, (char)c)) {
            fclose(f);
            return -1;
        }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "gen_pairs: %s: read error\n", path);
        return -1;
    }
    return 0;
}

static char gp_other_base(uint64_t *s, char c) {
    for (;;) {
        char d = GP_ACGT[gp_below(s, 4)];
        if (d != c) return d;
    }
}

static int gp_random(uint64_t len, uint64_t seed, const char *out) {
    FILE *f = gp_open_out(out);
    if (!f) return 2;
    uint64_t s = seed;
    for (uint64_t i = 0; i < len; i++) putc(GP_ACGT[gp_next(&s) >> 62], f);
    return gp_close_out(f, out);
}

static int gp_slice(const char *fa, uint64_t off, uint64_t len, const char *out) {
    gp_buf_t g = { 0 };
    if (gp_read_fasta(fa, &g)) return 2;
    if (off > g.n || len > g.n - off) {
        fprintf(stderr, "gen_pairs: %s has %zu bases; [%llu, +%llu) is outside\n", fa, g.n,
                (unsigned long long)off, (unsigned long long)len);
        free(g.a);
        return 2;
    }
    FILE *f = gp_open_out(out);
    if (!f) {
        free(g.a);
        return 2;
    }
    fwrite(g.a + off, 1, len, f);
    free(g.a);
    return gp_close_out(f, out);
}

static int gp_mutate(const char *in, const char *out, uint64_t seed, double sub, double indel,
                     uint64_t maxlen) {
    gp_buf_t a = { 0 };
    if (gp_read_bare(in, &a)) return 2;
    FILE *f = gp_open_out(out);
    if (!f) {
        free(a.a);
        return 2;
    }
    uint64_t s = seed, n_sub = 0, n_ins = 0, n_del = 0, b_ins = 0, b_del = 0, n_out = 0;
    for (size_t i = 0; i < a.n; i++) {
        double u = gp_unit(&s);
        if (u < sub) {
            putc(gp_other_base(&s, a.a[i]), f);
            n_sub++;
            n_out++;
        } else if (u < sub + indel) {
            uint64_t L = 1 + gp_below(&s, maxlen);
            if (gp_next(&s) & 1) { /* insertion before a[i] */
                for (uint64_t k = 0; k < L; k++) putc(GP_ACGT[gp_below(&s, 4)], f);
                putc(a.a[i], f);
                n_ins++;
                b_ins += L;
                n_out += L + 1;
            } else { /* deletion of a[i .. i + L) */
                uint64_t d = L < a.n - i ? L : a.n - i;
                i += d - 1;
                n_del++;
                b_del += d;
            }
        } else {
            putc(a.a[i], f);
            n_out++;
        }
    }
    free(a.a);
    fprintf(
        stderr,
        "gen_pairs mutate: %zu -> %llu bases; %llu substitutions, %llu insertions (%llu bases), "
        "%llu deletions (%llu bases): at most %llu edits\n",
        a.n, (unsigned long long)n_out, (unsigned long long)n_sub, (unsigned long long)n_ins,
        (unsigned long long)b_ins, (unsigned long long)n_del, (unsigned long long)b_del,
        (unsigned long long)(n_sub + b_ins + b_del));
    return gp_close_out(f, out);
}

static int gp_acgt_only(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != 'A' && p[i] != 'C' && p[i] != 'G' && p[i] != 'T') return 0;
    return 1;
}

static int gp_reads(const char *fa, uint64_t n, uint64_t len, double maxfrac, uint64_t seed,
                    const char *out_a, const char *out_b) {
    gp_buf_t g = { 0 };
    if (gp_read_fasta(fa, &g)) return 2;
    if (len == 0 || g.n < len) {
        fprintf(stderr, "gen_pairs: %s has %zu bases, reads of %llu asked\n", fa, g.n,
                (unsigned long long)len);
        free(g.a);
        return 2;
    }
    FILE *fa_out = gp_open_out(out_a), *fb_out = fa_out ? gp_open_out(out_b) : NULL;
    if (!fa_out || !fb_out) {
        free(g.a);
        return 2;
    }
    uint64_t s = seed, max_e = (uint64_t)(maxfrac * (double)len), sum_e = 0, redraw = 0;
    size_t cap = 2 * len + max_e + 2;
    char *b = malloc(cap);
    if (!b) {
        fprintf(stderr, "gen_pairs: out of memory\n");
        free(g.a);
        return 2;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t pos;
        for (;;) {
            pos = gp_below(&s, g.n - len + 1);
            if (gp_acgt_only(g.a + pos, len)) break;
            if (++redraw > 1000 * (n + 1)) {
                fprintf(stderr, "gen_pairs: %s: hardly any window of %llu bases is all A/C/G/T\n",
                        fa, (unsigned long long)len);
                free(b);
                free(g.a);
                return 2;
            }
        }
        memcpy(b, g.a + pos, len);
        size_t bn = len;
        uint64_t e = gp_below(&s, max_e + 1);
        for (uint64_t k = 0; k < e; k++) {
            uint64_t kind = gp_below(&s, 3);
            if (kind == 2 && bn == 0) kind = 1; /* nothing left to delete */
            if (kind == 0 && bn == 0) kind = 1;
            if (kind == 0) { /* substitution */
                size_t p = (size_t)gp_below(&s, bn);
                b[p] = gp_other_base(&s, b[p]);
            } else if (kind == 1) { /* insertion at p in 0..bn */
                size_t p = (size_t)gp_below(&s, bn + 1);
                memmove(b + p + 1, b + p, bn - p);
                b[p] = GP_ACGT[gp_below(&s, 4)];
                bn++;
            } else { /* deletion of b[p] */
                size_t p = (size_t)gp_below(&s, bn);
                memmove(b + p, b + p + 1, bn - p - 1);
                bn--;
            }
        }
        sum_e += e;
        fprintf(fa_out, ">r%llu pos=%llu\n", (unsigned long long)i, (unsigned long long)pos);
        fwrite(g.a + pos, 1, len, fa_out);
        putc('\n', fa_out);
        fprintf(fb_out, ">r%llu edits=%llu\n", (unsigned long long)i, (unsigned long long)e);
        fwrite(b, 1, bn, fb_out);
        putc('\n', fb_out);
    }
    free(b);
    free(g.a);
    fprintf(stderr,
            "gen_pairs reads: %llu pairs of %llu bases, 0..%llu edits each, %.3f on average; "
            "%llu windows redrawn\n",
            (unsigned long long)n, (unsigned long long)len, (unsigned long long)max_e,
            n ? (double)sum_e / (double)n : 0.0, (unsigned long long)redraw);
    int rc = gp_close_out(fa_out, out_a);
    return gp_close_out(fb_out, out_b) | rc;
}

static int gp_usage(void) {
    fprintf(stderr, "usage: gen_pairs random LEN SEED OUT\n"
                    "       gen_pairs slice FASTA_OR_GZ OFFSET LEN OUT\n"
                    "       gen_pairs mutate IN OUT SEED SUB INDEL MAXLEN\n"
                    "       gen_pairs reads FASTA_OR_GZ N LEN MAXFRAC SEED OUT_A OUT_B\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return gp_usage();
    const char *cmd = argv[1];
    uint64_t x, y, z;
    double p, q;
    if (!strcmp(cmd, "random") && argc == 5) {
        if (gp_u64(argv[2], &x) || gp_u64(argv[3], &y)) return 2;
        return gp_random(x, y, argv[4]);
    }
    if (!strcmp(cmd, "slice") && argc == 6) {
        if (gp_u64(argv[3], &x) || gp_u64(argv[4], &y)) return 2;
        return gp_slice(argv[2], x, y, argv[5]);
    }
    if (!strcmp(cmd, "mutate") && argc == 8) {
        if (gp_u64(argv[4], &x) || gp_real(argv[5], &p) || gp_real(argv[6], &q) ||
            gp_u64(argv[7], &y))
            return 2;
        if (y < 1 || p + q > 1) {
            fprintf(stderr, "gen_pairs: MAXLEN >= 1 and SUB + INDEL <= 1\n");
            return 2;
        }
        return gp_mutate(argv[2], argv[3], x, p, q, y);
    }
    if (!strcmp(cmd, "reads") && argc == 9) {
        if (gp_u64(argv[3], &x) || gp_u64(argv[4], &y) || gp_real(argv[5], &p) ||
            gp_u64(argv[6], &z))
            return 2;
        return gp_reads(argv[2], x, y, p, z, argv[7], argv[8]);
    }
    return gp_usage();
}
