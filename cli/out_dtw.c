/*
** out_dtw.c -- the lines `warpmatch dtw` prints (out.h): one match a line,
** TSV or JSON Lines, the distance in its short exact form; a labelled
** query's label last (TSV) or after "query" (JSON).
*/
#include <math.h>

#include "out.h"
#include "dtw.h"

static void put_tsv(FILE *f, const char *name, const char *label, size_t index,
                    const wm_dtw_match_t *m, int path, int f32) {
    if (name != NULL && name[0] != '\0') {
        for (const char *c = name; *c; c++) /* a tab would shift the columns */
            putc(*c == '\t' ? ' ' : *c, f);
    } else {
        wm_out_u64(f, index);
    }
    wm_out_tab_u64(f, m->start);
    wm_out_tab_u64(f, m->end);
    putc('\t', f);
    wm_out_real(f, m->distance, f32);
    if (path) {
        putc('\t', f);
        for (uint64_t k = 0; k < m->path_len; k++) {
            if (k) putc(',', f);
            wm_out_u64(f, m->path[2 * k]);
            putc(':', f);
            wm_out_u64(f, m->path[2 * k + 1]);
        }
    }
    if (label != NULL) {
        putc('\t', f);
        for (const char *c = label; *c; c++) putc(*c == '\t' ? ' ' : *c, f);
    }
    putc('\n', f);
}

static void put_json(FILE *f, const char *name, const char *label, size_t index,
                     const wm_dtw_match_t *m, int path, int f32) {
    fputs("{\"query\":", f);
    if (name != NULL && name[0] != '\0') wm_out_json_cstr(f, name);
    else wm_out_u64(f, index);
    if (label != NULL) {
        fputs(",\"label\":", f);
        wm_out_json_cstr(f, label);
    }
    wm_out_key_u64(f, "start", m->start);
    wm_out_key_u64(f, "end", m->end);
    fputs(",\"distance\":", f);
    if (isfinite(m->distance)) wm_out_real(f, m->distance, f32);
    else fputs("null", f); /* JSON has no infinity */
    if (path) {
        fputs(",\"path\":[", f);
        for (uint64_t k = 0; k < m->path_len; k++) {
            fputs(k ? ",[" : "[", f);
            wm_out_u64(f, m->path[2 * k]);
            putc(',', f);
            wm_out_u64(f, m->path[2 * k + 1]);
            putc(']', f);
        }
        putc(']', f);
    }
    fputs("}\n", f);
}

void wm_out_dtw_match(FILE *out, int json, const char *name, size_t index, const wm_dtw_match_t *m,
                      int path, int f32) {
    (json ? put_json : put_tsv)(out, name, NULL, index, m, path, f32);
}

void wm_out_dtw_row(FILE *out, int json, const wm_sig_t *q, size_t index, const wm_dtw_match_t *m,
                    int path, int f32) {
    (json ? put_json : put_tsv)(out, q->name, q->label, index, m, path, f32);
}
