/* Floating-point policy of the DSP hot loops: reassociation and fused multiply-add are allowed, so the compiler can
   vectorise sums and dot products (what -ffast-math would permit, without its finite-math assumptions and without
   command-line flags, which SwiftPM forbids in dependencies). Include it after the other headers of a .c file. */
#ifndef SA_FLOAT_POLICY_H
#define SA_FLOAT_POLICY_H
#if defined(__clang__)
#pragma clang fp reassociate(on)
#pragma clang fp contract(fast)
#endif
#endif
