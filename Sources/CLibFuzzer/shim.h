// libFuzzer's entry point for programs that keep their own main (compiler-rt's FuzzerInterface.h). Nothing is
// linked from here: the symbol exists only in builds with -sanitize=fuzzer (Tools/fuzz/run.sh), and only the
// FUZZING build of sleepanalysis-fuzz refers to it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
