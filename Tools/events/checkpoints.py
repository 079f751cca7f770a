"""Checkpoints for a long training run, so a cross-validation or a final fit that was stopped part-way (the machine
went down, the session ended) starts again where it stopped instead of from the beginning.

A run's fingerprint is a hash of what decides its result: the training options (output paths left out), the size
and modification time of every input file, and the text of the training code. A checkpoint is used only when it
carries the same fingerprint, so a changed option, dataset or network never mixes with folds trained before it.
Every file is written under a temporary name and renamed, so a checkpoint is either whole or absent."""
import hashlib
import json
import os

import numpy as np

# Options that name where results go: they do not change what is trained.
OUTPUT_OPTIONS = {"oof", "out", "fold_models", "figures"}
# Options that name input files: their contents count, through size and modification time.
INPUT_OPTIONS = {"data", "manifest", "band_limited_copies", "train_datasets", "teacher"}
CODE_DIR = os.path.dirname(os.path.abspath(__file__))


def fingerprint(args):
    """The hash of a run's options, input files and training code."""
    digest = hashlib.sha256()
    options = {k: v for k, v in sorted(vars(args).items()) if k not in OUTPUT_OPTIONS}
    digest.update(json.dumps(options, sort_keys=True, default=str).encode())
    for name in sorted(INPUT_OPTIONS):
        value = getattr(args, name, None)
        for path in (value.split(",") if value else []):
            if path:
                stat = os.stat(path)
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    for name in sorted(os.listdir(CODE_DIR)):
        if name.endswith(".py"):
            with open(os.path.join(CODE_DIR, name), "rb") as fh:
                digest.update(name.encode() + fh.read())
    return digest.hexdigest()


def _replace(path, write):
    temporary = path + ".partial"
    write(temporary)
    os.replace(temporary, path)


def save_fold(directory, fold, print_, probabilities):
    """Record that `fold` is done: its held-out window probabilities under the run's fingerprint `print_`. Written
    after the fold's model file, so a recorded fold always has its model."""
    os.makedirs(directory, exist_ok=True)

    def write(path):
        with open(path, "wb") as fh:
            np.savez(fh, probabilities=probabilities, fingerprint=np.array(print_))

    _replace(os.path.join(directory, f"fold{fold}.done.npz"), write)


def load_fold(directory, fold, print_, rows):
    """The held-out probabilities of a fold done before by the same run (`rows` of them), or None."""
    path = os.path.join(directory, f"fold{fold}.done.npz")
    if not os.path.exists(path) or not os.path.exists(os.path.join(directory, f"fold{fold}.bin")):
        return None
    with np.load(path) as saved:
        if str(saved["fingerprint"]) != print_ or len(saved["probabilities"]) != rows:
            return None
        return saved["probabilities"].copy()


def final_model_done(out, print_):
    """Whether the final model at `out` was written by the same run."""
    stamp = out + ".fingerprint"
    if not (os.path.exists(out) and os.path.exists(stamp)):
        return False
    with open(stamp) as fh:
        return fh.read().strip() == print_


def mark_final_model(out, print_):
    """Record that the final model at `out` is whole and which run wrote it."""

    def write(path):
        with open(path, "w") as fh:
            fh.write(print_ + "\n")

    _replace(out + ".fingerprint", write)
