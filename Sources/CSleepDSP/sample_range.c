/* Lowest and highest non-NaN sample. See include/sa_sample_range.h. */
#include "sa_sample_range.h"

#include <math.h>
#include <string.h>
#include "sa_vector_dispatch.h"

SA_VECTOR_CLONES
void sa_sample_range(const float *samples, size_t count, float *low, float *high) {
    /* Eight running minima and maxima. __builtin_elementwise_min/max return the other operand when one is NaN
       (IEEE minNum/maxNum), so NaN samples are skipped without a branch. */
    sa_float8 lows, highs;
    for (int lane = 0; lane < 8; lane++) {
        lows[lane] = INFINITY;
        highs[lane] = -INFINITY;
    }
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        sa_float8 block;
        memcpy(&block, samples + i, sizeof block);
        lows = __builtin_elementwise_min(lows, block);
        highs = __builtin_elementwise_max(highs, block);
    }
    float lowest = INFINITY, highest = -INFINITY;
    for (int lane = 0; lane < 8; lane++) {
        lowest = fminf(lowest, lows[lane]);
        highest = fmaxf(highest, highs[lane]);
    }
    for (; i < count; i++) {
        lowest = fminf(lowest, samples[i]);
        highest = fmaxf(highest, samples[i]);
    }
    *low = lowest;
    *high = highest;
}
