"""``sprint start "TITLE" [GOAL]`` / ``sprint end`` / ``sprint``: the group's sprints in the sprint log.

While a sprint runs, every entry goes under its section, which opens with the sprint's TLDR (rewritten once per
change by the bot's scheduled job, bot/telegram_app/tldr_job.py, and when the sprint ends); without one, entries go
under their week. ``sprint end``: admins, or the member who started it.
In the chat the title is quoted (``/sprint start "Technical Sprint 2" find a cheaper update``); unquoted, the whole
text is the title.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, UsageError
from bot.context import AppContext
from bot.core.sprints import begin, current_sprint, finish

USAGE = usage_of("sprint")
_QUOTES = {'"': '"', "“": "”", "'": "'", "«": "»"}


def split_title(text: str) -> tuple[str, str]:
    """(title, goal) from ``"Technical Sprint 2" goal words`` — a quoted title, then the goal; unquoted: all
    title. UsageError for an unclosed quote."""
    text = text.strip()
    close = _QUOTES.get(text[:1])
    if close is None:
        return text, ""
    end = text.find(close, 1)
    if end < 0:
        raise UsageError("the sprint title's quote is not closed", hint=f"usage: sprint {USAGE}")
    return text[1:end], text[end + 1 :].strip()


def _words(inv: Invocation) -> tuple[str, str]:
    """(action, the rest): the chat gives one free-text argument; the terminal gives words (the shell took the
    quotes, so the word after ``start`` is the title)."""
    if len(inv.args) == 1:
        action, _, rest = inv.args[0].strip().partition(" ")
        return action.lower(), rest
    if not inv.args:
        return "", ""
    action, words = inv.args[0].lower(), inv.args[1:]
    if action == "start" and '"' not in words[0]:
        return action, " ".join([f'"{words[0]}"', *words[1:]])
    return action, " ".join(words)


def sprint(ctx: AppContext, inv: Invocation) -> Reply:
    action, rest = _words(inv)
    if action == "start":
        title, goal = split_title(rest)
        change = begin(ctx, title=title, goal=goal, caller=inv.caller)
        s = change.sprint
        text = f"sprint “{s.title}” started; entries go under it until: sprint end" + (
            f"\ngoal: {s.goal}" if s.goal else ""
        )
        return Reply(text=text, data={"ok": True, "sprint": s.id, "title": s.title, "goal": s.goal, "running": True})
    if action == "end":
        if rest.strip():
            raise UsageError(f"unexpected '{rest.split()[0]}' after end", hint=f"usage: sprint {USAGE}")
        change = finish(ctx, caller=inv.caller)
        s = change.sprint
        text = f"sprint “{s.title}” ended\nTLDR: {s.tldr}" if s.tldr else f"sprint “{s.title}” ended"
        return Reply(text=text, data={"ok": True, "sprint": s.id, "title": s.title, "tldr": s.tldr, "running": False})
    if action:
        raise UsageError(f"unknown sprint action '{action}'", hint=f"usage: sprint {USAGE}")
    running = current_sprint(ctx)
    if running is None:
        return Reply(
            text='no sprint is running — start one: sprint start "Technical Sprint 2" [goal]',
            data={"ok": True, "running": False},
        )
    since = f"{running.started_at:%a %d %b %H:%M} UTC"
    text = f"sprint “{running.title}” running since {since}, started by {running.started_by}"
    if running.goal:
        text += f"\ngoal: {running.goal}"
    if running.tldr:
        text += f"\nTLDR: {running.tldr}"
    return Reply(
        text=text,
        data={"ok": True, "running": True, "sprint": running.id, "title": running.title, "tldr": running.tldr},
    )
