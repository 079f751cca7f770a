#include "sa_fft.h"

#include <fftw3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct sa_fft {
    size_t size;
    float *real;
    fftwf_complex *complex;
    fftwf_plan forward;
    fftwf_plan inverse;
};

static pthread_once_t planner_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

static void make_planner_thread_safe(void) { fftwf_make_planner_thread_safe(); }

sa_status sa_fft_init(size_t size, sa_fft **out) {
    if (out == NULL) return SA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (size < 2 || size > (1u << 26)) return SA_ERR_INVALID_ARGUMENT;
    pthread_once(&planner_once, make_planner_thread_safe);

    sa_fft *fft = calloc(1, sizeof *fft);
    if (fft == NULL) return SA_ERR_OUT_OF_MEMORY;
    fft->size = size;
    fft->real = fftwf_alloc_real(size);
    fft->complex = fftwf_alloc_complex(size / 2 + 1);
    if (fft->real == NULL || fft->complex == NULL) {
        sa_fft_destroy(&fft);
        return SA_ERR_OUT_OF_MEMORY;
    }
    /* FFTW_ESTIMATE keeps init fast and deterministic and never touches the buffers. The lock is belt and
       braces on top of the thread-safe planner (older FFTW builds lack full planner thread safety). */
    pthread_mutex_lock(&planner_lock);
    fft->forward = fftwf_plan_dft_r2c_1d((int)size, fft->real, fft->complex, FFTW_ESTIMATE);
    fft->inverse = fftwf_plan_dft_c2r_1d((int)size, fft->complex, fft->real, FFTW_ESTIMATE);
    pthread_mutex_unlock(&planner_lock);
    if (fft->forward == NULL || fft->inverse == NULL) {
        sa_fft_destroy(&fft);
        return SA_ERR_BACKEND;
    }
    memset(fft->real, 0, size * sizeof(float));
    memset(fft->complex, 0, (size / 2 + 1) * sizeof(fftwf_complex));
    *out = fft;
    return SA_OK;
}

void sa_fft_destroy(sa_fft **fft) {
    if (fft == NULL || *fft == NULL) return;
    sa_fft *f = *fft;
    pthread_mutex_lock(&planner_lock);
    if (f->forward) fftwf_destroy_plan(f->forward);
    if (f->inverse) fftwf_destroy_plan(f->inverse);
    pthread_mutex_unlock(&planner_lock);
    fftwf_free(f->real);
    fftwf_free(f->complex);
    free(f);
    *fft = NULL;
}

size_t sa_fft_size(const sa_fft *fft) { return fft->size; }

float *sa_fft_real_buffer(sa_fft *fft) { return fft->real; }

float *sa_fft_complex_buffer(sa_fft *fft) { return (float *)fft->complex; }

void sa_fft_execute_forward(sa_fft *fft) { fftwf_execute(fft->forward); }

void sa_fft_execute_inverse(sa_fft *fft) { fftwf_execute(fft->inverse); }

sa_status sa_fft_forward(sa_fft *fft, const float *samples, float *spectrum) {
    if (fft == NULL || samples == NULL || spectrum == NULL) return SA_ERR_INVALID_ARGUMENT;
    memcpy(fft->real, samples, fft->size * sizeof(float));
    fftwf_execute(fft->forward);
    memcpy(spectrum, fft->complex, (fft->size / 2 + 1) * sizeof(fftwf_complex));
    return SA_OK;
}
