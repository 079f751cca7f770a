/* Breathing-rate DSP: band-energy envelope and periodicity analysis. See include/sa_breathing.h. */
#include "sa_breathing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sa_vector_dispatch.h"
#include "sa_float_policy.h"

/* ---- Envelope -------------------------------------------------------------------------------------- */

/* The band filters run side by side, one band per lane of an eight-float vector (one AVX register, two SSE
   registers in the baseline build): every band's high-pass section, then every band's low-pass section. Lanes past
   band_count have zero coefficients and stay zero. Vectors live only inside a function: see sa_vector_dispatch.h.

   Each Butterworth section runs in state-space form, which gives the same output as the transposed direct form
   (y = b0 x + z1) but carries one multiply-add from sample to sample instead of two:
       z1' = z2 + c1 x - a1 z1,   z2' = c2 x - a2 z1,   c1 = b1 - a1 b0,   c2 = b2 - a2 b0.
   The loop is then bound by arithmetic, not by the chain of dependent operations, and single precision halves the
   arithmetic: its log band energies stay within 3e-5 of a double-precision cascade at 8 to 44.1 kHz. */
#define SA_BREATH_LANES 8

/* One second-order section per lane. */
typedef struct sa_biquad_lanes {
    float b0[SA_BREATH_LANES], c1[SA_BREATH_LANES], c2[SA_BREATH_LANES];
    float a1[SA_BREATH_LANES], a2[SA_BREATH_LANES];
    float z1[SA_BREATH_LANES], z2[SA_BREATH_LANES];
} sa_biquad_lanes;

struct sa_breath_env {
    int band_count;
    size_t hop;
    size_t filled;
    sa_biquad_lanes highpass;
    sa_biquad_lanes lowpass;
    float energy[SA_BREATH_LANES];
};

static const double band_edges[SA_BREATH_MAX_BANDS + 1] = {150.0, 300.0, 600.0, 1200.0, 2400.0, 4800.0, 7000.0};

/* Butterworth (Q = 1/sqrt 2) second-order section from the RBJ cookbook, designed in double, into one lane. */
static void biquad_design(sa_biquad_lanes *q, int lane, double sample_rate, double cutoff, int highpass) {
    const double w0 = 2.0 * M_PI * cutoff / sample_rate;
    const double alpha = sin(w0) / (2.0 * M_SQRT1_2);
    const double c = cos(w0);
    const double a0 = 1.0 + alpha;
    const double b0 = (highpass ? (1.0 + c) : (1.0 - c)) / 2.0 / a0;
    const double b1 = (highpass ? -(1.0 + c) : (1.0 - c)) / a0;
    const double b2 = b0;
    const double a1 = -2.0 * c / a0;
    const double a2 = (1.0 - alpha) / a0;
    q->b0[lane] = (float)b0;
    q->c1[lane] = (float)(b1 - a1 * b0);
    q->c2[lane] = (float)(b2 - a2 * b0);
    q->a1[lane] = (float)a1;
    q->a2[lane] = (float)a2;
}

sa_status sa_breath_env_init(sa_breath_env **out, double sample_rate, double hop_seconds) {
    if (out == NULL || !(sample_rate >= 4000.0) || !(hop_seconds > 0.0)) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    const double hop = round(sample_rate * hop_seconds);
    if (hop < 1.0) return SA_ERR_INVALID_ARGUMENT;
    sa_breath_env *env = calloc(1, sizeof *env);
    if (env == NULL) return SA_ERR_OUT_OF_MEMORY;
    env->hop = (size_t)hop;
    const double top = 0.45 * sample_rate;
    for (int b = 0; b < SA_BREATH_MAX_BANDS; b++) {
        const double low = band_edges[b];
        const double high = fmin(band_edges[b + 1], top);
        if (high < 1.5 * low) break;
        biquad_design(&env->highpass, env->band_count, sample_rate, low, 1);
        biquad_design(&env->lowpass, env->band_count, sample_rate, high, 0);
        env->band_count++;
    }
    *out = env;
    return SA_OK;
}

int sa_breath_env_band_count(const sa_breath_env *env) { return env != NULL ? env->band_count : 0; }

/* Macros, not functions: a vector passed by value would change the calling convention between the two builds. */
#define LOAD8(vector, pointer) memcpy(&(vector), (pointer), sizeof(vector))
#define STORE8(pointer, vector) memcpy((pointer), &(vector), sizeof(vector))

/* Runs count samples through every band and adds their squares to env->energy (count never crosses a frame). */
SA_VECTOR_CLONES
static void filter_run(sa_breath_env *env, const float *samples, size_t count) {
    sa_float8 hb0, hc1, hc2, ha1, ha2, lb0, lc1, lc2, la1, la2, hz1, hz2, lz1, lz2, energy;
    LOAD8(hb0, env->highpass.b0);
    LOAD8(hc1, env->highpass.c1);
    LOAD8(hc2, env->highpass.c2);
    LOAD8(ha1, env->highpass.a1);
    LOAD8(ha2, env->highpass.a2);
    LOAD8(lb0, env->lowpass.b0);
    LOAD8(lc1, env->lowpass.c1);
    LOAD8(lc2, env->lowpass.c2);
    LOAD8(la1, env->lowpass.a1);
    LOAD8(la2, env->lowpass.a2);
    LOAD8(hz1, env->highpass.z1);
    LOAD8(hz2, env->highpass.z2);
    LOAD8(lz1, env->lowpass.z1);
    LOAD8(lz2, env->lowpass.z2);
    LOAD8(energy, env->energy);
    for (size_t i = 0; i < count; i++) {
        const float sample = samples[i];
        const sa_float8 x = {sample, sample, sample, sample, sample, sample, sample, sample};
        const sa_float8 u = hb0 * x + hz1;
        const sa_float8 high_next = (hz2 + hc1 * x) - ha1 * hz1;
        hz2 = hc2 * x - ha2 * hz1;
        hz1 = high_next;
        const sa_float8 y = lb0 * u + lz1;
        const sa_float8 low_next = (lz2 + lc1 * u) - la1 * lz1;
        lz2 = lc2 * u - la2 * lz1;
        lz1 = low_next;
        energy += y * y;
    }
    STORE8(env->highpass.z1, hz1);
    STORE8(env->highpass.z2, hz2);
    STORE8(env->lowpass.z1, lz1);
    STORE8(env->lowpass.z2, lz2);
    STORE8(env->energy, energy);
}

sa_status sa_breath_env_process(sa_breath_env *env, const float *samples, size_t count, float *frames,
                                size_t capacity, size_t *written) {
    if (env == NULL || written == NULL || (count > 0 && samples == NULL) || (capacity > 0 && frames == NULL))
        return SA_ERR_INVALID_ARGUMENT;
    *written = 0;
    if ((env->filled + count) / env->hop > capacity) return SA_ERR_INVALID_ARGUMENT;
    const int bands = env->band_count;
    size_t done = 0;
    while (done < count) {
        const size_t room = env->hop - env->filled;
        const size_t take = count - done < room ? count - done : room;
        filter_run(env, samples + done, take);
        done += take;
        env->filled += take;
        if (env->filled == env->hop) {
            float *frame = frames + (*written) * (size_t)bands;
            for (int b = 0; b < bands; b++) {
                frame[b] = (float)log((double)env->energy[b] / (double)env->hop + 1e-12);
                env->energy[b] = 0.0;
            }
            env->filled = 0;
            (*written)++;
        }
    }
    return SA_OK;
}

void sa_breath_env_reset(sa_breath_env *env) {
    if (env == NULL) return;
    memset(env->highpass.z1, 0, sizeof env->highpass.z1);
    memset(env->highpass.z2, 0, sizeof env->highpass.z2);
    memset(env->lowpass.z1, 0, sizeof env->lowpass.z1);
    memset(env->lowpass.z2, 0, sizeof env->lowpass.z2);
    memset(env->energy, 0, sizeof env->energy);
    env->filled = 0;
}

void sa_breath_env_destroy(sa_breath_env **env) {
    if (env == NULL || *env == NULL) return;
    free(*env);
    *env = NULL;
}

/* ---- Periodicity ----------------------------------------------------------------------------------- */

struct sa_breath_period {
    sa_breath_period_config config;
    size_t max_frames;
    size_t max_channels;
    size_t min_lag;
    size_t search_min_lag; /* min_lag, or half of it with half_cycle_search */
    size_t max_lag;
    size_t acf_lags;     /* lags 0..acf_lags-1 are computed */
    double *prefix;      /* max_frames + 1 */
    double *prefix_count;
    double *y;           /* max_channels * max_frames, prepared channels */
    int *active;         /* max_channels */
    double *acf;         /* max_channels * acf_lags */
    double *weight;      /* max_channels */
    double *summary;     /* acf_lags */
    double *fold;        /* 3 * fold_bins: sum, sum of squares, count */
    size_t fold_bins;
};

sa_breath_period_config sa_breath_period_default_config(double frame_rate) {
    sa_breath_period_config c;
    c.frame_rate = frame_rate;
    c.min_bpm = 6.0;
    c.max_bpm = 30.0;
    c.detrend_seconds = 20.0;
    c.smooth_frames = 3;
    c.peak_fraction = 0.7;
    c.alternation_threshold = 2.0;
    c.half_cycle_search = 0;
    return c;
}

void sa_breath_period_destroy(sa_breath_period **analyser) {
    if (analyser == NULL || *analyser == NULL) return;
    sa_breath_period *a = *analyser;
    free(a->prefix);
    free(a->prefix_count);
    free(a->y);
    free(a->active);
    free(a->acf);
    free(a->weight);
    free(a->summary);
    free(a->fold);
    free(a);
    *analyser = NULL;
}

sa_status sa_breath_period_init(sa_breath_period **out, const sa_breath_period_config *config, size_t max_frames,
                                size_t max_channels) {
    if (out == NULL || config == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    const sa_breath_period_config c = *config;
    if (!(c.frame_rate > 0.0) || !(c.min_bpm > 0.0) || !(c.max_bpm > c.min_bpm) || !(c.detrend_seconds > 0.0) ||
        c.smooth_frames < 1 || !(c.peak_fraction > 0.0 && c.peak_fraction <= 1.0) ||
        !(c.alternation_threshold > 0.0) || (c.half_cycle_search != 0 && c.half_cycle_search != 1) || max_frames < 8 ||
        max_channels < 1)
        return SA_ERR_INVALID_ARGUMENT;
    sa_breath_period *a = calloc(1, sizeof *a);
    if (a == NULL) return SA_ERR_OUT_OF_MEMORY;
    a->config = c;
    a->max_frames = max_frames;
    a->max_channels = max_channels;
    a->min_lag = (size_t)fmax(2.0, floor(c.frame_rate * 60.0 / c.max_bpm));
    a->search_min_lag = c.half_cycle_search ? (a->min_lag / 2 > 2 ? a->min_lag / 2 : 2) : a->min_lag;
    a->max_lag = (size_t)ceil(c.frame_rate * 60.0 / c.min_bpm);
    a->acf_lags = 2 * a->max_lag + 20;
    a->fold_bins = 2 * a->max_lag + 16;
    a->prefix = calloc(max_frames + 1, sizeof(double));
    a->prefix_count = calloc(max_frames + 1, sizeof(double));
    a->y = calloc(max_frames * max_channels, sizeof(double));
    a->active = calloc(max_channels, sizeof(int));
    a->acf = calloc(a->acf_lags * max_channels, sizeof(double));
    a->weight = calloc(max_channels, sizeof(double));
    a->summary = calloc(a->acf_lags, sizeof(double));
    a->fold = calloc(3 * a->fold_bins, sizeof(double));
    if (!a->prefix || !a->prefix_count || !a->y || !a->active || !a->acf || !a->weight || !a->summary || !a->fold) {
        sa_breath_period_destroy(&a);
        return SA_ERR_OUT_OF_MEMORY;
    }
    *out = a;
    return SA_OK;
}

/* Removes a centred moving average (over valid frames) and smooths: a->y[ch] gets the result, 0 where invalid. */
static int prepare_channel(sa_breath_period *a, const float *frames, size_t n, size_t channels, size_t ch,
                           const uint8_t *mask) {
    double *y = a->y + ch * a->max_frames;
    a->prefix[0] = 0.0;
    a->prefix_count[0] = 0.0;
    for (size_t t = 0; t < n; t++) {
        const int valid = mask == NULL || mask[t];
        a->prefix[t + 1] = a->prefix[t] + (valid ? (double)frames[t * channels + ch] : 0.0);
        a->prefix_count[t + 1] = a->prefix_count[t] + (valid ? 1.0 : 0.0);
    }
    const size_t half = (size_t)(a->config.detrend_seconds * a->config.frame_rate / 2.0);
    for (size_t t = 0; t < n; t++) {
        if (mask != NULL && !mask[t]) {
            y[t] = 0.0;
            continue;
        }
        const size_t lo = t > half ? t - half : 0;
        const size_t hi = t + half + 1 < n ? t + half + 1 : n;
        const double count = a->prefix_count[hi] - a->prefix_count[lo];
        y[t] = (double)frames[t * channels + ch] - (a->prefix[hi] - a->prefix[lo]) / count;
    }
    /* Smooth with a centred moving average, reusing the prefix buffers. */
    const size_t s = (size_t)a->config.smooth_frames / 2;
    a->prefix[0] = 0.0;
    a->prefix_count[0] = 0.0;
    for (size_t t = 0; t < n; t++) {
        const int valid = mask == NULL || mask[t];
        a->prefix[t + 1] = a->prefix[t] + y[t];
        a->prefix_count[t + 1] = a->prefix_count[t] + (valid ? 1.0 : 0.0);
    }
    double sum = 0.0, sum2 = 0.0, used = 0.0;
    for (size_t t = 0; t < n; t++) {
        if (mask != NULL && !mask[t]) continue;
        const size_t lo = t > s ? t - s : 0;
        const size_t hi = t + s + 1 < n ? t + s + 1 : n;
        y[t] = (a->prefix[hi] - a->prefix[lo]) / (a->prefix_count[hi] - a->prefix_count[lo]);
        sum += y[t];
        sum2 += y[t] * y[t];
        used += 1.0;
    }
    if (used < 8.0) return 0;
    const double mean = sum / used;
    return sum2 / used - mean * mean > 1e-8;
}

/* Normalised autocorrelation of one prepared channel for lags 0..lags-1 (0 past the window). */
static void channel_acf(const double *y, size_t n, double *r, size_t lags) {
    for (size_t lag = 0; lag < lags; lag++) {
        if (lag + 2 >= n) {
            r[lag] = 0.0;
            continue;
        }
        double ab = 0.0, aa = 0.0, bb = 0.0;
        for (size_t t = 0; t + lag < n; t++) {
            ab += y[t] * y[t + lag];
            aa += y[t] * y[t];
            bb += y[t + lag] * y[t + lag];
        }
        const double d = sqrt(aa * bb);
        r[lag] = d > 0.0 ? ab / d : 0.0;
    }
}

/* The peak position refined by a parabola through its neighbours. */
static double refine_peak(const double *r, size_t lag) {
    const double a = r[lag - 1], b = r[lag], c = r[lag + 1];
    const double d = a - 2.0 * b + c;
    double offset = d != 0.0 ? 0.5 * (a - c) / d : 0.0;
    if (offset > 0.5) offset = 0.5;
    if (offset < -0.5) offset = -0.5;
    return (double)lag + offset;
}

/* The highest lag of r within 4 of center (center must leave room: 5 <= center, center + 5 < lags). */
static size_t peak_near(const double *r, size_t center) {
    size_t peak = center - 4;
    for (size_t lag = center - 4; lag <= center + 4; lag++)
        if (r[lag] > r[peak]) peak = lag;
    return peak;
}

/* Ratio of the squared difference between the two halves of the cycle folded at `period` (frames) to its
 * expected value if both halves were alike: about 1 for a signal whose true period is period / 2. */
static double alternation_ratio(sa_breath_period *a, size_t n, size_t channels, const uint8_t *mask, double period) {
    size_t bins = (size_t)lround(period);
    if (bins % 2) bins++;
    if (bins < 4 || bins > a->fold_bins) return 0.0;
    const size_t half = bins / 2;
    double numerator = 0.0, denominator = 0.0;
    for (size_t ch = 0; ch < channels; ch++) {
        if (!a->active[ch]) continue;
        const double *y = a->y + ch * a->max_frames;
        double *sum = a->fold, *sum2 = a->fold + a->fold_bins, *count = a->fold + 2 * a->fold_bins;
        memset(a->fold, 0, 3 * a->fold_bins * sizeof(double));
        for (size_t t = 0; t < n; t++) {
            if (mask != NULL && !mask[t]) continue;
            size_t bin = (size_t)(fmod((double)t, period) / period * (double)bins);
            if (bin >= bins) bin = bins - 1;
            sum[bin] += y[t];
            sum2[bin] += y[t] * y[t];
            count[bin] += 1.0;
        }
        for (size_t k = 0; k < half; k++) {
            const size_t j = k + half;
            if (count[k] < 2.0 || count[j] < 2.0) continue;
            const double m1 = sum[k] / count[k], m2 = sum[j] / count[j];
            const double v1 = (sum2[k] - count[k] * m1 * m1) / (count[k] - 1.0);
            const double v2 = (sum2[j] - count[j] * m2 * m2) / (count[j] - 1.0);
            numerator += (m1 - m2) * (m1 - m2);
            denominator += v1 / count[k] + v2 / count[j];
        }
    }
    return denominator > 0.0 ? numerator / denominator : 0.0;
}

sa_status sa_breath_period_analyze(sa_breath_period *a, const float *frames, size_t n, size_t channels,
                                   const uint8_t *mask, sa_breath_period_result *result) {
    if (a == NULL || result == NULL || (n > 0 && frames == NULL) || n > a->max_frames || channels < 1 ||
        channels > a->max_channels)
        return SA_ERR_INVALID_ARGUMENT;
    memset(result, 0, sizeof *result);
    size_t valid = 0;
    for (size_t t = 0; t < n; t++) valid += (mask == NULL || mask[t]) ? 1 : 0;
    result->valid_fraction = n > 0 ? (double)valid / (double)n : 0.0;
    if (n < 2 * a->min_lag + 4) return SA_OK;

    const size_t lags = a->acf_lags;
    double weight_sum = 0.0;
    for (size_t ch = 0; ch < channels; ch++) {
        a->active[ch] = prepare_channel(a, frames, n, channels, ch, mask);
        a->weight[ch] = 0.0;
        if (!a->active[ch]) continue;
        double *r = a->acf + ch * lags;
        channel_acf(a->y + ch * a->max_frames, n, r, lags);
        double best = 0.0;
        for (size_t lag = a->min_lag; lag <= a->max_lag && lag < lags; lag++) best = fmax(best, r[lag]);
        a->weight[ch] = best * best;
        weight_sum += a->weight[ch];
    }
    if (!(weight_sum > 0.0)) return SA_OK;
    for (size_t lag = 0; lag < lags; lag++) {
        double s = 0.0;
        for (size_t ch = 0; ch < channels; ch++)
            if (a->weight[ch] > 0.0) s += a->weight[ch] * a->acf[ch * lags + lag];
        a->summary[lag] = s / weight_sum;
    }
    const double *r = a->summary;

    /* The shortest peak in range at least peak_fraction of the highest (the range reaching down to half-cycles with
     * half_cycle_search). */
    const size_t last = a->max_lag + 1 < lags ? a->max_lag : lags - 2;
    double highest = 0.0;
    for (size_t lag = a->search_min_lag; lag <= last; lag++)
        if (r[lag] > 0.0 && r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1]) highest = fmax(highest, r[lag]);
    if (!(highest > 0.0)) return SA_OK;
    size_t chosen = 0;
    for (size_t lag = a->search_min_lag; lag <= last; lag++) {
        const int is_peak = r[lag] > 0.0 && r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1];
        if (is_peak && r[lag] >= a->config.peak_fraction * highest) {
            chosen = lag;
            break;
        }
    }
    double period = refine_peak(r, chosen);
    double score = r[chosen];

    /* Inhale and exhale may both sound: is the true period twice this one? A candidate shorter than the shortest
     * breath is a half-cycle, so its double is the breath. Otherwise fold at the autocorrelation peak near the
     * double and compare the halves. */
    const size_t doubled = (size_t)lround(2.0 * period);
    if (doubled + 5 < lags && doubled >= 5) {
        const size_t peak = peak_near(r, doubled);
        const double doubled_period = refine_peak(r, peak);
        const int half_cycle = chosen < a->min_lag;
        if (!half_cycle) result->alternation = alternation_ratio(a, n, channels, mask, doubled_period);
        if (half_cycle ||
            (result->alternation > a->config.alternation_threshold && (double)peak <= (double)a->max_lag + 5.0)) {
            period = doubled_period;
            score = r[peak];
        }
    }
    /* A breathing rhythm repeats: average the correlation at the period with that at twice the period, which a
     * chance peak of noise rarely has as well. */
    const size_t twice = (size_t)lround(2.0 * period);
    if (twice >= 5 && twice + 5 < lags) score = 0.5 * (score + fmax(0.0, r[peak_near(r, twice)]));
    result->found = 1;
    result->bpm = 60.0 * a->config.frame_rate / period;
    result->score = score;
    return SA_OK;
}
