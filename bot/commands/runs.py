"""``runs [mine] [page=N]``: the stored runs, newest first (yours only with ``mine``), 20 a page.

Phone width: a row is the run's id, member, method and its challenge's primary metric (``metric.primary.*``), or
"failed", with a long member or method name cut (…) so that a row fits 40 characters; the table's title names the
value column's metric@version and instance (per run when a page mixes them); the whole names, the
challenge, the date, the status and every metric are in ``--json`` and ``show ID``. A page past the last shows the
last, as the boards do (bot/commands/boards.py)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.boards import PAGE_ROWS, next_page_hint, page_number, paging_of
from bot.context import AppContext
from bot.core.store import Run
from bot.core.stored_runs import runs_page
from tools.board import instance_label, instance_of
from tools.metric_format import format_value

USAGE = "usage: runs [mine] [page=N]"
HEADERS = ["run", "member", "method", "value"]
MEMBER_CHARS = 8
METHOD_CHARS = 12
"""Widest member and method cells: with a 5-character run id (#9999), a 9-character value and the table's 2-space
gaps, a row is 40 characters."""


def list_runs(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.args and inv.args != ["mine"]:
        raise UsageError(f"unexpected '{' '.join(inv.args)}'", hint=USAGE)
    if unknown := sorted(set(inv.options) - {"page"}):
        raise UsageError(f"unknown option {unknown[0]}=", hint=USAGE)
    wanted = page_number(inv.options)
    member = inv.caller.name if inv.args == ["mine"] else None
    primary = ctx.tool_config().primary_metrics()
    page = runs_page(ctx.sessions(), wanted=wanted, rows=PAGE_ROWS, member=member)
    number, pages, total, runs = page.number, page.pages, page.total, page.runs
    paging = paging_of("runs", inv.args, {}, number, pages)
    first = (number - 1) * PAGE_ROWS + 1
    head = (f"runs {first}–{first + len(runs) - 1} of {total}, newest first" if runs else "no runs stored yet") + (
        f" (by {member})" if member else ""
    )
    return Reply(
        text="\n".join(line for line in [head, next_page_hint(paging)] if line),
        tables=[value_table(runs, primary)] if runs else [],
        paging=paging,
        data={
            "ok": True,
            "page": number,
            "pages": pages,
            "total": total,
            "runs": [
                {
                    "id": r.id,
                    "challenge": r.challenge,
                    "subject": r.subject,
                    "member": r.member.name,
                    "ok": r.ok,
                    "status": r.status,
                    "created_at": r.created_at.isoformat(),
                    "metrics": r.metrics,
                }
                for r in runs
            ],
        },
    )


def value_legend(runs: list[Run], primary: Mapping[str, str]) -> str:
    """What the value column holds: each metric@version with the instance it was measured on, and which runs when
    a page mixes them — ``value: dally@1 on matmul_1x1`` or ``value: dmc@1 on sparse_parity n=20 k=3 (#2, #5);
    dally@1 on matmul_16x16 (#7)``."""
    groups: dict[str, list[int]] = {}
    for run in runs:
        metric = primary.get(run.challenge)
        if run.ok and metric is not None and metric in run.metrics and run.id is not None:
            where = " ".join(p for p in (run.challenge, instance_label(instance_of(run.challenge, run.params))) if p)
            groups.setdefault(f"{metric} on {where}", []).append(run.id)
    if not groups:
        return ""
    if len(groups) == 1:
        return f"value: {next(iter(groups))}"
    return "value: " + "; ".join(f"{label} ({', '.join(f'#{i}' for i in ids)})" for label, ids in groups.items())


def value_table(runs: list[Run], primary: Mapping[str, str]) -> Table:
    """The page's table. The value column names what it holds: as its header when every value is one metric on a
    challenge whose name is its instance (``dally@1``), else in the table's title (:func:`value_legend`)."""
    rows = [_row(r, primary.get(r.challenge)) for r in runs]
    metrics = {primary.get(r.challenge) for r in runs if r.ok and primary.get(r.challenge) in r.metrics}
    named = all(not instance_of(r.challenge, r.params) for r in runs)
    if len(metrics) == 1 and named:
        return Table(headers=[*HEADERS[:-1], str(next(iter(metrics)))], rows=rows)
    return Table(headers=HEADERS, rows=rows, title=value_legend(runs, primary))


def _row(run: Run, metric: str | None) -> list[str]:
    """``#12  ann  sgd  13940``: the value of the challenge's primary metric ("failed" for a failed run)."""
    if not run.ok:
        value = "failed"
    elif metric is not None and metric in run.metrics:
        value = format_value(run.metrics[metric])
    else:
        value = "—"
    return [f"#{run.id}", _cut(run.member.name, MEMBER_CHARS), _cut(run.subject, METHOD_CHARS), value]


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
