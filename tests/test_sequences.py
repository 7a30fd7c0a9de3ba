"""Tests of fscompbio.sequences: reading, windows, 54-scale encoding (thesis 5.4.1)."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscompbio.sequences import (
    STANDARD_RESIDUES,
    cleavage_windows,
    encode_windows,
    encoding_feature_names,
    load_aa_scales,
    read_signal_peptides,
    window_positions,
)

REPO = Path(__file__).resolve().parents[1]
FASTA = REPO / "data" / "signal_peptides" / "uniprot_euk_signal_peptides.fasta"
TSV = REPO / "data" / "signal_peptides" / "uniprot_euk_signal_peptides.tsv"
SCALES = REPO / "data" / "aa_scales" / "aa_scales.csv"
PROVENANCE = REPO / "data" / "aa_scales" / "PROVENANCE.md"


@pytest.fixture(scope="module")
def real_records():
    return read_signal_peptides(FASTA, TSV)


@pytest.fixture(scope="module")
def real_windows(real_records):
    return cleavage_windows(real_records)


def _write_pair(tmp_path, fasta_records, tsv_rows):
    """Write a FASTA of (header, sequence) and a TSV of (accession, site)."""
    fasta = tmp_path / "sp.fasta"
    fasta.write_text("".join(f">{h}\n{s}\n" for h, s in fasta_records))
    tsv = tmp_path / "sp.tsv"
    lines = ["Accession\tOrganism\tCleavage_Site"] + [f"{a}\tHomo sapiens\t{c}" for a, c in tsv_rows]
    tsv.write_text("\n".join(lines) + "\n")
    return fasta, tsv


SEQ_A = "MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQ"  # albumin-like, 57 aa
SEQ_B = "MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRRE"  # insulin-like, 57 aa


# --------------------------------------------------------------------------
# Reading and validation
# --------------------------------------------------------------------------
def test_read_valid_pair(tmp_path):
    fasta, tsv = _write_pair(tmp_path, [("P1", SEQ_A), ("sp|P2|INS_HUMAN desc", SEQ_B.lower())],
                             [("P1", 18), ("P2", 24)])
    rec = read_signal_peptides(fasta, tsv)
    assert list(rec.columns) == ["accession", "sequence", "cleavage_site"]
    assert rec["accession"].tolist() == ["P1", "P2"]
    assert rec["sequence"].tolist() == [SEQ_A, SEQ_B]  # UniProt header parsed, upper-cased
    assert rec["cleavage_site"].tolist() == [18, 24]
    assert rec.attrs["counts"] == {"n_read": 2, "n_nonstandard_dropped": 0, "n_kept": 2}


@pytest.mark.parametrize(
    "fasta_records, tsv_rows, match",
    [
        # unknown accession: in the FASTA but not the TSV
        ([("P1", SEQ_A), ("Q9", SEQ_B)], [("P1", 18)], r"sp\.fasta: unknown accession 'Q9'"),
        # missing sequence: in the TSV but not the FASTA
        ([("P1", SEQ_A)], [("P1", 18), ("P2", 24)], r"sp\.tsv: record 'P2' has a missing sequence"),
        # missing sequence: empty FASTA record
        ([("P1", SEQ_A), ("P2", "")], [("P1", 18), ("P2", 24)], r"record 'P2' has a missing \(empty\) sequence"),
        # cleavage site out of range (beyond the sequence, zero, not an integer)
        ([("P1", SEQ_A)], [("P1", 57)], r"record 'P1' has Cleavage_Site 57 outside the sequence \(must be 1\.\.56"),
        ([("P1", SEQ_A)], [("P1", 0)], r"record 'P1' has Cleavage_Site 0 outside"),
        ([("P1", SEQ_A)], [("P1", "x")], r"record 'P1' has a non-integer Cleavage_Site 'x'"),
        # duplicate accession in either file
        ([("P1", SEQ_A), ("P1", SEQ_B)], [("P1", 18)], r"sp\.fasta: duplicate accession 'P1' \(record 2\)"),
        ([("P1", SEQ_A)], [("P1", 18), ("P1", 18)], r"sp\.tsv: duplicate accession 'P1'"),
    ],
)
def test_malformed_records_raise_naming_the_record(tmp_path, fasta_records, tsv_rows, match):
    fasta, tsv = _write_pair(tmp_path, fasta_records, tsv_rows)
    with pytest.raises(ValueError, match=match):
        read_signal_peptides(fasta, tsv)


def test_missing_column_and_bad_policy(tmp_path):
    fasta, _ = _write_pair(tmp_path, [("P1", SEQ_A)], [("P1", 18)])
    tsv = tmp_path / "bad.tsv"
    tsv.write_text("Accession\tSite\nP1\t18\n")
    with pytest.raises(ValueError, match=r"bad\.tsv: missing column\(s\) \['Cleavage_Site'\]"):
        read_signal_peptides(fasta, tsv)
    with pytest.raises(ValueError, match="nonstandard must be 'drop' or 'error'; got 'keep'"):
        read_signal_peptides(fasta, tsv, nonstandard="keep")


def test_not_a_fasta_and_missing_accession(tmp_path):
    fasta, tsv = _write_pair(tmp_path, [("P1", SEQ_A)], [("P1", 18)])
    fasta.write_text("Accession\tSequence\nP1\t" + SEQ_A + "\n")  # a table, not FASTA
    with pytest.raises(ValueError, match=r"sp\.fasta: not a valid FASTA file"):
        read_signal_peptides(fasta, tsv)
    fasta.write_text("")
    with pytest.raises(ValueError, match=r"sp\.fasta: no FASTA records found"):
        read_signal_peptides(fasta, tsv)
    fasta, tsv = _write_pair(tmp_path, [("P1", SEQ_A)], [("P1", 18)])
    tsv.write_text("Accession\tCleavage_Site\nP1\t18\n\t20\n")
    with pytest.raises(ValueError, match=r"sp\.tsv: line 3 has no Accession"):
        read_signal_peptides(fasta, tsv)


def test_nonstandard_residues_policy(tmp_path):
    odd = SEQ_B[:30] + "XU" + SEQ_B[32:]
    fasta, tsv = _write_pair(tmp_path, [("P1", SEQ_A), ("P2", odd)], [("P1", 18), ("P2", 24)])
    rec = read_signal_peptides(fasta, tsv)  # default: drop and count
    assert rec["accession"].tolist() == ["P1"]
    assert rec.attrs["counts"]["n_nonstandard_dropped"] == 1
    with pytest.raises(ValueError, match=r"record 'P2' has non-standard residue\(s\) 'UX'"):
        read_signal_peptides(fasta, tsv, nonstandard="error")


# --------------------------------------------------------------------------
# Windows
# --------------------------------------------------------------------------
def test_windows_of_one_sequence_by_hand():
    rec = pd.DataFrame({"accession": ["P1"], "sequence": [SEQ_A], "cleavage_site": [18]})
    w = cleavage_windows(rec)
    assert len(w) == 39 and list(w.columns) == ["accession", "target", "window", "label"]
    assert w["target"].tolist() == list(range(10, 49))
    for t, win in zip(w["target"], w["window"]):  # 9 before the target, the target, 2 after
        assert win == SEQ_A[t - 10 : t + 2]
    pos = w.loc[w["label"] == 1]
    assert pos["target"].tolist() == [19]  # first residue of the mature protein
    assert pos["window"].item()[8] == SEQ_A[17]  # residue -1 = the last signal-peptide residue
    assert window_positions() == ["-9", "-8", "-7", "-6", "-5", "-4", "-3", "-2", "-1", "+1", "+2", "+3"]


@settings(max_examples=30, deadline=None)
@given(
    seqs=st.lists(st.text(alphabet=STANDARD_RESIDUES, min_size=50, max_size=70), min_size=1, max_size=6),
    data=st.data(),
)
def test_every_kept_sequence_gives_39_windows_and_one_positive(seqs, data):
    sites = [data.draw(st.integers(1, len(s) - 1)) for s in seqs]
    rec = pd.DataFrame({"accession": [f"A{i}" for i in range(len(seqs))], "sequence": seqs, "cleavage_site": sites})
    w = cleavage_windows(rec)
    per_seq = w.groupby("accession")["label"].agg(["size", "sum"])
    assert (per_seq["size"] == 39).all() and (per_seq["sum"] == 1).all()
    assert (w["window"].str.len() == 12).all()
    # a sequence is kept iff its positive target fits and its prefix is new and unambiguous
    c = w.attrs["counts"]
    assert c["n_kept"] == w["accession"].nunique()
    assert c["n_read"] == sum(v for k, v in c.items() if k.endswith("dropped")) + c["n_kept"]
    fits = [10 <= s + 1 <= 48 for s in sites]
    assert c["n_no_positive_window_dropped"] == fits.count(False)


def test_duplicate_prefixes_dropped():
    tail = "W" * 10
    rec = pd.DataFrame(
        {
            "accession": ["P1", "P2", "P3", "P4", "P5"],
            "sequence": [SEQ_A, SEQ_A[:50] + tail, SEQ_B, SEQ_B[:50] + tail, SEQ_A[::-1]],
            "cleavage_site": [18, 18, 24, 25, 20],
        }
    )
    w = cleavage_windows(rec)
    # P2 repeats P1's prefix (same site): dropped; P3/P4 share a prefix with different sites: both dropped
    assert w["accession"].unique().tolist() == ["P1", "P5"]
    c = w.attrs["counts"]
    assert (c["n_duplicate_dropped"], c["n_ambiguous_duplicate_dropped"], c["n_kept"]) == (1, 2, 2)


def test_short_sequences_and_bad_arguments():
    rec = pd.DataFrame({"accession": ["S"], "sequence": [SEQ_A[:40]], "cleavage_site": [18]})
    w = cleavage_windows(rec)
    assert len(w) == 0 and w.attrs["counts"]["n_short_dropped"] == 1
    with pytest.raises(ValueError, match="before must be an int >= 0; got -1"):
        cleavage_windows(rec, before=-1)
    with pytest.raises(ValueError, match="window length before \\+ 1 \\+ after = 61 exceeds prefix = 50"):
        cleavage_windows(rec, before=50, after=10)
    with pytest.raises(ValueError, match=r"missing column\(s\) \['cleavage_site'\]"):
        cleavage_windows(rec.drop(columns="cleavage_site"))


def test_real_data_windows_and_the_minus1_minus3_rule(real_records, real_windows):
    w = real_windows
    c = w.attrs["counts"]
    assert real_records.attrs["counts"] == {"n_read": 2932, "n_nonstandard_dropped": 7, "n_kept": 2925}
    assert c["n_kept"] == w["accession"].nunique() and 2800 < c["n_kept"] <= 2870
    assert len(w) == 39 * c["n_kept"]
    per_seq = w.groupby("accession")["label"].agg(["size", "sum"])
    assert (per_seq["size"] == 39).all() and (per_seq["sum"] == 1).all()
    pos = w.loc[w["label"] == 1, "window"]
    minus1 = pos.str[8].value_counts(normalize=True)
    assert minus1.index[:3].tolist() == ["A", "G", "S"]
    assert minus1[["A", "G", "S"]].sum() > 0.75  # von Heijne: small neutral residue at -1
    minus3 = pos.str[6].value_counts(normalize=True)
    assert set(minus3.index[:2]) == {"V", "A"}
    # no duplicate prefixes survive
    prefixes = real_records.set_index("accession").loc[w["accession"].unique(), "sequence"].str[:50]
    assert prefixes.is_unique


# --------------------------------------------------------------------------
# Scales and encoding
# --------------------------------------------------------------------------
def test_packaged_scales_are_the_repository_table():
    packaged = REPO / "src" / "fscompbio" / "sequences" / "data" / "aa_scales.csv"
    assert packaged.read_bytes() == SCALES.read_bytes()
    scales = load_aa_scales()
    pd.testing.assert_frame_equal(scales, load_aa_scales(SCALES))
    assert scales.shape == (54, 3 + 20) and scales.index.is_unique
    assert list(scales.columns[3:]) == list(STANDARD_RESIDUES)


def _biopython_rows():
    """(scale_id, ProtParamData attribute, key) pairs stated in PROVENANCE.md's table."""
    pairs = []
    for line in PROVENANCE.read_text().splitlines():
        sid = re.search(r"\|\s*`([a-z0-9_]+)`\s*\|", line)
        bio = re.search(r"Biopython-1\.88:ProtParamData\.(\w+)(?:\[([\d.]+)\])?", line)
        if sid and bio:
            pairs.append((sid.group(1), bio.group(1), bio.group(2)))
    return pairs


def test_scales_agree_with_biopython_protparamdata():
    from Bio.SeqUtils import ProtParamData

    scales = load_aa_scales(SCALES)
    pairs = _biopython_rows()
    assert len(pairs) >= 17  # Kyte-Doolittle, Hopp-Woods, Eisenberg, Cowan x2, Guy, Rose, ...
    assert ("hphob_kyte_doolittle", "kd", None) in pairs
    for scale_id, attr, key in pairs:
        table = getattr(ProtParamData, attr)
        if key is not None:
            table = table[float(key)]
        expected = np.array([table[a] for a in STANDARD_RESIDUES], dtype=float)
        np.testing.assert_allclose(scales.loc[scale_id, list(STANDARD_RESIDUES)].to_numpy(float), expected,
                                   rtol=0, atol=1e-12, err_msg=f"{scale_id} != ProtParamData.{attr}")


def test_load_scales_errors(tmp_path):
    bad = tmp_path / "scales.csv"
    text = SCALES.read_text().splitlines()
    header, row = text[0], text[1].split(",")
    row[4] = "n/a"  # residue A of the first scale
    bad.write_text("\n".join([header, ",".join(row)]) + "\n")
    with pytest.raises(ValueError, match=r"scales\.csv: scale 'pct_accessible_residues_janin' has a non-numeric "
                                         r"value for residue 'A': 'n/a'"):
        load_aa_scales(bad)


def test_encoding_by_hand():
    scales = load_aa_scales(SCALES)
    vals = scales[list(STANDARD_RESIDUES)].to_numpy(float)
    z = (vals - vals.mean(1, keepdims=True)) / vals.std(1, keepdims=True)
    windows = ["MKWVTFISLLLL", "AAAAAAAAAAAY"]
    X = encode_windows(windows, scales)
    assert X.shape == (2, 648) and X.dtype == np.float64
    for i, win in enumerate(windows):
        for p, aa in enumerate(win):  # position-major: column p * 54 + s
            np.testing.assert_allclose(X[i, p * 54 : (p + 1) * 54], z[:, STANDARD_RESIDUES.index(aa)])
    names = encoding_feature_names(scales)
    assert len(names) == 648 and names[8 * 54 + 32] == "-1:hphob_kyte_doolittle"
    # standardised per scale over the 20 residues
    Z = encode_windows([STANDARD_RESIDUES[:12], STANDARD_RESIDUES[8:]], SCALES).reshape(2, 12, 54)
    allres = np.concatenate([Z[0], Z[1, 4:]])  # the 20 residues once each
    np.testing.assert_allclose(allres.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(allres.std(0), 1, atol=1e-12)


def test_raw_encoding_is_the_published_table():
    scales = load_aa_scales(SCALES)
    # the first window of the table's residues, in the file's own text: A R N D ... (the scale's published values)
    rows = {r["scale_id"]: r for r in pd.read_csv(SCALES).to_dict("records")}
    window = "MKWVTFISLLLL"
    X = encode_windows([window], SCALES, scaling="raw").reshape(12, 54)
    for p, aa in enumerate(window):
        np.testing.assert_array_equal(X[p], [rows[s][aa] for s in scales.index])
    # Kyte & Doolittle hydropathy of M, K, W as published (1982): 1.9, -3.9, -0.9
    k = list(scales.index).index("hphob_kyte_doolittle")
    np.testing.assert_allclose(X[:3, k], [1.9, -3.9, -0.9])
    # the default and an explicit "standardised" are the same encoding, the raw one standardised per scale
    Z = encode_windows([window], SCALES)
    np.testing.assert_array_equal(Z, encode_windows([window], SCALES, scaling="standardised"))
    vals = scales[list(STANDARD_RESIDUES)].to_numpy(float)
    mean, sd = vals.mean(1), vals.std(1)
    np.testing.assert_allclose(Z.reshape(12, 54), (X - mean) / sd, atol=1e-12)


@pytest.mark.parametrize("bad", ["Raw", "z-score", None, 1])
def test_an_unknown_scaling_names_the_allowed_ones(bad):
    with pytest.raises(ValueError, match=r"scaling must be one of 'standardised', 'raw'; got "):
        encode_windows(["AAAAAAAAAAAA"], scaling=bad)


def test_encoding_errors_name_the_window():
    with pytest.raises(ValueError, match=r"window 1 \('AAXAAAAAAAAA'\) has non-standard residue 'X' at position 2"):
        encode_windows(["AAAAAAAAAAAA", "AAXAAAAAAAAA"])
    with pytest.raises(ValueError, match=r"window 1 \('AAA'\) has length 3; expected 12"):
        encode_windows(["AAAAAAAAAAAA", "AAA"])
    with pytest.raises(ValueError, match="no 'window' column"):
        encode_windows(pd.DataFrame({"seq": ["AAA"]}))


def test_encode_real_windows(real_windows):
    X = encode_windows(real_windows.iloc[:39 * 50])
    assert X.shape == (39 * 50, 648) and np.isfinite(X).all()


# ----------------------------------------------------------------------------- codes, one-hot, candidate windows
def test_residue_codes_and_one_hot_match_the_scale_encoding():
    from fscompbio.sequences import STANDARD_RESIDUES, encode_windows, one_hot_windows, residue_codes

    windows = ["MKLLAVLALAGA", "ARNDCQEGHILK", "VYWTSPFMKLIH"]
    codes = residue_codes(windows)
    assert "".join(STANDARD_RESIDUES[c] for c in codes[1]) == windows[1]
    O = one_hot_windows(codes)
    assert O.shape == (3, 240) and np.all(O.sum(axis=1) == 12)
    # the 648 scale values are a linear map of the one-hot code: X = O @ B with B the per-position scale table
    X = encode_windows(windows)
    eye = encode_windows([a * 12 for a in STANDARD_RESIDUES]).reshape(20, 12, 54)[:, 0, :]  # (20, 54)
    B = np.kron(np.eye(12), eye)  # (240, 648): position-major blocks
    np.testing.assert_allclose(O @ B, X, atol=1e-12)
    with pytest.raises(ValueError, match=r"window 0 \('MKXL'\) has non-standard residue 'X' at position 2"):
        residue_codes(["MKXL"])


def test_candidate_windows_and_errors():
    from fscompbio.sequences import candidate_windows

    w = candidate_windows({"A": "M" * 20 + "AXA" * 20}, prefix=20)  # residues after the prefix are not read
    assert w["target"].tolist() == list(range(10, 19)) and (w["accession"] == "A").all()
    w = candidate_windows([("B", "mkllavlalagaqaq")])
    assert w["target"].tolist() == [10, 11, 12, 13] and w["window"].iloc[0] == "MKLLAVLALAGA"
    with pytest.raises(ValueError, match="sequence 'S' has 5 residues, fewer than one window of 12"):
        candidate_windows({"S": "MKLLV"})
    with pytest.raises(ValueError, match="sequence 'U' has non-standard residue 'U' at position 3"):
        candidate_windows({"U": "MKULLAVLALAGAQA"})


# ----------------------------------------------------------------------------- homology clusters
@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 30), n_dup=st.integers(1, 10), seed=st.integers(0, 2**16),
       identity=st.sampled_from([0.3, 0.4, 0.6, 1.0]))
def test_homology_clusters_never_split_identical_prefixes(n, n_dup, seed, identity):
    from fscompbio.cleavage import sequence_folds
    from fscompbio.sequences import STANDARD_RESIDUES, homology_clusters

    rng = np.random.default_rng(seed)
    seqs = ["".join(rng.choice(list(STANDARD_RESIDUES), 50)) for _ in range(n)]
    copies = rng.integers(0, n, n_dup)
    seqs = seqs + [seqs[i] for i in copies]
    perm = rng.permutation(len(seqs))
    seqs = [seqs[i] for i in perm]
    labels = homology_clusters(seqs, identity=identity)
    for a in range(len(seqs)):
        for b in range(len(seqs)):
            if seqs[a] == seqs[b]:
                assert labels[a] == labels[b]
    # and folds by cluster never split them either
    if np.unique(labels).size >= 2:
        folds = sequence_folds(labels, n_splits=2, random_state=0)
        same = np.array([[seqs[a] == seqs[b] for b in range(len(seqs))] for a in range(len(seqs))])
        assert np.all(folds[:, None] == folds[None, :], where=same)


def test_prefix_identity_known_answers():
    from fscompbio.sequences import STANDARD_RESIDUES, homology_clusters, prefix_identity

    rng = np.random.default_rng(1)
    base = "".join(rng.choice(list(STANDARD_RESIDUES), 50))
    shifted = base[3:] + "AAA"  # the same sequence three residues on: 47 of 50 agree on one diagonal
    mutated = "".join(a if i % 2 else ("W" if a != "W" else "Y") for i, a in enumerate(base))  # half changed
    other = "".join(rng.choice(list(STANDARD_RESIDUES), 50))
    S = prefix_identity([base, shifted, mutated, other], max_shift=5)
    assert S[0, 1] >= 47 / 50 - 1e-6 and S[0, 1] == S[1, 0]
    assert S[0, 2] == pytest.approx(0.5, abs=1e-6)
    assert S[0, 3] < 0.3  # unrelated random sequences
    assert prefix_identity([base, shifted], max_shift=0)[0, 1] < 0.3  # without the offset the copy is missed
    assert homology_clusters([base, shifted, mutated, other], identity=0.4).tolist() == [0, 0, 0, 1]
    assert homology_clusters([base, shifted, mutated, other], identity=0.6).tolist() == [0, 0, 1, 2]
    with pytest.raises(ValueError, match=r"identity must be a number in \(0, 1\]"):
        homology_clusters([base], identity=0)


def test_real_prefixes_have_homologues_but_no_giant_cluster(real_windows):
    from fscompbio.sequences import homology_clusters

    first = real_windows.groupby("accession", sort=False)["window"].agg(lambda w: w.iloc[0] + "".join(s[-1] for s in w.iloc[1:]))
    labels = homology_clusters(first.to_numpy().astype(str))
    sizes = np.bincount(labels)
    assert 1500 < sizes.size < 2000  # measured: 1,697 clusters of 2,849
    assert sizes.max() < 0.05 * labels.size  # 10 balanced folds remain possible


# ----------------------------------------------------------------------------- FASTA: gzip, standard input, nucleotides
def test_fasta_gzip_and_standard_input_read_as_the_plain_file(tmp_path, monkeypatch):
    import gzip
    import io

    from fscompbio.sequences import iter_fasta, read_fasta

    text = FASTA.read_text()[:20000]
    text = text[: text.rindex(">")]
    plain = tmp_path / "p.fasta"
    plain.write_text(text)
    packed = tmp_path / "p.fa.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    named_plain = tmp_path / "really_gzip.fasta"  # recognised by its first bytes, not its name
    named_plain.write_bytes(gzip.compress(text.encode()))
    want = list(iter_fasta(plain))
    assert len(want) > 10
    assert list(iter_fasta(packed)) == list(iter_fasta(named_plain)) == want
    for data in (text.encode(), gzip.compress(text.encode())):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert list(iter_fasta("-")) == want
    stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    read_fasta("-")
    assert not stdin.closed  # standard input stays open after reading


def test_damaged_gzip_and_bad_standard_input_name_the_source(tmp_path, monkeypatch):
    import gzip
    import io

    from fscompbio.sequences import iter_fasta

    rng = np.random.default_rng(0)
    text = "".join(f">P{i}\n{''.join(rng.choice(list(STANDARD_RESIDUES), 60))}\n" for i in range(100))
    data = gzip.compress(text.encode())
    bad = tmp_path / "cut.fasta.gz"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=re.escape(f"{bad}: not a valid gzip file (Compressed file ended")):
        list(iter_fasta(bad))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\x89PNG\r\n\x1a\n\xff\xfe")))
    with pytest.raises(ValueError, match="^standard input: not a valid FASTA file"):
        list(iter_fasta("-"))


def test_nucleotide_sequences_are_recognised_and_no_shipped_protein_is(real_records):
    from fscompbio.sequences import looks_like_nucleotides

    assert looks_like_nucleotides("ATGGCGTTTAAACGCGCTAGC") and looks_like_nucleotides("augg-cguu*uaaacgNNNcgc")
    assert looks_like_nucleotides("ATGGCGTTTAAACGCGCTAGCTAGGAXYRATCC")  # 10% ambiguity codes
    assert not looks_like_nucleotides("") and not looks_like_nucleotides("MKWVTFISLLLLFSSAYS")
    assert not looks_like_nucleotides("ATGGCGTTTAAACGCGCTAGCTAGGAXYRATCCQQ")  # 15% non-nucleotide letters
    assert not any(looks_like_nucleotides(s) for s in real_records["sequence"])
