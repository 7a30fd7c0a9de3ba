"""Data flows one way through the package: every import goes down a floor, no module imports itself back
through others, and no private module or name crosses from one subpackage into another.

The floors follow the study's data flow (data -> learners -> selectors -> model selection -> pipelines ->
protocols -> figures -> command line). Imports inside functions count like any other.
"""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "fscompbio"

#: floor of each unit (a subpackage or a top-level module), from the ground up
FLOORS = [
    {"fscompbio"},  # the package's root: its version, no imports
    {"_compat", "_lazy", "_optional", "_scaling", "_validation", "_warnings"},  # shared internals, below every module
    {"io", "seeding", "kernels", "environment", "joblog"},
    {"_pairs"},  # the pairwise-kernel algebra, built on kernels; shared by the selectors and model selection
    {"datasets", "sequences", "representation"},
    {"prediction"},
    {"selection"},
    {"model_selection"},
    {"pipelines"},
    {"evaluation", "cleavage"},
    {"studies", "claims"},
    {"plots"},
    {"cli"},
]
FLOOR = {unit: level for level, units in enumerate(FLOORS) for unit in units}
#: the package's own shared internals, usable from every floor
SHARED_PRIVATE = {"_compat", "_lazy", "_optional", "_scaling", "_validation", "_warnings", "_pairs"}


def _module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """``(target module, imported names, line)`` of every import of the package in ``path``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "fscompbio":
                    yield alias.name, [], node.lineno
            continue
        else:
            continue
        if target.split(".")[0] == "fscompbio":
            yield target, names, node.lineno


def _shown(path):
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


def _unit(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "fscompbio"


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_unit_has_a_floor():
    assert {_unit(m) for m in MODULES} <= set(FLOOR), "a new module or subpackage: give it a floor in FLOORS"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_and_stay_public(module):
    unit = _unit(module)
    for target, names, line in _imports(MODULES[module]):
        other = _unit(target)
        if other == unit:
            continue
        where = f"{_shown(MODULES[module])}:{line} imports {target}"
        assert FLOOR[other] < FLOOR[unit], f"{where}: an upward import ({other} is not below {unit})"
        private = [p for p in target.split(".")[1:] if p.startswith("_")]
        private += [n for n in names if n.startswith("_") and n != "__version__"]
        if other not in SHARED_PRIVATE:
            assert not private, f"{where}: private {private} of another subpackage; export a public name"


def _module_graph():
    graph = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for target, names, _ in _imports(path):
            for candidate in [f"{target}.{n}" for n in names] + [target]:
                if candidate in MODULES and candidate != module:
                    graph[module].add(candidate)
                    break
    return graph


def test_no_import_cycle():
    graph = _module_graph()
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == "open":
                cycle = stack[stack.index(n):] + [n]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_the_checker_sees_upward_private_and_cyclic_imports(tmp_path):
    """The rules above catch what they are meant to (a package with one bad import of each kind)."""
    pkg = tmp_path / "fscompbio"
    (pkg / "selection").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels.py").write_text("from .selection import RandSel\n")
    (pkg / "selection" / "__init__.py").write_text("from ._a import f\n")
    (pkg / "selection" / "_a.py").write_text("from ._b import g\nfrom ..kernels import x\n")
    (pkg / "selection" / "_b.py").write_text("from ._a import f\n")
    (pkg / "cli.py").write_text("from .selection._a import f\n")
    global PACKAGE, MODULES
    saved = PACKAGE, MODULES
    PACKAGE = pkg
    MODULES = {_module_name(p): p for p in sorted(pkg.rglob("*.py"))}
    try:
        with pytest.raises(AssertionError, match="upward import"):
            test_imports_go_down_and_stay_public("fscompbio.kernels")
        with pytest.raises(AssertionError, match="private"):
            test_imports_go_down_and_stay_public("fscompbio.cli")
        with pytest.raises(AssertionError, match="import cycle"):
            test_no_import_cycle()
    finally:
        PACKAGE, MODULES = saved


def test_workflow_scripts_use_public_names_only():
    for script in sorted((REPO / "scripts").glob("*.py")):
        for node in ast.walk(ast.parse(script.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("fscompbio"):
                private = [p for p in node.module.split(".")[1:] if p.startswith("_")]
                private += [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{script.relative_to(REPO)}:{node.lineno} imports private {private} of fscompbio"
