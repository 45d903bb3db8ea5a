"""``serve``: run the Telegram bot (long polling) until SIGINT/SIGTERM; unfinished jobs are reported, not lost.

The bot is the Telegram edge (``bot.telegram_app``), above this layer: it is started through
``AppContext.serve_telegram``, which the composition root (``bot.app``) provides.
"""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, UsageError
from bot.context import AppContext


def serve(ctx: AppContext, inv: Invocation) -> Reply:
    if ctx.serve_telegram is None:  # the Telegram edge sits above the commands: the composition root hands it in
        raise UsageError("this process cannot start the bot", hint="run `sutro serve`")
    ctx.serve_telegram(ctx)
    return Reply(text="bot stopped", data={"stopped": True})
