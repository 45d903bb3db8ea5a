"""What an /explore loop says when it ends — the same lines on the card and in its sprint-log entry
(docs/explore.md#the-summary).

The figures are the journal's (each candidate's cost as its judge priced it); the verdict of the best against the
board is the stored run's own judgement (:mod:`bot.core.judgement`), stated with the same words as every other
card, so the loop never calls anything better that was not judged.
"""

from __future__ import annotations

from bot.core.explore import ExploreOutcome
from bot.core.explore_view import LoopView
from bot.core.judgement_words import judgement_summary
from bot.core.log_entry import log_frame
from bot.core.services import Services
from storage.explore import DISCARDED, INVALID, KEPT
from tools.explore_chart import ChartStep, explore_chart_png
from tools.metric_format import format_value
from tools.sprint_log.entry import EntryChart, EntryTable
from tools.sprint_log.log import Appended


def pct(value: float) -> str:
    """A signed percentage with a real minus sign: one decimal (−25.3 %), two significant digits below 0.1 %
    (−0.0031 %) so a small gain never reads as none."""
    text = f"{value:+.1f}" if abs(value) >= 0.1 or value == 0 else f"{value:+.2g}"
    return f"{text} %".replace("-", "−")


def headline(loop: LoopView) -> str:
    """``explore #3 on matmul_16x16 from published tiled_16x16: 133,783 → 99,919 (−25.3 %)``."""
    change = (
        f"{format_value(loop.start_cost)} → {format_value(loop.best_cost)} ({pct(loop.gain_pct)})"
        if loop.best_cost < loop.start_cost
        else f"{format_value(loop.start_cost)}, no cheaper candidate found"
    )
    return f"explore #{loop.loop_id} on {loop.board_label} from {loop.start_label}: {change}"


def counts_line(loop: LoopView) -> str:
    by = {o: sum(s.outcome == o for s in loop.steps) for o in (KEPT, DISCARDED, INVALID)}
    return (
        f"{loop.steps_done} candidates judged: {by[KEPT]} kept, {by[DISCARDED]} discarded, {by[INVALID]} refused; "
        f"{loop.cpu_s:.1f} s CPU; {loop.status}: {loop.stop_reason}"
    )


def record_line(loop: LoopView) -> str | None:
    if loop.record_cost is None:
        return None
    versus = 100.0 * (loop.best_cost - loop.record_cost) / loop.record_cost
    standing = "below the record" if loop.best_cost < loop.record_cost else "not a record"
    return f"vs the board's record {format_value(loop.record_cost)} (when the loop began): {pct(versus)}, {standing}"


def summary_lines(outcome: ExploreOutcome) -> list[str]:
    """The loop in a few lines: headline, counts and stop reason, against the record, against the naive baseline,
    and what became of the best (its stored run and verdict, or where it is kept)."""
    loop = outcome.loop
    lines = [headline(loop), counts_line(loop)]
    record = record_line(loop)
    if record:
        lines.append(record)
    if outcome.baseline_cost is not None:
        versus = 100.0 * (loop.best_cost - outcome.baseline_cost) / outcome.baseline_cost
        lines.append(f"vs the naive baseline {format_value(outcome.baseline_cost)}: {pct(versus)}")
    lines.append(best_line(outcome))
    return lines


def best_line(outcome: ExploreOutcome) -> str:
    loop = outcome.loop
    recorded = outcome.recorded
    if recorded is None:
        return f"nothing beat the start; the journal is kept (explore show {loop.loop_id})"
    judgement = recorded.comparison.judgement
    verdict = judgement_summary(judgement) if judgement is not None else ""
    run_id = recorded.stored.id
    if not recorded.result.ok:
        return f"the best failed when judged again (run #{run_id}): {recorded.result.failure}"
    return f"best stored as run #{run_id} ({'found by /explore'}, {loop.member})" + (f": {verdict}" if verdict else "")


def steps_table(loop: LoopView, *, only_kept: bool = False) -> EntryTable:
    """The steps as a table: step, operator, cost, change against the best before it, outcome and why it was not
    kept; ``only_kept``: the kept steps, with the operator's hypothesis in place of the last two columns."""
    if only_kept:
        kept = tuple(
            (str(s.number), s.operator, _cost(s.cost), _delta(s.delta_pct), s.hypothesis)
            for s in loop.steps
            if s.outcome == KEPT
        )
        return EntryTable(headers=("step", "operator", loop.metric, "vs best", "hypothesis"), rows=kept)
    rows = tuple(
        (str(s.number), s.operator, _cost(s.cost), _delta(s.delta_pct), s.outcome, s.reason) for s in loop.steps
    )
    return EntryTable(headers=("step", "operator", loop.metric, "vs best", "outcome", "why not kept"), rows=rows)


def _cost(cost: int | None) -> str:
    return "" if cost is None else format_value(cost)


def _delta(delta_pct: float | None) -> str:
    return "" if delta_pct is None else pct(delta_pct)


def chart_png(loop: LoopView) -> bytes:
    steps = [ChartStep(number=s.number, cost=s.cost, outcome=s.outcome) for s in loop.steps]
    return explore_chart_png(
        steps,
        metric=loop.metric,
        start_cost=loop.start_cost,
        record_cost=loop.record_cost,
        title=f"explore #{loop.loop_id} on {loop.board_label}",
    )


def log_loop(services: Services, outcome: ExploreOutcome) -> Appended:
    """The loop's one sprint-log entry: the summary lines, the kept steps as a table, the progression chart."""
    loop = outcome.loop
    lines = summary_lines(outcome)
    frame = log_frame(services, loop.member)
    tried = ", ".join(dict.fromkeys(s.operator for s in loop.steps)) or "nothing"
    details = (*lines[1:], f"tried: {tried}", *([f"goal: {loop.goal}"] if loop.goal else []))
    chart = EntryChart(
        name=f"explore-{loop.loop_id}.png", caption=f"explore #{loop.loop_id}: best so far by step", png=chart_png(loop)
    )
    return services.sprint_log().append_entry(
        author=loop.member,
        kind="explore",
        title=lines[0],
        body="",
        run_id=loop.run_id,
        detail=frame.detail(headline=lines[0], lines=details, table=steps_table(loop, only_kept=True)),
        charts=[chart],
        sprint_id=frame.sprint_id,
    )
