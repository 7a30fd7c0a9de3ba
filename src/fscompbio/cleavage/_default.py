"""The default cleavage-site model: the approach and training protocol that table P1's thesis-config run
chose by homology-aware cross-validation, trained from the shipped signal peptides on first use and cached.

What the model is, what it was chosen by and its cross-validated accuracy are recorded in the package
(``fscompbio/cleavage/data/default_model.json``, :func:`default_model_record`), written by
``python -m tools.default_cleavage_model`` from the archived thesis-config run; nothing in it is typed.

Why trained and cached rather than shipped: the model keeps 4,589 support vectors of 228 coordinates and
the basis they live in (a 9 MB compressed ``.npz``), nine times the sequences it is trained from (1 MB);
training it from the repository's ``data/signal_peptides`` takes about 25 s on an idle 2-core machine (peak
memory about 2 GB), is seeded, and gives the same model as the workflow's ``results/chapter5/model``
(the same C, gamma, support vectors and combination weights as the archived thesis run's). The cache is an ``.npz`` of arrays and JSON
(:meth:`CleavageSiteModel.save`), read without running code, in ``$FSCOMPBIO_CACHE_DIR``, else
``$XDG_CACHE_HOME/fscompbio``, else ``~/.cache/fscompbio``; its name carries a digest of the record, the
training data, the package version and scikit-learn's, so a change of any gives a new model.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ._model import CleavageSiteModel

__all__ = ["default_model_record", "default_cache_dir", "default_model_path", "train_default_model",
           "load_default_model", "shipped_data_dir"]

log = logging.getLogger("fscompbio.cleavage")

#: the environment variable naming the folder of the cached default model
CACHE_ENV = "FSCOMPBIO_CACHE_DIR"


def default_model_record():
    """The record of the default model (``fscompbio/cleavage/data/default_model.json``) as a dict.

    Keys: ``choice`` (approach, protocol and the archived table P1 figures that chose them),
    ``training`` (data files with their SHA-256, window geometry, protocol settings, approach
    parameters, seed), ``site_accuracy`` (exact, +-1 and +-2 residue accuracy under homology-aware CV,
    per fold and over folds) and ``provenance`` (the archive it was read from and how it was made).
    """
    ref = resources.files("fscompbio.cleavage").joinpath("data", "default_model.json")
    return json.loads(ref.read_text())


def shipped_data_dir():
    """The repository's ``data`` folder (the shipped sequences; ``None`` when the package runs without it)."""
    repo = Path(__file__).resolve().parents[3]
    return repo / "data" if (repo / "data" / "signal_peptides").is_dir() else None


def sha256(path):
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _training_files(record, data_dir):
    """The FASTA and TSV of the record, checked against their recorded SHA-256."""
    data = record["training"]["data"]
    root = Path(data_dir) if data_dir is not None else shipped_data_dir()
    if root is None:
        raise FileNotFoundError(
            "the default cleavage-site model is trained from the repository's data/signal_peptides, which is not "
            "beside this installation: run from a clone of the repository, or give --model")
    files = {}
    for key in ("fasta", "tsv"):
        path = root / Path(data[key]).relative_to("data")
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file (the default model's training data); give --model")
        if sha256(path) != data[f"{key}_sha256"]:
            raise ValueError(f"{path}: not the file the default model's cross-validated accuracy was measured on "
                             f"(SHA-256 differs from the record's {data[f'{key}_sha256'][:12]}...); regenerate the "
                             "record with `python -m tools.default_cleavage_model`, or give --model")
        files[key] = path
    return files["fasta"], files["tsv"]


def training_windows_of(record, fasta, tsv):
    """Every candidate window of the shipped sequences, as the record's geometry cuts them (one per row)."""
    from ..sequences import cleavage_windows, read_signal_peptides

    t = record["training"]
    records = read_signal_peptides(fasta, tsv, nonstandard=t["nonstandard"])
    return cleavage_windows(records, prefix=t["prefix"], before=t["before"], after=t["after"])


def train_default_model(record=None, *, data_dir=None):
    """Train the default model from the shipped sequences, as the workflow trains its saved model.

    Every window of every sequence; the training windows of the record's protocol drawn with its seed
    (only those are encoded); the approach fitted on them (``scripts/train_cleavage_model.py`` of the
    workflow does the same from its encoded windows, so both give the same model).

    Parameters
    ----------
    record : dict, default=None
        :func:`default_model_record` (the default).
    data_dir : path-like, default=None
        A folder holding ``signal_peptides/`` (default: the repository's ``data``).

    Returns
    -------
    CleavageSiteModel
        Its ``metadata``: the record's choice and CV figures, the training sizes and ``fit_seconds``.
    """
    import time

    from ..sequences import encode_windows, load_aa_scales, residue_codes
    from ._approaches import APPROACH_REPRESENTATION, make_approach
    from ._features import representation_matrix
    from ._folds import training_windows
    from ._model import describe_fitted
    from ._protocol import fit_approach

    record = default_model_record() if record is None else record
    fasta, tsv = _training_files(record, data_dir)
    t = record["training"]
    approach = record["choice"]["approach"]
    kind = APPROACH_REPRESENTATION[approach]
    start = time.perf_counter()
    windows = training_windows_of(record, fasta, tsv)
    y = windows["label"].to_numpy(np.int64)
    groups = pd.factorize(windows["accession"])[0].astype(np.int64)
    rng = np.random.RandomState(t["seed"])
    settings = t["protocol_settings"]
    train = training_windows(y, max_per_class=settings.get("max_train_per_class"),
                             negatives_per_positive=settings.get("negatives_per_positive"), random_state=rng)
    chosen = windows.iloc[train]
    scales = load_aa_scales()
    X = representation_matrix(kind, scales=encode_windows(chosen, scales).astype(np.float32),
                              codes=residue_codes(chosen), target=chosen["target"].to_numpy(np.int64),
                              first_target=t["before"] + 1)
    estimator, _ = fit_approach(make_approach(approach, t["approach_params"]), X, y[train], groups[train],
                                train=np.arange(train.size), random_state=rng)
    seconds = time.perf_counter() - start
    meta = {**record["choice"], "protocol_settings": settings, "site_accuracy": record["site_accuracy"],
            "trained_on": "every shipped sequence", "n_sequences": int(np.unique(groups).size),
            "n_train_windows": int(train.size), "n_train_positives": int(np.sum(y[train] == 1)),
            "fit_seconds": round(seconds, 1), "record": "fscompbio/cleavage/data/default_model.json",
            **describe_fitted(estimator)}
    return CleavageSiteModel(estimator, representation=kind, scales=scales, prefix=t["prefix"], before=t["before"],
                             after=t["after"], metadata=meta)


def default_cache_dir():
    """``$FSCOMPBIO_CACHE_DIR``, else ``$XDG_CACHE_HOME/fscompbio``, else ``~/.cache/fscompbio``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "fscompbio"


def _cache_key(record, data_dir):
    import sklearn

    from .. import __version__

    fasta, tsv = _training_files(record, data_dir)
    text = json.dumps({"record": {k: record[k] for k in ("choice", "training")}, "fasta": sha256(fasta),
                       "tsv": sha256(tsv), "fscompbio": __version__, "sklearn": sklearn.__version__},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_model_path(cache_dir=None, *, record=None, data_dir=None):
    """Where the default model is cached: ``<cache dir>/default_cleavage_model-<digest>.npz``."""
    record = default_model_record() if record is None else record
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return folder / f"default_cleavage_model-{_cache_key(record, data_dir)}.npz"


def load_default_model(cache_dir=None, *, data_dir=None):
    """The default model: read from the cache, or trained (about 25 s) and cached.

    A cache folder that cannot be written is not an error: the model is trained and used, with a warning.

    Returns
    -------
    model : CleavageSiteModel
    path : pathlib.Path
        The cache file (written, or read).
    trained : bool
        Whether the model was trained now.
    """
    record = default_model_record()
    path = default_model_path(cache_dir, record=record, data_dir=data_dir)
    if path.is_file():
        try:
            return CleavageSiteModel.load(path), path, False
        except ValueError as exc:  # a damaged cache file is replaced
            log.warning("%s; training the default model again", exc)
    log.warning("training the default cleavage-site model (%s, %s protocol) from the shipped sequences; about 25 s, "
                "once: it is cached in %s", record["choice"]["approach"], record["choice"]["protocol"], path.parent)
    model = train_default_model(record, data_dir=data_dir)
    try:
        model.save(path)
    except OSError as exc:
        log.warning("%s: cannot cache the default model (%s); it will be trained again next time (set %s to a "
                    "writable folder)", path, exc.strerror or exc, CACHE_ENV)
    return model, path, True
