#!/usr/bin/env python3
"""Draws the reliability diagram of the staging model's per-epoch probabilities as an SVG, from the JSON of
`sleepanalysis evaluate staging --format json` (its `reliability` bins, whole night and `realTime`).

    .build/release/sleepanalysis evaluate staging --dataset walch --root ../shared/data/staging/walch \\
        --model-dir /tmp/staging/loso --format json > /tmp/staging/loso-swift.json
    python3 Tools/staging/reliability_svg.py /tmp/staging/loso-swift.json --out Models/staging-reliability.svg \\
        [--before /tmp/staging/loso-swift-uncalibrated.json]

Each bin (the probability of the epoch's most probable stage, 10 bins) is a point at (mean probability, share of
its epochs staged right), its area growing with its epochs (bins of fewer than 20 epochs are left out); the
diagonal is perfect calibration. With --before, the
same night's uncalibrated points are drawn hollow. Needs only the standard library.
"""
import argparse
import json

SIZE, MARGIN = 320, 44
MIN_EPOCHS = 20  # a bin with fewer epochs is not drawn (its share right is noise); the ECE counts every epoch
COLOURS = {"wholeNight": "#1f5fa8", "realTime": "#c0572b"}
LABELS = {"wholeNight": "whole night", "realTime": "real time"}


def x(v):
    return MARGIN + v * SIZE


def y(v):
    return MARGIN + (1 - v) * SIZE


def bins(document, context):
    part = document if context == "wholeNight" else document["realTime"]
    return part["reliability"], part["expectedCalibrationError"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("evaluation")
    parser.add_argument("--before", help="the same evaluation with the calibration removed (drawn hollow)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.evaluation) as handle:
        after = json.load(handle)
    before = None
    if args.before:
        with open(args.before) as handle:
            before = json.load(handle)
    width, height = SIZE + 2 * MARGIN + 190, SIZE + 2 * MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<rect x="{x(0)}" y="{y(1)}" width="{SIZE}" height="{SIZE}" fill="none" stroke="#888"/>',
           f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#888" stroke-dasharray="4 3"/>']
    for tick in range(0, 11, 2):
        v = tick / 10
        out.append(f'<text x="{x(v)}" y="{y(0) + 14}" text-anchor="middle">{v:.1f}</text>')
        out.append(f'<text x="{x(0) - 6}" y="{y(v) + 4}" text-anchor="end">{v:.1f}</text>')
    out.append(f'<text x="{x(0.5)}" y="{height - 8}" text-anchor="middle">probability of the stage shown</text>')
    out.append(f'<text transform="translate(12 {y(0.5)}) rotate(-90)" text-anchor="middle">'
               'share of those epochs staged right</text>')
    legend_y = y(1) + 10
    for context, colour in COLOURS.items():
        total = sum(b["epochs"] for b in bins(after, context)[0]) or 1
        sources = [(after, True)] + ([(before, False)] if before else [])
        for document, filled in sources:
            points = [b for b in bins(document, context)[0] if b["epochs"] >= MIN_EPOCHS and b["accuracy"] is not None]
            path = " ".join(f'{x(b["meanConfidence"]):.1f},{y(b["accuracy"]):.1f}' for b in points)
            dash = "" if filled else ' stroke-dasharray="2 2"'
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.2"{dash}/>')
            for b in points:
                r = 2 + 10 * (b["epochs"] / total) ** 0.5
                fill = colour if filled else "white"
                out.append(f'<circle cx="{x(b["meanConfidence"]):.1f}" cy="{y(b["accuracy"]):.1f}" r="{r:.1f}" '
                           f'fill="{fill}" fill-opacity="0.6" stroke="{colour}"/>')
            ece = bins(document, context)[1]
            label = f'{LABELS[context]}{"" if filled else ", before calibration"}: ECE {ece:.3f}'
            legend_fill = colour if filled else "white"
            out.append(f'<circle cx="{x(1) + 16}" cy="{legend_y - 4}" r="4" fill="{legend_fill}" '
                       f'stroke="{colour}"/>')
            out.append(f'<text x="{x(1) + 24}" y="{legend_y}">{label}</text>')
            legend_y += 16
    out.append("</svg>")
    with open(args.out, "w") as handle:
        handle.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
