"""A DataFrame as a Markdown table (the tables' .md files)."""

from __future__ import annotations

__all__ = ["table_markdown"]


def table_markdown(df):
    """A DataFrame as a GitHub Markdown table (no extra dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return "\n".join(lines) + "\n"
