"""Context from a card: a command or a short question sent as a reply to one of the bot's result cards applies to
that card's run.

A member who reads a card and answers it with ``/show``, ``/compare 12``, ``/run --force`` or just "why?" means the
card's run; asking them for an id they are looking at is the bot being obtuse. Which run a card shows is read from
the card's own ``details`` button (``go:show 7``), whose data the bot sealed when it sent it
(:mod:`bot.telegram_app.callback_seal`), so it cannot be forged by editing or quoting text, and no English is
parsed. A card without that button (a refusal, a list, a message of someone else) gives no context, and the command
runs as typed.
"""

from __future__ import annotations

import re

from telegram import InlineKeyboardMarkup, Message

from bot.telegram_app.callback_seal import CallbackSeal
from bot.telegram_app.render import FOLLOWUP_PREFIX
from bot.telegram_app.requests import split_tokens

_DETAILS_REQUEST = re.compile(rf"^{re.escape(FOLLOWUP_PREFIX)}show (\d+)$")
ASKING_FOR_DETAILS = frozenset({"why", "details", "detail", "more", "show", "how", "explain", "what"})
"""Plain replies to a card that mean "show me this run in full" (compared lower-cased, without punctuation)."""


def card_run(message: Message, bot_id: int, seal: CallbackSeal) -> int | None:
    """The run of the bot's card that ``message`` replies to, from the card's sealed ``details`` button; None when
    the message replies to no card of this bot, or to a message that shows several runs (several of a member's
    jobs on one message, bot/telegram_app/job_sheet.py: which one is meant is not known, so the command asks)."""
    card = message.reply_to_message
    if card is None or card.from_user is None or card.from_user.id != bot_id:
        return None
    markup = card.reply_markup
    if not isinstance(markup, InlineKeyboardMarkup):
        return None
    runs: set[int] = set()
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data
            opened = seal.open(data) if isinstance(data, str) else None
            match = _DETAILS_REQUEST.match(opened or "")
            if match is not None:
                runs.add(int(match.group(1)))
    return runs.pop() if len(runs) == 1 else None


def with_card_run(name: str, rest: str, run_id: int) -> str:
    """``rest`` (the words after ``/name``) completed with the card's run where the command takes run ids and is
    short of them: ``/show`` → ``show 7``; ``/compare 5`` → ``compare 7 5``; ``/run --force`` (no method named) →
    ``run from=7 --force``, that run's request made again (bot/commands/run_again.py). Anything else is left as
    typed."""
    tokens = split_tokens(rest)
    positional = [t for t in tokens if "=" not in t and not t.startswith("-")]
    if (name == "show" and not positional) or (name == "compare" and len(positional) == 1):
        return f"{run_id} {rest}".strip()
    if name == "run" and not positional and not any("=" in t for t in tokens):
        return f"from={run_id} {rest}".strip()
    return rest


def asks_for_details(text: str) -> bool:
    """Whether a plain reply to a card ("why?", "Details", "more please") asks to see the run in full."""
    words = re.findall(r"[a-z]+", text.lower())
    return 0 < len(words) <= 3 and words[0] in ASKING_FOR_DETAILS
