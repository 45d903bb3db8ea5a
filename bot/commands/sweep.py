"""``sweep``: one built-in method over a grid of parameters, each point a stored run — one table.

``sutro sweep local_update lr=0.03,0.1,0.3 n=20`` → a row per point (its swept values, accuracy, the challenge's
primary metric, wall time, pass/FAIL, run id) and, when n is swept, the largest n solved per k and a chart
(accuracy and the primary metric vs n, one line per k: :mod:`tools.sweep_chart`; a photo in Telegram). The work is
:func:`bot.core.sweep.run_sweep`; this module parses the invocation and renders the outcome.
"""

from __future__ import annotations

from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.sweep import SweepOutcome, SweepPoint, SweepRequest, run_sweep
from engine.metrics import DMC
from tools.metric_format import format_value

USAGE = usage_of("sweep")


def sweep(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.args:
        raise UsageError("which method?", hint=f"usage: sweep {USAGE}")
    if len(inv.args) > 1:
        raise UsageError(f"unexpected argument '{inv.args[1]}'", hint="parameters are key=value, e.g. n=20,30,50")
    request = SweepRequest.parse(inv.args[0], dict(inv.options))
    outcome = run_sweep(ctx, request, member=inv.caller.name, force="force" in inv.flags, progress=inv.progress)
    return sweep_card(outcome)


def _result(point: SweepPoint) -> str:
    if point.run_id is None:
        return "refused"
    return "pass" if point.row.ok else "FAIL"


def sweep_card(outcome: SweepOutcome) -> Reply:
    """The sweep's table (one row per point, in grid order), a summary line and the largest n solved."""
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
    table = Table(headers=[*keys, "accuracy", outcome.metric, "wall s", "result", "run", "note"], rows=rows)
    passed = sum(p.row.ok for p in outcome.points)
    refused = sum(p.run_id is None for p in outcome.points)
    fixed = " ".join(f"{key}={value}" for key, value in request.grid.fixed)
    over = f" over {', '.join(keys)}" if keys else ""
    lines = [
        f"sweep {request.method}{over}{f' ({fixed})' if fixed else ''}: {len(rows)} points, {passed} passed, "
        f"{len(rows) - passed - refused} failed, {refused} refused"
    ]
    solved = outcome.largest_solved
    if solved:
        lines.append(
            "largest n solved (every run passed): "
            + ", ".join(f"k={k}: {'none' if n is None else f'n={n}'}" for k, n in solved.items())
        )
    reused = sum(p.reused for p in outcome.points)
    if reused:
        lines.append(f"{reused} of the points were run before: their stored results are shown (--force reruns them)")
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
    return Reply(text="\n".join(lines), tables=[table], data=data, files=files)


def chart_file(outcome: SweepOutcome) -> OutFile:
    """The sweep's chart (accuracy and the metric vs n, one line per k) as a PNG file (a photo in Telegram)."""
    from tools.sweep_chart import SweepMark, sweep_chart_png  # matplotlib only when a chart is drawn

    marks = [
        SweepMark(n=p.row.n, k=p.row.k, accuracy=p.row.accuracy, value=p.value, ok=p.row.ok) for p in outcome.points
    ]
    png = sweep_chart_png(marks, method=outcome.request.method, metric=outcome.metric)
    return OutFile(name=f"sweep-{outcome.request.method}.png", content=png, mime="image/png")
