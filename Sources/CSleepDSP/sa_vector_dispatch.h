/* Runtime dispatch of the heaviest loops: on x86-64 with clang, a function marked SA_VECTOR_CLONES is compiled
   twice, for AVX2 + FMA (x86-64-v3) and for the baseline, and the loader picks the version the CPU runs (an
   ifunc). Elsewhere the mark is empty. No command-line flags are needed, so the package stays usable as a
   dependency. Include it after the other headers of a .c file. */
#ifndef SA_VECTOR_DISPATCH_H
#define SA_VECTOR_DISPATCH_H
#if defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SA_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SA_VECTOR_CLONES
#endif
#endif
