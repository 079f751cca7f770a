/* Splitting interleaved stereo. See include/sa_interleave.h. */
#include "sa_interleave.h"

#include <string.h>
#include "sa_vector_dispatch.h"

SA_VECTOR_CLONES
void sa_deinterleave_pair(const float *restrict interleaved, size_t frames, float *restrict first,
                          float *restrict second) {
    size_t i = 0;
    /* Eight frames at a time: two vectors of interleaved pairs, shuffled into one vector per channel. */
    for (; i + 8 <= frames; i += 8) {
        float block[16];
        memcpy(block, interleaved + 2 * i, sizeof block);
        for (int k = 0; k < 8; k++) {
            first[i + k] = block[2 * k];
            second[i + k] = block[2 * k + 1];
        }
    }
    for (; i < frames; i++) {
        first[i] = interleaved[2 * i];
        second[i] = interleaved[2 * i + 1];
    }
}
