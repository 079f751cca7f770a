/* Private: 3 x 3 convolutions over band and time by Winograd's minimal filtering F(2 x 2, 3 x 3). Each 2 x 2 block
   of outputs comes from a 4 x 4 block of inputs with 16 multiplications per input and output channel instead of
   36: the inputs and the kernels are transformed (B^T d B, G g G^T), multiplied element by element and summed over
   the input channels (16 small matrix products), and the sums transformed back (A^T m A). Used by the event
   network for the layers whose channel counts are multiples of 8. */
#ifndef SA_WINOGRAD_H
#define SA_WINOGRAD_H

#include <stddef.h>

/* Whether a layer with these channel counts takes the Winograd path (both multiples of 8). */
int sa_winograd_applies(int in_channels, int out_channels);

/* Floats of the transformed kernels of one layer: 16 x in_channels x out_channels. */
size_t sa_winograd_weight_count(int in_channels, int out_channels);

/* Transforms one layer's kernels, given as taps (kt * 3 + kb: time offset kt, band offset kb) x in x out with the
   output channel fastest, into `u`: 16 positions of the 4 x 4 block (time row r, band column c: r * 4 + c) x in x
   out. */
void sa_winograd_weights(const float *w, int in_channels, int out_channels, float *u);

/* Floats of scratch the convolution of a steps x bands x in_channels input into out_channels needs. */
size_t sa_winograd_scratch_count(int steps, int bands, int in_channels, int out_channels);

/* out[t][b][o] = relu(bias[o] + sum_{kt, kb, i} w[kt * 3 + kb][i][o] * in[t + kt - 1][b + kb - 1][i]) with zero
   padding on every side, activations time-major, then band, then channel; `u` from sa_winograd_weights, `scratch`
   of sa_winograd_scratch_count floats. */
void sa_winograd_conv3x3_relu(const float *in, int steps, int bands, int in_channels, const float *u,
                              const float *bias, int out_channels, float *scratch, float *out);

#endif
