#include "sa_front_end.h"

#include <math.h>
#include <stdlib.h>

#include "power_levels.h"
#include "sa_mel.h"
#include "sa_stft.h"
#include "sa_float_policy.h"

struct sa_front_end {
    sa_front_end_config config;
    size_t bins;
    sa_stft *stft;
    sa_mel *mel;
    float *flat_factors;
    float *a_factors;
};

static const double mean_square_floor = 1e-16;

void sa_front_end_destroy(sa_front_end **front_end) {
    if (front_end == NULL || *front_end == NULL) return;
    sa_front_end *f = *front_end;
    sa_stft_destroy(&f->stft);
    sa_mel_destroy(&f->mel);
    free(f->flat_factors);
    free(f->a_factors);
    free(f);
    *front_end = NULL;
}

sa_status sa_front_end_init(const sa_front_end_config *config, sa_front_end **out) {
    if (out == NULL || config == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!(config->sample_rate > 0)) return SA_ERR_UNSUPPORTED_RATE;
    if (!(config->log_floor > 0) || !isfinite(config->level_offset_db)) return SA_ERR_INVALID_ARGUMENT;
    sa_front_end *f = calloc(1, sizeof *f);
    if (f == NULL) return SA_ERR_OUT_OF_MEMORY;
    f->config = *config;
    f->bins = config->fft_size / 2 + 1;
    sa_status status = sa_stft_init(config->fft_size, config->hop_size, &f->stft);
    if (status == SA_OK)
        status = sa_mel_init(config->sample_rate, config->fft_size, config->mel_band_count, config->mel_low_hz,
                             config->mel_high_hz, &f->mel);
    if (status == SA_OK) {
        f->flat_factors = malloc(f->bins * sizeof(float));
        f->a_factors = malloc(f->bins * sizeof(float));
        status = f->flat_factors && f->a_factors
                     ? sa_power_level_factors(config->sample_rate, config->fft_size, f->flat_factors, f->a_factors)
                     : SA_ERR_OUT_OF_MEMORY;
    }
    if (status != SA_OK) {
        sa_front_end_destroy(&f);
        return status;
    }
    *out = f;
    return SA_OK;
}

size_t sa_front_end_frames_for(const sa_front_end *f, size_t count) { return sa_stft_frames_for(f->stft, count); }

int64_t sa_front_end_frame_count(const sa_front_end *f) { return sa_stft_frame_count(f->stft); }

sa_status sa_front_end_process(sa_front_end *f, const float *samples, size_t count, float *log_mel,
                               float *db_spl, float *dbfs, size_t max_frames, size_t *frames_written) {
    if (f == NULL || frames_written == NULL || (samples == NULL && count > 0)) return SA_ERR_INVALID_ARGUMENT;
    *frames_written = 0;
    size_t expected = sa_stft_frames_for(f->stft, count);
    if (expected > max_frames) return SA_ERR_INVALID_ARGUMENT;
    if (expected > 0 && (log_mel == NULL || db_spl == NULL || dbfs == NULL)) return SA_ERR_INVALID_ARGUMENT;

    const double fs_offset = 10.0 * log10(2.0);
    const size_t bands = f->config.mel_band_count;
    size_t done = 0, frames = 0;
    while (done < count) {
        int ready = 0;
        done += sa_stft_feed(f->stft, samples + done, count - done, &ready);
        if (!ready) continue;
        const float *power = sa_stft_power(f->stft);
        double energy = sa_stft_window_energy(f->stft);
        sa_mel_log_energies(f->mel, power, f->config.log_floor, log_mel + frames * bands);
        double flat, weighted;
        sa_weighted_power_sums(f->flat_factors, f->a_factors, power, f->bins, &flat, &weighted);
        flat /= energy;
        weighted /= energy;
        dbfs[frames] = (float)(10.0 * log10(fmax(flat, mean_square_floor)) + fs_offset);
        db_spl[frames] = (float)(10.0 * log10(fmax(weighted, mean_square_floor)) + fs_offset +
                                 f->config.level_offset_db);
        frames++;
    }
    *frames_written = frames;
    return SA_OK;
}
