"""``serve``: run the Telegram bot (long polling) until SIGINT/SIGTERM; unfinished jobs are reported, not lost."""

from __future__ import annotations

from bot.commands.base import Invocation, Reply
from bot.context import AppContext


def serve(ctx: AppContext, inv: Invocation) -> Reply:
    import asyncio

    from bot.telegram_app.application import build_bot  # the Telegram layer sits above the registry

    bot = build_bot(ctx)
    asyncio.run(bot.run_until_signalled())
    return Reply(text="bot stopped", data={"stopped": True})
