/* Breathing-rate DSP: band-energy envelope and periodicity analysis. See include/sa_breathing.h. */
#include "sa_breathing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sa_mel.h"
#include "sa_vector_dispatch.h"
#include "sa_float_policy.h"
#include "sa_fast_exp.h"

/* ---- Envelope -------------------------------------------------------------------------------------- */

/* Each band is a Butterworth high-pass and low-pass pair (second-order sections from the RBJ cookbook). Its energy
   is not filtered out of the samples: the front end's power spectrum already holds it, summed into mel bands. A
   band's mean square over a frame is, by Parseval, sum_k |H(f_k)|^2 P_k times 2 / (N * window energy) for an
   N-point spectrum P of a Hann-windowed frame. Slaney's mel triangles (area-normalised) add up to 1 between the
   first and last peaks once each is scaled back by its half-width (edges[m + 2] - edges[m]) / 2, so weighting
   mel band m by |H(peak of m)|^2 times that half-width applies |H|^2 interpolated linearly between the mel peaks
   (every 46 Hz below 1 kHz, 5 % apart above). The envelope frame averages whole front-end frames. */

struct sa_breath_env {
    int band_count;
    size_t mel_bands;
    size_t frames_per_envelope; /* front-end frames per envelope frame */
    size_t filled;              /* front-end frames summed into the frame in progress */
    float log_floor;            /* the front end's floor, added to each mel energy before its log */
    double *weights;            /* band_count x mel_bands */
    float *sum;                 /* mel_bands: energy of the frame in progress per mel band */
};

static const double band_edges[SA_BREATH_MAX_BANDS + 1] = {150.0, 300.0, 600.0, 1200.0, 2400.0, 4800.0, 7000.0};

/* |H(f)|^2 of a Butterworth (Q = 1/sqrt 2) second-order section from the RBJ cookbook. */
static double section_gain(double sample_rate, double cutoff, int highpass, double frequency) {
    const double w0 = 2.0 * M_PI * cutoff / sample_rate;
    const double alpha = sin(w0) / (2.0 * M_SQRT1_2);
    const double c = cos(w0);
    const double a0 = 1.0 + alpha;
    const double b0 = (highpass ? (1.0 + c) : (1.0 - c)) / 2.0 / a0;
    const double b1 = (highpass ? -(1.0 + c) : (1.0 - c)) / a0;
    const double b2 = b0;
    const double a1 = -2.0 * c / a0;
    const double a2 = (1.0 - alpha) / a0;
    const double w = 2.0 * M_PI * frequency / sample_rate;
    const double num_re = b0 + b1 * cos(w) + b2 * cos(2.0 * w), num_im = -(b1 * sin(w) + b2 * sin(2.0 * w));
    const double den_re = 1.0 + a1 * cos(w) + a2 * cos(2.0 * w), den_im = -(a1 * sin(w) + a2 * sin(2.0 * w));
    return (num_re * num_re + num_im * num_im) / (den_re * den_re + den_im * den_im);
}

void sa_breath_env_destroy(sa_breath_env **env) {
    if (env == NULL || *env == NULL) return;
    free((*env)->weights);
    free((*env)->sum);
    free(*env);
    *env = NULL;
}

sa_status sa_breath_env_init(sa_breath_env **out, const sa_front_end_config *front_end, size_t frames_per_envelope) {
    if (out == NULL || front_end == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    const double rate = front_end->sample_rate;
    const size_t n = front_end->fft_size, bands = front_end->mel_band_count;
    if (!(rate >= 4000.0) || n < 2 || bands < 1 || frames_per_envelope < 1 || !(front_end->log_floor >= 0.0f) ||
        !(front_end->mel_low_hz >= 0.0) || !(front_end->mel_high_hz > front_end->mel_low_hz))
        return SA_ERR_INVALID_ARGUMENT;
    sa_breath_env *env = calloc(1, sizeof *env);
    if (env == NULL) return SA_ERR_OUT_OF_MEMORY;
    env->mel_bands = bands;
    env->frames_per_envelope = frames_per_envelope;
    env->log_floor = front_end->log_floor;
    env->weights = calloc(SA_BREATH_MAX_BANDS * bands, sizeof(double));
    env->sum = calloc(bands, sizeof(float));
    double *edges = malloc((bands + 2) * sizeof(double));
    if (env->weights == NULL || env->sum == NULL || edges == NULL) {
        free(edges);
        sa_breath_env_destroy(&env);
        return SA_ERR_OUT_OF_MEMORY;
    }
    sa_mel_edges_hz(bands, front_end->mel_low_hz, front_end->mel_high_hz, edges);
    const double window_energy = 3.0 * (double)n / 8.0; /* a periodic Hann window's sum of squares */
    const double parseval = 2.0 / ((double)n * window_energy);
    const double top = 0.45 * rate;
    for (int b = 0; b < SA_BREATH_MAX_BANDS; b++) {
        const double low = band_edges[b];
        const double high = fmin(band_edges[b + 1], top);
        if (high < 1.5 * low) break;
        for (size_t m = 0; m < bands; m++) {
            const double peak = edges[m + 1], half_width = (edges[m + 2] - edges[m]) / 2.0;
            const double gain = section_gain(rate, low, 1, peak) * section_gain(rate, high, 0, peak);
            env->weights[(size_t)b * bands + m] = gain * half_width * parseval;
        }
        env->band_count++;
    }
    free(edges);
    *out = env;
    return SA_OK;
}

int sa_breath_env_band_count(const sa_breath_env *env) { return env != NULL ? env->band_count : 0; }

/* Adds one front-end frame's mel energies (its log energies, exponentiated, less the floor) to sum. */
SA_VECTOR_CLONES
static void add_frame(float *restrict sum, const float *restrict log_mel, size_t bands, float floor) {
    for (size_t m = 0; m < bands; m++) sum[m] += fast_exp(log_mel[m]) - floor;
}

sa_status sa_breath_env_process(sa_breath_env *env, const float *log_mel, size_t count, float *frames,
                                size_t capacity, size_t *written) {
    if (env == NULL || written == NULL || (count > 0 && log_mel == NULL) || (capacity > 0 && frames == NULL))
        return SA_ERR_INVALID_ARGUMENT;
    *written = 0;
    if ((env->filled + count) / env->frames_per_envelope > capacity) return SA_ERR_INVALID_ARGUMENT;
    const size_t mel_bands = env->mel_bands;
    for (size_t i = 0; i < count; i++) {
        add_frame(env->sum, log_mel + i * mel_bands, mel_bands, env->log_floor);
        if (++env->filled < env->frames_per_envelope) continue;
        float *frame = frames + (*written) * (size_t)env->band_count;
        for (int b = 0; b < env->band_count; b++) {
            const double *w = env->weights + (size_t)b * mel_bands;
            double energy = 0.0;
            for (size_t m = 0; m < mel_bands; m++) energy += w[m] * (double)fmaxf(env->sum[m], 0.0f);
            frame[b] = (float)log(energy / (double)env->frames_per_envelope + 1e-12);
        }
        memset(env->sum, 0, mel_bands * sizeof(float));
        env->filled = 0;
        (*written)++;
    }
    return SA_OK;
}

void sa_breath_env_reset(sa_breath_env *env) {
    if (env == NULL) return;
    memset(env->sum, 0, env->mel_bands * sizeof(float));
    env->filled = 0;
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
    double *prefix;      /* max_frames + 1: running sums (prepare_channel), then of squares (channel_acf) */
    double *prefix_count;
    double *y;           /* max_channels * max_frames, prepared channels */
    int *active;         /* max_channels */
    double *acf;         /* max_channels * acf_lags */
    double *weight;      /* max_channels */
    double *summary;     /* acf_lags */
    double *fold;        /* 3 * fold_bins: sum, sum of squares, count */
    size_t fold_bins;
    int summary_ready;   /* summary holds the last analysed window's autocorrelation */
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
    c.harmonic_fraction = 0.6;
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
        !(c.alternation_threshold > 0.0) || (c.half_cycle_search != 0 && c.half_cycle_search != 1) ||
        !(c.harmonic_fraction >= 0.0 && c.harmonic_fraction <= 1.0) || max_frames < 8 ||
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

/* Normalised autocorrelation of one prepared channel for lags 0..lags-1 (0 past the window). The energies of the
   two overlapping parts come from running sums of squares (squares: n + 1 values), so each lag costs one
   multiply-add per frame. */
SA_VECTOR_CLONES
static void channel_acf(const double *y, size_t n, double *r, size_t lags, double *squares) {
    squares[0] = 0.0;
    for (size_t t = 0; t < n; t++) squares[t + 1] = squares[t] + y[t] * y[t];
    for (size_t lag = 0; lag < lags; lag++) {
        if (lag + 2 >= n) {
            r[lag] = 0.0;
            continue;
        }
        double ab = 0.0;
        for (size_t t = 0; t + lag < n; t++) ab += y[t] * y[t + lag];
        const double aa = squares[n - lag], bb = squares[n] - squares[lag];
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

/* The local peak of r nearest to lag `center` within +-`reach` lags (reach >= 1), or 0 when there is none inside
 * 1..lags-2. */
static size_t local_peak(const double *r, size_t lags, double center, double reach) {
    const double lo = fmax(1.0, floor(center - reach)), hi = fmin((double)lags - 2.0, ceil(center + reach));
    size_t best = 0;
    for (size_t lag = (size_t)lo; (double)lag <= hi; lag++) {
        if (r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1] && (best == 0 || fabs((double)lag - center) <
                                                                     fabs((double)best - center)))
            best = lag;
    }
    return best;
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
    a->summary_ready = 0;
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
        channel_acf(a->y + ch * a->max_frames, n, r, lags, a->prefix);
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
    /* Sub-harmonic check: a period that is k times the breath (a louder breath every second or third one, or a
     * half-cycle wrongly doubled) still has peaks at every multiple of the true period. When each multiple of
     * period / k below the period has a peak at least harmonic_fraction of the one at the period, the breath is
     * period / k; for k = 2 the halves of the cycle folded at the period must also be alike (else inhale and
     * exhale differ and the period is the breath). k = 3 first, so a tripled period is not only halved. */
    result->harmonic = 1;
    if (a->config.harmonic_fraction > 0.0) {
        const double at_period = r[(size_t)lround(period)];
        for (int k = 3; k >= 2 && at_period > 0.0; k--) {
            const double q = period / (double)k;
            if (q < (double)a->min_lag || q + 2.0 >= (double)lags) continue;
            int supported = 1;
            for (int j = 1; j < k && supported; j++) {
                const size_t peak = local_peak(r, lags, q * j, fmax(1.0, 0.12 * q));
                supported = peak != 0 && r[peak] >= a->config.harmonic_fraction * at_period;
            }
            if (!supported) continue;
            if (k == 2 && alternation_ratio(a, n, channels, mask, period) > a->config.alternation_threshold) continue;
            const size_t peak = local_peak(r, lags, q, fmax(1.0, 0.12 * q));
            period = refine_peak(r, peak);
            score = r[peak];
            result->harmonic = k;
            break;
        }
    }
    /* A breathing rhythm repeats: average the correlation at the period with that at twice the period, which a
     * chance peak of noise rarely has as well. */
    const size_t twice = (size_t)lround(2.0 * period);
    if (twice >= 5 && twice + 5 < lags) score = 0.5 * (score + fmax(0.0, r[peak_near(r, twice)]));
    result->found = 1;
    result->bpm = 60.0 * a->config.frame_rate / period;
    result->score = score;
    a->summary_ready = 1;
    return SA_OK;
}

int sa_breath_period_rate_near(const sa_breath_period *a, double bpm, double tolerance, double *out_bpm,
                               double *out_score) {
    if (a == NULL || out_bpm == NULL || out_score == NULL || !a->summary_ready || !(bpm > 0.0) ||
        !(tolerance > 0.0 && tolerance < 1.0))
        return 0;
    const double center = 60.0 * a->config.frame_rate / bpm;
    if (center < (double)a->min_lag - 1.0 || center > (double)a->max_lag + 1.0) return 0;
    const double *r = a->summary;
    const size_t peak = local_peak(r, a->acf_lags, center, fmax(1.0, tolerance * center));
    if (peak < 2 || !(r[peak] > 0.0)) return 0;
    const double period = refine_peak(r, peak);
    double score = r[peak];
    const size_t twice = (size_t)lround(2.0 * period);
    if (twice >= 5 && twice + 5 < a->acf_lags) score = 0.5 * (score + fmax(0.0, r[peak_near(r, twice)]));
    *out_bpm = 60.0 * a->config.frame_rate / period;
    *out_score = score;
    return 1;
}
