"""``submit``: judge a member's IR program, ``generate()`` or ``solve()`` safely, store it once and log it.

``sutro submit PATH [--challenge NAME] [--name LABEL] [--force] [--json]``; in the chat ``/submit
[challenge] [name=LABEL]`` with an attached document or pasted code (a pasted block or an uncaptioned .py/.ir
file is routed here too), or sent as a reply to the message holding the code or file (how code reaches a bot
whose privacy mode is on). The work is :func:`bot.core.judging.judge`; the card (``submission_card``) shows
pass/fail and accuracy, the metric panel (name@version and how each was measured), the sandbox tier, the run
id or stored-result note.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, UsageError
from bot.commands.submission_card import submission_card
from bot.context import AppContext
from bot.core.judging import Submission, judge
from tools.program_text import program_text

USAGE = usage_of("submit")
_HINT = "send IR text, Python defining generate() -> str, or Python defining solve(x, y, n_bits, k_sparse)"


def _decode(content: bytes) -> str:
    """The submission as text (:func:`tools.program_text.program_text`); EngineError for a BOM, binary or
    non-UTF-8 files."""
    return program_text(content, hint=_HINT)


def _challenge_option(inv: Invocation) -> str | None:
    """--challenge / challenge=NAME; in the chat also the first word (``/submit matmul_4x4``)."""
    named = inv.options.get("challenge")
    positional = inv.args if inv.caller.user_id is not None else inv.args[1:]  # the CLI's first arg is PATH
    if len(positional) > 1 or (positional and named):
        raise UsageError(f"unexpected argument '{positional[-1]}'", hint=f"usage: submit {USAGE}")
    return named or (positional[0] if positional else None)


def submit(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.attachments:
        raise UsageError(
            "nothing to judge",
            hint=(
                "attach a .py/.ir file, paste the code, or send /submit as a reply to the message holding it "
                "(CLI: sutro submit PATH)"
            ),
        )
    challenge = _challenge_option(inv)
    code = _decode(inv.attachments[0].content)
    label = inv.options.get("name") or inv.attachments[0].name
    submission = Submission(code=code, label=label, challenge=challenge, origin=inv.caller.message_link)
    recorded = judge(ctx, submission, member=inv.caller.name, force="force" in inv.flags, progress=inv.progress)
    return submission_card(recorded, label)
