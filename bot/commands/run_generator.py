"""``run CHALLENGE [generator=NAME]``: build an IR challenge's built-in program, score it (dally@1), store it.

The generators are the engine's own (``IRChallenge.generators``, e.g. matmul_16x16: baseline, tiled); their
text is trusted, so it is scored in the worker process by :func:`engine.ir.scoring.score_ir` on fresh hidden
instances.
The generated IR is kept as the run's code, so ``rescore`` can price it again and a changed generator is a new
request. Stored and logged like every run (kind ``generate``).
"""

from __future__ import annotations

import difflib

from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.result_card import comparison_table, record_line, stored_rows
from bot.context import AppContext
from bot.recording import provenance_line, record_once
from engine.errors import EngineError, UnknownName
from engine.ir.scoring import METRIC, ir_challenge, ir_names, score_ir
from engine.result import RunResult
from tools.run_request import NormalisedRequest

DEFAULT_GENERATOR = "baseline"


def is_ir_challenge(name: str) -> bool:
    """Whether ``name`` is a registered IR-track challenge."""
    return name in ir_names()


def unknown_subject(name: str, methods: list[str]) -> UnknownName:
    """ "unknown method or challenge 'x' — did you mean …" over methods and IR challenges."""
    known = [*methods, *ir_names()]
    return UnknownName("method or challenge", name, difflib.get_close_matches(name, known, n=3), known)


def _generator(inv: Invocation) -> str:
    extra = sorted(set(inv.options) - {"generator"})
    if extra:
        raise UsageError(
            f"unknown key '{extra[0]}' for an IR challenge",
            hint=f"usage: run {inv.args[0]} [generator=NAME]",
        )
    return inv.options.get("generator", DEFAULT_GENERATOR)


def _score(challenge: str, generator: str, text: str) -> RunResult:
    try:
        result = score_ir(challenge, text, subject=generator)
    except EngineError as err:  # a broken built-in generator: stored as a failed run, shown in one line
        return RunResult(challenge=challenge, subject=generator, kind="generate", ok=False, failure=err.one_line())
    result.kind = "generate"
    result.params = {"generator": generator}
    return result


def run_generator_reply(ctx: AppContext, inv: Invocation) -> Reply:
    name = inv.args[0]
    spec = ir_challenge(name)
    generator = _generator(inv)
    if generator not in spec.generators:
        known = sorted(spec.generators)
        raise UnknownName(f"generator of {name}", generator, difflib.get_close_matches(generator, known), known)
    inv.progress(f"building {name}'s {generator} program", None)
    text = spec.generators[generator]()
    request = NormalisedRequest(
        challenge=name,
        kind="generate",
        subject=generator,
        params={"generator": generator},
        code=text,
        metric_versions=(METRIC,),
    )

    def compute() -> RunResult:
        inv.progress(f"scoring on {name}", None)
        return _score(name, generator, text)

    recorded = record_once(ctx, request, compute, member=inv.caller.name, force="force" in inv.flags)
    result = recorded.result
    cost = result.metrics.get(METRIC)
    verdict = "correct" if result.ok else f"FAILED: {result.failure}"
    lines = [f"{name} / {generator}: {verdict}" + (f", {METRIC} = {int(cost):,}" if cost is not None else "")]
    tables = []
    if cost is not None:
        counts = result.counts
        tables.append(
            Table(
                headers=["metric", "value", "instructions", "reads", "instances checked"],
                rows=[
                    [
                        METRIC,
                        f"{int(cost):,}",
                        f"{counts.get('instructions', 0):,}",
                        f"{counts.get('reads', 0):,}",
                        str(counts.get("instances", 0)),
                    ]
                ],
            )
        )
    if (line := record_line(ctx, recorded)) is not None:
        lines.append(line)
    rows = stored_rows(ctx, recorded) if result.ok else []
    if any(r[2] or r[3] for r in rows):
        tables.append(comparison_table(rows))
    lines.append(provenance_line(recorded))
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
        "wall_s": result.wall_s,
        "metrics": result.metrics,
        "cost": None if cost is None else int(cost),
        "engine_version": result.engine_version,
        "run_id": recorded.stored.id,
        "reused": recorded.stored.reused,
    }
    return Reply(text="\n".join(lines), tables=tables, data=data, ok=result.ok)
