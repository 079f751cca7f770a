/* Checks run on every sample or frame of a night: the lowest and highest sample of a block (the audio health
   monitor's flat-line test), the count of NaN and infinite samples (the pipeline's repair of bad input) and the
   summed energy of a range of log-mel bands (the bandwidth check). */
#ifndef SA_SAMPLE_CHECKS_H
#define SA_SAMPLE_CHECKS_H

#include <stddef.h>

/* Writes the smallest and largest non-NaN value of samples[0 ..< count] to *low and *high; +infinity and
   -infinity when there is none (count 0, or every sample NaN), so *high >= *low is false exactly then. */
void sa_sample_range(const float *samples, size_t count, float *low, float *high);

/* How many of samples[0 ..< count] are NaN or infinite. */
size_t sa_non_finite_count(const float *samples, size_t count);

/* Adds, over `frames` frames of `bands` natural-log band energies each (frame-major), exp(log_mel) of bands
   first ..< first + count to *total. exp is computed in single precision to within 2e-7 relative. */
void sa_band_energy_sum(const float *log_mel, size_t frames, size_t bands, size_t first, size_t count,
                        double *total);

#endif
