/* Streaming short-time power spectrum: Hann window, any FFT size and hop, FFTW planned once.

   Frame i ends at input sample (i + 1) * hop and covers the last fft_size samples (zeros before the stream
   start). The window is the periodic Hann window w[n] = 0.5 - 0.5 cos(2 pi n / N). */
#ifndef SA_STFT_H
#define SA_STFT_H

#include <stddef.h>
#include <stdint.h>
#include "sa_common.h"

typedef struct sa_stft sa_stft;

/* Creates a streaming STFT. Errors: SA_ERR_INVALID_ARGUMENT for fft_size < 2 or hop_size < 1. */
sa_status sa_stft_init(size_t fft_size, size_t hop_size, sa_stft **out);

/* Frees the handle and sets *stft to NULL; NULL is ignored. */
void sa_stft_destroy(sa_stft **stft);

/* Consumes samples until a frame completes or the input runs out; returns the number consumed.
   Sets *frame_ready to 1 when a frame completed (read it with sa_stft_power), else 0. Never allocates. */
size_t sa_stft_feed(sa_stft *stft, const float *samples, size_t count, int *frame_ready);

/* Completes a final, partial frame from the samples fed since the last frame (window ending at the last
   sample). Sets *frame_ready to 0 when there are none. */
void sa_stft_flush(sa_stft *stft, int *frame_ready);

/* How many frames feeding `count` more samples would complete. */
size_t sa_stft_frames_for(const sa_stft *stft, size_t count);

/* |X_k|^2 of the last frame, k = 0 ... fft_size / 2 (unnormalised FFT of the windowed samples). */
const float *sa_stft_power(const sa_stft *stft);

/* The last frame's complex spectrum, fft_size / 2 + 1 interleaved (re, im) bins. */
const float *sa_stft_spectrum(const sa_stft *stft);

/* Sum of w[n]^2 over the part of the last frame's window that covered real samples (after the stream start):
   divide a frame's energy by it to get the mean square of the signal. */
double sa_stft_window_energy(const sa_stft *stft);

/* Frames completed since the stream began. */
int64_t sa_stft_frame_count(const sa_stft *stft);

#endif
