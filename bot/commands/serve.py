"""``serve``: run the Telegram bot (long polling) until SIGINT/SIGTERM; unfinished jobs are reported, not lost."""

from __future__ import annotations

from bot.commands.base import Command, Invocation, Reply
from bot.context import AppContext


def serve(ctx: AppContext, inv: Invocation) -> Reply:
    from telegram import Update

    from bot.telegram_app.application import build_application  # the bot layer above the registry

    app = build_application(ctx)
    app.run_polling(allowed_updates=Update.ALL_TYPES, drop_pending_updates=False)
    return Reply(text="bot stopped", data={"stopped": True})


COMMAND = Command(
    name="serve",
    summary="Run the Telegram bot (long polling) until stopped",
    usage="",
    handler=serve,
    cli=True,
    telegram=False,
)
