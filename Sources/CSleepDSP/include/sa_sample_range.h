/* The lowest and highest sample of a block, ignoring NaN: the audio health monitor's flat-line test, run on
   every sample of a night. */
#ifndef SA_SAMPLE_RANGE_H
#define SA_SAMPLE_RANGE_H

#include <stddef.h>

/* Writes the smallest and largest non-NaN value of samples[0 ..< count] to *low and *high; +infinity and
   -infinity when there is none (count 0, or every sample NaN), so *high >= *low is false exactly then. */
void sa_sample_range(const float *samples, size_t count, float *low, float *high);

#endif
