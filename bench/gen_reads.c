/*
 * gen_reads.c - pattern sets cut from a genome, for the k-error set
 * benchmarks (issue 17: bench/setk_prep.sh makes them, bench/setk_run.sh
 * runs them).
 *
 *   gen_reads reads N LMIN LMAX MAXEDITS GENOME SEED OUT TRUTH
 *   gen_reads primers N LMIN LMAX MAXEDITS GENOME SEED OUT TRUTH
 *       N patterns, lengths uniform in [LMIN, LMAX], each cut from a uniform
 *       random window of GENOME (a record drawn in proportion to its length)
 *       whose bases are all A/C/G/T (a-z uppercased; windows with N or other
 *       codes are drawn again), with e edits planted, e uniform in
 *       [0, MAXEDITS]: each a substitution (to another base), an insertion (a
 *       random base) or a deletion (one genome base skipped), 1/3 each, at e
 *       distinct positions of the pattern. Then, for half of them (a coin
 *       per pattern), the reverse complement. So the edit distance of a
 *       pattern to its window (or the window's reverse complement) is at
 *       most e, and may be less (an insertion next to an equal base, say).
 *       Names: r1, r2, ... (reads) or p1, p2, ... (primers).
 *   gen_reads guides N GENOME SEED MAXMM OUT TRUTH
 *       N CRISPR guides: a site of GENOME that is 20 A/C/G/T bases, one
 *       A/C/G/T and GG (forward strand), or CC, one base and 20 bases (its
 *       reverse complement on the reverse strand), drawn uniformly among
 *       positions; the guide is the site's 20 bases with m mismatches planted
 *       (m uniform in [0, MAXMM], never in the PAM), followed by "NGG" (the
 *       PAM as an IUPAC pattern). Names: g1, g2, ...
 *
 * OUT: FASTA, one record per pattern, the sequence on one line (warpmatch
 * -f, razers3 and bowtie -f read it). TRUTH: TSV with a header line, one row
 * per pattern: name, record, start, end (0-based, half-open, forward-strand
 * coordinates of the genome window the pattern was cut from), strand, planted
 * edits, and what they were (S12 = substitution at pattern position 12, I, D;
 * positions before the reverse complement; "-" for none).
 *
 * Everything is drawn from SEED (splitmix64), so a SEED gives the same files
 * on any machine. N takes a K/M/G suffix (powers of 1024; give 1000000 for a
 * decimal million). OUT and TRUTH may be "-" (stdout) but not both. Exit 0 ok,
 * 2 error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "bench_util.h"

#define GR_MAX_LEN 4096   /* longest pattern: far above any workload here */
#define GR_TRIES_PER 1000 /* windows drawn per pattern before giving up */
#define GR_GUIDE 20       /* guide bases before the PAM */
#define GR_SITE 23        /* guide + NGG */

/* splitmix64, as gen_text.c */
static uint64_t gr_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 */
static uint64_t gr_below(uint64_t *s, uint64_t n) { return gr_next(s) % n; }

static const char GR_BASES[] = "ACGT";

/* The genome: every record's sequence uppercased, concatenated; record r
 * holds seq[starts[r], starts[r + 1]). */
typedef struct {
    char *seq;
    uint64_t n_seq, m_seq;
    char **names;
    uint64_t *starts; /* n_rec + 1 entries */
    size_t n_rec;
    uint64_t m_names, m_starts;
} gr_genome_t;

static int gr_grow(void **p, uint64_t *cap, uint64_t need, size_t elem) {
    if (need <= *cap) return 0;
    uint64_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) {
        fprintf(stderr, "gen_reads: out of memory\n");
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

/* Starts record r named by the header line text in hdr (after '>'). */
static int gr_add_record(gr_genome_t *g, const char *hdr, size_t len) {
    if (gr_grow((void **)&g->names, &g->m_names, g->n_rec + 1, sizeof *g->names)) return -1;
    if (gr_grow((void **)&g->starts, &g->m_starts, g->n_rec + 2, sizeof *g->starts)) return -1;
    size_t w = 0;
    while (w < len && hdr[w] != ' ' && hdr[w] != '\t' && hdr[w] != '\r') w++;
    char *name = malloc(w + 1);
    if (!name) {
        fprintf(stderr, "gen_reads: out of memory\n");
        return -1;
    }
    memcpy(name, hdr, w);
    name[w] = '\0';
    g->names[g->n_rec] = name;
    g->starts[g->n_rec] = g->n_seq;
    g->n_rec++;
    return 0;
}

static void gr_free(gr_genome_t *g) {
    for (size_t r = 0; r < g->n_rec; r++) free(g->names[r]);
    free(g->names);
    free(g->starts);
    free(g->seq);
}

/* Reads FASTA (plain or gzip) into g. Lines are handled whole, so a header
 * is never split across a read block. */
static int gr_load(const char *path, gr_genome_t *g) {
    memset(g, 0, sizeof *g);
    gzFile f = gzopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gen_reads: %s: %s\n", path, strerror(errno));
        return -1;
    }
    static char line[1 << 16];
    int at_line_start = 1, in_header = 0;
    char hdr[1024];
    size_t n_hdr = 0;
    int rc = 0;
    for (;;) {
        int got = gzread(f, line, sizeof line);
        if (got < 0) {
            int e;
            fprintf(stderr, "gen_reads: %s: %s\n", path, gzerror(f, &e));
            rc = -1;
            break;
        }
        if (got == 0) break;
        if (gr_grow((void **)&g->seq, &g->m_seq, g->n_seq + (uint64_t)got, 1)) {
            rc = -1;
            break;
        }
        for (int i = 0; i < got; i++) {
            char c = line[i];
            if (in_header) {
                if (c == '\n') {
                    if (gr_add_record(g, hdr, n_hdr)) {
                        rc = -1;
                        break;
                    }
                    in_header = 0;
                    at_line_start = 1;
                } else if (n_hdr < sizeof hdr) {
                    hdr[n_hdr++] = c;
                }
                continue;
            }
            if (at_line_start && (c == '>' || c == ';')) {
                in_header = 1;
                n_hdr = 0;
                continue;
            }
            at_line_start = c == '\n';
            if (c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
            if (!g->n_rec) {
                fprintf(stderr, "gen_reads: %s: sequence before the first '>' header\n", path);
                rc = -1;
                break;
            }
            if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
            g->seq[g->n_seq++] = c;
        }
        if (rc) break;
    }
    if (!rc && in_header && gr_add_record(g, hdr, n_hdr)) rc = -1;
    gzclose(f);
    if (!rc && (!g->n_rec || !g->n_seq)) {
        fprintf(stderr, "gen_reads: %s: no FASTA sequence\n", path);
        rc = -1;
    }
    if (rc) {
        gr_free(g);
        return -1;
    }
    g->starts[g->n_rec] = g->n_seq;
    return 0;
}

/* The record holding global offset p (binary search over starts). */
static size_t gr_record_of(const gr_genome_t *g, uint64_t p) {
    size_t lo = 0, hi = g->n_rec; /* starts[lo] <= p < starts[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->starts[mid] <= p) lo = mid;
        else hi = mid;
    }
    return lo;
}

static int gr_is_base(char c) { return c == 'A' || c == 'C' || c == 'G' || c == 'T'; }

static int gr_all_bases(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!gr_is_base(s[i])) return 0;
    return 1;
}

static char gr_complement(char c) {
    switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    default: return 'N';
    }
}

static void gr_revcomp(char *s, size_t n) {
    for (size_t i = 0, j = n; i < j--; i++) { /* i == j: the middle, complemented once */
        char a = gr_complement(s[i]);
        s[i] = gr_complement(s[j]);
        s[j] = a;
    }
}

/* A window of `span` A/C/G/T bases inside one record: its global offset and
 * record, or -1 after too many tries (a genome of mostly N). */
static int gr_draw_window(const gr_genome_t *g, uint64_t *rng, size_t span, uint64_t *at,
                          size_t *rec) {
    for (int t = 0; t < GR_TRIES_PER; t++) {
        uint64_t p = gr_below(rng, g->n_seq);
        size_t r = gr_record_of(g, p);
        if (p + span > g->starts[r + 1]) continue;
        if (!gr_all_bases(g->seq + p, span)) continue;
        *at = p;
        *rec = r;
        return 0;
    }
    fprintf(stderr, "gen_reads: no window of %zu A/C/G/T bases found in %d draws\n", span,
            GR_TRIES_PER);
    return -1;
}

/* Writes into out the pattern of len bytes cut from src with e edits planted
 * (kinds and distinct positions drawn from rng); returns the genome bases
 * used (len - insertions + deletions; src must hold len + e) and describes
 * the edits in what ("S12,I40" or "-"). */
static size_t gr_plant(uint64_t *rng, const char *src, size_t len, int e, char *out, char *what,
                       size_t what_cap) {
    size_t pos[64];
    char kind[64];
    int n = 0;
    while (n < e) { /* e distinct positions, kept sorted */
        size_t p = (size_t)gr_below(rng, len);
        int i = 0;
        while (i < n && pos[i] < p) i++;
        if (i < n && pos[i] == p) continue;
        memmove(pos + i + 1, pos + i, (size_t)(n - i) * sizeof *pos);
        memmove(kind + i + 1, kind + i, (size_t)(n - i));
        pos[i] = p;
        kind[i] = "SID"[gr_below(rng, 3)];
        n++;
    }
    size_t s = 0, o = 0, w = 0;
    int ei = 0;
    what[0] = '\0';
    while (o < len) {
        if (ei < n && pos[ei] == o) {
            char k = kind[ei++];
            int wrote = snprintf(what + w, what_cap - w, "%s%c%zu", w ? "," : "", k, o);
            if (wrote > 0 && (size_t)wrote < what_cap - w) w += (size_t)wrote;
            if (k == 'S') {
                char c = src[s++], d;
                do d = GR_BASES[gr_below(rng, 4)];
                while (d == c);
                out[o++] = d;
            } else if (k == 'I') {
                out[o++] = GR_BASES[gr_below(rng, 4)];
            } else {
                s++; /* the deleted genome base */
                out[o++] = src[s++];
            }
        } else {
            out[o++] = src[s++];
        }
    }
    if (!w) snprintf(what, what_cap, "-");
    return s;
}

static FILE *gr_open_out(const char *path) {
    if (!strcmp(path, "-")) return stdout;
    FILE *f = fopen(path, "wb");
    if (!f) fprintf(stderr, "gen_reads: %s: %s\n", path, strerror(errno));
    return f;
}

static int gr_close_out(FILE *f, const char *path) {
    int bad = ferror(f);
    if (f != stdout) bad |= fclose(f);
    else bad |= fflush(f);
    if (bad) fprintf(stderr, "gen_reads: writing %s failed\n", path);
    return bad ? -1 : 0;
}

typedef struct {
    uint64_t n;
    size_t lmin, lmax;
    int max_edits;
    char prefix;
} gr_reads_args_t;

static int gr_make_reads(const gr_genome_t *g, const gr_reads_args_t *a, uint64_t seed, FILE *out,
                         FILE *truth) {
    static char pat[GR_MAX_LEN + 1];
    char what[64 * 8];
    uint64_t rng = seed;
    fprintf(truth, "name\trecord\tstart\tend\tstrand\tedits\twhat\n");
    for (uint64_t i = 1; i <= a->n; i++) {
        size_t len = a->lmin + (size_t)gr_below(&rng, a->lmax - a->lmin + 1);
        int e = (int)gr_below(&rng, (uint64_t)a->max_edits + 1);
        if ((size_t)e > len) e = (int)len;
        int minus = (int)gr_below(&rng, 2);
        uint64_t at;
        size_t rec;
        if (gr_draw_window(g, &rng, len + (size_t)e, &at, &rec)) return -1;
        size_t used = gr_plant(&rng, g->seq + at, len, e, pat, what, sizeof what);
        if (minus) gr_revcomp(pat, len);
        pat[len] = '\0';
        uint64_t start = at - g->starts[rec];
        fprintf(out, ">%c%llu\n%s\n", a->prefix, (unsigned long long)i, pat);
        fprintf(truth, "%c%llu\t%s\t%llu\t%llu\t%c\t%d\t%s\n", a->prefix, (unsigned long long)i,
                g->names[rec], (unsigned long long)start, (unsigned long long)(start + used),
                minus ? '-' : '+', e, what);
    }
    return 0;
}

/* Is seq[p, p + GR_SITE) a site on the forward strand (20 bases, a base,
 * GG) or the reverse one (CC, a base, 20 bases)? */
static int gr_site_forward(const char *s) {
    return gr_all_bases(s, GR_GUIDE + 1) && s[GR_GUIDE + 1] == 'G' && s[GR_GUIDE + 2] == 'G';
}

static int gr_site_reverse(const char *s) {
    return s[0] == 'C' && s[1] == 'C' && gr_all_bases(s + 2, GR_SITE - 2);
}

static int gr_make_guides(const gr_genome_t *g, uint64_t n, int max_mm, uint64_t seed, FILE *out,
                          FILE *truth) {
    uint64_t rng = seed;
    fprintf(truth, "name\trecord\tstart\tend\tstrand\tedits\twhat\n");
    for (uint64_t i = 1; i <= n; i++) {
        uint64_t at = 0;
        size_t rec = 0;
        int minus = -1;
        /* A site on the strand a coin picks: about 1 position in 16 is one. */
        int want_minus = (int)gr_below(&rng, 2);
        for (int t = 0; t < 64 * GR_TRIES_PER && minus < 0; t++) {
            uint64_t p = gr_below(&rng, g->n_seq);
            size_t r = gr_record_of(g, p);
            if (p + GR_SITE > g->starts[r + 1]) continue;
            if (want_minus ? gr_site_reverse(g->seq + p) : gr_site_forward(g->seq + p)) {
                at = p;
                rec = r;
                minus = want_minus;
            }
        }
        if (minus < 0) {
            fprintf(stderr, "gen_reads: no guide site (NGG) found in %d draws\n",
                    64 * GR_TRIES_PER);
            return -1;
        }
        char site[GR_SITE + 1], guide[GR_SITE + 1];
        memcpy(site, g->seq + at, GR_SITE);
        site[GR_SITE] = '\0';
        if (minus) gr_revcomp(site, GR_SITE); /* now 20 bases, a base, GG */
        memcpy(guide, site, GR_GUIDE);
        int m = (int)gr_below(&rng, (uint64_t)max_mm + 1);
        char what[128] = "-";
        size_t w = 0;
        int done = 0;
        while (done < m) { /* distinct positions: redraw a position already changed */
            size_t p = (size_t)gr_below(&rng, GR_GUIDE);
            if (guide[p] != site[p]) continue;
            char d;
            do d = GR_BASES[gr_below(&rng, 4)];
            while (d == site[p]);
            guide[p] = d;
            int wrote = snprintf(what + w, sizeof what - w, "%sS%zu", w ? "," : "", p);
            if (wrote > 0 && (size_t)wrote < sizeof what - w) w += (size_t)wrote;
            done++;
        }
        memcpy(guide + GR_GUIDE, "NGG", 3);
        guide[GR_SITE] = '\0';
        uint64_t start = at - g->starts[rec];
        fprintf(out, ">g%llu\n%s\n", (unsigned long long)i, guide);
        fprintf(truth, "g%llu\t%s\t%llu\t%llu\t%c\t%d\t%s\n", (unsigned long long)i, g->names[rec],
                (unsigned long long)start, (unsigned long long)(start + GR_SITE), minus ? '-' : '+',
                m, what);
    }
    return 0;
}

static int gr_usage(void) {
    fprintf(stderr, "usage: gen_reads reads|primers N LMIN LMAX MAXEDITS GENOME SEED OUT TRUTH\n"
                    "       gen_reads guides N GENOME SEED MAXMM OUT TRUTH\n");
    return 2;
}

/* A decimal in [lo, hi], or -1 with a message naming what. */
static long gr_int(const char *s, long lo, long hi, const char *what) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "gen_reads: %s must be a whole number in [%ld, %ld], not '%s'\n", what, lo,
                hi, s);
        return -1;
    }
    return v;
}

int main(int argc, char **argv) {
    bu_prog = "gen_reads";
    if (argc < 2) return gr_usage();
    int guides = !strcmp(argv[1], "guides");
    int reads = !strcmp(argv[1], "reads") || !strcmp(argv[1], "primers");
    if ((!guides && !reads) || argc != (guides ? 8 : 10)) return gr_usage();
    uint64_t n, seed;
    if (bu_parse_size(argv[2], &n) || n == 0) {
        fprintf(stderr, "gen_reads: N '%s' is no count above 0\n", argv[2]);
        return 2;
    }
    const char *genome_path, *seed_s, *out_path, *truth_path;
    gr_reads_args_t a = { n, 0, 0, 0, argv[1][0] };
    long max_mm = 0;
    if (reads) {
        long lmin = gr_int(argv[3], 1, GR_MAX_LEN, "LMIN");
        long lmax = gr_int(argv[4], 1, GR_MAX_LEN, "LMAX");
        long e = gr_int(argv[5], 0, 64, "MAXEDITS");
        if (lmin < 0 || lmax < 0 || e < 0) return 2;
        if (lmax < lmin) {
            fprintf(stderr, "gen_reads: LMAX %ld is below LMIN %ld\n", lmax, lmin);
            return 2;
        }
        a.lmin = (size_t)lmin;
        a.lmax = (size_t)lmax;
        a.max_edits = (int)e;
        genome_path = argv[6], seed_s = argv[7], out_path = argv[8], truth_path = argv[9];
    } else {
        genome_path = argv[3], seed_s = argv[4], out_path = argv[6], truth_path = argv[7];
        max_mm = gr_int(argv[5], 0, GR_GUIDE, "MAXMM");
        if (max_mm < 0) return 2;
    }
    char *end;
    errno = 0;
    seed = strtoull(seed_s, &end, 10);
    if (errno || end == seed_s || *end) {
        fprintf(stderr, "gen_reads: SEED '%s' is no whole number\n", seed_s);
        return 2;
    }
    if (!strcmp(out_path, "-") && !strcmp(truth_path, "-")) {
        fprintf(stderr, "gen_reads: OUT and TRUTH cannot both be stdout\n");
        return 2;
    }
    gr_genome_t g;
    if (gr_load(genome_path, &g)) return 2;
    FILE *out = gr_open_out(out_path);
    FILE *truth = out ? gr_open_out(truth_path) : NULL;
    int rc = 2;
    if (out && truth) {
        int bad = reads ? gr_make_reads(&g, &a, seed, out, truth)
                        : gr_make_guides(&g, n, (int)max_mm, seed, out, truth);
        int bad_close = gr_close_out(out, out_path);
        bad_close |= gr_close_out(truth, truth_path);
        out = truth = NULL;
        rc = bad || bad_close ? 2 : 0;
    }
    if (out && out != stdout) fclose(out);
    gr_free(&g);
    return rc;
}
