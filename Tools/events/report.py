"""Print the figures JSON written by train.py / signature.py / `evaluate events` as Markdown tables."""
import json
import sys


def table(rep, title):
    out = [f"**{title}** — macro-F1 {rep['macroF1']:.3f}", "",
           "| type | precision | recall | F1 | clips |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, s in sorted(rep["classes"].items()):
        out.append(f"| {name} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} | {s['support']} |")
    labels = sorted(set(rep["confusion"]) | {p for row in rep["confusion"].values() for p in row})
    out += ["", "Confusion (rows: true label, columns: predicted):", "",
            "| true \\ predicted | " + " | ".join(labels) + " |", "| --- |" + " ---: |" * len(labels)]
    for t in labels:
        row = rep["confusion"].get(t, {})
        out.append(f"| {t} | " + " | ".join(str(row.get(p, 0)) or "" for p in labels) + " |")
    return "\n".join(out)


def main():
    figures = json.load(open(sys.argv[1]))
    if "macroF1" in figures:
        print(table(figures, "evaluate events"))
        return
    for key in ("heldOutClean", "heldOutBedroomMix"):
        if key in figures:
            print(table(figures[key], key))
            print()
    for key, value in sorted(figures.items()):
        if not isinstance(value, dict):
            print(f"- {key}: {value}")


if __name__ == "__main__":
    main()
