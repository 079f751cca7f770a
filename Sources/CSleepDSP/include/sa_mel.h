/* Mel filter bank (Slaney's mel scale and area normalisation, as librosa's default `mel(htk=False,
   norm="slaney")`), stored sparse, and the natural log of the band energies.

   Slaney's scale is linear below 1 kHz (mel = 3 f / 200) and logarithmic above (mel = 15 + 27 ln(f / 1000) /
   ln 6.4). Band b is a triangle over FFT bins between mel points b, b+1, b+2 of bands + 2 points spaced evenly
   from mel(low_hz) to mel(high_hz), scaled by 2 / (f[b+2] - f[b]). */
#ifndef SA_MEL_H
#define SA_MEL_H

#include <stddef.h>
#include "sa_common.h"

typedef struct sa_mel sa_mel;

/* Builds the filter bank for power spectra of `fft_size` points at `sample_rate`.
   Errors: SA_ERR_UNSUPPORTED_RATE for a rate <= 0; SA_ERR_INVALID_ARGUMENT for no bands, fft_size < 2, or
   0 <= low_hz < high_hz <= sample_rate / 2 violated. */
sa_status sa_mel_init(double sample_rate, size_t fft_size, size_t band_count, double low_hz, double high_hz,
                      sa_mel **out);

/* Writes the band_count + 2 mel points of such a bank, in Hz, to edges: band b rises from edges[b] to its peak at
   edges[b + 1] and falls to edges[b + 2]. */
void sa_mel_edges_hz(size_t band_count, double low_hz, double high_hz, double *edges);

/* Frees the handle and sets *mel to NULL; NULL is ignored. */
void sa_mel_destroy(sa_mel **mel);

/* Bands in the bank. */
size_t sa_mel_band_count(const sa_mel *mel);

/* log_mel[b] = ln(sum_k weight[b][k] * power[k] + floor) for a power spectrum of fft_size / 2 + 1 bins. */
void sa_mel_log_energies(const sa_mel *mel, const float *power, float floor, float *log_mel);

/* Natural logarithm for x > 0 (finite, normal), accurate to about 1e-7 relative and vectorisable. */
void sa_fast_log(const float *x, float *y, size_t count);

#endif
