"""mask32's published band tables joined to the boards members' runs stand on: the group's "40% target" table is
``mask_sparse_parity band=40`` here, re-scored on ``mask_sparse_parity`` and accepted only at its band.

Oracles: the group's band tables as shipped in the snapshot (sutro-problems sparse-parity/README.md, synced at
bc8ac81), with the standing records derived by hand from their rows (each strictly below every row above it); the
group's published figures for the Gray-scan walk family (scan_4095: 23,676,539 and 74.2 % dev recovery, the 60 %
band's first row; scan_1023: 18,764,343 and 49 %, the 40 % band's second row).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from engine.challenges.mask_scan_generator import scan_program
from engine.metrics import DALLY
from tests.tools.test_records_sync import HEADER, commit, git, row, write
from tools.published.joins import board_label, challenge_of, join_of
from tools.published.records import published_challenges, published_scores


def cli(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner(env={"COLUMNS": "500"}).invoke(main, [*args, "--json"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def test_the_band_tables_are_instances_of_one_challenge() -> None:
    for band in (20, 40, 60, 80, 100):
        join = join_of(f"mask_sparse_parity_band{band}")
        assert join is not None and join.challenge == "mask_sparse_parity" and dict(join.instance) == {"band": band}
        assert board_label(join.board) == f"mask_sparse_parity band={band}"
    assert join_of("matmul_16x16") is None and challenge_of("matmul_16x16") == "matmul_16x16"
    names = published_challenges(None)
    assert "mask_sparse_parity" in names and not any(n.startswith("mask_sparse_parity_band") for n in names)


def test_published_band_rows_carry_their_band() -> None:
    scores = published_scores("mask_sparse_parity", DALLY)
    by_band = {b: [int(s.value) for s in scores if s.params == {"band": b}] for b in (20, 40, 60, 80, 100)}
    assert len(scores) == sum(len(v) for v in by_band.values())  # every row has exactly one band
    assert by_band[40] == [17945660, 18764343, 17418235, 1317480, 163378, 151943, 147000, 141218]
    assert published_scores("mask_sparse_parity", "bytedmd@2") == []  # published costs are Dally costs


def test_records_of_a_band_show_the_groups_table_on_the_members_board() -> None:
    (history,) = cli("records", "mask_sparse_parity", "band=40")["histories"]
    assert history["challenge"] == "mask_sparse_parity" and history["instance"] == {"band": 40}
    values = [r["value"] for r in history["records"]]
    assert values == [17945660, 17418235, 1317480, 163378, 151943, 147000, 141218]  # 18,764,343 never stood
    assert all(r["member"].endswith("(published)") for r in history["records"])
    (standard,) = cli("records", "mask_sparse_parity")["histories"]  # the standard board is the top band
    assert [r["value"] for r in standard["records"]] == [43325468, 12461610, 938331, 392666, 382840, 382794]
    listed = cli("challenges")
    assert not any(b["name"].startswith("mask_sparse_parity_band") for b in listed["published_elsewhere"])


def band_repo(root: Path, tables: dict[str, str]) -> Path:
    """A one-commit copy of the group's layout: sparse-parity/README.md with the given "N% target" tables."""
    repo = root / "group"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    text = "# Sparse parity\n\n" + "".join(f"### {heading}\n\n{HEADER}{rows}\n" for heading, rows in tables.items())
    write(repo, "sparse-parity/README.md", text)
    write(repo, "sparse-parity/submissions/scan4095_mask32.ir", scan_program(4095))
    commit(repo, "bands", "2026-10-01T12:00:00Z")
    return repo


@pytest.mark.slow
def test_a_band_program_is_verified_at_its_band_and_rejected_above_it(tmp_path: Path) -> None:
    scan = row("2026-08-20", "23,676,539", "scan4095_mask32.ir", "@yaroslavvb", "Gray scan")
    repo = band_repo(tmp_path, {"60% target": scan, "80% target": scan})
    synced = cli("records", "sync", str(repo))
    assert synced["statuses"]["verified"] == 1 and synced["statuses"]["rejected"] == 1
    (history,) = cli("records", "mask_sparse_parity", "band=60")["histories"]
    assert [r["value"] for r in history["records"]] == [23676539]
    rejected = cli("records", "mask_sparse_parity", "band=80")["histories"][0]["records"][0]
    assert (
        rejected["method"] == "Gray scan [fails here: reaches the 60 % band on the dev suite, below this board's 80 %]"
    )
