"""Every published program in ../shared/reference/ir scores exactly as expected.tsv says (cost, op count, accept or
reject), and the built-in generators reproduce the published baselines and program texts."""

from __future__ import annotations

import csv

import pytest

from engine.challenges import CHALLENGES
from engine.scoring.ir import score_ir
from tests.reference_data import COPIES, REFERENCE, SHARED

ROWS = list(csv.DictReader((REFERENCE / "expected.tsv").read_text().splitlines(), delimiter="\t"))
SEEDS = {"sparse_parity_small": list(range(64)), "sparse_parity_medium": list(range(100, 108))}
SEEDS["sparse_parity_medium_approx50"] = SEEDS["sparse_parity_medium"]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['file']}@{r['scorer']}" for r in ROWS])
def test_reference_program_scores_as_published(row: dict[str, str]) -> None:
    text = (REFERENCE / "ir" / row["file"]).read_text()
    result = score_ir(row["scorer"], text, seeds=SEEDS.get(row["scorer"]))
    if row["cost"] == "reject":
        assert not result.ok
        assert result.failure and "hidden instance" in result.failure
        return
    assert result.ok, result.failure
    assert result.metrics == {"dally@1": int(row["cost"])}
    if row["ops"] != "-":
        assert result.counts["instructions"] == int(row["ops"])


def test_attribution_rings_add_up_to_the_cost() -> None:
    text = (REFERENCE / "ir" / "matmul__tiled_16x16.ir").read_text()
    result = score_ir("matmul_16x16", text)
    assert result.attribution is not None
    by_ring = result.attribution["dally@1 by address ring"]
    assert sum(by_ring.values()) == 133_783
    assert sum(result.attribution["reads by address ring"].values()) == result.counts["reads"]
    assert by_ring["1-1"] == result.attribution["reads by address ring"]["1-1"]  # ring 1 costs 1 per read


BASELINES = [
    ("matmul_4x4", "baseline", 1_316, "matmul__baseline_4x4.ir"),
    ("matmul_16x16", "baseline", 340_704, "matmul__baseline_16x16.ir"),
    ("matmul_16x16", "tiled", 133_783, "matmul__tiled_16x16.ir"),
    ("sparse_parity_small", "baseline", 6_918, "sparse-parity__baseline_small.ir"),
    ("sparse_parity_medium", "baseline", 816_251, None),
    ("symmetry_six", "baseline", 20, "symmetry__baseline_six.ir"),
    ("symmetry_eight", "baseline", 29, "symmetry__baseline_eight.ir"),
]


@pytest.mark.parametrize(("challenge", "generator", "cost", "published"), BASELINES)
def test_generator_reproduces_published_baseline(
    challenge: str, generator: str, cost: int, published: str | None
) -> None:
    text = CHALLENGES.get(challenge).generators[generator]()  # type: ignore[attr-defined]
    result = score_ir(challenge, text, seeds=SEEDS.get(challenge))
    assert result.ok, result.failure
    assert result.metrics["dally@1"] == cost
    if published:
        assert text.strip() == (REFERENCE / "ir" / published).read_text().strip()


def test_matmul_baseline_works_for_any_n() -> None:
    from engine.challenges.matmul import matmul_challenge
    from engine.ir.parser import parse
    from engine.ir.simulate import run
    from engine.ir.static_check import Expect, check

    for n in (1, 2, 3, 5):
        challenge = matmul_challenge(n)
        program = parse(challenge.generators["baseline"](), challenge.dialect)
        slots = check(program, challenge.dialect, Expect(challenge.n_inputs, challenge.n_outputs))
        tests = challenge.test_set(None)
        assert (run(program, slots, challenge.dialect, tests.inputs) == tests.expected).all()


def test_copies_in_tests_data_match_the_shared_originals() -> None:
    if not (SHARED / "expected.tsv").exists():
        pytest.skip("no ../shared/reference beside this checkout: the copies are the only source")
    assert (COPIES / "expected.tsv").read_bytes() == (SHARED / "expected.tsv").read_bytes()
    for original in (SHARED / "ir").glob("*.ir"):
        assert (COPIES / "ir" / original.name).read_bytes() == original.read_bytes()
