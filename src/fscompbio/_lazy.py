"""Lazy re-export of public names from private modules (PEP 562).

Each subpackage maps a public name to the private module that defines it, so
``from fscompbio.selection import RandSel`` imports only what it needs.
"""

from importlib import import_module


def lazy_exports(package, exports):
    """Return ``(__getattr__, __dir__)`` for a package re-exporting ``exports``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict of str -> str
        Public name -> relative module name (e.g. ``"._randsel"``).
    """

    def __getattr__(name):
        try:
            module = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        return getattr(import_module(module, package), name)

    def __dir__():
        return sorted(exports)

    return __getattr__, __dir__
