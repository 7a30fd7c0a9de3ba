"""The figures' style: matplotlib's own fonts, so that the same data give the same bytes on every machine."""

import warnings
from pathlib import Path

import matplotlib
import pytest

from fscompbio.plots import _style


def test_this_environment_draws_with_matplotlibs_own_fonts():
    problem = _style.bundled_fonts_problem()
    assert problem is None, problem


def test_a_font_list_without_the_bundled_fonts_is_named_with_its_fix(monkeypatch):
    system = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    monkeypatch.setattr(_style.font_manager, "findfont", lambda prop, fallback_to_default=True: system)
    problem = _style.bundled_fonts_problem()
    assert problem is not None
    cache = Path(matplotlib.get_cachedir()) / f"fontlist-v{_style.font_manager.FontManager.__version__}.json"
    assert str(cache) in problem and "delete that file" in problem
    assert f"normal: {Path(system).resolve()}" in problem and "italic" in problem


def test_apply_style_warns_once_when_the_fonts_are_not_matplotlibs(monkeypatch):
    monkeypatch.setattr(_style, "_FONTS_CHECKED", False)
    monkeypatch.setattr(_style, "bundled_fonts_problem", lambda: "fonts are wrong")
    with pytest.warns(RuntimeWarning, match="fonts are wrong"):
        _style.apply_style()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _style.apply_style()  # checked once per process
