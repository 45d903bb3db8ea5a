"""``score``: price and check an IR program on an IR-track challenge (Dally model, dally@1).

``sutro score PATH [--challenge NAME] [--json]`` — PATH may be ``-`` for stdin. Without ``--challenge`` the
challenge is inferred from the program's input and output counts when exactly one fits. A rejected program (bad
text, broken rule, wrong answer) answers ok=False, exit status 1, JSON ``{"ok": false, "error": ...}``.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.recording import provenance_line, record_once
from engine.errors import EngineError, UnknownName
from engine.ir.scoring import METRIC, infer_challenges, ir_challenge, ir_names, score_ir
from engine.result import RunResult
from tools.run_request import NormalisedRequest

USAGE = usage_of("score")


def _rejected(message: str, challenge: str | None) -> Reply:
    data: dict[str, object] = {"ok": False, "error": message}
    if challenge:
        data["challenge"] = challenge
    return Reply(text=f"rejected: {message}", ok=False, data=data)


def _decode(content: bytes) -> str:
    """The file as text; EngineError for binary, non-UTF-8 or empty files."""
    if b"\x00" in content:
        raise EngineError("not a text file (it contains NUL bytes)", hint="give an IR program as plain text")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise EngineError(
            f"not UTF-8 text (bad byte at offset {err.start})", hint="give an IR program as plain text"
        ) from None
    if not text.replace(";", "").strip():
        raise EngineError("the file is empty", hint="first line: input addresses, last line: output addresses")
    return text


def _choose(text: str) -> str:
    fits = infer_challenges(text)
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise UsageError(
            f"several challenges fit this program's input/output counts: {', '.join(fits)}",
            hint="pass --challenge NAME",
        )
    raise UsageError(
        "no IR challenge has this program's input and output counts",
        hint="pass --challenge NAME (IR challenges: " + ", ".join(ir_names()) + ")",
    )


def score(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.attachments:
        raise UsageError("missing IR program", hint=f"usage: score {USAGE}")
    name = inv.options.get("challenge")
    if name is not None:
        try:
            ir_challenge(name)
        except UnknownName as err:
            raise UsageError(err.message, hint=err.hint) from None
    try:
        text = _decode(inv.attachments[0].content)
    except EngineError as err:
        return _rejected(err.one_line(), name)
    name = name or _choose(text)
    label = inv.options.get("name") or inv.attachments[0].name
    inv.progress(f"scoring on {name}", None)

    def compute() -> RunResult:
        try:
            return score_ir(name, text, subject=label)
        except EngineError as err:  # unparseable or rule-breaking: stored as a failed run, answered in one line
            return RunResult(challenge=name, subject=label, kind="ir", ok=False, failure=err.one_line())

    request = NormalisedRequest(challenge=name, kind="ir", subject=label, code=text, metric_versions=(METRIC,))
    recorded = record_once(ctx, request, compute, member=inv.caller.name, force="force" in inv.flags)
    result = recorded.result
    if METRIC not in result.metrics:
        reply = _rejected(result.failure or "rejected", name)
        reply.data = {**(reply.data or {}), "run_id": recorded.stored.id}
        reply.text += f"\n{provenance_line(recorded)}"
        return reply
    cost = int(result.metrics[METRIC])
    if not result.ok:
        reply = _rejected(result.failure or "failed", name)
        reply.data = {**(reply.data or {}), "cost": cost, "metric": METRIC, "run_id": recorded.stored.id}
        reply.text += f"\n{provenance_line(recorded)}"
        return reply
    data = {
        "challenge": name,
        "ok": True,
        "cost": cost,
        "metric": METRIC,
        "instructions": result.counts["instructions"],
        "reads": result.counts["reads"],
        "run_id": recorded.stored.id,
        "reused": recorded.stored.reused,
    }
    table = Table(
        headers=["challenge", METRIC, "instructions", "reads", "instances checked"],
        rows=[
            [
                name,
                f"{cost:,}",
                f"{data['instructions']:,}",
                f"{data['reads']:,}",
                str(result.counts["instances"]),
            ]
        ],
    )
    text = f"{name}: correct, {METRIC} = {cost:,}\n{provenance_line(recorded)}"
    return Reply(text=text, tables=[table], data=data)
