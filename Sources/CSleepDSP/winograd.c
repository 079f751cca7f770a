#include "winograd.h"

#include <string.h>
#include "sa_float_policy.h"
#include "sa_vector_dispatch.h"


/* Output 2 x 2 blocks computed together: their transformed inputs and products stay in a few KB of scratch (in the
 * first-level cache) between the three stages, and each weight load in the products serves this many blocks
 * (6 blocks x 2 vectors: 12 sums in flight). */
#define SA_WINO_BLOCKS 6

int sa_winograd_applies(int in_channels, int out_channels) {
    return in_channels > 0 && out_channels > 0 && in_channels % 8 == 0 && out_channels % 8 == 0;
}

size_t sa_winograd_weight_count(int in_channels, int out_channels) {
    return 16 * (size_t)in_channels * (size_t)out_channels;
}

void sa_winograd_weights(const float *w, int in_channels, int out_channels, float *u) {
    /* G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]; u = G g G^T with g[kt][kb]. */
    static const float G[4][3] = {{1.0f, 0.0f, 0.0f}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0.0f, 0.0f, 1.0f}};
    const size_t in = (size_t)in_channels;
    const size_t out = (size_t)out_channels;
    for (size_t i = 0; i < in; i++) {
        for (size_t o = 0; o < out; o++) {
            float g[3][3];
            for (int kt = 0; kt < 3; kt++) {
                for (int kb = 0; kb < 3; kb++) g[kt][kb] = w[((size_t)(kt * 3 + kb) * in + i) * out + o];
            }
            float gg[4][3];
            for (int r = 0; r < 4; r++) {
                for (int kb = 0; kb < 3; kb++) {
                    gg[r][kb] = G[r][0] * g[0][kb] + G[r][1] * g[1][kb] + G[r][2] * g[2][kb];
                }
            }
            for (int r = 0; r < 4; r++) {
                for (int c = 0; c < 4; c++) {
                    float value = G[c][0] * gg[r][0] + G[c][1] * gg[r][1] + G[c][2] * gg[r][2];
                    u[((size_t)(r * 4 + c) * in + i) * out + o] = value;
                }
            }
        }
    }
}

static size_t sa_blocks(int n) { return (size_t)((n + 1) / 2); }

/* Scratch layout: the zero-padded input ((2 x block rows + 2) x (2 x block columns + 2) x in), then for one group
 * of SA_WINO_BLOCKS blocks the transformed inputs (16 x SA_WINO_BLOCKS x in) and the products
 * (16 x SA_WINO_BLOCKS x out). */
size_t sa_winograd_scratch_count(int steps, int bands, int in_channels, int out_channels) {
    const size_t rows = 2 * sa_blocks(steps) + 2;
    const size_t columns = 2 * sa_blocks(bands) + 2;
    return rows * columns * (size_t)in_channels +
           16 * (size_t)SA_WINO_BLOCKS * ((size_t)in_channels + (size_t)out_channels);
}

/* Unaligned 8-float loads and stores (memcpy: no alignment assumed, and no vector passed by value, which would
 * change the calling convention between the AVX2 and the baseline builds). */
#define SA_LOAD8(vector, pointer) memcpy(&(vector), (pointer), sizeof(vector))
#define SA_STORE8(pointer, vector) memcpy((pointer), &(vector), sizeof(vector))

/* B^T d B for 8 channels of one 4 x 4 input block d (rows: time, columns: band), into v[16]. */
static inline __attribute__((always_inline)) void sa_input_transform(const sa_float8 d[4][4], sa_float8 v[16]) {
    sa_float8 t[4][4];
    for (int c = 0; c < 4; c++) {
        t[0][c] = d[0][c] - d[2][c];
        t[1][c] = d[1][c] + d[2][c];
        t[2][c] = d[2][c] - d[1][c];
        t[3][c] = d[1][c] - d[3][c];
    }
    for (int r = 0; r < 4; r++) {
        v[r * 4 + 0] = t[r][0] - t[r][2];
        v[r * 4 + 1] = t[r][1] + t[r][2];
        v[r * 4 + 2] = t[r][2] - t[r][1];
        v[r * 4 + 3] = t[r][1] - t[r][3];
    }
}

/* Sixteen products over the input channels for one group of blocks: m[p][j][o] = sum_i v[p][j][i] * u[p][i][o]. */
static inline __attribute__((always_inline)) void sa_products(const float *restrict v, const float *restrict u,
                                                              size_t ic, size_t oc, float *restrict m) {
    for (int p = 0; p < 16; p++) {
        const float *restrict vp = v + (size_t)p * SA_WINO_BLOCKS * ic;
        const float *restrict up = u + (size_t)p * ic * oc;
        float *restrict mp = m + (size_t)p * SA_WINO_BLOCKS * oc;
        size_t o0 = 0;
        for (; o0 + 16 <= oc; o0 += 16) {
            sa_float8 acc[SA_WINO_BLOCKS][2] = {{{0}}};
            for (size_t i = 0; i < ic; i++) {
                sa_float8 w0, w1;
                SA_LOAD8(w0, up + i * oc + o0);
                SA_LOAD8(w1, up + i * oc + o0 + 8);
                for (int j = 0; j < SA_WINO_BLOCKS; j++) {
                    const float x = vp[(size_t)j * ic + i];
                    acc[j][0] += x * w0;
                    acc[j][1] += x * w1;
                }
            }
            for (int j = 0; j < SA_WINO_BLOCKS; j++) {
                SA_STORE8(mp + (size_t)j * oc + o0, acc[j][0]);
                SA_STORE8(mp + (size_t)j * oc + o0 + 8, acc[j][1]);
            }
        }
        for (; o0 < oc; o0 += 8) {
            sa_float8 acc[SA_WINO_BLOCKS] = {{0}};
            for (size_t i = 0; i < ic; i++) {
                sa_float8 w0;
                SA_LOAD8(w0, up + i * oc + o0);
                for (int j = 0; j < SA_WINO_BLOCKS; j++) acc[j] += vp[(size_t)j * ic + i] * w0;
            }
            for (int j = 0; j < SA_WINO_BLOCKS; j++) SA_STORE8(mp + (size_t)j * oc + o0, acc[j]);
        }
    }
}

SA_VECTOR_CLONES
void sa_winograd_conv3x3_relu(const float *in, int steps, int bands, int in_channels, const float *u,
                              const float *bias, int out_channels, float *scratch, float *out) {
    const size_t ic = (size_t)in_channels;
    const size_t oc = (size_t)out_channels;
    const size_t block_rows = sa_blocks(steps);
    const size_t block_columns = sa_blocks(bands);
    const size_t blocks = block_rows * block_columns;
    const size_t columns = 2 * block_columns + 2;
    const size_t rows = 2 * block_rows + 2;
    float *padded = scratch;
    float *v = padded + rows * columns * ic;
    float *m = v + 16 * SA_WINO_BLOCKS * ic;

    /* Padded row t + 1, column b + 1 hold input step t, band b. */
    memset(padded, 0, sizeof(float) * rows * columns * ic);
    for (int t = 0; t < steps; t++) {
        memcpy(padded + ((size_t)(t + 1) * columns + 1) * ic, in + (size_t)t * (size_t)bands * ic,
               sizeof(float) * (size_t)bands * ic);
    }
    for (size_t g0 = 0; g0 < blocks; g0 += SA_WINO_BLOCKS) {
        const size_t count = blocks - g0 < SA_WINO_BLOCKS ? blocks - g0 : SA_WINO_BLOCKS;
        /* Input transform: block (a, c) reads padded rows 2a..2a+3, columns 2c..2c+3. The group's unused places
         * (past the last block) get zeros. */
        for (size_t j = 0; j < SA_WINO_BLOCKS; j++) {
            if (j >= count) {
                for (int p = 0; p < 16; p++) memset(v + ((size_t)p * SA_WINO_BLOCKS + j) * ic, 0, sizeof(float) * ic);
                continue;
            }
            const size_t a = (g0 + j) / block_columns;
            const size_t c = (g0 + j) % block_columns;
            for (size_t i = 0; i < ic; i += 8) {
                sa_float8 d[4][4], transformed[16];
                for (int r = 0; r < 4; r++) {
                    const float *row = padded + ((2 * a + (size_t)r) * columns + 2 * c) * ic + i;
                    for (int q = 0; q < 4; q++) SA_LOAD8(d[r][q], row + (size_t)q * ic);
                }
                sa_input_transform(d, transformed);
                for (int p = 0; p < 16; p++) SA_STORE8(v + ((size_t)p * SA_WINO_BLOCKS + j) * ic + i, transformed[p]);
            }
        }
        /* The shipped network's layers get the channel counts as constants (fixed offsets in the inner loop). */
        if (ic == 8 && oc == 16) {
            sa_products(v, u, 8, 16, m);
        } else if (ic == 16 && oc == 32) {
            sa_products(v, u, 16, 32, m);
        } else {
            sa_products(v, u, ic, oc, m);
        }
        /* Output transform A^T m A (A^T = [1 1 1 0; 0 1 -1 -1]), bias, ReLU; outputs past the input's edge
         * dropped. */
        for (size_t j = 0; j < count; j++) {
            const size_t a = (g0 + j) / block_columns;
            const size_t c = (g0 + j) % block_columns;
            for (size_t o = 0; o < oc; o += 8) {
                sa_float8 s[16];
                for (int p = 0; p < 16; p++) SA_LOAD8(s[p], m + ((size_t)p * SA_WINO_BLOCKS + j) * oc + o);
                sa_float8 t[2][4];
                for (int q = 0; q < 4; q++) {
                    t[0][q] = s[0 * 4 + q] + s[1 * 4 + q] + s[2 * 4 + q];
                    t[1][q] = s[1 * 4 + q] - s[2 * 4 + q] - s[3 * 4 + q];
                }
                sa_float8 b;
                SA_LOAD8(b, bias + o);
                for (int r = 0; r < 2; r++) {
                    const size_t step = 2 * a + (size_t)r;
                    if (step >= (size_t)steps) break;
                    const sa_float8 y[2] = {t[r][0] + t[r][1] + t[r][2] + b, t[r][1] - t[r][2] - t[r][3] + b};
                    for (int q = 0; q < 2; q++) {
                        const size_t band = 2 * c + (size_t)q;
                        if (band >= (size_t)bands) break;
                        float *target = out + (step * (size_t)bands + band) * oc + o;
                        SA_STORE8(target, y[q]);
                        for (int k = 0; k < 8; k++) target[k] = target[k] > 0.0f ? target[k] : 0.0f;
                    }
                }
            }
        }
    }
}
