"""RunResult: what every engine path (method run, IR score, submission) returns, with typed detail fields.

Every metric value is keyed by ``name@version`` (for example ``dally@1``, ``bytedmd@2``) so that no number is ever
shown or stored without its metric's name and version (docs/metrics.md#names-and-versions,
docs/challenges.md#run-results).

A failed run says *why* it failed twice over: ``failure`` is the one line a member reads, ``failure_kind`` the
machine-readable class (:class:`FailureKind`) that decisions use — a stored ``limit`` failure is judged again under
today's limits, a ``wrong_answer`` is the submission's own verdict and is reused.

Stored results written before these fields existed kept the same facts in an open ``extra`` dict;
:meth:`RunResult.from_dict` reads both shapes.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from engine.version import __version__

if TYPE_CHECKING:  # imported when needed: a result must stay cheap to import (the IR scorer's child imports it)
    from engine.attribution.run_attribution import Attribution


class FailureKind(enum.StrEnum):
    """Why a run did not pass.

    limit: stopped by a resource limit (CPU, wall clock, memory, output, operations, array memory) — a verdict of
        the limits in force that day, not of the submission.
    wrong_answer: it ran to the end and answered wrongly (or below the accuracy bar).
    rejected: refused before it ran: malformed IR, a broken rule, an answer of the wrong shape.
    error: the submitted code raised, exited or was killed by a signal other than a limit.
    """

    LIMIT = "limit"
    WRONG_ANSWER = "wrong_answer"
    REJECTED = "rejected"
    ERROR = "error"


@dataclass
class Provenance:
    """Which path judged a result and under which protection.

    judged_by: ``method`` (a registered method, engine code), ``generator`` (a challenge's built-in generator),
        ``ir`` (IR text through the trusted scorer), ``generate`` / ``solve`` (submitted code in the sandbox).
    sandbox_tier: the probed tier (``A``…``D``) when submitted code ran, else None.
    sandbox: one line saying how it ran ("IR text scored by the trusted scorer in a resource-limited process").
    review_flags: what the submission lint flagged for a human to look at.
    """

    judged_by: str
    sandbox_tier: str | None = None
    sandbox: str = ""
    review_flags: list[str] = field(default_factory=list)


@dataclass
class SuiteCount:
    """Exact answers of a recovery-scored program (mask sparse parity) on one instance suite.

    suite_key: the key that drew the suite (``mask-dev``, or an adjudication's ``fresh-…`` key, disclosed once the
        result is stored); suite_digest: SHA-256 of the suite's content; successes / instances: integer counts.
    """

    suite_key: str
    suite_digest: str
    successes: int
    instances: int

    @property
    def recovery(self) -> float:
        """successes / instances, in [0, 1]."""
        return self.successes / self.instances if self.instances else 0.0

    @property
    def noise_pp(self) -> float:
        """Half-width of the 95 % binomial interval of :attr:`recovery`, in percentage points (1.96·√(p(1−p)/n));
        at 50 % on 2,048 instances ±2.2 pp, the group's "≈ ±2 pp"."""
        if not self.instances:
            return 0.0
        p = self.recovery
        return 196.0 * math.sqrt(p * (1.0 - p) / self.instances)


@dataclass
class Recovery:
    """How often a recovery-scored program found the exact answer, and the band it reached.

    dev: the count on the deterministic dev suite (every submission); adjudication: the count on a fresh secret
    suite, run when the result would change a band's record (None otherwise); band: the highest band (percent) the
    dev count reaches or, after an adjudication, the one the fresh count confirms within its noise (never above the
    dev band); None below the lowest band.
    """

    dev: SuiteCount
    band: int | None
    adjudication: SuiteCount | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recovery:
        adjudication = data.get("adjudication")
        return cls(
            dev=SuiteCount(**data["dev"]),
            band=data.get("band"),
            adjudication=None if adjudication is None else SuiteCount(**adjudication),
        )


@dataclass
class RunResult:
    """The outcome of one run.

    challenge: registry name (``matmul_4x4``, ``sparse_parity`` …).
    subject: what ran — a method name, a generator name or a submission label.
    kind: ``method`` | ``ir`` | ``generate`` | ``solve``.
    ok: passed the challenge's correctness rule.
    accuracy: fraction correct in [0, 1] where the challenge measures it, else None.
    failure: one line saying why it did not pass (first failing case), else None.
    failure_kind: the class of that failure (None when ok).
    metrics: ``name@version`` -> value (integers for dally/bytedmd, floats for ard/dmc).
    metric_scopes: ``name@version`` -> scope label ("whole run", "one step", "self-reported" …).
    wall_s: wall-clock seconds for the whole run, tracing included.
    counts: sizes of the work (instructions, reads, events, steps …).
    attribution: optional per-buffer / per-address-range cost, for comparing runs.
    per_step: a training method's per-step figures (``dmc@1 (run mean)``, ``ard@1 (one step)`` …).
    secret / found: a sparse-parity method's hidden secret bits and the bits it found.
    method_kind: ``training`` or ``solver`` for a built-in method, else None.
    note: a method's own remark on the run (e.g. why it stopped early).
    dialect: the IR dialect a program was parsed in.
    per_instance_metrics: a solve() judgement's metrics on each hidden instance.
    provenance: which path judged it (see :class:`Provenance`).
    seed_metrics: for a run over a seed set, ``name@version`` -> the value on each seed of ``seeds`` (in order);
        ``metrics`` then holds their means. Empty for a single-seed or deterministic run.
    recovery: a recovery-scored IR program's exact-answer counts and band (:class:`Recovery`), else None.
    buffer_attribution: a traced run's per-buffer tables by scope, reuse histograms and ByteDMD split by argument
        (:class:`engine.attribution.Attribution`); a dict of its ``to_dict`` form is read back into one.
    rules: the challenge's correctness rules the result was judged under (``matmul rules@2``); None where the
        challenge has no versioned rules, or for a result judged before rules were versioned.
    """

    challenge: str
    subject: str
    kind: str
    ok: bool
    params: dict[str, Any] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)
    accuracy: float | None = None
    failure: str | None = None
    failure_kind: FailureKind | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    metric_scopes: dict[str, str] = field(default_factory=dict)
    wall_s: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    engine_version: str = __version__
    code_hash: str | None = None
    buffer_attribution: Attribution | None = None
    attribution: dict[str, dict[str, float]] | None = None
    per_step: dict[str, float] = field(default_factory=dict)
    secret: list[int] | None = None
    found: list[int] | None = None
    method_kind: str | None = None
    note: str | None = None
    dialect: str | None = None
    per_instance_metrics: list[dict[str, float]] = field(default_factory=list)
    provenance: Provenance | None = None
    seed_metrics: dict[str, list[float]] = field(default_factory=dict)
    recovery: Recovery | None = None
    rules: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.buffer_attribution, dict):
            from engine.attribution.run_attribution import Attribution

            self.buffer_attribution = Attribution.from_dict(self.buffer_attribution)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (plain Python types; the failure kind as its string, the buffer attribution compact)."""
        data = asdict(self)
        data["failure_kind"] = None if self.failure_kind is None else self.failure_kind.value
        data["buffer_attribution"] = None if self.buffer_attribution is None else self.buffer_attribution.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunResult:
        """The RunResult ``data`` describes: a :meth:`to_dict` of today, or of the days of the ``extra`` dict.

        Unknown keys are ignored (a newer writer's field never breaks an older reader).
        """
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        legacy = data.get("extra") or {}
        for key in ("per_step", "secret", "found", "method_kind", "note", "dialect", "per_instance_metrics"):
            if key not in values and legacy.get(key) is not None:
                values[key] = legacy[key]
        if values.get("per_step") is None:
            values["per_step"] = {}
        if values.get("per_instance_metrics") is None:
            values["per_instance_metrics"] = []
        if values.get("seed_metrics") is None:
            values["seed_metrics"] = {}
        provenance = values.get("provenance")
        if isinstance(provenance, dict):
            values["provenance"] = Provenance(**provenance)
        elif provenance is None and ("sandbox" in legacy or "sandbox_tier" in legacy):
            values["provenance"] = Provenance(
                judged_by=str(data.get("kind") or ""),
                sandbox_tier=legacy.get("sandbox_tier"),
                sandbox=str(legacy.get("sandbox") or ""),
                review_flags=list(legacy.get("review_flags") or []),
            )
        if isinstance(values.get("recovery"), dict):
            values["recovery"] = Recovery.from_dict(values["recovery"])
        kind = values.get("failure_kind")
        if kind is not None:
            values["failure_kind"] = FailureKind(kind)
        elif not data.get("ok", True) and data.get("failure"):
            values["failure_kind"] = legacy_failure_kind(str(data["failure"]))
        return cls(**values)


_LEGACY_LIMIT = re.compile(r"\blimit \([^)]*\) exceeded|\blimit exceeded\b")
"""How the sandbox worded a resource-limit failure (engine/sandbox/limits.py) before failures carried a kind."""


def legacy_failure_kind(failure: str) -> FailureKind:
    """The kind of a failure stored before :class:`FailureKind` existed, read from its one-line text.

    Used only to read old rows; every new failure is classified where it happens.
    """
    if _LEGACY_LIMIT.search(failure):
        return FailureKind.LIMIT
    if failure.startswith(("wrong answer", "only ", "accuracy ", "mean accuracy ")):
        return FailureKind.WRONG_ANSWER
    return FailureKind.ERROR
