"""Maintenance tools of the repository, run with `python -m tools.<name>` (not part of the fscompbio package,
not Snakemake scripts): figure_index writes docs/reproduction.md's table of where each figure is made."""
