"""The engine packages' lazy front doors (engine/lazy.py): one helper, and in every package the names mypy is shown
(``TYPE_CHECKING`` imports) are exactly the names offered at run time (``_PUBLIC``), each listed in ``__all__``."""

from __future__ import annotations

import ast
import importlib
import sys
import types
from pathlib import Path

import pytest

from engine.lazy import lazy_exports

ENGINE = Path(__file__).resolve().parents[2] / "engine"
PACKAGES = sorted(p.parent.name for p in ENGINE.glob("*/__init__.py") if "_PUBLIC" in p.read_text(encoding="utf-8"))


def _type_checking_imports(init: Path) -> dict[str, str]:
    """Name -> defining module, from the ``if TYPE_CHECKING:`` block of a package's ``__init__.py``."""
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(init.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module, ast.unparse(stmt)
                for alias in stmt.names:
                    found[alias.asname or alias.name] = stmt.module
    return found


def test_the_packages_with_a_front_door_are_found() -> None:
    # the eight packages whose __init__ repeated the block before engine/lazy.py, and engine.sandbox
    assert PACKAGES == [
        "attribution",
        "challenges",
        "compat",
        "explore",
        "ir",
        "methods",
        "metrics",
        "sandbox",
        "scoring",
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_what_mypy_sees_is_what_runs(package: str) -> None:
    module = importlib.import_module(f"engine.{package}")
    public: dict[str, str] = module._PUBLIC
    assert _type_checking_imports(ENGINE / package / "__init__.py") == public
    assert set(public) <= set(module.__all__)
    for name, defining in public.items():
        assert getattr(module, name) is getattr(importlib.import_module(defining), name)
    assert set(public) <= set(dir(module))
    with pytest.raises(AttributeError, match=f"module 'engine.{package}' has no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018


def test_a_name_is_imported_on_first_use_and_then_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # a package of our own, offering a name from a module that counts its imports
    package = types.ModuleType("lazy_probe_pkg")
    inner = types.ModuleType("lazy_probe_pkg.inner")
    inner.VALUE = 42  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lazy_probe_pkg", package)
    calls: list[str] = []
    real_import = importlib.import_module

    def counting_import(name: str, package_name: str | None = None) -> types.ModuleType:
        calls.append(name)
        return inner if name == "lazy_probe_pkg.inner" else real_import(name, package_name)

    monkeypatch.setattr(importlib, "import_module", counting_import)
    public = {"VALUE": "lazy_probe_pkg.inner"}
    package.__getattr__, package.__dir__ = lazy_exports("lazy_probe_pkg", public)  # type: ignore[attr-defined]

    assert "VALUE" not in vars(package) and calls == []
    assert package.VALUE == 42  # type: ignore[attr-defined]
    assert package.VALUE == 42  # type: ignore[attr-defined]
    assert calls == ["lazy_probe_pkg.inner"]  # once: the second lookup finds the stored value
    assert "VALUE" in dir(package)

    public["LATER"] = "lazy_probe_pkg.inner"  # the mapping is read when asked, so a package may add to it
    inner.LATER = "late"  # type: ignore[attr-defined]
    assert package.LATER == "late"  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="module 'lazy_probe_pkg' has no attribute 'missing'"):
        package.missing  # type: ignore[attr-defined]  # noqa: B018
