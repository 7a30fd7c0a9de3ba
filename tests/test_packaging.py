"""The library installs alone: `import fscompbio.selection` and its selectors work without the workflow's
packages, the estimators that need an extra say which, one version string, and a wheel that installs."""

import os
import re
import subprocess
import sys
import textwrap
import tomllib
import venv
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
import yaml

import fscompbio

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
CORE = {"numpy", "scipy", "scikit-learn", "pandas", "joblib", "threadpoolctl"}

#: the workflow's and the extras' packages, made unimportable in the subprocess below
BLOCKED = ["snakemake", "matplotlib", "cvxpy", "highspy", "pyHSICLasso", "Bio", "yaml", "pygments", "tqdm",
           "seaborn", "packaging"]

BLOCKER = textwrap.dedent(f"""
    import importlib.abc, sys
    BLOCKED = {BLOCKED!r}

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {{name!r}} (blocked by the test)", name=name)
            return None

    sys.meta_path.insert(0, Block())
""")

EXAMPLE = textwrap.dedent("""
    import sys
    import numpy as np
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC

    import fscompbio
    import fscompbio.selection as selection
    from fscompbio.model_selection import KTASelect, NestedCVSelect, OwnModelSelect
    from fscompbio.pipelines import SelectThenSVM

    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 12))
    y = np.where(X[:, 3] + X[:, 7] > 0, "yes", "no")
    for name in selection.__all__:
        getattr(selection, name)  # every public name imports
    for sel in [selection.CorrelationSelector(n_features_to_select=2), selection.FoHSIC(n_features_to_select=2),
                selection.BaHSIC(n_features_to_select=2), selection.LinearRFE(n_features_to_select=2),
                selection.KernelRFE(n_features_to_select=2), selection.StabilitySelection(n_bootstraps=10),
                selection.RandSel(n_subsets=20, batch_size=10, random_state=0)]:
        sel.fit(X, y)
    grid = GridSearchCV(make_pipeline(KTASelect(selection.BaHSIC()), SVC()), {"svc__C": [0.5, 2.0]}, cv=3)
    assert grid.fit(X, y).best_score_ > 0.8
    assert sorted(grid.best_estimator_[0].features_.tolist()) == [3, 7]
    SelectThenSVM(selector=selection.CorrelationSelector(n_features_to_select=2)).fit(X, y)

    def refused(make, extra):
        try:
            make()
        except ImportError as err:
            assert f"fscompbio[{extra}]" in str(err), err
        else:
            raise AssertionError(f"{make} ran without its extra {extra}")

    refused(lambda: selection.AnticorrelationWeighting(n_partitions=5).fit(X, y), "lp")
    refused(lambda: selection.HSICLasso(n_features_to_select=2).fit(X, y), "hsiclasso")
    refused(lambda: selection.StabilitySelection(learner="lpboost", n_bootstraps=2).fit(X, y), "lp")
    from fscompbio.prediction import LPBoost
    refused(lambda: LPBoost().fit(X, y), "lp")
    from fscompbio.sequences import iter_fasta
    refused(lambda: list(iter_fasta(fscompbio.__file__)), "cleavage")
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    assert not loaded, loaded
    print("OK", fscompbio.__version__, fscompbio.__file__)
""")


def _run(python, code, env=None):
    return subprocess.run([str(python), "-c", BLOCKER + code], capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_library_works_without_the_workflows_packages():
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = _run(sys.executable, EXAMPLE, env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("OK")


def test_the_blocker_blocks():
    done = _run(sys.executable, "import matplotlib")
    assert done.returncode != 0 and "blocked by the test" in done.stderr


def test_one_version_string():
    version = PYPROJECT["project"]["version"]
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert str(citation["version"]) == version
    assert fscompbio.__version__ == metadata.version("fscompbio")
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)


def test_core_dependencies_and_extras():
    project = PYPROJECT["project"]
    names = {re.split(r"[<>=!~ \[]", r)[0].lower() for r in project["dependencies"]}
    assert names == CORE
    extras = project["optional-dependencies"]
    workflow = {re.split(r"[<>=!~ \[]", r)[0].lower() for r in extras["workflow"]}
    for extra in ("lp", "hsiclasso", "cleavage"):  # the workflow needs every estimator
        assert {re.split(r"[<>=!~ \[]", r)[0].lower() for r in extras[extra]} <= workflow
    assert {"snakemake", "matplotlib", "pyyaml"} <= workflow


def _build_wheel(tmp_path):
    """A wheel of this tree (built from a copy, so that the tree gets no build/ or egg-info)."""
    src = tmp_path / "src_copy"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (src / name).write_bytes((REPO / name).read_bytes())
    subprocess.run(["cp", "-r", str(REPO / "src"), str(src / "src")], check=True)
    for junk in (src / "src").rglob("__pycache__"):
        subprocess.run(["rm", "-rf", str(junk)], check=True)
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(src)], check=True, timeout=300)
    (wheel,) = out.glob("fscompbio-*.whl")
    return wheel


@pytest.mark.slow
def test_the_wheel_installs_in_a_clean_venv_and_its_example_runs(tmp_path):
    """Offline: the wheel goes into a new virtual environment with pip --no-deps; the core dependencies are
    borrowed from this environment's site-packages by a path file (no network here), and the workflow's
    packages are blocked as above. The wheel's metadata requires the core only."""
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        meta = zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))).decode()
        names = zf.namelist()
    assert "fscompbio/sequences/data/aa_scales.csv" in names and "fscompbio/py.typed" in names
    required = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    unconditional = {re.split(r"[<>=!~ ;\[]", r)[0].lower() for r in required if "extra ==" not in r}
    assert unconditional == CORE
    assert any(r.startswith("snakemake") and 'extra == "workflow"' in r for r in required)

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=300)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    borrowed = Path(metadata.distribution("numpy").locate_file(""))  # this environment's site-packages
    (Path(site) / "borrowed_core.pth").write_text(f"{borrowed}\n")  # a plain path: its .pth files are not run
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = _run(python, EXAMPLE, env)
    assert done.returncode == 0, done.stderr[-3000:]
    version, where = done.stdout.split()[1:3]
    assert version == PYPROJECT["project"]["version"]
    assert where.startswith(str(env_dir)), where  # the wheel's copy, not this tree's


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("FSCOMPBIO_NETWORK_TESTS") != "1",
                    reason="needs the network (PyPI): set FSCOMPBIO_NETWORK_TESTS=1")
def test_the_wheel_installs_from_pypi_without_snakemake(tmp_path):
    """With the network: pip resolves the wheel's own dependencies from PyPI into a new venv; no workflow
    package is installed, and the example runs."""
    wheel = _build_wheel(tmp_path)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True, timeout=1200)
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True,
                            check=True).stdout.lower()
    for name in ("snakemake", "matplotlib", "cvxpy", "pyhsiclasso", "biopython"):
        assert f"\n{name}==" not in f"\n{listed}", name
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = _run(python, EXAMPLE, env)
    assert done.returncode == 0, done.stderr[-3000:]
