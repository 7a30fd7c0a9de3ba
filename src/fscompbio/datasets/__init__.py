"""Synthetic data sets of the study (a registry), and one on-disk format.

>>> from fscompbio.datasets import make_dataset
>>> ds = make_dataset("nonlinear_weston", random_state=0)
>>> ds.X.shape, ds.relevant.size
((300, 200), 10)
"""

from ._io import TASKS, load_csv_dataset, load_dataset, save_dataset
from ._registry import (DATASETS, SCALE_WARNING, Dataset, DatasetSpec, draw_name, make_dataset, scale_disparity,
                        split_draw, standardized, top_variance)

__all__ = ["DATASETS", "Dataset", "DatasetSpec", "TASKS", "make_dataset", "load_dataset", "save_dataset",
           "load_csv_dataset", "top_variance", "standardized", "scale_disparity", "SCALE_WARNING", "draw_name",
           "split_draw"]
