/* CSleepDSP: the C DSP core of SleepAnalysis. Umbrella header: one header per component. */
#ifndef CSLEEPDSP_H
#define CSLEEPDSP_H

#include "sa_common.h"
#include "sa_fft.h"
#include "sa_a_weighting.h"
#include "sa_stft.h"
#include "sa_mel.h"
#include "sa_front_end.h"
#include "sa_level_meter.h"
#include "sa_stereo.h"
#include "sa_event_pool.h"
#include "sa_mlp.h"
#include "sa_event_net.h"
#include "sa_breathing.h"
#include "sa_sample_checks.h"
#include "sa_interleave.h"

#endif
