#include <opus/opus.h>

// opus_decoder_ctl is variadic, which Swift cannot call: the one request we make, wrapped.
static inline int copus_decoder_set_gain(OpusDecoder *decoder, opus_int32 gainQ8) {
    return opus_decoder_ctl(decoder, OPUS_SET_GAIN(gainQ8));
}
