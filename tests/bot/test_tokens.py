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


PROSE = Command(
    name="note",
    summary="demo",
    usage="TEXT [--revise ID]",
    handler=lambda ctx, inv: Reply(),
    value_options={"revise": "which one"},
    flag_options={"yes": "at once"},
    free_text=True,
)


def test_free_text_keeps_key_value_words_and_unknown_dashes_in_place() -> None:
    inv = parse_tokens(PROSE, ["tried", "lr=0.1", "on", "local_update", "--force", "--yes", "--revise", "4"])
    assert inv.args == ["tried", "lr=0.1", "on", "local_update", "--force"]
    assert inv.options == {"revise": "4"} and inv.flags == {"yes"}


def test_a_chat_message_for_free_text_is_kept_exactly_as_typed() -> None:
    from bot.commands.tokens import parse_free_text

    text = 'tried lr=0.1 --revise 7 on local_update: it didn\'t help\nsecond line "quoted"  --yes'
    inv = parse_free_text(PROSE, text)
    assert inv.options == {"revise": "7"} and inv.flags == {"yes"}
    assert inv.args == ['tried lr=0.1 on local_update: it didn\'t help\nsecond line "quoted"']
    assert parse_free_text(PROSE, "--revise=3 faster").options == {"revise": "3"}
    assert parse_free_text(PROSE, "   ").args == []
    with pytest.raises(UsageError, match="--revise needs a value"):
        parse_free_text(PROSE, "make it faster --revise")
