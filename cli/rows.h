/*
** rows.h -- results turned into text on several threads and written in the
** order they came.
**
** A long listing (millions of matches) is bound by printing them: a row of
** numbers is tens of nanoseconds on one thread, while finding it costs a few
** on many. The writer gathers the items the caller pushes (in order, on one
** thread) into batches, formats each batch on a worker thread into a buffer
** of its own with the caller's function, and writes the buffers in the
** order of their batches. The bytes are those of formatting every item in
** turn into the output: each batch is formatted whole by one function call.
**
**     wm_cli_rows_t *w = wm_cli_rows_new(sizeof(wm_match_t), 8);
**     for each match: if (wm_cli_rows_push(w, out, fmt, ctx, &m) < 0) stop;
**     wm_cli_rows_drain(w);   before anything else is written to out
**     wm_cli_rows_free(w);
**
** What a batch needs besides its items (`ctx`: names, options) must stay
** unchanged and alive until the batch is drained. The pushing thread writes:
** a push that completes a batch writes the batches finished before it, and
** waits only when every buffer is in flight, which bounds the memory to a
** few batches a thread.
*/
#ifndef WM_CLI_ROWS_H
#define WM_CLI_ROWS_H

#include <stddef.h>
#include <stdio.h>

/* Format items[0, n) (each item_size bytes) into mem, a stream of the
** batch's own; 0, or -1 when it failed (errno set: ENOMEM). Called on a
** worker thread: it may read ctx, never change it. */
typedef int (*wm_cli_rows_format_fn)(FILE *mem, const void *items, size_t n, const void *ctx);

typedef struct wm_cli_rows wm_cli_rows_t;

/* A writer of items of item_size bytes on `threads` threads (1: formatted
** on the pushing thread, in batches all the same). NULL when out of memory. */
wm_cli_rows_t *wm_cli_rows_new(size_t item_size, int threads);

/* Add an item for `out`, formatted by fn with ctx. An item whose out, fn or
** ctx differs from the batch being gathered starts a new batch. 0, or -1
** once a batch failed to format or to be written: errno tells why, and
** nothing after it is written. */
int wm_cli_rows_push(wm_cli_rows_t *w, FILE *out, wm_cli_rows_format_fn fn, const void *ctx,
                     const void *item);

/* Add items[0, n) as push adds each in turn (the copies made in runs). */
int wm_cli_rows_push_many(wm_cli_rows_t *w, FILE *out, wm_cli_rows_format_fn fn, const void *ctx,
                          const void *items, size_t n);

/* Format and write everything pushed so far; then nothing refers to a ctx
** or out any more. 0, or -1 as for push. */
int wm_cli_rows_drain(wm_cli_rows_t *w);

/* Drain, stop the threads and free (NULL is fine). */
void wm_cli_rows_free(wm_cli_rows_t *w);

#endif
