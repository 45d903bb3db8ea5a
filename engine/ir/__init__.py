"""The Dally-model IR engine (docs/metrics.md#dally-ir-cost): parse an IR program, price it, and check it on test
instances.

Modules, one idea each: ``instruction_set`` (ops, arities, scorer dialects), ``errors`` (rejections), ``program``
(the parsed form), ``parser`` (text -> Program), ``cost`` (the ⌈√a⌉ read cost), ``static_check`` (rules decidable
without running) and ``simulate`` (run all test instances at once); ``engine.scoring.ir`` combines them with a
challenge's instances (the public entry points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.ir.parser import statement_ends as statement_ends

_PUBLIC: dict[str, str] = {
    "statement_ends": "engine.ir.parser",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = ["statement_ends"]


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
