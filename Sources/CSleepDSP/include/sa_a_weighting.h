/* A-frequency weighting per IEC 61672-1:2013, applied to power spectra bin by bin.

   The weighting is the standard's analytic curve (poles at 20.598997, 107.65265, 737.86223 and 12194.217 Hz,
   +2.00 dB normalisation at 1 kHz) evaluated at each FFT bin's centre frequency, so it has no bilinear-transform
   drift near Nyquist at any sample rate. Its accuracy for tones is set by the FFT's resolution: with bins of a
   few hertz (a window of about half a second or longer) it stays inside the class-1 limits at every nominal
   frequency from 10 Hz to 0.9 x Nyquist; with short windows (512 points at 16 kHz: 31.25 Hz bins) window
   leakage makes tones below about 100 Hz read high. */
#ifndef SA_A_WEIGHTING_H
#define SA_A_WEIGHTING_H

#include <stddef.h>
#include "sa_common.h"

/* The A-weighting in dB at `frequency_hz` (the analytic curve; -INFINITY at 0 Hz). */
double sa_a_weighting_db(double frequency_hz);

/* Fills `gains[k]`, k = 0 ... fft_size / 2, with the linear power gain 10^(A(f_k) / 10) of bin k,
   f_k = k * sample_rate / fft_size (0 at DC). Errors: SA_ERR_UNSUPPORTED_RATE for a rate outside 1 Hz ... 1 MHz,
   SA_ERR_INVALID_ARGUMENT for fft_size < 2 or a NULL buffer. */
sa_status sa_a_weighting_power_gains(double sample_rate, size_t fft_size, float *gains);

#endif
