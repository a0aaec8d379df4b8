/*
** fasta_par.c -- FASTA parsed by all threads, in two passes over blocks of
** the input (docs/DESIGN.md, "Parallel FASTA").
**
** A block owns its bytes [b0, b1). Those before its first line start (its
** "prefix") continue a line begun in an earlier block: a sequence line (its
** bytes are sequence) or a header (they are skipped); which one is known
** only once the blocks before it are known, so pass 1 counts the prefix as
** if it were sequence and the choice is made afterwards, in block order,
** from each block's last line. A header belongs to the block holding its
** '>', which reads the name on past b1 when it must.
**   pass 1 (all blocks at once): the prefix's sequence bytes, then, line by
**          line, the headers and the sequence bytes (the bytes a line keeps:
**          graphic ones; ' ', '\t', '\r' dropped), the bytes before the
**          block's first header, and the kind of its last line;
**   resolve (one thread, O(blocks)): each prefix's kind, each block's output
**          offset and first record index (prefix sums), and the rule that no
**          sequence comes before the first header;
**   pass 2 (all blocks at once): each block copies its sequence bytes to its
**          offset and fills its records (start, name).
** Anything the serial parser would refuse, and the lines only its rules
** accept (a blank line with '\v' or '\f' before the first header), make
** this give up: the caller runs the serial parser, whose messages name the
** line. A block's scan is exact only for what it owns, so it checks only
** that; its bytes past b1 belong to the next block.
*/
#include "io/fasta_par.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h> /* baseline on x86-64: no flags, no dispatch */
#endif

#include "core/internal.h"

#define BAD UINT64_MAX

/* What the bytes before a block's first line start continue. */
enum { ST_LINE = 0, ST_SEQ = 1, ST_HEAD = 2 };

typedef struct {
    uint64_t b0, b1; /* its bytes */
    uint64_t main;   /* its first line start, in (b0, b1], or b0 when b0 starts a line */
    uint64_t pre;    /* bytes [b0, main) keep as sequence (pass 1) */
    uint64_t lead;   /* sequence bytes of [main, b1) before its first header */
    uint64_t seq;    /* sequence bytes of [main, b1) */
    uint64_t heads;  /* headers that start in [main, b1) */
    uint64_t nl;     /* '\n' bytes in [b0, b1) (counted when asked) */
    int pre_bad;     /* [b0, main) is not sequence */
    int last_head;   /* its last line start is a header's */
    int bad;         /* something only the serial parser decides */
    /* resolved */
    int state;       /* ST_*: what [b0, main) continues */
    uint64_t o, end; /* its output bytes [o, end) */
    uint64_t rec;    /* its first record */
} fa_block_t;

typedef struct {
    const uint8_t *in;
    uint64_t n;
    uint8_t *out;
    wm_recs_t *r;
    fa_block_t *blk;
    int count_lines;
} fa_job_t;

/* The bytes of a sequence line from p up to the first '\n' (taken) or `to`:
** graphic bytes are kept, counted in *o and, when out is not NULL, copied to
** out[*o...] (never at or past oend); ' ', '\t' and '\r' are dropped. Returns
** where it stopped (after the '\n', or to), or BAD at any other byte. Eight
** bytes at a time: the lowest byte the word test flags is exact (the borrows
** and carries of the test only reach the bytes above a flagged one). */
static uint64_t seq_run(const uint8_t *in, uint64_t p, uint64_t to, uint8_t *out, uint64_t *o,
                        uint64_t oend) {
    uint64_t k = *o;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#if defined(__SSE2__)
    /* Sixteen bytes at a time: graphic is 0x20 < b < 0x7f as signed bytes
    ** (those >= 0x80 are negative). */
    const __m128i lo = _mm_set1_epi8(0x20), hi = _mm_set1_epi8(0x7f);
    while (p + 16 <= to) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(in + p));
        __m128i g = _mm_and_si128(_mm_cmpgt_epi8(x, lo), _mm_cmplt_epi8(x, hi));
        unsigned m = (unsigned)_mm_movemask_epi8(g) ^ 0xffffu;
        if (m == 0) {
            if (out) {
                if (k + 16 > oend) return BAD;
                _mm_storeu_si128((__m128i *)(void *)(out + k), x);
            }
            k += 16;
            p += 16;
            continue;
        }
        unsigned j = (unsigned)__builtin_ctz(m);
        if (out) {
            if (k + j > oend) return BAD;
            if (k + 16 <= oend) _mm_storeu_si128((__m128i *)(void *)(out + k), x);
            else memcpy(out + k, in + p, j);
        }
        k += j;
        uint8_t c = in[p + j];
        p += j + 1;
        if (c == '\n') {
            *o = k;
            return p;
        }
        if (c != ' ' && c != '\t' && c != '\r') return BAD;
    }
#endif
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (p + 8 <= to) {
        uint64_t x;
        memcpy(&x, in + p, 8);
        uint64_t m = (((x - ones * 0x21) & ~x) | (x + ones) | x) & highs;
        if (m == 0) {
            if (out) {
                if (k + 8 > oend) return BAD;
                memcpy(out + k, &x, 8);
            }
            k += 8;
            p += 8;
            continue;
        }
        unsigned j = (unsigned)__builtin_ctzll(m) >> 3;
        if (out) {
            if (k + j > oend) return BAD;
            if (k + 8 <= oend) memcpy(out + k, &x, 8); /* the bytes past j are rewritten later */
            else memcpy(out + k, &x, j);
        }
        k += j;
        uint8_t c = in[p + j];
        p += j + 1;
        if (c == '\n') {
            *o = k;
            return p;
        }
        if (c != ' ' && c != '\t' && c != '\r') return BAD;
    }
#endif
    for (; p < to; p++) {
        uint8_t c = in[p];
        if ((uint8_t)(c - 0x21) <= 0x7e - 0x21) {
            if (out) {
                if (k >= oend) return BAD;
                out[k] = c;
            }
            k++;
        } else if (c == '\n') {
            *o = k;
            return p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return BAD;
        }
    }
    *o = k;
    return to;
}

/* From a header's '>' at p to the next line start (or to). */
static uint64_t skip_line(const uint8_t *in, uint64_t p, uint64_t to) {
    const uint8_t *e = memchr(in + p, '\n', (size_t)(to - p));
    return e ? (uint64_t)(e - in) + 1 : to;
}

static void pass1(void *arg, size_t i, int tid) {
    fa_job_t *J = arg;
    fa_block_t *B = &J->blk[i];
    const uint8_t *in = J->in;
    uint64_t b0 = B->b0, b1 = B->b1, p = b0, k = 0, lead = 0, heads = 0;
    int seen = 0, last_head = 0;
    (void)tid;

    /* Counted in locals: blocks share cache lines, and a store a line to
    ** one of them would bounce its line between the cores. */
    if (b0 > 0 && in[b0 - 1] != '\n') {
        const uint8_t *q = memchr(in + b0, '\n', (size_t)(b1 - b0));
        uint64_t pre = 0;
        p = q ? (uint64_t)(q - in) + 1 : b1;
        B->pre_bad = seq_run(in, b0, p, NULL, &pre, 0) == BAD;
        B->pre = pre;
    }
    B->main = p;
    while (p < b1) {
        if (in[p] == '>') {
            if (!seen) lead = k;
            seen = 1;
            heads++;
            last_head = 1;
            p = skip_line(in, p, b1);
            continue;
        }
        last_head = 0;
        p = seq_run(in, p, b1, NULL, &k, 0);
        if (p == BAD) {
            B->bad = 1;
            return;
        }
    }
    B->lead = seen ? lead : k;
    B->seq = k;
    B->heads = heads;
    B->last_head = last_head;
    if (J->count_lines) {
        uint64_t nl = 0;
        for (const uint8_t *q = in + b0, *e = in + b1;
             (q = memchr(q, '\n', (size_t)(e - q))) != NULL; ++q)
            ++nl;
        B->nl = nl;
    }
}

static void pass2(void *arg, size_t i, int tid) {
    fa_job_t *J = arg;
    fa_block_t *B = &J->blk[i];
    const uint8_t *in = J->in;
    uint64_t p = B->main, b1 = B->b1, o = B->o, rec = B->rec;
    (void)tid;

    if (B->state == ST_SEQ && seq_run(in, B->b0, p, J->out, &o, B->end) == BAD) {
        B->bad = 1;
        return;
    }
    while (p < b1) {
        if (in[p] == '>') {
            const uint8_t *name = in + p + 1;
            size_t nl = name_len(name, (size_t)(J->n - p - 1));
            char *s;
            if (nl == 0 || name_control(name, nl) >= 0 || rec >= J->r->n ||
                (s = malloc(nl + 1)) == NULL) {
                B->bad = 1;
                return;
            }
            memcpy(s, name, nl);
            s[nl] = '\0';
            J->r->starts[rec] = o;
            J->r->names[rec] = s;
            rec++;
            p = skip_line(in, p, b1);
            continue;
        }
        p = seq_run(in, p, b1, J->out, &o, B->end);
        if (p == BAD) {
            B->bad = 1;
            return;
        }
    }
    if (o != B->end || rec != B->rec + B->heads) B->bad = 1;
}

/* Pass 1's counts in block order: each prefix's kind, the offsets, the
** records. 0, or 1 when the serial parser must decide. */
static int resolve(const uint8_t *in, fa_block_t *blk, size_t nb, int in_record, uint64_t *total,
                   uint64_t *heads) {
    int st = ST_LINE; /* what the next block's prefix continues */
    uint64_t o = 0, rec = 0;
    /* Sequence before the first header continues the record the input
    ** starts inside; with none, only blank lines may come first. */
    uint64_t before_first = in_record ? 1 : 0;
    for (size_t i = 0; i < nb; i++) {
        fa_block_t *B = &blk[i];
        if (B->bad) return 1;
        B->state = B->main == B->b0 ? ST_LINE : st;
        uint64_t pre = 0;
        if (B->state == ST_SEQ) {
            /* No sequence before the first header (blank lines only). */
            if (B->pre_bad || (B->pre > 0 && rec + before_first == 0)) return 1;
            pre = B->pre;
        }
        if (B->lead > 0 && rec + before_first == 0) return 1;
        B->o = o;
        B->rec = rec;
        o += pre + B->seq;
        B->end = o;
        rec += B->heads;
        if (in[B->b1 - 1] == '\n') st = ST_LINE;
        else if (B->main < B->b1) st = B->last_head ? ST_HEAD : ST_SEQ;
        else st = B->state;
    }
    *total = o;
    *heads = rec;
    return 0;
}

int wm_fasta_parse_par(const uint8_t *in, uint64_t n, int threads, uint64_t block, uint8_t *out,
                       uint64_t *out_len, wm_recs_t *r) {
    return wm_fasta_parse_par_part(in, n, threads, block, 0, out, out_len, r, NULL);
}

int wm_fasta_parse_par_part(const uint8_t *in, uint64_t n, int threads, uint64_t block,
                            int in_record, uint8_t *out, uint64_t *out_len, wm_recs_t *r,
                            uint64_t *lines) {
    if (n == 0 || block == 0 || threads < 2) return 1;
    uint64_t nb64 = n / block + (n % block != 0); /* no n + block: block may be huge */
    if (nb64 > SIZE_MAX / sizeof(fa_block_t)) return 1;
    size_t nb = (size_t)nb64;
    fa_block_t *blk = calloc(nb, sizeof *blk);
    wm_pool_t *pool = wm_pool_new(nb < (size_t)threads ? (int)nb : threads);
    fa_job_t J = { in, n, out, r, blk, lines != NULL };
    uint64_t total = 0, heads = 0;
    int rc = 1;

    if (!blk || !pool) goto out;
    for (size_t i = 0; i < nb; i++) {
        blk[i].b0 = (uint64_t)i * block;
        blk[i].b1 = i + 1 < nb ? blk[i].b0 + block : n;
    }
    wm_pool_for(pool, nb, pass1, &J);
    if (resolve(in, blk, nb, in_record, &total, &heads) != 0) goto out;
    if (heads + 1 > SIZE_MAX / sizeof(uint64_t)) goto out;
    memset(r, 0, sizeof *r);
    r->starts = malloc(((size_t)heads + 1) * sizeof *r->starts);
    r->names = calloc((size_t)heads + 1, sizeof *r->names);
    if (!r->starts || !r->names) goto out;
    r->n = (size_t)heads;
    r->m = (size_t)heads + 1;
    wm_pool_for(pool, nb, pass2, &J);
    for (size_t i = 0; i < nb; i++)
        if (blk[i].bad) goto out;
    *out_len = total;
    if (lines) {
        *lines = 0;
        for (size_t i = 0; i < nb; i++) *lines += blk[i].nl;
    }
    rc = 0;
out:
    if (rc != 0) recs_free(r);
    wm_pool_free(pool);
    free(blk);
    return rc;
}
