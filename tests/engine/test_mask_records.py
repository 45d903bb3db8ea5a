"""The group's published mask32 record programs (tests/data/mask32, provenance in its README) score exactly their
published cost and reach their band on the dev suite; an adjudication suite drawn from a key the group disclosed is
theirs bit for bit, and the record's count on it is the one they published.

Oracles: the record tables of cybertronai/sutro-problems ``sparse-parity/README.md`` (costs, bands); the group's
evaluator run on the same files (dev successes); ``sparse-parity/submissions/packed_static20_audit.json`` (the
program's SHA-256, audit suite ``packed-static-20-audit-a``: its inputs' and targets' SHA-256 as int16 arrays and 437
successes of 2,048).
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import numpy as np
import pytest

from engine.challenges.mask_parity_suite import fresh_suite
from engine.challenges.mask_sparse_parity import MASK_SPARSE_PARITY
from engine.scoring.ir import score_ir
from engine.scoring.recovery import adjudicate

DATA = Path(__file__).resolve().parents[1] / "data" / "mask32"

RECORDS = [  # file, published cost, band of its table, dev successes (of 1,024) under the group's evaluator
    ("packedstatic20_mask32.ir.gz", 86_753, 20, 266),
    ("packedroute40_mask32.ir.gz", 147_000, 40, 452),
    ("packedroute60_mask32.ir.gz", 176_331, 60, 693),
    ("packedroute80_mask32.ir.gz", 196_139, 80, 861),
    ("packedscan5_mask32.ir.gz", 392_666, 100, 1024),
]


def program(name: str) -> str:
    return gzip.decompress((DATA / name).read_bytes()).decode("utf-8")


@pytest.mark.slow  # 4.3 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
@pytest.mark.parametrize(("name", "cost", "band", "successes"), RECORDS)
def test_published_record_scores_its_cost_and_reaches_its_band(name: str, cost: int, band: int, successes: int) -> None:
    result = score_ir("mask_sparse_parity", program(name))
    assert result.metrics["dally@1"] == cost
    assert result.recovery is not None and result.recovery.dev.successes == successes
    assert result.recovery.band == band and result.ok


def test_the_twenty_percent_file_is_the_one_the_group_audited() -> None:
    text = program("packedstatic20_mask32.ir.gz")
    expected = "705e4e3191aa15f6b2ddc5e4ac016c18132961a3a06d0a99d91b077d4bee77d0"
    assert hashlib.sha256(text.encode()).hexdigest() == expected
    assert len(text.splitlines()) == 10_457


@pytest.mark.slow
def test_an_audit_suite_the_group_disclosed_is_redrawn_and_counted_as_they_did() -> None:
    suite = fresh_suite("packed-static-20-audit-a")
    inputs = hashlib.sha256(suite.inputs.astype(np.int16).tobytes()).hexdigest()
    targets = hashlib.sha256(suite.masks.astype(np.int16).tobytes()).hexdigest()
    assert inputs == "bf51a9217b6aab5f0b0668418431dac7a6a20d4e73c92c0df8c3af8703c67c66"
    assert targets == "2fac7a2ce664d139c29337fe04fd2cd779490bf69c0a12067beacdbe3029a4b0"
    text = program("packedstatic20_mask32.ir.gz")
    judged = adjudicate(MASK_SPARSE_PARITY, text, score_ir("mask_sparse_parity", text), key="packed-static-20-audit-a")
    assert judged.recovery is not None and judged.recovery.adjudication is not None
    assert (judged.recovery.adjudication.successes, judged.recovery.adjudication.instances) == (437, 2048)
    assert judged.recovery.band == 20  # 437 / 2,048 = 21.3 %
