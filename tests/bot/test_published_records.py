"""The group's published record histories as shipped (tools/published/snapshot.json, written by ``records sync``)
against independent oracles.

Oracles: the reference set's ``expected.tsv`` (costs re-computed with the group's own scorers at sutro-problems
a778d4d, see tests/data/ir/PROVENANCE.md), the programs of tests/data/published (PROVENANCE.md there: their
published costs), the mask32 band programs of tests/data/mask32 (README.md there: their published costs), our
engine re-scoring them (matmul under rules@2), and the published tables read by hand (matmul/README.md at a1fc22e:
16×16 runs 340,704 … 63,290 in 29 rows, 4×4 1,316 … 667 in 7).
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.core.judgement import Judgement
from bot.core.judgement_words import record_words
from bot.core.verdict import judge
from engine.scoring.ir import score_ir
from tests.reference_data import REFERENCE
from tools.published.records import shipped_snapshot
from tools.run_request import code_hash

EXPECTED = {
    r["file"]: r
    for r in csv.DictReader((REFERENCE / "expected.tsv").read_text().splitlines(), delimiter="\t")
    if r["cost"] != "reject"
}
PUBLISHED = Path(__file__).parents[1] / "data" / "published" / "matmul"
HELD = {**{f: REFERENCE / "ir" / f for f in EXPECTED}, **{f"matmul__{p.name}": p for p in PUBLISHED.glob("*.ir")}}
"""Every published matmul or May-era program we hold a copy of, by reference-set name."""
MASK32 = Path(__file__).parents[1] / "data" / "mask32"
MASK32_HELD = {p.name.removesuffix(".gz"): p for p in MASK32.glob("*_mask32.ir.gz")}
"""The group's mask32 band record programs we hold (tests/data/mask32/README.md), gzip-compressed."""


def test_every_program_we_hold_is_in_the_shipped_snapshot_verified_with_its_cost() -> None:
    snapshot = shipped_snapshot()
    by_hash = {r.content_hash: r for r in snapshot.records if r.content_hash}
    for name, path in HELD.items():
        record = by_hash.get(code_hash(path.read_text(), python=False))
        assert record is not None, name
        assert record.status == "verified" and record.our_cost == record.cost, name
        if name in EXPECTED:
            assert (EXPECTED[name]["scorer"], int(EXPECTED[name]["cost"])) == (record.challenge, record.cost), name
    assert len(HELD) == 32  # 13 reference programs + 19 published ones (5 4×4, 14 16×16)


def test_the_mask32_band_programs_we_hold_are_verified_at_their_published_cost() -> None:
    snapshot = shipped_snapshot()
    by_hash = {r.content_hash: r for r in snapshot.records if r.content_hash}
    # oracle: the published costs of tests/data/mask32/README.md's table
    published = {
        "packedstatic20_mask32.ir": 86753,
        "packedroute40_mask32.ir": 147000,
        "packedroute60_mask32.ir": 176331,
        "packedroute80_mask32.ir": 196139,
        "packedscan5_mask32.ir": 392666,
        "packedsis_pcap2_mask32.ir": 151117,
        "packedfrontier40_mask32.ir": 141218,
        "packedfrontier60_mask32.ir": 149665,
        "packedfrontier80_mask32.ir": 182744,
        "packedscan_beat382840_mask32.ir": 382840,
        "packedscan_beat382794_mask32.ir": 382794,
    }
    assert set(MASK32_HELD) == set(published)
    for name, path in MASK32_HELD.items():
        record = by_hash.get(code_hash(gzip.decompress(path.read_bytes()).decode(), python=False))
        assert record is not None, name
        assert (record.status, record.cost, record.our_cost) == ("verified", published[name], published[name]), name
        assert record.path == f"sparse-parity/submissions/{name}"


def test_the_shipped_snapshot_names_the_groups_repository_and_a_real_commit() -> None:
    snapshot = shipped_snapshot()
    # not the folder it was assembled in: the group's repository and the newest commit its facts were read at
    assert snapshot.source == "https://github.com/cybertronai/sutro-problems"
    assert re.fullmatch(r"[0-9a-f]{40}", snapshot.commit)
    assert snapshot.commit == "241b4fc0bf80195f22b6ba23c69b22610e9b3d56"  # tests/data/published/PROVENANCE.md
    # every row whose program we hold is re-scored; the rest are the programs this copy lacks, said in words
    statuses = [r.status for r in snapshot.records]
    # 33 from the May state, the band programs we hold, and the fourteen 16×16 programs of PUBLISHED
    assert statuses.count("verified") == 33 + len(MASK32_HELD) + 14
    assert set(statuses) <= {"verified", "missing", "unlinked"}


def test_a_row_whose_program_we_lack_reads_published_not_rescored() -> None:
    snapshot = shipped_snapshot()
    lacking = [r for r in snapshot.records if r.status == "missing" and r.challenge == "mask_sparse_parity_band100"]
    assert lacking, "the shipped copy lacks some band-100 programs"
    result = CliRunner().invoke(main, ["records", "mask_sparse_parity", "band=100", "--json"])
    assert result.exit_code == 0, result.output
    (history,) = json.loads(result.output)["histories"]
    methods = {r["value"]: r["method"] for r in history["records"]}
    for record in lacking:
        if record.cost in methods:  # a row that was a record when accepted
            assert methods[record.cost].endswith("[published, not re-scored here]"), methods[record.cost]
    assert "[published, not re-scored here]" not in methods[392666]  # the program we hold, verified


@pytest.mark.parametrize("name", sorted(n for n in HELD if n.startswith("matmul__")))
def test_matmul_records_pass_the_symbolic_rule_at_their_published_cost(name: str) -> None:
    text = HELD[name].read_text()
    digest = code_hash(text, python=False)
    (record,) = {r for r in shipped_snapshot().records if r.content_hash == digest}
    result = score_ir(record.challenge, text)
    assert result.ok, result.failure
    assert result.rules == "matmul rules@2" and result.metrics == {"dally@1": record.cost}


def test_records_on_a_fresh_install_end_at_the_newest_published_record_in_the_groups_order() -> None:
    result = CliRunner().invoke(main, ["records", "matmul_16x16", "--json"])
    assert result.exit_code == 0, result.output
    (history,) = json.loads(result.output)["histories"]
    assert history["track"] == "program" and history["metric"] == "dally@1"
    values = [r["value"] for r in history["records"]]
    # the group's order: every row of the 16×16 table was a record when accepted, 237,456 (dated 05-08) after
    # 340,704 and 66,707 (dated 05-08, merged 05-20) after 68,390 / 67,834 / 67,821 (dated 05-13/14)
    assert len(values) == 29 and values == sorted(values, reverse=True)
    assert values[:2] == [340704, 237456] and values[11:15] == [68390, 67834, 67821, 66707]
    assert values[-1] == 63290 and history["records"][-1]["member"] == "@jurajselep (published)"
    assert history["records"][14]["member"] == "@sjbaebae (published)"
    assert all(r["published"].startswith("https://github.com/cybertronai/sutro-problems/") for r in history["records"])
    four = json.loads(CliRunner().invoke(main, ["records", "matmul_4x4", "--json"]).output)["histories"][0]
    assert [r["value"] for r in four["records"]] == [1316, 800, 689, 683, 681, 675, 667]


def test_the_shipped_snapshot_retires_the_old_sparse_parity_tiers_and_holds_the_mask_bands() -> None:
    snapshot = shipped_snapshot()
    assert {r.challenge for r in snapshot.retired} == {
        "sparse_parity_small",
        "sparse_parity_medium",
        "sparse_parity_medium_approx50",
    }
    bands = [f"mask_sparse_parity_band{b}" for b in (20, 40, 60, 80, 100)]
    assert [b for b in snapshot.boards if b.startswith("mask_")] == bands
    # the band tables list their best row first; the standing record is that row (read by hand at 3301a1f)
    from tools.published.sync import current_record

    records = [current_record(snapshot, b) for b in bands]
    assert [r.cost for r in records if r] == [86753, 141218, 149665, 182744, 382794]


def _against_published(value: float) -> str | None:
    """The record line of a judged program run against the published 66,707 (as compare() builds it)."""
    judgement = Judgement(
        "dally@1",
        "matmul_16x16 · program · dally@1",
        True,
        value,
        record=66707.0,
        record_label="@sjbaebae (published)",
        versus_record=judge([value], [66707.0]),
    )
    return record_words(judgement)


def test_beating_a_published_record_says_so() -> None:
    # 66,000 against the published 66,707: −707 = −1.06 %, beyond the 1 % minimum → WIN
    line = _against_published(66000.0)
    assert line is not None and line.startswith("WIN — ")
    assert "new record on matmul_16x16 · program · dally@1" in line
    assert "−1.1 % vs the group's published record (@sjbaebae (published))" in line
    # 66,500: −207 = −0.31 % → INCONCLUSIVE, no record announced
    line = _against_published(66500.0)
    assert line is not None and line.startswith("INCONCLUSIVE — ") and "new record" not in line
