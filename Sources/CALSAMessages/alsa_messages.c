#include "alsa_messages.h"

#include <alsa/asoundlib.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_message[512];

/// The handler: formats the message (without ALSA's file and line prefix) into `last_message`.
static void keep_message(const char *file, int line, const char *function, int err, const char *format, ...) {
    (void)file;
    (void)line;
    (void)function;
    char text[sizeof last_message];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    if (err != 0) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, ": %s", snd_strerror(err));
    }
    pthread_mutex_lock(&last_lock);
    memcpy(last_message, text, sizeof last_message);
    pthread_mutex_unlock(&last_lock);
}

static void install(void) { snd_lib_error_set_handler(keep_message); }

void sa_alsa_keep_library_messages(void) { pthread_once(&install_once, install); }

size_t sa_alsa_take_library_message(char *buffer, size_t capacity) {
    if (buffer == NULL || capacity == 0) return 0;
    pthread_mutex_lock(&last_lock);
    size_t length = strnlen(last_message, sizeof last_message);
    if (length >= capacity) length = capacity - 1;
    memcpy(buffer, last_message, length);
    buffer[length] = '\0';
    last_message[0] = '\0';
    pthread_mutex_unlock(&last_lock);
    return length;
}
