"""``serve``: run the Telegram bot (long polling) until SIGINT/SIGTERM; unfinished jobs are reported, not lost.

The bot is the Telegram edge (``bot.telegram_app``), above this layer: it is started through
``AppContext.serve_telegram``, which the composition root (``bot.app``) provides.

Before that, the parts the bot cannot run without are checked in order — the data directory (created, and
writable), then the database (reached, logged into, migrated) — and the first that fails stops the start with one
sentence and its exit status (:mod:`bot.startup`); the Telegram edge does the same for the network and the token.
"""

from __future__ import annotations

import getpass
import tempfile
from pathlib import Path

from bot.commands.base import Invocation, Reply, UsageError
from bot.context import AppContext
from bot.core.explore_journal import close_interrupted
from bot.core.store import StorageError
from bot.startup import Part, StartupRefused


def serve(ctx: AppContext, inv: Invocation) -> Reply:
    if ctx.serve_telegram is None:  # the Telegram edge sits above the commands: the composition root hands it in
        raise UsageError("this process cannot start the bot", hint="run `sutro serve`")
    check_data_dir(ctx.settings.data_dir)
    check_database(ctx)
    close_interrupted(ctx)  # /explore loops a previous process left running
    ctx.serve_telegram(ctx)
    return Reply(text="bot stopped", data={"stopped": True})


def check_data_dir(path: Path) -> None:
    """Create ``path`` (0700) if missing and prove it writable; a :class:`StartupRefused` saying why not."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".sutro-write-check-"):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise StartupRefused(
            Part.DATA_DIR,
            f"the data directory {path} cannot be used ({why}) — set SUTRO_DATA_DIR to a directory that user "
            f"{_user()} can create and write, or fix its permissions",
        ) from exc


def check_database(ctx: AppContext) -> None:
    """Open the database (reached, logged into, migrated to head); a :class:`StartupRefused` saying why not."""
    try:
        ctx.sessions()
    except StorageError as exc:
        raise StartupRefused(Part.DATABASE, exc.one_line()) from exc
    except OSError as exc:  # e.g. the SQLite file is a directory, or the disk is full
        raise StartupRefused(
            Part.DATABASE,
            f"the database in {ctx.settings.data_dir} cannot be opened ({exc.strerror or type(exc).__name__}) — "
            "check the file sutro.db there, or set SUTRO_DATABASE_URL",
        ) from exc


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "this process's user"
