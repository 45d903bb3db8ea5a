"""Telegram's part of a refused start: a failure while the bot introduces itself to the Bot API (getMe, the command
menu) becomes one :class:`~bot.startup.StartupRefused` sentence — the network, or the token — instead of the
chain of HTTP exceptions underneath."""

from __future__ import annotations

from urllib.parse import urlsplit

from telegram.error import BadRequest, InvalidToken, NetworkError

from bot.settings import Settings
from bot.startup import Part, StartupRefused


def refused_start(exc: BaseException, settings: Settings) -> StartupRefused | None:
    """The sentence for ``exc`` raised while the bot was starting; None when it is not the network or the token
    (an internal error, reported with an incident id)."""
    if isinstance(exc, InvalidToken):
        return StartupRefused(
            Part.TOKEN,
            "Telegram refused the bot token — set SUTRO_TELEGRAM_BOT_TOKEN to the token @BotFather gives "
            "(/mybots → API Token); a revoked token must be replaced",
        )
    if isinstance(exc, NetworkError) and not isinstance(exc, BadRequest):  # TimedOut is a NetworkError
        host = urlsplit(settings.telegram_base_url).netloc or settings.telegram_base_url
        return StartupRefused(
            Part.NETWORK,
            f"Telegram's Bot API at {host} cannot be reached ({type(exc).__name__}: {_first_line(exc)}) — check "
            "this host's network, DNS, proxy and firewall, or SUTRO_TELEGRAM_BASE_URL",
        )
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:160] if text else "no answer"
