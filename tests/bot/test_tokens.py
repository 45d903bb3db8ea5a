"""The shared token grammar used by both the CLI and Telegram."""

from __future__ import annotations

import pytest

from bot.commands.base import Command, Reply, UsageError
from bot.commands.tokens import parse_tokens

CMD = Command(
    name="demo",
    summary="demo",
    usage="X [--challenge NAME]",
    handler=lambda ctx, inv: Reply(),
    value_options={"challenge": "which challenge"},
    flag_options={"force": "ignore the stored result"},
)


def test_positionals_options_and_flags() -> None:
    inv = parse_tokens(CMD, ["local_update", "n=20", "--challenge", "matmul_4x4", "--force", "k=3"])
    assert inv.args == ["local_update"]
    assert inv.options == {"n": "20", "challenge": "matmul_4x4", "k": "3"}
    assert inv.flags == {"force"}


def test_equals_form_and_stdin_dash() -> None:
    inv = parse_tokens(CMD, ["-", "--challenge=symmetry_six"])
    assert inv.args == ["-"]
    assert inv.options == {"challenge": "symmetry_six"}


def test_missing_value_and_unknown_option() -> None:
    with pytest.raises(UsageError, match="needs a value"):
        parse_tokens(CMD, ["--challenge"])
    with pytest.raises(UsageError, match="unknown option --nope"):
        parse_tokens(CMD, ["--nope"])
