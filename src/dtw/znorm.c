/*
** znorm.c -- z-normalisation, written once so that every mode and every
** backend (and the UCR windows) normalise to the same bits.
*/
#include <math.h>

#include "dtw/dtw.h"

void wm_dtw_znorm(const double *in, uint64_t n, double *out) {
    if (n == 0) return;
    double sum = 0.0;
    for (uint64_t i = 0; i < n; i++) sum += in[i];
    double mean = sum / (double)n;
    double ss = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        double d = in[i] - mean;
        ss += d * d;
    }
    double sd = sqrt(ss / (double)n);
    for (uint64_t i = 0; i < n; i++) out[i] = sd > 0.0 ? (in[i] - mean) / sd : 0.0;
}
