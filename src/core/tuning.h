/*
** tuning.h -- the sizes the host glue of the backends works with, kept in
** the context (wm_context_tuning) so that benchmarks can set them, and what
** the last calls measured (wm_context_stats), so that tools can print it.
** The library reads no environment variable and prints nothing: a knob that
** used to be an environment variable is a field here, and a timing that used
** to be printed is a field of wm_stats_t.
**
** Zero means "the default" for every size, so a zeroed struct is the
** default tuning; wm_tuning_default() spells the defaults out.
*/
#ifndef WM_CORE_TUNING_H
#define WM_CORE_TUNING_H

#include <stdint.h>

#include "core/simd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    wm_simd_isa_t simd;       /* the widest SIMD a CPU kernel may use (it
                           uses the CPU's best up to this): tests and
                           benchmarks lower it to cover the narrower
                           paths [auto] */
    int timing;               /* time the phases into wm_stats_t; the GPU
                           code then waits for each phase [0] */
    uint64_t gpu_alloc_limit; /* the largest GPU buffer (device or pinned) a
                                 context may allocate: a larger one fails as
                                 out of memory. Tests play a full GPU with
                                 it [0: no limit] */
    /* search on the GPU */
    uint64_t search_batch_bytes;   /* text bytes a batch [32 MiB: three slots
                                      of pinned staging cost 0.04 s to
                                      allocate at 32 MiB, 0.3-0.4 s at 256
                                      MiB, and the copy rate is the same;
                                      BENCHMARKS.md section 14]; the
                                      context's chunk_bytes, when set, wins */
    uint64_t search_bytes_per_hit; /* first size of the hit buffers: one hit per
                                      this many bytes [512]; they grow on demand */
    /* dtw on the GPU (sdtw_cuda.cu) */
    uint64_t dtw_warps;           /* warps the pieces fill [what fits at once] */
    uint64_t dtw_min_piece;       /* shortest piece in columns [2m] */
    uint64_t dtw_warmup;          /* columns pass 1 runs before a piece [m] */
    uint64_t dtw_chunk;           /* series samples on the device at once [2^27] */
    uint64_t dtw_stripe;          /* query rows a stripe: 512 or 1024 [1024] */
    int dtw_pin_series;           /* pin a large series for its copy [0] */
    uint64_t dtw_start_gpu_cells; /* a start's window (m x w cells) runs on the
                                     GPU from this many cells [2^20]; tests
                                     lower it to 1 */
    int dtw_window_rows;          /* query rows a lane of a start's window on the GPU:
                            1, 2 or 4 (fewer: more warps in its pipeline)
                            [4: BENCHMARKS.md section 20d] */
    int dtw_ucr_rows;             /* query rows a lane of ucr's exact DTW of
                                     the windows on the GPU (1, 2, 3, 4, 6, 8,
                                     12, 16, 24 or 32; a stripe is 32 of them)
                                     [0: the pair kernel's cost model] */
    int dtw_ucr_ec;               /* ucr on the GPU: LB_Keogh EC by rows from
                                     the series' envelope (where it fits) in
                                     each window's DTW (0), or never (-1):
                                     tests take both, benchmarks compare [0] */
    uint64_t dtw_ucr_piece;       /* ucr on the GPU: samples a piece of the
                                     series' copy, ranked while the next is
                                     copied; tests make it tiny [0: n / 16,
                                     at least 2^20] */
    /* dtw matrices on the CPU (matrix.c): a band this many SIMD strips of
    ** rows wide or wider runs in strips, a narrower one scalar [0: the
    ** default of sdtw_simd.c] */
    int dtw_band_strips;
    /* pairs on the GPU (pairs_cuda.cu) */
    uint64_t pairs_batch; /* pairs a batch [2^17; a sweep in BENCHMARKS.md section 6c] */
    /* One long pair's CIGAR on the GPU (align.c): its checkpoints kept by
    ** the distance pass for pairs of 5 * 10^7 cells or more where they fit
    ** its memory budget, else from the faster of a second GPU pass and the
    ** CPU's forward pass by estimate (0); kept where they fit, else the
    ** second pass (1); the second pass, never kept (2); the CPU's forward
    ** pass (-1). The bytes are the same; tests take every one [0] */
    int global_ckpts;
    /* One long pair's distance on the GPU without a bound (global_cuda.cu):
    ** from targets of this many columns on, computed from both ends at
    ** once (two chains of about n / 2 columns each, met on a stair or at the
    ** middle column). 0: the default, 2,048; tests set 1 to take it on
    ** every pair, UINT64_MAX to never take it. The bytes are the same [0] */
    uint64_t global_meet_min;
    /* ... and there met at the middle column even where the stair fits
    ** (each run's word w ending 8 columns before word w - 1, so the late
    ** words do less: global_cuda.cu). Tests draw it; the bytes are the
    ** same [0] */
    int global_meet_cut;
    /* The caller keeps one match per locus (the CLI's --best-per-locus,
    ** cli/locus.c): a set within k edits finds a match's start only where
    ** that choice can read it (setk/loci.c; the CPU's scans and the GPU
    ** path's host half), and gives the others a stand-in that decides every
    ** overlap the same way. Never for callers that read every start [0] */
    int loci_starts;
    /* Direct Hamming patterns of a set on the CPU (setk/planes_index.c):
    ** which groups of one shape are looked up by a pigeonhole index instead
    ** of tried pattern by pattern. 0: those it pays for; 1: every one that
    ** can have one (tests); -1: none (benchmarks) [0] */
    int planes_index;
} wm_tuning_t;

wm_tuning_t wm_tuning_default(void);

/* What the backends measured in the context's last calls (seconds). Zeroed
** by the caller when it wants a fresh count; the backends add to it. */
typedef struct {
    /* search on the GPU */
    double search_gpu_setup_s; /* the plan's tables uploaded, buffers allocated */
    double search_gpu_loop_s;  /* copies, kernels and hits, all batches */
    uint64_t search_gpu_batches;
    uint64_t search_gpu_batch_bytes;
    uint64_t search_gpu_read_bytes; /* of the staged bytes, read from the text's file */
    /* sets within k errors on the GPU (src/setk) */
    double setk_gpu_seed_s;        /* seeds found, sorted, paired */
    double setk_gpu_seed_kernel_s; /* of which found */
    double setk_gpu_verify_s;      /* windows verified, direct patterns scanned */
    double setk_gpu_copy_s;        /* hits to the host */
    double setk_gpu_finish_s;      /* starts, regions, order, delivery (host) */
    double setk_gpu_deliver_s;     /* of which the calling thread's handing over */
    uint64_t setk_gpu_batches;
    uint64_t setk_gpu_hits;
    uint64_t setk_gpu_seeds; /* found */
    uint64_t setk_gpu_kept;  /* of which paired */
    /* dtw on the GPU */
    double dtw_gpu_setup_s; /* buffers, query upload, pinning */
    double dtw_gpu_h2d_s;   /* the series' copies */
    double dtw_gpu_pass_s;  /* pass 1 */
    double dtw_gpu_fixup_s; /* fix-up rounds */
    double dtw_gpu_total_s;
    uint64_t dtw_gpu_rounds;
    uint64_t dtw_gpu_calls;
    /* dtw --mode ucr on the GPU (with timing) */
    double dtw_ucr_rank_s;    /* the windows' statistics and bounds, sorted */
    double dtw_ucr_dtw_s;     /* the exact DTW of the windows under the cut */
    uint64_t dtw_ucr_windows; /* windows whose DTW ran (some abandoned in it) */
    uint64_t dtw_ucr_batches;
    /* pairs on the GPU */
    double pairs_gpu_pack_s;    /* batches packed into pinned staging (host) */
    double pairs_gpu_wait_s;    /* the host waiting for the GPU's batches */
    double pairs_gpu_kernel_s;  /* the kernels (events, with timing) */
    double pairs_gpu_deliver_s; /* results handed over (host) */
    uint64_t pairs_gpu_batches;
    /* one long pair's CIGAR with a GPU (align.c) */
    double global_gpu_distance_s;     /* the distance pass */
    double global_gpu_ckpts_s;        /* the checkpoints: the GPU's pass and copy, or the CPU's */
    double global_gpu_ckpts_copy_s;   /* of which their copy back and the host's cut of the band */
    double global_gpu_cigar_s;        /* the segments recomputed and walked (host) */
    uint64_t global_gpu_ckpts_on_cpu; /* CIGARs whose checkpoints the CPU made */
    uint64_t global_gpu_ckpts_kept;   /* CIGARs whose checkpoints the distance pass kept */
    uint64_t global_gpu_meets;        /* distances run from both ends (global_cuda.cu) */
    uint64_t global_gpu_stairs;       /* of which on a stair (the others cut at n / 2) */
    /* out of GPU memory (core/recover.c) */
    uint64_t gpu_retries;   /* calls tried again with smaller pieces */
    uint64_t gpu_fallbacks; /* calls run on the CPU instead */
    /* targets kept on the GPU (core/target.c) */
    uint64_t gpu_target_uploads; /* targets copied to the device */
    double gpu_target_upload_s;
} wm_stats_t;

#ifdef __cplusplus
}
#endif
#endif
