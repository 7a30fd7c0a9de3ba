"""The data sets' names in figures, and the tables about the data sets: class proportions of the
six synthetic sets beside the thesis' (table 3.1) and the real tasks' samples, features and classes
(table A.2).

Every function takes data and returns a DataFrame.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["LABELS", "THESIS_TABLE3_1", "table3_1", "table_a2"]

#: Thesis table 3.1 (one random draw of 300 per set; its non-linear Weston row is a typo: 161 + 154 != 300).
THESIS_TABLE3_1 = {
    "fake_class": (148, 152),
    "linear_zhang_feature_noise": (155, 145),
    "linear_zhang_sample_noise": (144, 156),
    "linear_weston": (161, 139),
    "nonlinear_weston": (161, 154),
    "xor": (144, 156),
}

LABELS = {
    "fake_class": "Fake Class",
    "linear_zhang_feature_noise": "Linear Zhang - Feature Noise",
    "linear_zhang_sample_noise": "Linear Zhang - Sample Noise",
    "linear_weston": "Linear Weston",
    "nonlinear_weston": "Non-Linear Weston",
    "xor": "Xor",
    # the real tasks (data/expression/README.md); the thesis' own TB sets are not public
    "tb_serum_metabolomics": "TB serum metabolomics, TB vs healthy (Weiner et al. 2012), stand-in for the TB "
                             "mass-spectrometry tasks",
    "allaml": "Leukaemia ALL vs AML micro-array (Golub et al. 1999)",
    "prostate_ge": "Prostate tumour vs normal micro-array (Singh et al. 2002)",
    "colon": "Colon tumour vs normal micro-array (Alon et al. 1999)",
    "tb_blood_gambia": "Whole-blood micro-array, TB vs healthy (Maertzdorf et al. 2011), stand-in for the TB "
                       "micro-array task",
}


def table3_1(proportions):
    """Class proportions beside the thesis' (table 3.1).

    Parameters
    ----------
    proportions : dict of name -> dict
        Output of :func:`fscompbio.studies.class_proportions` per data set.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for name, p in proportions.items():
        t_pos, t_neg = THESIS_TABLE3_1.get(name, (np.nan, np.nan))
        rows.append({
            "dataset": LABELS.get(name, name),
            "+1": f"{p['pos_pct']:.2f} ({p['pos']})",
            "-1": f"{p['neg_pct']:.2f} ({p['neg']})",
            "thesis +1": f"{t_pos}" if np.isfinite(t_pos) else "",
            "thesis -1": f"{t_neg}" if np.isfinite(t_neg) else "",
        })
    return pd.DataFrame(rows)


#: the thesis task (sections 3.3.2 and 4.3.2, appendix A.4) that each shipped real data set takes the place
#: of in figures 3.9-3.13 and 4.10-4.14; the thesis' TB data are not public, and a stand-in can show at most
#: that a message is consistent on other data
STANDS_IN_FOR = {
    "tb_serum_metabolomics": "TB task 1: active TB vs symptomatic controls (523-peak serum mass spectrometry, "
                             "not public)",
    "allaml": "TB task 2: active TB vs symptomatic latent TB (mass spectrometry, not public)",
    "prostate_ge": "TB task 3: active TB vs symptomatic controls without latent TB (mass spectrometry, not public)",
    "colon": "TB task 4: latent TB in otherwise healthy people (not public)",
    "tb_blood_gambia": "TB micro-array task: latent TB vs healthy controls (6,247 probes, not public)",
}


def table_a2(tasks):
    """The real-data summary (thesis appendix table): samples, features, classes per task.

    Parameters
    ----------
    tasks : dict of name -> dict
        Per task: ``n_samples``, ``n_features`` (in the file), ``n_used``
        (after the config's label-blind variance filter; default all),
        ``classes`` (label -> count, in the CSV's own label names) and
        ``positive_label``.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for name, t in tasks.items():
        classes = ", ".join(f"{lab} {n}" + (" (+1)" if str(lab) == str(t["positive_label"]) else "")
                            for lab, n in sorted(t["classes"].items(), key=lambda kv: str(kv[0])))
        rows.append({
            "task": name,
            "data": LABELS.get(name, name),
            "samples": int(t["n_samples"]),
            "features": int(t["n_features"]),
            "features used": int(t.get("n_used", t["n_features"])),
            "classes": classes,
            "stands in for": STANDS_IN_FOR.get(name, ""),
        })
    return pd.DataFrame(rows)
