"""Access: deny by default, allow-listed chats and users, admins by id, anonymous group admins."""

from __future__ import annotations

from bot.settings import Settings
from bot.telegram_app.access import GROUP_ANONYMOUS_BOT_ID, Sender, decide

GROUP = -100123
SETTINGS = Settings(allowed_chats=[GROUP], allowed_users=[55], admin_ids=[7])


def test_deny_by_default() -> None:
    decision = decide(Settings(), Sender(chat_id=GROUP, user_id=7, user_name="a"))
    assert decision.caller is None and "/config set chats.allowed" in decision.refusal


def test_allowed_chat_member_is_not_admin_unless_listed() -> None:
    member = decide(SETTINGS, Sender(chat_id=GROUP, user_id=8, user_name="m", thread_id=4)).caller
    admin = decide(SETTINGS, Sender(chat_id=GROUP, user_id=7, user_name="a")).caller
    assert member is not None and not member.is_admin and member.thread_id == 4 and member.chat_id == GROUP
    assert admin is not None and admin.is_admin


def test_allowed_user_in_a_private_chat_but_not_a_stranger() -> None:
    assert decide(SETTINGS, Sender(chat_id=55, user_id=55, user_name="u")).caller is not None
    assert decide(SETTINGS, Sender(chat_id=56, user_id=56, user_name="s")).caller is None


def test_an_anonymous_group_admin_is_a_member_unless_the_operator_opts_in() -> None:
    anon = Sender(chat_id=GROUP, user_id=GROUP_ANONYMOUS_BOT_ID, user_name="GroupAnonymousBot", sender_chat_id=GROUP)
    caller = decide(SETTINGS, anon).caller  # default: only SUTRO_ADMIN_IDS are admins
    assert caller is not None and not caller.is_admin and caller.user_id is None
    assert "admin" not in caller.name
    trusting = SETTINGS.model_copy(update={"trust_anonymous_admins": True})
    caller = decide(trusting, anon).caller
    assert caller is not None and caller.is_admin and caller.name == f"anonymous admin of {GROUP}"


def test_a_channel_posting_into_the_group_is_not_an_admin() -> None:
    post = Sender(chat_id=GROUP, user_id=777000, user_name="Telegram", sender_chat_id=-100999)
    caller = decide(SETTINGS, post).caller
    assert caller is not None and not caller.is_admin


def test_the_admins_chat_list_replaces_the_settings_list() -> None:
    elsewhere = -100456
    member_here = Sender(chat_id=GROUP, user_id=8, user_name="m")
    member_there = Sender(chat_id=elsewhere, user_id=8, user_name="m")
    assert decide(SETTINGS, member_there, allowed_chats=[elsewhere]).caller is not None
    assert decide(SETTINGS, member_here, allowed_chats=[elsewhere]).caller is None
    assert decide(SETTINGS, member_here, allowed_chats=[]).caller is None


def test_an_admin_is_answered_in_any_chat_so_a_wrong_list_can_be_undone() -> None:
    admin_privately = decide(SETTINGS, Sender(chat_id=7, user_id=7, user_name="a"), allowed_chats=[]).caller
    assert admin_privately is not None and admin_privately.is_admin
    anon_elsewhere = Sender(
        chat_id=-100999, user_id=GROUP_ANONYMOUS_BOT_ID, user_name="GroupAnonymousBot", sender_chat_id=-100999
    )
    assert decide(SETTINGS, anon_elsewhere, allowed_chats=[GROUP]).caller is None
