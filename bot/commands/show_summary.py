"""``show ID`` as a phone reads it: one stored run summarised in at most :data:`SUMMARY_ROWS` rows of
:data:`bot.commands.card_voice.CARD_WIDTH` characters — what ran, on what, the stored verdict and board standing,
every metric with its seed spread and its change against the baseline, the one-step diagnostics, the method's note.

The full text (the field table, the per-step table, the comparison table, the code, the reuse-distance charts) is
``show ID --full``, sent as a file in the chat. Pure rendering of the stored run and the core's
:class:`bot.core.comparison.Comparison` (its judgement is the stored one, never judged again here).
"""

from __future__ import annotations

import statistics

from bot.commands.card_voice import CARD_WIDTH, board_standing, judged_part, phone_rows, seeds_words
from bot.commands.submission_card import PROTOCOL_LINE
from bot.core.comparison import Comparison
from bot.core.store import Run
from engine.result import RunResult
from tools.metric_format import format_relative_change, format_value
from tools.run_detail import COUNTING_NOTE

SUMMARY_ROWS = 25
"""Rows of a phone screen the summary may fill (wrapped at :data:`bot.commands.card_voice.CARD_WIDTH`)."""
ONE_STEP = " (one step)"
"""The suffix of a per-step diagnostic's key (``dmc@1 (one step)``)."""
PARAMS_SHOWN = 8
"""Parameters named in the summary (``show ID --full`` has them all)."""


def metric_line(key: str, value: float, seeds: list[float] | None, baseline: float | None) -> str:
    """``dmc@1 5.926e+10 ±17 %, −0.5 %``: the value, its seed spread as a share of it, and its change against the
    baseline's value (a ratio beyond ±100 %)."""
    line = f"{key} {format_value(value)}"
    if seeds and len(seeds) >= 2 and value:
        share = statistics.stdev(seeds) / abs(value) * 100
        line += f" ±{share:.0f} %" if share >= 10 else f" ±{share:.2g} %"
    change = format_relative_change(value, baseline) if baseline is not None else ""
    return f"{line}, {change}" if change else line


def summary_lines(run: Run, result: RunResult, comparison: Comparison) -> list[str]:
    """The summary's lines (a phone wraps the few longer ones; :func:`fits` checks the whole)."""
    status = "ok" if run.ok else "FAILED, not a result (no verdict, not on any board)"
    lines = [f"#{run.id} {run.subject} on {run.challenge} by {run.member.name}: {status}"]
    if not run.ok:
        lines.append(run.failure or "no reason recorded")
    params = [f"{k}={v}" for k, v in sorted(run.params.items()) if k != "seeds" and not isinstance(v, dict | list)]
    if params:
        more = f" (+{len(params) - PARAMS_SHOWN})" if len(params) > PARAMS_SHOWN else ""
        lines.append(" ".join(params[:PARAMS_SHOWN]) + more)
    seeds = f"{seeds_words(run.seeds)} ({', '.join(map(str, run.seeds))})" if run.seeds else ""
    acc = f"accuracy {run.accuracy:.1%}" if run.accuracy is not None else ""
    lines.append(", ".join(p for p in (seeds, acc, f"{run.wall_s:.2f} s") if p))
    judgement = comparison.judgement
    if judgement is not None and judgement.baseline is not None and (part := judged_part(judgement)):
        lines.append(f"vs {judgement.baseline}: {part}")
    if (standing := board_standing(judgement)) is not None:
        lines.append(standing)
    baseline = {row.metric: row.baseline for row in comparison.rows}
    base_label = f" (change vs {judgement.baseline})" if judgement is not None and judgement.baseline else ""
    if run.metrics and run.ok:
        spread = ", mean ± seed spread" if len(run.seeds) > 1 else ""
        lines.append(f"metrics{spread}{base_label}:")
        lines += [
            metric_line(key, value, result.seed_metrics.get(key), baseline.get(key))
            for key, value in sorted(run.metrics.items())
        ]
    one_step = [f"{k.removesuffix(ONE_STEP)} {format_value(v)}" for k, v in result.per_step.items() if ONE_STEP in k]
    if one_step and run.ok:
        lines.append("one step (diagnostic): " + ", ".join(one_step))
    if result.note:
        lines.append(result.note)
    if comparison.baseline is not None and comparison.baseline.note and run.ok:
        lines.append(f"the baseline, {comparison.baseline.label}: {comparison.baseline.note}")
    lines += judged_where(result)
    if run.kind == "method":
        lines.append(COUNTING_NOTE)
    return lines


def rows_of(lines: list[str]) -> int:
    """Rows the lines fill on a phone, wrapped at :data:`CARD_WIDTH`."""
    return len(phone_rows("\n".join(lines), CARD_WIDTH))


def judged_where(result: RunResult) -> list[str]:
    """How a submission was judged: where (trusted scorer, sandbox tier), the solve() protocol, which metrics the
    judge measured and which the code reported itself, and any review flags."""
    if result.kind not in ("ir", "generate", "solve"):
        return []
    provenance = result.provenance
    where = "trusted scorer"
    if provenance is not None and (provenance.sandbox_tier or provenance.sandbox):
        where = f"sandbox tier {provenance.sandbox_tier}" if provenance.sandbox_tier else str(provenance.sandbox)
    lines = [f"judged by the {where}" if where == "trusted scorer" else f"judged in {where}"]
    if result.kind == "solve":
        instances = result.params.get("instances", "the")
        lines.append(PROTOCOL_LINE.format(instances=instances, epoch=result.params.get("epoch", "—")))
        reported = [k for k, scope in result.metric_scopes.items() if "self-reported" in scope]
        lines.append(
            "self-reported (measured inside your code, not verified): " + ", ".join(reported)
            if reported
            else "metrics measured by the judge, outside your code (none self-reported)"
        )
    flags = provenance.review_flags if provenance is not None else []
    if flags:
        lines.append("flagged for review: " + "; ".join(flags[:3]) + (" …" if len(flags) > 3 else ""))
    return lines
