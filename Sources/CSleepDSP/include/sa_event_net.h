/* The event network: a convolutional network over a window's reduced log-mel spectrogram, joined with the
 * window's pooled statistics (sa_event_pool), then dense layers with ReLU and a softmax.
 *
 * Input patch: the window's frames (frame-major, frames x mel_bands natural-log energies, clamped to log_floor,
 * missing frames of a short window taken as log_floor) averaged over groups of band_group bands and frame_group
 * frames, minus the patch's mean, standardised per reduced band. Convolutions, in one of two layouts:
 * - over time (band_time = 0): the reduced bands are the first convolution's input channels; kernel 3 along
 *   time, zero padding 1, bias, ReLU, max-pooling by 2 (floor) along time between two convolutions;
 * - over band and time (band_time = 1): the patch is one input channel; 3 x 3 kernels along band and time, zero
 *   padding 1, bias, ReLU, max-pooling by 2 x 2 (floor) between two convolutions, so that a sound moved along the
 *   mel axis meets the same filters.
 * Then the last convolution's per-channel mean and maximum over all its positions, followed by the standardised
 * statistics, enter the dense layers. The training tool (Tools/events/eventnet.py) defines the same networks. */
#ifndef SA_EVENT_NET_H
#define SA_EVENT_NET_H

#include "sa_common.h"

#define SA_EVENT_NET_MAX_CONVS 6

/* The sizes of a network. */
typedef struct sa_event_net_shape {
    int mel_bands;          /* bands per input frame; a multiple of band_group */
    int window_frames;      /* frames per window; a multiple of frame_group */
    int band_group;         /* bands averaged into one network input band */
    int frame_group;        /* frames averaged into one network input step */
    float log_floor;        /* input values are clamped to this */
    int band_time;          /* 0: convolutions over time; 1: over band and time (see above) */
    int conv_count;         /* 1...SA_EVENT_NET_MAX_CONVS */
    int conv_channels[SA_EVENT_NET_MAX_CONVS];
    int stat_count;         /* pooled statistics appended after the convolution summary */
    int dense_count;        /* dense layers, the last one being the output (softmax) */
    const int *dense_sizes; /* dense_count values: the output width of each dense layer */
} sa_event_net_shape;

/* Opaque network (weights copied and scratch allocated at init: no allocation per window). */
typedef struct sa_event_net sa_event_net;

/* Creates a network.
 * conv_weights[l]: conv_channels[l] x in_channels x 3 (over time; in_channels = mel_bands / band_group for l = 0)
 * or conv_channels[l] x in_channels x 3 (band) x 3 (time) (over band and time; in_channels = 1 for l = 0),
 * row-major;
 * conv_biases[l]: conv_channels[l] values. patch_mean, patch_std: mel_bands / band_group values (std > 0).
 * dense_weights[l]: dense_sizes[l] x in, row-major, in = 2 * last conv channels + stat_count for l = 0;
 * dense_biases[l]: dense_sizes[l] values. stat_mean, stat_std: stat_count values (std > 0). */
sa_status sa_event_net_init(sa_event_net **out, const sa_event_net_shape *shape, const float *const *conv_weights,
                            const float *const *conv_biases, const float *patch_mean, const float *patch_std,
                            const float *const *dense_weights, const float *const *dense_biases,
                            const float *stat_mean, const float *stat_std);

/* Frees the network and sets *net to NULL. */
void sa_event_net_destroy(sa_event_net **net);

/* Writes the reduced, mean-removed (not yet standardised) input patch of a window, time-major:
 * (window_frames / frame_group) x (mel_bands / band_group) values. frames: 1...window_frames. */
sa_status sa_event_net_patch(const sa_event_net *net, const float *log_mel, int frames, float *patch);

/* Classifies a window: log_mel holds frames (1...window_frames) frames, stats the pooled statistics
 * (stat_count values); writes the softmax output (the last dense size). The same as sa_event_net_input followed
 * by sa_event_net_forward_input. */
sa_status sa_event_net_forward(sa_event_net *net, const float *log_mel, int frames, const float *stats,
                               float *output);

/* Values in a network input: (window_frames / frame_group) x (mel_bands / band_group); 0 for NULL. */
int sa_event_net_input_size(const sa_event_net *net);

/* Writes the network input of a window (the patch, standardised per band), time-major: networks with the same
 * shape and patch standardisation (the members of an ensemble) can share it. */
sa_status sa_event_net_input(const sa_event_net *net, const float *log_mel, int frames, float *input);

/* Classifies a window from its network input (sa_event_net_input) and pooled statistics; writes the softmax. */
sa_status sa_event_net_forward_input(sa_event_net *net, const float *input, const float *stats, float *output);

#endif
