"""``run CHALLENGE [generator=NAME]``: score an IR challenge's built-in program (dally@1), stored once — the card.

The work is :func:`bot.core.run_generator.run_generator`; this module parses the options and renders the result.
"""

from __future__ import annotations

import difflib

from bot.commands.base import Invocation, Reply, UsageError
from bot.commands.card_voice import metric_name, scored_card
from bot.commands.result_card import details, verdict_data
from bot.context import AppContext
from bot.core.recording import RecordedRun
from bot.core.run_generator import DEFAULT_GENERATOR, GeneratorRequest, run_generator
from engine.errors import UnknownName
from engine.scoring import METRIC, current_ir_names
from tools.metric_format import format_value
from tools.recovery_text import recovery_data


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
    """The card of a built-in generator's score (:func:`bot.commands.card_voice.scored_card`): the verdict against
    the baseline program, the cost and reads, the board standing, the run id; the metric panel and the comparison
    table are in ``show ID``."""
    name, generator, result = request.challenge, request.generator, recorded.result
    cost = result.metrics.get(METRIC)
    measured = None
    if result.ok and cost is not None:
        reads = result.counts.get("reads")
        measured = f"correct: {metric_name(METRIC)} {format_value(cost)}" + (
            f", {format_value(reads)} reads" if reads is not None else ""
        )
    card = scored_card(recorded, generator, measured or "")
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
    return Reply(
        text=card.text(),
        data=data,
        ok=result.ok,
        failure_kind=result.failure_kind,
        followups=details(recorded),
    )
