/* Checks run on every sample. See include/sa_sample_checks.h. */
#include "sa_sample_checks.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sa_vector_dispatch.h"
#include "sa_float_policy.h"
#include "sa_fast_exp.h"

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

SA_VECTOR_CLONES
size_t sa_non_finite_count(const float *samples, size_t count) {
    /* A float is NaN or infinite exactly when its exponent bits are all ones. Blocks of 2^16 keep each block's
       32-bit sum from overflowing; the branch-free inner loop vectorises. */
    size_t total = 0;
    for (size_t start = 0; start < count; start += 65536) {
        const size_t end = count - start < 65536 ? count : start + 65536;
        uint32_t found = 0;
        for (size_t i = start; i < end; i++) {
            uint32_t bits;
            memcpy(&bits, samples + i, sizeof bits);
            found += (bits & 0x7f800000u) == 0x7f800000u;
        }
        total += found;
    }
    return total;
}

SA_VECTOR_CLONES
void sa_full_scale_plateau_counts(const float *samples, size_t frames, size_t channels, float level, float *previous,
                                  size_t *counts) {
    if (samples == NULL || previous == NULL || counts == NULL || channels == 0 || frames == 0) return;
    /* Each channel's samples against the same channel's one frame earlier: the block's first frame against
       `previous`, the rest within the block. The branch-free inner loop vectorises (strided for stereo); blocks of
       2^16 frames keep each 32-bit sum from overflowing. */
    for (size_t c = 0; c < channels; c++) {
        const float *x = samples + c;
        size_t total = x[0] == previous[c] && fabsf(x[0]) >= level;
        for (size_t start = 1; start < frames; start += 65536) {
            const size_t end = frames - start < 65536 ? frames : start + 65536;
            uint32_t found = 0;
            for (size_t f = start; f < end; f++) {
                const float value = x[f * channels];
                found += (value == x[(f - 1) * channels]) & (fabsf(value) >= level);
            }
            total += found;
        }
        counts[c] += total;
        previous[c] = x[(frames - 1) * channels];
    }
}

SA_VECTOR_CLONES
void sa_band_energy_sum(const float *log_mel, size_t frames, size_t bands, size_t first, size_t count,
                        double *total) {
    /* One running sum per band, so the loop over bands is element-wise (it vectorises); at most 64 bands at a
       time. */
    double sum = 0;
    for (size_t done = 0; done < count; done += 64) {
        const size_t width = count - done < 64 ? count - done : 64;
        float per_band[64] = {0};
        for (size_t frame = 0; frame < frames; frame++) {
            const float *row = log_mel + frame * bands + first + done;
            for (size_t b = 0; b < width; b++) per_band[b] += fast_exp(row[b]);
        }
        for (size_t b = 0; b < width; b++) sum += per_band[b];
    }
    *total += sum;
}
