"""Post a digest now, outside the running bot (``sutro digest post`` / ``/digest post``): a short-lived Bot.

The Telegram edge's half of the digest command: the command builds the digest and asks for it to be posted
through the poster the composition root hands it (``AppContext.post_digest``); only this module talks to Telegram.
"""

from __future__ import annotations

import asyncio

from bot.invocation import UsageError
from bot.reply import Reply
from bot.settings import Settings


def post_digest_now(settings: Settings, reply: Reply, chat_id: int, topic_id: int | None) -> bool:
    """Send ``reply`` to ``chat_id`` (forum topic ``topic_id``) with its own event loop (commands run in a worker
    thread or the CLI); True once the text was delivered. UsageError (one line) when no bot token is set."""
    from telegram import Bot

    from bot.telegram_app.chat_outbox import ChatOutbox
    from bot.telegram_app.delivery import BotTransport, Courier
    from bot.telegram_app.digest_job import send_digest
    from bot.telegram_app.redaction import protect_secret

    token = settings.telegram_bot_token.get_secret_value().strip() if settings.telegram_bot_token else ""
    if not token:
        raise UsageError(
            "no Telegram bot token configured, so the digest cannot be posted",
            hint="set SUTRO_TELEGRAM_BOT_TOKEN; 'digest' without 'post' shows the preview",
        )
    protect_secret(token)

    async def send() -> bool:
        bot = Bot(token, base_url=settings.telegram_base_url, base_file_url=settings.telegram_base_file_url)
        async with bot:
            outbox = ChatOutbox(BotTransport(bot))
            try:
                return await send_digest(Courier(outbox, chat_id, topic_id, durable=False), reply)
            finally:
                await outbox.close()

    return asyncio.run(send())
