"""The transport-agnostic command layer: what a command receives and what it answers.

The CLI and the Telegram handlers both turn their input into an :class:`Invocation`, call the same
:class:`Command`, and render the :class:`Reply` their own way (a rich table / JSON on the terminal; a formatted
message, photo or document in the chat). A command never prints, never talks to Telegram and never reads argv.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.context import AppContext


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
    """Who asked: a Telegram member or the local terminal user."""

    name: str
    user_id: int | None = None
    chat_id: int | None = None
    thread_id: int | None = None
    is_admin: bool = False


LOCAL_CALLER = Caller(name="local", is_admin=True)


@dataclass(frozen=True)
class Attachment:
    """A file handed to a command: a Telegram document, a pasted code block, or a path read by the CLI."""

    name: str
    content: bytes


def _no_progress(message: str, fraction: float | None = None) -> None:
    """Default progress sink: ignore."""


Progress = Callable[[str, "float | None"], None]


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
    progress: Progress = _no_progress


@dataclass
class Table:
    """A small table: column headers and rows of already-formatted cells."""

    headers: list[str]
    rows: list[list[str]]
    title: str = ""


@dataclass(frozen=True)
class OutFile:
    """A file for the user: a chart (``image/png``) or a long output as a document."""

    name: str
    content: bytes
    mime: str = "application/octet-stream"


@dataclass(frozen=True)
class Button:
    """An action offered under a reply: Telegram shows an inline button whose press sends ``data`` back
    (``idea:run:7``); the CLI ignores buttons (its commands take the same action as options)."""

    label: str
    data: str


@dataclass
class Reply:
    """What a command answers.

    text: the message (plain text, first line a summary); shown above the tables.
    tables: result tables, rendered as rich tables on the terminal and as monospace blocks in chat.
    data: the machine-readable answer (the CLI prints it for ``--json``); must be JSON-serialisable.
    files: charts and long outputs.
    ok: False when the request was understood but did not succeed (a rejected program): exit status 1.
    buttons: actions offered under the text (inline buttons in the chat), e.g. an idea's Run it / Discard.
    """

    text: str = ""
    tables: list[Table] = field(default_factory=list)
    data: dict[str, Any] | None = None
    files: list[OutFile] = field(default_factory=list)
    ok: bool = True
    buttons: list[Button] = field(default_factory=list)


Handler = Callable[["AppContext", Invocation], Reply]
StopHandler = Callable[["AppContext", Invocation, datetime], str]
"""Called in the bot process when a queued job of the command ended without answering (cancelled, past its time
limit, its worker died), with the job's submission time (aware UTC): undo what the killed run left half-done and
return a line for the member ("" for none)."""


@dataclass(frozen=True)
class Command:
    """A registered command: the single source for dispatch, ``/help``, the Telegram menu and the README table.

    name: 1–32 lowercase letters, digits or underscores (Telegram's rule).
    summary: one line, ≤ 256 characters (Telegram's limit for menu descriptions).
    usage: argument synopsis shown after the name, e.g. ``PATH [--challenge NAME]``.
    value_options: options that take a value (``--challenge NAME`` or ``challenge=NAME``), name -> help.
    flag_options: boolean flags (``--force``), name -> help.
    file_arg: the first positional argument names a file (``-`` = stdin) that the CLI reads into an attachment.
    admin_only: refused for non-admin callers.
    cli / telegram: whether the command exists on that transport.
    background: in the chat, run as a job in a worker process (acknowledged with its queue position, progress
        edits, cancellable). False for instant commands that read the bot's own state (``/help``, ``/queue``).
    on_stopped: see :data:`StopHandler`; None when a stopped job leaves nothing to undo.
    free_text: the words after the command are prose (``log``, ``idea``): only its declared ``--options`` are
        taken out; ``key=value`` words, quotes and new lines stay in the text as typed.
    needs_assistant: calls the Anthropic API, so its job runs on the bot's host (where the key is), never on a
        Dask worker.
    """

    name: str
    summary: str
    usage: str
    handler: Handler
    details: str = ""
    value_options: dict[str, str] = field(default_factory=dict)
    flag_options: dict[str, str] = field(default_factory=dict)
    file_arg: bool = False
    admin_only: bool = False
    cli: bool = True
    telegram: bool = True
    background: bool = True
    on_stopped: StopHandler | None = None
    free_text: bool = False
    needs_assistant: bool = False
