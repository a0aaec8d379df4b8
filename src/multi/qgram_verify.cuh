/*
** qgram_verify.cuh -- the bucket walk both GPU q-gram kernels run where the
** table says some string ends with a q-gram (qgram.cu, qgram_dna.cu): the
** strings of the code's bucket whose code matches, and whose symbols before
** the q-gram match the text, are reported in bucket (uid) order, as the CPU's
** verify in qgram.c.
*/
#ifndef WM_MULTI_QGRAM_VERIFY_CUH
#define WM_MULTI_QGRAM_VERIFY_CUH

#include "multi/mkernel.cuh"

/* Every string of p's index that ends at local end e (exclusive) with the
** q-gram `code`: emit.put(e, uid) for each. */
template <class E>
__device__ __forceinline__ void wm_cu_qgram_verify(const wm_cu_mplan_t &p, const wm_cu_mtext_t &t,
                                                   uint64_t e, uint64_t code, E &emit) {
    uint64_t h = (code ^ (code >> 29)) * 0x9E3779B97F4A7C15ull;
    uint64_t b = h >> (64 - p.bucket_bits);
    for (uint32_t x = __ldg(p.bucket_off + b), xe = __ldg(p.bucket_off + b + 1); x < xe; x++) {
        if (__ldg(p.entry_code + x) != code) continue;
        uint32_t u = __ldg(p.entry_uid + x), m = __ldg(p.ulen + u);
        if (m > p.q) {
            if (e < m) continue;
            const uint8_t *s = p.ubytes + __ldg(p.uoff + u), *tx = t.text + e - m;
            uint32_t j = 0, n = m - p.q;
            while (j < n && p.fold[tx[j]] == __ldg(s + j)) j++;
            if (j < n) continue;
        }
        emit.put(e, u);
    }
}

#endif
