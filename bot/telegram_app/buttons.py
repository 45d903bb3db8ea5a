"""Inline-button presses under a card: ``idea:run:ID`` / ``idea:discard:ID`` / ``idea:edit:ID``.

A press is a request like a message: the presser must pass the same access check, and the action is the ``idea``
command (``--run ID`` / ``--discard ID``) run on the job board as the presser, answered under the card. Whether it
runs at all is decided by the idea's status in the database (claimed atomically), so a second press, a press from
someone else, or a press after a restart never runs it twice.
"""

from __future__ import annotations

import re
from typing import Protocol

from telegram import CallbackQuery, Message

from bot.command import Command
from bot.invocation import Invocation
from bot.telegram_app.access import Decision, Sender
from bot.telegram_app.chat_outbox import ChatOutbox
from bot.telegram_app.delivery import Courier
from bot.telegram_app.render import toast

IDEA_BUTTON = re.compile(r"^idea:(run|edit|discard):(\d+)$")
PATTERN = r"^idea:"


class FrontDoor(Protocol):
    """What a press needs from the chat's front door (``handlers.ChatFrontDoor``): the access check, the
    registered commands, the chat outbox, and the job board."""

    commands: dict[str, Command]
    outbox: ChatOutbox

    async def check_sender(self, sender: Sender) -> Decision: ...

    async def run_queued(self, courier: Courier, command: Command, inv: Invocation) -> None: ...


def presser_of(query: CallbackQuery, card: Message) -> Sender:
    """Who pressed a button under ``card``, as a :class:`Sender` in the card's chat and topic (the access check
    treats a press like a message from the presser)."""
    user = query.from_user
    return Sender(
        chat_id=card.chat.id,
        user_id=user.id,
        user_name=user.username or user.full_name,
        thread_id=card.message_thread_id if card.is_topic_message else None,
    )


async def press_button(door: FrontDoor, query: CallbackQuery, card: Message, data: str) -> None:
    """Check the presser, acknowledge the press, then run the action as a queued ``idea`` command. ``data`` is the
    button's data with its seal checked and removed (handlers.ChatFrontDoor.on_button)."""
    sender = presser_of(query, card)
    decision = await door.check_sender(sender)
    if decision.caller is None:
        await query.answer(toast(decision.refusal), show_alert=True)
        return
    match = IDEA_BUTTON.match(data)
    command = door.commands.get("idea")
    if match is None or command is None:
        await query.answer("this button is no longer supported", show_alert=True)
        return
    action, idea_id = match.group(1), match.group(2)
    courier = Courier(door.outbox, card.chat.id, sender.thread_id, reply_to=card.message_id)
    if action == "edit":
        await query.answer()
        await courier.send_text(
            f"to change idea #{idea_id}, send: /idea --revise {idea_id} what to change "
            "(the assistant drafts a new card from this one)"
        )
        return
    await query.answer(f"{'running' if action == 'run' else 'discarding'} idea #{idea_id}…")
    inv = Invocation(command="idea", options={action: idea_id}, caller=decision.caller)
    await door.run_queued(courier, command, inv)
