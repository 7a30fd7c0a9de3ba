"""Every claim, in the order of the study: one module per chapter, then the other texts."""

from __future__ import annotations

from . import chapter3, chapter4, chapter5, other_texts
from ._claim import Claim

CLAIMS: tuple[Claim, ...] = (*chapter3.CLAIMS, *chapter4.CLAIMS, *chapter5.CLAIMS, *other_texts.CLAIMS)
