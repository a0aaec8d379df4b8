/*
** fastq_par.c -- FASTQ records parsed by all threads (fastq_par.h).
**
** A FASTQ record cannot be told from its first byte: a quality line may
** start with '@' too. So the input is cut into blocks and each block past
** the first guesses its first record (a line start where a whole record
** parses and the next line that is not blank starts with '@' or the input
** ends: wm_range_fastq_starts_at, the guess the MPI readers make), then
** walks whole records from there to the next block's guess. Block 0 starts
** at a record for sure, and a block's walk that lands on the next block's
** guess proves that guess; the first guess not proved ends the run (the
** serial parser takes it from there). The proved blocks are then parsed
** again, each into its place in the output (its offset: the sequence bytes
** the walks counted before it), and their records joined in order.
**
** A block with no guess inside it (a record longer than the block) belongs
** to the walk of the block before it. A walk stops before a record it
** cannot take: one that does not parse (the serial parser then says why, at
** its line) or that reaches the end of the input when more may follow.
*/
#include "io/fastq_par.h"

#include <stdlib.h>
#include <string.h>

#include "io/seqrange.h"

#define NONE UINT64_MAX
#define MAX_BLOCKS 4096 /* a guess and a walk each: bounded however small `block` is */

typedef struct {
    uint64_t b0, b1;    /* the block's bytes */
    uint64_t start;     /* its first record's '@' (guessed past block 0), or NONE */
    uint64_t limit;     /* the next block's guess (n when none): where its walk ends */
    uint64_t land;      /* where its walk ended: a record's '@' at or past limit, or the
                         record it could not take, or n */
    uint64_t recs, seq; /* what the walk passed */
    int stopped;        /* the walk ended before a record it could not take */
    uint64_t seq_at;    /* its sequence's offset in out */
    uint64_t end;       /* proved: the bytes it takes, [start, end) */
    wm_recs_t r;        /* pass 2: its records, starts from its seq_at */
    uint64_t lines;
    int failed;
} fq_block_t;

typedef struct {
    const uint8_t *in;
    uint64_t n;
    int eof;
    fq_block_t *blk;
    uint8_t *out;
} fq_job_t;

/* The first line start in [b0, b1) where a record may begin, or NONE. */
static void guess(void *arg, size_t i, int tid) {
    (void)tid;
    const fq_job_t *J = arg;
    fq_block_t *k = &J->blk[i];
    k->start = NONE;
    if (i == 0) {
        k->start = 0;
        return;
    }
    for (uint64_t p = wm_range_line_start(J->in, J->n, k->b0); p < k->b1;
         p = wm_range_line_start(J->in, J->n, p + 1))
        if (wm_range_fastq_starts_at(J->in, J->n, p)) {
            k->start = p;
            return;
        }
}

/* Where the next record's '@' is: blank lines skipped from p (n at the end). */
static uint64_t skip_blank(const uint8_t *in, uint64_t n, uint64_t p) {
    wm_lines_t L = { in + p, in + n, 0, NULL };
    const uint8_t *s;
    size_t len;
    for (;;) {
        wm_lines_t save = L;
        if (!next_line(&L, &s, &len)) return n;
        if (!all_blank(s, len)) return (uint64_t)(save.p - in);
    }
}

/* Whole records from the block's start until one begins at or past its
** limit, or one cannot be taken. */
static void walk(void *arg, size_t i, int tid) {
    (void)tid;
    const fq_job_t *J = arg;
    fq_block_t *k = &J->blk[i];
    k->recs = k->seq = 0;
    k->stopped = 0;
    if (k->start == NONE) return;
    uint64_t at = k->start;
    for (;;) {
        at = skip_blank(J->in, J->n, at);
        if (at >= k->limit || at >= J->n) break;
        int hit = 0;
        wm_lines_t L = { J->in + at, J->in + J->n, 0, &hit };
        wm_parse_err_t e;
        uint64_t seq = 0;
        if (fastq_record(&L, NULL, &seq, NULL, &e) != 1 || (hit && !J->eof)) {
            k->stopped = 1;
            break;
        }
        k->recs++;
        k->seq += seq;
        at = (uint64_t)(L.p - J->in);
    }
    k->land = at < J->n ? at : J->n;
}

/* A proved block's records into out at its offset, and its '\n' counted. */
static void parse(void *arg, size_t i, int tid) {
    (void)tid;
    const fq_job_t *J = arg;
    fq_block_t *k = &J->blk[i];
    if (k->start == NONE) return; /* inside the walk of a block before */
    wm_lines_t L = { J->in + k->start, J->in + J->n, 0, NULL };
    wm_parse_err_t e;
    uint64_t olen = 0;
    for (uint64_t x = 0; x < k->recs; x++)
        if (fastq_record(&L, J->out + k->seq_at, &olen, &k->r, &e) != 1) {
            k->failed = 1; /* out of memory: the walk parsed these */
            return;
        }
    uint64_t lines = 0;
    for (const uint8_t *p = J->in + k->start, *end = J->in + k->end;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        lines++;
    k->lines = lines;
}

int wm_fastq_parse_par(const uint8_t *in, uint64_t n, int eof, wm_pool_t *pool, uint64_t block,
                       size_t max_recs, uint8_t *out, wm_recs_t *r, wm_fastq_run_t *run) {
    memset(r, 0, sizeof *r);
    if (n == 0 || block == 0 || max_recs == 0) return 1;
    if (n / block >= MAX_BLOCKS) block = n / MAX_BLOCKS + 1;
    size_t nb = (size_t)(n / block + (n % block != 0));
    fq_block_t *blk = calloc(nb, sizeof *blk);
    if (!blk) return 1;
    for (size_t i = 0; i < nb; i++) {
        blk[i].b0 = (uint64_t)i * block;
        blk[i].b1 = i + 1 < nb ? blk[i].b0 + block : n;
    }
    fq_job_t J = { in, n, eof, blk, out };
    wm_pool_for(pool, nb, guess, &J);
    for (size_t i = nb, next = NONE; i-- > 0;) { /* each walk ends at the next guess */
        blk[i].limit = next == NONE ? n : blk[next].start;
        if (blk[i].start != NONE) next = i;
    }
    wm_pool_for(pool, nb, walk, &J);

    /* The blocks proved, in order: each lands on the next one's guess. */
    size_t taken = 0, last = 0;
    uint64_t recs = 0, seq = 0;
    for (size_t i = 0; i < nb; i++) {
        fq_block_t *k = &blk[i];
        if (k->start == NONE) continue;
        if (taken > 0 && blk[last].land != k->start) break; /* a guess not proved */
        if (recs + k->recs > max_recs) break;
        k->seq_at = seq;
        recs += k->recs;
        seq += k->seq;
        taken = i + 1;
        last = i;
        if (k->stopped) break;
    }
    int rc = 1;
    if (recs == 0) goto out;
    for (size_t i = 0, prev = NONE; i < taken; i++) { /* each proved block's bytes */
        if (blk[i].start == NONE) continue;
        if (prev != NONE) blk[prev].end = blk[i].start;
        prev = i;
    }
    blk[last].end = blk[last].land;
    wm_pool_for(pool, taken, parse, &J);
    r->starts = malloc(((size_t)recs + 1) * sizeof *r->starts);
    r->names = calloc((size_t)recs + 1, sizeof *r->names);
    if (!r->starts || !r->names) goto out;
    r->m = (size_t)recs + 1;
    run->lines = 0;
    for (size_t i = 0; i < taken; i++) {
        fq_block_t *k = &blk[i];
        if (k->start == NONE) continue;
        if (k->failed) goto out;
        for (size_t x = 0; x < k->r.n; x++) {
            r->starts[r->n] = k->seq_at + k->r.starts[x];
            r->names[r->n++] = k->r.names[x];
            k->r.names[x] = NULL;
        }
        run->lines += k->lines;
    }
    r->starts[r->n] = seq;
    run->used = blk[last].end;
    run->seq = seq;
    rc = 0;
out:
    if (rc != 0) recs_free(r);
    for (size_t i = 0; i < nb; i++) recs_free(&blk[i].r);
    free(blk);
    return rc;
}
