"""A trained cleavage-site predictor with its window encoder: save, load, predict users' sequences.

>>> from fscompbio.cleavage import CleavageSiteModel   # doctest: +SKIP
>>> model = CleavageSiteModel.load("results/chapter5/model/cleavage_model.pkl")   # doctest: +SKIP
>>> table = model.predict_fasta("proteins.fasta")   # doctest: +SKIP
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from ._features import representation_matrix

__all__ = ["CleavageSiteModel", "describe_fitted", "write_predictions", "MODEL_FORMAT"]


#: the tag and version stored with a saved model
MODEL_FORMAT = ("fscompbio-cleavage-model", 1)
_REPRESENTATIONS = ("scales", "sf", "onehot", "codes", "codes_position", "scales_codes_position")


def describe_fitted(model):
    """A JSON-able summary of a fitted table-P1 approach (features used, tuned SVM, MKL sets).

    Parameters
    ----------
    model : estimator
        A fitted :class:`GaussianSVC`, :class:`SelectThenSVM`, :class:`RandSelMKL`
        or :class:`PositionWeightMatrix`.

    Returns
    -------
    dict
        Any of ``n_features``, ``C``, ``gamma``, ``n_support_vectors``,
        ``validation`` (sizes and AUCs of the candidate feature sets),
        ``selector_support_size``, ``mkl_feature_set_sizes``, ``mkl_nu``.
    """
    info = {}
    if hasattr(model, "weights_") and hasattr(model, "base_"):  # CombinedSiteScorer: its SVM, and the weights
        info["combination_weights"] = [float(w) for w in model.weights_]
        info["n_holdout_sequences"] = int(model.holdout_groups_.size)
        model = model.base_
    svm = getattr(model, "svm_", model)
    if hasattr(model, "support_") and hasattr(model, "svm_"):
        info["n_features"] = int(model.support_.size)
    elif hasattr(model, "n_features_in_"):
        info["n_features"] = int(model.n_features_in_)
    if hasattr(svm, "C_"):
        info["C"] = float(svm.C_)
        info["gamma"] = float(svm.gamma_)
        info["n_support_vectors"] = int(svm.support_vectors_.shape[0])
        if svm.cv_results_ is not None:
            info["svm_grid"] = {k: np.asarray(v).tolist() for k, v in svm.cv_results_.items()}
    if getattr(model, "validation_", None) is not None:
        info["validation"] = model.validation_
    sel = getattr(model, "selector_", None)
    if sel is not None and hasattr(sel, "get_support"):
        info["selector_support_size"] = int(np.count_nonzero(sel.get_support()))
    if hasattr(model, "feature_sets_"):
        info["mkl_feature_set_sizes"] = [int(len(s)) for s in model.feature_sets_]
        info["mkl_nu"] = float(model.mkl_.nu_)
        info["n_features"] = int(len(model.feature_sets_[0]))
    return info


class CleavageSiteModel:
    """A fitted cleavage-site predictor and everything needed to encode new sequences.

    Parameters
    ----------
    estimator : fitted estimator
        Scores windows (``decision_function``), e.g. a fitted approach of
        :func:`fscompbio.evaluation.make_approach`.
    representation : {"scales", "sf", "onehot", "codes", "codes_position", "scales_codes_position"}
        The estimator's input (:data:`fscompbio.evaluation.APPROACH_REPRESENTATION`).
    scales : pandas.DataFrame, default=None
        The amino-acid scale table (:func:`fscompbio.sequences.load_aa_scales`);
        needed for ``"scales"`` and ``"sf"``. Stored in the model, so
        prediction does not need the table's file.
    sparse_filter : fitted SparseFiltering, default=None
        Needed for ``"sf"``: the learned representation of the scale encoding.
    prefix, before, after : int, default=50, 9, 2
        The window settings the estimator was trained with.
    metadata : dict, default=None
        Free-form provenance (approach, protocol, config, accuracy, ...).

    Notes
    -----
    :meth:`save` pickles the model; :meth:`load` unpickles it, which runs code
    from the file: load only models you made or trust.
    """

    def __init__(self, estimator, *, representation, scales=None, sparse_filter=None, prefix=50, before=9, after=2,
                 metadata=None):
        if representation not in _REPRESENTATIONS:
            raise ValueError(f"representation must be one of {', '.join(_REPRESENTATIONS)}; got {representation!r}")
        if representation in ("scales", "sf", "scales_codes_position") and scales is None:
            raise ValueError(f"representation {representation!r} needs the scale table (scales=...)")
        if representation == "sf" and sparse_filter is None:
            raise ValueError("representation 'sf' needs the fitted sparse filter (sparse_filter=...)")
        check_is_fitted(estimator)
        self.estimator = estimator
        self.representation = representation
        self.scales = scales
        self.sparse_filter = sparse_filter
        self.prefix = int(prefix)
        self.before = int(before)
        self.after = int(after)
        self.metadata = dict(metadata or {})

    # ------------------------------------------------------------------
    def encode(self, windows):
        """The estimator's input for a table of windows (``window`` and ``target`` columns)."""
        from ..sequences import encode_windows, residue_codes

        codes = residue_codes(windows)
        scales = sf = None
        if self.representation in ("scales", "sf", "scales_codes_position"):
            scales = encode_windows(windows, self.scales).astype(np.float32)
            if self.representation == "sf":
                sf = self.sparse_filter.transform(scales)
        return representation_matrix(self.representation, scales=scales, codes=codes,
                                     target=np.asarray(windows["target"]), sf=sf, first_target=self.before + 1)

    def score_windows(self, sequences):
        """Every candidate window of ``sequences`` (mapping accession -> sequence) with its score."""
        from ..sequences import candidate_windows

        windows = candidate_windows(sequences, prefix=self.prefix, before=self.before, after=self.after)
        windows["score"] = np.asarray(self.estimator.decision_function(self.encode(windows)), dtype=float)
        return windows

    def predict(self, sequences, *, n_alternatives=3):
        """Predicted cleavage site of each sequence.

        Parameters
        ----------
        sequences : mapping of str -> str, or sequence of (accession, sequence) pairs
        n_alternatives : int, default=3
            The next-best candidate sites reported per sequence.

        Returns
        -------
        table : pandas.DataFrame
            One row per sequence, in input order: ``accession``,
            ``cleavage_site`` (1-based position of the last residue of the
            signal peptide, as UniProt annotates it; cleavage is after it),
            ``score`` (the top window's score; higher = more confident),
            ``n_candidates`` (windows scored), and ``alternatives``
            (``site:score`` of the next ``n_alternatives`` candidates,
            comma-separated, best first).
        """
        scored = self.score_windows(sequences)
        rows = []
        for accession, part in scored.groupby("accession", sort=False):
            order = np.argsort(-part["score"].to_numpy(), kind="stable")
            sites = part["target"].to_numpy()[order] - 1  # the target is the first mature residue
            scores = part["score"].to_numpy()[order]
            alt = ",".join(f"{int(s)}:{v:.4g}" for s, v in zip(sites[1 : 1 + n_alternatives],
                                                                scores[1 : 1 + n_alternatives]))
            rows.append({"accession": accession, "cleavage_site": int(sites[0]), "score": float(scores[0]),
                         "n_candidates": int(len(part)), "alternatives": alt})
        return pd.DataFrame(rows, columns=["accession", "cleavage_site", "score", "n_candidates", "alternatives"])

    def predict_fasta(self, fasta_path, *, n_alternatives=3):
        """:meth:`predict` for every record of a FASTA file (header ``>ACC`` or ``>sp|ACC|NAME``)."""
        from ..sequences import read_fasta

        fasta_path = Path(fasta_path)
        sequences = read_fasta(fasta_path)
        try:
            return self.predict(sequences, n_alternatives=n_alternatives)
        except ValueError as exc:  # name the file, as the reader does
            raise ValueError(f"{fasta_path}: {exc}") from exc

    # ------------------------------------------------------------------
    def save(self, path):
        """Pickle the model to ``path`` atomically."""
        from ..io import atomic_path

        with atomic_path(path) as tmp, open(tmp, "wb") as fh:
            pickle.dump({"format": MODEL_FORMAT[0], "version": MODEL_FORMAT[1], "model": self}, fh,
                        protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def load(cls, path):
        """Load a model written by :meth:`save` (runs code from the file: trusted files only)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such model file")
        try:
            with open(path, "rb") as fh:
                payload = pickle.load(fh)
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, IndexError) as exc:
            raise ValueError(f"{path}: not a cleavage-site model written by fscompbio ({exc})") from exc
        if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT[0]:
            raise ValueError(f"{path}: not a cleavage-site model written by fscompbio")
        if payload.get("version") != MODEL_FORMAT[1]:
            raise ValueError(f"{path}: model format version {payload.get('version')!r}; this fscompbio reads "
                             f"version {MODEL_FORMAT[1]}")
        return payload["model"]


def write_predictions(table, path):
    """Write :meth:`CleavageSiteModel.predict`'s table as TSV to ``path`` atomically (``"-"``: standard output)."""
    import sys

    from ..io import atomic_path

    if str(path) == "-":
        table.to_csv(sys.stdout, sep="\t", index=False)
        return
    with atomic_path(path) as tmp:
        table.to_csv(tmp, sep="\t", index=False)
