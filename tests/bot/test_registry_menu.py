"""The registry drives the Telegram menu and /help: Telegram's limits hold, and bad entries are caught."""

from __future__ import annotations

import pytest

from bot.commands import COMMANDS, RUN_METHODS, Deferred
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


@pytest.mark.slow
def test_every_registered_handler_resolves_to_a_function_of_its_module() -> None:
    # The registry names handlers by module and attribute (imported on first use): a typo must fail here,
    # not at a member's first /command.
    for command in COMMANDS:
        for deferred in (command.handler, command.on_stopped):
            if deferred is None:
                continue
            assert isinstance(deferred, Deferred), command.name
            assert callable(deferred.resolve()), f"{command.name}: {deferred.module}.{deferred.name}"


def test_run_help_names_exactly_the_registered_methods() -> None:
    from engine.methods import METHODS

    assert list(RUN_METHODS) == list(METHODS.names())
