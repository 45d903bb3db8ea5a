"""Where the energy went: per-buffer attribution of traced runs, reuse-distance histograms, and the diff of two runs.

- :mod:`engine.attribution.naming` — readable buffer names from the source line that created each buffer;
- :mod:`engine.attribution.buffers` — per-name contributions to ``ard@1``, ``ard_per_read@1``, ``dmc@1``;
- :mod:`engine.attribution.elements` — ``bytedmd@2`` split by named argument;
- :mod:`engine.attribution.histogram` — log₂-binned reuse distances weighted by floats read;
- :mod:`engine.attribution.run_attribution` — all of it for one run, by scope (``whole run``, ``one step``);
- :mod:`engine.attribution.diff` — two runs side by side: which buffers moved, and how much of the change they explain.
"""

from engine.attribution.buffers import BufferAttribution, ScopeAttribution, attribute_events
from engine.attribution.elements import ElementAttribution, ElementScope, bytedmd_by_argument
from engine.attribution.histogram import ReuseHistogram
from engine.attribution.naming import NamingEventLog
from engine.attribution.run_attribution import ONE_STEP, WHOLE_RUN, Attribution, attribute_log

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
