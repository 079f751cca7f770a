/* A small multilayer perceptron: standardised input, dense layers with ReLU, softmax output. */
#ifndef SA_MLP_H
#define SA_MLP_H

#include "sa_common.h"

/* Opaque network (weights copied at init, scratch allocated at init: no allocation per call). */
typedef struct sa_mlp sa_mlp;

/* Creates a network of layer_count dense layers. sizes has layer_count + 1 entries (input size first).
 * weights[i] is sizes[i + 1] x sizes[i], row-major (one row per output unit); biases[i] has sizes[i + 1] values.
 * input_mean and input_std (sizes[0] values each, std > 0) standardise the input: (x - mean) / std. */
sa_status sa_mlp_init(sa_mlp **out, int layer_count, const int *sizes, const float *const *weights,
                      const float *const *biases, const float *input_mean, const float *input_std);

/* Frees the network and sets *mlp to NULL. */
void sa_mlp_destroy(sa_mlp **mlp);

/* Runs the network on input (sizes[0] values) and writes the softmax output (sizes[layer_count] values). */
sa_status sa_mlp_forward(sa_mlp *mlp, const float *input, float *output);

#endif
