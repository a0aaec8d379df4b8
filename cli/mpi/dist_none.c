/*
** dist_none.c -- dist.h for a tool built without MPI: always a job of one.
**
** This is the plain `warpmatch` (no libmpi needed to run it); `warpmatch-mpi`
** links dist_mpi.c instead. Started by an MPI launcher as one of several
** ranks, each copy would do the whole job and print the whole output, so
** it stops and names the binary to use instead.
*/
#include "dist.h"

#include <stdlib.h>
#include <string.h>

wm_dist_t wm_dist = { 0, 0, 1, 0, 1 };

/* The job's size as the launcher's environment gives it (Open MPI, then
** MPICH/Hydra and Slurm's PMI), 1 when none does. */
static long launcher_ranks(void) {
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL };
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end == '\0' && n > 1) return n;
        }
    }
    return 1;
}

int wm_dist_init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    long ranks = launcher_ranks();
    if (ranks > 1) {
        fprintf(stderr,
                "warpmatch: started by an MPI launcher as one of %ld ranks, but this "
                "warpmatch is built without MPI (each rank would print the whole "
                "output): run warpmatch-mpi under the launcher instead\n",
                ranks);
        return -1;
    }
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
