"""The config schemas inject their defaults into the run's settings (Snakemake's ``validate`` with
``set_default``): a schema default for an argument of an estimator must be the estimator's own default,
or the run silently uses another estimator than the one documented (a copy of an old default goes stale when
the estimator's default changes)."""

from pathlib import Path

import pytest
import yaml

from fscompbio.selection import RandSel

REPO = Path(__file__).resolve().parents[1]
CH4 = yaml.safe_load((REPO / "schemas" / "chapter4.schema.yaml").read_text())["properties"]

#: figure settings whose schema calls them RandSel's own arguments, and the keys a figure sets on purpose
#: (the paper's figure 1: 10,000 partitions of 1,000 samples; its batch size bounds memory)
RANDSEL_SETTINGS = {"fig4_3": set(), "figP_1": {"n_subsets", "subsample", "batch_size"}}


@pytest.mark.parametrize("figure", sorted(RANDSEL_SETTINGS))
def test_schema_defaults_of_randsel_arguments_are_randsel_defaults(figure):
    own = RandSel().get_params()
    props = CH4[figure]["properties"]
    injected = {k: p["default"] for k, p in props.items() if "default" in p and k in own}
    assert injected, f"{figure}: no RandSel argument in the schema"
    stale = {k: (v, own[k]) for k, v in injected.items() if k not in RANDSEL_SETTINGS[figure] and v != own[k]}
    assert not stale, f"{figure}: schema default (left) is not RandSel's (right): {stale}"


def test_the_width_is_randsels_unless_a_config_sets_it():
    # the width's meaning depends on RandSel's width_scale: a number copied into a schema would keep an old scale
    for figure in RANDSEL_SETTINGS:
        assert "default" not in CH4[figure]["properties"]["width"], figure


@pytest.mark.parametrize("figure", sorted(RANDSEL_SETTINGS))
def test_the_width_may_be_a_grid_of_positive_widths(figure):
    import jsonschema

    schema = CH4[figure]["properties"]["width"]
    for ok in (0.5, [0.5, 2.0], [1.0]):
        jsonschema.validate(ok, schema)
    for bad in (0, -1.0, [], [0.5, 0.0], "wide"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
