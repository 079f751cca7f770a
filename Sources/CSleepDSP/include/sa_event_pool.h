/* Event features: pooled statistics of a window of log-mel frames (the input of the event classifier). */
#ifndef SA_EVENT_POOL_H
#define SA_EVENT_POOL_H

#include "sa_common.h"

/* Opaque pooling state (scratch sized at init: no allocation per window). */
typedef struct sa_event_pool sa_event_pool;

/* Creates a pooling state for windows of up to max_frames frames of mel_bands (even) natural-log mel energies.
 * Values below log_floor are clamped to it first (digital silence). */
sa_status sa_event_pool_init(sa_event_pool **out, int mel_bands, int max_frames, float log_floor);

/* Frees the state and sets *pool to NULL. */
void sa_event_pool_destroy(sa_event_pool **pool);

/* Length of the feature vector: 5 * (mel_bands / 2) + 16. */
int sa_event_pool_feature_count(const sa_event_pool *pool);

/* Pools frames (1...max_frames) of log_mel (frame-major, frames x mel_bands) and dbfs (one per frame) into
 * features (sa_event_pool_feature_count values): per reduced band (pairs of mel bands averaged) the mean
 * relative to the window level, standard deviation, max above mean, mean absolute frame-to-frame change and
 * the energy-weighted mean relative to the weighted level; then 16 global values (level spread, spectral
 * centroid and flatness statistics, envelope autocorrelation at 4 lags, share of loud frames, levels). */
sa_status sa_event_pool_compute(sa_event_pool *pool, const float *log_mel, const float *dbfs, int frames,
                                float *features);

/* The same features, for a window whose first frame is frame number first_frame (0, 1, 2, ...) of one stream:
 * what depends on one frame alone (its reduced bands, level, centroid and flatness) is kept for the next window,
 * which overlapping windows then take instead of computing it again. Frames with the same number must hold the
 * same values (one stream per pooling state); first_frame < 0 keeps and takes nothing (sa_event_pool_compute). */
sa_status sa_event_pool_compute_stream(sa_event_pool *pool, const float *log_mel, const float *dbfs, int frames,
                                       long long first_frame, float *features);

#endif
