"""What a command receives, whatever the transport: the :class:`Invocation`, who asked (:class:`Caller`), attached
files, and :class:`UsageError` for a command used wrongly.

A leaf module: the edges, the commands, the job board and the executors all import it, and it imports nothing of
theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.progress import Progress, no_progress


class UsageError(Exception):
    """The caller used a command wrongly. One line plus a hint (usually the usage line)."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


@dataclass(frozen=True)
class Caller:
    """Who asked: a Telegram member or the local terminal user. message_id: the Telegram message that asked."""

    name: str
    user_id: int | None = None
    chat_id: int | None = None
    thread_id: int | None = None
    is_admin: bool = False
    message_id: int | None = None

    @property
    def message_link(self) -> str:
        """A link that opens the asking message in Telegram, "" where there is none to make.

        Only supergroups have message links (``https://t.me/c/<chat>/<message>``, the chat id without its
        ``-100`` prefix; in a forum topic ``…/<chat>/<topic>/<message>``); they open for the group's members only.
        """
        chat, message = self.chat_id, self.message_id
        if chat is None or message is None or not str(chat).startswith("-100"):
            return ""
        topic = f"{self.thread_id}/" if self.thread_id is not None else ""
        return f"https://t.me/c/{str(chat)[4:]}/{topic}{message}"


LOCAL_CALLER = Caller(name="local", is_admin=True)


@dataclass(frozen=True)
class Attachment:
    """A file handed to a command: a Telegram document, a pasted code block, or a path read by the CLI."""

    name: str
    content: bytes


@dataclass
class Invocation:
    """One call of a command, independent of transport.

    args: positional tokens, in order.
    options: ``key=value`` tokens and ``--key value`` options, keys without dashes, in order.
    flags: bare ``--flag`` tokens, without dashes.
    attachments: files (the CLI reads paths named by file-taking commands; Telegram downloads documents).
    progress: called with a short status line and an optional fraction done; cheap to call often.
    """

    command: str
    args: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    attachments: list[Attachment] = field(default_factory=list)
    caller: Caller = LOCAL_CALLER
    progress: Progress = no_progress


__all__ = ["LOCAL_CALLER", "Attachment", "Caller", "Invocation", "Progress", "UsageError"]
