"""``run``: a sparse-parity method fully traced, an IR challenge's built-in generator, or a local ``solve()``.

``sutro run local_update n=20`` → accuracy, wall time, the metric panel (each value with its name@version and
scope) and, for training methods, the change against ``sgd`` on the same seed. ``sutro run matmul_16x16
generator=tiled`` → the generator's program scored (``run_generator.py``); any size by name (``matmul_32x32``, or
``matmul n=32``). Both are stored once (the same
method + normalised parameters + metric versions returns the stored result unless ``--force``), logged to the
sprint log, and the card shows the run id and the change against the challenge's record. ``sutro run
solve=PATH --compat spc`` → the group's sparse-parity-challenge evaluation (per-seed and mean accuracy/dmc; a
local check, not stored).
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, Table, UsageError
from bot.commands.card_voice import (
    BYTEDMD,
    Card,
    card_of,
    instance_words,
    judged_part,
    metric_name,
    movers_lines,
    run_line,
    seeds_words,
    standing_line,
    value_words,
    verdict_phrase,
)
from bot.commands.result_card import details, movers_data, verdict_data
from bot.commands.run_again import FROM, again_of
from bot.commands.run_generator import generator_name, run_generator_reply, unknown_subject
from bot.context import AppContext
from bot.core.run_generator import GeneratorRequest, is_ir_challenge
from bot.core.run_method import MethodOutcome, MethodRequest, run_method
from bot.core.verdict import DEFAULT_RULE, spread_of
from engine.challenges import TASKS
from engine.compat import evaluate as spc_evaluate
from engine.compat import load_solve as spc_load_solve
from engine.methods import METHODS
from engine.result import RunResult
from engine.version import __version__
from tools.metric_format import format_relative_change, format_value
from tools.published.records import current_spc_board
from tools.published.spc import SpcBoard, SpcStanding, standing_on

USAGE = usage_of("run")
COMPAT_MODES = ("spc",)
SHOWN_ONE_STEP = ("ard@1 (one step)", "dmc@1 (one step)")
SIZED_FAMILY = "matmul"
"""``run matmul n=N`` names the N×N challenge (any N the family takes, docs/challenges.md#matmul-ir-track)."""


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
    card = method_card(outcome)
    if "histogram" in inv.flags:
        card.files.extend(histogram_files(outcome))
    return card


def histogram_files(outcome: MethodOutcome) -> list[OutFile]:
    """The run's reuse-distance chart of each scope it has (none for a run traced without attribution)."""
    from bot.commands.show import histogram_file

    attribution = outcome.recorded.result.buffer_attribution
    if attribution is None:
        return []
    return [
        histogram_file(s.histogram, run_id=outcome.recorded.stored.id, scope=s.scope, subject=outcome.request.name)
        for s in attribution.scopes
        if s.histogram.names
    ]


def method_card(outcome: MethodOutcome) -> Reply:
    """The result card of a method run in the group's voice (:mod:`bot.commands.card_voice`): the headline says what
    ran against what and the stored verdict with its reason — ByteDMD first on sparse parity, then the board's
    judged metric — and at most six short lines follow: accuracy and time, the board standing, where the energy
    moved against the baseline, the run id. Everything else (every metric with its spread and per-seed values, the
    per-step diagnostics, the comparison table) is in ``show ID`` and ``--json``."""
    name, recorded, versus = outcome.request.name, outcome.recorded, outcome.versus
    result = recorded.result
    judgement = recorded.comparison.judgement
    subject = ", ".join(p for p in (instance_words(result.params), seeds_words(result.seeds)) if p)
    against = f"{name} vs {versus.method}" if versus is not None else name
    if not result.ok:
        said = f"FAILED — {result.failure or 'no reason recorded'}"
    else:
        parts = [bytedmd_part(outcome), judged_part(judgement)]
        said = "; ".join(p for p in parts if p) or value_words(judgement) or "passed"
    acc = f"{result.accuracy:.1%}" if result.accuracy is not None else "n/a"
    diff = recorded.movers if recorded.movers is not None else versus.buffers if versus is not None else None
    card = card_of(
        f"{against}, {subject}: {said}",
        [
            f"accuracy {acc}, {result.wall_s:.1f} s",
            standing_line(recorded) if result.ok else None,
            *(movers_lines(diff, versus.method) if versus is not None else []),
            run_line(recorded),
        ],
    )
    tables: list[Table] = []
    vs_baseline: dict[str, Any] | None = None
    if versus is not None:
        vs_baseline = {
            c.key: {
                versus.method: c.baseline,
                "change": c.relative,
                "verdict": None if c.verdict is None else c.verdict.outcome.value,
            }
            for c in versus.metrics
        }
    data = {
        "method": name,
        "params": result.params,
        "seed": result.seeds[0],
        "seeds": result.seeds,
        "seed_metrics": result.seed_metrics or None,
        "baseline": None if versus is None else {"method": versus.method, "run_id": versus.run_id},
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
        "verdict": verdict_data(recorded),
    }
    return Reply(
        text=card.text(),
        tables=tables,
        data=data,
        ok=result.ok,
        failure_kind=result.failure_kind,
        followups=details(recorded),
    )


def bytedmd_part(outcome: MethodOutcome) -> str | None:
    """ByteDMD against the baseline on the same seeds (``ByteDMD −1.2 % (WIN)``), from the per-metric verdict the
    core computed with the run; None when ByteDMD is the board's judged metric (the judged part says it) or the
    run has no ByteDMD figure."""
    versus, judgement = outcome.versus, outcome.recorded.comparison.judgement
    if versus is None or (judgement is not None and metric_name(judgement.metric) == metric_name(BYTEDMD)):
        return None
    for change in versus.metrics:
        if change.key.partition("@")[0] == BYTEDMD:
            if change.verdict is None:
                return f"ByteDMD {format_relative_change(change.value, change.baseline)}"
            rule = judgement.rule if judgement is not None else DEFAULT_RULE
            return f"ByteDMD {verdict_phrase(change.verdict, rule)}"
    return None


def seeds_label(seeds: list[int]) -> str:
    """``seed 7`` or ``3 seeds (42, 123, 456)``."""
    return f"seed {seeds[0]}" if len(seeds) == 1 else f"{len(seeds)} seeds ({', '.join(map(str, seeds))})"


def primary_key(result: RunResult) -> str:
    """The metric the card's verdict line is about: the challenge's registered primary metric (dmc@1)."""
    from engine.challenges import CHALLENGES

    return CHALLENGES.get(result.challenge).primary_metric if result.challenge in CHALLENGES else ""


def spread_line(result: RunResult) -> str:
    """The primary metric's mean ± sample standard deviation over the seeds, and the per-seed values."""
    key = primary_key(result) if primary_key(result) in result.seed_metrics else next(iter(result.seed_metrics))
    values = result.seed_metrics[key]
    per_seed = ", ".join(format_value(v) for v in values)
    return f"{key} mean {format_value(statistics.fmean(values))} ± {format_value(spread_of(values))} ({per_seed})"


def _solve_source(inv: Invocation, path: str) -> tuple[str, str]:
    if inv.attachments:
        return inv.attachments[0].content.decode("utf-8", "replace"), inv.attachments[0].name
    if inv.caller.user_id is not None:
        raise UsageError("attach the solve() file", hint="send the .py file with the command")
    p = Path(path).expanduser()
    if not p.is_file():
        raise UsageError(f"no such file: {path}", hint="solve=PATH must name a Python file defining solve()")
    return p.read_text(encoding="utf-8", errors="replace"), p.name


def run_compat_reply(inv: Invocation, board: SpcBoard | None = None) -> Reply:
    """A local solve() judged by the sparse-parity-challenge protocol; with the group's ``board``, where its mean DMC
    would rank there (tools/published/spc.py)."""
    mode = inv.options.get("compat", "")
    if mode not in COMPAT_MODES:
        raise UsageError(f"unknown compatibility mode '{mode}'", hint="use --compat spc")
    extra = sorted(set(inv.options) - {"solve", "compat"})
    if extra or inv.args:
        raise UsageError("solve= takes no other parameters", hint=f"usage: run {USAGE}")
    source, name = _solve_source(inv, inv.options["solve"])
    solve = spc_load_solve(source, name)
    inv.progress("evaluating on seeds 42, 123, 456 (sparse-parity-challenge protocol)", None)
    results, summary = spc_evaluate(solve)
    standing = None
    if board is not None and summary["dmc"] is not None:
        standing = standing_on(board, float(summary["dmc"]))
    data = {
        "compat": "spc",
        "file": name,
        "spc_rank": None if standing is None else {"rank": standing.rank, "of": standing.of},
        **summary,
        "metrics": {"dmc@1": summary["dmc"]},
        "per_seed": [r.__dict__ for r in results],
        "engine_version": __version__,
    }
    card = compat_card(name, results, summary, standing, None if board is None else board.commit)
    return Reply(text=card.text(), data=data, ok=bool(summary["passed"]))


def compat_card(
    name: str, results: list[Any], summary: dict[str, Any], standing: SpcStanding | None, commit: str | None
) -> Card:
    """The card of a local solve() judged by the sparse-parity-challenge protocol: the verdict, the mean DMC and
    where it would rank in the headline; accuracy, the entry ahead of it, the board's commit, the first error and
    the protocol's caveat under it. Per-seed figures are in ``--json`` (``per_seed``)."""
    verdict = "PASSED" if summary["passed"] else "FAILED"
    dmc = "n/a" if summary["dmc"] is None else format_value(float(summary["dmc"]))
    rank = "" if standing is None else f" — would rank {standing.rank} of {standing.of}"
    headline = f"{name} by the sparse-parity-challenge protocol: {verdict}, mean DMC {dmc}{rank}"
    seeds = ", ".join(str(r.seed) for r in results)
    lines: list[str | None] = [f"accuracy {summary['accuracy'] * 100:.1f} %, seeds {seeds}"]
    if standing is not None:
        nearest = standing.ahead or standing.best
        at = f" (board at {commit[:7]})" if commit else ""
        if nearest is not None:
            side = "behind" if standing.ahead is not None else "ahead of"
            lines += [f"{side} {nearest.method} by {nearest.author}", f"its DMC {format_value(nearest.dmc)}{at}"]
    errors = [r for r in results if r.error]
    if errors:
        lines.append(f"seed {errors[0].seed}: {errors[0].error}")
    lines += ["traced in-process, not sandboxed", "submit judges it by this tool's rules"]
    return card_of(headline, lines)


def _sized(inv: Invocation) -> Invocation:
    """``run matmul n=32`` is ``run matmul_32x32``."""
    size = inv.options.get("n", "")
    if not size.isdigit():
        raise UsageError("which size of matmul?", hint="e.g. run matmul n=32 (or run matmul_32x32)")
    options = {k: v for k, v in inv.options.items() if k != "n"}
    return replace(inv, args=[f"{SIZED_FAMILY}_{int(size)}x{int(size)}"], options=options)


def route(ctx: AppContext, inv: Invocation) -> tuple[str, Invocation]:
    """What ``inv`` asks to run — ``compat`` (a local solve()), ``generator`` (an IR challenge's built-in
    generator) or ``method`` — and the invocation to run it with; usage errors found on the way are raised."""
    if FROM in inv.options:
        inv = again_of(ctx, inv)
    if "solve" in inv.options:
        return "compat", inv
    if "compat" in inv.options:
        raise UsageError("--compat needs solve=PATH", hint=f"usage: run {USAGE}")
    if not inv.args:
        raise UsageError("which method?", hint="methods: " + ", ".join(ctx.run_policy().methods or ("none enabled",)))
    if len(inv.args) > 1:
        raise UsageError(f"unexpected argument '{inv.args[1]}'", hint="parameters are key=value, e.g. n=20")
    if inv.args[0] == SIZED_FAMILY:
        inv = _sized(inv)
    name = inv.args[0]
    if is_ir_challenge(name):
        return "generator", inv
    if name in TASKS and name not in METHODS:  # run TASK: the task's default method (task=TASK)
        inv = replace(inv, args=[TASKS.get(name).default_method], options={**inv.options, "task": name})
        name = inv.args[0]
    if name not in METHODS:
        raise unknown_subject(name, METHODS.names())
    return "method", inv


def check_run(ctx: AppContext, inv: Invocation) -> None:
    """The errors ``run`` would find before running anything (unknown name, bad or unknown key): in the chat they
    are answered at once, without a queued job (``Command.precheck``)."""
    kind, inv = route(ctx, inv)
    if kind == "generator":
        GeneratorRequest.parse(inv.args[0], generator_name(inv))
    elif kind == "method":
        MethodRequest.parse(inv.args[0], dict(inv.options))


def run(ctx: AppContext, inv: Invocation) -> Reply:
    kind, inv = route(ctx, inv)
    if kind == "compat":
        with ctx.sessions()() as session:
            board = current_spc_board(session)
        return run_compat_reply(inv, board)
    if kind == "generator":
        return run_generator_reply(ctx, inv)
    return run_method_reply(ctx, inv)
