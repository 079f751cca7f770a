/* Private: a fast single-precision e^x for the DSP loops that turn log energies back into energies (the bandwidth
   check's band sums, the breathing envelope). Include it after sa_float_policy.h, so that it is compiled under
   the policy of the loops it is inlined into. */
#ifndef SA_FAST_EXP_H
#define SA_FAST_EXP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* e^x, x clamped to -86 ... 88 (so e^-86 stands for anything smaller): 2^(x log2 e) as 2^n * 2^f, |f| <= 1/2, with a degree-6
   Taylor polynomial for 2^f (truncation under 1.3e-7 relative, plus float rounding). Branch-free, so a loop over it vectorises. */
static inline float fast_exp(float x) {
    x = x < -86.0f ? -86.0f : (x > 88.0f ? 88.0f : x);
    const float t = x * 1.44269504088896341f;
    const float n = rintf(t);
    const float f = t - n;
    float p = 1.5403530e-4f; /* (ln 2)^k / k!, k = 6 ... 1 */
    p = p * f + 1.3333558e-3f;
    p = p * f + 9.6181291e-3f;
    p = p * f + 5.5504109e-2f;
    p = p * f + 2.4022651e-1f;
    p = p * f + 6.9314718e-1f;
    p = p * f + 1.0f;
    int32_t bits;
    memcpy(&bits, &p, sizeof bits);
    bits += (int32_t)n << 23;
    float result;
    memcpy(&result, &bits, sizeof result);
    return result;
}

#endif
