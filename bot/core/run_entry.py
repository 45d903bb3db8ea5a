"""A stored run as a sprint-log entry in words (pure): the headline, the compact table, the movers and parameters.

The headline reads like the group's own results lines: what ran against what, on which instance, over how many
seeds, then the run's one verdict as the comparison judged it (:mod:`bot.core.judgement`, in words by
:func:`bot.core.judgement_words.judgement_summary`: the same outcome and figure as the card), accuracy and time —
``local_update vs sgd (#1), n=20 k=3, 3 seeds: INCONCLUSIVE vs sgd (#1): dmc@1 −0.5 %; first on its board, accuracy
99.8 %, 17 s``. Per-step figures are diagnostics, in the table only. Numbers use the log's compact format
(:func:`tools.metric_format.format_compact`) and one way of writing a change
(:func:`tools.metric_format.format_relative_change`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.comparison import Comparison
from bot.core.judgement_words import judgement_summary
from bot.core.verdict import DEFAULT_RULE, Outcome, VerdictRule
from engine.attribution import AttributionDiff
from tools.board import instance_label, instance_of
from tools.metric_format import format_compact, format_percent, format_relative_change
from tools.sprint_log.entry import EntryTable

ONE_STEP = " (one step)"
"""The suffix of a training method's per-step figures (``ard@1 (one step)``): a step's own traffic."""
INSTANCE_KEYS_SHOWN = ("n", "k", "seed")
"""Parameters the headline already names (instance and seed): left out of the "not at their defaults" line."""
TOP_MOVERS = 3


@dataclass(frozen=True)
class RunFacts:
    """What the entry of one stored run says (all from the stored run, its comparison and its baseline's result).

    baseline: the name of what it was compared with (``sgd``, ``baseline``), None when nothing.
    per_step / baseline_per_step: training methods' per-step figures (``dmc@1 (one step)`` …).
    defaults: the method's default parameters (None: not a method, no defaults to compare with).
    """

    run_id: int
    challenge: str
    subject: str
    kind: str
    ok: bool
    failure: str | None
    params: Mapping[str, Any]
    seeds: tuple[int, ...]
    accuracy: float | None
    wall_s: float
    primary: str | None
    comparison: Comparison
    baseline: str | None = None
    baseline_metrics: Mapping[str, float] | None = None
    per_step: Mapping[str, float] | None = None
    baseline_per_step: Mapping[str, float] | None = None
    defaults: Mapping[str, Any] | None = None
    movers: AttributionDiff | None = None
    rule: VerdictRule = DEFAULT_RULE


def instance_words(challenge: str, params: Mapping[str, Any]) -> str:
    """``n=20 k=3`` for a sparse task, else the challenge's name (its instance is in the name)."""
    label = instance_label(instance_of(challenge, params))
    return label if label else challenge


def seed_words(seeds: tuple[int, ...], params: Mapping[str, Any]) -> str:
    """``seed 0``, ``3 seeds``, or "" when the run has no seed."""
    chosen = seeds or ((int(params["seed"]),) if "seed" in params else ())
    if not chosen:
        return ""
    return f"seed {chosen[0]}" if len(chosen) == 1 else f"{len(chosen)} seeds"


def headline(facts: RunFacts) -> tuple[str, Outcome | None]:
    """The entry's headline and the outcome it states (None: nothing to compare with, or the run failed — a failed
    run is not a result). The verdict is the comparison's one judgement (:mod:`bot.core.judgement_words`), never
    judged again here; per-step figures are diagnostics and stay out of the headline."""
    who = facts.subject + (f" vs {facts.baseline}" if facts.baseline else "")
    where = ", ".join(
        p for p in (instance_words(facts.challenge, facts.params), seed_words(facts.seeds, facts.params)) if p
    )
    judgement = facts.comparison.judgement
    if not facts.ok:
        said = judgement_summary(judgement) if judgement is not None else f"FAILED — {facts.failure or 'no reason'}"
        return f"{who}, {where}: {said}", None
    tail = []
    if facts.accuracy is not None:
        tail.append(f"accuracy {facts.accuracy * 100:.3g} %")
    else:
        tail.append("correct")
    tail.append(f"{facts.wall_s:.1f} s" if facts.wall_s < 10 else f"{facts.wall_s:.0f} s")
    if judgement is None:
        return f"{who}, {where}: " + ", ".join(tail), None
    return f"{who}, {where}: {judgement_summary(judgement)}, " + ", ".join(tail), judgement.outcome


def _change(value: float, reference: float | None) -> str:
    return format_relative_change(value, reference)


def entry_table(facts: RunFacts) -> EntryTable | None:
    """metric | the run | vs the baseline | vs the record then: whole-run metrics, then the one-step figures (named
    diagnostics: they carry no verdict). None for a failed run: it is not a result, the headline says why."""
    if not facts.ok:
        return None
    rows: list[tuple[str, ...]] = []
    with_baseline = facts.baseline is not None
    for row in facts.comparison.rows:
        cells = [row.metric, format_compact(row.value)]
        if with_baseline:
            cells.append(_change(row.value, row.baseline))
        cells.append(_change(row.value, row.record_then))
        rows.append(tuple(cells))
    for key, value in (facts.per_step or {}).items():
        if not key.endswith(ONE_STEP):
            continue
        cells = [f"{key}, diagnostic", format_compact(value)]
        if with_baseline:
            cells.append(_change(value, (facts.baseline_per_step or {}).get(key)))
        cells.append("")
        rows.append(tuple(cells))
    if not rows:
        return None
    headers = ["metric", facts.subject, *([f"vs {facts.baseline}"] if with_baseline else []), "vs record"]
    return EntryTable(tuple(headers), tuple(rows))


def changed_parameters(facts: RunFacts) -> str:
    """``lr=0.05, epochs=50`` — the parameters that differ from the method's defaults ("" when none, or no
    defaults are known), instance and seed left out (the headline names them). Only real non-defaults: a parameter
    the defaults do not name (the instance's task) is not called one, and the seed set counts as a default when it
    is the admins' ``seeds.default`` (``defaults["seeds"]``)."""
    if facts.defaults is None:
        return ""
    changed = [
        f"{key}={value}"
        for key, value in sorted(facts.params.items())
        if key not in INSTANCE_KEYS_SHOWN and key in facts.defaults and not _same(facts.defaults[key], value)
    ]
    return ", ".join(changed)


def _same(default: Any, value: Any) -> bool:
    """Whether ``value`` is the default (a seed list in any order, a number as int or float)."""
    if isinstance(default, list | tuple) and isinstance(value, list | tuple):
        return sorted(default) == sorted(value)
    return bool(default == value)


def mover_words(diff: AttributionDiff, baseline: str, top: int = TOP_MOVERS) -> str:
    """``where it moved vs sgd (dmc@1, one step): b1 −52,113 (53 % of the change), …`` — the top buffers."""
    parts = []
    for row in diff.rows[:top]:
        share = f" ({format_percent(row.share_of_change).lstrip('+')} of the change)" if diff.change else ""
        sign = "−" if row.change < 0 else "+"
        parts.append(f"{row.name} {sign}{format_compact(abs(row.change))}{share}")
    return f"where it moved vs {baseline} ({diff.metric}, {diff.scope}): " + ", ".join(parts)


def detail_lines(facts: RunFacts) -> tuple[str, ...]:
    """The lines between the headline and the table: parameters not at their defaults, then the movers."""
    lines = []
    changed = changed_parameters(facts)
    if changed:
        lines.append(f"parameters not at their defaults: {changed}")
    if facts.movers is not None and facts.baseline and facts.movers.rows:
        lines.append(mover_words(facts.movers, facts.baseline))
    return tuple(lines)
