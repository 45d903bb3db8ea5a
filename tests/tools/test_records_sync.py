"""``records sync`` against a git repository the test builds (no network): the group's row order, re-scoring status,
what fell between two syncs, retired tiers, defensive table parsing, and bad sources that store nothing.

Oracles: the published costs of the programs (tests/data/ir/PROVENANCE.md, tests/data/published/PROVENANCE.md),
re-derived by hand where a row is made up here (a wrong published cost, a malformed cost), and the table rows as
written in the test's own README text.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.commands.digest_content import digest_reply
from storage.database import DATABASE_FILE, make_engine, session_factory
from storage.published import latest_syncs
from storage.timestamps import utcnow
from tests.reference_data import REFERENCE
from tools.published.follow import sync_published
from tools.published.snapshot import from_json
from tools.published.source import RecordedAs, SyncSourceError, recorded_as
from tools.published.tables import read_tables

PUBLISHED = Path(__file__).parents[1] / "data" / "published"

HEADER = "| Date | Cost | Submission | Contributors | Description |\n| - | -: | - | - | - |\n"


def row(day: str, cost: str, program: str, who: str, what: str) -> str:
    links = f"[ir](submissions/{program}), [report](submissions/x.md)"
    return f"| {day} | {cost} | {links} | [{who}](https://github.com/{who[1:]}) | {what} |\n"


def git(repo: Path, *args: str, when: str = "2026-09-01T12:00:00Z") -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)


def commit(repo: Path, message: str, when: str) -> None:
    git(repo, "add", "-A", when=when)
    git(repo, "commit", "-q", "-m", message, when=when)


def write(repo: Path, path: str, text: str | bytes) -> None:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text, encoding="utf-8")


MATMUL_MAY = (
    "# Matmul\n\n## 4×4 Record History\n\n"
    + HEADER
    + row("2026-04-29", "1,316", "baseline_4x4.ir", "@yaroslavvb", "naive")
    + row("2026-04-30", "800", "outer_product_4x4.ir", "@sjbaebae", "outer product")
)
SMALL = (
    "2 hidden bits.\n\n"
    + HEADER
    + row("2026-05-07", "6,918", "baseline_small.ir", "@yaroslavvb", "try each candidate")
    + row("2026-05-08", "1,932", "small_pack_best.ir", "@sjbaebae", "packed decoder")
)


def build_repo(root: Path) -> Path:
    """Two commits: the May state (matmul 4×4, sparse parity Small current), then September: a new record row (667),
    a row whose published cost is wrong (800 claimed for the 1,316 baseline), a malformed row, the Small tier moved
    to legacy.md, and outer_product_4x4.ir deleted while its row stays."""
    repo = root / "group"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    write(repo, "matmul/README.md", MATMUL_MAY)
    write(repo, "sparse-parity/README.md", "# Sparse parity\n\n## Small Record History\n\n" + SMALL)
    for name in ("baseline_4x4", "outer_product_4x4"):
        write(repo, f"matmul/submissions/{name}.ir", (REFERENCE / "ir" / f"matmul__{name}.ir").read_bytes())
    for name in ("baseline_small", "small_pack_best"):
        write(
            repo, f"sparse-parity/submissions/{name}.ir", (REFERENCE / "ir" / f"sparse-parity__{name}.ir").read_bytes()
        )
    commit(repo, "May", "2026-05-21T12:00:00Z")
    write(
        repo,
        "matmul/README.md",
        MATMUL_MAY
        + "| 2026-09-0x | 700 | [ir](submissions/nope.ir) | [@someone](https://github.com/someone) | malformed date |\n"
        + row("2026-09-20", "667", "best_667.ir", "@jurajselep", "contraction-order search")
        + "| 2026-09-21 | 66O | [ir](submissions/best_667.ir) | [@typo](https://github.com/typo) | letter O |\n"
        + row("2026-09-22", "1,300", "baseline_4x4_copy.ir", "@claims", "cost does not match"),
    )
    write(repo, "matmul/submissions/best_667.ir", (PUBLISHED / "matmul" / "best_667.ir").read_bytes())
    write(repo, "matmul/submissions/baseline_4x4_copy.ir", (REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_bytes())
    (repo / "matmul/submissions/outer_product_4x4.ir").unlink()
    write(repo, "sparse-parity/README.md", "# Sparse parity\n\nThe old tiers are on legacy.md.\n")
    write(repo, "sparse-parity/legacy.md", "# Legacy\n\n## Small, 100% target\n\n" + SMALL)
    commit(repo, "September", "2026-09-25T12:00:00Z")
    return repo


@pytest.fixture
def sessions(tmp_path: Path):  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'sutro-data' / DATABASE_FILE}")
    yield session_factory(engine)
    engine.dispose()


def test_a_sync_reads_every_board_in_the_groups_order_with_a_status_per_record(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    repo = build_repo(tmp_path)
    with sessions() as session:
        outcome = sync_published(session, str(repo))
    snap = outcome.snapshot
    assert snap.boards == ("matmul_4x4", "sparse_parity_small")
    rows = snap.of("matmul_4x4")
    assert [(r.cost, r.status) for r in rows] == [
        (1316, "verified"),
        (800, "missing"),  # the file was deleted; the row stays as published
        (667, "verified"),
        (1300, "mismatch"),  # the baseline's program, whose cost is 1,316
    ]
    assert rows[3].our_cost == 1316 and rows[3].note == "published 1,300, ours 1,316"
    assert rows[2].authors == ("@jurajselep",) and rows[2].date.isoformat() == "2026-09-20"
    assert rows[2].path == "matmul/submissions/best_667.ir" and rows[2].rules == "matmul rules@2"
    assert rows[0].content_hash == rows[3].content_hash  # the same program under two rows
    # two malformed rows: reported one line each, their neighbours kept
    assert snap.bad_rows == (
        "matmul/README.md line 9: date '2026-09-0x' is not YYYY-MM-DD (table '4×4 Record History')",
        "matmul/README.md line 11: cost '66O' is not a whole number (table '4×4 Record History')",
    )
    # the Small tier is on the legacy page only: retired since the legacy page's commit, still scored
    (retired,) = snap.retired
    assert (retired.challenge, retired.since.isoformat()) == ("sparse_parity_small", "2026-09-25")
    assert [(r.cost, r.status) for r in snap.of("sparse_parity_small")] == [(6918, "verified"), (1932, "verified")]
    assert snap.commit_date.isoformat() == "2026-09-25"


def test_a_second_sync_says_what_fell_since_the_first(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    repo = build_repo(tmp_path)
    git(repo, "checkout", "-q", "HEAD~1")
    with sessions() as session:
        first = sync_published(session, str(repo))
    assert first.snapshot.commit_date.isoformat() == "2026-05-21" and not first.snapshot.retired
    git(repo, "checkout", "-q", "main")
    with sessions() as session:
        second = sync_published(session, str(repo))
        assert len(latest_syncs(session, count=5)) == 2
    # 800 → 667; the mismatched 1,300 row is no record (667 stands before it); Small is retired: frozen, not listed
    assert [f.line() for f in second.falls] == ["matmul_4x4: 800 → 667, @jurajselep, 2026-09-20"]
    assert second.previous_commit == first.snapshot.commit


def test_the_records_command_follows_the_newest_sync(tmp_path: Path) -> None:
    repo = build_repo(tmp_path)
    runner = CliRunner()
    synced = runner.invoke(main, ["records", "sync", str(repo), "--json"])
    assert synced.exit_code == 0, synced.output
    data = json.loads(synced.output)
    assert data["statuses"] == {
        "verified": 4,
        "mismatch": 1,
        "rejected": 0,
        "missing": 1,
        "unlinked": 0,
        "unscored": 0,
    }
    shown = json.loads(runner.invoke(main, ["records", "matmul_4x4", "--json"]).output)
    (history,) = shown["histories"]
    assert [(r["value"], r["member"]) for r in history["records"]] == [
        (1316, "@yaroslavvb (published)"),
        (800, "@sjbaebae (published)"),
        (667, "@jurajselep (published)"),
    ]
    assert history["records"][-1]["published"].endswith("@" + data["commit"][:7] + ":matmul/submissions/best_667.ir")


def test_a_deleted_program_reads_published_not_rescored_in_words(tmp_path: Path) -> None:
    repo = build_repo(tmp_path)
    runner = CliRunner(env={"COLUMNS": "500"})
    synced = runner.invoke(main, ["records", "sync", str(repo)])
    assert synced.exit_code == 0, synced.output
    # the summary counts statuses in words; "missing" stays the JSON status (above)
    assert "4 verified; 1 mismatch; 1 published, not re-scored here" in synced.output.splitlines()[0]
    shown = json.loads(runner.invoke(main, ["records", "matmul_4x4", "--json"]).output)
    methods = {r["value"]: r["method"] for r in shown["histories"][0]["records"]}
    assert methods[800] == "outer product [published, not re-scored here]"  # outer_product_4x4.ir was deleted
    assert methods[667] == "contraction-order search"  # verified: as published, no mark


COPY_OF = "https://github.com/cybertronai/sutro-problems"
REAL_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_a_copy_is_recorded_as_the_repository_and_commit_its_facts_come_from(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    repo = build_repo(tmp_path)
    written = tmp_path / "snapshot.json"
    result = CliRunner().invoke(
        main,
        ["records", "sync", str(repo), "--snapshot", str(written), "--as-source", f"{COPY_OF}@{REAL_COMMIT}", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["source"], data["commit"]) == (COPY_OF, REAL_COMMIT)
    shipped = from_json(json.loads(written.read_text()))
    assert (shipped.source, shipped.commit) == (COPY_OF, REAL_COMMIT)
    assert shipped.commit_date.isoformat() == "2026-09-25"  # the copy's HEAD's date
    best = next(r for r in shipped.of("matmul_4x4") if r.cost == 667)
    assert shipped.url(best) == f"{COPY_OF}/blob/0123456/matmul/submissions/best_667.ir"
    with sessions() as session:
        (stored,) = latest_syncs(session)
        assert (stored.source, stored.commit) == (COPY_OF, REAL_COMMIT)


@pytest.mark.parametrize(
    "value",
    [
        "https://github.com/cybertronai/sutro-problems",  # no commit
        "https://github.com/cybertronai/sutro-problems@a1fc22e",  # a short hash
        "/tmp/spbuild/repo@0123456789abcdef0123456789abcdef01234567",  # not a URL
    ],
)
def test_a_bad_as_source_is_one_line_and_stores_nothing(tmp_path: Path, sessions, value: str) -> None:  # type: ignore[no-untyped-def]
    repo = build_repo(tmp_path)
    result = CliRunner(env={"COLUMNS": "500"}).invoke(main, ["records", "sync", str(repo), "--as-source", value])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert "is not URL@COMMIT" in lines[0] and "Traceback" not in result.output, result.output
    with sessions() as session:
        assert latest_syncs(session) == []


def test_recorded_as_reads_url_at_commit() -> None:
    assert recorded_as(f"{COPY_OF}@{REAL_COMMIT.upper()}") == RecordedAs(COPY_OF, REAL_COMMIT)
    with pytest.raises(ValueError, match="not URL@COMMIT"):
        recorded_as(f"git@github.com:cybertronai/sutro-problems@{REAL_COMMIT}")


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda root: "file://" + str(root / "nowhere.git"), "cannot reach file://"),
        (lambda root: str(root), "is not a git repository"),
        (lambda root: str(root / "absent"), "is not a folder"),
    ],
    ids=["unreachable", "not-a-repository", "no-folder"],
)
def test_a_bad_source_is_one_line_and_stores_nothing(tmp_path: Path, sessions, make, expected: str) -> None:  # type: ignore[no-untyped-def]
    source = make(tmp_path)
    result = CliRunner(env={"COLUMNS": "500"}).invoke(main, ["records", "sync", source])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and expected in lines[0], result.output
    with sessions() as session:
        assert latest_syncs(session) == []


def test_a_repository_without_record_tables_is_refused(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    write(repo, "matmul/README.md", "# Matmul\n\nNo tables yet.\n")
    commit(repo, "start", "2026-05-01T00:00:00Z")
    with (
        sessions() as session,
        pytest.raises(SyncSourceError, match=r"has no record tables \(looked in: matmul/README.md\)"),
    ):
        sync_published(session, str(repo))
    with sessions() as session:
        assert latest_syncs(session) == []


def test_a_leaderboard_table_best_first_is_read_in_acceptance_order() -> None:
    text = (
        "## 20% target\n\n"
        + HEADER
        + "".join(
            row(d, c, "p.ir", "@a", "x")
            for d, c in [("2026-09-02", "86,753"), ("2026-09-01", "135,348"), ("2026-08-26", "12,042,480")]
        )
    )
    (table,) = read_tables("sparse-parity/README.md", text).tables
    assert [r.cost for r in table.rows] == [86753, 135348, 12042480]  # as written; the sync reverses a ranking
    from tools.published.sync import _leaderboard_order

    assert _leaderboard_order(table.rows)


@pytest.mark.slow  # 0.8 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_published_program_is_credited_to_its_authors_not_the_member(tmp_path: Path) -> None:
    """Scoring the group's 667 (shipped snapshot: @jurajselep, 2026-09-20) is that author's record, not the local
    member's: the card says whose, the run is off the board and out of the records; an earlier run of a program
    that a later sync finds published moves to its authors the same way."""
    runner = CliRunner(env={"COLUMNS": "500"})
    program = PUBLISHED / "matmul" / "best_667.ir"
    scored = json.loads(runner.invoke(main, ["score", str(program), "--json"]).output)
    assert scored["ok"] and scored["cost"] == 667
    assert scored["published_as"]["authors"] == "@jurajselep" and scored["published_as"]["date"] == "2026-09-20"
    card = runner.invoke(main, ["score", str(program)]).output
    assert "this is @jurajselep's published record (2026-09-20, 667)" in card and "new record" not in card
    board = json.loads(runner.invoke(main, ["leaderboard", "matmul_4x4", "--json"]).output)
    assert board["boards"] == []
    history = json.loads(runner.invoke(main, ["records", "matmul_4x4", "--json"]).output)["histories"][0]
    assert all(r["run"] is None for r in history["records"])  # published rows only

    # a program the shipped snapshot does not know (a no-op copy added to the 675 program) is the member's …
    own = (PUBLISHED / "matmul" / "best_675.ir").read_text().replace("\ncopy 24,2\n", "\ncopy 24,2\ncopy 24,2\n", 1)
    (tmp_path / "own.ir").write_text(own)
    mine = json.loads(runner.invoke(main, ["score", str(tmp_path / "own.ir"), "--json"]).output)
    assert mine["ok"] and mine["published_as"] is None
    board = json.loads(runner.invoke(main, ["leaderboard", "matmul_4x4", "--json"]).output)
    assert [row["member"] for b in board["boards"] for row in b["rows"]] == ["local"]
    # … until the group publishes it: the next sync credits it back to the published author
    repo = tmp_path / "group"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    write(
        repo,
        "matmul/README.md",
        "## 4×4 Record History\n\n" + HEADER + row("2026-10-01", f"{mine['cost']:,}", "own.ir", "@someone", "x"),
    )
    write(repo, "matmul/submissions/own.ir", own)
    commit(repo, "publish", "2026-10-01T00:00:00Z")
    synced = json.loads(runner.invoke(main, ["records", "sync", str(repo), "--json"]).output)
    assert synced["credited_back"] == 1 and synced["statuses"]["verified"] == 1
    board = json.loads(runner.invoke(main, ["leaderboard", "matmul_4x4", "--json"]).output)
    assert board["boards"] == []


def test_a_retired_tier_is_listed_retired_and_its_board_is_frozen(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "500"})
    assert runner.invoke(main, ["records", "sync", str(build_repo(tmp_path))]).exit_code == 0
    listed = json.loads(runner.invoke(main, ["challenges", "--json"]).output)
    status = {c["name"]: c["status"] for c in listed["challenges"]}
    assert status["sparse_parity_small"] == "retired 2026-09-25" and status["matmul_4x4"] == "current"
    # still scoreable; scored after its retirement, the run is not on the frozen board and no record is announced
    program = (REFERENCE / "ir" / "sparse-parity__baseline_small.ir").read_text().replace("\n", "\n\n", 1)
    (tmp_path / "mine.ir").write_text(program)
    card = runner.invoke(main, ["submit", str(tmp_path / "mine.ir"), "--challenge", "sparse_parity_small"])
    assert card.exit_code == 0, card.output
    assert "correct: Dally 6,918" in card.output  # the published baseline's figure
    assert "retired 2026-09-25: not ranked" in card.output  # the retirement the fixture's legacy page dates
    assert "first result" not in card.output and "vs the record" not in card.output
    assert "new record" not in card.output
    board = json.loads(runner.invoke(main, ["leaderboard", "sparse_parity_small", "--json"]).output)
    assert board["boards"] == []


def test_the_scheduled_sync_runs_when_due_and_the_digest_says_what_fell(
    tmp_path: Path, migrated_data_dir: Callable[[Path], Path]
) -> None:
    from bot.app import build_context
    from bot.settings import Settings
    from bot.telegram_app.records_sync_job import sync_if_due

    repo = build_repo(tmp_path)
    git(repo, "checkout", "-q", "HEAD~1")
    ctx = build_context(Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]
    config = ctx.tool_config()
    config.set("records.sync_source", str(repo), by="admin")
    config.set("records.spc_source", "none", by="admin")
    config.set("records.sync_hours", "0", by="admin")
    assert sync_if_due(ctx) is None  # off
    config.set("records.sync_hours", "24", by="admin")
    first = sync_if_due(ctx)
    assert first is not None and first.snapshot.commit_date.isoformat() == "2026-05-21"
    git(repo, "checkout", "-q", "main")
    assert sync_if_due(ctx) is None  # the newest sync is minutes old: not due for 24 hours
    with ctx.sessions()() as session:  # eight days later (the first sync falls before this week's digest window) …
        (newest,) = latest_syncs(session)
        newest.synced_at = newest.synced_at - timedelta(days=8)
        session.add(newest)
        session.commit()
    second = sync_if_due(ctx)
    assert second is not None and [f.line() for f in second.falls] == ["matmul_4x4: 800 → 667, @jurajselep, 2026-09-20"]
    # the week's digest names what fell between the picture at the week's start and the newest sync
    reply = digest_reply(ctx, end=utcnow())
    assert "The group's published records moved:\n• matmul_4x4: 800 → 667, @jurajselep, 2026-09-20" in reply.text
    assert reply.data is not None and reply.data["published_fell"] == ["matmul_4x4: 800 → 667, @jurajselep, 2026-09-20"]


SPC_README = """# Sparse Parity Challenge

<!-- LEADERBOARD_START -->
| Rank | Method | Author | DMC | Time | Accuracy | Issue |
|------|--------|--------|-----|------|----------|-------|
| 1 | tiny | [@a](https://github.com/a) | 10 | 0.1s | 100% | #1 |
| 2 | broken | [@b](https://github.com/b) | lots | 0.1s | 100% | #2 |
| 3 | huge | [@c](https://github.com/c) | 1,000,000,000 | 0.1s | 100% | #3 |
<!-- LEADERBOARD_END -->
"""


def spc_repo(root: Path) -> Path:
    """A local sparse-parity-challenge repository: its README with the board (one commit)."""
    repo = root / "spc"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    write(repo, "README.md", SPC_README)
    commit(repo, "board", "2026-09-01T00:00:00Z")
    return repo


def test_the_sparse_parity_challenge_board_is_synced_and_compat_runs_say_where_they_rank(tmp_path: Path) -> None:
    from tests.bot.test_run_command import FOURIER_SOLVE

    runner = CliRunner(env={"COLUMNS": "500"})
    solve = tmp_path / "solve.py"
    solve.write_text(FOURIER_SOLVE)
    shipped = json.loads(runner.invoke(main, ["run", f"solve={solve}", "--compat", "spc", "--json"]).output)
    # the shipped board (sparse-parity-challenge README at 19908c9, read by hand): six entries, DMC 45,904 …
    published = [45904, 286011, 601157, 11164685, 24397704, 24397704]
    assert shipped["spc_rank"] == {"rank": 1 + sum(d <= shipped["dmc"] for d in published), "of": 7}

    repo = spc_repo(tmp_path)
    synced = json.loads(runner.invoke(main, ["records", "sync", str(repo), "--json"]).output)
    assert [(e["method"], e["dmc"]) for e in synced["entries"]] == [("tiny", 10.0), ("huge", 1e9)]
    assert synced["bad_rows"] == ["README.md line 7: DMC 'lots' is not a number"]
    ranked = runner.invoke(main, ["run", f"solve={solve}", "--compat", "spc"])
    assert "— would rank 2 of 3" in ranked.output and "behind tiny by @a\nits DMC 10 (board at" in ranked.output
    # the challenge repository's records are untouched by the board's sync
    records = json.loads(runner.invoke(main, ["records", "matmul_16x16", "--json"]).output)["histories"][0]
    assert records["records"][-1]["value"] == 63290


def test_one_process_syncs_at_a_time_so_a_fall_is_announced_once(
    tmp_path: Path, migrated_data_dir: Callable[[Path], Path]
) -> None:
    """Two bot processes share one database: the sync lease lets one of them sync; the other finds the newest sync
    fresh afterwards. Oracle: the fall in the fixture repository (matmul_4x4 800 → 667) is returned exactly once."""
    import threading

    from bot.app import build_context
    from bot.settings import Settings
    from bot.telegram_app.records_sync_job import LEASE_TTL, SYNC_LEASE, sync_if_due
    from storage.leases import release_lease, take_lease

    repo = build_repo(tmp_path)
    git(repo, "checkout", "-q", "HEAD~1")
    data = migrated_data_dir(tmp_path / "data")
    ctx = build_context(Settings(_env_file=None, data_dir=data))  # type: ignore[call-arg]
    config = ctx.tool_config()
    config.set("records.sync_source", str(repo), by="admin")
    config.set("records.spc_source", "none", by="admin")
    assert sync_if_due(ctx) is not None  # the May picture
    git(repo, "checkout", "-q", "main")
    with ctx.sessions()() as session:
        (newest,) = latest_syncs(session)
        newest.synced_at = newest.synced_at - timedelta(days=2)
        session.add(newest)
        session.commit()
        # another process holds the lease: this one skips the check and stores nothing
        assert take_lease(session, name=SYNC_LEASE, holder="other-host:1:records", ttl=LEASE_TTL)
    assert sync_if_due(ctx) is None
    with ctx.sessions()() as session:
        assert len(latest_syncs(session, count=10)) == 1
        release_lease(session, name=SYNC_LEASE, holder="other-host:1:records")
    # two processes (their own contexts, their own holder names) check at the same moment
    outcomes: list[object] = []
    contexts = [build_context(Settings(_env_file=None, data_dir=data)) for _ in range(2)]  # type: ignore[call-arg]
    threads = [
        threading.Thread(target=lambda c=c, i=i: outcomes.append(sync_if_due(c, holder=f"host:{i}:records")))
        for i, c in enumerate(contexts)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    announced = [o for o in outcomes if o is not None and o.falls]  # type: ignore[attr-defined]
    assert len(announced) == 1
    assert [f.line() for f in announced[0].falls] == ["matmul_4x4: 800 → 667, @jurajselep, 2026-09-20"]  # type: ignore[attr-defined]


def test_the_sparse_parity_challenge_board_is_synced_on_the_schedule_too(
    tmp_path: Path, migrated_data_dir: Callable[[Path], Path]
) -> None:
    from bot.app import build_context
    from bot.settings import Settings
    from bot.telegram_app.records_sync_job import sync_if_due
    from tools.published.records import current_spc_board

    records = build_repo(tmp_path)
    spc = spc_repo(tmp_path)
    ctx = build_context(Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]
    config = ctx.tool_config()
    config.set("records.sync_source", str(records), by="admin")
    config.set("records.spc_source", str(spc), by="admin")
    assert sync_if_due(ctx) is not None
    with ctx.sessions()() as session:
        board = current_spc_board(session)
    assert [(e.method, e.dmc) for e in board.entries] == [("tiny", 10.0), ("huge", 1e9)]
