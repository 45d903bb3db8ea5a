"""A registered command: the one record that drives dispatch, ``/help``, the Telegram menu and the README table.

A leaf module: the job board and executors carry :class:`Command` values to worker processes without importing
the command registry (``bot.commands``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.reply import Reply

Handler = Callable[..., Reply]
"""``(AppContext, Invocation) -> Reply`` (spelt out in ``bot.commands.base``; this leaf does not import the
context, which the job board's users import)."""
StopHandler = Callable[..., str]
"""``(AppContext, Invocation, submitted_at) -> str``: called in the bot process when a queued job of the command
ended without answering (cancelled, past its time limit, its worker died), with the job's submission time (aware
UTC): undo what the killed run left half-done and return a line for the member ("" for none)."""


MANY_FILES_FLAG = "many_files"
"""Set by the CLI on an invocation whose attachments are a set of files (several paths or a directory)."""


@dataclass(frozen=True)
class Command:
    """A registered command: the single source for dispatch, ``/help``, the Telegram menu and the README table.

    name: 1–32 lowercase letters, digits or underscores (Telegram's rule).
    summary: one line, ≤ 256 characters (Telegram's limit for menu descriptions).
    usage: argument synopsis shown after the name, e.g. ``PATH [--challenge NAME]``.
    value_options: options that take a value (``--challenge NAME`` or ``challenge=NAME``), name -> help.
    flag_options: boolean flags (``--force``), name -> help.
    file_arg: the first positional argument names a file (``-`` = stdin) that the CLI reads into an attachment.
    many_files: with ``file_arg``, the CLI also takes several paths or a directory (its ``*.ir`` files, in name order),
        reads every one into an attachment and sets the flag :data:`MANY_FILES_FLAG` (``score DIR``).
    file_option: a value option that may name a file instead (``from=PATH``): the CLI reads an existing path into an
        attachment and drops the option; in the chat the code or document sent with the command is the attachment.
    admin_only: refused for non-admin callers.
    cli / telegram: whether the command exists on that transport.
    background: in the chat, run as a job in a worker process (acknowledged with its queue position, progress
        edits, cancellable). False for instant commands that read the bot's own state (``/help``, ``/queue``).
    on_stopped: see :data:`StopHandler`; None when a stopped job leaves nothing to undo.
    free_text: the words after the command are prose (``log``, ``idea``): only its declared ``--options`` are
        taken out; ``key=value`` words, quotes and new lines stay in the text as typed.
    needs_assistant: calls the Anthropic API, so its job runs on the bot's host (where the key is), never on a
        Dask worker.
    shared_answer: the answer depends on the request alone, not on who asked (a run is stored once and a repeat
        returns it): an identical request from another member while its job is queued or running attaches to that
        job and both get the answer. False: only the same member's repeats attach (a note or an idea is the
        asker's own). See :func:`bot.executors.keys.job_key`.
    precheck: ``(AppContext, Invocation) -> None`` run in the bot process before a background command is queued:
        raises the usage errors found without running anything (an unknown method, a bad key), so a typo is
        answered at once instead of costing a queued job and its messages.
    """

    name: str
    summary: str
    usage: str
    handler: Handler
    details: str = ""
    value_options: dict[str, str] = field(default_factory=dict)
    flag_options: dict[str, str] = field(default_factory=dict)
    file_arg: bool = False
    many_files: bool = False
    file_option: str = ""
    admin_only: bool = False
    cli: bool = True
    telegram: bool = True
    background: bool = True
    on_stopped: StopHandler | None = None
    free_text: bool = False
    needs_assistant: bool = False
    shared_answer: bool = False
    precheck: Callable[..., None] | None = None
