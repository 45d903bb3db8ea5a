"""The command set works unchanged with SUTRO_DATABASE_URL pointing at PostgreSQL: run, score, leaderboard, runs
through the real CLI on a throwaway cluster (skipped when the server binaries are absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "ir"

pytestmark = pytest.mark.slow


def test_run_score_and_leaderboard_on_postgres(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SUTRO_DATABASE_URL", postgres_url)
    runner = CliRunner()
    ran = runner.invoke(main, ["run", "gf2", "n=20", "--json"])
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.output)["found"] == json.loads(ran.output)["secret"]
    # the published baseline with a blank line: the member's own program (the group's own would be credited to its
    # published author, off the board)
    program = tmp_path / "matmul__baseline_4x4.ir"
    program.write_text((REFERENCE / "matmul__baseline_4x4.ir").read_text().replace("\n", "\n\n", 1))
    scored = runner.invoke(main, ["score", str(program), "--json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output)["cost"] == 1316  # expected.tsv
    board = runner.invoke(main, ["leaderboard", "matmul_4x4", "--json"])
    assert board.exit_code == 0, board.output
    rows = json.loads(board.output)["boards"][0]["rows"]
    assert [(r["rank"], r["value"]) for r in rows] == [(1, 1316.0)]
    # the rows really are in PostgreSQL
    from alembic.script import ScriptDirectory
    from sqlalchemy import text

    from storage.database import make_engine
    from storage.migrate import alembic_config

    engine = make_engine(postgres_url)
    heads = ScriptDirectory.from_config(alembic_config(engine)).get_heads()
    with engine.connect() as conn:
        stored = text("select count(*) from runs where subject = 'matmul__baseline_4x4.ir'")
        assert conn.execute(stored).scalar_one() == 1
        assert conn.execute(text("select version_num from alembic_version")).scalars().all() == heads
    engine.dispose()
