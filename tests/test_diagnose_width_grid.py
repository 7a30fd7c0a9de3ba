"""The width-grid ablation (tools/diagnose_width_grid.py) changes one chapter-4 model-selection setting at a
time, from the thesis config's value to the quick config's."""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # tools/ is not part of the installed package
    sys.path.insert(0, str(REPO))

from tools import diagnose_width_grid as D  # noqa: E402


def test_each_variant_changes_one_setting_back_to_the_quick_config():
    quick, thesis = D._config()
    v = D.variants(quick, thesis)
    base = v.pop("thesis")
    everything = v.pop("all three (quick)")
    assert base == (thesis["chapter4"]["widths"], thesis["chapter4"]["kta"]["max_sizes"],
                    thesis["chapter4"]["cv"]["inner_folds"])
    assert everything == (quick["chapter4"]["widths"], quick["chapter4"]["kta"]["max_sizes"],
                          quick["chapter4"]["cv"]["inner_folds"])
    assert len(v) == 3
    for name, setting in v.items():
        changed = [i for i in range(3) if setting[i] != base[i]]
        assert changed and len(changed) == 1, name  # the configs differ in each of the three settings
        assert setting[changed[0]] == everything[changed[0]], name
