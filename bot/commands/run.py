"""``run``: a sparse-parity method fully traced, an IR challenge's built-in generator, or a local ``solve()``.

``sutro run local_update n=20`` → accuracy, wall time, the metric panel (each value with its name@version and
scope) and, for training methods, the change against ``sgd`` on the same seed. ``sutro run matmul_16x16
generator=tiled`` → the generator's program scored (``run_generator.py``). Both are stored once (the same
method + normalised parameters + metric versions returns the stored result unless ``--force``), logged to the
sprint log, and the card shows the run id and the change against the challenge's record. ``sutro run
solve=PATH --compat spc`` → the group's sparse-parity-challenge evaluation (per-seed and mean accuracy/dmc; a
local check, not stored).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.result_card import card_footer, mover_lines, movers_data
from bot.commands.run_generator import run_generator_reply, unknown_subject
from bot.context import AppContext
from bot.core.run_generator import is_ir_challenge
from bot.core.run_method import MethodOutcome, MethodRequest, run_method
from engine.challenges.sparse_tasks import TASKS
from engine.compat import spc
from engine.methods import METHODS
from engine.version import __version__
from tools.metric_format import format_figure, format_relative

USAGE = usage_of("run")
COMPAT_MODES = ("spc",)
WHOLE_RUN_NOTE = (
    "whole-run ard/dmc are dominated by reads of the training set, written once at the start; "
    "the one-step figures isolate a step's own traffic"
)
SHOWN_ONE_STEP = ("ard@1 (one step)", "dmc@1 (one step)")


def run_method_reply(ctx: AppContext, inv: Invocation) -> Reply:
    request = MethodRequest.parse(inv.args[0], dict(inv.options))  # bad parameters are refused before anything runs
    outcome = run_method(
        ctx,
        request,
        member=inv.caller.name,
        force="force" in inv.flags,
        progress=inv.progress,
        origin=inv.caller.message_link,
    )
    return method_card(outcome)


def method_card(outcome: MethodOutcome) -> Reply:
    """The result card of a method run: accuracy and wall time, the metric panel, the change against the baseline
    method, the per-step figures, and the shared footer (record, comparison, run id)."""
    name, recorded, versus = outcome.request.name, outcome.recorded, outcome.versus
    result = recorded.result
    panel = [[key, format_figure(value), result.metric_scopes.get(key, "")] for key, value in result.metrics.items()]
    tables = [Table(headers=["metric", "value", "scope"], rows=panel, title="metrics")]
    if versus is not None:
        rows = [
            [c.key, format_figure(c.baseline), format_figure(c.value), format_relative(c.value, c.baseline)]
            for c in (*versus.metrics, *versus.one_step)
        ]
        title = f"{name} vs {versus.method}, seed {result.seeds[0]}"
        tables.append(Table(headers=["metric", versus.method, name, "change"], rows=rows, title=title))
    if result.per_step:
        rows = [[k, format_figure(v)] for k, v in result.per_step.items()]
        tables.append(Table(headers=["per step (mean)", "value"], rows=rows))
    acc = f"{result.accuracy:.1%}" if result.accuracy is not None else "n/a"
    lines = [f"{name}: accuracy {acc}, {result.wall_s:.2f} s wall ({'pass' if result.ok else 'FAIL'})"]
    if result.found is not None:
        lines.append(f"secret {result.secret}, found {result.found}")
    if "steps" in result.counts:
        counts = result.counts
        lines.append(f"{counts['steps']} steps, {counts['epochs']} epochs, {counts['events']:,} events")
    if result.note:
        lines.append(result.note)
    if result.method_kind == "training":
        lines.append(WHOLE_RUN_NOTE)
    if versus is not None:
        lines += [
            f"{c.key} vs {versus.method}: {format_figure(c.baseline)} -> {format_figure(c.value)} "
            f"({format_relative(c.value, c.baseline)})"
            for c in versus.one_step
            if c.key in SHOWN_ONE_STEP
        ]
        if versus.buffers is not None:
            lines += mover_lines(versus.buffers, versus.method)
    footer_lines, footer_tables = card_footer(recorded)
    lines += footer_lines
    tables += footer_tables
    vs_baseline: dict[str, Any] | None = None
    if versus is not None:
        vs_baseline = {c.key: {versus.method: c.baseline, "change": c.relative} for c in versus.metrics}
    data = {
        "method": name,
        "params": result.params,
        "seed": result.seeds[0],
        "accuracy": result.accuracy,
        "ok": result.ok,
        "failure": result.failure,
        "failure_kind": None if result.failure_kind is None else result.failure_kind.value,
        "wall_s": result.wall_s,
        "metrics": result.metrics,
        "metric_scopes": result.metric_scopes,
        "counts": result.counts,
        "per_step": result.per_step or None,
        "vs_sgd": vs_baseline,
        "sgd_per_step": (versus.result.per_step or None) if versus is not None else None,
        "movers": movers_data(versus.buffers) if versus is not None and versus.buffers is not None else None,
        "engine_version": result.engine_version,
        "secret": result.secret,
        "found": result.found,
        "run_id": recorded.stored.id,
        "reused": recorded.stored.reused,
    }
    return Reply(text="\n".join(lines), tables=tables, data=data, ok=result.ok)


def _solve_source(inv: Invocation, path: str) -> tuple[str, str]:
    if inv.attachments:
        return inv.attachments[0].content.decode("utf-8", "replace"), inv.attachments[0].name
    if inv.caller.user_id is not None:
        raise UsageError("attach the solve() file", hint="send the .py file with the command")
    p = Path(path).expanduser()
    if not p.is_file():
        raise UsageError(f"no such file: {path}", hint="solve=PATH must name a Python file defining solve()")
    return p.read_text(encoding="utf-8", errors="replace"), p.name


def run_compat_reply(inv: Invocation) -> Reply:
    mode = inv.options.get("compat", "")
    if mode not in COMPAT_MODES:
        raise UsageError(f"unknown compatibility mode '{mode}'", hint="use --compat spc")
    extra = sorted(set(inv.options) - {"solve", "compat"})
    if extra or inv.args:
        raise UsageError("solve= takes no other parameters", hint=f"usage: run {USAGE}")
    source, name = _solve_source(inv, inv.options["solve"])
    solve = spc.load_solve(source, name)
    inv.progress("evaluating on seeds 42, 123, 456 (sparse-parity-challenge protocol)", None)
    results, summary = spc.evaluate(solve)
    rows = [
        [
            str(r.seed),
            f"{r.accuracy:.1%}",
            "" if r.dmc is None else f"{r.dmc:,.1f}",
            f"{r.wall_s:.4f}",
            str(r.found == r.secret),
            r.error or "",
        ]
        for r in results
    ]
    dmc = "n/a" if summary["dmc"] is None else f"{summary['dmc']:,.1f}"
    text = (
        f"{'PASSED' if summary['passed'] else 'FAILED'} (sparse-parity-challenge protocol): mean accuracy "
        f"{summary['accuracy']:.1%}, mean dmc {dmc}"
    )
    data = {
        "compat": "spc",
        "file": name,
        **summary,
        "metrics": {"dmc@1": summary["dmc"]},
        "per_seed": [r.__dict__ for r in results],
        "engine_version": __version__,
    }
    table = Table(headers=["seed", "accuracy", "dmc", "time s", "correct", "error"], rows=rows)
    return Reply(text=text, tables=[table], data=data, ok=bool(summary["passed"]))


def run(ctx: AppContext, inv: Invocation) -> Reply:
    if "solve" in inv.options:
        return run_compat_reply(inv)
    if "compat" in inv.options:
        raise UsageError("--compat needs solve=PATH", hint=f"usage: run {USAGE}")
    if not inv.args:
        raise UsageError("which method?", hint="methods: " + ", ".join(ctx.run_policy().methods or ("none enabled",)))
    if len(inv.args) > 1:
        raise UsageError(f"unexpected argument '{inv.args[1]}'", hint="parameters are key=value, e.g. n=20")
    name = inv.args[0]
    if is_ir_challenge(name):
        return run_generator_reply(ctx, inv)
    if name in TASKS and name not in METHODS:  # run TASK: the task's default method (task=TASK)
        inv = replace(inv, args=[TASKS.get(name).default_method], options={**inv.options, "task": name})
        name = inv.args[0]
    if name not in METHODS:
        raise unknown_subject(name, METHODS.names())
    return run_method_reply(ctx, inv)
