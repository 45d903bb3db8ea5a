"""``run CHALLENGE [generator=NAME]``: score an IR challenge's built-in program (dally@1), stored once — the card.

The work is :func:`bot.core.run_generator.run_generator`; this module parses the options and renders the result.
"""

from __future__ import annotations

import difflib

from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.result_card import card_footer, verdict_data
from bot.context import AppContext
from bot.core.recording import RecordedRun
from bot.core.run_generator import DEFAULT_GENERATOR, GeneratorRequest, run_generator
from engine.errors import UnknownName
from engine.scoring import METRIC, current_ir_names
from tools.metric_format import format_value
from tools.recovery_text import recovery_data, recovery_lines


def unknown_subject(name: str, methods: list[str]) -> UnknownName:
    """ "unknown method or challenge 'x' — did you mean …" over methods and IR challenges."""
    known = [*methods, *current_ir_names()]  # retired tiers stay runnable by exact name, never suggested
    return UnknownName("method or challenge", name, difflib.get_close_matches(name, known, n=3), known)


def generator_name(inv: Invocation) -> str:
    """The generator ``inv`` names (the baseline when none); an unknown key is a usage error."""
    extra = sorted(set(inv.options) - {"generator"})
    if extra:
        raise UsageError(
            f"unknown key '{extra[0]}' for an IR challenge",
            hint=f"usage: run {inv.args[0]} [generator=NAME]",
        )
    return inv.options.get("generator", DEFAULT_GENERATOR)


def run_generator_reply(ctx: AppContext, inv: Invocation) -> Reply:
    request = GeneratorRequest.parse(inv.args[0], generator_name(inv))
    recorded = run_generator(ctx, request, member=inv.caller.name, force="force" in inv.flags, progress=inv.progress)
    return generator_card(request, recorded)


def generator_card(request: GeneratorRequest, recorded: RecordedRun) -> Reply:
    """The card of a built-in generator's score: verdict and cost, the size of the program, the shared footer."""
    name, generator, result = request.challenge, request.generator, recorded.result
    cost = result.metrics.get(METRIC)
    verdict = "correct" if result.ok else f"FAILED: {result.failure}"
    lines = [f"{name} / {generator}: {verdict}" + (f", {METRIC} = {format_value(cost)}" if cost is not None else "")]
    lines += recovery_lines(result.recovery)
    tables = []
    if cost is not None and result.ok:
        counts = result.counts
        row = [
            METRIC,
            format_value(cost),
            format_value(counts.get("instructions", 0)),
            format_value(counts.get("reads", 0)),
            str(counts.get("instances", 0)),
        ]
        tables.append(Table(headers=["metric", "value", "instructions", "reads", "instances checked"], rows=[row]))
    footer_lines, footer_tables = card_footer(recorded)
    lines += footer_lines
    tables += footer_tables
    data = {
        "method": generator,
        "challenge": name,
        "generator": generator,
        "kind": "generate",
        "params": {"generator": generator},
        "seed": result.seeds[0] if result.seeds else None,
        "accuracy": result.accuracy,
        "ok": result.ok,
        "failure": result.failure,
        "failure_kind": None if result.failure_kind is None else result.failure_kind.value,
        "wall_s": result.wall_s,
        "metrics": result.metrics,
        "cost": None if cost is None else int(cost),
        "engine_version": result.engine_version,
        "run_id": recorded.stored.id,
        "reused": recorded.stored.reused,
        "recovery": recovery_data(result.recovery),
        "verdict": verdict_data(recorded),
    }
    return Reply(text="\n".join(lines), tables=tables, data=data, ok=result.ok, failure_kind=result.failure_kind)
