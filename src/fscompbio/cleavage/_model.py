"""A trained cleavage-site predictor with its window encoder: save, load, predict users' sequences.

A model is saved as arrays + JSON (``.npz``, read without running code) or as a pickle (``.pkl``, the
workflow's file; any fitted approach).

>>> from fscompbio.cleavage import CleavageSiteModel   # doctest: +SKIP
>>> model = CleavageSiteModel.load("results/chapter5/model/cleavage_model.pkl")   # doctest: +SKIP
>>> table = model.predict_fasta("proteins.fasta")   # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from ..sequences import STANDARD_RESIDUES, looks_like_nucleotides
from ._arrays import estimator_from_arrays, estimator_to_arrays
from ._features import representation_matrix

__all__ = ["CleavageSiteModel", "choose_model", "describe_fitted", "write_predictions", "MODEL_FORMAT",
           "PREDICTION_COLUMNS", "PREDICTION_FORMATS", "PREDICTION_SCOPE"]


#: the tag and version stored with a saved model (pickle and arrays + JSON alike)
MODEL_FORMAT = ("fscompbio-cleavage-model", 1)
_ZIP_MAGIC = b"PK\x03\x04"  # an .npz is a zip archive
_STANDARD = frozenset(STANDARD_RESIDUES)  # the 20 residues the encodings know
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
        info["combination_scores"] = [str(name) for name in model.scores]
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


def choose_model(table, *, approach="best", protocol="best"):
    """The approach and protocol of the saved model: best homology-aware CV accuracy, with both CV figures.

    Homology-aware CV (test sequences without a close homologue in training)
    estimates the accuracy on proteins unlike the training set, which is what
    users' sequences are; random CV, by sequence, is the optimistic figure.

    Parameters
    ----------
    table : pandas.DataFrame
        Table P1 (``approach``, ``protocol``, ``cv``, ``accuracy_mean``,
        ``accuracy_sd``, ``n_folds``), one row per cell. Rows whose
        ``scales`` column is not ``"standardised"`` (cells on raw scales) are
        not candidates: the saved model encodes windows by the standardised
        scales.
    approach, protocol : str, default="best"
        Restrict the candidates to one approach / protocol (``"best"``: any).

    Returns
    -------
    dict
        ``approach``, ``protocol``, ``chosen_by``, ``homology_cv_accuracy_mean``
        and ``_sd``, ``random_cv_accuracy_mean`` and ``_sd`` (``None`` when the
        table has no random-CV cell for it), ``cv_n_folds``. Ties go to the
        approach first by name.
    """
    if "scales" in table.columns:
        table = table[table["scales"] == "standardised"]
    candidates = table[table["cv"] == "homology"]
    if approach != "best":
        candidates = candidates[candidates["approach"] == approach]
    if protocol != "best":
        candidates = candidates[candidates["protocol"] == protocol]
    if candidates.empty:
        raise ValueError(f"no homology-aware CV cell of table P1 matches approach={approach!r}, protocol={protocol!r}: "
                         "the model is chosen by homology-aware CV (chapter5.prediction.homology_approaches)")
    best = candidates.sort_values(["accuracy_mean", "approach", "protocol"], ascending=[False, True, True],
                                  kind="stable").iloc[0]
    rand = table[(table["cv"] == "random") & (table["approach"] == best["approach"])
                 & (table["protocol"] == best["protocol"])]
    return {
        "approach": str(best["approach"]),
        "protocol": str(best["protocol"]),
        "chosen_by": "homology-aware CV accuracy (test sequences without a close homologue in training)",
        "homology_cv_accuracy_mean": float(best["accuracy_mean"]),
        "homology_cv_accuracy_sd": float(best["accuracy_sd"]),
        "random_cv_accuracy_mean": None if rand.empty else float(rand["accuracy_mean"].iloc[0]),
        "random_cv_accuracy_sd": None if rand.empty else float(rand["accuracy_sd"].iloc[0]),
        "cv_n_folds": int(best["n_folds"]),
    }


class CleavageSiteModel:
    """A fitted cleavage-site predictor and everything needed to encode new sequences.

    Parameters
    ----------
    estimator : fitted estimator
        Scores windows (``decision_function``), e.g. a fitted approach of
        :func:`fscompbio.cleavage.make_approach`.
    representation : {"scales", "sf", "onehot", "codes", "codes_position", "scales_codes_position"}
        The estimator's input (:data:`fscompbio.cleavage.APPROACH_REPRESENTATION`).
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
    :meth:`save` to an ``.npz`` stores arrays and JSON, which :meth:`load`
    reads without running code (the Gaussian SVM, the weight matrices and the
    combined scorer); to any other name it pickles the model (every approach),
    and loading a pickle runs code from the file: load only models you made or
    trust.
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

    def skip_reason(self, sequence):
        """Why ``sequence`` cannot be scored (a ``status`` text), or ``None`` when it can."""
        head = str(sequence).upper()[: self.prefix]
        width = self.before + 1 + self.after
        if not head:
            return "skipped: empty sequence"
        if looks_like_nucleotides(sequence):
            return "skipped: looks like a nucleotide sequence (A, C, G, T, U, N), not a protein"
        if len(head) < width:
            return f"skipped: {len(head)} residues, shorter than one window ({width})"
        odd = next((i for i, a in enumerate(head) if a not in _STANDARD), None)
        if odd is not None:
            return f"skipped: residue {head[odd]!r} at {odd + 1}"
        return None

    def iter_predictions(self, records, *, n_alternatives=3, strict=False, chunk_size=500, counts=None,
                         with_sequence=False):
        """Predict record by record, scoring ``chunk_size`` distinct sequences at a time.

        Memory is bounded by the chunk, whatever the number of records. Every accession gets one row, in
        input order (:data:`PREDICTION_COLUMNS`), its ``status`` ``"ok"`` or why it was skipped (empty, a
        nucleotide sequence (:func:`fscompbio.sequences.looks_like_nucleotides`), shorter than one window, a
        non-standard residue within the first ``prefix`` residues). A record repeating an
        accession with the same sequence is counted as a duplicate and not repeated; with a different
        sequence it is an error. Sequences shared by several accessions are scored once.

        Parameters
        ----------
        records : iterable of (accession, sequence) or (record number, accession, sequence)
            E.g. :func:`fscompbio.sequences.iter_fasta`.
        n_alternatives : int, default=3
        strict : bool, default=False
            Stop at the first record that cannot be scored (``ValueError`` naming it) instead of reporting it.
        chunk_size : int, default=500
            Distinct sequences scored together.
        counts : dict or None
            Updated with ``"ok"``, ``"skipped"`` and ``"duplicate"`` counts.
        with_sequence : bool, default=False
            Add the record's whole (upper-case) ``sequence`` to its row (for the mature sequences).

        Yields
        ------
        row : dict
        """
        from ..sequences import candidate_windows

        counts = {} if counts is None else counts
        for key in ("ok", "skipped", "duplicate"):
            counts.setdefault(key, 0)
        seen, results, pending, to_score = {}, {}, [], []
        for number, item in enumerate(records, start=1):
            number, accession, sequence = item if len(item) == 3 else (number, *item)
            sequence = str(sequence).upper()
            digest = hashlib.blake2b(sequence.encode(), digest_size=16).digest()
            if accession in seen:
                if seen[accession][0] == digest:
                    counts["duplicate"] += 1
                    continue
                raise ValueError(f"duplicate accession {accession!r} (record {number}) with a different sequence "
                                 f"from record {seen[accession][1]}")
            seen[accession] = (digest, number)
            reason = self.skip_reason(sequence)
            kept = sequence if with_sequence else None
            if reason is not None:
                if strict:  # the windowing's own message names the accession, the residue or the length
                    if not looks_like_nucleotides(sequence):
                        candidate_windows({accession: sequence}, prefix=self.prefix, before=self.before,
                                          after=self.after)
                    raise ValueError(f"sequence {accession!r}: {reason.removeprefix('skipped: ')}")
                counts["skipped"] += 1
                pending.append((accession, None, reason, kept))
                continue
            head = sequence[: self.prefix]
            if head not in results:
                results[head] = None
                to_score.append(head)
            counts["ok"] += 1
            pending.append((accession, head, "ok", kept))
            if len(to_score) >= chunk_size:
                self._score_heads(to_score, results, n_alternatives)
                to_score = []
                yield from self._rows(pending, results, with_sequence)
                pending = []
        if to_score:
            self._score_heads(to_score, results, n_alternatives)
        yield from self._rows(pending, results, with_sequence)

    def _score_heads(self, heads, results, n_alternatives):
        windows = self.score_windows({i: h for i, h in enumerate(heads)})
        ids = windows["accession"].to_numpy()
        targets, scores = windows["target"].to_numpy(), windows["score"].to_numpy()
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        for start, stop in zip(starts, np.r_[starts[1:], ids.size]):
            order = np.argsort(-scores[start:stop], kind="stable")
            sites = targets[start:stop][order] - 1  # the target is the first mature residue
            top = scores[start:stop][order]
            alt = ",".join(f"{int(s)}:{v:.4g}" for s, v in zip(sites[1 : 1 + n_alternatives],
                                                                top[1 : 1 + n_alternatives]))
            results[heads[ids[start]]] = (int(sites[0]), float(top[0]), int(stop - start), alt)

    @staticmethod
    def _rows(pending, results, with_sequence=False):
        for accession, head, status, sequence in pending:
            if head is None:
                row = {"accession": accession, "cleavage_site": None, "score": None, "n_candidates": 0,
                       "alternatives": "", "status": status}
            else:
                site, score, n, alt = results[head]
                row = {"accession": accession, "cleavage_site": site, "score": score, "n_candidates": n,
                       "alternatives": alt, "status": status}
            if with_sequence:
                row["sequence"] = sequence
            yield row

    def predict(self, sequences, *, n_alternatives=3, strict=False):
        """Predicted cleavage site of each sequence.

        Parameters
        ----------
        sequences : mapping of str -> str, or sequence of (accession, sequence) pairs
        n_alternatives : int, default=3
            The next-best candidate sites reported per sequence.
        strict : bool, default=False
            Raise on a sequence that cannot be scored instead of reporting it in ``status``.

        Returns
        -------
        table : pandas.DataFrame
            One row per sequence, in input order: ``accession``,
            ``cleavage_site`` (1-based position of the last residue of the
            signal peptide, as UniProt annotates it; cleavage is after it),
            ``score`` (the top window's score; higher = more confident),
            ``n_candidates`` (windows scored), ``alternatives``
            (``site:score`` of the next ``n_alternatives`` candidates,
            comma-separated, best first) and ``status`` (``"ok"``, or why the
            sequence was skipped).
        """
        items = list(sequences.items()) if hasattr(sequences, "items") else list(sequences)
        if not items:
            raise ValueError("no sequences given")
        rows = list(self.iter_predictions(items, n_alternatives=n_alternatives, strict=strict))
        table = pd.DataFrame(rows, columns=PREDICTION_COLUMNS)
        table["cleavage_site"] = table["cleavage_site"].astype("Int64")
        return table

    def predict_fasta(self, fasta_path, *, n_alternatives=3, strict=False):
        """:meth:`predict` for every record of a FASTA file (header ``>ACC`` or ``>sp|ACC|NAME``), streamed."""
        from ..sequences import iter_fasta

        fasta_path = Path(fasta_path)
        try:
            rows = list(self.iter_predictions(iter_fasta(fasta_path), n_alternatives=n_alternatives, strict=strict))
        except ValueError as exc:  # name the file, as the reader does
            if str(exc).startswith(str(fasta_path)):
                raise
            raise ValueError(f"{fasta_path}: {exc}") from exc
        if not rows:
            raise ValueError(f"{fasta_path}: no FASTA records found")
        table = pd.DataFrame(rows, columns=PREDICTION_COLUMNS)
        table["cleavage_site"] = table["cleavage_site"].astype("Int64")
        return table

    def describe(self):
        """One line for a report header: the approach, its training data and its expected accuracy."""
        m = self.metadata
        parts = [f"approach {m.get('approach', 'unknown')}"]
        if m.get("protocol"):
            parts[0] += f" ({m['protocol']} protocol)"
        if "n_sequences" in m:
            parts.append(f"trained on {m['n_sequences']} sequences")
        for key, label in (("homology_cv", "homology-aware CV"), ("random_cv", "random CV")):
            if m.get(f"{key}_accuracy_mean") is not None:
                parts.append(f"{label} accuracy {m[f'{key}_accuracy_mean']:.1f} +- {m[f'{key}_accuracy_sd']:.1f} %")
        return "; ".join(parts)

    def site_accuracy_line(self):
        """The model's cleavage-site accuracy exactly and within +-1 and +-2 residues, or ``None`` if unknown.

        From ``metadata["site_accuracy"]``: ``cv`` (how it was measured), ``n_folds``, ``n_sequences`` and
        ``exact``, ``within_1``, ``within_2`` (each ``{"mean", "sd"}`` in %, over the folds).
        """
        acc = self.metadata.get("site_accuracy")
        if not acc:
            return None
        figures = ", ".join(f"{label} {acc[key]['mean']:.1f} +- {acc[key]['sd']:.1f} %" for key, label in
                            (("exact", "exact site"), ("within_1", "within +-1 residue"),
                             ("within_2", "within +-2 residues")))
        return (f"cleavage-site accuracy under {acc['cv']} ({acc['n_folds']} folds, {acc['n_sequences']} sequences; "
                f"mean +- sd over folds): {figures}")

    # ------------------------------------------------------------------
    def save(self, path):
        """Write the model to ``path`` atomically: arrays + JSON for an ``.npz``, a pickle otherwise.

        The ``.npz`` (:func:`numpy.savez_compressed`; the description in its ``model.json`` entry) is read
        by :meth:`load` without running code; it stores the estimators of
        :data:`fscompbio.cleavage.STORABLE` and raises ``ValueError`` for any other (save those as
        ``.pkl``).
        """
        from ..io import atomic_path

        if Path(path).suffix == ".npz":
            description, arrays = self._to_arrays()
            with atomic_path(path, suffix=".npz") as tmp:
                np.savez_compressed(tmp, **{"model.json": np.array(json.dumps(description, sort_keys=True))},
                                    **arrays)
            return
        with atomic_path(path) as tmp, open(tmp, "wb") as fh:
            pickle.dump({"format": MODEL_FORMAT[0], "version": MODEL_FORMAT[1], "model": self}, fh,
                        protocol=pickle.HIGHEST_PROTOCOL)

    def _to_arrays(self):
        if self.sparse_filter is not None:
            raise ValueError("a model with a sparse filter (representation 'sf') cannot be stored without pickle; "
                             "save it as .pkl")
        description, arrays = estimator_to_arrays(self.estimator)
        from ..io import to_jsonable

        head = {"format": MODEL_FORMAT[0], "version": MODEL_FORMAT[1], "storage": "arrays",
                "representation": self.representation, "prefix": self.prefix, "before": self.before,
                "after": self.after, "metadata": to_jsonable(self.metadata), "estimator": description,
                "scales": None}
        if self.scales is not None:
            residues = list(STANDARD_RESIDUES)
            arrays["scales/values"] = self.scales[residues].to_numpy(np.float64)
            arrays["scales/index"] = np.asarray(self.scales.index, dtype=str)
            head["scales"] = {"residues": residues, "index_name": self.scales.index.name}
        return head, arrays

    @classmethod
    def _from_arrays(cls, path):
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            head = json.loads(str(arrays.pop("model.json")))
        except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError) as exc:
            raise ValueError(f"{path}: not a cleavage-site model written by fscompbio ({exc})") from exc
        if not isinstance(head, dict) or head.get("format") != MODEL_FORMAT[0]:
            raise ValueError(f"{path}: not a cleavage-site model written by fscompbio")
        if head.get("version") != MODEL_FORMAT[1]:
            raise ValueError(f"{path}: model format version {head.get('version')!r}; this fscompbio reads "
                             f"version {MODEL_FORMAT[1]}")
        try:
            scales = None
            if head["scales"] is not None:
                scales = pd.DataFrame(arrays["scales/values"], columns=head["scales"]["residues"],
                                      index=pd.Index(arrays["scales/index"].tolist(),
                                                     name=head["scales"]["index_name"]))
            estimator = estimator_from_arrays(head["estimator"], arrays)
            return cls(estimator, representation=head["representation"], scales=scales, prefix=head["prefix"],
                       before=head["before"], after=head["after"], metadata=head["metadata"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: a damaged cleavage-site model ({exc})") from exc

    @classmethod
    def load(cls, path):
        """Load a model written by :meth:`save`: an ``.npz`` is read without running code; a pickle runs code
        from the file (trusted files only)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such model file")
        with open(path, "rb") as fh:
            if fh.read(4) == _ZIP_MAGIC:
                return cls._from_arrays(path)
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


#: the columns of a prediction table
PREDICTION_COLUMNS = ["accession", "cleavage_site", "score", "n_candidates", "alternatives", "status"]

#: the output formats of :func:`write_predictions`
PREDICTION_FORMATS = ("tsv", "gff3", "fasta")

#: what the model does and does not do, for every output header and the command's help
PREDICTION_SCOPE = ("predicts where a signal peptide is cut, given that the protein has one; it does not detect "
                    "signal peptides")


def _gff_escape(text):
    """GFF3 escaping of a column value (RFC 3986 percent-encoding of the reserved characters)."""
    return "".join(c if c.isalnum() or c in ".:^*$@!+_?-|" else f"%{ord(c):02X}" for c in str(text))


def _score_text(value):
    """A score as people read it: four significant digits (the ranking of a sequence's windows, not more)."""
    return f"{float(value):.4g}"


def _format_rows(rows, fmt, header):
    if fmt == "tsv":
        for line in header:
            yield f"# {line}\n"
        yield "\t".join(PREDICTION_COLUMNS) + "\n"
        for r in rows:
            site = "" if r["cleavage_site"] is None else str(int(r["cleavage_site"]))
            score = "" if r["score"] is None else _score_text(r["score"])
            yield (f"{r['accession']}\t{site}\t{score}\t{r['n_candidates']}\t{r['alternatives']}\t"
                   f"{r['status']}\n")
    elif fmt == "gff3":
        yield "##gff-version 3\n"
        for line in header:
            yield f"# {line}\n"
        for r in rows:
            if r["cleavage_site"] is None:
                yield f"# {r['accession']}: {r['status']}\n"
                continue
            yield (f"{_gff_escape(r['accession'])}\tfscompbio\tsignal_peptide\t1\t{int(r['cleavage_site'])}\t"
                   f"{_score_text(r['score'])}\t.\t.\tNote=cleavage after residue {int(r['cleavage_site'])}\n")
    elif fmt == "fasta":  # no comment lines in FASTA: the header is not written; skipped records are left out
        for r in rows:
            if r["cleavage_site"] is None:
                continue
            if r.get("sequence") is None:
                raise ValueError("the FASTA format writes mature sequences: the rows need their 'sequence' "
                                 "(iter_predictions(..., with_sequence=True))")
            site = int(r["cleavage_site"])
            mature = r["sequence"][site:]
            body = "\n".join(mature[i : i + 60] for i in range(0, len(mature), 60))
            yield (f">{r['accession']} mature protein {site + 1}-{len(r['sequence'])}: signal peptide 1-{site} "
                   f"removed (predicted by fscompbio, score {_score_text(r['score'])})\n{body}\n")
    else:
        raise ValueError(f"format must be one of {', '.join(PREDICTION_FORMATS)}; got {fmt!r}")


def write_predictions(rows, path, *, fmt="tsv", header=()):
    """Write prediction rows as TSV, GFF3 or FASTA to ``path`` as they come, atomically (``"-"``: standard output).

    ``rows``: a table of :meth:`CleavageSiteModel.predict` or the rows of
    :meth:`CleavageSiteModel.iter_predictions` (consumed one at a time, so a large prediction is never held in
    memory); ``header``: lines written first as ``#`` comments (the model, its training data, its accuracy).
    GFF3 gives each predicted signal peptide as a ``signal_peptide`` feature from residue 1 to the site.
    FASTA gives the mature sequence of every scored record (the residues after the predicted site; the rows
    need the ``sequence``, ``iter_predictions(..., with_sequence=True)``); it has no comment lines, so the
    header is not written and skipped records are left out. Scores have four significant digits.
    """
    if fmt not in PREDICTION_FORMATS:
        raise ValueError(f"format must be one of {', '.join(PREDICTION_FORMATS)}; got {fmt!r}")
    import sys

    from ..io import atomic_path

    if isinstance(rows, pd.DataFrame):
        rows = (dict(r, cleavage_site=None if pd.isna(r["cleavage_site"]) else r["cleavage_site"],
                     score=None if pd.isna(r["score"]) else r["score"]) for r in rows.to_dict("records"))
    if str(path) == "-":
        sys.stdout.writelines(_format_rows(rows, fmt, header))
        return
    with atomic_path(path) as tmp, open(tmp, "w") as fh:
        fh.writelines(_format_rows(rows, fmt, header))
