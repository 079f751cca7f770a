#include "sa_common.h"

const char *sa_status_message(sa_status status) {
    switch (status) {
    case SA_OK: return "ok";
    case SA_ERR_INVALID_ARGUMENT: return "invalid argument";
    case SA_ERR_OUT_OF_MEMORY: return "out of memory";
    case SA_ERR_UNSUPPORTED_RATE: return "unsupported sample rate";
    case SA_ERR_BACKEND: return "backend library failure";
    }
    return "unknown status";
}
