#include "sa_level_meter.h"

#include <stdlib.h>

#include "power_levels.h"
#include "sa_stft.h"
#include "sa_float_policy.h"

struct sa_level_meter {
    size_t bins;
    sa_stft *stft;
    float *flat_factors;
    float *a_factors;
};

void sa_level_meter_destroy(sa_level_meter **meter) {
    if (meter == NULL || *meter == NULL) return;
    sa_level_meter *m = *meter;
    sa_stft_destroy(&m->stft);
    free(m->flat_factors);
    free(m->a_factors);
    free(m);
    *meter = NULL;
}

sa_status sa_level_meter_init(double sample_rate, size_t window_size, size_t hop_size, sa_level_meter **out) {
    if (out == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!(sample_rate >= 1.0 && sample_rate <= 1.0e6)) return SA_ERR_UNSUPPORTED_RATE;
    sa_level_meter *m = calloc(1, sizeof *m);
    if (m == NULL) return SA_ERR_OUT_OF_MEMORY;
    m->bins = window_size / 2 + 1;
    sa_status status = sa_stft_init(window_size, hop_size, &m->stft);
    if (status == SA_OK) {
        m->flat_factors = malloc(m->bins * sizeof(float));
        m->a_factors = malloc(m->bins * sizeof(float));
        status = m->flat_factors && m->a_factors
                     ? sa_power_level_factors(sample_rate, window_size, m->flat_factors, m->a_factors)
                     : SA_ERR_OUT_OF_MEMORY;
    }
    if (status != SA_OK) {
        sa_level_meter_destroy(&m);
        return status;
    }
    *out = m;
    return SA_OK;
}

size_t sa_level_meter_frames_for(const sa_level_meter *m, size_t count) { return sa_stft_frames_for(m->stft, count); }

static void measure(const sa_level_meter *m, double *a_weighted, double *unweighted) {
    const float *power = sa_stft_power(m->stft);
    double energy = sa_stft_window_energy(m->stft);
    sa_weighted_power_sums(m->flat_factors, m->a_factors, power, m->bins, unweighted, a_weighted);
    *a_weighted /= energy;
    *unweighted /= energy;
}

sa_status sa_level_meter_process(sa_level_meter *m, const float *samples, size_t count, double *a_weighted,
                                 double *unweighted, size_t max_frames, size_t *frames_written) {
    if (m == NULL || frames_written == NULL || (samples == NULL && count > 0)) return SA_ERR_INVALID_ARGUMENT;
    *frames_written = 0;
    size_t expected = sa_stft_frames_for(m->stft, count);
    if (expected > max_frames) return SA_ERR_INVALID_ARGUMENT;
    if (expected > 0 && (a_weighted == NULL || unweighted == NULL)) return SA_ERR_INVALID_ARGUMENT;
    size_t done = 0, frames = 0;
    while (done < count) {
        int ready = 0;
        done += sa_stft_feed(m->stft, samples + done, count - done, &ready);
        if (!ready) continue;
        measure(m, &a_weighted[frames], &unweighted[frames]);
        frames++;
    }
    *frames_written = frames;
    return SA_OK;
}

sa_status sa_level_meter_flush(sa_level_meter *m, double *a_weighted, double *unweighted, size_t *frames_written) {
    if (m == NULL || a_weighted == NULL || unweighted == NULL || frames_written == NULL)
        return SA_ERR_INVALID_ARGUMENT;
    int ready = 0;
    sa_stft_flush(m->stft, &ready);
    *frames_written = 0;
    if (ready) {
        measure(m, a_weighted, unweighted);
        *frames_written = 1;
    }
    return SA_OK;
}
