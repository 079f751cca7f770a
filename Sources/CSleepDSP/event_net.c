#include "sa_event_net.h"

#include <stdlib.h>
#include <string.h>
#include "sa_mlp.h"
#include "winograd.h"
#include "sa_float_policy.h"
#include "sa_vector_dispatch.h"

/* Time steps computed together by the convolution: each weight load serves this many steps, and their
 * 2 x SA_CONV_STEPS accumulators keep the multiply-add units busy (two accumulators alone wait on latency). */
#define SA_CONV_STEPS 4
/* Bands computed together by a 3 x 3 convolution block: 4 with 16 output channels (8 accumulators), 8 with 8
 * output channels, so that a layer with 8 channels (the first, from one input channel) also keeps 8 sums in
 * flight instead of waiting on the latency of 4. */
#define SA_CONV3X3_BANDS_MAX 8

struct sa_event_net {
    sa_event_net_shape shape;
    int in_bands;                              /* mel_bands / band_group */
    int steps;                                 /* window_frames / frame_group */
    int in_channels[SA_EVENT_NET_MAX_CONVS];
    int steps_of[SA_EVENT_NET_MAX_CONVS];      /* time steps entering each convolution */
    float *conv_w[SA_EVENT_NET_MAX_CONVS];     /* taps x in x out: the output channel varies fastest */
    float *conv_b[SA_EVENT_NET_MAX_CONVS];
    float *winograd_u[SA_EVENT_NET_MAX_CONVS]; /* transformed kernels of the band-and-time layers that take the
                                                  Winograd path (winograd.h), NULL for the others */
    float *winograd_scratch;
    float *patch_mean;
    float *patch_inv_std;
    float *buffer_a;                           /* time-major activations */
    float *buffer_b;
    float *summary;                            /* 2 x last channels + stat_count */
    float *band_sums;                          /* mel_bands: one patch step's frames summed */
    float *padded;                             /* the convolution's zero-padded input (see sa_conv3_relu) */
    float *input;                              /* the standardised patch of sa_event_net_forward */
    sa_mlp *dense;
};

static int sa_positive(const float *v, int n) {
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0.0f)) return 0;
    }
    return 1;
}

static int sa_shape_valid(const sa_event_net_shape *s) {
    if (s->band_group < 1 || s->frame_group < 1 || s->mel_bands < s->band_group || s->window_frames < s->frame_group ||
        s->mel_bands % s->band_group != 0 || s->window_frames % s->frame_group != 0 || s->conv_count < 1 ||
        s->conv_count > SA_EVENT_NET_MAX_CONVS || s->stat_count < 0 || s->dense_count < 1 || s->dense_sizes == NULL) {
        return 0;
    }
    if (s->band_time != 0 && s->band_time != 1) return 0;
    int steps = s->window_frames / s->frame_group;
    int bands = s->band_time ? s->mel_bands / s->band_group : 1;
    for (int l = 0; l < s->conv_count; l++) {
        if (s->conv_channels[l] < 1 || steps < 1 || bands < 1) return 0;
        if (l + 1 < s->conv_count) {
            steps /= 2;
            if (s->band_time) bands /= 2;
        }
    }
    return steps >= 1 && bands >= 1;
}

/* Kernel taps per input channel: 3 along time, or 3 x 3 along band and time. */
static int sa_taps(const sa_event_net_shape *s) { return s->band_time ? 9 : 3; }

/* Copies one convolution's weights from the training layout into the inner loop's (taps x in x out, the output
 * channel fastest). Training layout: out x in x 3 (time), or out x in x 3 (band) x 3 (time); tap kt * 3 + kb in
 * C is band offset kb and time offset kt. */
static void sa_copy_conv_weights(float *restrict to, const float *restrict from, int in_channels, int out_channels,
                                 int band_time) {
    const size_t in = (size_t)in_channels;
    const size_t out = (size_t)out_channels;
    for (size_t o = 0; o < out; o++) {
        for (size_t i = 0; i < in; i++) {
            if (band_time) {
                for (size_t kb = 0; kb < 3; kb++) {
                    for (size_t kt = 0; kt < 3; kt++) {
                        to[((kt * 3 + kb) * in + i) * out + o] = from[((o * in + i) * 3 + kb) * 3 + kt];
                    }
                }
            } else {
                for (size_t k = 0; k < 3; k++) to[(k * in + i) * out + o] = from[(o * in + i) * 3 + k];
            }
        }
    }
}

sa_status sa_event_net_init(sa_event_net **out, const sa_event_net_shape *shape, const float *const *conv_weights,
                            const float *const *conv_biases, const float *patch_mean, const float *patch_std,
                            const float *const *dense_weights, const float *const *dense_biases,
                            const float *stat_mean, const float *stat_std) {
    if (out == NULL || shape == NULL || conv_weights == NULL || conv_biases == NULL || patch_mean == NULL ||
        patch_std == NULL || dense_weights == NULL || dense_biases == NULL ||
        (shape->stat_count > 0 && (stat_mean == NULL || stat_std == NULL)) || !sa_shape_valid(shape)) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    for (int l = 0; l < shape->conv_count; l++) {
        if (conv_weights[l] == NULL || conv_biases[l] == NULL) return SA_ERR_INVALID_ARGUMENT;
    }
    int in_bands = shape->mel_bands / shape->band_group;
    if (!sa_positive(patch_std, in_bands) || (shape->stat_count > 0 && !sa_positive(stat_std, shape->stat_count))) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    sa_event_net *net = calloc(1, sizeof(*net));
    if (net == NULL) return SA_ERR_OUT_OF_MEMORY;
    net->shape = *shape;
    net->shape.dense_sizes = NULL;
    net->in_bands = in_bands;
    net->steps = shape->window_frames / shape->frame_group;
    size_t widest = (size_t)net->steps * (size_t)in_bands;
    size_t padded_size = 0;
    size_t winograd_scratch = 0;
    int steps = net->steps;
    int bands = shape->band_time ? in_bands : 1;
    int channels = shape->band_time ? 1 : in_bands;
    int ok = 1;
    for (int l = 0; l < shape->conv_count && ok; l++) {
        int out_channels = shape->conv_channels[l];
        net->in_channels[l] = channels;
        net->steps_of[l] = steps;
        size_t count = (size_t)sa_taps(shape) * (size_t)channels * (size_t)out_channels;
        net->conv_w[l] = malloc(sizeof(float) * count);
        net->conv_b[l] = malloc(sizeof(float) * (size_t)out_channels);
        ok = net->conv_w[l] != NULL && net->conv_b[l] != NULL;
        if (ok) {
            sa_copy_conv_weights(net->conv_w[l], conv_weights[l], channels, out_channels, shape->band_time);
            memcpy(net->conv_b[l], conv_biases[l], sizeof(float) * (size_t)out_channels);
        }
        if (ok && shape->band_time && sa_winograd_applies(channels, out_channels)) {
            net->winograd_u[l] = malloc(sizeof(float) * sa_winograd_weight_count(channels, out_channels));
            ok = net->winograd_u[l] != NULL;
            if (ok) sa_winograd_weights(net->conv_w[l], channels, out_channels, net->winograd_u[l]);
            size_t scratch = sa_winograd_scratch_count(steps, bands, channels, out_channels);
            if (scratch > winograd_scratch) winograd_scratch = scratch;
        }
        size_t activations = (size_t)steps * (size_t)bands * (size_t)out_channels;
        if (activations > widest) widest = activations;
        /* Over time: steps + 2 padded rows and SA_CONV_STEPS spare ones. Over band and time: steps + 2 rows of
         * bands + 2 padded columns and SA_CONV3X3_BANDS_MAX spare ones. */
        size_t padded_input = shape->band_time
                                  ? (size_t)(steps + 2) * (size_t)(bands + 2 + SA_CONV3X3_BANDS_MAX) * (size_t)channels
                                  : (size_t)(steps + 2 + SA_CONV_STEPS) * (size_t)channels;
        if (padded_input > padded_size) padded_size = padded_input;
        channels = out_channels;
        if (l + 1 < shape->conv_count) {
            steps /= 2;
            if (shape->band_time) bands /= 2;
        }
    }
    int summary_width = 2 * channels + shape->stat_count;
    net->patch_mean = malloc(sizeof(float) * (size_t)in_bands);
    net->patch_inv_std = malloc(sizeof(float) * (size_t)in_bands);
    net->buffer_a = malloc(sizeof(float) * widest);
    net->buffer_b = malloc(sizeof(float) * widest);
    net->summary = malloc(sizeof(float) * (size_t)summary_width);
    net->band_sums = malloc(sizeof(float) * (size_t)shape->mel_bands);
    net->padded = malloc(sizeof(float) * padded_size);
    net->input = malloc(sizeof(float) * (size_t)net->steps * (size_t)in_bands);
    if (ok && winograd_scratch > 0) {
        net->winograd_scratch = malloc(sizeof(float) * winograd_scratch);
        ok = net->winograd_scratch != NULL;
    }
    float *mean = calloc((size_t)summary_width, sizeof(float));
    float *std = malloc(sizeof(float) * (size_t)summary_width);
    int *sizes = malloc(sizeof(int) * (size_t)(shape->dense_count + 1));
    ok = ok && net->patch_mean != NULL && net->patch_inv_std != NULL && net->buffer_a != NULL &&
         net->buffer_b != NULL && net->summary != NULL && net->band_sums != NULL && net->padded != NULL &&
         net->input != NULL && mean != NULL && std != NULL && sizes != NULL;
    sa_status status = ok ? SA_OK : SA_ERR_OUT_OF_MEMORY;
    if (ok) {
        for (int b = 0; b < in_bands; b++) {
            net->patch_mean[b] = patch_mean[b];
            net->patch_inv_std[b] = 1.0f / patch_std[b];
        }
        for (int i = 0; i < 2 * channels; i++) std[i] = 1.0f;
        for (int i = 0; i < shape->stat_count; i++) {
            mean[2 * channels + i] = stat_mean[i];
            std[2 * channels + i] = stat_std[i];
        }
        sizes[0] = summary_width;
        memcpy(sizes + 1, shape->dense_sizes, sizeof(int) * (size_t)shape->dense_count);
        status = sa_mlp_init(&net->dense, shape->dense_count, sizes, dense_weights, dense_biases, mean, std);
    }
    free(mean);
    free(std);
    free(sizes);
    if (status != SA_OK) {
        sa_event_net_destroy(&net);
        return status;
    }
    *out = net;
    return SA_OK;
}

void sa_event_net_destroy(sa_event_net **net) {
    if (net == NULL || *net == NULL) return;
    for (int l = 0; l < SA_EVENT_NET_MAX_CONVS; l++) {
        free((*net)->conv_w[l]);
        free((*net)->conv_b[l]);
        free((*net)->winograd_u[l]);
    }
    free((*net)->winograd_scratch);
    free((*net)->patch_mean);
    free((*net)->patch_inv_std);
    free((*net)->buffer_a);
    free((*net)->buffer_b);
    free((*net)->summary);
    free((*net)->band_sums);
    free((*net)->padded);
    free((*net)->input);
    sa_mlp_destroy(&(*net)->dense);
    free(*net);
    *net = NULL;
}

SA_VECTOR_CLONES
sa_status sa_event_net_patch(const sa_event_net *net, const float *log_mel, int frames, float *patch) {
    if (net == NULL || log_mel == NULL || patch == NULL || frames < 1 || frames > net->shape.window_frames) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    const int bands = net->shape.mel_bands;
    const int bg = net->shape.band_group;
    const int fg = net->shape.frame_group;
    const float floor_value = net->shape.log_floor;
    const float scale = 1.0f / (float)(bg * fg);
    float *restrict sums = net->band_sums;
    double total = 0.0;
    for (int t = 0; t < net->steps; t++) {
        for (int b = 0; b < bands; b++) sums[b] = 0.0f;
        for (int f = t * fg; f < (t + 1) * fg; f++) {
            if (f >= frames) {
                for (int b = 0; b < bands; b++) sums[b] += floor_value;
                continue;
            }
            const float *restrict frame = log_mel + (size_t)f * (size_t)bands;
            for (int b = 0; b < bands; b++) sums[b] += frame[b] > floor_value ? frame[b] : floor_value;
        }
        float *restrict row = patch + (size_t)t * (size_t)net->in_bands;
        float row_total = 0.0f;
        for (int b = 0; b < net->in_bands; b++) {
            float sum = 0.0f;
            for (int g = 0; g < bg; g++) sum += sums[b * bg + g];
            row[b] = sum * scale;
            row_total += row[b];
        }
        total += row_total;
    }
    const float mean = (float)(total / ((double)net->steps * (double)net->in_bands));
    for (int i = 0; i < net->steps * net->in_bands; i++) patch[i] -= mean;
    return SA_OK;
}

/* out[t][o] = relu(bias[o] + sum_k sum_i w[k][i][o] * in[t + k - 1][i]), zero padding at both ends.
 * `padded` is scratch of (steps + 2 + SA_CONV_STEPS) x in_channels floats: the input with a zero row before and
 * zero rows after, so every block of steps reads in bounds. Output channels go 16 at a time with their sums in
 * registers; a remainder below 16 takes the scalar path. */
SA_VECTOR_CLONES
static void sa_conv3_relu(const float *restrict in, int steps, int in_channels, const float *restrict w,
                          const float *restrict bias, int out_channels, float *restrict padded,
                          float *restrict out) {
    const size_t stride = (size_t)out_channels;
    const size_t width = (size_t)in_channels;
    const int blocked = out_channels - out_channels % 16;
    memset(padded, 0, sizeof(float) * width);
    memcpy(padded + width, in, sizeof(float) * width * (size_t)steps);
    memset(padded + width * (size_t)(steps + 1), 0, sizeof(float) * width * (size_t)(1 + SA_CONV_STEPS));
    for (int t0 = 0; t0 < steps; t0 += SA_CONV_STEPS) {
        const int count = steps - t0 < SA_CONV_STEPS ? steps - t0 : SA_CONV_STEPS;
        for (int o0 = 0; o0 < blocked; o0 += 16) {
            sa_float8 acc[SA_CONV_STEPS][2];
            for (int j = 0; j < SA_CONV_STEPS; j++) {
                memcpy(&acc[j][0], bias + o0, sizeof(acc[j][0]));
                memcpy(&acc[j][1], bias + o0 + 8, sizeof(acc[j][1]));
            }
            for (int k = 0; k < 3; k++) {
                /* Padded row t0 + k holds input step t0 + k - 1. */
                const float *restrict x = padded + (size_t)(t0 + k) * width;
                const float *restrict wk = w + (size_t)k * width * stride + (size_t)o0;
                for (int i = 0; i < in_channels; i++) {
                    sa_float8 w0, w1;
                    const float *restrict wi = wk + (size_t)i * stride;
                    memcpy(&w0, wi, sizeof(w0));
                    memcpy(&w1, wi + 8, sizeof(w1));
                    for (int j = 0; j < SA_CONV_STEPS; j++) {
                        const float xi = x[(size_t)j * width + (size_t)i];
                        acc[j][0] += xi * w0;
                        acc[j][1] += xi * w1;
                    }
                }
            }
            for (int j = 0; j < count; j++) {
                float *restrict y = out + (size_t)(t0 + j) * stride + (size_t)o0;
                memcpy(y, &acc[j][0], sizeof(acc[j][0]));
                memcpy(y + 8, &acc[j][1], sizeof(acc[j][1]));
                for (int o = 0; o < 16; o++) y[o] = y[o] > 0.0f ? y[o] : 0.0f;
            }
        }
        for (int j = 0; j < count; j++) {
            float *restrict y = out + (size_t)(t0 + j) * stride;
            for (int o = blocked; o < out_channels; o++) {
                float acc = bias[o];
                for (int k = 0; k < 3; k++) {
                    const float *restrict x = padded + (size_t)(t0 + j + k) * width;
                    const float *restrict wk = w + (size_t)k * width * stride + (size_t)o;
                    for (int i = 0; i < in_channels; i++) acc += x[i] * wk[(size_t)i * stride];
                }
                y[o] = acc > 0.0f ? acc : 0.0f;
            }
        }
    }
}

/* One block of the 3 x 3 convolution: `vectors` x 8 output channels from o0 on, for `lanes` neighbouring bands
 * from b0 on (both compile-time constants at every call), their sums in registers (each broadcast input value
 * feeds every vector). */
static inline __attribute__((always_inline)) void sa_conv3x3_block(
    const float *restrict padded, size_t row, size_t width, int in_channels, const float *restrict w, size_t stride,
    const float *restrict bias, int t, int b0, int count, int o0, int vectors, int lanes, int bands,
    float *restrict out) {
    sa_float8 acc[SA_CONV3X3_BANDS_MAX][2];
    for (int j = 0; j < lanes; j++) {
        for (int v = 0; v < vectors; v++) memcpy(&acc[j][v], bias + o0 + 8 * v, sizeof(acc[j][v]));
    }
    /* For one time tap kt, the three band taps and the input channels are one run: padded row t + kt holds,
     * from column b0 + j on, bands b0 + j - 1 .. b0 + j + 1 (input step t + kt - 1) channel by channel, and the
     * weights of taps kt * 3 + 0..2 follow each other in the same order. */
    const int run = 3 * in_channels;
    for (int kt = 0; kt < 3; kt++) {
        const float *restrict x = padded + (size_t)(t + kt) * row + (size_t)b0 * width;
        const float *restrict wk = w + (size_t)(kt * 3) * width * stride + (size_t)o0;
        for (int i = 0; i < run; i++) {
            sa_float8 wi[2];
            for (int v = 0; v < vectors; v++) {
                memcpy(&wi[v], wk + (size_t)i * stride + 8 * (size_t)v, sizeof(wi[v]));
            }
            for (int j = 0; j < lanes; j++) {
                const float xi = x[(size_t)j * width + (size_t)i];
                for (int v = 0; v < vectors; v++) acc[j][v] += xi * wi[v];
            }
        }
    }
    for (int j = 0; j < count; j++) {
        float *restrict y = out + ((size_t)t * (size_t)bands + (size_t)(b0 + j)) * stride + (size_t)o0;
        for (int v = 0; v < vectors; v++) memcpy(y + 8 * v, &acc[j][v], sizeof(acc[j][v]));
        for (int o = 0; o < 8 * vectors; o++) y[o] = y[o] > 0.0f ? y[o] : 0.0f;
    }
}

/* Over band and time:
 * out[t][b][o] = relu(bias[o] + sum_{kt, kb, i} w[kt * 3 + kb][i][o] * in[t + kt - 1][b + kb - 1][i]),
 * zero padding on every side; activations are time-major, then band, then channel. `padded` is scratch of
 * (steps + 2) x (bands + 2 + SA_CONV3X3_BANDS_MAX) x in_channels floats. Output channels go 16 at a time for 4
 * neighbouring bands, then 8 at a time for 8 bands; a remainder below 8 takes the scalar path. */
SA_VECTOR_CLONES
static void sa_conv3x3_relu(const float *restrict in, int steps, int bands, int in_channels, const float *restrict w,
                            const float *restrict bias, int out_channels, float *restrict padded,
                            float *restrict out) {
    const size_t stride = (size_t)out_channels;
    const size_t width = (size_t)in_channels;
    const size_t row = (size_t)(bands + 2 + SA_CONV3X3_BANDS_MAX) * width;
    const int wide = out_channels - out_channels % 16;
    const int blocked = out_channels - out_channels % 8;
    memset(padded, 0, sizeof(float) * row * (size_t)(steps + 2));
    for (int t = 0; t < steps; t++) {
        memcpy(padded + (size_t)(t + 1) * row + width, in + (size_t)t * (size_t)bands * width,
               sizeof(float) * (size_t)bands * width);
    }
    for (int t = 0; t < steps; t++) {
        for (int b0 = 0; b0 < bands; b0 += 4) {
            const int count = bands - b0 < 4 ? bands - b0 : 4;
            for (int o0 = 0; o0 < wide; o0 += 16) {
                sa_conv3x3_block(padded, row, width, in_channels, w, stride, bias, t, b0, count, o0, 2, 4, bands, out);
            }
        }
        if (blocked > wide) {
            for (int b0 = 0; b0 < bands; b0 += 8) {
                const int count = bands - b0 < 8 ? bands - b0 : 8;
                sa_conv3x3_block(padded, row, width, in_channels, w, stride, bias, t, b0, count, wide, 1, 8, bands,
                                 out);
            }
        }
        for (int b = 0; b < bands; b++) {
            float *restrict y = out + ((size_t)t * (size_t)bands + (size_t)b) * stride;
            for (int o = blocked; o < out_channels; o++) {
                float acc = bias[o];
                for (int kt = 0; kt < 3; kt++) {
                    for (int kb = 0; kb < 3; kb++) {
                        const float *restrict x = padded + (size_t)(t + kt) * row + (size_t)(b + kb) * width;
                        const float *restrict wk = w + (size_t)(kt * 3 + kb) * width * stride + (size_t)o;
                        for (int i = 0; i < in_channels; i++) acc += x[i] * wk[(size_t)i * stride];
                    }
                }
                y[o] = acc > 0.0f ? acc : 0.0f;
            }
        }
    }
}

/* Max-pooling by 2 (floor) along time, or along time and band: `in` is steps x bands x channels, `out` gets
 * steps / 2 x bands' x channels with bands' = bands / 2 when `both`, else bands (then bands is 1). */
SA_VECTOR_CLONES
static void sa_max_pool(const float *restrict in, int steps, int bands, int channels, int both, float *restrict out) {
    const int band_step = both ? 2 : 1;
    const int out_bands = both ? bands / 2 : bands;
    const size_t c_count = (size_t)channels;
    const size_t row = (size_t)bands * c_count;
    for (int t = 0; t < steps / 2; t++) {
        const float *restrict early = in + (size_t)(2 * t) * row;
        const float *restrict late = early + row;
        float *restrict z = out + (size_t)t * (size_t)out_bands * c_count;
        for (int b = 0; b < out_bands; b++) {
            const size_t first = (size_t)(band_step * b) * c_count;
            const size_t second = first + (size_t)(band_step - 1) * c_count;
            float *restrict target = z + (size_t)b * c_count;
            for (size_t c = 0; c < c_count; c++) {
                const float u = early[first + c] > early[second + c] ? early[first + c] : early[second + c];
                const float v = late[first + c] > late[second + c] ? late[first + c] : late[second + c];
                target[c] = u > v ? u : v;
            }
        }
    }
}

/* The last convolution's summary: per channel the mean over its `positions` rows, then the maximum. */
SA_VECTOR_CLONES
static void sa_mean_and_max(const float *restrict x, int positions, int channels, float *restrict summary) {
    const size_t c_count = (size_t)channels;
    float *restrict mean = summary;
    float *restrict max = summary + c_count;
    for (size_t c = 0; c < c_count; c++) {
        mean[c] = 0.0f;
        max[c] = x[c];
    }
    for (int p = 0; p < positions; p++) {
        const float *restrict row = x + (size_t)p * c_count;
        for (size_t c = 0; c < c_count; c++) {
            mean[c] += row[c];
            max[c] = row[c] > max[c] ? row[c] : max[c];
        }
    }
    const float scale = 1.0f / (float)positions;
    for (size_t c = 0; c < c_count; c++) mean[c] *= scale;
}

int sa_event_net_input_size(const sa_event_net *net) { return net == NULL ? 0 : net->steps * net->in_bands; }

sa_status sa_event_net_input(const sa_event_net *net, const float *log_mel, int frames, float *input) {
    sa_status status = sa_event_net_patch(net, log_mel, frames, input);
    if (status != SA_OK) return status;
    for (int t = 0; t < net->steps; t++) {
        float *row = input + (size_t)t * (size_t)net->in_bands;
        for (int b = 0; b < net->in_bands; b++) row[b] = (row[b] - net->patch_mean[b]) * net->patch_inv_std[b];
    }
    return SA_OK;
}

sa_status sa_event_net_forward(sa_event_net *net, const float *log_mel, int frames, const float *stats,
                               float *output) {
    if (net == NULL) return SA_ERR_INVALID_ARGUMENT;
    sa_status status = sa_event_net_input(net, log_mel, frames, net->input);
    if (status != SA_OK) return status;
    return sa_event_net_forward_input(net, net->input, stats, output);
}

sa_status sa_event_net_forward_input(sa_event_net *net, const float *input, const float *stats, float *output) {
    if (net == NULL || input == NULL || output == NULL || (net->shape.stat_count > 0 && stats == NULL)) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    float *x = net->buffer_a;
    float *y = net->buffer_b;
    const int band_time = net->shape.band_time;
    int steps = net->steps;
    int bands = band_time ? net->in_bands : 1;
    int channels = band_time ? 1 : net->in_bands;
    for (int l = 0; l < net->shape.conv_count; l++) {
        int out_channels = net->shape.conv_channels[l];
        /* The first convolution reads the caller's input (copied into the padded scratch), later ones x. */
        const float *source = l == 0 ? input : x;
        if (net->winograd_u[l] != NULL) {
            sa_winograd_conv3x3_relu(source, steps, bands, channels, net->winograd_u[l], net->conv_b[l],
                                     out_channels, net->winograd_scratch, y);
        } else if (band_time) {
            sa_conv3x3_relu(source, steps, bands, channels, net->conv_w[l], net->conv_b[l], out_channels,
                            net->padded, y);
        } else {
            sa_conv3_relu(source, steps, channels, net->conv_w[l], net->conv_b[l], out_channels, net->padded, y);
        }
        channels = out_channels;
        if (l + 1 < net->shape.conv_count) {
            sa_max_pool(y, steps, bands, channels, band_time, x);
            steps /= 2;
            if (band_time) bands /= 2;
        } else {
            float *tmp = x;
            x = y;
            y = tmp;
        }
    }
    float *summary = net->summary;
    sa_mean_and_max(x, steps * bands, channels, summary);
    if (net->shape.stat_count > 0) {
        memcpy(summary + 2 * channels, stats, sizeof(float) * (size_t)net->shape.stat_count);
    }
    return sa_mlp_forward(net->dense, summary, output);
}
