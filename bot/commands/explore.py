"""``explore``: search one board for a cheaper program, every candidate judged and journalled (docs/explore.md).

``sutro explore matmul_16x16 from=published tiled_16x16 budget=60s`` → one progress line edited in place while it
runs, then the summary (start → best, what was tried and kept, against the board's record and the naive baseline,
the stored run the best became), the steps as a table and the progression chart. ``explore show ID`` reads a loop
back from the journal, ``explore list`` lists the newest loops, ``explore resume ID`` starts a new loop from an
earlier loop's best. The work is :mod:`bot.core.explore`; this module parses the invocation and renders.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.explore import ExploreOutcome, ExploreRequest, Proposer, check_board, run_loop
from bot.core.explore_budget import budget_caps, parse_budget
from bot.core.explore_entry import chart_png, counts_line, headline, log_loop, record_line, steps_table, summary_lines
from bot.core.explore_journal import cancel_loops_since, loop_list, resume_point
from bot.core.explore_methods import MethodLoop, is_method, method_start
from bot.core.explore_start import StartPoint, baseline_start, published_start, run_start
from bot.core.explore_view import LoopView, read_loop
from engine.errors import BadParameter
from tools.program_text import program_text

USAGE = usage_of("explore")
SUBCOMMANDS = ("show", "list", "resume")


def explore(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.args:
        raise UsageError("which board?", hint=f"usage: explore {USAGE}")
    first = inv.args[0]
    if first == "show":
        return _show(ctx, _loop_id(inv.args[1:]))
    if first == "list":
        return _list(ctx, mine="mine" in inv.args[1:])
    if first == "resume":
        loop_id = _loop_id(inv.args[1:])
        board, params, start = resume_point(ctx, loop_id)
        return _run(ctx, inv, board, params, start)
    if is_method(first):
        if inv.args[1:] or "from" in inv.options:
            raise UsageError("a method's loop starts from its defaults", hint="e.g. explore local_update n=20 k=3")
        return _run(ctx, inv, first, {}, method_start(first, inv.options))
    board = check_board(ctx, first)
    params = _params(inv)
    start = _start(ctx, inv, board)
    return _run(ctx, inv, board, params, start)


def _run(ctx: AppContext, inv: Invocation, board: str, params: dict[str, int], start: StartPoint) -> Reply:
    method = start.text.split(maxsplit=1)[0] if start.text else ""
    kind = None
    if is_method(method):  # a method's parameters (a fresh loop, or resuming one)
        ctx.run_policy().check_method(method)
        kind = MethodLoop(ctx, method, member=inv.caller.name)
        board = kind.name
    else:
        board = check_board(ctx, board)
    budget = parse_budget(inv.options.get("budget"), budget_caps(ctx))
    request = ExploreRequest(board=board, params=params, start=start, budget=budget, goal=inv.options.get("goal", ""))
    outcome = run_loop(
        ctx,
        request,
        member=inv.caller.name,
        progress=inv.progress,
        origin=inv.caller.message_link,
        proposer=_claude(ctx, budget.spend_usd, method if kind is not None else None),
        board=kind,
    )
    log_loop(ctx, outcome)
    return outcome_reply(outcome)


def _claude(ctx: AppContext, spend_usd: float, method: str | None) -> Proposer | None:
    """Claude as a proposer when a key is configured and the loop may spend something; else None (built-ins only).
    On an IR board it writes generate() code; on a method's board (``method``) it proposes parameter settings."""
    from bot.commands.ideas.config import assistant_config

    config = assistant_config(ctx)
    if config.api_key is None or spend_usd <= 0:
        return None
    from bot.core.idea_budget import MonthlyBudget

    budget = MonthlyBudget(ctx.sessions(), config.monthly_budget_tokens, config.monthly_budget_usd, config.usd_per_mtok)
    if method is not None:
        from bot.core.explore_claude_params import ClaudeParamsProposer  # anthropic only when a key is set

        return ClaudeParamsProposer(config, budget)
    from bot.core.explore_claude import ClaudeProposer

    return ClaudeProposer(config, budget, dev_override=ctx.settings.dev_allow_unsandboxed)


def _loop_id(rest: list[str]) -> int:
    if len(rest) != 1 or not rest[0].lstrip("#").isdigit():
        raise UsageError("which loop?", hint="give its number, e.g. explore show 3 (explore list shows them)")
    return int(rest[0].lstrip("#"))


def _params(inv: Invocation) -> dict[str, int]:
    band = inv.options.get("band")
    if band is None:
        return {}
    if not band.isdigit():
        raise BadParameter(f"band must be a whole percent, not '{band}'", hint="e.g. band=40")
    return {"band": int(band)}


def _start(ctx: AppContext, inv: Invocation, board: str) -> StartPoint:
    """The start the member named: an attached or named file, ``published NAME``, a run id, or the baseline."""
    rest = inv.args[1:]
    source = inv.options.get("from")
    if inv.attachments:
        attached = inv.attachments[0]
        text = program_text(attached.content, hint="give an IR program as plain text")
        return StartPoint(label=f"file {attached.name}", text=text)
    if source is None:
        if rest:
            raise UsageError(f"unexpected argument '{rest[0]}'", hint=f"usage: explore {USAGE}")
        return baseline_start(board)
    if source == "published" or source.startswith("published:"):
        name = source.partition(":")[2] or (rest[0] if rest else "")
        if not name:
            raise UsageError("which published program?", hint="e.g. from=published tiled_16x16")
        return published_start(ctx, board, name)
    if source.lstrip("#").isdigit():
        return run_start(ctx, board, int(source.lstrip("#")))
    raise UsageError(
        f"cannot start from '{source}'",
        hint="from=published NAME, from=RUN (a run id), or a file (sutro: from=PATH; chat: attach it)",
    )


def _steps_table(loop: LoopView, *, only_kept: bool = False) -> Table:
    table = steps_table(loop, only_kept=only_kept)
    title = f"kept steps ({loop.kept} of {loop.steps_done}; all: explore show {loop.loop_id})" if only_kept else ""
    return Table(headers=list(table.headers), rows=[list(row) for row in table.rows], title=title)


def loop_data(loop: LoopView) -> dict[str, Any]:
    """The loop as JSON (docs/json.md, kind ``explore``)."""
    return {
        "ok": True,
        "loop_id": loop.loop_id,
        "member": loop.member,
        "board": loop.board,
        "params": dict(loop.params),
        "start": loop.start_label,
        "start_cost": loop.start_cost,
        "best_cost": loop.best_cost,
        "gain_pct": round(loop.gain_pct, 3),
        "record_cost": loop.record_cost,
        "status": loop.status,
        "stop_reason": loop.stop_reason,
        "steps": [
            {
                "step": s.number,
                "operator": s.operator,
                "hypothesis": s.hypothesis,
                "outcome": s.outcome,
                "cost": s.cost,
                "delta_pct": s.delta_pct,
                "reason": s.reason,
            }
            for s in loop.steps
        ],
        "budget": dict(loop.budget),
        "cpu_s": round(loop.cpu_s, 3),
        "run_id": loop.run_id,
        "baseline_cost": None,
    }


def outcome_reply(outcome: ExploreOutcome) -> Reply:
    loop = outcome.loop
    data = loop_data(loop)
    data["baseline_cost"] = outcome.baseline_cost
    chart = OutFile(name=f"explore-{loop.loop_id}.png", content=chart_png(loop), mime="image/png")
    tables = [_steps_table(loop, only_kept=True)] if loop.kept else []
    return Reply(text="\n".join(summary_lines(outcome)), tables=tables, data=data, files=[chart])


def _show(ctx: AppContext, loop_id: int) -> Reply:
    loop = read_loop(ctx, loop_id)
    lines = [headline(loop), counts_line(loop)]
    record = record_line(loop)
    if record:
        lines.append(record)
    if loop.run_id is not None:
        lines.append(f"best stored as run #{loop.run_id} (/show {loop.run_id})")
    return Reply(text="\n".join(lines), tables=[_steps_table(loop)], data=loop_data(loop))


def _list(ctx: AppContext, *, mine: bool) -> Reply:
    loops = loop_list(ctx)
    rows = [
        [
            f"#{v.loop_id}",
            v.member,
            v.board_label,
            v.start_label,
            f"{v.start_cost:,}",
            f"{v.best_cost:,}",
            f"{v.gain_pct:+.1f} %",
            str(v.steps_done),
            v.status,
        ]
        for v in loops
    ]
    table = Table(
        headers=["loop", "member", "board", "start", "start cost", "best", "gain", "steps", "status"], rows=rows
    )
    text = f"{len(rows)} explore loops, newest first" if rows else "no explore loops yet — start one: explore BOARD"
    return Reply(text=text, tables=[table], data={"ok": True, "loops": [loop_data(v) for v in loops]})


def explore_stopped(ctx: AppContext, inv: Invocation, submitted_at: datetime) -> str:
    """A stopped /explore job (cancelled, over its time, worker gone): close its loop, keep and report its best."""
    closed = cancel_loops_since(ctx, member=inv.caller.name, since=submitted_at)
    return "\n".join(
        f"explore #{v.loop_id} stopped after {v.steps_done} steps; best so far {v.best_cost:,} "
        f"({v.gain_pct:+.1f} % from the start), kept in the journal: explore show {v.loop_id}"
        for v in closed
    )
