"""Ctrl-C during ``db move`` answers one line pointing at ``--resume``, and ``--resume`` then finishes the move with
every table equal; and a ``postgres://`` URL is PostgreSQL (through psycopg 3), as operators paste it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.app import build_context
from bot.cli import main
from bot.commands.base import Invocation
from bot.commands.db import database
from bot.settings import Settings
from storage.database import make_engine, with_driver


def test_ctrl_c_during_the_copy_hints_resume_and_resume_finishes(tmp_path: Path) -> None:
    runner = CliRunner()
    for i in range(3):
        assert runner.invoke(main, ["log", f"note {i}"]).exit_code == 0
    ctx = build_context(Settings())
    target = f"sqlite:///{tmp_path / 'target.db'}"
    copies: list[float | None] = []

    def ctrl_c_while_copying(line: str, fraction: float | None = None) -> None:
        if line.startswith("copying"):
            copies.append(fraction)
            if len(copies) == 1:  # a batch is committed, the move is under way: the operator presses Ctrl-C
                raise KeyboardInterrupt

    try:
        stopped = database(
            ctx, Invocation(command="db", args=["move"], options={"to": target}, progress=ctrl_c_while_copying)
        )
        assert not stopped.ok and "\n" not in stopped.text
        assert "interrupted" in stopped.text and "--resume" in stopped.text
        finished = database(ctx, Invocation(command="db", args=["move"], options={"to": target}, flags={"resume"}))
    finally:
        ctx.close()
    assert finished.ok, finished.text
    assert finished.data is not None and finished.data["ok"] is True


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://sutro:pw@db:5432/sutro", "postgresql+psycopg://sutro:pw@db:5432/sutro"),
        ("postgresql://sutro@db/sutro", "postgresql+psycopg://sutro@db/sutro"),
        ("postgresql+psycopg://sutro@db/sutro", "postgresql+psycopg://sutro@db/sutro"),
        ("sqlite:///x.db", "sqlite:///x.db"),
    ],
)
def test_short_postgres_schemes_get_the_installed_driver(given: str, used: str) -> None:
    assert with_driver(given) == used


def test_a_postgres_url_makes_a_psycopg_engine() -> None:
    pytest.importorskip("psycopg")
    engine = make_engine("postgres://sutro:pw@127.0.0.1:1/sutro")  # no connection is made here
    try:
        assert (engine.dialect.name, engine.dialect.driver) == ("postgresql", "psycopg")
    finally:
        engine.dispose()
