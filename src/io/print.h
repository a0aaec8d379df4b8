/*
** print.h -- the match printers: TSV, BED6 and JSON Lines, one match at a time
** to a FILE*. Library-internal (the tool uses them; the public API never
** prints). No printer flushes: the caller picks the buffering.
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
#ifndef WM_IO_PRINT_H
#define WM_IO_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "warpmatch.h"

/* The longest BED name field: the pattern is cut to this many bytes. */
#define WM_BED_NAME_MAX 64

void wm_print_tsv(FILE *out, const char *source, const char *record, const wm_match_t *m);

/* A pattern-set match; name NULL prints the number. with_strand adds the
** strand column (the CLI adds it with --revcomp). */
void wm_print_tsv_set(FILE *out, const char *source, const char *record,
                      const wm_match_t *m, const char *name, int with_strand);

/* `name` should come from wm_print_bed_name(). */
void wm_print_bed(FILE *out, const char *chrom, const char *name, const wm_match_t *m);

/* Make a BED name field from a pattern: its first WM_BED_NAME_MAX bytes, with
** each byte that would break the field (controls, space, tab, DEL) replaced by
** '_'. dst must hold WM_BED_NAME_MAX + 1 bytes; it is NUL-terminated. */
void wm_print_bed_name(char *dst, const uint8_t *pattern, size_t m);

/* Count lines: "source\tcount" (record NULL) or "source\trecord\tcount". */
void wm_print_count(FILE *out, const char *source, const char *record, uint64_t count);

/* Write s (n bytes) as a JSON string, quotes included; see print.c for how
** control characters and bytes that are not UTF-8 are escaped. */
void wm_print_json_string(FILE *out, const char *s, size_t n);

void wm_print_json_begin(FILE *out, const char *source);
void wm_print_json_match(FILE *out, const char *source, const char *record,
                         const wm_match_t *m);
/* A pattern-set match; name NULL prints "pattern" as a number. */
void wm_print_json_match_set(FILE *out, const char *source, const char *record,
                             const wm_match_t *m, const char *name);
void wm_print_json_end(FILE *out, const char *source, uint64_t n_matches);
void wm_print_json_summary(FILE *out, uint64_t n_matches, uint64_t n_sources,
                           uint64_t n_bytes);

#endif
