"""Compatibility with the group's public evaluators (their exact protocols, for comparable numbers)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.compat.spc import SEEDS as SEEDS
    from engine.compat.spc import evaluate as evaluate
    from engine.compat.spc import load_solve as load_solve

_PUBLIC: dict[str, str] = {
    "SEEDS": "engine.compat.spc",
    "evaluate": "engine.compat.spc",
    "load_solve": "engine.compat.spc",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = ["SEEDS", "evaluate", "load_solve"]


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
