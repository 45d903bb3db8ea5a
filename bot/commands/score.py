"""``score``: price and check an IR program on an IR-track challenge (Dally model, dally@1).

``sutro score PATH [--challenge NAME] [--json]`` — PATH may be ``-`` for stdin. ``score`` is ``submit`` restricted
to IR text: the same judging path (:func:`bot.core.judging.judge`: the trusted scorer in a resource-limited
process), the same stored answer for the same program, the same JSON (README: "JSON output"); only the card is
shorter. Without ``--challenge`` the challenge is inferred from the program's input and output counts when exactly
one fits. A rejected program (bad text, broken rule, wrong answer) answers ok=False, exit status 1, JSON
``{"ok": false, "error": ...}``. Several files or a directory: :mod:`bot.commands.score_many` (judged in this
process, a table, nothing stored).
"""

from __future__ import annotations

from bot.command import MANY_FILES_FLAG
from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.result_card import details, provenance_line
from bot.commands.score_many import score_many
from bot.commands.submission_card import submission_data, unjudged_data
from bot.context import AppContext
from bot.core.judging import Submission, judge
from engine.errors import EngineError
from engine.scoring import METRIC
from tools.metric_format import format_value
from tools.program_text import program_text
from tools.recovery_text import recovery_lines

USAGE = usage_of("score")


def _decode(content: bytes) -> str:
    """The file as text (:func:`tools.program_text.program_text`); EngineError for a BOM, binary, non-UTF-8 or empty
    files."""
    text = program_text(content, hint="give an IR program as plain text")
    if not text.replace(";", "").strip():
        raise EngineError("the file is empty", hint="first line: input addresses, last line: output addresses")
    return text


def score(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.attachments:
        raise UsageError("missing IR program", hint=f"usage: score {USAGE}")
    if MANY_FILES_FLAG in inv.flags or len(inv.attachments) > 1:
        return score_many(inv)
    challenge = inv.options.get("challenge")
    try:
        text = _decode(inv.attachments[0].content)
    except EngineError as err:
        return Reply(text=f"rejected: {err.one_line()}", ok=False, data=unjudged_data(err.one_line(), challenge))
    label = inv.options.get("name") or inv.attachments[0].name
    submission = Submission(code=text, label=label, challenge=challenge, kinds=("ir",), origin=inv.caller.message_link)
    recorded = judge(ctx, submission, member=inv.caller.name, force="force" in inv.flags, progress=inv.progress)
    result, data = recorded.result, submission_data(recorded, label)
    if not result.ok:
        text = f"rejected: {data['error']}\n{provenance_line(recorded)}"
        return Reply(text=text, ok=False, data=data, failure_kind=result.failure_kind, followups=details(recorded))
    cost, counts = result.metrics[METRIC], result.counts
    row = [
        result.challenge,
        format_value(cost),
        format_value(counts["instructions"]),
        format_value(counts["reads"]),
        str(counts["instances"]),
    ]
    table = Table(headers=["challenge", METRIC, "instructions", "reads", "instances checked"], rows=[row])
    passed = "passed" if result.recovery is not None else "correct"
    recovery = "".join(f"\n{line}" for line in recovery_lines(result.recovery))
    text = f"{result.challenge}: {passed}, {METRIC} = {format_value(cost)}{recovery}\n{provenance_line(recorded)}"
    return Reply(text=text, tables=[table], data=data, followups=details(recorded))
