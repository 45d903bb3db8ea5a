"""Who may talk to the bot, and who is an admin: allow-listed chats and users (deny by default), admins by id.

Anonymous group admins post as the group itself: Telegram sets ``sender_chat`` to the chat and ``from`` to
GroupAnonymousBot (id 1087968824), so a user-id list cannot match them. A message whose ``sender_chat`` is the chat
it was sent in can only come from an admin of that chat, but it names nobody: only the ids in ``SUTRO_ADMIN_IDS``
are bot admins, so an anonymous admin is an ordinary member unless an operator opts in with
``SUTRO_TRUST_ANONYMOUS_ADMINS`` (off by default). The caller's name says which chat they posted as, for the audit.
Channel posts forwarded into a discussion group also carry a ``sender_chat`` (the channel): not admins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.invocation import Caller
from bot.settings import Settings

GROUP_ANONYMOUS_BOT_ID = 1087968824
ANONYMOUS_NAME = "anonymous"
ANONYMOUS_ADMIN_HINT = "post as yourself (not anonymously), with your user id in SUTRO_ADMIN_IDS"


@dataclass(frozen=True)
class Sender:
    """The identity fields of one message, as Telegram gives them."""

    chat_id: int
    user_id: int | None
    user_name: str
    thread_id: int | None = None
    sender_chat_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True)
class Decision:
    """``caller`` when allowed; else ``refusal``, one line for the member."""

    caller: Caller | None
    refusal: str = ""


def decide(settings: Settings, sender: Sender, *, allowed_chats: Iterable[int] | None = None) -> Decision:
    """Allow the message if its chat or its user is allow-listed; mark admins.

    ``allowed_chats``: the admins' ``chats.allowed`` setting (seeded from ``SUTRO_ALLOWED_CHATS``); None means
    the settings' list. Admins (``SUTRO_ADMIN_IDS``) are answered in any chat, so a wrong ``chats.allowed`` can
    always be put right from a private chat with the bot.
    """
    chats = set(settings.allowed_chats if allowed_chats is None else allowed_chats)
    anonymous_admin = sender.sender_chat_id is not None and sender.sender_chat_id == sender.chat_id
    known_user = sender.user_id is not None and not anonymous_admin
    allowed = sender.chat_id in chats or (
        known_user and (sender.user_id in settings.allowed_users or sender.user_id in settings.admin_ids)
    )
    if not allowed:
        return Decision(
            caller=None,
            refusal=(
                f"this chat ({sender.chat_id}) is not on the bot's allow-list — "
                "an admin can add it with /config set chats.allowed (or an operator your user id to "
                "SUTRO_ALLOWED_USERS)"
            ),
        )
    if anonymous_admin:
        return Decision(
            caller=Caller(
                name=f"anonymous admin of {sender.chat_id}" if settings.trust_anonymous_admins else ANONYMOUS_NAME,
                user_id=None,
                chat_id=sender.chat_id,
                thread_id=sender.thread_id,
                message_id=sender.message_id,
                is_admin=settings.trust_anonymous_admins,
            )
        )
    is_admin = sender.user_id is not None and sender.user_id in settings.admin_ids
    return Decision(
        caller=Caller(
            name=sender.user_name,
            user_id=sender.user_id,
            chat_id=sender.chat_id,
            thread_id=sender.thread_id,
            message_id=sender.message_id,
            is_admin=is_admin,
        )
    )
