"""The README's command table is the one generated from the registry (regenerate it when a command changes)."""

from __future__ import annotations

from pathlib import Path

from bot.commands import COMMANDS
from bot.commands.guide import command_table_markdown

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_command_table_matches_the_registry() -> None:
    text = README.read_text()
    block = text.split("<!-- commands:start -->\n")[1].split("\n<!-- commands:end -->")[0]
    assert block == command_table_markdown(COMMANDS), (
        "README command table is stale; regenerate with: python -c 'from bot.commands import COMMANDS; "
        "from bot.commands.guide import command_table_markdown as t; print(t(COMMANDS))'"
    )
    for command in COMMANDS:
        assert f"`{command.name}" in block
