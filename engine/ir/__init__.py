"""The Dally-model IR engine (docs/metrics.md#dally-ir-cost): parse an IR program, price it, and check it on test
instances.

Modules, one idea each: ``instruction_set`` (ops, arities, scorer dialects), ``errors`` (rejections), ``program``
(the parsed form), ``parser`` (text -> Program), ``cost`` (the ⌈√a⌉ read cost), ``static_check`` (rules decidable
without running) and ``simulate`` (run all test instances at once); ``engine.scoring.ir`` combines them with a
challenge's instances (the public entry points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# --- public API (generated from what bot/ and tools/ use; see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.ir.parser import statement_ends as statement_ends

_PUBLIC: dict[str, str] = {
    "statement_ends": "engine.ir.parser",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = ["statement_ends"]


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        import importlib

        return getattr(importlib.import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'engine.ir' has no attribute {name!r}")


# --- end of the public API ---
