"""Keep the bot token out of every log record: the token is part of every Bot API URL.

httpx logs each request URL at INFO (so its logger is kept at WARNING), and exceptions may quote URLs. As a second
line of defence a log-record factory replaces each registered secret in the message, its arguments and the
formatted traceback with ``<redacted>`` before any handler sees the record.
"""

from __future__ import annotations

import logging
from typing import Any

REDACTED = "<redacted>"
_secrets: set[str] = set()
_installed = False


def _redact(text: str) -> str:
    for secret in _secrets:
        text = text.replace(secret, REDACTED)
    return text


def protect_secret(secret: str) -> None:
    """Redact ``secret`` from every log record from now on (idempotent) and quiet httpx's request log."""
    global _installed
    if len(secret) >= 8:
        _secrets.add(secret)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if not _secrets:
            return record
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string is the logging module's problem, not ours
            return record
        record.msg, record.args = _redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = _redact(logging.Formatter().formatException(record.exc_info))
        return record

    logging.setLogRecordFactory(factory)
    _installed = True
