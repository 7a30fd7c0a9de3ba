"""The thesis config sets every value it runs with.

Snakemake layers ``--configfile config/thesis.yaml`` over the Snakefile's ``config.yaml`` by a recursive
update: a key the thesis config leaves out keeps the quick config's value. A quick-only reduction (the
micro-arrays cut to their 500 features of highest variance, a shorter LPBoost grid) would then run silently
at the study's settings. So every key of ``config.yaml`` is set in ``config/thesis.yaml`` too.
"""

from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]


def _leaves(d, prefix=()):
    if isinstance(d, dict) and d:
        for key, value in d.items():
            yield from _leaves(value, prefix + (key,))
    else:
        yield prefix


def _has(d, path):
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return False
        d = d[key]
    return True


QUICK = yaml.safe_load((REPO / "config.yaml").read_text())
THESIS = yaml.safe_load((REPO / "config" / "thesis.yaml").read_text())


def test_every_key_of_the_quick_config_is_set_by_the_thesis_config():
    missing = [".".join(map(str, p)) for p in _leaves(QUICK) if not _has(THESIS, p)]
    assert not missing, f"config/thesis.yaml inherits these from config.yaml: {missing}"


@pytest.mark.parametrize("name", ["allaml", "prostate_ge", "colon", "tb_blood_gambia"])
def test_the_thesis_config_uses_the_micro_arrays_whole(name):
    assert QUICK["datasets"]["csv"][name]["max_features"] == 500
    assert THESIS["datasets"]["csv"][name]["max_features"] is None


def test_the_check_finds_an_inherited_key():
    quick = {"a": {"b": 1, "c": {"d": 2}}}
    assert [p for p in _leaves(quick) if not _has({"a": {"b": 3, "c": {}}}, p)] == [("a", "c", "d")]
