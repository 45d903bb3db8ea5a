"""``sweep``: one built-in method over a grid of parameters, each point a stored run — one card.

``sutro sweep local_update lr=0.03,0.1,0.3 n=20`` → a card (docs/cards.md): how many points passed in the headline,
then a line per point (its swept values, the challenge's primary metric, accuracy, run id; at most five and how many
more when the grid is larger), ``--table`` for every point as one table (accuracy, the metric, wall time, pass/FAIL,
run id, note), and, when n is swept, the largest n solved per k and a chart
(accuracy and the primary metric vs n, one line per k: :mod:`tools.sweep_chart`; a photo in Telegram). The work is
:func:`bot.core.sweep.run_sweep`; this module parses the invocation and renders the outcome.
"""

from __future__ import annotations

from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, Table, UsageError
from bot.commands.card_voice import CARD_LINES, CARD_WIDTH, card_of, metric_name
from bot.context import AppContext
from bot.core.sweep import SweepOutcome, SweepPoint, SweepRequest, run_sweep
from engine.metrics import DMC
from tools.metric_format import format_value

USAGE = usage_of("sweep")
POINTS_SHOWN = CARD_LINES - 1
"""Points listed on a card of more than :data:`CARD_LINES` points (the last line says how to see the rest)."""


def sweep(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.args:
        raise UsageError("which method?", hint=f"usage: sweep {USAGE}")
    if len(inv.args) > 1:
        raise UsageError(f"unexpected argument '{inv.args[1]}'", hint="parameters are key=value, e.g. n=20,30,50")
    request = SweepRequest.parse(inv.args[0], dict(inv.options))
    outcome = run_sweep(ctx, request, member=inv.caller.name, force="force" in inv.flags, progress=inv.progress)
    return sweep_card(outcome, table="table" in inv.flags)


def _result(point: SweepPoint) -> str:
    if point.run_id is None:
        return "refused"
    return "pass" if point.row.ok else "FAIL"


def _point_line(point: SweepPoint, metric: str) -> str:
    """One point in a card line: ``n=20: DMC 17,814.50, 100.0 %, #1`` — the richest form that fits the card's
    width (the metric's name, then the accuracy, give way first; the run id stays)."""
    label = " ".join(f"{key}={value}" for key, value in point.row.point) or "defaults"
    if point.run_id is None:
        return f"{label}: refused — {point.row.note}"
    run = f"#{point.run_id}"
    accuracy = None if point.row.accuracy is None else f"{point.row.accuracy * 100:.1f} %"
    if not point.row.ok:
        forms = [", ".join(x for x in (f"{label}: FAIL", accuracy, run) if x), f"{label}: FAIL, {run}"]
    else:
        value = "—" if point.value is None else format_value(point.value)
        forms = [
            ", ".join(x for x in (f"{label}: {metric_name(metric)} {value}", accuracy, run) if x),
            ", ".join(x for x in (f"{label}: {value}", accuracy, run) if x),
            f"{label}: {value}, {run}",
        ]
    return next((form for form in forms if len(form) <= CARD_WIDTH), f"{run} {forms[-1].removesuffix(', ' + run)}")


def sweep_card(outcome: SweepOutcome, *, table: bool = False) -> Reply:
    """The sweep as a card: the outcome (and the largest n solved) in the headline, a line per point — at most
    :data:`POINTS_SHOWN` and a pointer to the rest — and, with ``table``, every point as one table."""
    request = outcome.request
    keys = request.grid.keys
    rows = [
        [
            *(value for _, value in p.row.point),
            "" if p.row.accuracy is None else f"{p.row.accuracy:.1%}",
            "" if p.value is None else format_value(p.value),
            f"{p.row.wall_s:.2f}",
            _result(p),
            "" if p.run_id is None else f"#{p.run_id}",
            p.row.note,
        ]
        for p in outcome.points
    ]
    passed = sum(p.row.ok for p in outcome.points)
    refused = sum(p.run_id is None for p in outcome.points)
    failed = len(rows) - passed - refused
    fixed = " ".join(f"{key}={value}" for key, value in request.grid.fixed)
    over = f" over {', '.join(keys)}" if keys else ""
    headline = f"sweep {request.method}{over}{f' ({fixed})' if fixed else ''}: {passed} of {len(rows)} passed"
    headline += (f", {failed} failed" if failed else "") + (f", {refused} refused" if refused else "")
    solved = outcome.largest_solved
    if solved:
        headline += "; largest n solved: " + ", ".join(
            f"k={k} {'none' if n is None else f'n={n}'}" for k, n in solved.items()
        )
    reused = sum(p.reused for p in outcome.points)
    if reused:
        headline += f" ({reused} stored; --force reruns)"
    shown = outcome.points if len(outcome.points) <= CARD_LINES else outcome.points[:POINTS_SHOWN]
    lines: list[str | None] = [_point_line(p, outcome.metric) for p in shown]
    if len(shown) < len(outcome.points) and not table:
        lines.append(f"{len(outcome.points) - len(shown)} more: add --table for all")
    card = card_of(headline, lines)
    data: dict[str, Any] = {
        "ok": True,
        "method": request.method,
        "axes": {key: list(values) for key, values in request.grid.axes},
        "fixed": dict(request.grid.fixed),
        "rows": [
            {
                **dict(p.row.point),
                "n": p.row.n,
                "k": p.row.k,
                "seed": p.row.seed,
                "ok": p.row.ok,
                "accuracy": p.row.accuracy,
                DMC: p.row.dmc,
                outcome.metric: p.value,
                "wall_s": p.row.wall_s,
                "note": p.row.note,
                "run_id": p.run_id,
                "reused": p.reused,
            }
            for p in outcome.points
        ],
        "metric": outcome.metric,
        "largest_solved": {str(k): n for k, n in solved.items()},
    }
    files = [chart_file(outcome)] if "n" in keys else []
    tables = [Table(headers=[*keys, "accuracy", outcome.metric, "wall s", "result", "run", "note"], rows=rows)]
    return Reply(text=card.text(), tables=tables if table else [], data=data, files=files)


def chart_file(outcome: SweepOutcome) -> OutFile:
    """The sweep's chart (accuracy and the metric vs n, one line per k) as a PNG file (a photo in Telegram)."""
    from tools.sweep_chart import SweepMark, sweep_chart_png  # matplotlib only when a chart is drawn

    marks = [
        SweepMark(n=p.row.n, k=p.row.k, accuracy=p.row.accuracy, value=p.value, ok=p.row.ok) for p in outcome.points
    ]
    png = sweep_chart_png(marks, method=outcome.request.method, metric=outcome.metric)
    return OutFile(name=f"sweep-{outcome.request.method}.png", content=png, mime="image/png")
