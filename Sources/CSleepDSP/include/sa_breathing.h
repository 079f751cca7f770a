/* Breathing-rate DSP: a band-energy envelope of breath sounds and a periodicity analyser.
 *
 * sa_breath_env turns the front end's log-mel frames (sa_front_end.h) into per-band log energies at a low frame
 * rate (the envelope of breath and snore sounds): the mean square that octave bands from 150 Hz (a Butterworth
 * high-pass and low-pass section each) would pass, leaving out bands that reach past 0.45 * sample rate (5 bands
 * at 16 kHz), estimated from the mel energies rather than by filtering the samples. sa_breath_period finds the
 * breathing period of a window of such frames (audio bands, or accelerometer axes): summary autocorrelation over
 * channels, the shortest strong peak, then a fold test for alternating half-cycles (inhale and exhale both
 * sounding) that doubles the period when the two halves of a cycle differ. */
#ifndef SA_BREATHING_H
#define SA_BREATHING_H

#include <stddef.h>
#include <stdint.h>
#include "sa_common.h"
#include "sa_front_end.h"

/* The most bands an envelope has. */
#define SA_BREATH_MAX_BANDS 6

typedef struct sa_breath_env sa_breath_env;

/* Creates an envelope of the log-mel frames of a front end set up with *front_end (its rate, FFT size, mel bank
 * and log floor; the window is a periodic Hann window): one envelope frame per frames_per_envelope front-end
 * frames. */
sa_status sa_breath_env_init(sa_breath_env **out, const sa_front_end_config *front_end, size_t frames_per_envelope);

/* Bands per frame. */
int sa_breath_env_band_count(const sa_breath_env *env);

/* Feeds count front-end frames (log_mel: frame-major, the front end's mel_band_count values each); writes each
 * completed envelope frame (band_count natural-log mean-square energies, frame-major) to frames and the number
 * written to *written. SA_ERR_INVALID_ARGUMENT (nothing consumed) when more than capacity frames would complete. */
sa_status sa_breath_env_process(sa_breath_env *env, const float *log_mel, size_t count, float *frames,
                                size_t capacity, size_t *written);

/* Forgets any partial frame. */
void sa_breath_env_reset(sa_breath_env *env);

/* Frees the extractor and sets *env to NULL. */
void sa_breath_env_destroy(sa_breath_env **env);

/* Tuning of the periodicity analyser. */
typedef struct sa_breath_period_config {
    double frame_rate;          /* frames per second of the input */
    double min_bpm;             /* slowest rate searched (breaths per minute) */
    double max_bpm;             /* fastest rate searched */
    double detrend_seconds;     /* moving-average window removed from each channel */
    int smooth_frames;          /* moving-average smoothing after detrending (odd, >= 1) */
    double peak_fraction;       /* the shortest peak at least this fraction of the highest is the candidate */
    double alternation_threshold; /* fold-test ratio above which the period is doubled */
    int half_cycle_search;      /* 1: also search down to half the shortest breath period, where a periodicity is two
                                 * sounds per breath (inhale and exhale) and its double is reported; 0: breath range
                                 * only (chest motion, one cycle per breath) */
    double harmonic_fraction;   /* sub-harmonic check: the chosen period P is replaced by P / k (k = 3, then 2) when
                                 * the summary autocorrelation has a peak at every multiple of P / k below P, each at
                                 * least this fraction of the one at P (and, for k = 2, the two halves of the cycle
                                 * folded at P are alike); 0 switches the check off */
} sa_breath_period_config;

/* Sensible defaults for frame_rate (6..30 bpm, 20 s detrend, 3-frame smoothing, 0.7, 2.0, harmonic check 0.6). */
sa_breath_period_config sa_breath_period_default_config(double frame_rate);

/* What the analyser found in a window. */
typedef struct sa_breath_period_result {
    int found;           /* 1 when a periodic peak exists in the searched range */
    double bpm;          /* breaths per minute */
    double score;        /* mean summary autocorrelation at the chosen period and twice it, -1..1 */
    double alternation;  /* fold-test ratio for the doubled candidate */
    int harmonic;        /* 1, or k when the sub-harmonic check divided the period by k */
    double valid_fraction; /* share of frames that were valid (mask) */
} sa_breath_period_result;

typedef struct sa_breath_period sa_breath_period;

/* Creates an analyser for windows of up to max_frames frames of up to max_channels channels. */
sa_status sa_breath_period_init(sa_breath_period **out, const sa_breath_period_config *config, size_t max_frames,
                                size_t max_channels);

/* Analyses frame_count frames (frame-major, channel_count values each). mask (may be NULL) marks valid
 * frames with nonzero bytes; invalid frames are ignored. */
sa_status sa_breath_period_analyze(sa_breath_period *analyser, const float *frames, size_t frame_count,
                                   size_t channel_count, const uint8_t *mask, sa_breath_period_result *result);

/* After an analysis that found a period: the autocorrelation peak nearest to `bpm` (within `tolerance`, a share of
 * its period) in the last window's summary autocorrelation, as a rate and its score (the mean of the correlation at
 * that period and twice it, as in sa_breath_period_analyze). Used to test a neighbouring window's rate. Returns 0
 * (and leaves *out_bpm and *out_score alone) when there is no peak there or no analysis to read. */
int sa_breath_period_rate_near(const sa_breath_period *analyser, double bpm, double tolerance, double *out_bpm,
                               double *out_score);

/* Frees the analyser and sets *analyser to NULL. */
void sa_breath_period_destroy(sa_breath_period **analyser);

#endif
