/*
** pairtsv.h -- a file of pairs for `warpmatch align --pairs PAIRS.tsv`: one
** pair a line, QUERY<TAB>TARGET, the two sequences themselves. Plain or
** gzip; "\r\n" line ends are fine; blank lines (empty, or only spaces and
** tabs) are skipped. A pair is named
** by its 1-based line number. The file is read once; pairs point into it.
*/
#ifndef WM_CLI_PAIRTSV_H
#define WM_CLI_PAIRTSV_H

#include <stddef.h>
#include <stdint.h>

#include "io/seqfile.h"

typedef struct {
    wm_seqfile_t sf;     /* the file's bytes */
    size_t n;            /* pairs */
    const uint8_t **seq; /* 2n: query and target of pair i at 2i, 2i + 1 */
    uint64_t *len;       /* 2n lengths */
    uint64_t *line;      /* n line numbers */
} wm_cli_pairtsv_t;

/* Read and check `path`: every non-blank line has exactly one tab, no byte
** that is neither printable ASCII nor a tab, and sequences of at most
** max_len bytes. Returns 0, or -1 after a "warpmatch: PATH:LINE: ..."
** message. *p must be zeroed first; close it in either case. */
int wm_cli_pairtsv_open(wm_cli_pairtsv_t *p, const char *path, uint64_t max_len);
void wm_cli_pairtsv_close(wm_cli_pairtsv_t *p);

#endif
