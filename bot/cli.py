"""The ``sutro`` terminal command: every registered command, parsed and rendered for a terminal.

Each subcommand is generated from the command registry; arguments pass through the shared token grammar
(``bot.commands.tokens``), so ``sutro run local_update n=20`` and ``/run local_update n=20`` mean the same.

Importing this module builds only the click commands from the registry's light table: the application context,
rich and each command's module are imported when a command actually runs, so ``sutro --version`` and
``sutro --help`` cost little more than starting Python (tests/bot/test_fast_start.py, bench/bench_startup.py).
"""

from __future__ import annotations

import gc
import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bot.command import MANY_FILES_FLAG
from bot.commands import COMMANDS
from bot.commands.base import Attachment, Command, Invocation, Reply, UsageError
from bot.commands.tokens import parse_tokens
from engine.blas_threads import ONE_BLAS_THREAD
from engine.compiled import StaleBuild
from engine.version import __version__

if TYPE_CHECKING:
    from rich.console import Console

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Largest file the CLI reads for a command (a 50 MB IR file still gets a proper answer)."""


def _read_input(path: str) -> Attachment:
    """Read a file named on the command line (``-`` = stdin), capped at :data:`MAX_INPUT_BYTES`."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        name = "stdin"
    else:
        p = Path(path)
        if not p.exists():
            raise UsageError(f"no such file: {path}", hint="give a path to an existing file, or - for stdin")
        if p.is_dir():
            raise UsageError(f"{path} is a directory", hint="give a path to a file")
        with p.open("rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
        name = p.name
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{path} is larger than {MAX_INPUT_BYTES // 2**20} MiB", hint="submit a smaller file")
    return Attachment(name=name, content=data)


def _read_many(paths: list[str]) -> list[Attachment]:
    """Every file named, a directory standing for its ``*.ir`` files in name order (``score DIR``)."""
    files: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            found = sorted(str(f) for f in p.iterdir() if f.suffix == ".ir" and f.is_file())
            if not found:
                raise UsageError(f"{path} holds no .ir files", hint="give a directory of IR programs (*.ir)")
            files.extend(found)
        else:
            files.append(path)
    return [Attachment(name=f, content=_read_input(f).content) for f in files]


def render_reply(console: Console, reply: Reply) -> None:
    """A reply as the terminal shows it: the text, each table as a rich table, each follow-up as the command to type."""
    from rich.table import Table as RichTable

    if reply.text:
        console.print(reply.text, markup=False, highlight=False)
    for table in reply.tables:
        rich_table = RichTable(title=table.title or None)
        for header in table.headers:
            rich_table.add_column(header)
        for row in table.rows:
            rich_table.add_row(*row)
        console.print(rich_table)
    for followup in reply.followups:  # the chat's buttons (details, full text), as the commands to type
        console.print(f"{followup.label}: sutro {followup.request}", markup=False, highlight=False)


def save_files(reply: Reply, directory: Path) -> list[Path]:
    """Write the reply's files (charts, long outputs) into ``directory``; their paths, in order. A file's name is
    reduced to its last path component, so no name can point outside ``directory``."""
    if not reply.files:
        return []
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for out in reply.files:
        path = directory / (Path(out.name).name or "file")
        path.write_bytes(out.content)
        paths.append(path)
    return paths


def _execute_with_progress(
    command: Command, inv: Invocation, console: Console, *, show: bool
) -> tuple[Reply, int, list[Path]]:
    """Run the command; on a terminal, a spinner on stderr shows its progress lines (and percent when known). The
    reply's files are written to ``<data dir>/files`` (their paths come back third)."""
    if "bot.app" not in sys.modules:
        # First command of this process: the application's modules live as long as the process, so they are
        # imported with the cyclic collector paused (an import makes no garbage worth a pass) and then frozen, so
        # that no later full collection walks their objects again.
        gc.disable()
        try:
            import bot.app  # noqa: F401
        finally:
            gc.freeze()
            gc.enable()
    from bot.app import build_context
    from bot.dispatch import execute

    ctx = build_context()
    try:
        if not show:
            reply, status = execute(ctx, command, inv)
        else:
            with console.status(f"{command.name} …") as spinner:

                def progress(message: str, fraction: float | None = None) -> None:
                    spinner.update(message + (f" ({fraction:.0%})" if fraction is not None else ""))

                inv.progress = progress
                reply, status = execute(ctx, command, inv)
        return reply, status, save_files(reply, ctx.settings.data_dir / "files")
    finally:
        ctx.close()


LOG_LEVEL_VARIABLE = "SUTRO_LOG_LEVEL"
"""Environment variable naming the operator log's level (DEBUG, INFO, WARNING …; default WARNING). INFO shows, for
example, the details behind a one-sentence start-up failure of ``sutro serve`` (logger ``sutro.startup``)."""


def _setup_logging() -> None:
    """Operator log on stderr at WARNING, or $SUTRO_LOG_LEVEL (tracebacks of incidents); httpx kept quiet so no
    token leaks."""
    chosen = os.environ.get(LOG_LEVEL_VARIABLE, "").strip().upper()
    level = logging.getLevelName(chosen) if chosen else logging.WARNING
    logging.basicConfig(
        level=level if isinstance(level, int) else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)


def _make_click_command(command: Command) -> click.Command:
    option_help = "".join(f"\n\n  --{k.replace('_', '-')} VALUE   {v}" for k, v in command.value_options.items())
    flag_help = "".join(f"\n\n  --{k.replace('_', '-')}   {v}" for k, v in command.flag_options.items())
    help_text = f"{command.summary}\n\nUsage: sutro {command.name} {command.usage}"
    if command.details:
        help_text += f"\n\n{command.details}"
    help_text += option_help + flag_help + "\n\n  --json   print one JSON object instead of a table"

    @click.pass_context
    def callback(click_ctx: click.Context, tokens: tuple[str, ...]) -> None:
        from rich.console import Console

        console = Console()
        err_console = Console(stderr=True)
        as_json = False
        try:
            inv = parse_tokens(command, list(tokens), extra_flags=frozenset({"json"}))
            as_json = "json" in inv.flags
            inv.flags.discard("json")
            if command.file_arg:
                if not inv.args:
                    raise UsageError("missing file argument", hint=f"usage: sutro {command.name} {command.usage}")
                if command.many_files and (len(inv.args) > 1 or Path(inv.args[0]).is_dir()):
                    inv.attachments.extend(_read_many(inv.args))
                    inv.flags.add(MANY_FILES_FLAG)
                else:
                    inv.attachments.append(_read_input(inv.args[0]))
            named = inv.options.get(command.file_option) if command.file_option else None
            if named is not None and (named == "-" or Path(named).is_file()):
                inv.attachments.append(_read_input(named))
                del inv.options[command.file_option]
            show = not as_json and err_console.is_terminal
            reply, status, saved = _execute_with_progress(command, inv, err_console, show=show)
        except UsageError as err:
            reply, status, saved = (
                Reply(text=err.one_line(), ok=False, data={"ok": False, "error": err.one_line()}),
                2,
                [],
            )
        if as_json:
            data = reply.data if reply.data is not None else {"ok": reply.ok, "text": reply.text}
            click.echo(json.dumps({**data, "files": [str(p) for p in saved]} if saved else data))
        else:
            out = console if status == 0 else err_console
            render_reply(out, reply)
            for path in saved:
                out.print(f"wrote {path}", markup=False, highlight=False)
        click_ctx.exit(status)

    return click.Command(
        name=command.name,
        callback=callback,
        params=[click.Argument(["tokens"], nargs=-1, type=click.UNPROCESSED)],
        help=help_text,
        short_help=command.summary,
        context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
        add_help_option=True,
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sutro")
def main() -> None:
    """Sutro research assistant: score IR programs, run instrumented experiments, keep the sprint log."""
    _setup_logging()


for _command in COMMANDS:
    if _command.cli:
        main.add_command(_make_click_command(_command))


def run() -> None:
    """The ``sutro`` console script and ``python -m bot``: :func:`main`, then the process ends without the
    collector walking every object once more (with the application loaded, that pass is about a tenth of a short
    command's CPU; the memory goes back with the process).

    BLAS is pinned to one thread before anything loads numpy (a value already set is kept): the command's
    parallelism is its seed workers and jobs, which then start as forks of this process (engine/forked_child.py),
    and one thread is also the faster choice for the engine's small traced arrays (engine/blas_threads.py)."""
    for name, value in ONE_BLAS_THREAD.items():
        os.environ.setdefault(name, value)
    try:
        main()
    except StaleBuild as err:  # a compiled extension older than its .pyx: the tree's code is not what would run
        click.echo(f"sutro: {err.one_line()}", err=True)
        sys.exit(1)
    finally:
        gc.freeze()
