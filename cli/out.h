/*
** out.h -- the tool's output: what every command's printer shares
** (out_common.c: numbers, JSON strings, write errors) and the printers of
** each command (out_search.c, out_align.c, out_dtw.c). The library prints
** nothing; every byte a command writes to stdout goes through here.
**
** No printer flushes: the command picks the buffering (a 1 MiB stdout
** buffer) and checks ferror once per batch of lines.
**
** JSON Lines, on every command: one object a line, keys in a fixed order,
** strings escaped by wm_out_json_string (always valid UTF-8 and valid JSON,
** whatever bytes a file or record name holds).
*/
#ifndef WM_CLI_OUT_H
#define WM_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warpmatch.h"

/* ---- shared (out_common.c) ------------------------------------------------ */

/* Write v in decimal at p and return the end (at most 20 bytes). Printing
** millions of lines should cost little next to finding them: no printf. */
char *wm_out_put_u64(char *p, uint64_t v);

/* Write v in decimal to f; after a tab (a TSV field); as a JSON member
** ,"key":v (one that is not the first). */
void wm_out_u64(FILE *f, uint64_t v);
void wm_out_tab_u64(FILE *f, uint64_t v);
void wm_out_key_u64(FILE *f, const char *key, uint64_t v);

/* Write d in the shorter of "%.15g" and "%.17g" that strtod reads back to
** the same double (0.5, not 0.50000000000000000). */
void wm_out_double(FILE *f, double d);
/* A distance of either precision (dtw --precision): f32 writes d, a float
** value, in the shortest "%.6g" .. "%.9g" that reads back to the same float
** (0.1, as numpy prints a float32, not 0.10000000149011612); else
** wm_out_double. */
void wm_out_real(FILE *f, double d, int f32);

/* Write s (n bytes) as a JSON string, quotes included: '"' and '\\' and
** \b \f \n \r \t by their short forms; other bytes below 0x20, DEL, and each
** byte that is not part of a well-formed UTF-8 sequence as \u00XX (it reads
** back as the Latin-1 character of that byte); well-formed UTF-8 as it is. */
void wm_out_json_string(FILE *f, const char *s, size_t n);

/* wm_out_json_string of a C string. */
void wm_out_json_cstr(FILE *f, const char *s);

/* Remember the first failed write on f (e.g. a closed pipe): sets *failed
** and *err (errno) unless *failed is already set. */
void wm_out_note_error(FILE *f, int *failed, int *err);

/* ---- search (out_search.c) -------------------------------------------------
**
** TSV   source \t record \t start \t end \t errors \t strand
** BED   chrom \t start \t end \t name \t errors \t strand      (BED6)
** JSON  {"type":"begin","source":S}
**       {"type":"match","source":S,"record":R,"start":N,"end":N,"errors":N,"strand":"+"}
**       {"type":"end","source":S,"matches":N}
**       {"type":"summary","matches":N,"sources":N,"bytes":N}
** Coordinates are 0-based, half-open, within the record; strand is '+' or '-'
** (wm_match_t.strand 0 or 1).
**
** Pattern sets (exact matching, so no errors field) print the pattern instead:
** its name, or its 1-based number (wm_match_t.pattern + 1) when it has none.
** TSV   source \t record \t start \t end \t pattern [\t strand]
** JSON  {"type":"match","source":S,"record":R,"start":N,"end":N,"pattern":N|S,"strand":"+"}
*/

/* The longest BED name field: the pattern is cut to this many bytes. */
#define WM_BED_NAME_MAX 64

void wm_out_search_tsv(FILE *out, const char *source, const char *record, const wm_match_t *m);

/* A pattern-set match; name NULL prints the number. with_strand adds the
** strand column (the search command adds it with --revcomp). */
void wm_out_search_tsv_set(FILE *out, const char *source, const char *record, const wm_match_t *m,
                           const char *name, int with_strand);

/* `name` should come from wm_out_bed_name(). */
void wm_out_search_bed(FILE *out, const char *chrom, const char *name, const wm_match_t *m);

/* Make a BED name field from a pattern: its first WM_BED_NAME_MAX bytes, with
** each byte that would break the field (controls, space, tab, DEL) replaced by
** '_'. dst must hold WM_BED_NAME_MAX + 1 bytes; it is NUL-terminated. */
void wm_out_bed_name(char *dst, const uint8_t *pattern, size_t m);

/* Count lines: "source\tcount" (record NULL) or "source\trecord\tcount". */
void wm_out_count(FILE *out, const char *source, const char *record, uint64_t count);

void wm_out_search_json_begin(FILE *out, const char *source);
void wm_out_search_json_match(FILE *out, const char *source, const char *record,
                              const wm_match_t *m);
/* A pattern-set match; name NULL prints "pattern" as a number. */
void wm_out_search_json_match_set(FILE *out, const char *source, const char *record,
                                  const wm_match_t *m, const char *name);
void wm_out_search_json_end(FILE *out, const char *source, uint64_t n_matches);
void wm_out_search_json_summary(FILE *out, uint64_t n_matches, uint64_t n_sources,
                                uint64_t n_bytes);

/* ---- align (out_align.c) ---------------------------------------------------
**
** TSV   query \t target \t distance \t start \t end [\t cigar] \t strand \t qlen
** JSON  {"query":S,"target":S,"distance":N,"start":N,"end":N[,"cigar":S],
**        "strand":"+","qlen":N}
** SAM   one record a line (the header is printed by the command)
** PAF   minimap2's 12 columns, then tp:A:P|S, NM:i and cg:Z: (M/I/D)
** The CIGAR column only when one was asked for (cigar != 0); the empty
** alignment's CIGAR ("", global mode, both sequences empty) prints as * in
** TSV, as in SAM, and as "" in JSON. strand is + or - (the reverse
** complement of the query aligned to the target as given); qlen is the
** query's length.
*/
typedef enum {
    WM_OUT_ALIGN_TSV,
    WM_OUT_ALIGN_JSON,
    WM_OUT_ALIGN_SAM,
    WM_OUT_ALIGN_PAF
} wm_out_align_fmt_t;

/* One line of align's output. */
typedef struct {
    const char *qname, *tname;
    const uint8_t *qseq, *qual; /* the query as given (forward); qual NULL: none */
    uint64_t m, tlen;           /* query and target record lengths */
    int strand;                 /* 0 '+', 1 '-' */
    int secondary;              /* SAM flag 256, PAF tp:A:S */
    int mapq;                   /* SAM and PAF */
    const wm_alignment_t *al;   /* NULL: unmapped (SAM only) */
} wm_out_align_row_t;

/* cigar: the TSV/JSON CIGAR column; cigar_m: SAM's CIGAR with M. */
void wm_out_align(FILE *out, wm_out_align_fmt_t fmt, int cigar, int cigar_m,
                  const wm_out_align_row_t *row);

/* The complement of an IUPAC nucleotide letter, case kept (U -> A); any
** other byte is itself. */
uint8_t wm_out_complement(uint8_t c);

/* ---- flushing rows as they become final (out_common.c) ----------------------- */

/* Line-buffer f when it is a terminal (rows show as they come); else keep
** the command's large buffer. */
void wm_out_line_buffer_tty(FILE *f);

/* Flush f when at least `secs` seconds passed since *t_last (then set to
** now; 0 at the start flushes the first time): rows that are final reach a
** pipe within about that long, without a write per row. 1 when it flushed. */
int wm_out_flush_due(FILE *f, double *t_last, double secs);

/* The clock of wm_out_flush_due without the flush: 1 (and *t_last = now)
** when at least `secs` seconds passed since *t_last. */
int wm_out_due(double *t_last, double secs);

/* ---- dtw (out_dtw.c) -------------------------------------------------------
**
** TSV   query \t start \t end \t distance [\t path]
**       query: the label (a tab in a name printed as a space); distance by
**       wm_out_real (f32: float32 distances); path: q:s cells, comma-separated
** JSON  {"query":S|N,"start":N,"end":N,"distance":D[,"path":[[q,s],...]]}
**       query: the name as a string, or the 0-based index as a number when
**       the query has none (as search's "pattern"); a distance that is not
**       finite (an overflow of huge samples) prints as null
*/
void wm_out_dtw_match(FILE *out, int json, const char *name, size_t index, const wm_dtw_match_t *m,
                      int path, int f32);

#endif
