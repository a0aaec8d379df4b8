/*
** dist_none.c -- dist.h for a tool built without MPI: always a job of one.
*/
#include "dist.h"

#include <stdlib.h>
#include <string.h>

wm_dist_t wm_dist = { 0, 0, 1, 0, 1 };

int wm_dist_init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    return 0;
}

void wm_dist_finalize(void) {}

void wm_dist_abort(int code) { exit(code); }

void wm_dist_allgather(const void *mine, size_t bytes, void *all) { memcpy(all, mine, bytes); }

uint64_t wm_dist_sum(uint64_t v) { return v; }
void wm_dist_sum_array(uint64_t *v, size_t n) {
    (void)v;
    (void)n;
}
int wm_dist_any(int flag) { return flag != 0; }

int wm_dist_first_failure(int failed, const char *why, char *msg, size_t msglen) {
    if (!failed) return -1;
    if (msg && msglen) snprintf(msg, msglen, "%s", why ? why : "failed");
    return 0;
}

int wm_dist_write_ordered(const void *buf, uint64_t len, FILE *out) {
    return len > 0 && fwrite(buf, 1, (size_t)len, out) != len ? -1 : 0;
}

int wm_dist_gather(const void *buf, uint64_t len, void **all, uint64_t *lens) {
    lens[0] = len;
    *all = malloc(len ? (size_t)len : 1);
    if (!*all) return -1;
    if (len) memcpy(*all, buf, (size_t)len);
    return 0;
}

int wm_dist_bcast_int(int v) { return v; }

int wm_dist_bcast_bytes(void **buf, uint64_t *len) {
    (void)buf;
    (void)len;
    return 0;
}
