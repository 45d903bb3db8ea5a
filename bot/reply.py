"""What a command answers, whatever the transport: a :class:`Reply` with its tables, files and buttons.

The CLI renders it as rich tables or JSON; the Telegram edge as a formatted message, photo or document. A leaf
module (imports nothing of the bot).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.result import FailureKind


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


@dataclass(frozen=True)
class Paging:
    """Where a paged answer stands: page ``number`` of ``pages`` of the request ``command words…`` (its words
    without ``page=``), so an edge can offer the neighbouring pages (Telegram: ‹ prev / next › buttons that redraw
    the message in place); the CLI ignores it (the reply's text names the next page's command)."""

    command: str
    words: tuple[str, ...]
    number: int
    pages: int

    def request(self, number: int) -> str:
        """The command line of page ``number``: ``leaderboard sparse_parity n=30 k=4 page=2``."""
        return shlex.join([self.command, *self.words, f"page={number}"])


@dataclass(frozen=True)
class Followup:
    """A related request offered under an answer, e.g. ``show 12`` under a result card: Telegram shows an inline
    button (``label``) whose press runs ``request`` as the presser; the CLI ignores it (the card names the command)."""

    label: str
    request: str


@dataclass
class Reply:
    """What a command answers.

    text: the message (plain text, first line a summary); shown above the tables.
    tables: result tables, rendered as rich tables on the terminal and as monospace blocks in chat.
    data: the machine-readable answer (the CLI prints it for ``--json``); must be JSON-serialisable.
    files: charts and long outputs.
    ok: False when the request was understood but did not succeed (a rejected program): exit status 1.
    buttons: actions offered under the text (inline buttons in the chat), e.g. an idea's Run it / Discard.
    paging: which page of a longer answer this is (see :class:`Paging`); None when it is all of it.
    followups: related requests offered under the answer (see :class:`Followup`).
    failure_kind: why the run behind the reply failed, when it did (``engine.result.FailureKind``); the job board
        counts ``limit`` failures against the member's budget (bot/jobs/fair_queue.py).
    """

    text: str = ""
    tables: list[Table] = field(default_factory=list)
    data: dict[str, Any] | None = None
    files: list[OutFile] = field(default_factory=list)
    ok: bool = True
    buttons: list[Button] = field(default_factory=list)
    failure_kind: FailureKind | None = None
    paging: Paging | None = None
    followups: list[Followup] = field(default_factory=list)
