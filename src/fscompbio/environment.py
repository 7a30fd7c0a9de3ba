"""The software environment of a run, and the lock file it is meant to match.

The study's environment is recorded in ``requirements/lock.txt``: every package with its exact version
and hashes, resolved for Python 3.11 and later on every platform (``make lock``). The workflow installs it
(``make workflow``, ``make test``), writes what a run actually had to ``results/environment.json``
(:func:`environment_record`), and the cluster's conda environment is generated from the same file
(:func:`conda_environment`).

Command line (used by the Makefile)::

    python -m fscompbio.environment record [--lock requirements/lock.txt]   # the JSON record
    python -m fscompbio.environment compare requirements/lock.txt           # installed vs locked
    python -m fscompbio.environment conda-env requirements/lock.txt         # envs/study.yaml
    eval "$(python -m fscompbio.environment pin)"                           # the workflow's CPU kernels, here
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

__all__ = [
    "KEY_PACKAGES",
    "read_lock",
    "installed_versions",
    "compare_to_lock",
    "environment_record",
    "conda_environment",
    "BLAS_KERNELS",
    "KERNEL_VARIABLES",
    "numpy_avx512_targets",
    "pin_cpu_kernels",
]

#: The packages whose versions decide the study's numbers, listed first in the record.
KEY_PACKAGES = (
    "numpy",
    "scipy",
    "scikit-learn",
    "pandas",
    "matplotlib",
    "cvxpy",
    "highspy",
    "clarabel",
    "biopython",
    "pyhsiclasso",
    "threadpoolctl",
    "snakemake",
)

#: The Python of the lock's resolution and of the conda environment.
LOCK_PYTHON = "3.11"

#: Packages of the lock that conda provides itself in the generated environment.
_CONDA_PROVIDES = {"pip", "setuptools"}


def _logical_lines(path):
    """``(line number, text)`` of each requirement, continuation lines joined, comments dropped."""
    pending, start = "", None
    for number, raw in enumerate(Path(path).read_text().splitlines(), start=1):
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if start is None:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        if pending.strip():
            yield start, pending.strip()
        pending, start = "", None


def read_lock(path, *, all_markers=False):
    """The exact pins of a lock file: ``{canonical name: (version, marker text or None)}``.

    A hashed requirements file as ``uv pip compile --generate-hashes`` (or pip-tools) writes it. By
    default only the pins whose environment marker holds here; ``all_markers=True`` keeps every line
    (keyed ``name`` or ``name ; marker`` when one name is pinned under several markers).

    Raises
    ------
    ValueError
        Naming the file and line of a requirement that is not an exact ``name==version`` pin.
    """
    pins = {}
    for number, text in _logical_lines(path):
        spec = " ".join(tok for tok in text.split() if not tok.startswith("--hash"))
        if spec.startswith("-"):  # an option line such as --index-url
            continue
        try:
            req = Requirement(spec)
        except InvalidRequirement as exc:
            raise ValueError(f"{path}:{number}: not a requirement: {spec!r} ({exc})") from None
        specs = list(req.specifier)
        if len(specs) != 1 or specs[0].operator != "==" or "*" in specs[0].version:
            raise ValueError(f"{path}:{number}: {req.name} is not pinned to one version (got {spec!r})")
        marker = str(req.marker) if req.marker else None
        if not all_markers and req.marker is not None and not req.marker.evaluate():
            continue
        name = canonicalize_name(req.name)
        key = name if name not in pins or not all_markers else f"{name} ; {marker}"
        pins[key] = (specs[0].version, marker)
    return pins


def installed_versions():
    """``{canonical name: version}`` of every distribution installed in this interpreter."""
    out = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            out.setdefault(canonicalize_name(name), dist.version)
    return dict(sorted(out.items()))


def compare_to_lock(lock_path, installed=None, *, ignore=("fscompbio",)):
    """The packages whose installed version is not the locked one.

    Returns a list of ``{"name", "locked", "installed"}`` (``None`` for a package missing on one side),
    sorted by name; empty when the environment is exactly the lock's. ``ignore``: names not compared
    (the project itself, installed from its source tree).
    """
    locked = {name: version for name, (version, _) in read_lock(lock_path).items()}
    installed = installed_versions() if installed is None else installed
    skip = {canonicalize_name(n) for n in ignore}
    names = sorted((set(locked) | set(installed)) - skip)
    return [
        {"name": n, "locked": locked.get(n), "installed": installed.get(n)}
        for n in names
        if locked.get(n) != installed.get(n)
    ]


def _blas():
    """The BLAS libraries NumPy and SciPy load, with the CPU kernel each chose (OpenBLAS' ``architecture``).

    threadpoolctl reports loaded libraries only, so NumPy and SciPy's linear algebra are loaded first. The
    kernel is part of the result: the same config gives byte-identical results on one kind of CPU, while
    another kernel (another CPU) may round sums differently (e.g. an L-BFGS fit's path)."""
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_info

    keep = ("user_api", "internal_api", "version", "architecture")
    return sorted(
        ({k: info.get(k) for k in keep} for info in threadpool_info()),
        key=lambda d: tuple(str(d[k]) for k in keep),
    )


#: The OpenBLAS kernels of the workflow's jobs on every x86-64 CPU that can run them (:func:`pin_cpu_kernels`).
BLAS_KERNELS = "Haswell"
#: The environment variables that choose the CPU kernels of OpenBLAS and of NumPy's loops.
KERNEL_VARIABLES = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")


def _cpu_flags():
    """The CPU's instruction-set flags (lower case) from ``/proc/cpuinfo``; empty where there is none."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.partition(":")[2].split())
    return frozenset()


def _numpy_simd_report():
    """NumPy's report of its SIMD loops (``baseline``, dispatch targets ``found`` and ``not found`` on this CPU,
    after ``NPY_DISABLE_CPU_FEATURES``), from :func:`numpy.show_config`; None where NumPy gives none."""
    import numpy

    try:
        return numpy.show_config(mode="dicts")["SIMD Extensions"]
    except (TypeError, KeyError):  # a NumPy without the report
        return None


def numpy_avx512_targets():
    """NumPy's runtime-dispatch targets that use AVX-512 (``X86_V4``, ``AVX512_*``), whether this CPU has them
    or not; empty where NumPy does not report them."""
    simd = _numpy_simd_report() or {}
    targets = [*simd.get("found", []), *simd.get("not found", [])]
    return sorted(t for t in targets if t == "X86_V4" or t.startswith("AVX512"))


def pin_cpu_kernels(environ=None, *, machine=None, flags=None, numpy_targets=None):
    """Make the processes started from here compute with the same CPU kernels on every x86-64 CPU with AVX2.

    Two libraries choose their kernels for the CPU they run on, and kernels of another width round
    differently: OpenBLAS (its ``DYNAMIC_ARCH`` kernels: a matrix product summed in another order) and NumPy's
    runtime dispatch (on an AVX-512 CPU, e.g., ``exp`` and ``log`` of float64 give other last digits than on an
    AVX2 one). An iterative solver (an L-BFGS path, a sparse filter) carries such digits into the results. On
    an x86-64 CPU with AVX2 and FMA (Intel since 2013, AMD since 2017) this sets, for new processes (read when
    they load the libraries), ``OPENBLAS_CORETYPE=Haswell`` and ``NPY_DISABLE_CPU_FEATURES`` to NumPy's AVX-512
    targets, the kernels every such CPU runs. A variable already in the environment is kept (export it to
    choose: e.g. ``OPENBLAS_CORETYPE=SkylakeX`` and an empty ``NPY_DISABLE_CPU_FEATURES`` for an AVX-512 CPU's
    own kernels); another architecture, or a CPU without AVX2 and FMA, is left to the libraries' own choice. The
    process that calls this keeps the kernels it loaded.

    Returns ``{variable: value}`` of the two variables in effect for new processes (empty when the libraries
    choose).
    """
    environ = os.environ if environ is None else environ
    machine = (platform.machine() if machine is None else machine).lower()
    flags = _cpu_flags() if flags is None else frozenset(flags)
    if machine in ("x86_64", "amd64") and {"avx2", "fma"} <= flags:
        environ.setdefault("OPENBLAS_CORETYPE", BLAS_KERNELS)
        targets = numpy_avx512_targets() if numpy_targets is None else list(numpy_targets)
        if targets:
            environ.setdefault("NPY_DISABLE_CPU_FEATURES", " ".join(targets))
    return {k: environ[k] for k in KERNEL_VARIABLES if k in environ}


def _numpy_simd():
    """NumPy's SIMD loops in this process: its build's baseline and the dispatch targets it runs (``found``)."""
    simd = _numpy_simd_report()
    return None if simd is None else {"baseline": list(simd.get("baseline", [])), "found": list(simd.get("found", []))}


def environment_record(lock_path=None):
    """What a run ran on: Python, platform, BLAS, NumPy's SIMD loops, every package's version, the lock's match.

    Deterministic for one environment (no dates, no paths, no thread counts), so that a run's record
    changes only when its software does.
    """
    from . import __version__

    installed = installed_versions()
    record = {
        "fscompbio": __version__,
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation()},
        "platform": {"system": platform.system(), "machine": platform.machine()},
        "key_packages": {n: installed.get(n) for n in KEY_PACKAGES},
        "packages": installed,
        "blas": _blas(),
        "numpy_simd": _numpy_simd(),
    }
    if lock_path is not None:
        lock_path = Path(lock_path)
        diff = compare_to_lock(lock_path, installed)
        record["lock"] = {
            "file": lock_path.name,
            "sha256": hashlib.sha256(lock_path.read_bytes()).hexdigest(),
            "matches": not diff,
            "differences": diff,
        }
    return record


def conda_environment(lock_path, *, source=None):
    """A conda environment file (YAML text) with the lock's exact versions.

    conda-forge gives Python and graphviz (figure 5.1's rule graph); pip installs every locked package
    at its locked version (the same wheels as the ``.venv`` install, so the same numbers), then the
    package from the repository (``-e ..``: the file lives in ``envs/``).
    """
    pins = read_lock(lock_path, all_markers=True)
    lines = [
        f"# Generated from {source or Path(lock_path).name} by `make envs`: do not edit by hand.",
        "# The conda environment of every rule under --software-deployment-method conda (profiles/slurm-conda):",
        "# Python and graphviz from conda-forge, every Python package at the lock's exact version from PyPI.",
        "channels:",
        "  - conda-forge",
        "  - nodefaults",
        "dependencies:",
        f"  - python ={LOCK_PYTHON}",
        "  - graphviz =12",
        "  - pip",
        "  - pip:",
    ]
    for key, (version, marker) in sorted(pins.items()):
        name = key.split(" ;", 1)[0]
        if name in _CONDA_PROVIDES:
            continue
        requirement = f"{name}=={version}" + (f" ; {marker}" if marker else "")
        lines.append("      - '" + requirement.replace("'", "''") + "'")  # YAML single quotes: markers quote with "
    lines.append("      - -e ..")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fscompbio.environment", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="print the JSON record of this environment")
    rec.add_argument("--lock", help="the lock file to compare with")
    cmp_ = sub.add_parser("compare", help="list the packages whose installed version is not the locked one")
    cmp_.add_argument("lock")
    cmp_.add_argument("--strict", action="store_true", help="exit 1 when any package differs")
    env = sub.add_parser("conda-env", help="print the conda environment file generated from the lock")
    env.add_argument("lock")
    sub.add_parser("pin", help="print the shell exports that give a process the workflow's CPU kernels "
                               "(eval \"$(python -m fscompbio.environment pin)\")")
    args = parser.parse_args(argv)
    if args.command == "pin":
        for name, value in pin_cpu_kernels(dict(os.environ)).items():
            print(f"export {name}={shlex.quote(value)}")
        return 0
    if args.command == "record":
        print(json.dumps(environment_record(args.lock), indent=1, sort_keys=True))
        return 0
    if args.command == "conda-env":
        sys.stdout.write(conda_environment(args.lock, source=args.lock))
        return 0
    diff = compare_to_lock(args.lock)
    if not diff:
        print(f"every installed package has its version of {args.lock}")
        return 0
    width = max(len(d["name"]) for d in diff)
    print(f"{len(diff)} package(s) differ from {args.lock}:")
    print(f"  {'package':{width}s}  {'locked':>14s}  {'installed':>14s}")
    for d in diff:
        print(f"  {d['name']:{width}s}  {d['locked'] or '-':>14s}  {d['installed'] or '-':>14s}")
    return 1 if args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
