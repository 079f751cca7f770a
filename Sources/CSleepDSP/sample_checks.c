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

/* Eight 32-bit integers: the lanes of a comparison of two sa_float8 (-1 where true, 0 where false). */
typedef int32_t sa_int8 __attribute__((vector_size(32)));

SA_VECTOR_CLONES
void sa_full_scale_plateau_counts(const float *samples, size_t frames, size_t channels, float level, float *previous,
                                  size_t *counts) {
    if (samples == NULL || previous == NULL || counts == NULL || channels == 0 || frames == 0) return;
    const size_t count = frames * channels;
    /* The block's first frame against the frame before it (`previous`). */
    for (size_t c = 0; c < channels; c++)
        counts[c] += samples[c] == previous[c] && fabsf(samples[c]) >= level;
    size_t i = channels;
    if (8 % channels == 0) {
        /* Eight interleaved samples at a time, each against the sample `channels` before it. The first block starts
           at a multiple of `channels`, so lane j always holds channel j % channels and each lane counts its own
           channel's plateaus; the lanes are emptied into `counts` every 2^16 blocks, before they could overflow. */
        sa_float8 levels;
        for (int lane = 0; lane < 8; lane++) levels[lane] = level;
        while (i + 8 <= count) {
            sa_int8 found = {0};
            for (size_t blocks = 0; blocks < 65536 && i + 8 <= count; blocks++, i += 8) {
                sa_float8 now, before;
                memcpy(&now, samples + i, sizeof now);
                memcpy(&before, samples + i - channels, sizeof before);
                found -= (now == before) & (__builtin_elementwise_abs(now) >= levels);
            }
            for (int lane = 0; lane < 8; lane++) counts[(size_t)lane % channels] += (size_t)found[lane];
        }
    }
    for (; i < count; i++) counts[i % channels] += samples[i] == samples[i - channels] && fabsf(samples[i]) >= level;
    for (size_t c = 0; c < channels; c++) previous[c] = samples[count - channels + c];
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
