"""RunResult: what every engine path (method run, IR score, submission) returns.

Every metric value is keyed by ``name@version`` (for example ``dally@1``, ``bytedmd@1``) so that no number is ever
shown or stored without its metric's name and version (docs/metrics.md#names-and-versions,
docs/challenges.md#run-results).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from engine.version import __version__

if TYPE_CHECKING:  # imported when needed: a result must stay cheap to import (the IR scorer's child imports it)
    from engine.attribution.run_attribution import Attribution


@dataclass
class RunResult:
    """The outcome of one run.

    challenge: registry name (``matmul_4x4``, ``sparse_parity`` …).
    subject: what ran — a method name, a generator name or a submission label.
    kind: ``method`` | ``ir`` | ``generate`` | ``solve``.
    ok: passed the challenge's correctness rule.
    accuracy: fraction correct in [0, 1] where the challenge measures it, else None.
    failure: one line saying why it did not pass (first failing case), else None.
    metrics: ``name@version`` -> value (integers for dally/bytedmd, floats for ard/dmc).
    metric_scopes: ``name@version`` -> scope label ("whole run", "one step", "self-reported" …).
    wall_s: wall-clock seconds for the whole run, tracing included.
    counts: sizes of the work (instructions, reads, events, steps …).
    attribution: optional per-buffer / per-address-range cost, for comparing runs.
    buffer_attribution: a traced run's per-buffer tables by scope, reuse histograms and ByteDMD split by argument
        (:class:`engine.attribution.Attribution`); a dict of its ``to_dict`` form is read back into one.
    """

    challenge: str
    subject: str
    kind: str
    ok: bool
    params: dict[str, Any] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)
    accuracy: float | None = None
    failure: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    metric_scopes: dict[str, str] = field(default_factory=dict)
    wall_s: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    engine_version: str = __version__
    code_hash: str | None = None
    buffer_attribution: Attribution | None = None
    attribution: dict[str, dict[str, float]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.buffer_attribution, dict):
            from engine.attribution.run_attribution import Attribution

            self.buffer_attribution = Attribution.from_dict(self.buffer_attribution)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (all values are plain Python types; the buffer attribution in its compact form)."""
        data = asdict(self)
        data["buffer_attribution"] = None if self.buffer_attribution is None else self.buffer_attribution.to_dict()
        return data
