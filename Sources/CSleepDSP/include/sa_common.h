/* Shared definitions of the C DSP core: error codes. */
#ifndef SA_COMMON_H
#define SA_COMMON_H

/* Every function that can fail returns one of these. */
typedef enum sa_status {
    SA_OK = 0,
    SA_ERR_INVALID_ARGUMENT = 1,
    SA_ERR_OUT_OF_MEMORY = 2,
    SA_ERR_UNSUPPORTED_RATE = 3,
    SA_ERR_BACKEND = 4
} sa_status;

/* A human-readable name for a status code. */
const char *sa_status_message(sa_status status);

#endif
