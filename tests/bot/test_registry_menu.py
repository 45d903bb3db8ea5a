"""The registry drives the Telegram menu and /help: Telegram's limits hold, and bad entries are caught."""

from __future__ import annotations

import pytest

from bot.commands import COMMANDS
from bot.commands.base import Command, Reply
from bot.telegram_app.menu import MenuError, menu_entries


def _noop(ctx: object, inv: object) -> Reply:
    return Reply()


def test_registry_fits_telegrams_menu_rules() -> None:
    entries = menu_entries(COMMANDS)
    assert [name for name, _ in entries] == [c.name for c in COMMANDS if c.telegram]
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)
    for name in ("start", "help", "queue", "cancel", "status"):
        assert name in dict(entries)
    assert "serve" not in dict(entries)


@pytest.mark.parametrize(
    "command",
    [
        Command(name="Run", summary="x", usage="", handler=_noop),
        Command(name="a" * 33, summary="x", usage="", handler=_noop),
        Command(name="run-it", summary="x", usage="", handler=_noop),
        Command(name="ok", summary="x" * 257, usage="", handler=_noop),
        Command(name="ok", summary="", usage="", handler=_noop),
    ],
)
def test_menu_rejects_what_telegram_would(command: Command) -> None:
    with pytest.raises(MenuError):
        menu_entries([command])


def test_menu_holds_at_most_100_commands() -> None:
    many = [Command(name=f"c{i}", summary="x", usage="", handler=_noop) for i in range(101)]
    assert len(menu_entries(many[:100])) == 100
    with pytest.raises(MenuError):
        menu_entries(many)
