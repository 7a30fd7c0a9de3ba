"""Generated blocks of the Markdown pages (docs/reproduction.md): the text between a pair of marker comments
(``<!-- NAME:start -->`` and ``<!-- NAME:end -->``), read and replaced by the tools that generate them
(tools/figure_index.py, tools/claims_by_scale.py, tools/run_archive.py)."""

from __future__ import annotations


def block(text, markers, where="the page"):
    """The text between ``markers`` (a ``(start, end)`` pair) in ``text``, without the blank lines around it;
    ``where`` names the page in the error when the markers are missing."""
    start, end = (text.find(m) for m in markers)
    if start < 0 or end < start:
        raise ValueError(f"{where} has no {markers[0]} ... {markers[1]} block")
    return text[start + len(markers[0]) : end].strip("\n")


def with_block(text, markers, content, where="the page"):
    """``text`` with ``content`` between ``markers`` (one newline either side)."""
    block(text, markers, where)  # the markers are there
    start, end = text.find(markers[0]) + len(markers[0]), text.find(markers[1])
    return text[:start] + "\n" + content.strip("\n") + "\n" + text[end:]
