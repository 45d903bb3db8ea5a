"""``start`` and ``help [command]``: what the bot does and how to call each command, from the registry."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from bot.commands import COMMANDS
from bot.commands.base import Command, Invocation, Reply, Table
from engine.errors import UnknownName

if TYPE_CHECKING:
    from bot.context import AppContext

INTRO = (
    "Sutro research assistant: scores IR programs and experiments on the group's data-movement energy metrics "
    "(Dally IR cost, ByteDMD, reuse distance / DMC), keeps the sprint log and the leaderboards."
)


def _chat_commands() -> list[Command]:
    return [c for c in COMMANDS if c.telegram]


def unknown_command(name: str, known: list[str]) -> UnknownName:
    """The "did you mean" error for a command name nobody registered."""
    return UnknownName("command", name, difflib.get_close_matches(name, known, n=2), known)


def usage_line(command: Command) -> str:
    """``/run METHOD [key=value …]``."""
    return f"/{command.name} {command.usage}".rstrip()


def command_table_markdown(commands: list[Command] | tuple[Command, ...]) -> str:
    """The README's command table: every command with where it exists (chat, terminal) and what it does."""
    lines = ["| command | where | what it does |", "|---|---|---|"]
    for c in commands:
        where = " + ".join(w for w, on in (("chat", c.telegram), ("terminal", c.cli)) if on)
        admin = " (admins only)" if c.admin_only else ""
        synopsis = f"{c.name} {c.usage}".strip().replace("|", "\\|")  # a bare | would split the table cell
        lines.append(f"| `{synopsis}` | {where} | {c.summary}{admin} |")
    return "\n".join(lines)


def help_reply(ctx: AppContext, inv: Invocation) -> Reply:
    commands = _chat_commands()
    if inv.args:
        name = inv.args[0].lstrip("/").lower()
        command = next((c for c in commands if c.name == name), None)
        if command is None:
            raise unknown_command(name, [c.name for c in commands])
        lines = [usage_line(command), command.summary]
        if command.details:
            lines.append(command.details)
        lines += [f"--{k.replace('_', '-')} VALUE: {v}" for k, v in command.value_options.items()]
        lines += [f"--{k.replace('_', '-')}: {v}" for k, v in command.flag_options.items()]
        if command.admin_only:
            lines.append("admins only")
        return Reply(text="\n".join(lines), data={"command": command.name, "usage": usage_line(command)})
    rows = [[usage_line(c), c.summary + (" (admins)" if c.admin_only else "")] for c in commands]
    return Reply(
        text="Commands (/help NAME for details; paste a def solve(...) block or attach a .py/.ir file to score it):",
        tables=[Table(headers=["command", "what"], rows=rows)],
        data={"commands": [c.name for c in commands]},
    )


def start_reply(ctx: AppContext, inv: Invocation) -> Reply:
    return Reply(text=f"{INTRO}\nTry /challenges, or /help for every command.", data={"intro": INTRO})
