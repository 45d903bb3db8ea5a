"""The storage commands and the recording glue, through the real dispatcher with a SQLite file in the data dir."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import matplotlib.image
import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.comparison import compare
from bot.core.log_entry import log_run
from bot.core.recording import lookup, store_result, superseded_on_sight
from bot.dispatch import execute
from bot.settings import Settings
from engine.result import RunResult
from storage.outbox import entries
from storage.runs import get_run
from storage.tables import Run
from tools.run_request import NormalisedRequest

ALICE = Caller(name="alice", is_admin=False)
BOB = Caller(name="bob", is_admin=True)


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def call(ctx: AppContext, name: str, *args: str, caller: Caller = BOB, **options: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), options=options, caller=caller))


def store(
    ctx: AppContext,
    subject: str,
    dally: float,
    member: str,
    *,
    code: str | None = None,
    attribution: dict[str, dict[str, float]] | None = None,
    force: bool = False,
) -> int:
    result = RunResult(
        challenge="matmul_4x4",
        subject=subject,
        kind="ir",
        ok=True,
        metrics={"dally@1": dally},
        attribution=attribution,
        params={"n": 4},
    )
    request = NormalisedRequest("matmul_4x4", "ir", subject, {"n": 4}, code or f"{subject} {dally}", ("dally@1",))
    return store_result(ctx, result, request=request, member=member, force=force).id


def test_same_request_returns_stored_result_unless_forced(ctx: AppContext) -> None:
    request = NormalisedRequest("matmul_4x4", "ir", "naive", {"n": 4}, "x = a * b", ("dally@1",))
    assert lookup(ctx, request) is None
    result = RunResult(challenge="matmul_4x4", subject="naive", kind="ir", ok=True, metrics={"dally@1": 10.0})
    first = store_result(ctx, result, request=request, member="alice")
    found = lookup(ctx, request)
    assert found is not None and found.id == first.id and found.reused
    forced = store_result(ctx, result, request=request, member="alice", force=True)
    assert forced.id != first.id and lookup(ctx, request).id == forced.id  # type: ignore[union-attr]


def test_log_result_writes_entry_with_changes_vs_record_and_baseline(ctx: AppContext) -> None:
    store(ctx, "naive", 200, "alice")
    second = store(ctx, "tiled", 150, "bob")
    stored = lookup(ctx, NormalisedRequest("matmul_4x4", "ir", "tiled", {"n": 4}, "tiled 150", ("dally@1",)))
    assert stored is not None and stored.id == second
    with ctx.sessions()() as session:
        run = get_run(session, run_id=stored.id)
        comparison = compare(session, run, primary="dally@1")
    assert log_run(ctx, run, comparison) == ""  # nothing waiting: the Markdown sink is always reachable
    text = (ctx.settings.data_dir / "sprint-log.md").read_text()
    # baseline: matmul_4x4's built-in baseline program, 1,316 (docs/challenges.md#published-figures); 150 − 1316 = −1166
    # = −88.6% of it, far past the 1 % minimum change of the verdict rule: a WIN; beyond a factor 2 it reads as a
    # ratio, 1,316 / 150 = 8.77 → "8.8× cheaper". Record before it: alice's 200 (#1); 150 − 200 = −50 = −25.0 %, a
    # WIN and not a LOSS against the baseline: a new record.
    headline = "tiled vs baseline program, matmul_4x4: WIN vs baseline program: dally@1 8.8× cheaper; new record"
    assert f"{headline} (−25.0 % vs #1), correct" in text
    assert "| metric | tiled | vs baseline program | vs record |" in text
    assert "| dally@1 | 150 | 8.8× cheaper | −25.0 % |" in text
    assert "/show 2 · code " in text  # the link to the run and the code's hash


def test_runs_show_and_unknown_id(ctx: AppContext) -> None:
    store(ctx, "naive", 200, "alice")
    store(ctx, "tiled", 150, "bob")
    reply, status = call(ctx, "runs", "mine", caller=ALICE)
    assert status == 0 and [r["id"] for r in reply.data["runs"]] == [1]  # type: ignore[index]
    reply, status = call(ctx, "show", "#2")
    assert status == 0 and reply.text.startswith("#2 tiled on matmul_4x4 by bob: ok") and not reply.files
    show = command_named("show")
    assert show is not None
    reply, status = execute(ctx, show, Invocation(command="show", args=["#2"], flags={"full"}, caller=BOB))
    assert status == 0 and reply.text.startswith("#2 matmul_4x4 / tiled by bob — ok")
    assert reply.files and reply.files[0].content == b"tiled 150"
    reply, status = call(ctx, "show", "99")
    assert status == 2 and reply.text == "no run #99 — run ids go from 1 to 2; see recent ones with: runs"
    reply, status = call(ctx, "show", "abc")
    assert status == 2 and "is not a run id" in reply.text


def test_compare_reports_deltas_and_cost_moves(ctx: AppContext) -> None:
    store(ctx, "naive", 200, "alice", attribution={"buffer": {"A": 150, "B": 50}})
    store(ctx, "tiled", 150, "bob", attribution={"buffer": {"A": 60, "B": 90}})
    reply, status = call(ctx, "compare", "1", "2")
    assert status == 0
    # 150 against 200: 50 cheaper, beyond the 1 % minimum (2) of the verdict rule → WIN; both on one board
    assert reply.data["metrics"] == [  # type: ignore[index]
        {"metric": "dally@1", "a": 200.0, "b": 150.0, "delta": -50.0, "verdict": "WIN"}
    ]
    assert reply.text.startswith("#2 tiled vs #1 naive: Dally −25.0 % (WIN)") and "not like for like" not in reply.text
    reverse, _ = call(ctx, "compare", "2", "1")
    assert reverse.data["metrics"][0]["verdict"] == "LOSS"  # type: ignore[index]
    assert [(s["label"], s["delta"]) for s in reply.data["shifts"]] == [("A", -90.0), ("B", 40.0)]  # type: ignore[index]
    assert reply.data["buffers"] is None  # type: ignore[index]  # IR runs: per-ring shifts, no per-buffer table
    reply, status = call(ctx, "compare", "1", "7")
    assert status == 2 and reply.text.startswith("no run #7")


@pytest.mark.slow
def test_leaderboard_records_and_bad_names(ctx: AppContext) -> None:
    store(ctx, "naive", 200, "alice")
    store(ctx, "naive", 180, "alice")
    store(ctx, "tiled", 150, "bob")
    reply, status = call(ctx, "leaderboard", "matmul_4x4")
    assert status == 0
    rows = reply.data["boards"][0]["rows"]  # type: ignore[index]
    assert [(r["rank"], r["member"], r["value"], r["run"]) for r in rows] == [
        (1, "bob", 150.0, 3),
        (2, "alice", 180.0, 2),
    ]
    reply, status = call(ctx, "leaderboard", "matmul_4x5")
    assert status == 2 and reply.text.startswith("unknown challenge 'matmul_4x5' — did you mean 'matmul_4x4'")
    reply, status = call(ctx, "leaderboard", "matmul_4x4", metric="dally@9")
    assert status == 2 and "unknown metric 'dally@9'" in reply.text and "dally@1" in reply.text
    reply, status = call(ctx, "records")
    assert status == 0
    histories = {h["challenge"]: h for h in reply.data["histories"]}  # type: ignore[index]
    records = histories["matmul_4x4"]["records"]
    # the group's published 4×4 history comes first (sutro-problems: 1,316 on 2026-04-29, then 800: −516, then
    # 689, 683, 681, 675, 667 in September), and alice's 200 beats the published 667 by 467
    assert [(r["run"], r["published"] is not None, r["beat_run"], r["improvement"]) for r in records] == [
        (None, True, None, None),
        (None, True, None, 516.0),
        (None, True, None, 111.0),
        (None, True, None, 6.0),
        (None, True, None, 2.0),
        (None, True, None, 6.0),
        (None, True, None, 8.0),
        (1, False, None, 467.0),
        (2, False, 1, 20.0),
        (3, False, 2, 30.0),
    ]
    # several boards: one figure, a panel per board (three across), and a row per board in one inline table
    [overview] = reply.files
    panels = sum(1 for h in histories.values() if h["records"])
    height, width = matplotlib.image.imread(io.BytesIO(overview.content), format="png").shape[:2]
    assert (width, height) == (400 * min(3, panels), 300 * -(-panels // 3))
    [table] = reply.tables
    assert len(table.rows) == len(reply.data["histories"])  # type: ignore[index]
    row = next(r for r in table.rows if r[0].startswith("matmul_4x4"))
    assert row[1:3] == ["150", "bob"] and row[4] == "10"  # bob's 150 is the board's tenth record
    # one board: its whole history and its own chart
    reply, status = call(ctx, "records", "matmul_4x4")
    [png] = reply.files
    assert matplotlib.image.imread(io.BytesIO(png.content), format="png").shape[:2] == (450, 800)
    assert [len(t.rows) for t in reply.tables] == [10]


def test_rescore_keeps_both_versions_and_reports_reranking(ctx: AppContext) -> None:
    store(ctx, "naive", 200, "alice", code="naive: 3 reads")
    store(ctx, "tiled", 150, "bob", code="tiled: 9 reads")
    store(ctx, "blocked", 170, "carol", code=None)

    def reads_cost(run: Run) -> float | None:  # a new version that charges 10 per read written in the code
        if not run.code or "reads" not in run.code:
            return None
        return 10.0 * int(run.code.split(": ")[1].split()[0])

    ctx.rescorers["dally@2"] = reads_cost
    reply, status = call(ctx, "rescore", "dally@1", "dally@2", caller=ALICE)
    assert status == 2 and "admins only" in reply.text
    reply, status = call(ctx, "rescore", "dally@1", "dally@2")
    assert status == 0, reply.text
    # carol's code "blocked 170" has no read count: skipped, not guessed
    assert reply.data["rescored"] == 2 and reply.data["skipped"] == [3]  # type: ignore[index]
    # dally@1: bob 1, carol 2, alice 3; dally@2: alice 30 → 1, bob 90 → 2, carol unranked
    changes = {(c["member"], c["old_rank"], c["new_rank"]) for c in reply.data["rank_changes"]}  # type: ignore[index]
    assert changes == {("alice", 3, 1), ("bob", 1, 2), ("carol", 2, None)}
    with ctx.sessions()() as session:
        assert get_run(session, run_id=1).metrics == {"dally@1": 200.0, "dally@2": 30.0}
    reply, status = call(ctx, "rescore", "dally@1", "ard@2")
    assert status == 2 and "no re-scorer for ard@2" in reply.text


@pytest.mark.slow
def test_log_note_goes_to_markdown_by_default(ctx: AppContext) -> None:
    reply, status = call(ctx, "log", "tried", "tiling 🚀", caller=ALICE)
    assert status == 0 and "written to the markdown sprint log" in reply.text
    assert "tried tiling 🚀" in (ctx.settings.data_dir / "sprint-log.md").read_text()
    reply, status = call(ctx, "log")
    assert status == 2 and reply.text.startswith("nothing to log")


def test_unreachable_database_url_is_one_line(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/no/such/dir/x.db")  # type: ignore[call-arg]
    reply, status = call(AppContext(settings=settings), "runs")
    assert status == 2 and "\n" not in reply.text
    assert reply.text.startswith("cannot reach database") and "SUTRO_DATABASE_URL" in reply.text


@pytest.mark.parametrize(
    ("document_id", "key_file", "expected"),
    [
        ("", None, "needs a document id"),
        ("bad id!", None, "malformed Google Docs document id"),
        ("1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", None, "needs service-account credentials"),
        ("1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "/nope/key.json", "service-account file not found"),
    ],
)
def test_gdocs_misconfiguration_is_one_line(
    tmp_path: Path, document_id: str, key_file: str | None, expected: str
) -> None:
    settings = Settings(
        _env_file=None,
        data_dir=tmp_path,
        sprint_log_sink="gdocs",  # type: ignore[call-arg]
        google_docs_document_id=document_id,
        google_service_account_file=key_file,
    )
    ctx = AppContext(settings=settings)
    reply, status = call(ctx, "log", "hello")
    # the note is saved before the sink is opened; the reply says what to fix
    assert status == 1 and reply.text.startswith("saved as entry 1; not delivered: ")
    assert expected in reply.text and "\n" not in reply.text and "SUTRO_" in reply.text
    with ctx.sessions()() as session:
        assert [(e.title, e.state) for e in entries(session)] == [("hello", "pending")]


def test_cli_log_and_runs_json(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["log", "from the terminal"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["runs", "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == {
        "ok": True,
        "page": 1,
        "pages": 1,
        "total": 0,
        "runs": [],
    }
    result = runner.invoke(main, ["show", "5"])
    assert result.exit_code == 2 and "no run #5" in result.output and "Traceback" not in result.output


def test_leaderboard_metric_across_challenges(ctx: AppContext) -> None:
    store(ctx, "naive", 200, "alice")
    result = RunResult(challenge="sparse_parity", subject="sgd", kind="method", ok=True, metrics={"ard@1": 3.5})
    request = NormalisedRequest("sparse_parity", "method", "sgd", {}, None, ("ard@1",))
    store_result(ctx, result, request=request, member="bob")
    reply, status = call(ctx, "leaderboard", metric="ard@1")
    assert status == 0 and [b["challenge"] for b in reply.data["boards"]] == ["sparse_parity"]  # type: ignore[index]
    reply, status = call(ctx, "leaderboard", metric="ard@2")
    assert status == 2 and reply.text == "unknown metric 'ard@2' — did you mean 'ard@1'?"


def test_empty_service_account_setting_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE", "")
    settings = Settings(
        _env_file=None,
        data_dir=tmp_path,
        sprint_log_sink="gdocs",  # type: ignore[call-arg]
        google_docs_document_id="1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    )
    reply, status = call(AppContext(settings=settings), "log", "x")
    assert status == 1 and "not delivered: the Google Docs sprint log needs service-account credentials" in reply.text
    settings = Settings(
        _env_file=None,
        data_dir=tmp_path,
        sprint_log_sink="gdocs",  # type: ignore[call-arg]
        google_docs_document_id="1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        google_service_account_file=tmp_path,
    )
    reply, status = call(AppContext(settings=settings), "log", "x")
    assert status == 1 and "saved as entry 2; not delivered: cannot read service-account file" in reply.text


def test_a_note_is_logged_as_typed_with_key_value_words_in_place(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["log", "tried", "lr=0.1", "with", "local_update:", "dmc", "fell", "3%"])
    assert result.exit_code == 0, result.output
    log_text = "".join(p.read_text() for p in (tmp_path / "sutro-data").rglob("*.md"))
    assert re.search(r"^\d{1,2}:\d\d tried lr=0\.1 with local_update: dmc fell 3% — local <!-- sutro#", log_text, re.M)


def test_every_legacy_limit_message_counts_as_a_limit_failure() -> None:
    """A limit failure stored before failures carried a kind is still judged again later: the legacy reader
    (engine.result.legacy_failure_kind) classifies each message the sandbox words as a limit."""
    from engine.sandbox.limits import Limits

    def hit_a_resource_limit(run: Run) -> bool:
        run.result = {"failure": run.failure}  # a row of the old shape: no failure_kind in its JSON
        return superseded_on_sight(run)

    limits = Limits()
    messages = [
        limits.cpu_message(),
        limits.wall_message(),
        limits.memory_message(),
        limits.output_message(),
        limits.ops_message(),
        limits.elements_message(),
    ]
    for message in messages:
        assert hit_a_resource_limit(Run(ok=False, failure=f"your generate() failed: {message}")), message
    assert not hit_a_resource_limit(Run(ok=False, failure="accuracy 0.52 is below 0.95"))
    assert not hit_a_resource_limit(Run(ok=True, failure=None))
