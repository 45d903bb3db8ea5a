"""``sutro db move`` through the real CLI: a group's SQLite data moves to PostgreSQL, the commands then write new
runs and notes there (fresh ids: the sequences were reset), and it moves back; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main


def _ok(runner: CliRunner, *args: str) -> dict[str, object]:
    result = runner.invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output))


@pytest.mark.slow
def test_move_to_postgres_then_write_there_then_move_back(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    _ok(runner, "run", "gf2", "n=20")
    _ok(runner, "log", "before the move")
    moved = _ok(runner, "db", "move", "--to", postgres_url)
    tables = moved["tables"]
    assert isinstance(tables, dict) and moved["ok"] is True
    # gf2 and its sgd baseline (the system's: no entry of its own); the run's entry + the note
    assert tables["runs"]["rows"] == 2 and tables["sprint_log_entries"]["rows"] == 2
    assert all(t["matches"] for t in tables.values())
    again = runner.invoke(main, ["db", "move", "--to", postgres_url, "--json"])
    error = json.loads(again.output)["error"]
    assert again.exit_code == 2 and "already holds rows" in error and "--force" in error and "\n" not in error

    monkeypatch.setenv("SUTRO_DATABASE_URL", postgres_url)
    note = _ok(runner, "log", "first note on PostgreSQL")
    assert note["entry"] == 3
    _ok(runner, "run", "gf2", "n=24")
    runs = _ok(runner, "runs")
    assert [r["id"] for r in runs["runs"]] == [4, 3, 2, 1]  # type: ignore[index]
    back = tmp_path / "back.db"
    moved_back = _ok(runner, "db", "move", "--to", f"sqlite:///{back}")
    assert moved_back["tables"]["runs"]["rows"] == 4  # type: ignore[index]
    assert moved_back["tables"]["sprint_log_entries"]["rows"] == 4  # type: ignore[index]


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    for args, expected in [
        (["db", "move"], "db move needs the target database"),
        (["db", "copy", "--to", "sqlite:///x.db"], "unknown db action copy"),
        (["db", "move", "--to", "nonsense://"], "cannot use database URL"),
        (["db", "move", "--to", "postgresql+psycopg://u:pw@127.0.0.1:1/x?connect_timeout=2"], "cannot reach database"),
    ]:
        result = runner.invoke(main, [*args, "--json"])
        assert result.exit_code == 2, (args, result.output)
        error = json.loads(result.output)["error"]
        assert expected in error and "\n" not in error and "pw@" not in result.output, error
