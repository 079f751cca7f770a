#include "sa_mlp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sa_float_policy.h"
#include "sa_vector_dispatch.h"

#define SA_MLP_MAX_LAYERS 8

struct sa_mlp {
    int layer_count;
    int sizes[SA_MLP_MAX_LAYERS + 1];
    float *weights[SA_MLP_MAX_LAYERS];
    float *biases[SA_MLP_MAX_LAYERS];
    float *mean;
    float *inv_std;
    float *buffer_a;
    float *buffer_b;
};

sa_status sa_mlp_init(sa_mlp **out, int layer_count, const int *sizes, const float *const *weights,
                      const float *const *biases, const float *input_mean, const float *input_std) {
    if (out == NULL || sizes == NULL || weights == NULL || biases == NULL || input_mean == NULL ||
        input_std == NULL || layer_count < 1 || layer_count > SA_MLP_MAX_LAYERS) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    int widest = 0;
    for (int i = 0; i <= layer_count; i++) {
        if (sizes[i] < 1) {
            return SA_ERR_INVALID_ARGUMENT;
        }
        if (sizes[i] > widest) widest = sizes[i];
    }
    for (int i = 0; i < layer_count; i++) {
        if (weights[i] == NULL || biases[i] == NULL) {
            return SA_ERR_INVALID_ARGUMENT;
        }
    }
    for (int i = 0; i < sizes[0]; i++) {
        if (!(input_std[i] > 0.0f)) {
            return SA_ERR_INVALID_ARGUMENT;
        }
    }
    sa_mlp *mlp = calloc(1, sizeof(*mlp));
    if (mlp == NULL) {
        return SA_ERR_OUT_OF_MEMORY;
    }
    mlp->layer_count = layer_count;
    memcpy(mlp->sizes, sizes, sizeof(int) * (size_t)(layer_count + 1));
    int ok = 1;
    for (int i = 0; i < layer_count && ok; i++) {
        size_t n = (size_t)sizes[i] * (size_t)sizes[i + 1];
        mlp->weights[i] = malloc(sizeof(float) * n);
        mlp->biases[i] = malloc(sizeof(float) * (size_t)sizes[i + 1]);
        ok = mlp->weights[i] != NULL && mlp->biases[i] != NULL;
        if (ok) {
            memcpy(mlp->weights[i], weights[i], sizeof(float) * n);
            memcpy(mlp->biases[i], biases[i], sizeof(float) * (size_t)sizes[i + 1]);
        }
    }
    mlp->mean = malloc(sizeof(float) * (size_t)sizes[0]);
    mlp->inv_std = malloc(sizeof(float) * (size_t)sizes[0]);
    mlp->buffer_a = malloc(sizeof(float) * (size_t)widest);
    mlp->buffer_b = malloc(sizeof(float) * (size_t)widest);
    if (!ok || mlp->mean == NULL || mlp->inv_std == NULL || mlp->buffer_a == NULL || mlp->buffer_b == NULL) {
        sa_mlp_destroy(&mlp);
        return SA_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < sizes[0]; i++) {
        mlp->mean[i] = input_mean[i];
        mlp->inv_std[i] = 1.0f / input_std[i];
    }
    *out = mlp;
    return SA_OK;
}

void sa_mlp_destroy(sa_mlp **mlp) {
    if (mlp == NULL || *mlp == NULL) {
        return;
    }
    for (int i = 0; i < SA_MLP_MAX_LAYERS; i++) {
        free((*mlp)->weights[i]);
        free((*mlp)->biases[i]);
    }
    free((*mlp)->mean);
    free((*mlp)->inv_std);
    free((*mlp)->buffer_a);
    free((*mlp)->buffer_b);
    free(*mlp);
    *mlp = NULL;
}

/* y = W x + b, W rows x cols row-major. Four rows at a time share each load of x; the rest one by one. */
SA_VECTOR_CLONES
static void sa_dense(const float *restrict w, const float *restrict b, const float *restrict x, int rows,
                     int cols, float *restrict y) {
    const size_t width = (size_t)cols;
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float *restrict w0 = w + (size_t)r * width;
        const float *restrict w1 = w0 + width;
        const float *restrict w2 = w1 + width;
        const float *restrict w3 = w2 + width;
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
        for (size_t c = 0; c < width; c++) {
            const float xc = x[c];
            a0 += w0[c] * xc;
            a1 += w1[c] * xc;
            a2 += w2[c] * xc;
            a3 += w3[c] * xc;
        }
        y[r] = a0 + b[r];
        y[r + 1] = a1 + b[r + 1];
        y[r + 2] = a2 + b[r + 2];
        y[r + 3] = a3 + b[r + 3];
    }
    for (; r < rows; r++) {
        const float *restrict row = w + (size_t)r * width;
        float acc = 0.0f;
        for (size_t c = 0; c < width; c++) acc += row[c] * x[c];
        y[r] = acc + b[r];
    }
}

sa_status sa_mlp_forward(sa_mlp *mlp, const float *input, float *output) {
    if (mlp == NULL || input == NULL || output == NULL) {
        return SA_ERR_INVALID_ARGUMENT;
    }
    float *x = mlp->buffer_a;
    float *y = mlp->buffer_b;
    for (int i = 0; i < mlp->sizes[0]; i++) {
        x[i] = (input[i] - mlp->mean[i]) * mlp->inv_std[i];
    }
    for (int l = 0; l < mlp->layer_count; l++) {
        int rows = mlp->sizes[l + 1];
        sa_dense(mlp->weights[l], mlp->biases[l], x, rows, mlp->sizes[l], y);
        if (l + 1 < mlp->layer_count) {
            for (int r = 0; r < rows; r++) {
                if (y[r] < 0.0f) y[r] = 0.0f;
            }
        }
        float *tmp = x;
        x = y;
        y = tmp;
    }
    int n = mlp->sizes[mlp->layer_count];
    float mx = x[0];
    for (int i = 1; i < n; i++) {
        if (x[i] > mx) mx = x[i];
    }
    float sum = 0.0f;
    for (int i = 0; i < n; i++) {
        output[i] = expf(x[i] - mx);
        sum += output[i];
    }
    for (int i = 0; i < n; i++) {
        output[i] /= sum;
    }
    return SA_OK;
}
