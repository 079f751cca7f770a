/* Private: runtime dispatch of the heaviest loops. On x86-64 Linux with clang and glibc, a function marked
   SA_VECTOR_CLONES is compiled twice, for x86-64-v3 (AVX2 + FMA) and for the baseline, and the loader picks the
   version the CPU runs (an ifunc, which needs glibc). Elsewhere the mark is empty. No command-line flags are
   needed, so the package stays usable as a dependency. Also the 8-float vector type the hot loops use. */
#ifndef SA_VECTOR_DISPATCH_H
#define SA_VECTOR_DISPATCH_H

#include <stdlib.h> /* defines __GLIBC__ on glibc */

#if defined(__x86_64__) && defined(__linux__) && defined(__clang__) && defined(__GLIBC__)
#define SA_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SA_VECTOR_CLONES
#endif

/* Eight floats, one AVX register (two SSE registers in the baseline build). Load and store with memcpy, and
   never pass one by value between functions: that would change the calling convention between the two builds. */
typedef float sa_float8 __attribute__((vector_size(32)));

#endif
