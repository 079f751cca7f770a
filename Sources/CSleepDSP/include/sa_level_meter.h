/* A sound level meter: A-weighted and unweighted mean square per frame, at the signal's own sample rate.

   Frames follow sa_stft.h (Hann window of window_size samples, frame i ends at sample (i + 1) * hop).
   A-weighting is per FFT bin (sa_a_weighting.h); with a window of about one second its response is inside the
   IEC 61672-1 class-1 limits from 10 Hz to 0.9 x Nyquist. Mean squares are of the signal in full-scale units
   (dBFS = 10 log10(2 ms)), normalised by the window's energy over the samples after the stream start. */
#ifndef SA_LEVEL_METER_H
#define SA_LEVEL_METER_H

#include <stddef.h>
#include "sa_common.h"

typedef struct sa_level_meter sa_level_meter;

/* Creates a meter. Errors: SA_ERR_UNSUPPORTED_RATE for a rate outside 1 Hz ... 1 MHz, SA_ERR_INVALID_ARGUMENT
   for window_size < 2 or hop_size < 1, SA_ERR_OUT_OF_MEMORY, SA_ERR_BACKEND. */
sa_status sa_level_meter_init(double sample_rate, size_t window_size, size_t hop_size, sa_level_meter **out);

/* Frees the handle and sets *meter to NULL; NULL is ignored. */
void sa_level_meter_destroy(sa_level_meter **meter);

/* How many frames feeding `count` more samples would complete. */
size_t sa_level_meter_frames_for(const sa_level_meter *meter, size_t count);

/* Feeds mono samples; writes the A-weighted and unweighted mean square of each completed frame.
   SA_ERR_INVALID_ARGUMENT (nothing consumed) when max_frames < sa_level_meter_frames_for(count). */
sa_status sa_level_meter_process(sa_level_meter *meter, const float *samples, size_t count, double *a_weighted,
                                 double *unweighted, size_t max_frames, size_t *frames_written);

/* Completes a final partial frame from the samples fed since the last frame, if any (0 or 1 frame). */
sa_status sa_level_meter_flush(sa_level_meter *meter, double *a_weighted, double *unweighted,
                               size_t *frames_written);

#endif
