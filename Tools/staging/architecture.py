#!/usr/bin/env python3
"""Measures sleep architecture on expert hypnograms and writes the staging prior (Models/staging-architecture.json).

    python3 Tools/staging/architecture.py --hypnograms ../shared/data/staging/sleepedf_hypnograms/epochs \
        --walch ../shared/data/staging/walch/labels --out Models/staging-architecture.json \
        [--report /tmp/architecture.json]

The prior is measured on the 39 Sleep-EDF cassette hypnograms only (R&K; S1+S2 light, S3+S4 deep): per bin of
minutes asleep since sleep onset (sleep onset = the first epoch of any sleep stage; minutes asleep = scored sleep
epochs before this one / 2), the shares of light, deep and REM among sleep epochs, add-one smoothed, and the
shares over the whole sleep period. The Swift stager multiplies the classifier's light/deep/REM probabilities by
share in the bin / overall share (Bayes' rule with a time-dependent class prior) and keeps the wake probability.

Also measured (written to the prior's `population` section, and with --report per recording): latency from sleep
onset to the first deep and the first REM epoch, the deep and REM shares of sleep in the whole sleep period,
and sleep-cycle length (time between the starts of successive REM periods; a REM period ends after 15 minutes
without REM). The Walch nights (--walch, PSG from lights-out to lights-on in a lab) are measured the same way
for comparison, and their latency from lights-out to sleep onset; they are not used in the prior, so a
leave-one-subject-out evaluation on them never sees its held-out subject through the prior.
Needs: numpy.
"""
import argparse
import csv
import glob
import json
import os

import numpy as np

RK_TO_STAGE = {"W": 0, "1": 1, "2": 1, "3": 2, "4": 2, "R": 3}
WALCH_TO_STAGE = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
# Bin edges in minutes asleep: 5-minute bins for the first hour (where deep and REM first appear), then 15 minutes.
BIN_EDGES = list(range(0, 60, 5)) + list(range(60, 540, 15))
REM_PERIOD_GAP_EPOCHS = 30


def sleepedf_nights(directory):
    nights = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        with open(path) as handle:
            nights[os.path.basename(path)[:-4]] = [RK_TO_STAGE.get(row["stage_rk"]) for row in csv.DictReader(handle)]
    return nights


def walch_nights(directory):
    nights = {}
    for path in sorted(glob.glob(os.path.join(directory, "*_labeled_sleep.txt"))):
        with open(path) as handle:
            stages = [WALCH_TO_STAGE.get(int(line.split()[1])) for line in handle if line.strip()]
        nights[os.path.basename(path).split("_")[0]] = stages
    return nights


def sleep_period(stages):
    """The stages from sleep onset to the last sleep epoch, and the index of sleep onset (None: no sleep)."""
    asleep = [i for i, s in enumerate(stages) if s not in (None, 0)]
    if not asleep:
        return None, None
    return stages[asleep[0]:asleep[-1] + 1], asleep[0]


def first_minutes(period, stage):
    return next((i / 2 for i, s in enumerate(period) if s == stage), None)


def cycle_lengths(period):
    """Minutes between the starts of successive REM periods."""
    starts, last_rem = [], None
    for i, s in enumerate(period):
        if s == 3:
            if last_rem is None or i - last_rem > REM_PERIOD_GAP_EPOCHS:
                starts.append(i)
            last_rem = i
    return [(b - a) / 2 for a, b in zip(starts[:-1], starts[1:])]


def measure(stages):
    period, onset = sleep_period(stages)
    if period is None:
        return None
    sleep = [s for s in period if s in (1, 2, 3)]
    return dict(
        onsetMinutes=onset / 2, firstDeepMinutes=first_minutes(period, 2), firstRemMinutes=first_minutes(period, 3),
        deepShare=sleep.count(2) / len(sleep), remShare=sleep.count(3) / len(sleep),
        lightShare=sleep.count(1) / len(sleep), sleepHours=len(sleep) / 120, cycleMinutes=cycle_lengths(period))


ONSET_MINUTES = 60  # the still-awake curve covers this many minutes after lights-out
ONSET_FLOOR = 0.02  # no minute is certain either way (a few people take longer than any night measured here)


def still_awake_by_minute(latencies):
    """Per minute since lights-out (0 ... ONSET_MINUTES), the share of nights whose sleep onset is later, floored at
    ONSET_FLOOR: the prior of wake before sleep onset for the modes without movement sensors."""
    latencies = np.asarray(latencies, dtype=float)
    curve = [(latencies > minute).mean() for minute in range(ONSET_MINUTES + 1)]
    return [round(min(max(float(share), ONSET_FLOOR), 1 - ONSET_FLOOR), 4) for share in curve]


def bin_of(minutes):
    return int(np.searchsorted(BIN_EDGES, minutes, side="right") - 1)


def shares_by_minutes_asleep(nights):
    counts = np.ones((len(BIN_EDGES), 3))  # add-one smoothing, light, deep, REM
    overall = np.zeros(3)
    for stages in nights.values():
        period, _ = sleep_period(stages)
        if period is None:
            continue
        asleep = 0
        for s in period:
            if s in (1, 2, 3):
                counts[bin_of(asleep / 2), s - 1] += 1
                overall[s - 1] += 1
                asleep += 1
    return counts / counts.sum(axis=1, keepdims=True), overall / overall.sum(), counts.sum(axis=1) - 3


def rem_at_overall_share(shares, overall, after_minutes):
    """The shares with REM at its overall share in every bin from `after_minutes` on (None: unchanged)."""
    if after_minutes is None:
        return shares
    out = np.array(shares, dtype=float)
    for i, start in enumerate(BIN_EDGES):
        if start >= after_minutes:
            rem = overall[2]
            out[i, :2] = out[i, :2] / out[i, :2].sum() * (1 - rem)
            out[i, 2] = rem
    return out


def summary(measures):
    def stats(key):
        values = np.array([m[key] for m in measures if m[key] is not None], dtype=float)
        return dict(min=float(values.min()), p05=float(np.percentile(values, 5)),
                    median=float(np.median(values)), p95=float(np.percentile(values, 95)), max=float(values.max()),
                    nights=int(len(values)))
    cycles = [c for m in measures for c in m["cycleMinutes"]]
    return dict(
        firstDeepMinutes=stats("firstDeepMinutes"), firstRemMinutes=stats("firstRemMinutes"),
        deepShare=stats("deepShare"), remShare=stats("remShare"), sleepHours=stats("sleepHours"),
        cycleMinutes=dict(median=float(np.median(cycles)), p25=float(np.percentile(cycles, 25)),
                          p75=float(np.percentile(cycles, 75)), cycles=len(cycles)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hypnograms", required=True, help="sleepedf_hypnograms/epochs")
    parser.add_argument("--walch", help="walch/labels (measured for comparison, not used in the prior)")
    parser.add_argument("--out", required=True, help="the prior file to write")
    parser.add_argument("--report", help="also write per-recording measures here")
    parser.add_argument("--rem-overall-after-minutes", type=float,
                        help="a variant tried for REM recall (model card, not shipped): from this many minutes "
                        "asleep REM keeps its overall share and light and deep share the rest in their measured "
                        "ratio, so the prior holds REM back at sleep onset only")
    args = parser.parse_args()

    sleepedf = sleepedf_nights(args.hypnograms)
    shares, overall, epochs = shares_by_minutes_asleep(sleepedf)
    sleepedf_measures = {name: measure(stages) for name, stages in sleepedf.items()}
    population = dict(sleepEDF=summary([m for m in sleepedf_measures.values() if m]))
    walch_measures = {}
    if args.walch:
        walch_measures = {name: measure(stages) for name, stages in walch_nights(args.walch).items()}
        population["walch"] = summary([m for m in walch_measures.values() if m])
        latencies = np.array([m["onsetMinutes"] for m in walch_measures.values() if m])
        population["walch"]["lightsOutToSleepOnsetMinutes"] = dict(
            median=float(np.median(latencies)), p95=float(np.percentile(latencies, 95)), max=float(latencies.max()))
    onset = {}
    if args.walch:
        onset = dict(stillAwakeByMinuteSinceStart=still_awake_by_minute(latencies),
                     stillAwakeSource=f"{len(latencies)} Walch nights, PSG from lights-out (sleep onset: first "
                     "epoch scored asleep)")
    prior = dict(
        format="sleepanalysis-staging-architecture-1",
        source=f"{len(sleepedf)} Sleep-EDF cassette hypnograms (PhysioNet), R&K scoring; S1+S2 light, S3+S4 deep",
        stages=["light", "deep", "rem"],
        binStartMinutesAsleep=BIN_EDGES,
        sharesByMinutesAsleep=rem_at_overall_share(
            np.round(shares, 5), np.round(overall, 5), args.rem_overall_after_minutes).tolist(),
        epochsPerBin=epochs.astype(int).tolist(),
        overallShares=np.round(overall, 5).tolist(),
        population=population,
        **onset,
    )
    with open(args.out, "w") as handle:
        json.dump(prior, handle, indent=1)
        handle.write("\n")
    if args.report:
        with open(args.report, "w") as handle:
            json.dump(dict(sleepEDF=sleepedf_measures, walch=walch_measures, population=population), handle, indent=1)
    print(json.dumps(population, indent=1))


if __name__ == "__main__":
    main()
