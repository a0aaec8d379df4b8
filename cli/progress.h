/*
** progress.h -- the progress line: "warpmatch: 3.2 of 10.0 GB, 1.1 GB/s" on
** stderr, redrawn in place at most four times a second, from the first
** report after the command has run for one second.
**
** Any command can show it: give wm_progress_report to the library as the
** context's progress callback (wm_context_opts_t.progress, with the
** wm_progress_t as progress_user), or call it from the command's own loop.
** Shown only when asked for and stderr is a terminal (wm_progress_enable
** decides; WM_PROGRESS=always in the environment shows it on any stderr
** from the first report, for tests); a disabled line costs one test per
** report. The line ends with an ETA once some of the work is done. Before printing
** anything else on a terminal, clear the line (wm_progress_clear): matches
** and messages then never land inside it.
*/
#ifndef WM_CLI_PROGRESS_H
#define WM_CLI_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int enabled;
    double t_start;     /* when the command started */
    double t_item;      /* when the current input's work started */
    double t_last;      /* when the line was last drawn */
    size_t width;       /* characters of the line on screen, 0 = none */
    int stdout_tty;     /* matches and the line share a terminal */
    int at_once;        /* WM_PROGRESS=always: no first second of quiet */
    const char *unit;   /* what is counted: NULL = bytes ("B"), or "cells" */
    uint64_t offset;    /* units done before the reports now coming (a streamed input's
                           earlier batches): added to each report's done */
    int open_ended;     /* the input's size is not known: no "of total", no ETA */
    pthread_mutex_t mu; /* the library may report from its workers */
} wm_progress_t;

/* At the start of the command (its one second counts from here): disabled
** until wm_progress_enable. */
void wm_progress_init(wm_progress_t *pg);

/* Show the line when `wanted` (the command's own conditions: not --quiet,
** not --no-progress, ...) and stderr is a terminal. Returns pg->enabled. */
int wm_progress_enable(wm_progress_t *pg, int wanted);

/* A new input starts: the rate counts from now. */
void wm_progress_start_item(wm_progress_t *pg);

/* done of total bytes (or units) of the current input; user is the wm_progress_t.
** Thread-safe; the signature of wm_progress_cb. */
void wm_progress_report(uint64_t done, uint64_t total, void *user);

/* Erase the line, if one is drawn. */
void wm_progress_clear(wm_progress_t *pg);

void wm_progress_free(wm_progress_t *pg);

#endif
