#include "sa_a_weighting.h"

#include <math.h>
#include "sa_float_policy.h"

/* Pole frequencies of IEC 61672-1:2013, Annex E (E.2 and E.3). */
static const double f1 = 20.598997;
static const double f2 = 107.65265;
static const double f3 = 737.86223;
static const double f4 = 12194.217;
static const double normalisation_db = 2.00;

/* The power response |R_A(f)|^2 before normalisation. */
static double a_power(double f) {
    double f2sq = f * f;
    double numerator = f4 * f4 * f2sq * f2sq;
    double d1 = f2sq + f1 * f1;
    double d4 = f2sq + f4 * f4;
    double r = numerator / (d1 * sqrt((f2sq + f2 * f2) * (f2sq + f3 * f3)) * d4);
    return r * r;
}

double sa_a_weighting_db(double frequency_hz) {
    if (!(frequency_hz > 0)) return -INFINITY;
    return 10.0 * log10(a_power(frequency_hz)) + normalisation_db;
}

sa_status sa_a_weighting_power_gains(double sample_rate, size_t fft_size, float *gains) {
    if (gains == NULL || fft_size < 2) return SA_ERR_INVALID_ARGUMENT;
    if (!(sample_rate >= 1.0 && sample_rate <= 1.0e6)) return SA_ERR_UNSUPPORTED_RATE;
    double scale = pow(10.0, normalisation_db / 10.0);
    gains[0] = 0.0f;
    for (size_t k = 1; k <= fft_size / 2; k++) {
        double f = (double)k * sample_rate / (double)fft_size;
        gains[k] = (float)(a_power(f) * scale);
    }
    return SA_OK;
}
