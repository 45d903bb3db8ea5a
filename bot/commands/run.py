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

from pathlib import Path
from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, Progress, Reply, Table, UsageError
from bot.commands.result_card import comparison_table, record_line, stored_rows
from bot.commands.run_generator import is_ir_challenge, run_generator_reply, unknown_subject
from bot.context import AppContext
from bot.recording import lookup, provenance_line, record_once, result_of
from engine.compat import spc
from engine.methods import METHODS, run_method
from engine.methods.params import parse_params
from engine.metrics.bytedmd import BYTEDMD
from engine.metrics.clock import ARD, ARD_PER_READ, DMC
from engine.result import RunResult
from engine.version import __version__
from tools.run_request import NormalisedRequest

USAGE = usage_of("run")
METHOD_METRICS = (ARD, ARD_PER_READ, DMC, BYTEDMD)
"""The metric versions a traced method run computes (part of its stored request)."""
COMPAT_MODES = ("spc",)
ONE_STEP_KEYS = ("ard@1 (one step)", "ard_per_read@1 (one step)", "dmc@1 (one step)")
WHOLE_RUN_NOTE = (
    "whole-run ard/dmc are dominated by reads of the training set, written once at the start; "
    "the one-step figures isolate a step's own traffic"
)


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1e5 else f"{value:,.2f}"


def _metric_rows(result: RunResult) -> list[list[str]]:
    return [[key, _fmt(value), result.metric_scopes.get(key, "")] for key, value in result.metrics.items()]


def _change(new: float, old: float) -> str:
    return f"{(new - old) / old:+.2%}" if old else "n/a"


def method_request(name: str, params: dict[str, Any]) -> NormalisedRequest:
    """The stored request of a method run: its validated, defaulted parameters and the metric versions."""
    values = parse_params(params, METHODS.get(name).defaults)
    return NormalisedRequest(
        challenge="sparse_parity", kind="method", subject=name, params=values, metric_versions=METHOD_METRICS
    )


def _sgd_baseline(
    ctx: AppContext, params: dict[str, Any], member: str, progress: Progress, *, stored: bool
) -> RunResult:
    """sgd with the same parameters: stored once like any run (it is the baseline the method's sprint-log entry
    and card compare with); with ``stored=False`` (the admins disabled sgd) its stored result or a run for the
    comparison only."""
    request = method_request("sgd", params)
    progress("running sgd with the same parameters (the baseline)", None)
    if stored:
        return record_once(ctx, request, lambda: run_method("sgd", params), member=member).result
    previous = lookup(ctx, request)
    return result_of(previous.run) if previous is not None else run_method("sgd", params)


def run_method_reply(ctx: AppContext, inv: Invocation) -> Reply:
    name, params = inv.args[0], dict(inv.options)
    request = method_request(name, params)  # bad parameters are refused before anything runs
    policy = ctx.run_policy()
    policy.check_challenge(request.challenge)
    policy.check_method(name)
    base: RunResult | None = None
    if METHODS.get(name).kind == "training" and name != "sgd":
        base = _sgd_baseline(ctx, params, inv.caller.name, inv.progress, stored="sgd" in policy.methods)
    recorded = record_once(
        ctx,
        request,
        lambda: run_method(name, params, progress=inv.progress),
        member=inv.caller.name,
        force="force" in inv.flags,
    )
    result = recorded.result
    tables = [Table(headers=["metric", "value", "scope"], rows=_metric_rows(result), title="metrics")]
    vs_sgd: dict[str, Any] | None = None
    if base is not None:
        vs_sgd = {
            key: {
                "sgd": base.metrics[key],
                "change": (result.metrics[key] - base.metrics[key]) / base.metrics[key],
            }
            for key in result.metrics
            if key in base.metrics and base.metrics[key]
        }
        rows = [
            [
                key,
                _fmt(base.metrics[key]),
                _fmt(result.metrics[key]),
                _change(result.metrics[key], base.metrics[key]),
            ]
            for key in vs_sgd
        ]
        base_steps, mine = base.extra.get("per_step") or {}, result.extra.get("per_step") or {}
        rows += [
            [key, _fmt(base_steps[key]), _fmt(mine[key]), _change(mine[key], base_steps[key])]
            for key in ONE_STEP_KEYS
            if key in mine and base_steps.get(key)
        ]
        tables.append(
            Table(
                headers=["metric", "sgd", name, "change"],
                rows=rows,
                title=f"{name} vs sgd, seed {result.seeds[0]}",
            )
        )
    per_step = result.extra.get("per_step")
    if per_step:
        tables.append(Table(headers=["per step (mean)", "value"], rows=[[k, _fmt(v)] for k, v in per_step.items()]))
    acc = f"{result.accuracy:.1%}" if result.accuracy is not None else "n/a"
    lines = [f"{name}: accuracy {acc}, {result.wall_s:.2f} s wall ({'pass' if result.ok else 'FAIL'})"]
    if result.extra.get("found") is not None:
        lines.append(f"secret {result.extra.get('secret')}, found {result.extra.get('found')}")
    if "steps" in result.counts:
        counts = result.counts
        lines.append(f"{counts['steps']} steps, {counts['epochs']} epochs, {counts['events']:,} events")
    if result.extra.get("note"):
        lines.append(str(result.extra["note"]))
    if result.extra.get("method_kind") == "training":
        lines.append(WHOLE_RUN_NOTE)
    base_steps = (base.extra.get("per_step") or {}) if base is not None else {}
    for key in ("ard@1 (one step)", "dmc@1 (one step)"):
        if per_step and key in per_step and base_steps.get(key):
            lines.append(
                f"{key} vs sgd: {_fmt(base_steps[key])} -> {_fmt(per_step[key])} "
                f"({_change(per_step[key], base_steps[key])})"
            )
    if (line := record_line(ctx, recorded)) is not None:
        lines.append(line)
    stored = stored_rows(ctx, recorded) if result.ok else []
    if any(r[2] or r[3] for r in stored):
        tables.append(comparison_table(stored))
    lines.append(provenance_line(recorded))
    data = {
        "method": name,
        "params": result.params,
        "seed": result.seeds[0],
        "accuracy": result.accuracy,
        "ok": result.ok,
        "wall_s": result.wall_s,
        "metrics": result.metrics,
        "metric_scopes": result.metric_scopes,
        "counts": result.counts,
        "per_step": per_step,
        "vs_sgd": vs_sgd,
        "sgd_per_step": (base.extra.get("per_step") if base is not None else None),
        "engine_version": result.engine_version,
        "secret": result.extra.get("secret"),
        "found": result.extra.get("found"),
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
    if name not in METHODS:
        raise unknown_subject(name, METHODS.names())
    return run_method_reply(ctx, inv)
