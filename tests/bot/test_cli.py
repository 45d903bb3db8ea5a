"""The ``sutro`` command line: help, version, the registry-generated subcommands, one-line errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bot.cli import main
from bot.commands import COMMANDS
from engine.version import __version__


def test_help_lists_every_registered_command() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in COMMANDS:
        if command.cli:
            assert command.name in result.output


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_unknown_option_is_one_line_with_hint() -> None:
    result = CliRunner().invoke(main, ["challenges", "--bogus"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "unknown option --bogus" in lines[0]
    assert "Traceback" not in result.output


def test_challenges_json_is_one_object() -> None:
    result = CliRunner().invoke(main, ["challenges", "--json"])
    assert result.exit_code == 0
    payload = json.loads(result.output)
    assert isinstance(payload["challenges"], list)


def test_queue_commands_are_chat_only_and_status_reports_versions() -> None:
    result = CliRunner().invoke(main, ["queue"])
    assert result.exit_code == 2  # click: no such command in the terminal
    result = CliRunner().invoke(main, ["status", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["version"] == __version__


def test_serve_without_a_token_says_how_to_get_one() -> None:
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert "@BotFather" in result.output and "SUTRO_TELEGRAM_BOT_TOKEN" in result.output
    assert "Traceback" not in result.output
