/* Checks run on every sample or frame of a night: the lowest and highest sample of a block (the audio health
   monitor's flat-line test), the count of NaN and infinite samples (the pipeline's repair of bad input), the count
   of samples clipped at full scale (the clipping check) and the summed energy of a range of log-mel bands (the
   bandwidth check). */
#ifndef SA_SAMPLE_CHECKS_H
#define SA_SAMPLE_CHECKS_H

#include <stddef.h>

/* Writes the smallest and largest non-NaN value of samples[0 ..< count] to *low and *high; +infinity and
   -infinity when there is none (count 0, or every sample NaN), so *high >= *low is false exactly then. */
void sa_sample_range(const float *samples, size_t count, float *low, float *high);

/* How many of samples[0 ..< count] are NaN or infinite. */
size_t sa_non_finite_count(const float *samples, size_t count);

/* Adds to counts[channel], for each channel of the interleaved block samples[0 ..< frames * channels], how many of
   its samples lie on a full-scale plateau: at least `level` in magnitude and equal to the sample of the same channel
   one frame earlier. For the block's first frame that earlier sample is previous[channel] (from the block before;
   NaN for none). previous[0 ..< channels] is then set to the block's last frame, so a night read in blocks counts as
   if read whole. Nothing changes for an empty block. */
void sa_full_scale_plateau_counts(const float *samples, size_t frames, size_t channels, float level, float *previous,
                                  size_t *counts);

/* Adds, over `frames` frames of `bands` natural-log band energies each (frame-major), exp(log_mel) of bands
   first ..< first + count to *total. exp is computed in single precision to within 2e-7 relative. */
void sa_band_energy_sum(const float *log_mel, size_t frames, size_t bands, size_t first, size_t count,
                        double *total);

#endif
