"""Whether a retrained event model may replace the shipped one: issue 26's acceptance checks on its figures.

    git show HEAD:Models/events.figures.json > /tmp/shipped-figures.json
    python3 Tools/events/studies/compare_figures.py --shipped /tmp/shipped-figures.json --new Models/events.figures.json \
        [--band-limited BANDLIMITED.json] [--tolerance 0.02]

Per type, the F1 on held-out clean clips of the shipped model (`heldOutClean`) against the new one's on the same
clip set (`heldOutCleanByDataset.shared` when the new run joined other data roots, so that the comparison is on the
clips both were scored on; `heldOutClean` otherwise). Then the targets: macro-F1 over the types with at least 30
clips >= 0.85 (on all the new run's clips), snoring F1 >= 0.96, no type lower than the shipped one by more than
--tolerance (0: strictly no type worse), and, with --band-limited (the JSON of `bandlimited_recall.py` on the
new fold models), recall at the 4-kHz low-pass: snoring >= 0.85, talking and coughing >= 0.80. Prints a Markdown
table and each check; the exit status is 1 when a check fails, 0 when all pass."""
import argparse
import json
import sys

MACRO_TARGET = 0.85
SNORING_TARGET = 0.96
BAND_LIMITED_TARGETS = {"snoring": 0.85, "talking": 0.80, "coughing": 0.80}
# bandlimited_recall.py's names of 4-kHz low-passed clips: the package's own filter first, then scipy's.
FOUR_KHZ_VARIANTS = ("package4kHz", "lowPass4kHz")


def comparable(figures):
    """The new run's held-out report on the shipped model's clip set."""
    by_dataset = figures.get("heldOutCleanByDataset", {})
    return by_dataset.get("shared", figures["heldOutClean"])


def macro_at_least_30(report):
    """Macro-F1 over the types with at least 30 clips, for figures written before tune_thresholds.py gave it."""
    f1 = [v["f1"] for v in report["classes"].values() if v["support"] >= 30]
    return round(sum(f1) / len(f1), 4) if f1 else None


def check(name, passed, detail):
    print(f"- [{'x' if passed else ' '}] {name}: {detail}")
    return passed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shipped", required=True, help="figures JSON of the shipped model")
    ap.add_argument("--new", required=True, help="figures JSON of the retrained model (tune_thresholds.py)")
    ap.add_argument("--band-limited", default=None, help="bandlimited_recall.py --json of the new fold models")
    ap.add_argument("--tolerance", type=float, default=0.0, help="F1 a type may lose and still pass")
    args = ap.parse_args()
    with open(args.shipped) as fh:
        shipped = json.load(fh)["heldOutClean"]
    with open(args.new) as fh:
        new_figures = json.load(fh)
    new = comparable(new_figures)

    print("| type | clips | shipped F1 | new F1 | change |")
    print("| --- | ---: | ---: | ---: | ---: |")
    worse = []
    for name in sorted(set(shipped["classes"]) | set(new["classes"])):
        old_v, new_v = shipped["classes"].get(name), new["classes"].get(name)
        if old_v is None or new_v is None:
            print(f"| {name} | — | {old_v and old_v['f1']} | {new_v and new_v['f1']} | — |")
            continue
        change = new_v["f1"] - old_v["f1"]
        if change < -args.tolerance:
            worse.append(f"{name} {old_v['f1']:.3f} -> {new_v['f1']:.3f}")
        print(f"| {name} | {new_v['support']} | {old_v['f1']:.3f} | {new_v['f1']:.3f} | {change:+.3f} |")
    print(f"| **macro** | | {shipped['macroF1']:.3f} | {new['macroF1']:.3f} | {new['macroF1'] - shipped['macroF1']:+.3f} |")
    print()

    all_clips = new_figures["heldOutClean"]
    macro = all_clips.get("macroF1AtLeast30Clips", macro_at_least_30(all_clips))
    snoring = new["classes"].get("snoring", {}).get("f1", 0.0)
    results = [
        check(f"macro-F1 over types with >= 30 clips >= {MACRO_TARGET}", macro is not None and macro >= MACRO_TARGET,
              f"{macro}"),
        check(f"snoring F1 >= {SNORING_TARGET}", snoring >= SNORING_TARGET, f"{snoring:.3f}"),
        check(f"no type worse than shipped by more than {args.tolerance}", not worse,
              "; ".join(worse) or "none worse"),
    ]
    if args.band_limited:
        with open(args.band_limited) as fh:
            band = json.load(fh)
        variant = next((v for v in FOUR_KHZ_VARIANTS if v in band), None)
        if variant is None:
            results.append(check("4-kHz recall", False, f"no {' or '.join(FOUR_KHZ_VARIANTS)} in {args.band_limited}"))
        else:
            for name, target in BAND_LIMITED_TARGETS.items():
                recall = band[variant].get(name, {}).get("recall")
                results.append(check(f"{name} recall at 4 kHz >= {target}", recall is not None and recall >= target,
                                     f"{recall}"))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
