/*
** out_align.c -- the lines `warpmatch align` prints (out.h): one alignment
** a line, TSV or JSON Lines.
*/
#include <string.h>

#include "out.h"

void wm_out_align(FILE *out, int json, int cigar, const char *qname, const char *tname,
                  const wm_alignment_t *al) {
    /* A CIGAR was asked for; NULL should never show. "" is the empty
    ** alignment (global mode, both sequences empty): * in TSV, as in SAM. */
    const char *cig = al->cigar != NULL ? al->cigar : "*";
    if (json) {
        fputs("{\"query\":", out);
        wm_out_json_cstr(out, qname);
        fputs(",\"target\":", out);
        wm_out_json_cstr(out, tname);
        wm_out_key_u64(out, "distance", al->distance);
        wm_out_key_u64(out, "start", al->start);
        wm_out_key_u64(out, "end", al->end);
        if (cigar) {
            fputs(",\"cigar\":", out);
            wm_out_json_cstr(out, cig);
        }
        fputs("}\n", out);
        return;
    }
    /* by hand: a million short pairs make fprintf the slowest part */
    fputs(qname, out);
    putc('\t', out);
    fputs(tname, out);
    wm_out_tab_u64(out, al->distance);
    wm_out_tab_u64(out, al->start);
    wm_out_tab_u64(out, al->end);
    if (cigar) {
        putc('\t', out);
        fputs(cig[0] ? cig : "*", out);
    }
    putc('\n', out);
}
