/* Splitting interleaved stereo into its two channels: every chunk of a two-sleeper night goes through it. */
#ifndef SA_INTERLEAVE_H
#define SA_INTERLEAVE_H

#include <stddef.h>

/* Copies the even samples of interleaved[0 ..< 2 * frames] to first[0 ..< frames] and the odd ones to
   second[0 ..< frames]. The outputs must not overlap the input or each other. */
void sa_deinterleave_pair(const float *interleaved, size_t frames, float *first, float *second);

#endif
