"""Maintenance tools of the repository, run with `python -m tools.<name>` (not part of the fscompbio package,
not Snakemake scripts): figure_index writes README.md's table of where each figure is made."""
