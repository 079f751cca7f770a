/* Real FFT of any size through FFTW (single precision), planned once per handle. */
#ifndef SA_FFT_H
#define SA_FFT_H

#include <stddef.h>
#include "sa_common.h"

typedef struct sa_fft sa_fft;

/* Plans a forward (real to complex) and inverse (complex to real) transform of `size` points (size >= 2).
   Planning is thread-safe: the first call makes FFTW's planner thread-safe (pthread_once). */
sa_status sa_fft_init(size_t size, sa_fft **out);

/* Frees the handle and sets *fft to NULL; NULL is ignored. */
void sa_fft_destroy(sa_fft **fft);

/* Points per transform. */
size_t sa_fft_size(const sa_fft *fft);

/* The handle's aligned real buffer of `size` samples: fill it, then call sa_fft_execute_forward. */
float *sa_fft_real_buffer(sa_fft *fft);

/* The handle's aligned complex buffer: size / 2 + 1 bins, interleaved (re, im). */
float *sa_fft_complex_buffer(sa_fft *fft);

/* Transforms the real buffer into the complex buffer (unnormalised: X_k = sum x_n e^{-2 pi i k n / N}). */
void sa_fft_execute_forward(sa_fft *fft);

/* Transforms the complex buffer into the real buffer (unnormalised: the result is N times the signal). */
void sa_fft_execute_inverse(sa_fft *fft);

/* Convenience: copies `size` samples in, transforms, copies size / 2 + 1 interleaved bins to `spectrum`. */
sa_status sa_fft_forward(sa_fft *fft, const float *samples, float *spectrum);

#endif
