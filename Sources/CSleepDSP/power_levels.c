#include "power_levels.h"

#include "sa_a_weighting.h"
#include "sa_vector_dispatch.h"
#include "sa_float_policy.h"

sa_status sa_power_level_factors(double sample_rate, size_t fft_size, float *flat, float *a_weighted) {
    sa_status status = sa_a_weighting_power_gains(sample_rate, fft_size, a_weighted);
    if (status != SA_OK) return status;
    const size_t bins = fft_size / 2 + 1;
    for (size_t k = 0; k < bins; k++) {
        int single = k == 0 || (fft_size % 2 == 0 && k == fft_size / 2);
        float factor = (single ? 1.0f : 2.0f) / (float)fft_size;
        flat[k] = factor;
        a_weighted[k] *= factor;
    }
    return SA_OK;
}

SA_VECTOR_CLONES
void sa_weighted_power_sums(const float *restrict flat, const float *restrict a_weighted,
                            const float *restrict power, size_t bins, double *flat_sum, double *a_weighted_sum) {
    float plain = 0, weighted = 0;
    for (size_t k = 0; k < bins; k++) {
        plain += flat[k] * power[k];
        weighted += a_weighted[k] * power[k];
    }
    *flat_sum = (double)plain;
    *a_weighted_sum = (double)weighted;
}
