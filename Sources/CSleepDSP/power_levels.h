/* Private: turning a frame's power spectrum into mean squares (unweighted and A-weighted). */
#ifndef SA_POWER_LEVELS_H
#define SA_POWER_LEVELS_H

#include <stddef.h>
#include "sa_common.h"

/* Per-bin factors for power spectra of fft_size points at sample_rate: the mean square of a frame is
   sum_k factor[k] * |X_k|^2 / window_energy (Parseval, one-sided bins counted twice). `flat` gets the
   unweighted factors, `a_weighted` the A-weighted ones; each holds fft_size / 2 + 1 values. */
sa_status sa_power_level_factors(double sample_rate, size_t fft_size, float *flat, float *a_weighted);

/* The two sums sum_k flat[k] * power[k] and sum_k a_weighted[k] * power[k], in one pass. */
void sa_weighted_power_sums(const float *flat, const float *a_weighted, const float *power, size_t bins,
                            double *flat_sum, double *a_weighted_sum);

#endif
