"""A stored run as a sprint-log entry in words (pure): the headline, the compact table, the movers and parameters.

The headline reads like the group's own results lines: what ran against what, on which instance, over how many
seeds, the board's primary metric as a relative change with its verdict (:mod:`bot.core.verdict`), accuracy and
time — ``local_update vs sgd, n=20 k=3, seed 0: dmc@1 −2.9 % one step (WIN), accuracy 100 %, 5.1 s``. Without a
baseline the primary metric is compared with the board's record (:class:`bot.core.comparison.Standing`). Every number
uses one format (:func:`tools.metric_format.format_compact`, :func:`tools.metric_format.format_percent`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.comparison import Comparison
from bot.core.verdict import DEFAULT_RULE, Verdict, VerdictRule, judge
from engine.attribution.diff import AttributionDiff
from tools.board import instance_label, instance_of
from tools.metric_format import format_compact, format_percent
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


def _primary_pair(facts: RunFacts) -> tuple[str, float, float | None, str]:
    """(metric key, value, baseline value, scope words) for the headline: the primary metric's one-step figure
    where both sides have it, else the whole run's."""
    metric = facts.primary or ""
    step = metric + ONE_STEP
    mine, theirs = facts.per_step or {}, facts.baseline_per_step or {}
    if step in mine and (facts.baseline is None or step in theirs):
        return metric, mine[step], theirs.get(step), " one step"
    value = next((r.value for r in facts.comparison.rows if r.metric == metric), None)
    base = (facts.baseline_metrics or {}).get(metric)
    return metric, float(value) if value is not None else float("nan"), base, ""


def headline(facts: RunFacts) -> tuple[str, Verdict | None]:
    """The entry's headline and the verdict it states (None: nothing to compare with, or the run failed)."""
    who = facts.subject + (f" vs {facts.baseline}" if facts.baseline else "")
    where = ", ".join(
        p for p in (instance_words(facts.challenge, facts.params), seed_words(facts.seeds, facts.params)) if p
    )
    if not facts.ok:
        return f"{who}, {where}: FAILED — {facts.failure or 'no reason recorded'}", None
    tail = []
    if facts.accuracy is not None:
        tail.append(f"accuracy {facts.accuracy * 100:.3g} %")
    else:
        tail.append("correct")
    tail.append(f"{facts.wall_s:.1f} s" if facts.wall_s < 10 else f"{facts.wall_s:.0f} s")
    if not facts.primary:
        return f"{who}, {where}: " + ", ".join(tail), None
    verdict: Verdict | None = None
    if facts.baseline:
        metric, value, base, scope = _primary_pair(facts)
        if base:
            verdict = judge([value], [base], rule=facts.rule)
            figure = f"{metric} {format_percent((value - base) / base)}{scope} ({verdict.outcome.value})"
        else:
            figure = f"{metric} {format_compact(value)}{scope}"
    else:  # against the board's record: the whole run's primary metric, as the leaderboard ranks it
        standing = facts.comparison.standing
        metric = facts.primary
        value = next((r.value for r in facts.comparison.rows if r.metric == metric), float("nan"))
        figure = f"{metric} {format_compact(value)}"
        if standing is not None and standing.record:
            verdict = standing.verdict
            assert verdict is not None
            by = f" by {standing.record_by}" if standing.record_by else ""
            change = format_percent((standing.value - standing.record) / standing.record)
            figure += f", {change} vs the record{by} ({verdict.outcome.value})"
        elif standing is not None and standing.record is None:
            figure += " (first on its board)"
    return f"{who}, {where}: {figure}, " + ", ".join(tail), verdict


def _change(value: float, reference: float | None) -> str:
    return "" if not reference else format_percent((value - reference) / reference)


def entry_table(facts: RunFacts) -> EntryTable | None:
    """metric | the run | vs the baseline | vs the record then: whole-run metrics, then the one-step figures."""
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
        cells = [key, format_compact(value)]
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
    defaults are known), instance and seed left out (the headline names them)."""
    if facts.defaults is None:
        return ""
    changed = [
        f"{key}={value}"
        for key, value in sorted(facts.params.items())
        if key not in INSTANCE_KEYS_SHOWN and facts.defaults.get(key) != value
    ]
    return ", ".join(changed)


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
