#include "sa_stereo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sa_fft.h"
#include "sa_float_policy.h"

struct sa_stereo {
    double sample_rate;
    size_t frame_size;
    size_t fft_size;
    size_t max_lag;
    float *window;
    float *primary_spectrum;  /* fft_size / 2 + 1 interleaved bins */
    sa_fft *fft;
};

void sa_stereo_destroy(sa_stereo **stereo) {
    if (stereo == NULL || *stereo == NULL) return;
    sa_stereo *s = *stereo;
    sa_fft_destroy(&s->fft);
    free(s->window);
    free(s->primary_spectrum);
    free(s);
    *stereo = NULL;
}

sa_status sa_stereo_init(double sample_rate, size_t frame_size, double max_delay_seconds, sa_stereo **out) {
    if (out == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!(sample_rate >= 1.0 && sample_rate <= 1.0e6)) return SA_ERR_UNSUPPORTED_RATE;
    if (frame_size < 4 || frame_size > (1u << 24) || !(max_delay_seconds >= 0)) return SA_ERR_INVALID_ARGUMENT;
    sa_stereo *s = calloc(1, sizeof *s);
    if (s == NULL) return SA_ERR_OUT_OF_MEMORY;
    s->sample_rate = sample_rate;
    s->frame_size = frame_size;
    size_t fft_size = 2;
    while (fft_size < 2 * frame_size) fft_size *= 2;
    s->fft_size = fft_size;
    double lag = floor(max_delay_seconds * sample_rate);
    s->max_lag = lag >= (double)(frame_size - 1) ? frame_size - 1 : (size_t)lag;
    s->window = malloc(frame_size * sizeof(float));
    s->primary_spectrum = malloc((fft_size / 2 + 1) * 2 * sizeof(float));
    sa_status status = s->window && s->primary_spectrum ? sa_fft_init(fft_size, &s->fft) : SA_ERR_OUT_OF_MEMORY;
    if (status != SA_OK) {
        sa_stereo_destroy(&s);
        return status;
    }
    for (size_t n = 0; n < frame_size; n++)
        s->window[n] = (float)(0.5 - 0.5 * cos(2.0 * M_PI * (double)n / (double)frame_size));
    *out = s;
    return SA_OK;
}

/* Windows a frame into the FFT's real buffer (zero-padded) and returns its energy (unwindowed). */
static double load(sa_stereo *s, const float *frame) {
    float *in = sa_fft_real_buffer(s->fft);
    double energy = 0;
    for (size_t n = 0; n < s->frame_size; n++) {
        in[n] = frame[n] * s->window[n];
        energy += (double)frame[n] * frame[n];
    }
    memset(in + s->frame_size, 0, (s->fft_size - s->frame_size) * sizeof(float));
    return energy;
}

static double correlation_at(const float *r, size_t size, long lag) {
    return r[lag >= 0 ? (size_t)lag : size - (size_t)(-lag)];
}

sa_status sa_stereo_analyze(sa_stereo *s, const float *primary, const float *secondary, sa_stereo_cues *out) {
    if (s == NULL || primary == NULL || secondary == NULL || out == NULL) return SA_ERR_INVALID_ARGUMENT;
    const size_t bins = s->fft_size / 2 + 1;

    double primary_energy = load(s, primary);
    sa_fft_execute_forward(s->fft);
    memcpy(s->primary_spectrum, sa_fft_complex_buffer(s->fft), bins * 2 * sizeof(float));
    double secondary_energy = load(s, secondary);
    sa_fft_execute_forward(s->fft);

    /* Cross spectrum conj(P) S, whitened (PHAT): its inverse is r[l] = sum_n p[n] s[n + l] / |...|. */
    float *c = sa_fft_complex_buffer(s->fft);
    const float *p = s->primary_spectrum;
    double largest = 0;
    for (size_t k = 0; k < bins; k++) {
        double pr = p[2 * k], pi = p[2 * k + 1], sr = c[2 * k], si = c[2 * k + 1];
        double re = pr * sr + pi * si, im = pr * si - pi * sr;
        double power = re * re + im * im; /* |.|^2 in double cannot overflow: the factors are floats */
        if (power > largest) largest = power;
    }
    largest = sqrt(largest);
    const double threshold = largest * 1e-9;
    for (size_t k = 0; k < bins; k++) {
        double pr = p[2 * k], pi = p[2 * k + 1], sr = c[2 * k], si = c[2 * k + 1];
        double re = pr * sr + pi * si, im = pr * si - pi * sr;
        double mag = sqrt(re * re + im * im);
        if (largest > 0 && mag > threshold) {
            c[2 * k] = (float)(re / mag);
            c[2 * k + 1] = (float)(im / mag);
        } else {
            c[2 * k] = 0;
            c[2 * k + 1] = 0;
        }
    }

    const double level_floor = 1e-15;
    double ratio = (primary_energy + level_floor * (double)s->frame_size) /
                   (secondary_energy + level_floor * (double)s->frame_size);
    out->level_difference_db = 10.0 * log10(ratio);
    out->delay_seconds = 0;
    out->confidence = 0;
    if (largest <= 0) return SA_OK;

    sa_fft_execute_inverse(s->fft);
    const float *r = sa_fft_real_buffer(s->fft);
    long best = 0;
    double peak = correlation_at(r, s->fft_size, 0);
    for (long lag = -(long)s->max_lag; lag <= (long)s->max_lag; lag++) {
        double v = correlation_at(r, s->fft_size, lag);
        if (v > peak) {
            peak = v;
            best = lag;
        }
    }
    double offset = 0;
    if (best > -(long)s->max_lag && best < (long)s->max_lag) {
        double before = correlation_at(r, s->fft_size, best - 1), after = correlation_at(r, s->fft_size, best + 1);
        double curvature = before - 2 * peak + after;
        if (curvature < 0) offset = fmax(-0.5, fmin(0.5, 0.5 * (before - after) / curvature));
    }
    out->delay_seconds = ((double)best + offset) / s->sample_rate;
    /* A perfect match whitens every bin to unit magnitude: the unnormalised inverse peaks at fft_size. */
    out->confidence = fmax(0.0, fmin(1.0, peak / (double)s->fft_size));
    return SA_OK;
}
