"""``digest [post]``: preview the weekly digest of the past 7 days; ``post`` (admins) sends it to the
configured chat and forum topic now.

The posting itself is the Telegram edge's (``AppContext.post_digest``, wired by the composition root): a command
never talks to Telegram. A manual post is an admin's explicit act and is not recorded as the week's scheduled
digest: the scheduled one still follows (bot/telegram_app/digest_job.py records weeks so that it is never posted twice).
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.commands.base import Invocation, Reply, UsageError
from bot.commands.digest_content import digest_reply
from bot.context import AppContext
from tools.errors import ToolError


def show_digest(ctx: AppContext, inv: Invocation) -> Reply:
    post = "post" in inv.flags or inv.args[:1] == ["post"]
    extra = inv.args[1:] if inv.args[:1] == ["post"] else inv.args
    if extra:
        raise UsageError(f"unexpected '{extra[0]}'", hint="usage: digest [post]")
    if post and not inv.caller.is_admin:
        raise UsageError("only admins can post the digest", hint="/digest without 'post' shows the preview")
    reply = digest_reply(ctx, end=datetime.now(UTC))
    if not post:
        return reply
    config = ctx.tool_config()
    chat_id, topic_id = config.get("digest.chat_id"), config.get("digest.topic_id")
    if chat_id is None:
        raise ToolError("digest.chat_id is not set", hint="/config set digest.chat_id -100… (the group's chat id)")
    if ctx.post_digest is None:
        raise UsageError("this process cannot post to Telegram", hint="post it from the bot or the sutro CLI")
    if not ctx.post_digest(reply, chat_id, topic_id):
        return Reply(text=f"could not post the digest to chat {chat_id} — see the operator log", ok=False)
    where = f"chat {chat_id}" + (f", topic {topic_id}" if topic_id is not None else "")
    week = (reply.data or {}).get("week", "")
    return Reply(text=f"posted the digest of {week} to {where}", data={"ok": True, "posted": True, "week": week})
