"""Where the energy went: per-buffer attribution of traced runs, reuse-distance histograms, and the diff of two runs.

- :mod:`engine.attribution.naming` — readable buffer names from the source line that created each buffer;
- :mod:`engine.attribution.buffers` — per-name contributions to ``ard@1``, ``ard_per_read@1``, ``dmc@1``;
- :mod:`engine.attribution.elements` — ``bytedmd@2`` split by named argument;
- :mod:`engine.attribution.histogram` — log₂-binned reuse distances weighted by floats read;
- :mod:`engine.attribution.run_attribution` — all of it for one run, by scope (``whole run``, ``one step``);
- :mod:`engine.attribution.diff` — two runs side by side: which buffers moved, and how much of the change they explain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.attribution.buffers import BufferAttribution, ScopeAttribution, attribute_events
from engine.attribution.elements import ElementAttribution, ElementScope, bytedmd_by_argument
from engine.attribution.histogram import ReuseHistogram
from engine.attribution.naming import NamingEventLog
from engine.attribution.run_attribution import ONE_STEP, WHOLE_RUN, Attribution, attribute_log
from engine.lazy import lazy_exports

__all__ = [
    "ONE_STEP",
    "WHOLE_RUN",
    "Attribution",
    "BufferAttribution",
    "ElementAttribution",
    "ElementScope",
    "NamingEventLog",
    "ReuseHistogram",
    "ScopeAttribution",
    "attribute_events",
    "attribute_log",
    "bytedmd_by_argument",
]


# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.attribution.diff import ONLY_A as ONLY_A
    from engine.attribution.diff import ONLY_B as ONLY_B
    from engine.attribution.diff import UNCHANGED as UNCHANGED
    from engine.attribution.diff import AttributionDiff as AttributionDiff
    from engine.attribution.diff import BufferChange as BufferChange
    from engine.attribution.diff import diff_attribution as diff_attribution
    from engine.attribution.diff import explain as explain
    from engine.attribution.histogram import bin_label as bin_label
    from engine.attribution.rings import WHOLE_PROGRAM as WHOLE_PROGRAM

_PUBLIC: dict[str, str] = {
    "AttributionDiff": "engine.attribution.diff",
    "BufferChange": "engine.attribution.diff",
    "ONLY_A": "engine.attribution.diff",
    "ONLY_B": "engine.attribution.diff",
    "UNCHANGED": "engine.attribution.diff",
    "WHOLE_PROGRAM": "engine.attribution.rings",
    "bin_label": "engine.attribution.histogram",
    "diff_attribution": "engine.attribution.diff",
    "explain": "engine.attribution.diff",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = sorted({*__all__, *_PUBLIC})


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
