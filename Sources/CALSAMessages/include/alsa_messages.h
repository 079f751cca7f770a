#ifndef SLEEPANALYSIS_ALSA_MESSAGES_H
#define SLEEPANALYSIS_ALSA_MESSAGES_H

#include <stddef.h>

/// Routes libasound's own error messages ("ALSA lib conf.c:…") to a handler that keeps the last one instead of
/// printing it on standard error. Swift cannot write the variadic C callback `snd_lib_error_set_handler` takes,
/// hence this file. Safe to call more than once and from any thread; the handler is installed once.
void sa_alsa_keep_library_messages(void);

/// Copies the last message libasound reported since the previous call into `buffer` (NUL-terminated, cut to
/// `capacity`) and forgets it.
///
/// Returns the number of bytes copied (without the NUL), or 0 when there was no message.
size_t sa_alsa_take_library_message(char *buffer, size_t capacity);

#endif
