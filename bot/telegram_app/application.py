"""Compose the python-telegram-bot Application from Settings: token, Bot API URLs, timeouts, handlers, job board.

Handlers are generated from the command registry and run with ``block=False`` so a long command never holds up
other chats; queued commands run in worker processes (bot/jobs). :class:`TelegramBot` owns the start/stop order:
start publishes the command menu (``setMyCommands``) and starts the job board before polling; stop first stops
polling (confirming the updates already taken), then the job board — so queued and running jobs are answered
"not run — send it again" while the bot can still send — and only then the Application, which waits for its
handlers to deliver those answers. (``run_polling`` would wait for every running job before any hook runs.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from telegram import BotCommand, Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.command import Command
from bot.context import AppContext
from bot.executors import build_executor
from bot.invocation import UsageError
from bot.jobs.board import JobBoard
from bot.settings import Settings
from bot.telegram_app.buttons import PATTERN as BUTTON_PATTERN
from bot.telegram_app.chat_outbox import ChatOutbox
from bot.telegram_app.delivery import BotTransport
from bot.telegram_app.digest_job import DigestPoster
from bot.telegram_app.handlers import ChatFrontDoor
from bot.telegram_app.menu import menu_entries
from bot.telegram_app.outbox_job import schedule_outbox_drain
from bot.telegram_app.records_sync_job import schedule_records_sync
from bot.telegram_app.redaction import protect_secret
from bot.telegram_app.request_buttons import PATTERN as REQUEST_BUTTON_PATTERN
from bot.telegram_app.send_rate import Limits, Pace, SendRate
from bot.telegram_app.start_failures import refused_start
from bot.telegram_app.tldr_job import schedule_tldr_refresh
from storage.errors import StorageError
from storage.timestamps import utcnow

log = logging.getLogger("sutro.telegram")

NO_TOKEN = UsageError(
    "no Telegram bot token configured",
    hint="create a bot with @BotFather (/newbot) and set SUTRO_TELEGRAM_BOT_TOKEN in the environment or .env",
)


@dataclass(frozen=True)
class Webhook:
    """Webhook mode (optional): Telegram POSTs updates to ``url``; a reverse proxy forwards them to listen:port."""

    url: str
    listen: str
    port: int
    secret: str


def webhook_from(settings: Settings) -> Webhook | None:
    """The webhook configuration, or None for long polling; a webhook without a secret is refused."""
    if not settings.telegram_webhook_url:
        return None
    secret = settings.telegram_webhook_secret.get_secret_value() if settings.telegram_webhook_secret else ""
    if not secret:
        raise UsageError(
            "webhook mode needs a secret",
            hint="set SUTRO_TELEGRAM_WEBHOOK_SECRET (1-256 of A-Z, a-z, 0-9, _ and -), or unset the webhook URL",
        )
    if not settings.telegram_webhook_url.startswith("https://"):
        raise UsageError("the webhook URL must be https://", hint="Telegram only posts updates to HTTPS URLs")
    return Webhook(
        settings.telegram_webhook_url,
        settings.telegram_webhook_listen,
        settings.telegram_webhook_port,
        secret,
    )


@dataclass
class TelegramBot:
    """The Application, its job board and the command menu, started and stopped in the right order."""

    app: Application  # type: ignore[type-arg]
    board: JobBoard
    menu: list[BotCommand]
    digest: DigestPoster
    outbox: ChatOutbox

    webhook: Webhook | None = None
    started: bool = False

    def start_line(self) -> str:
        """One line for the operator when the bot starts: who it is, how it takes updates, where it answers."""
        name = f"@{self.app.bot.username}" if self.app.bot.username else "the bot"
        mode = "webhook" if self.webhook is not None else "long polling"
        try:
            chats = self.digest.ctx.tool_config().get("chats.allowed")
        except StorageError:  # the database is down: the deployment's list is what members get
            chats = self.digest.ctx.settings.allowed_chats
        return f"sutro serve: {name} started ({mode}), answering in {len(chats)} allowed chat(s)"

    def privacy_warning(self) -> str | None:
        """A warning when Telegram's privacy mode is on (getMe's ``can_read_all_group_messages`` is false)."""
        if reads_all_group_messages(self.app):
            return None
        return (
            "privacy mode is on — in groups the bot sees only commands and replies to it, so pasted "
            "code and uncaptioned files never reach it unless it is a group admin; make it an admin or turn "
            "privacy off with @BotFather /setprivacy (then remove and re-add it to the group)"
        )

    async def start(self, *, poll_timeout_s: int = 10) -> None:
        """Publish the menu, start the job board, then take updates (long polling, or the webhook if set);
        one start line goes to stderr (and the log) once updates flow."""
        await self.app.initialize()
        await self.app.bot.set_my_commands(self.menu)
        await self.outbox.start()  # replies stored during an outage before a restart go out first
        await self.board.start()
        await self.app.start()
        await self.digest.start()  # schedule the weekly digest (JobQueue runs from app.start) and catch up
        # waiting sprint-log entries go out without a new one (and, under Dask, the entries the jobs saved)
        schedule_outbox_drain(self.digest.ctx, self.app)
        schedule_records_sync(self.digest.ctx, self.app, self.outbox)  # follow the group's published records
        schedule_tldr_refresh(self.digest.ctx, self.app)  # sprint TLDRs, once per change, off the run path
        assert self.app.updater is not None
        if self.webhook is None:
            await self.app.updater.start_polling(
                poll_interval=0,
                timeout=poll_timeout_s,
                allowed_updates=Update.ALL_TYPES,
                drop_pending_updates=False,
            )
        else:
            await self._start_webhook()
        self.started = True
        self._announce(await asyncio.to_thread(self.start_line))
        warning = self.privacy_warning()
        if warning is not None:
            log.warning(warning)  # the CLI's log handler writes warnings to stderr

    @staticmethod
    def _announce(line: str) -> None:
        """To stderr for whoever started ``sutro serve`` (the CLI logs only warnings), and to the log."""
        log.info(line)
        print(line, file=sys.stderr, flush=True)

    async def _start_webhook(self) -> None:
        assert self.app.updater is not None and self.webhook is not None
        await self.app.updater.start_webhook(
            listen=self.webhook.listen,
            port=self.webhook.port,
            url_path=urlsplit(self.webhook.url).path.lstrip("/"),
            webhook_url=self.webhook.url,
            secret_token=self.webhook.secret,
            allowed_updates=Update.ALL_TYPES,
            drop_pending_updates=False,
        )

    async def stop(self) -> None:
        assert self.app.updater is not None
        if self.app.updater.running:
            await self.app.updater.stop()
        self.digest.stop()
        await self.board.stop()
        if self.app.running:
            await self.app.stop()
        await self.outbox.close()  # what is still queued: delivered for a few seconds, then stored for next time
        await self.app.shutdown()

    async def run_until_signalled(self) -> None:
        """Serve until SIGINT or SIGTERM, then stop cleanly."""
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stopping.set)
        try:
            await self.start()
        except BaseException:
            with contextlib.suppress(Exception):  # undo what started; the start's own failure is the one to report
                await self.stop()
            raise
        try:
            await stopping.wait()
        finally:
            await self.stop()


def reads_all_group_messages(app: Application) -> bool | None:  # type: ignore[type-arg]
    """getMe's ``can_read_all_group_messages`` (False while BotFather's privacy mode is on); None before the
    Application has asked Telegram who it is."""
    try:
        return bool(app.bot.can_read_all_group_messages)
    except RuntimeError:  # the bot is not initialised yet (getMe not called)
        return None


def build_bot(
    ctx: AppContext,
    commands: tuple[Command, ...] | None = None,
    *,
    clock: Callable[[], datetime] = utcnow,
    pace: Pace | None = None,
) -> TelegramBot:
    """The bot for ``ctx.settings``; raises :class:`UsageError` (one line) when no token is set.

    ``clock``: aware UTC now for the weekly digest's start-up catch-up and slot choice (tests pin it so that
    no test depends on today's date or weekday). ``pace``: the chat outbox's clock for Telegram's rate limits
    (tests and the load bench run it faster than the wall clock)."""
    if commands is None:
        from bot.commands import COMMANDS

        commands = COMMANDS
    settings = ctx.settings
    token = settings.telegram_bot_token.get_secret_value().strip() if settings.telegram_bot_token else ""
    if not token:
        raise NO_TOKEN
    protect_secret(token)
    if settings.anthropic_api_key is not None and settings.anthropic_api_key.get_secret_value().strip():
        protect_secret(settings.anthropic_api_key.get_secret_value().strip())
    webhook = webhook_from(settings)
    if webhook is not None:
        protect_secret(webhook.secret)
    # PTB 22.2+ warns on every RetryAfter unless it may use timedelta already (delivery.py reads both forms)
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    if ctx.worker_job is None:
        raise UsageError("the bot needs the composition root's worker job", hint="build the context with bot.app")
    board = JobBoard(
        build_executor(settings, ctx.worker_job),
        workers=settings.job_workers,
        per_member=settings.job_queue_per_member,
        rate_per_minute=settings.job_rate_per_minute,
    )
    menu = [BotCommand(name, description) for name, description in menu_entries(commands)]

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
        .build()
    )
    limits = Limits(settings.telegram_chat_gap_s, settings.telegram_group_per_minute, settings.telegram_overall_per_s)
    outbox = ChatOutbox(
        BotTransport(app.bot),
        pace=pace,
        rate=SendRate(limits),
        sessions=ctx.sessions,
        progress_every_s=settings.telegram_progress_interval_s,
        patience_s=settings.telegram_patience_s,
    )
    door = ChatFrontDoor(ctx, board, commands, outbox)
    new_messages = filters.UpdateType.MESSAGE
    for command in commands:
        if command.telegram:
            app.add_handler(CommandHandler(command.name, door.on_command, filters=new_messages, block=False))
    app.add_handler(MessageHandler(new_messages & filters.Document.ALL, door.on_document, block=False))
    app.add_handler(MessageHandler(new_messages & filters.COMMAND, door.on_command, block=False))
    app.add_handler(MessageHandler(new_messages & filters.TEXT & ~filters.COMMAND, door.on_text, block=False))
    captioned = new_messages & ~filters.Document.ALL & filters.CaptionRegex(r"^\s*/")
    app.add_handler(MessageHandler(captioned, door.on_captioned, block=False))  # "/run …" under a photo
    edited = filters.UpdateType.EDITED_MESSAGE & (filters.COMMAND | filters.CaptionRegex(r"^/"))
    app.add_handler(MessageHandler(edited, door.on_edited_command, block=False))
    app.add_handler(CallbackQueryHandler(door.on_button, pattern=BUTTON_PATTERN, block=False))
    app.add_handler(CallbackQueryHandler(door.on_request_button, pattern=REQUEST_BUTTON_PATTERN, block=False))
    app.add_handler(CallbackQueryHandler(door.on_unknown_button, block=False))  # data no button of ours carries
    app.add_error_handler(door.on_error, block=False)
    door.ctx.reads_group_messages = lambda: reads_all_group_messages(app)  # /status says what Telegram hands us
    digest = DigestPoster(door.ctx, app, clock=clock, outbox=outbox)
    door.ctx.digest_next = digest.next_time
    return TelegramBot(app=app, board=board, menu=menu, digest=digest, outbox=outbox, webhook=webhook)


def serve(ctx: AppContext) -> None:
    """Run the bot for ``ctx`` until SIGINT/SIGTERM (``sutro serve``); a start that fails on the network or the
    token raises :class:`~bot.startup.StartupRefused` (one sentence, bot/telegram_app/start_failures.py)."""
    bot = build_bot(ctx)
    try:
        asyncio.run(bot.run_until_signalled())
    except Exception as exc:
        refused = refused_start(exc, ctx.settings) if not bot.started else None
        if refused is None:
            raise
        raise refused from exc
