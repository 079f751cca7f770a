#include "sa_stft.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sa_fft.h"
#include "sa_vector_dispatch.h"
#include "sa_float_policy.h"

struct sa_stft {
    size_t size;
    size_t hop;
    size_t since_frame;     /* samples fed since the last frame ended */
    uint64_t samples_seen;  /* samples fed since the stream began */
    int64_t frames;
    double full_window_energy;
    double last_window_energy;
    float *history;         /* linear buffer of `capacity` samples; the window is history[end - size, end) */
    size_t capacity;
    size_t end;
    float *window;
    float *power;
    sa_fft *fft;
};

sa_status sa_stft_init(size_t fft_size, size_t hop_size, sa_stft **out) {
    if (out == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (fft_size < 2 || hop_size < 1) return SA_ERR_INVALID_ARGUMENT;
    sa_stft *s = calloc(1, sizeof *s);
    if (s == NULL) return SA_ERR_OUT_OF_MEMORY;
    s->size = fft_size;
    s->hop = hop_size;
    /* Room for several hops past the window, so samples are moved back only once every few frames. */
    s->capacity = fft_size + 4 * (fft_size > hop_size ? fft_size : hop_size);
    s->end = fft_size;
    s->history = calloc(s->capacity, sizeof(float));
    s->window = malloc(fft_size * sizeof(float));
    s->power = calloc(fft_size / 2 + 1, sizeof(float));
    if (s->history == NULL || s->window == NULL || s->power == NULL) {
        sa_stft_destroy(&s);
        return SA_ERR_OUT_OF_MEMORY;
    }
    sa_status status = sa_fft_init(fft_size, &s->fft);
    if (status != SA_OK) {
        sa_stft_destroy(&s);
        return status;
    }
    double energy = 0;
    for (size_t n = 0; n < fft_size; n++) {
        double w = 0.5 - 0.5 * cos(2.0 * M_PI * (double)n / (double)fft_size);
        s->window[n] = (float)w;
        energy += w * w;
    }
    s->full_window_energy = energy;
    *out = s;
    return SA_OK;
}

void sa_stft_destroy(sa_stft **stft) {
    if (stft == NULL || *stft == NULL) return;
    sa_stft *s = *stft;
    sa_fft_destroy(&s->fft);
    free(s->history);
    free(s->window);
    free(s->power);
    free(s);
    *stft = NULL;
}

/* Appends samples (count <= hop) to the history; the window stays the last `size` samples. */
static void append(sa_stft *s, const float *samples, size_t count) {
    if (s->end + count > s->capacity) {
        memmove(s->history, s->history + (s->end - s->size), s->size * sizeof(float));
        s->end = s->size;
    }
    memcpy(s->history + s->end, samples, count * sizeof(float));
    s->end += count;
    s->samples_seen += count;
}

SA_VECTOR_CLONES
static void transform(sa_stft *s) {
    const size_t n = s->size;
    float *restrict in = sa_fft_real_buffer(s->fft);
    const float *restrict history = s->history + (s->end - n);
    const float *restrict window = s->window;
    for (size_t i = 0; i < n; i++) in[i] = history[i] * window[i];
    sa_fft_execute_forward(s->fft);
    const float *restrict spectrum = sa_fft_complex_buffer(s->fft);
    float *restrict power = s->power;
    const size_t bins = n / 2 + 1;
    for (size_t k = 0; k < bins; k++) {
        float re = spectrum[2 * k], im = spectrum[2 * k + 1];
        power[k] = re * re + im * im;
    }
    if (s->samples_seen >= n) {
        s->last_window_energy = s->full_window_energy;
    } else {
        double energy = 0;
        for (size_t i = n - (size_t)s->samples_seen; i < n; i++) energy += (double)window[i] * window[i];
        s->last_window_energy = energy;
    }
    s->frames++;
    s->since_frame = 0;
}

size_t sa_stft_feed(sa_stft *s, const float *samples, size_t count, int *frame_ready) {
    *frame_ready = 0;
    size_t need = s->hop - s->since_frame;
    size_t take = count < need ? count : need;
    if (take > 0) append(s, samples, take);
    s->since_frame += take;
    if (s->since_frame == s->hop) {
        transform(s);
        *frame_ready = 1;
    }
    return take;
}

void sa_stft_flush(sa_stft *s, int *frame_ready) {
    *frame_ready = 0;
    if (s->since_frame == 0) return;
    transform(s);
    *frame_ready = 1;
}

size_t sa_stft_frames_for(const sa_stft *s, size_t count) { return (s->since_frame + count) / s->hop; }

const float *sa_stft_power(const sa_stft *s) { return s->power; }

const float *sa_stft_spectrum(const sa_stft *s) { return sa_fft_complex_buffer((sa_fft *)s->fft); }

double sa_stft_window_energy(const sa_stft *s) { return s->last_window_energy; }

int64_t sa_stft_frame_count(const sa_stft *s) { return s->frames; }
