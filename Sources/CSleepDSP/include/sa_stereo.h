/* Stereo cues per frame: the inter-channel time difference by GCC-PHAT and the level difference.

   Sign conventions: delay_seconds > 0 when the sound reaches the primary channel first (the secondary is a
   delayed copy of the primary); level_difference_db = primary level - secondary level. */
#ifndef SA_STEREO_H
#define SA_STEREO_H

#include <stddef.h>
#include "sa_common.h"

typedef struct sa_stereo_cues {
    double delay_seconds;        /* time difference of arrival, sub-sample (parabolic peak interpolation) */
    double confidence;           /* height of the PHAT-weighted correlation peak, 0 ... 1 */
    double level_difference_db;  /* 10 log10(primary energy / secondary energy), floored at +-150 dB */
} sa_stereo_cues;

typedef struct sa_stereo sa_stereo;

/* Prepares the analysis of frames of `frame_size` samples per channel at `sample_rate`, searching delays
   within +-max_delay_seconds (clamped to frame_size - 1 samples). Correlation is linear (zero-padded to at least
   2 x frame_size points), the frames Hann-windowed. Errors: SA_ERR_UNSUPPORTED_RATE, SA_ERR_INVALID_ARGUMENT,
   SA_ERR_OUT_OF_MEMORY, SA_ERR_BACKEND. */
sa_status sa_stereo_init(double sample_rate, size_t frame_size, double max_delay_seconds, sa_stereo **out);

/* Frees the handle and sets *stereo to NULL; NULL is ignored. */
void sa_stereo_destroy(sa_stereo **stereo);

/* Analyses one frame of each channel (frame_size samples each). A silent frame gives zero delay and confidence.
   Never allocates. */
sa_status sa_stereo_analyze(sa_stereo *stereo, const float *primary, const float *secondary, sa_stereo_cues *out);

#endif
