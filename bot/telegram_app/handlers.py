"""Thin handlers: build an Invocation from a message, run the command (queued or off the loop), send the Reply.

All behaviour lives in the commands; here is only transport: who sent it (access.py), what they asked
(requests.py), where the answer goes (the same chat and forum topic, as a reply), and how it looks (render.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import logging
import time
from datetime import UTC, datetime

from telegram import CallbackQuery, Message, MessageEntity, Update
from telegram.ext import ContextTypes

from bot.command import Command
from bot.commands.guide import unknown_command
from bot.commands.tokens import parse_free_text, parse_tokens
from bot.context import AppContext
from bot.dispatch import execute
from bot.incidents import incident_line, report_incident
from bot.invocation import Attachment, Invocation, UsageError
from bot.jobs.board import JobBoard
from bot.jobs.labels import job_label
from bot.telegram_app.access import ANONYMOUS_ADMIN_HINT, Decision, Sender, decide
from bot.telegram_app.buttons import press_button
from bot.telegram_app.callback_seal import CallbackSeal
from bot.telegram_app.card_context import asks_for_details, card_run, with_card_run
from bot.telegram_app.chat_outbox import ChatOutbox
from bot.telegram_app.delivery import Courier, send_reply
from bot.telegram_app.progress import ProgressMessage
from bot.telegram_app.request_buttons import press_request
from bot.telegram_app.requests import (
    code_file_name,
    command_word,
    fenced_blocks,
    looks_like_code,
    split_tokens,
)
from engine.errors import EngineError
from engine.sandbox import DEFAULT_LIMITS
from storage.errors import StorageError
from storage.timestamps import utcnow
from tools.config.policy import RunPolicy
from tools.errors import ToolError

log = logging.getLogger("sutro.telegram")

PASTE_COMMANDS = ("submit", "score")
"""The command that scores a pasted code block or an uncaptioned .py/.ir file: the first one registered."""

CODE_SUFFIXES = (".py", ".ir")
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024  # the Bot API's getFile limit
MAX_IR_BYTES = 8 * 1024 * 1024
"""IR files (and other non-Python uploads) may be larger than a source file: the scorer's limited child parses
them under its own rules, so this cap only keeps a worker from fetching a huge file. Python source is capped by
the admins' ``limits.source_kib`` (``/config``) before it is downloaded."""


def sender_of(message: Message) -> Sender:
    user = message.from_user
    return Sender(
        chat_id=message.chat.id,
        user_id=user.id if user else None,
        user_name=(user.username or user.full_name) if user else "someone",
        thread_id=message.message_thread_id if message.is_topic_message else None,
        sender_chat_id=message.sender_chat.id if message.sender_chat else None,
        message_id=message.message_id,
    )


FORGED_BUTTON = "this button was not sent by this bot (or is from before a token change) — send the command again"
"""The toast for a press whose data carries no valid seal (bot/telegram_app/callback_seal.py)."""


class ChatFrontDoor:
    """Every handler of the Application, sharing the context, the job board and the registry."""

    def __init__(self, ctx: AppContext, board: JobBoard, commands: tuple[Command, ...], outbox: ChatOutbox) -> None:
        self.ctx = dataclasses.replace(ctx, jobs=board)
        self.board = board
        self.outbox = outbox
        self.commands = {c.name: c for c in commands if c.telegram}
        self.stale_after_s = ctx.settings.telegram_stale_after_s

    def courier_for(self, message: Message) -> Courier:
        """Answers to ``message``: in its chat and forum topic, as a reply to it, through the outbox."""
        thread = message.message_thread_id if message.is_topic_message else None
        member = message.from_user.id if message.from_user else None
        return Courier(self.outbox, message.chat.id, thread, reply_to=message.message_id, member=member)

    # -- entry points (one per kind of message) --------------------------------------------------------
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not message.text:
            return
        word = command_word(message.text, context.bot.username)
        if word is None:
            return
        name, rest = word
        run_id = card_run(message, context.bot.id, CallbackSeal(context.bot.token))
        if run_id is not None:  # sent as a reply to a result card: /show, /compare apply to its run
            rest = with_card_run(name, rest, run_id)
        attachments: list[Attachment] = []
        document_of: Message | None = None
        command = self.commands.get(name)
        if command is not None and (command.file_arg or command.file_option):  # code in the same message
            rest, attachments = code_after_command(message, rest)
            replied = replied_to(message, context.bot.id)
            if not attachments and replied is not None:  # or as a reply to the message holding it (privacy mode)
                attachments = pasted_code(replied)
                document_of = replied if not attachments and replied.document is not None else None
        await self._serve(message, name, rest, attachments, document_of=document_of)

    async def on_document(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or message.document is None:
            return
        word = command_word(message.caption or "", context.bot.username)
        file_name = message.document.file_name or "upload"
        if word is None and not file_name.lower().endswith(CODE_SUFFIXES):
            return  # an unrelated file shared in the group
        name, rest = word if word is not None else (self._paste_command_name(), "")
        await self._serve(message, name, rest, [], document_of=message)

    async def on_captioned(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A photo (or video, audio …) whose caption is a command: served like the same command typed."""
        message = update.effective_message
        if message is None or message.document is not None:
            return
        word = command_word(message.caption or "", context.bot.username)
        if word is not None:
            await self._serve(message, word[0], word[1], [])

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not message.text:
            return
        attachments = pasted_code(message)
        if attachments:
            await self._serve(message, self._paste_command_name(), "", attachments)
            return
        run_id = card_run(message, context.bot.id, CallbackSeal(context.bot.token))
        if run_id is not None and "show" in self.commands and asks_for_details(message.text):
            await self._serve(message, "show", str(run_id), [])  # "why?" under a card: that run in full

    async def on_edited_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An edited message holding a command: answered with one line (edits are not re-run), once per edit."""
        message = update.edited_message
        if message is None:
            return
        word = command_word(message.text or message.caption or "", context.bot.username)
        if word is None:
            return
        decision = await self.check_sender(sender_of(message))
        if decision.caller is None:  # a stranger's edit: their first message already got the refusal
            return
        await self.courier_for(message).send_text(
            html.escape(f"edits are not re-run — send /{word[0]} again as a new message", quote=False)
        )

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A press of an inline button under a card (``idea:run:7``): checked like a message, then the command."""
        query = update.callback_query
        if query is None or not isinstance(query.message, Message):
            return
        data = await self._opened(query, context)
        if data is not None:
            await press_button(self, query, query.message, data)

    async def on_request_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A press of ‹ page / page › or a follow-up (``details``): the request it carries, run as the presser."""
        query = update.callback_query
        if query is None or not isinstance(query.message, Message):
            return
        data = await self._opened(query, context)
        if data is not None:
            await press_request(self, query, query.message, data)

    async def on_unknown_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Callback data no button of this bot carries (no handler's prefix): refused with a toast, nothing runs."""
        if update.callback_query is not None:
            await update.callback_query.answer(FORGED_BUTTON, show_alert=True)

    @staticmethod
    async def _opened(query: CallbackQuery, context: ContextTypes.DEFAULT_TYPE) -> str | None:
        """The data of a press whose seal holds; otherwise the presser gets a toast and None comes back."""
        data = CallbackSeal(context.bot.token).open(query.data or "")
        if data is None:
            await query.answer(FORGED_BUTTON, show_alert=True)
        return data

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log the traceback with an incident id; tell the member one line with that id."""
        error = context.error or RuntimeError("unknown error")
        incident = report_incident(error, where="a Telegram update")
        if isinstance(update, Update) and update.effective_message is not None:
            await self.courier_for(update.effective_message).send_text(incident_line(incident))

    # -- the one flow ---------------------------------------------------------------------------------
    def _paste_command_name(self) -> str:
        return next((n for n in PASTE_COMMANDS if n in self.commands), PASTE_COMMANDS[0])

    async def _serve(
        self,
        message: Message,
        name: str,
        rest: str,
        attachments: list[Attachment],
        *,
        document_of: Message | None = None,
    ) -> None:
        """Check the sender, parse, and run ``name``; ``document_of``: the message whose document is downloaded
        into the invocation (the command's own, or the one a ``/submit`` replied to)."""
        courier = self.courier_for(message)
        decision = await self.check_sender(sender_of(message))
        if decision.caller is None:
            log.info("refused a message from chat %s", message.chat.id)
            await courier.send_text(decision.refusal)
            return
        age = (datetime.now(UTC) - message.date).total_seconds()
        if age > self.stale_after_s:
            await courier.send_text(
                f"skipped /{name}: it was sent {age / 60:.0f} min ago while the bot was away — send it again to run it"
            )
            return
        command = self.commands.get(name)
        try:
            if command is None:
                raise UsageError(
                    unknown_command(name, sorted(self.commands)).one_line(), hint="/help lists the commands"
                )
            if command.admin_only and not decision.caller.is_admin:  # refused at once, never queued
                hint = ANONYMOUS_ADMIN_HINT if decision.caller.user_id is None else ""
                raise UsageError(f"/{name} is for admins only", hint=hint)
            inv = parse_free_text(command, rest) if command.free_text else parse_tokens(command, split_tokens(rest))
            inv.caller = decision.caller
            inv.attachments += attachments
            if document_of is not None:
                inv.attachments.append(await download(document_of, await self._upload_limit(document_of)))
            if command.background and command.precheck is not None:  # a typo is answered now, not queued
                await asyncio.to_thread(command.precheck, self.ctx, inv)
        except (UsageError, EngineError, ToolError, StorageError) as err:
            await courier.send_text(err.one_line())
            return
        if command.background:
            await self.run_queued(courier, command, inv)
        else:
            reply, _status = await asyncio.to_thread(execute, self.ctx, command, inv)
            await send_reply(courier, reply)

    async def _upload_limit(self, message: Message) -> int:
        """Largest document (bytes) accepted before download: ``limits.source_kib`` for Python, else the IR cap."""
        name = (message.document.file_name if message.document else None) or ""
        if not name.lower().endswith(".py"):
            return MAX_IR_BYTES
        try:
            policy: RunPolicy = await asyncio.to_thread(self.ctx.run_policy)
        except StorageError:  # the database is down: the sandbox's default limit applies
            return DEFAULT_LIMITS.source_bytes
        return policy.source_kib * 1024

    async def check_sender(self, sender: Sender) -> Decision:
        """The access decision for ``sender``, against the chats the admins allow now (``chats.allowed``)."""
        try:
            allowed = await asyncio.to_thread(lambda: self.ctx.tool_config().get("chats.allowed"))
        except StorageError as err:  # the database is down: the deployment's list still lets members in
            log.warning("chats.allowed unreadable (%s); using SUTRO_ALLOWED_CHATS", err.one_line())
            allowed = None
        return decide(self.ctx.settings, sender, allowed_chats=allowed)

    async def run_queued(self, courier: Courier, command: Command, inv: Invocation) -> None:
        """Queue a job; its acknowledgement is the one message that progress edits and the result replace."""
        progress = ProgressMessage(courier)
        submitted_at = utcnow()
        try:
            policy: RunPolicy | None = await asyncio.to_thread(self.ctx.run_policy)
        except StorageError:  # the database is down: the board's own limits apply (the job will say what failed)
            policy = None
        try:
            job = self.board.submit(command, inv, on_progress=progress.report, policy=policy)
        except UsageError as err:
            await courier.send_text(err.one_line())
            return
        progress.open(f"{job_label(job.id)} {job.describe()}", self.board.acknowledgement(job, inv), job_label(job.id))
        reply, status = await job.outcome
        took = (job.finished_at or time.monotonic()) - (job.started_at or job.submitted_at)
        final = {0: f"done in {took:.1f} s", 1: "finished: not ok", 2: "refused"}.get(status, "failed")
        if job.state == "cancelled":
            final = f"cancelled by {job.cancelled_by}"
        elif job.state == "stopped":
            final = f"not finished: {job.stop_reason}"
        note = ""
        owner = job.invocation is inv  # one who attached to the same request has nothing of theirs to undo
        if owner and command.on_stopped is not None and (job.state in ("cancelled", "stopped") or status == 3):
            note = await self._undo_stopped(command, inv, submitted_at)
        await progress.close(final, reply, note)

    async def _undo_stopped(self, command: Command, inv: Invocation, submitted_at: datetime) -> str:
        """Let the command undo what its stopped job left half-done (an idea left ``running``); its note for the
        member goes under the job's answer ("" for none)."""
        assert command.on_stopped is not None
        try:
            return str(await asyncio.to_thread(command.on_stopped, self.ctx, inv, submitted_at) or "")
        except Exception as exc:  # noqa: BLE001 - the member still gets the job's answer
            report_incident(exc, where=f"cleaning up after a stopped /{command.name}")
            return ""


async def download(message: Message, limit_bytes: int = MAX_DOCUMENT_BYTES) -> Attachment:
    """The message's document as an Attachment, refused before download when its ``file_size`` (as Telegram
    reports it) is over ``limit_bytes`` (and never over 20 MB, all that Telegram lets bots fetch)."""
    document = message.document
    assert document is not None
    name = document.file_name or "upload"
    limit = min(limit_bytes, MAX_DOCUMENT_BYTES)
    if document.file_size and document.file_size > limit:
        raise UsageError(
            f"{name} is {document.file_size / 1024:,.0f} KiB, over the {limit / 1024:,.0f} KiB limit for uploads",
            hint="send a smaller file (admins set the Python source limit with /config set limits.source_kib)",
        )
    telegram_file = await document.get_file()
    content = await telegram_file.download_as_bytearray()
    return Attachment(name=name, content=bytes(content))


def replied_to(message: Message, bot_id: int) -> Message | None:
    """The member's message that ``message`` answers, if any: with privacy mode on, ``/submit`` sent as a reply to a
    pasted block or a file is how that code reaches the bot (Telegram includes the replied-to message whole).

    Not a reply: the forum topic's opening message (Telegram sets it as the reply target of every message in the
    topic) and the bot's own messages (their tables are ``pre`` blocks, not code).
    """
    replied = message.reply_to_message
    if replied is None or replied.forum_topic_created is not None:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    if replied.from_user is not None and replied.from_user.id == bot_id:
        return None
    return replied


def code_after_command(message: Message, rest: str) -> tuple[str, list[Attachment]]:
    """``/submit matmul_4x4`` followed by code in the same message: the arguments (first line only) and the
    code as an attachment (a ``pre`` block, a ``` fence, or the following lines when they look like code)."""
    head, _, body = rest.partition("\n")
    if not body.strip():
        return rest, []
    attachments = pasted_code(message, whole_text=False)
    if not attachments and (name := looks_like_code(body)) is not None:
        attachments = [Attachment(name=name, content=body.encode())]
    if not attachments:
        return rest, []
    return head.split("```")[0].strip(), attachments


def pasted_code(message: Message, *, whole_text: bool = True) -> list[Attachment]:
    """Code blocks in a text message: ``pre`` entities, ``` fences, or a whole message that looks like code."""
    text = message.text or ""
    blocks = [(entity.language or "", code) for entity, code in message.parse_entities([MessageEntity.PRE]).items()]
    if not blocks:
        blocks = fenced_blocks(text)
    if not blocks and whole_text and looks_like_code(text):
        blocks = [("", text)]
    return [Attachment(name=code_file_name(lang, code), content=code.encode()) for lang, code in blocks]
