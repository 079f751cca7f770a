/* CSleepDSP: the C DSP core of SleepAnalysis. Umbrella header: one header per component. */
#ifndef CSLEEPDSP_H
#define CSLEEPDSP_H

#include "sa_common.h"
#include "sa_breathing.h"

#endif
