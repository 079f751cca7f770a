/* The audio front end: per frame, log-mel band energies and A-weighted and unweighted levels, from one FFT.

   Frames follow sa_stft.h (Hann window over the last fft_size samples, frame i ends at sample (i + 1) * hop).
   Levels: mean square ms of the windowed frame (Parseval, normalised by the window's energy over the samples
   after the stream start); dBFS = 10 log10(2 ms) (a full-scale sine reads 0 dBFS); dB SPL = A-weighted dBFS +
   level_offset_db. Mean squares are floored at 1e-16 (-157 dBFS). */
#ifndef SA_FRONT_END_H
#define SA_FRONT_END_H

#include <stddef.h>
#include <stdint.h>
#include "sa_common.h"

typedef struct sa_front_end_config {
    double sample_rate;
    size_t fft_size;
    size_t hop_size;
    size_t mel_band_count;
    double mel_low_hz;
    double mel_high_hz;
    float log_floor;         /* added to each mel energy before the log */
    double level_offset_db;  /* dB SPL = dBFS + offset */
} sa_front_end_config;

typedef struct sa_front_end sa_front_end;

/* Creates a front end; coefficients (window, mel bank, A-weighting) are computed here from the rate.
   Errors: SA_ERR_UNSUPPORTED_RATE, SA_ERR_INVALID_ARGUMENT (sizes, band edges), SA_ERR_OUT_OF_MEMORY,
   SA_ERR_BACKEND (FFTW planning). */
sa_status sa_front_end_init(const sa_front_end_config *config, sa_front_end **out);

/* Frees the handle and sets *front_end to NULL; NULL is ignored. */
void sa_front_end_destroy(sa_front_end **front_end);

/* How many frames feeding `count` more samples would complete. */
size_t sa_front_end_frames_for(const sa_front_end *front_end, size_t count);

/* Feeds `count` samples; writes each completed frame to the caller's buffers (log_mel: frame-major,
   mel_band_count per frame; db_spl and dbfs: one per frame) and its count to *frames_written.
   SA_ERR_INVALID_ARGUMENT (nothing consumed) when max_frames < sa_front_end_frames_for(count). */
sa_status sa_front_end_process(sa_front_end *front_end, const float *samples, size_t count, float *log_mel,
                               float *db_spl, float *dbfs, size_t max_frames, size_t *frames_written);

/* Frames completed since the stream began. */
int64_t sa_front_end_frame_count(const sa_front_end *front_end);

#endif
