"""One clip manifest from several data roots (each MANIFEST.tsv beside its clips), for build_dataset.py and train.py.

Rows keep their order (the first manifest's first), their columns and their groups; `file` becomes an absolute
path (so any --root works) and a column `dataset` names the root each row came from. eventdata.grouped_folds gives
the first root's rows the folds they have on their own, so figures on them stay comparable with earlier runs. Rain and
thunder labelled water or wind (the shared set's ESC-50 / ESC-10 rain and Minetest rain loops) become "other", as the
Debian import labels them: hard negatives for water and wind (`eventdata.with_hard_negatives`); `--keep-labels` keeps
every label as its manifest gives it (the recipe of the shipped events.bin, trained with rain as water)."""
import argparse
import csv
import os

import eventdata as ed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", action="append", required=True, metavar="NAME=PATH",
                    help="a data root's manifest, named (e.g. shared=../shared/data/audio/MANIFEST.tsv); repeat")
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep-labels", action="store_true",
                    help="keep rain and thunder as their manifests label them (no hard negatives)")
    args = ap.parse_args()
    relabel = (lambda row: row) if args.keep_labels else ed.with_hard_negatives
    rows, fields, groups = [], ["dataset"], {}
    for entry in args.manifest:
        name, path = entry.split("=", 1)
        root = os.path.dirname(os.path.abspath(path))
        for row in map(relabel, ed.read_manifest(path)):
            if groups.setdefault(row["group"], name) != name:
                raise SystemExit(f"group {row['group']} is in two data roots: it would cross the folds")
            row["file"] = os.path.join(root, row["file"])
            row["dataset"] = name
            fields += [k for k in row if k not in fields]
            rows.append(row)
    with open(args.out, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fields, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
