#include "sa_mel.h"

#include "sa_vector_dispatch.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sa_float_policy.h"

/* Width of the fixed steps in which band sums are computed. */
enum { lanes = 8 };

struct sa_mel {
    size_t bands;
    size_t *first_bin;  /* per band */
    size_t *bin_count;  /* per band */
    size_t *offset;     /* per band: start of its weights in `weights` */
    float *weights;
    float *scratch;     /* band energies before the log */
};

static double hz_to_mel(double f) {
    const double linear_limit = 1000.0, linear_slope = 200.0 / 3.0;
    const double log_step = log(6.4) / 27.0;
    if (f < linear_limit) return f / linear_slope;
    return linear_limit / linear_slope + log(f / linear_limit) / log_step;
}

static double mel_to_hz(double m) {
    const double linear_limit = 1000.0, linear_slope = 200.0 / 3.0;
    const double log_step = log(6.4) / 27.0;
    const double limit_mel = linear_limit / linear_slope;
    if (m < limit_mel) return m * linear_slope;
    return linear_limit * exp(log_step * (m - limit_mel));
}

void sa_mel_edges_hz(size_t band_count, double low_hz, double high_hz, double *edges) {
    const double low_mel = hz_to_mel(low_hz), high_mel = hz_to_mel(high_hz);
    for (size_t i = 0; i < band_count + 2; i++)
        edges[i] = mel_to_hz(low_mel + (high_mel - low_mel) * (double)i / (double)(band_count + 1));
}

void sa_mel_destroy(sa_mel **mel) {
    if (mel == NULL || *mel == NULL) return;
    sa_mel *m = *mel;
    free(m->first_bin);
    free(m->bin_count);
    free(m->offset);
    free(m->weights);
    free(m->scratch);
    free(m);
    *mel = NULL;
}

sa_status sa_mel_init(double sample_rate, size_t fft_size, size_t band_count, double low_hz, double high_hz,
                      sa_mel **out) {
    if (out == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!(sample_rate > 0)) return SA_ERR_UNSUPPORTED_RATE;
    if (band_count == 0 || fft_size < 2 || !(low_hz >= 0) || !(high_hz > low_hz) ||
        high_hz > sample_rate / 2 + 1e-9)
        return SA_ERR_INVALID_ARGUMENT;

    const size_t bins = fft_size / 2 + 1;
    sa_mel *m = calloc(1, sizeof *m);
    if (m == NULL) return SA_ERR_OUT_OF_MEMORY;
    m->bands = band_count;
    m->first_bin = calloc(band_count, sizeof(size_t));
    m->bin_count = calloc(band_count, sizeof(size_t));
    m->offset = calloc(band_count, sizeof(size_t));
    m->scratch = calloc(band_count, sizeof(float));
    double *edges = malloc((band_count + 2) * sizeof(double));
    float *dense = calloc(bins, sizeof(float));
    if (!m->first_bin || !m->bin_count || !m->offset || !m->scratch || !edges || !dense) {
        free(edges);
        free(dense);
        sa_mel_destroy(&m);
        return SA_ERR_OUT_OF_MEMORY;
    }
    sa_mel_edges_hz(band_count, low_hz, high_hz, edges);

    /* First pass: the non-zero span of each band; second: the weights, packed. */
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        total = 0;
        for (size_t b = 0; b < band_count; b++) {
            double lo = edges[b], centre = edges[b + 1], hi = edges[b + 2];
            double norm = 2.0 / (hi - lo);
            size_t first = bins, last = 0;
            for (size_t k = 0; k < bins; k++) {
                double f = (double)k * sample_rate / (double)fft_size;
                double rising = (f - lo) / (centre - lo), falling = (hi - f) / (hi - centre);
                double w = fmax(0.0, fmin(rising, falling)) * norm;
                dense[k] = (float)w;
                if (w > 0) {
                    if (first == bins) first = k;
                    last = k;
                }
            }
            /* Pad each band's run to a multiple of `lanes` (zero weights), shifting its start back when the run
               would pass the last bin, so the sum has fixed-width, vectorisable steps and never reads past it. */
            size_t count = first == bins ? 0 : last - first + 1;
            size_t padded = (count + lanes - 1) / lanes * lanes;
            if (padded > bins) padded = count; /* tiny FFTs: no padding, the scalar tail does the rest */
            size_t start = first == bins ? 0 : first;
            if (start + padded > bins) start = bins - padded;
            if (pass == 1) {
                m->first_bin[b] = start;
                m->bin_count[b] = padded;
                m->offset[b] = total;
                if (padded > 0) memcpy(m->weights + total, dense + start, padded * sizeof(float));
            }
            total += padded;
        }
        if (pass == 0) {
            m->weights = malloc((total > 0 ? total : 1) * sizeof(float));
            if (m->weights == NULL) {
                free(edges);
                free(dense);
                sa_mel_destroy(&m);
                return SA_ERR_OUT_OF_MEMORY;
            }
        }
    }
    free(edges);
    free(dense);
    *out = m;
    return SA_OK;
}

size_t sa_mel_band_count(const sa_mel *mel) { return mel->bands; }

static inline void fast_log(const float *restrict x, float *restrict y, size_t count);

SA_VECTOR_CLONES
void sa_mel_log_energies(const sa_mel *m, const float *restrict power, float floor, float *restrict log_mel) {
    float *restrict energy = m->scratch;
    for (size_t b = 0; b < m->bands; b++) {
        const float *restrict w = m->weights + m->offset[b];
        const float *restrict p = power + m->first_bin[b];
        const size_t count = m->bin_count[b];
        float lane[lanes] = {0};
        size_t k = 0;
        for (; k + lanes <= count; k += lanes)
            for (size_t j = 0; j < lanes; j++) lane[j] += w[k + j] * p[k + j];
        float sum = floor;
        for (; k < count; k++) sum += w[k] * p[k];
        for (size_t j = 0; j < lanes; j++) sum += lane[j];
        energy[b] = sum;
    }
    fast_log(energy, log_mel, m->bands);
}

static inline void fast_log(const float *restrict x, float *restrict y, size_t count) {
    /* x = 2^e * m with m in [sqrt(1/2), sqrt(2)); ln(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172. */
    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        int32_t e = (int32_t)((bits >> 23) & 0xff) - 127;
        uint32_t mantissa_bits = (bits & 0x007fffffu) | 0x3f800000u;
        float m;
        memcpy(&m, &mantissa_bits, sizeof m);
        int big = m > 1.41421356f;
        m = big ? m * 0.5f : m;
        e += big;
        float s = (m - 1.0f) / (m + 1.0f);
        float z = s * s;
        float series = 1.0f + z * (1.0f / 3.0f + z * (1.0f / 5.0f + z * (1.0f / 7.0f + z * (1.0f / 9.0f))));
        y[i] = 2.0f * s * series + (float)e * 0.693147180559945f;
    }
}

SA_VECTOR_CLONES
void sa_fast_log(const float *restrict x, float *restrict y, size_t count) { fast_log(x, y, count); }
