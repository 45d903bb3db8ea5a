"""Compose the python-telegram-bot Application from Settings: token, Bot API URLs, timeouts, handlers, job board.

Handlers are generated from the command registry and run with ``block=False`` so a long command never holds up
other chats; queued commands run in worker processes (bot/jobs). ``post_init`` publishes the command menu
(``setMyCommands``) and starts the job board; ``post_shutdown`` stops it, telling members about unfinished jobs.
"""

from __future__ import annotations

import os

from telegram import BotCommand
from telegram.ext import Application, ApplicationBuilder, CommandHandler, MessageHandler, filters

from bot.commands.base import Command, UsageError
from bot.context import AppContext
from bot.jobs.board import JobBoard
from bot.jobs.process import ProcessRunner
from bot.telegram_app.handlers import ChatFrontDoor
from bot.telegram_app.menu import menu_entries
from bot.telegram_app.redaction import protect_secret

NO_TOKEN = UsageError(
    "no Telegram bot token configured",
    hint="create a bot with @BotFather (/newbot) and set SUTRO_TELEGRAM_BOT_TOKEN in the environment or .env",
)


def build_application(ctx: AppContext, commands: tuple[Command, ...] | None = None) -> Application:  # type: ignore[type-arg]
    """The Application for ``ctx.settings``; raises :class:`UsageError` (one line) when no token is set."""
    if commands is None:
        from bot.commands import COMMANDS

        commands = COMMANDS
    settings = ctx.settings
    token = settings.telegram_bot_token.get_secret_value().strip() if settings.telegram_bot_token else ""
    if not token:
        raise NO_TOKEN
    protect_secret(token)
    # PTB 22.2+ warns on every RetryAfter unless it may use timedelta already (delivery.py reads both forms)
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    board = JobBoard(
        ProcessRunner(settings),
        workers=settings.job_workers,
        per_member=settings.job_queue_per_member,
        rate_per_minute=settings.job_rate_per_minute,
    )
    menu = [BotCommand(name, description) for name, description in menu_entries(commands)]

    async def post_init(app: Application) -> None:  # type: ignore[type-arg]
        await app.bot.set_my_commands(menu)
        await board.start()

    async def post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
        await board.stop()

    timeout = settings.telegram_timeout_s
    app = (
        ApplicationBuilder()
        .token(token)
        .base_url(settings.telegram_base_url)
        .base_file_url(settings.telegram_base_file_url)
        .connect_timeout(timeout)
        .read_timeout(timeout)
        .write_timeout(timeout)
        .media_write_timeout(timeout * 3)
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .build()
    )
    door = ChatFrontDoor(ctx, board, commands)
    new_messages = filters.UpdateType.MESSAGE
    for command in commands:
        if command.telegram:
            app.add_handler(CommandHandler(command.name, door.on_command, filters=new_messages, block=False))
    app.add_handler(MessageHandler(new_messages & filters.Document.ALL, door.on_document, block=False))
    app.add_handler(MessageHandler(new_messages & filters.COMMAND, door.on_command, block=False))
    app.add_handler(MessageHandler(new_messages & filters.TEXT & ~filters.COMMAND, door.on_text, block=False))
    app.add_error_handler(door.on_error, block=False)
    return app
