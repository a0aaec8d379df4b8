/*
** progress.c -- the progress line on stderr (progress.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

void wm_progress_init(wm_progress_t *pg) {
    memset(pg, 0, sizeof *pg);
    pg->t_start = wm_cli_now();
    pthread_mutex_init(&pg->mu, NULL);
}

int wm_progress_enable(wm_progress_t *pg, int wanted) {
    const char *force = getenv("WM_PROGRESS");
    pg->at_once = force != NULL && strcmp(force, "always") == 0;
    pg->enabled = wanted && (pg->at_once || isatty(STDERR_FILENO));
    pg->stdout_tty = isatty(STDOUT_FILENO);
    return pg->enabled;
}

void wm_progress_start_item(wm_progress_t *pg) { pg->t_item = wm_cli_now(); }

/* "1.2 MB/s": v scaled by powers of 1000. */
static void human(char *buf, size_t len, double v, const char *unit) {
    static const char *const pre[] = { "", "k", "M", "G", "T", "P" };
    int i = 0;
    while (v >= 1000.0 && i < 5) {
        v /= 1000.0;
        ++i;
    }
    snprintf(buf, len, "%.1f %s%s", v, pre[i], unit);
}

/* Erase the line; the caller holds mu (or no other thread can draw). */
static void clear_locked(wm_progress_t *pg) {
    if (pg->width > 0) {
        fprintf(stderr, "\r%*s\r", (int)pg->width, "");
        pg->width = 0;
    }
}

void wm_progress_clear(wm_progress_t *pg) {
    if (!pg->enabled) return;
    pthread_mutex_lock(&pg->mu);
    clear_locked(pg);
    pthread_mutex_unlock(&pg->mu);
}

void wm_progress_report(uint64_t done, uint64_t total, void *user) {
    wm_progress_t *pg = user;
    double now = wm_cli_now();
    done += pg->offset;
    if (pg->open_ended) total = done;
    if (!pg->enabled || (now - pg->t_start <= 1.0 && !pg->at_once)) return;
    pthread_mutex_lock(&pg->mu);
    if (now - pg->t_last >= 0.25) {
        /* "3.2 of 10.0 GB": both in the unit of the total. */
        static const char *const pre[] = { "", "k", "M", "G", "T", "P" };
        double scale = 1.0;
        int i = 0;
        while ((double)total >= scale * 1000.0 && i < 5) {
            scale *= 1000.0;
            ++i;
        }
        const char *unit = pg->unit ? pg->unit : "B";
        char rate[32], per_s[16], eta[32] = "";
        double dt = now - pg->t_item;
        snprintf(per_s, sizeof per_s, "%s/s", unit);
        human(rate, sizeof rate, dt > 0 ? (double)done / dt : 0.0, per_s);
        if (done > 0 && done < total && dt > 0) { /* at the rate so far */
            double left = dt * (double)(total - done) / (double)done;
            if (left < 360000.0)
                snprintf(eta, sizeof eta, ", ETA %dh%02dm%02ds", (int)(left / 3600),
                         (int)(left / 60) % 60, (int)left % 60);
        }
        char line[160];
        int n = pg->open_ended ? snprintf(line, sizeof line, "%s: %.1f %s%s, %s", WM_PROG,
                                          (double)done / scale, pre[i], unit, rate)
                               : snprintf(line, sizeof line, "%s: %.1f of %.1f %s%s, %s%s", WM_PROG,
                                          (double)done / scale, (double)total / scale, pre[i], unit,
                                          rate, eta);
        if (pg->stdout_tty) fflush(stdout); /* matches found so far go above the line */
        if (n > 0) {
            size_t w = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
            /* Pad over a longer previous line. */
            fprintf(stderr, "\r%s%*s", line, pg->width > w ? (int)(pg->width - w) : 0, "");
            if (pg->width < w) pg->width = w;
        }
        pg->t_last = now;
    }
    pthread_mutex_unlock(&pg->mu);
}

void wm_progress_free(wm_progress_t *pg) { pthread_mutex_destroy(&pg->mu); }
