/*
 * gen_patterns.c - inputs for the pattern-set benchmarks (issue 3).
 *
 *   gen_patterns dna-kmers N L TEXTFILE SEED
 *       N windows of L bytes sampled at uniformly random positions of
 *       TEXTFILE (plain sequence bytes, e.g. from `gen_text dna`), a-z
 *       uppercased, one per line on stdout. A window is kept only if it is
 *       all A/C/G/T after uppercasing (windows with N or other codes are
 *       drawn again). Sampling is with replacement, as in paper 003: the same
 *       k-mer can be drawn twice, and then appears twice in the set (each copy
 *       is its own pattern id, reported separately by every tool).
 *   gen_patterns signatures N LMIN LMAX TEXTFILE SEED
 *       N byte patterns, lengths uniform in [LMIN, LMAX], one per line on
 *       stdout. 9 in 10 are cut from random positions of TEXTFILE (so they
 *       occur); 1 in 10 are uniform random bytes (almost never occur). No
 *       pattern contains '\n' (cut windows holding one are drawn again; random
 *       bytes skip it); every other byte value, NUL and '\r' included, may
 *       appear. LMIN >= 1, so there is no empty line.
 *   gen_patterns mixed BYTES OUT SRC[:MAX] [SRC[:MAX] ...]
 *       "Mixed text": the sources (plain or gzip, read with zlib; at most MAX
 *       bytes of each when given) interleaved in 64 KiB blocks in proportion
 *       to their sizes (each step emits the next block of the source that is
 *       least far through, so the mixture is even along the whole seed), then
 *       the seed repeated to BYTES. Bytes are copied unchanged (FASTA headers,
 *       line breaks, CRLF and binary samples included). stderr says what each
 *       source gave and how many times the seed was repeated. bench/run_multi.sh
 *       gives the recipe used for the benchmarks.
 *
 *   gen_patterns yara-rules PER_RULE < PATTERNS > RULES
 *       Each line as a hex string ({ 54 68 65 }) of a YARA rule, PER_RULE
 *       strings a rule (YARA's limit is 10,000), each rule's condition
 *       "any of them": `yara RULES FILE` scans for every line's bytes.
 *
 *   gen_patterns regex-escape < PATTERNS > REGEXES
 *       Each line rewritten as a regular expression that matches exactly its
 *       bytes: "(?-u:...)" around the bytes, [0-9A-Za-z] kept, every other
 *       byte as \xHH. For `rg -o -f`, whose -F needs patterns in UTF-8
 *       (the signature sets hold arbitrary bytes).
 *
 * Sizes (N, BYTES, MAX) take K/M/G suffixes (powers of 1024). OUT "-" is
 * stdout. Exit 0 ok, 2 error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "bench_util.h"

#define GP_BLOCK ((size_t)64 << 10) /* interleave unit of `mixed` */
#define GP_MAX_SRC 64

/* splitmix64, as gen_text.c */
static uint64_t gp_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 */
static uint64_t gp_below(uint64_t *s, uint64_t n) { return gp_next(s) % n; }

typedef struct {
    const unsigned char *p;
    size_t n;
} gp_map_t;

static int gp_map(const char *path, gp_map_t *m) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "gen_patterns: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size == 0) {
        fprintf(stderr, "gen_patterns: %s: empty or unreadable\n", path);
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fprintf(stderr, "gen_patterns: mmap %s: %s\n", path, strerror(errno));
        return -1;
    }
    m->p = p;
    m->n = (size_t)st.st_size;
    return 0;
}

/* ---- dna-kmers --------------------------------------------------------- */

static int gp_dna_kmers(uint64_t n, uint64_t l, const char *path, uint64_t seed) {
    gp_map_t t;
    if (l == 0) {
        fprintf(stderr, "gen_patterns: L must be >= 1\n");
        return 2;
    }
    if (gp_map(path, &t)) return 2;
    if (l > t.n) {
        fprintf(stderr, "gen_patterns: %s is shorter than L\n", path);
        return 2;
    }
    unsigned char *w = malloc((size_t)l + 1);
    if (!w) return 2;
    uint64_t s = seed, tries = 0;
    for (uint64_t i = 0; i < n; i++) {
        for (;;) {
            if (++tries > 1000 * (n + 1000)) {
                fprintf(stderr, "gen_patterns: %s: too few all-ACGT windows of %llu\n", path,
                        (unsigned long long)l);
                return 2;
            }
            const unsigned char *p = t.p + gp_below(&s, t.n - l + 1);
            size_t j = 0;
            for (; j < l; j++) {
                unsigned char c = p[j];
                if (c >= 'a' && c <= 'z') c -= 32;
                if (c != 'A' && c != 'C' && c != 'G' && c != 'T') break;
                w[j] = c;
            }
            if (j == l) break;
        }
        w[l] = '\n';
        if (fwrite(w, 1, (size_t)l + 1, stdout) != l + 1) return 2;
    }
    free(w);
    return fflush(stdout) ? 2 : 0;
}

/* ---- signatures --------------------------------------------------------- */

static int gp_signatures(uint64_t n, uint64_t lmin, uint64_t lmax, const char *path,
                         uint64_t seed) {
    gp_map_t t;
    if (lmin < 1 || lmax < lmin) {
        fprintf(stderr, "gen_patterns: need 1 <= LMIN <= LMAX\n");
        return 2;
    }
    if (gp_map(path, &t)) return 2;
    if (lmax > t.n) {
        fprintf(stderr, "gen_patterns: %s is shorter than LMAX\n", path);
        return 2;
    }
    unsigned char *w = malloc((size_t)lmax + 1);
    if (!w) return 2;
    uint64_t s = seed, n_cut = 0, n_rand = 0;
    for (uint64_t i = 0; i < n; i++) {
        size_t l = (size_t)(lmin + gp_below(&s, lmax - lmin + 1));
        if (gp_below(&s, 10) == 0) {
            for (size_t j = 0; j < l; j++) {
                unsigned char c;
                do c = (unsigned char)gp_next(&s);
                while (c == '\n');
                w[j] = c;
            }
            n_rand++;
        } else {
            int ok = 0;
            for (int tries = 0; tries < 100000 && !ok; tries++) {
                const unsigned char *p = t.p + gp_below(&s, t.n - l + 1);
                ok = memchr(p, '\n', l) == NULL;
                if (ok) memcpy(w, p, l);
            }
            if (!ok) {
                fprintf(stderr, "gen_patterns: %s: no window of %zu bytes without a newline\n",
                        path, l);
                return 2;
            }
            n_cut++;
        }
        w[l] = '\n';
        if (fwrite(w, 1, l + 1, stdout) != l + 1) return 2;
    }
    free(w);
    fprintf(stderr, "gen_patterns: %llu patterns cut from %s, %llu random\n",
            (unsigned long long)n_cut, path, (unsigned long long)n_rand);
    return fflush(stdout) ? 2 : 0;
}

/* ---- mixed ---------------------------------------------------------------- */

typedef struct {
    const char *name;
    unsigned char *p;
    size_t n, done;
} gp_src_t;

static int gp_read_src(const char *spec, gp_src_t *src) {
    char path[4096];
    uint64_t max = UINT64_MAX;
    snprintf(path, sizeof path, "%s", spec);
    char *colon = strrchr(path, ':');
    if (colon && !bu_parse_size(colon + 1, &max)) *colon = '\0';
    gzFile g = gzopen(path, "rb");
    if (!g) {
        fprintf(stderr, "gen_patterns: %s: cannot open\n", path);
        return -1;
    }
    gzbuffer(g, 1 << 20);
    size_t cap = 1 << 20, n = 0;
    unsigned char *p = malloc(cap);
    for (;;) {
        if (!p) {
            fprintf(stderr, "gen_patterns: out of memory\n");
            return -1;
        }
        if (n == cap) {
            unsigned char *q = realloc(p, cap * 2);
            if (!q) {
                free(p);
                p = NULL;
                continue;
            }
            p = q;
            cap *= 2;
        }
        size_t want = cap - n;
        if (want > max - n) want = (size_t)(max - n);
        if (want > (1u << 30)) want = 1u << 30;
        if (want == 0) break;
        int got = gzread(g, p + n, (unsigned)want);
        if (got < 0) {
            int e;
            fprintf(stderr, "gen_patterns: %s: %s\n", path, gzerror(g, &e));
            return -1;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    gzclose(g);
    if (n == 0) {
        fprintf(stderr, "gen_patterns: %s: empty\n", path);
        return -1;
    }
    src->name = spec;
    src->p = p;
    src->n = n;
    src->done = 0;
    return 0;
}

static int gp_mixed(uint64_t bytes, const char *out, int n_src, char **specs) {
    gp_src_t src[GP_MAX_SRC];
    size_t total = 0;
    if (n_src < 1 || n_src > GP_MAX_SRC) {
        fprintf(stderr, "gen_patterns: 1 to %d sources\n", GP_MAX_SRC);
        return 2;
    }
    for (int i = 0; i < n_src; i++) {
        if (gp_read_src(specs[i], &src[i])) return 2;
        total += src[i].n;
    }
    unsigned char *seed = malloc(total);
    if (!seed) {
        fprintf(stderr, "gen_patterns: out of memory\n");
        return 2;
    }
    size_t len = 0;
    while (len < total) {
        /* the source least far through (done / n) gives the next block */
        int best = -1;
        for (int i = 0; i < n_src; i++) {
            if (src[i].done == src[i].n) continue;
            if (best < 0 || (double)src[i].done / (double)src[i].n <
                                (double)src[best].done / (double)src[best].n)
                best = i;
        }
        size_t w = src[best].n - src[best].done;
        if (w > GP_BLOCK) w = GP_BLOCK;
        memcpy(seed + len, src[best].p + src[best].done, w);
        src[best].done += w;
        len += w;
    }
    for (int i = 0; i < n_src; i++) {
        fprintf(stderr, "gen_patterns: mixed: %-52s %10zu bytes (%.1f%%)\n", src[i].name, src[i].n,
                100.0 * (double)src[i].n / (double)total);
        free(src[i].p);
    }
    fprintf(stderr, "gen_patterns: mixed: seed %zu bytes, repeated %.2f times to %llu bytes\n",
            total, (double)bytes / (double)total, (unsigned long long)bytes);
    FILE *f = strcmp(out, "-") ? fopen(out, "wb") : stdout;
    if (!f) {
        fprintf(stderr, "gen_patterns: %s: %s\n", out, strerror(errno));
        return 2;
    }
    uint64_t left = bytes;
    size_t pos = 0;
    while (left > 0) {
        size_t w = total - pos;
        if (w > ((size_t)1 << 20)) w = (size_t)1 << 20;
        if (w > left) w = (size_t)left;
        if (fwrite(seed + pos, 1, w, f) != w) break;
        left -= w;
        pos += w;
        if (pos == total) pos = 0;
    }
    free(seed);
    int bad = ferror(f) || left > 0;
    bad |= f == stdout ? fflush(f) : fclose(f);
    if (bad) {
        fprintf(stderr, "gen_patterns: writing %s failed\n", out);
        return 2;
    }
    return 0;
}

/* ---- yara-rules ------------------------------------------------------------ */

/* Each line as a hex string of a YARA rule, per_rule strings a rule (YARA
** takes at most 10,000 strings a rule), each rule matching on any of them. */
static int gp_yara_rules(uint64_t per_rule) {
    int c, at_start = 1;
    uint64_t n = 0;
    while ((c = getchar()) != EOF) {
        if (c == '\n') {
            if (!at_start) fputs(" }\n", stdout);
            at_start = 1;
            continue;
        }
        if (at_start) {
            if (n % per_rule == 0) {
                if (n) fputs("    condition:\n        any of them\n}\n", stdout);
                printf("rule sigs_%llu {\n    strings:\n", (unsigned long long)(n / per_rule));
            }
            printf("        $s%llu = {", (unsigned long long)n++);
            at_start = 0;
        }
        printf(" %02x", c);
    }
    if (!at_start) fputs(" }\n", stdout);
    if (n) fputs("    condition:\n        any of them\n}\n", stdout);
    return fflush(stdout) || ferror(stdout) ? 2 : 0;
}

/* ---- regex-escape --------------------------------------------------------- */

static int gp_regex_escape(void) {
    static const char hex[] = "0123456789abcdef";
    int c, at_start = 1;
    while ((c = getchar()) != EOF) {
        if (c == '\n') {
            if (!at_start) fputs(")\n", stdout);
            at_start = 1;
            continue;
        }
        if (at_start) fputs("(?-u:", stdout);
        at_start = 0;
        if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) putchar(c);
        else {
            putchar('\\');
            putchar('x');
            putchar(hex[c >> 4]);
            putchar(hex[c & 15]);
        }
    }
    if (!at_start) fputs(")\n", stdout);
    return fflush(stdout) || ferror(stdout) ? 2 : 0;
}

static void gp_usage(FILE *f) {
    fprintf(f, "usage: gen_patterns dna-kmers N L TEXTFILE SEED            (A/C/G/T windows, with "
               "replacement)\n"
               "       gen_patterns signatures N LMIN LMAX TEXTFILE SEED   (90%% cut from text, "
               "10%% random; no '\\n')\n"
               "       gen_patterns mixed BYTES OUT SRC[:MAX]...           (sources interleaved, "
               "repeated to BYTES)\n"
               "       gen_patterns regex-escape < PATTERNS > REGEXES      (each line as a "
               "byte-exact regex, for rg)\n"
               "       gen_patterns yara-rules PER_RULE < PATTERNS > RULES (each line a hex "
               "string, PER_RULE a rule)\n"
               "Patterns go to stdout, one per line. Sizes take K/M/G suffixes (1024-based).\n");
}

int main(int argc, char **argv) {
    uint64_t n, a, b, seed;
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        gp_usage(stdout);
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "dna-kmers")) {
        if (bu_parse_size(argv[2], &n) || bu_parse_size(argv[3], &a) ||
            bu_parse_size(argv[5], &seed)) {
            gp_usage(stderr);
            return 2;
        }
        return gp_dna_kmers(n, a, argv[4], seed);
    }
    if (argc == 7 && !strcmp(argv[1], "signatures")) {
        if (bu_parse_size(argv[2], &n) || bu_parse_size(argv[3], &a) ||
            bu_parse_size(argv[4], &b) || bu_parse_size(argv[6], &seed)) {
            gp_usage(stderr);
            return 2;
        }
        return gp_signatures(n, a, b, argv[5], seed);
    }
    if (argc >= 5 && !strcmp(argv[1], "mixed")) {
        if (bu_parse_size(argv[2], &n)) {
            gp_usage(stderr);
            return 2;
        }
        return gp_mixed(n, argv[3], argc - 4, argv + 4);
    }
    if (argc == 2 && !strcmp(argv[1], "regex-escape")) return gp_regex_escape();
    if (argc == 3 && !strcmp(argv[1], "yara-rules")) {
        if (bu_parse_size(argv[2], &n) || n == 0) {
            gp_usage(stderr);
            return 2;
        }
        return gp_yara_rules(n);
    }
    gp_usage(stderr);
    return 2;
}
