/*
** dist_mpi.c -- dist.h over MPI.
**
** MPI starts only when a launcher's variables are in the environment (Open
** MPI: OMPI_COMM_WORLD_SIZE; MPICH/Hydra and Slurm's PMI: PMI_SIZE; PMIx:
** PMIX_RANK), so a plain `warpmatch ...` never pays MPI's start-up. Counts in
** MPI are ints: large byte arrays move in pieces of at most 1 GiB.
*/
#include "dist.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

wm_dist_t wm_dist = { 0, 0, 1, 0, 1 };

#define PIECE ((uint64_t)1 << 30)

static int launched_by_mpi(void) {
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                        "MPI_LOCALNRANKS", NULL };
    for (int i = 0; vars[i]; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

int wm_dist_init(int *argc, char ***argv) {
    if (!launched_by_mpi()) return 0;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "warpmatch: MPI_Init failed\n");
        return -1;
    }
    /* Errors inside MPI end the job with MPI's message, never a hang. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    wm_dist.active = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &wm_dist.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wm_dist.size);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, wm_dist.rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &wm_dist.local_rank);
    MPI_Comm_size(local, &wm_dist.local_size);
    MPI_Comm_free(&local);
    return 0;
}

void wm_dist_finalize(void) {
    if (wm_dist.active) MPI_Finalize();
    wm_dist.active = 0;
}

void wm_dist_abort(int code) {
    if (wm_dist.active) MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

void wm_dist_allgather(const void *mine, size_t bytes, void *all) {
    if (!wm_dist.active) {
        memcpy(all, mine, bytes);
        return;
    }
    MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
}

uint64_t wm_dist_sum(uint64_t v) {
    uint64_t s = v;
    if (wm_dist.active) MPI_Allreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

void wm_dist_sum_array(uint64_t *v, size_t n) {
    if (!wm_dist.active) return;
    for (size_t at = 0; at < n; at += PIECE / 8) {
        size_t k = n - at < PIECE / 8 ? n - at : (size_t)(PIECE / 8);
        MPI_Allreduce(MPI_IN_PLACE, v + at, (int)k, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    }
}

int wm_dist_any(int flag) {
    int any = flag != 0;
    if (wm_dist.active) MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return any;
}

int wm_dist_first_failure(int failed, const char *why, char *msg, size_t msglen) {
    int me = failed ? wm_dist.rank : wm_dist.size, first = me;
    if (wm_dist.active) MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first >= wm_dist.size) return -1;
    char buf[2048];
    if (first == wm_dist.rank) snprintf(buf, sizeof buf, "%s", why ? why : "failed");
    if (wm_dist.active) MPI_Bcast(buf, (int)sizeof buf, MPI_CHAR, first, MPI_COMM_WORLD);
    if (msg && msglen) snprintf(msg, msglen, "%s", buf);
    return first;
}

/* Send or receive len bytes in pieces MPI's int counts can hold. */
static void send_bytes(const void *buf, uint64_t len, int to) {
    const char *p = buf;
    for (uint64_t at = 0; at < len; at += PIECE) {
        uint64_t k = len - at < PIECE ? len - at : PIECE;
        MPI_Send(p + at, (int)k, MPI_BYTE, to, 1, MPI_COMM_WORLD);
    }
}

static void recv_bytes(void *buf, uint64_t len, int from) {
    char *p = buf;
    for (uint64_t at = 0; at < len; at += PIECE) {
        uint64_t k = len - at < PIECE ? len - at : PIECE;
        MPI_Recv(p + at, (int)k, MPI_BYTE, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int wm_dist_write_ordered(const void *buf, uint64_t len, FILE *out) {
    int failed = 0;
    if (wm_dist.rank == 0 && len > 0 && fwrite(buf, 1, (size_t)len, out) != len) failed = 1;
    if (!wm_dist.active) return failed ? -1 : 0;
    uint64_t *lens = malloc((size_t)wm_dist.size * sizeof *lens);
    if (!lens) wm_dist_abort(2);
    MPI_Gather(&len, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (wm_dist.rank == 0) {
        /* One rank's bytes at a time, through a bounded buffer. */
        uint64_t cap = 0;
        for (int r = 1; r < wm_dist.size; r++)
            if (lens[r] > cap) cap = lens[r];
        if (cap > PIECE) cap = PIECE;
        char *tmp = cap ? malloc((size_t)cap) : NULL;
        if (cap && !tmp) wm_dist_abort(2);
        for (int r = 1; r < wm_dist.size; r++) {
            int go = 1;
            MPI_Send(&go, 1, MPI_INT, r, 2, MPI_COMM_WORLD); /* your turn */
            for (uint64_t at = 0; at < lens[r]; at += cap) {
                uint64_t k = lens[r] - at < cap ? lens[r] - at : cap;
                MPI_Recv(tmp, (int)k, MPI_BYTE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (!failed && fwrite(tmp, 1, (size_t)k, out) != k) failed = 1;
            }
        }
        free(tmp);
    } else {
        int go;
        MPI_Recv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        send_bytes(buf, len, 0);
    }
    free(lens);
    return failed ? -1 : 0;
}

int wm_dist_gather(const void *buf, uint64_t len, void **all, uint64_t *lens) {
    *all = NULL;
    if (!wm_dist.active) {
        lens[0] = len;
        *all = malloc(len ? (size_t)len : 1);
        if (!*all) return -1;
        if (len) memcpy(*all, buf, (size_t)len);
        return 0;
    }
    MPI_Gather(&len, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int ok = 1;
    if (wm_dist.rank == 0) {
        uint64_t total = 0;
        for (int r = 0; r < wm_dist.size; r++) total += lens[r];
        *all = malloc(total ? (size_t)total : 1);
        ok = *all != NULL;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) return -1;
    if (wm_dist.rank == 0) {
        char *p = *all;
        if (len) memcpy(p, buf, (size_t)len);
        p += len;
        for (int r = 1; r < wm_dist.size; r++) {
            recv_bytes(p, lens[r], r);
            p += lens[r];
        }
    } else {
        send_bytes(buf, len, 0);
    }
    return 0;
}

int wm_dist_bcast_int(int v) {
    if (wm_dist.active) MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v;
}

int wm_dist_bcast_bytes(void **buf, uint64_t *len) {
    if (!wm_dist.active) return 0;
    MPI_Bcast(len, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int ok = 1;
    if (wm_dist.rank != 0) {
        *buf = malloc(*len ? (size_t)*len : 1);
        ok = *buf != NULL;
    }
    int all_ok = ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) return -1;
    char *p = *buf;
    for (uint64_t at = 0; at < *len; at += PIECE) {
        uint64_t k = *len - at < PIECE ? *len - at : PIECE;
        MPI_Bcast(p + at, (int)k, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return 0;
}
