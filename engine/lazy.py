"""Lazy exports for an engine package's front door (docs/architecture.md#the-engines-public-api).

An engine package offers names defined in its inner modules without importing those modules when the package is
imported: ``sutro --version`` must not load numpy, and the sandboxed child imports a few ``engine.sandbox`` modules
only. A package lists its offered names in ``_PUBLIC`` (name -> the module that defines it) and installs the pair
this module builds::

    if TYPE_CHECKING:
        from engine.ir.parser import statement_ends as statement_ends   # what mypy reads

    _PUBLIC = {"statement_ends": "engine.ir.parser"}
    if not TYPE_CHECKING:
        __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)

The ``TYPE_CHECKING`` imports give static checkers the names and their types; hiding the ``__getattr__`` from them
keeps a misspelt name an error instead of ``Any``. ``tests/engine/test_lazy_exports.py`` checks that the two lists
agree in every package.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

ModuleGetattr = Callable[[str], object]
ModuleDir = Callable[[], list[str]]


def lazy_exports(package: str, public: Mapping[str, str]) -> tuple[ModuleGetattr, ModuleDir]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package`` (its ``__name__``) offering ``public``.

    ``__getattr__(name)`` imports ``public[name]`` on first use, stores the value in the package (later lookups do
    not come back here) and returns it; any other name raises the ``AttributeError`` Python's own lookup would.
    ``__dir__()`` lists the package's loaded names and the offered ones, so completion and ``dir()`` show both.
    ``public`` is read at call time, so a package may add to it after installing the pair.
    """

    def __getattr__(name: str) -> object:
        module = public.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *public})

    return __getattr__, __dir__
