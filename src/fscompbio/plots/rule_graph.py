"""The workflow's own rule graph (``snakemake --rulegraph``), laid out to read at page width and
rendered by graphviz's ``dot``."""

from __future__ import annotations

import shutil
import subprocess

__all__ = ["canonical_dot", "readable_dot", "render_dot"]


def canonical_dot(source):
    """A ``snakemake --rulegraph`` graph with its node and edge lines sorted.

    Snakemake prints the same graph with its lines in varying order; sorting
    the statements inside the braces makes the rendering byte-stable.
    """
    lines = source.strip().splitlines()
    try:
        open_i = next(i for i, line in enumerate(lines) if line.rstrip().endswith("{"))
        close_i = max(i for i, line in enumerate(lines) if line.strip().startswith("}"))
    except (StopIteration, ValueError):
        raise ValueError(f"not a graphviz digraph (no '{{ ... }}' block): {source[:200]!r}") from None
    body = [line.strip() for line in lines[open_i + 1 : close_i] if line.strip()]
    head = [b for b in body if b.startswith(("graph[", "node[", "edge["))]
    nodes = sorted((b for b in body if "[label" in b), key=lambda b: int(b.split("[", 1)[0]))
    edges = sorted((b for b in body if "->" in b), key=lambda b: tuple(int(t) for t in b.split("->")))
    return "\n".join(lines[: open_i + 1] + ["    " + b for b in head + nodes + edges] + ["}"]) + "\n"


def readable_dot(source, *, drop=("all",), rankdir="LR", fontsize=18):
    """A rule graph laid out to read at page width: the catch-all target dropped, left to right, large labels.

    Parameters
    ----------
    source : str
        A ``snakemake --rulegraph`` graph.
    drop : tuple of str, default=("all",)
        Rules removed with their edges (the default target joins every branch and makes the graph wide).
    rankdir : {"LR", "TB"}, default="LR"
    fontsize : int, default=18

    Returns
    -------
    str
        A canonical (:func:`canonical_dot`) graphviz source.
    """
    import re

    lines = canonical_dot(source).splitlines()
    dropped = set()
    for line in lines:
        m = re.match(r"\s*(\d+)\[label = \"([^\"]+)\"", line)
        if m and m.group(2) in drop:
            dropped.add(m.group(1))
    keep = []
    for line in lines:
        t = line.strip()
        node = re.match(r"(\d+)\[label", t)
        edge = re.match(r"(\d+) -> (\d+)", t)
        if (node and node.group(1) in dropped) or (edge and ({edge.group(1), edge.group(2)} & dropped)):
            continue
        keep.append(line)
    open_i = next(i for i, line in enumerate(keep) if line.rstrip().endswith("{"))
    while keep[open_i + 1].strip().startswith(("graph[", "node[", "edge[")):  # after snakemake's own defaults
        open_i += 1
    attrs = [f"    graph[rankdir={rankdir}, ranksep=0.35, nodesep=0.12];",
             f"    node[fontsize={int(fontsize)}, margin=\"0.08,0.04\"];"]
    return "\n".join(keep[: open_i + 1] + attrs + keep[open_i + 1 :]) + "\n"


def render_dot(source, *, fmt="png"):
    """Render a graphviz ``dot`` source (canonicalised) with the ``dot`` program.

    Parameters
    ----------
    source : str
        E.g. the output of ``snakemake --rulegraph``.
    fmt : str, default="png"

    Returns
    -------
    bytes
        The rendered image.
    """
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError(
            "graphviz's `dot` program is not on PATH; install graphviz "
            "(apt-get install graphviz, or conda install -c conda-forge graphviz)"
        )
    done = subprocess.run([dot, f"-T{fmt}"], input=canonical_dot(source).encode(), capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(f"dot -T{fmt} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return done.stdout
