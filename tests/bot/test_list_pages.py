"""``runs`` and ``config list`` on a phone: a page of at most 25 lines at 40 characters, ``page=N`` from the terminal
and the chat alike, a line naming the next page, typed paging for the chat's buttons, and a bad page refused in one
line.

Oracle: 45 stored runs with known ids, owners and values (run k+1 is stored k-th and scores 1044 − k), so the rows of
each page are known by hand; for ``config list`` the pages laid end to end must be the whole schema in order.
"""

from __future__ import annotations

import html
import math
import re
import shutil
from pathlib import Path

import pytest

from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.recording import store_result
from bot.dispatch import execute
from bot.settings import Settings
from bot.telegram_app.render import PHONE_WIDTH, render, table_text
from engine.result import RunResult
from tools.run_request import NormalisedRequest

ANN = Caller(name="ann")
ADMIN = Caller(name="root", user_id=1, is_admin=True)
SCREEN_LINES = 25


def owner(k: int) -> str:
    """Who stored the k-th run: ann every third (k = 0, 3, …, 42: 15 runs), else m<k>."""
    return "ann" if k % 3 == 0 else f"m{k}"


@pytest.fixture(scope="module")
def stored_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding the 45 runs, stored once for the module (each test gets a copy)."""
    data = tmp_path_factory.mktemp("pages") / "data"
    context = AppContext(settings=Settings(_env_file=None, data_dir=data))  # type: ignore[call-arg]
    for k in range(45):
        result = RunResult(
            challenge="matmul_1x1", subject="p", kind="ir", ok=True, metrics={"dally@1": 1044.0 - k}, seeds=[0]
        )
        request = NormalisedRequest("matmul_1x1", "ir", "p", {}, f"prog {k}", ("dally@1",))
        store_result(context, result, request=request, member=owner(k))
    context.close()
    return data


@pytest.fixture
def ctx(tmp_path: Path, stored_runs: Path) -> AppContext:
    shutil.copytree(stored_runs, tmp_path / "data")
    return AppContext(settings=Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]


def call(ctx: AppContext, name: str, *args: str, caller: Caller = ANN, **options: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), options=options, caller=caller))


def screen_lines(reply: Reply) -> int:
    """Lines the chat message takes on a phone 40 characters wide (a longer line wraps)."""
    shown = html.unescape(re.sub(r"<[^>]+>", "", render(reply).html))
    return sum(max(1, math.ceil(len(line) / PHONE_WIDTH)) for line in shown.splitlines())


def test_runs_pages_twenty_newest_first(ctx: AppContext) -> None:
    first, status = call(ctx, "runs")
    assert status == 0 and first.data is not None
    assert [r[0] for r in first.tables[0].rows] == [f"#{i}" for i in range(45, 25, -1)]
    assert first.tables[0].rows[0] == ["#45", "m44", "p", "1,000"]  # stored last, k = 44: 1044 − 44
    assert first.text.splitlines() == ["runs 1–20 of 45, newest first", "page 1 of 3 — more: runs page=2"]
    assert (first.data["page"], first.data["pages"], first.data["total"]) == (1, 3, 45)
    assert first.paging is not None and (first.paging.number, first.paging.pages) == (1, 3)
    assert first.paging.request(2) == "runs page=2"
    last, _ = call(ctx, "runs", page="3")
    assert [r[0] for r in last.tables[0].rows] == ["#5", "#4", "#3", "#2", "#1"]
    assert last.tables[0].rows[-1] == ["#1", "ann", "p", "1,044"]
    assert "page 3 of 3 — first page: runs page=1" in last.text
    past, _ = call(ctx, "runs", page="7")  # as the boards do: past the end is the last page
    assert past.tables[0].rows == last.tables[0].rows


def test_runs_mine_pages_the_callers_runs(ctx: AppContext) -> None:
    reply, status = call(ctx, "runs", "mine")
    assert status == 0 and reply.data is not None
    assert [r[0] for r in reply.tables[0].rows] == [f"#{k + 1}" for k in range(42, -1, -3)]  # 15 runs: one page
    assert reply.paging is None and reply.text == "runs 1–15 of 15, newest first (by ann)"


@pytest.mark.slow  # 0.5 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_every_page_fits_a_phone_screen(ctx: AppContext) -> None:
    for runs_page in ("1", "2", "3"):
        reply, _ = call(ctx, "runs", page=runs_page)
        assert all(len(line) <= PHONE_WIDTH for line in table_text(reply.tables[0]).splitlines())
        assert "<pre>" in render(reply).html  # the grid, not one card per row
        assert screen_lines(reply) <= SCREEN_LINES
    pages = call(ctx, "config", "list", caller=ADMIN)[0].data["pages"]  # type: ignore[index]
    for page in range(1, pages + 1):
        reply, _ = call(ctx, "config", "list", caller=ADMIN, page=str(page))
        assert screen_lines(reply) <= SCREEN_LINES, render(reply).html


def test_long_names_are_cut_to_keep_a_row_within_forty_characters(ctx: AppContext) -> None:
    result = RunResult(
        challenge="matmul_1x1", subject="forward_forward", kind="ir", ok=True, metrics={"dally@1": 123456789.0}
    )
    request = NormalisedRequest("matmul_1x1", "ir", "forward_forward", {}, "prog long", ("dally@1",))
    store_result(ctx, result, request=request, member="a_very_long_telegram_name")
    reply, _ = call(ctx, "runs")
    assert reply.tables[0].rows[0] == ["#46", "a_very_…", "forward_for…", "123,456,789"]
    assert all(len(line) <= PHONE_WIDTH for line in table_text(reply.tables[0]).splitlines())
    assert reply.data is not None and reply.data["runs"][0]["member"] == "a_very_long_telegram_name"  # --json whole


def test_config_list_pages_cover_the_schema_in_order(ctx: AppContext) -> None:
    whole, status = call(ctx, "config", "list", caller=ADMIN)
    assert status == 0 and whole.data is not None
    keys = list(whole.data["settings"])
    pages = math.ceil(len(keys) / 16)
    assert whole.data["pages"] == pages > 1 and whole.paging is not None
    seen: list[str] = []
    for page in range(1, pages + 1):
        reply, _ = call(ctx, "config", "list", caller=ADMIN, page=str(page))
        seen += [row[0] for row in reply.tables[0].rows]
        assert reply.paging is not None and reply.paging.request(page) == f"config list page={page}"
    assert seen == keys
    first = {row[0]: row[1] for row in whole.tables[0].rows}
    assert first["digest.day"] == "mon" and first["sprint_log.sink"] == "markdown"
    assert whole.text.splitlines()[-1] == f"page 1 of {pages} — more: config list page=2"


def test_config_list_marks_changed_values_and_cuts_long_ones(ctx: AppContext) -> None:
    call(ctx, "config", "set", "digest.day", "fri", caller=ADMIN)
    reply, _ = call(ctx, "config", "list", caller=ADMIN)
    rows = {row[0]: row[1] for row in reply.tables[0].rows}
    assert rows["digest.day"] == "fri (set)"
    for key, value in rows.items():  # a value is cut (…) only where "key: value" would pass 40 characters
        assert len(f"{key}: {value}") <= PHONE_WIDTH or value.endswith("…") or len(value) <= 12


@pytest.mark.parametrize(
    ("name", "args", "page"),
    [("runs", (), "0"), ("runs", ("mine",), "two"), ("config", ("list",), "-1"), ("config", (), "x")],
)
def test_a_bad_page_is_one_line_with_a_hint(ctx: AppContext, name: str, args: tuple[str, ...], page: str) -> None:
    reply, status = call(ctx, name, *args, caller=ADMIN, page=page)
    assert status == 2 and reply.text == f"page={page} is not a page number — pages are 1, 2, 3 …; e.g. page=2"


def test_config_list_stays_admin_only(ctx: AppContext) -> None:
    reply, status = call(ctx, "config", "list", page="2")
    assert status == 2 and reply.text == "/config is for admins only"


def test_the_terminal_takes_page_too(ctx: AppContext) -> None:
    from bot.commands.tokens import parse_tokens

    command = command_named("runs")
    assert command is not None
    inv = parse_tokens(command, ["mine", "page=1"])
    assert inv.args == ["mine"] and inv.options == {"page": "1"}
    inv = parse_tokens(command, ["--page", "2"])
    assert inv.options == {"page": "2"}


def test_a_page_mixing_metrics_names_each_with_its_instance(ctx: AppContext) -> None:
    # the 45 matmul_1x1 runs (dally@1) and one sparse_parity run at n=30 k=4 (dmc@1) on the same page: the value
    # column names each metric@version with its instance and the runs it holds
    result = RunResult(
        challenge="sparse_parity",
        subject="gf2",
        kind="method",
        ok=True,
        metrics={"dmc@1": 7.0},
        params={"n": 30, "k": 4},
    )
    request = NormalisedRequest("sparse_parity", "method", "gf2", {"n": 30, "k": 4}, None, ("dmc@1",))
    store_result(ctx, result, request=request, member="ann")
    reply, _ = call(ctx, "runs", page="3")
    assert reply.tables[0].headers[-1] == "dally@1"  # page 3: runs #1–#6, all dally@1 on matmul_1x1
    reply, _ = call(ctx, "runs")
    table = reply.tables[0]
    ids = ", ".join(f"#{i}" for i in range(45, 26, -1))
    assert table.headers[-1] == "value"
    assert table.title == f"value: dmc@1 on sparse_parity n=30 k=4 (#46); dally@1 on matmul_1x1 ({ids})"
