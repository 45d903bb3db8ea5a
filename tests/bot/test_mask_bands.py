"""mask_sparse_parity through the real CLI: band boards, adjudication of a result that would change a band's record
(with its audit shown and stored), none for one that would not, and the retired tiers kept out of what is offered as
current (challenges, digest scope, the idea assistant's prompt).

Oracles: the group's published figures for the walk family (scan_4095: 23,676,539 reads, 74.2 % on the dev suite;
scan_1023: 49 %, band 40), and the band rule (the highest of 20/40/60/80/100 % reached)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from bot.cli import main
from engine.challenges import CHALLENGES, mask_parity_suite
from tests.tools.test_band_joins import band_repo
from tools.assistant.prompt import challenge_lines
from tools.published.records import shipped_snapshot

RETIRED = ("sparse_parity_small", "sparse_parity_medium", "sparse_parity_medium_approx50")


def cli(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    return json.loads(lines[-1])


@pytest.mark.slow
def test_a_result_far_from_the_groups_band_record_is_not_adjudicated() -> None:
    # the group's 40 % table (shipped snapshot) stands at 141,218: a Gray scan is far above it, no record at stake
    shipped = cli("run", "mask_sparse_parity", "generator=scan_1023")
    assert shipped["ok"] and shipped["recovery"]["band"] == 40 and shipped["recovery"]["adjudication"] is None


@pytest.mark.slow
def test_a_band_record_is_adjudicated_and_a_pricier_result_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The adjudication suite's random part is pinned, so what is asserted below does not hang on a draw: scan_1023's
    # recovery on fresh suites has a standard deviation of 2.9 pp (150 draws: mean 48.4 %, 39.8-56.6 %; 256 secrets
    # of 8 instances each), and in one CI run a draw low enough to miss band 40 within its noise made the band 20.
    # The key is still made by fresh_key(); only its random part is fixed.
    monkeypatch.setattr(mask_parity_suite, "secrets", SimpleNamespace(token_hex=lambda n: "a" * (2 * n)))
    # a repository whose 40 % table holds one row at 20,000,000 (made up, unlinked): a Gray scan would beat it
    repo = band_repo(tmp_path, {"40% target": "| 2026-08-20 | 20,000,000 | (none) | @someone | hand-made |\n"})
    assert cli("records", "sync", str(repo))["statuses"]["unlinked"] == 1
    first = cli("run", "mask_sparse_parity", "generator=scan_1023")
    recovery = first["recovery"]
    assert first["ok"] and recovery["band"] == 40 and recovery["dev"]["suite_key"] == "mask-dev"
    audit = recovery["adjudication"]  # it would take the 40 % record: adjudicated
    assert audit is not None and audit["instances"] == 2048 and audit["suite_key"].startswith("fresh-")
    assert audit["suite_key"] == "fresh-" + "a" * 32 and len(audit["suite_digest"]) == 64
    assert 0.40 <= audit["recovery"] <= 0.60
    second = cli("run", "mask_sparse_parity", "generator=scan_1100")  # same band, costs more: no record at stake
    assert second["ok"] and second["recovery"]["band"] == 40 and second["recovery"]["adjudication"] is None
    board = cli("leaderboard", "mask_sparse_parity", "band=40")
    assert [row["method"] for row in board["boards"][0]["rows"]] == ["scan_1023", "scan_1100"]


def test_challenges_lists_the_mask_bands_as_current_and_the_old_tiers_as_retired() -> None:
    listed = cli("challenges")["challenges"]
    names = [c["name"] for c in listed]
    mask = listed[names.index("mask_sparse_parity")]
    assert mask["retired"] is None and mask["bands"] == [20, 40, 60, 80, 100]
    snapshot = shipped_snapshot()  # the group's legacy page as synced decides the date, over the registry's own
    for name in RETIRED:
        retired = snapshot.retirement(name)
        expected = retired.since.isoformat() if retired is not None else CHALLENGES.get(name).retired
        assert expected is not None and listed[names.index(name)]["retired"] == expected
    assert max(names.index(n) for n in names if listed[names.index(n)]["retired"] is None) < min(
        names.index(n) for n in RETIRED
    )  # current first


def test_the_idea_assistant_is_offered_current_challenges_only() -> None:
    offered = "\n".join(challenge_lines())
    assert "mask_sparse_parity" in offered
    assert not any(f"{name} (" in offered for name in RETIRED)


def test_a_near_miss_never_suggests_a_retired_tier_as_current() -> None:
    runner = CliRunner(env={"COLUMNS": "500"})
    typo = runner.invoke(main, ["run", "sparse_parity_smal"])
    assert typo.exit_code != 0 and "did you mean" in typo.output
    assert not any(name in typo.output for name in RETIRED)  # run offers what the group works on today
    assert "sparse_parity_small" in runner.invoke(main, ["run", "sparse_parity_small"]).output  # exact: still runs
    board = runner.invoke(main, ["leaderboard", "sparse_parity_mediun"]).output  # frozen boards: marked
    assert "'sparse_parity' or 'sparse_parity_medium' (retired)" in board
    assert "'sparse_parity_medium_approx50' (retired)" in board
