"""
Predicting signal-peptide cleavage sites
========================================

Each signal peptide is cut into candidate windows of 12 residues (9 before the target, 2 after); the
window at the true cleavage site is the positive one (thesis chapter 5). The windows are encoded by 54
amino-acid scales, a selector picks features on a class-balanced subsample, a Gaussian SVM scores every
window, and a sequence is predicted right when its top-scoring window is the true one. Here: 600 of the
shipped UniProt sequences, trained on 400 and tested on the other 200.
"""

import matplotlib.pyplot as plt
import numpy as np
from _paths import repo_file

from fscompbio.cleavage import cleavage_accuracy
from fscompbio.pipelines import SelectThenSVM
from fscompbio.selection import CorrelationSelector
from fscompbio.sequences import cleavage_windows, encode_windows, read_signal_peptides

records = read_signal_peptides(repo_file("data", "signal_peptides", "uniprot_euk_signal_peptides.fasta"),
                               repo_file("data", "signal_peptides", "uniprot_euk_signal_peptides.tsv"))
records = records.sample(600, random_state=0).reset_index(drop=True)
windows = cleavage_windows(records)
X = encode_windows(windows)
y = windows["label"].to_numpy()
groups = windows["accession"].to_numpy()
print(f"{len(records)} sequences, {len(windows)} windows, {X.shape[1]} features")

train = np.isin(groups, records["accession"][:400])
model = SelectThenSVM(selector=CorrelationSelector(n_features_to_select=0.2), select_max_per_class=400,
                      random_state=0).fit(X[train], y[train])
scores = model.decision_function(X[~train])
print(f"cleavage-site accuracy on 200 new sequences: {cleavage_accuracy(scores, y[~train], groups[~train]):.2f}")

# %%
# Which window positions the selected features come from (54 scales per position).
positions = model.support_ // 54 - 9  # relative to the target residue
fig, ax = plt.subplots(figsize=(5, 3.2))
ax.hist(positions, bins=np.arange(-9.5, 3.5), rwidth=0.85)
ax.set(xlabel="position relative to the cleavage site", ylabel="selected features")
fig.tight_layout()
