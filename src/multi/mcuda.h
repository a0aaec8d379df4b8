/*
** mcuda.h -- the GPU set kernels' launchers (qgram.cu, pfac.cu, ac.cu,
** wumanber.cu), as the driver (multi_cuda.cu) and the benchmark call them.
** Each launches one mode (mkernel.cuh) over one batch; *blocks says how many
** blocks (entries of o->block_counts) the launch uses.
*/
#ifndef WM_MULTI_MCUDA_H
#define WM_MULTI_MCUDA_H

#include "multi/mkernel.cuh"

typedef cudaError_t (*wm_cu_mlaunch_fn)(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                        const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);

cudaError_t wm_cu_qgram_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                               const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);
/* The q-gram kernel of DNA sets with q <= 8 (qgram_dna.cu), which
** wm_cu_qgram_launch runs where it fits. */
int wm_cu_qgram_dna_fits(const wm_cu_mplan_t *p, const wm_cu_mtext_t *t);
cudaError_t wm_cu_qgram_dna_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                   const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);
/* Byte sets through the index by 4 and 8 bytes (qgram_bytes.cu), which
** wm_cu_qgram_launch runs where it fits. */
int wm_cu_qgram_bytes_fits(const wm_cu_mplan_t *p, const wm_cu_mtext_t *t);
cudaError_t wm_cu_qgram_bytes_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                     const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);
cudaError_t wm_cu_pfac_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                              const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);
cudaError_t wm_cu_ac_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                            const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);
cudaError_t wm_cu_wumanber_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                  const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks);

/* The most bytes of halo a kernel stages in shared memory; beyond, it reads
** the text from global memory (through L1). */
#define WM_CU_MAX_STAGED_HALO (16u << 10)

#endif
