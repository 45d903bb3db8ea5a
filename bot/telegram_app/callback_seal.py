"""Buttons you can trust: the bot seals each inline button's ``callback_data`` and runs a press only when the seal
holds.

A Telegram client sends back whatever ``callback_data`` it likes (the Bot API documentation warns that a client can
send data that was never on a button), and a press here runs the request the data carries (``go:show 12``,
``pg:runs page=2``, ``idea:run:7``). So every button the bot sends carries, after its data, a message
authentication code: ``go:show 12|`` and 12 characters of URL-safe base64 (72 bits of HMAC-SHA256, keyed by a key
derived from the bot token, which only the bot holds). A press whose data has no seal, or a wrong one, is refused
with a toast and runs nothing.

The data stays whole in the button (no server-side store), so a press still works after a restart and on another
bot process with the same token. A token change (a revoked token) makes earlier buttons stale; their presses are
refused with the same one line ("send the command again").
"""

from __future__ import annotations

import base64
import hashlib
import hmac

SEPARATOR = "|"
MAC_BYTES = 9
"""Bytes of HMAC-SHA256 kept: 72 bits, 12 characters of base64. A forger would need about 2⁷¹ presses, each one a
call through Telegram."""
SEAL_CHARS = len(SEPARATOR) + 4 * MAC_BYTES // 3
"""What a seal adds to a button's data (13 characters): a button's own data may use the rest of Telegram's 64 bytes."""
_PURPOSE = b"sutro inline-button callback data, v1"


class CallbackSeal:
    """Seals and opens the ``callback_data`` of the bot's inline buttons with a key derived from the bot token."""

    def __init__(self, token: str) -> None:
        self._key = hmac.new(token.encode("utf-8"), _PURPOSE, hashlib.sha256).digest()

    def _mac(self, data: str) -> str:
        digest = hmac.new(self._key, data.encode("utf-8"), hashlib.sha256).digest()[:MAC_BYTES]
        return base64.urlsafe_b64encode(digest).decode("ascii")

    def seal(self, data: str) -> str:
        """``data`` with its seal appended, as the button carries it."""
        return f"{data}{SEPARATOR}{self._mac(data)}"

    def open(self, sealed: str) -> str | None:
        """The data a sealed button carried, or None when the seal is missing or does not match (data the bot never
        sent, or sent under another token)."""
        data, separator, mac = sealed.rpartition(SEPARATOR)
        if not separator or len(mac) != SEAL_CHARS - len(SEPARATOR):
            return None
        return data if hmac.compare_digest(mac, self._mac(data)) else None
