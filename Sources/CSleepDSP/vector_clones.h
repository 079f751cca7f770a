/* Private: compile a hot loop twice, for x86-64-v3 (AVX2, FMA) and for the baseline, and pick one at load time
   (ifunc, so glibc only). Other architectures and C libraries get the plain function. */
#ifndef SA_VECTOR_CLONES_H
#define SA_VECTOR_CLONES_H

#include <stdlib.h> /* defines __GLIBC__ on glibc */

#if defined(__x86_64__) && defined(__linux__) && defined(__clang__) && defined(__GLIBC__)
#define SA_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SA_VECTOR_CLONES
#endif

#endif
