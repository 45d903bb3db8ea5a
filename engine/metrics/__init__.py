from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.metrics.clock import ARD as ARD
    from engine.metrics.clock import ARD_PER_READ as ARD_PER_READ
    from engine.metrics.clock import DMC as DMC
    from engine.metrics.registry import DALLY as DALLY
    from engine.metrics.registry import metrics_for as metrics_for
    from engine.metrics.registry import track_metrics as track_metrics

_PUBLIC: dict[str, str] = {
    "ARD": "engine.metrics.clock",
    "ARD_PER_READ": "engine.metrics.clock",
    "DALLY": "engine.metrics.registry",
    "DMC": "engine.metrics.clock",
    "metrics_for": "engine.metrics.registry",
    "track_metrics": "engine.metrics.registry",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = ["ARD", "ARD_PER_READ", "DALLY", "DMC", "metrics_for", "track_metrics"]


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
