#include "sa_event_pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sa_float_policy.h"
#include "sa_vector_dispatch.h"

#define SA_POOL_GLOBALS 16

static const int sa_pool_acf_lags[4] = {3, 6, 12, 25};

struct sa_event_pool {
    int bands;          /* mel bands in */
    int reduced;        /* bands / 2 */
    int max_frames;
    float log_floor;
    double *r;          /* max_frames x reduced */
    double *e;          /* max_frames */
    double *w;          /* max_frames: energy weights */
    double *centroid;   /* max_frames: each frame's spectral centroid */
    double *flatness;   /* max_frames: each frame's flatness */
    /* What sa_event_pool_compute_stream keeps of each frame for the next window, in slot frame % max_frames:
       the frame's number (-1: empty), reduced bands, level, centroid and flatness. */
    long long *kept_frame;
    double *kept_r;
    double *kept_e;
    double *kept_centroid;
    double *kept_flatness;
};

sa_status sa_event_pool_init(sa_event_pool **out, int mel_bands, int max_frames, float log_floor) {
    if (out == NULL || mel_bands < 2 || (mel_bands % 2) != 0 || max_frames < 1) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    sa_event_pool *pool = calloc(1, sizeof(*pool));
    if (pool == NULL) {
        return SA_ERR_OUT_OF_MEMORY;
    }
    pool->bands = mel_bands;
    pool->reduced = mel_bands / 2;
    pool->max_frames = max_frames;
    pool->log_floor = log_floor;
    pool->r = malloc(sizeof(double) * (size_t)max_frames * (size_t)pool->reduced);
    pool->e = malloc(sizeof(double) * (size_t)max_frames);
    pool->w = malloc(sizeof(double) * (size_t)max_frames);
    pool->centroid = malloc(sizeof(double) * (size_t)max_frames);
    pool->flatness = malloc(sizeof(double) * (size_t)max_frames);
    pool->kept_frame = malloc(sizeof(long long) * (size_t)max_frames);
    pool->kept_r = malloc(sizeof(double) * (size_t)max_frames * (size_t)pool->reduced);
    pool->kept_e = malloc(sizeof(double) * (size_t)max_frames);
    pool->kept_centroid = malloc(sizeof(double) * (size_t)max_frames);
    pool->kept_flatness = malloc(sizeof(double) * (size_t)max_frames);
    if (pool->r == NULL || pool->e == NULL || pool->w == NULL || pool->centroid == NULL || pool->flatness == NULL ||
        pool->kept_frame == NULL || pool->kept_r == NULL || pool->kept_e == NULL || pool->kept_centroid == NULL ||
        pool->kept_flatness == NULL) {
        sa_event_pool_destroy(&pool);
        return SA_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < max_frames; i++) pool->kept_frame[i] = -1;
    *out = pool;
    return SA_OK;
}

void sa_event_pool_destroy(sa_event_pool **pool) {
    if (pool == NULL || *pool == NULL) {
        return;
    }
    free((*pool)->r);
    free((*pool)->e);
    free((*pool)->w);
    free((*pool)->centroid);
    free((*pool)->flatness);
    free((*pool)->kept_frame);
    free((*pool)->kept_r);
    free((*pool)->kept_e);
    free((*pool)->kept_centroid);
    free((*pool)->kept_flatness);
    free(*pool);
    *pool = NULL;
}

int sa_event_pool_feature_count(const sa_event_pool *pool) {
    return pool == NULL ? 0 : 5 * pool->reduced + SA_POOL_GLOBALS;
}

static double sa_sqrt_pos(double v) { return v > 0.0 ? sqrt(v) : 0.0; }

/* exp(x) for x <= 0 (a band relative to the frame's loudest band), branch-free so that the loop over bands
   vectorises: x = n ln 2 + r with |r| <= ln 2 / 2, exp(r) by its degree-6 Taylor polynomial (relative error
   below 3e-7), 2^n assembled in the exponent bits; arguments below -87 count as -87. */
static inline float sa_exp_nonpositive(float x) {
    x = x < -87.0f ? -87.0f : x;
    float n = __builtin_roundevenf(x * 1.44269504f);
    float r = x - n * 0.693359375f + n * 2.12194440e-4f;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.66666667e-1f + r * (4.16666667e-2f +
              r * (8.33333333e-3f + r * 1.38888889e-3f)))));
    union { float f; int i; } scale;
    scale.i = ((int)n + 127) << 23;
    return p * scale.f;
}

/* Per frame: spectral centroid (0...1) and flatness (log of mean band energy below the frame level) of the
   reduced bands. */
SA_VECTOR_CLONES
static void sa_frame_shape(const double *restrict row, int nb, double level, double *centroid, double *flatness) {
    double rmax = row[0];
    for (int k = 1; k < nb; k++) {
        if (row[k] > rmax) rmax = row[k];
    }
    float p_sum = 0.0f, pk_sum = 0.0f;
    for (int k = 0; k < nb; k++) {
        float p = sa_exp_nonpositive((float)(row[k] - rmax));
        p_sum += p;
        pk_sum += p * (float)k;
    }
    *centroid = pk_sum / p_sum / nb;
    *flatness = level - (rmax + log(p_sum / nb));
}

SA_VECTOR_CLONES
sa_status sa_event_pool_compute_stream(sa_event_pool *pool, const float *log_mel, const float *dbfs, int frames,
                                       long long first_frame, float *features) {
    if (pool == NULL || log_mel == NULL || dbfs == NULL || features == NULL || frames < 1 ||
        frames > pool->max_frames) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    const int nb = pool->reduced;
    const double floor_value = pool->log_floor;
    double *r = pool->r;
    double *e = pool->e;
    double *centroid = pool->centroid;
    double *flatness = pool->flatness;
    double e_max = -INFINITY, e_min = INFINITY, m = 0.0;
    for (int t = 0; t < frames; t++) {
        /* A frame the previous window already reduced is taken from what it kept (the same values). */
        const long long number = first_frame < 0 ? -1 : first_frame + t;
        const size_t slot = number < 0 ? 0 : (size_t)(number % pool->max_frames);
        if (number >= 0 && pool->kept_frame[slot] == number) {
            memcpy(r + (size_t)t * nb, pool->kept_r + slot * nb, sizeof(double) * (size_t)nb);
            e[t] = pool->kept_e[slot];
            centroid[t] = pool->kept_centroid[slot];
            flatness[t] = pool->kept_flatness[slot];
        } else {
            const float *row = log_mel + (size_t)t * (size_t)pool->bands;
            double sum = 0.0;
            for (int k = 0; k < nb; k++) {
                double a = row[2 * k] < floor_value ? floor_value : row[2 * k];
                double b = row[2 * k + 1] < floor_value ? floor_value : row[2 * k + 1];
                double v = 0.5 * (a + b);
                r[(size_t)t * nb + k] = v;
                sum += v;
            }
            e[t] = sum / nb;
            sa_frame_shape(r + (size_t)t * nb, nb, e[t], &centroid[t], &flatness[t]);
            if (number >= 0) {
                pool->kept_frame[slot] = number;
                memcpy(pool->kept_r + slot * nb, r + (size_t)t * nb, sizeof(double) * (size_t)nb);
                pool->kept_e[slot] = e[t];
                pool->kept_centroid[slot] = centroid[t];
                pool->kept_flatness[slot] = flatness[t];
            }
        }
        m += e[t];
        if (e[t] > e_max) e_max = e[t];
        if (e[t] < e_min) e_min = e[t];
    }
    m /= frames;

    /* Energy weights for the weighted spectrum: exp(2 (e - e_max)). */
    double *w = pool->w;
    double w_sum = 0.0, ew = 0.0;
    for (int t = 0; t < frames; t++) {
        w[t] = exp(2.0 * (e[t] - e_max));
        w_sum += w[t];
        ew += w[t] * e[t];
    }
    ew /= w_sum;

    float *f1 = features, *f2 = features + nb, *f3 = features + 2 * nb, *f4 = features + 3 * nb;
    float *f5 = features + 4 * nb;
    for (int k = 0; k < nb; k++) {
        double s = 0.0, s2 = 0.0, mx = -INFINITY, dsum = 0.0, ws = 0.0;
        for (int t = 0; t < frames; t++) {
            double v = r[(size_t)t * nb + k];
            s += v;
            s2 += v * v;
            if (v > mx) mx = v;
            if (t > 0) dsum += fabs(v - r[(size_t)(t - 1) * nb + k]);
            ws += w[t] * v;
        }
        double mean = s / frames;
        f1[k] = (float)(mean - m);
        f2[k] = (float)sa_sqrt_pos(s2 / frames - mean * mean);
        f3[k] = (float)(mx - mean);
        f4[k] = frames > 1 ? (float)(dsum / (frames - 1)) : 0.0f;
        f5[k] = (float)(ws / w_sum - ew);
    }

    double e2 = 0.0, de = 0.0, c_s = 0.0, c_s2 = 0.0, fl_s = 0.0, fl_s2 = 0.0, loud = 0.0;
    for (int t = 0; t < frames; t++) {
        e2 += e[t] * e[t];
        if (t > 0) de += fabs(e[t] - e[t - 1]);
        const double c = centroid[t], flat = flatness[t];
        c_s += c;
        c_s2 += c * c;
        fl_s += flat;
        fl_s2 += flat * flat;
        if (e[t] > m + 1.0) loud += 1.0;
    }
    float *g = features + 5 * nb;
    g[0] = (float)sa_sqrt_pos(e2 / frames - m * m);
    g[1] = (float)(e_max - m);
    g[2] = (float)(m - e_min);
    g[3] = frames > 1 ? (float)(de / (frames - 1)) : 0.0f;
    double c_mean = c_s / frames, fl_mean = fl_s / frames;
    g[4] = (float)c_mean;
    g[5] = (float)sa_sqrt_pos(c_s2 / frames - c_mean * c_mean);
    g[6] = (float)fl_mean;
    g[7] = (float)sa_sqrt_pos(fl_s2 / frames - fl_mean * fl_mean);
    double var = 0.0;
    for (int t = 0; t < frames; t++) var += (e[t] - m) * (e[t] - m);
    for (int i = 0; i < 4; i++) {
        int lag = sa_pool_acf_lags[i];
        double acc = 0.0;
        if (frames > lag && var > 1e-9) {
            for (int t = 0; t + lag < frames; t++) acc += (e[t] - m) * (e[t + lag] - m);
            acc /= var;
        }
        g[8 + i] = (float)acc;
    }
    g[12] = (float)(loud / frames);
    g[13] = (float)(m / 10.0);
    double d_sum = 0.0, d_max = -INFINITY;
    for (int t = 0; t < frames; t++) {
        d_sum += dbfs[t];
        if (dbfs[t] > d_max) d_max = dbfs[t];
    }
    g[14] = (float)(d_sum / frames / 20.0);
    g[15] = (float)(d_max / 20.0);
    return SA_OK;
}

sa_status sa_event_pool_compute(sa_event_pool *pool, const float *log_mel, const float *dbfs, int frames,
                                float *features) {
    return sa_event_pool_compute_stream(pool, log_mel, dbfs, frames, -1, features);
}
