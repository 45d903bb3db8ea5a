"""Presses of the buttons that repeat a request: ‹ page / page › under a paged answer (``pg:records matmul_16x16
page=2``) and follow-ups such as ``details`` under a result card (``go:show 12``); see render.reply_buttons.

A press is a request like a message, made by the presser: the same access check (allowed chat, admins only for an
admin command), the same parsing, and the same one-line refusal as typing the command. A page press redraws the
answer in place (text and buttons; charts already sent stay; a queued command such as ``records`` runs on the job
board first); a follow-up, or a page press that fails, is answered under the message. The request is carried whole
in the button's data, so a press still works after a restart.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from telegram import CallbackQuery, Message

from bot.command import Command
from bot.context import AppContext
from bot.dispatch import execute
from bot.invocation import Invocation, UsageError
from bot.jobs.board import JobBoard
from bot.telegram_app.access import ANONYMOUS_ADMIN_HINT, Decision, Sender
from bot.telegram_app.buttons import presser_of
from bot.telegram_app.chat_outbox import ChatOutbox
from bot.telegram_app.delivery import Courier, send_reply
from bot.telegram_app.render import FOLLOWUP_PREFIX, PAGE_PREFIX, render, toast
from bot.telegram_app.requests import split_tokens

PATTERN = f"^({PAGE_PREFIX}|{FOLLOWUP_PREFIX})"


class FrontDoor(Protocol):
    """What a press needs from the chat's front door (``handlers.ChatFrontDoor``)."""

    ctx: AppContext
    board: JobBoard
    commands: dict[str, Command]
    outbox: ChatOutbox

    async def check_sender(self, sender: Sender) -> Decision: ...

    async def run_queued(self, courier: Courier, command: Command, inv: Invocation) -> None: ...


def request_of(door: FrontDoor, line: str, decision: Decision) -> tuple[Command, Invocation]:
    """The command and invocation of a button's command line, as the presser; UsageError (one line) as typing it
    would give: an unknown command, an admin command pressed by a member, a bad argument."""
    from bot.commands.tokens import parse_tokens

    assert decision.caller is not None
    name, _, rest = line.partition(" ")
    command = door.commands.get(name)
    if command is None:
        raise UsageError("this button is no longer supported", hint=f"send /{name} again")
    if command.admin_only and not decision.caller.is_admin:
        hint = ANONYMOUS_ADMIN_HINT if decision.caller.user_id is None else ""
        raise UsageError(f"/{name} is for admins only", hint=hint)
    inv = parse_tokens(command, split_tokens(rest))
    inv.caller = decision.caller
    return command, inv


async def press_request(door: FrontDoor, query: CallbackQuery, card: Message, data: str) -> None:
    """Check the presser, acknowledge the press, run the button's request, then redraw the card (a page) or answer
    under it (a follow-up, or a page that failed). A refusal (a stranger, an admin command pressed by a member, a
    request that no longer parses) is a toast to the presser alone. ``data`` is the button's data with its seal
    checked and removed (handlers.ChatFrontDoor.on_request_button)."""
    sender = presser_of(query, card)
    page = data.startswith(PAGE_PREFIX)
    line = data.removeprefix(PAGE_PREFIX if page else FOLLOWUP_PREFIX)
    courier = Courier(door.outbox, card.chat.id, sender.thread_id, reply_to=card.message_id)
    decision = await door.check_sender(sender)
    if decision.caller is None:
        await query.answer(toast(decision.refusal), show_alert=True)
        return
    try:
        command, inv = request_of(door, line, decision)
    except UsageError as err:
        await query.answer(toast(err.one_line()), show_alert=True)
        return
    await query.answer()
    if command.background and not page:
        await door.run_queued(courier, command, inv)
        return
    if command.background:  # a page of /records: drawn in a worker like the first, then shown in its place
        try:
            job = door.board.submit(command, inv)
        except UsageError as err:
            await courier.send_text(err.one_line())
            return
        reply, status = await job.outcome
    else:
        reply, status = await asyncio.to_thread(execute, door.ctx, command, inv)
    if page and status == 0:
        out = render(reply)
        await courier.edit_text(card.message_id, out.html, buttons=out.buttons)
    else:
        await send_reply(courier, reply)
