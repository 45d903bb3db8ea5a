"""Long boards on a phone: the leaderboard and the record history 20 rows a page with a line naming the next page,
the leaderboard's table within 40 characters, and a bad page number refused in one line.

Oracle: 45 stored results with known values (member k scores 1000 + k), so the rows of each page are known.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.recording import store_result
from bot.dispatch import execute
from bot.settings import Settings
from bot.telegram_app.render import PHONE_WIDTH, table_text
from engine.result import RunResult
from storage.database import DATABASE_FILE
from tests.conftest import copy_migrated_database
from tools.run_request import NormalisedRequest

ANN = Caller(name="ann")


@pytest.fixture(scope="module")
def stored_board(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Path:
    """A database holding the 45 results, stored once for the module (its tests only read them)."""
    data_dir = tmp_path_factory.mktemp("board")
    copy_migrated_database(migrated_database, data_dir / DATABASE_FILE)
    context = AppContext(settings=Settings(_env_file=None, data_dir=data_dir))  # type: ignore[call-arg]
    try:
        for k in range(45):  # m0 scores 1000 (best) … m44 scores 1044; stored best-last, so each is a new record
            result = RunResult(
                challenge="matmul_1x1", subject="p", kind="ir", ok=True, metrics={"dally@1": 1044.0 - k}, seeds=[0]
            )
            request = NormalisedRequest("matmul_1x1", "ir", "p", {}, f"prog {k}", ("dally@1",))
            store_result(context, result, request=request, member=f"m{44 - k}")
    finally:
        context.close()
    return data_dir / DATABASE_FILE


@pytest.fixture
def ctx(tmp_path: Path, stored_board: Path) -> AppContext:
    """A context on a copy of the stored board (SQLite's backup API: a consistent copy, WAL included)."""
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    with closing(sqlite3.connect(stored_board)) as source, closing(sqlite3.connect(data_dir / DATABASE_FILE)) as target:
        source.backup(target)
    return AppContext(settings=Settings(_env_file=None, data_dir=data_dir))  # type: ignore[call-arg]


def call(ctx: AppContext, name: str, *args: str, **options: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), options=options, caller=ANN))


def test_the_leaderboard_pages_twenty_rows_and_names_the_next_page(ctx: AppContext) -> None:
    first, status = call(ctx, "leaderboard", "matmul_1x1")
    assert status == 0 and first.data is not None
    table = first.tables[0]
    assert [r[1] for r in table.rows] == [f"m{k}" for k in range(20)] and table.title.endswith("(1/3)")
    assert "page 1 of 3 — more: leaderboard matmul_1x1 page=2" in first.text.splitlines()
    assert len(first.data["boards"][0]["rows"]) == 45  # --json has every row
    assert all(len(line) <= PHONE_WIDTH for line in table_text(table).splitlines())
    last, _ = call(ctx, "leaderboard", "matmul_1x1", page="3")
    assert [r[0] for r in last.tables[0].rows] == [str(k) for k in range(41, 46)]
    assert "page 3 of 3 — first page: leaderboard matmul_1x1 page=1" in last.text
    past, _ = call(ctx, "leaderboard", "matmul_1x1", page="9")
    assert past.tables[0].rows == last.tables[0].rows


def test_the_record_history_pages_too(ctx: AppContext) -> None:
    reply, _ = call(ctx, "records", "matmul_1x1", page="2")
    assert reply.tables[0].title.endswith("(2/3)") and len(reply.tables[0].rows) == 20
    assert "page 2 of 3 — more: records matmul_1x1 page=3" in reply.text


@pytest.mark.parametrize("page", ["0", "two", "-1"])
def test_a_bad_page_is_one_line(ctx: AppContext, page: str) -> None:
    reply, status = call(ctx, "leaderboard", "matmul_1x1", page=page)
    assert status == 2 and reply.text.startswith(f"page={page} is not a page number") and "\n" not in reply.text
