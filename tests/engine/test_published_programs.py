"""The group's record programs published after the May snapshot (tests/data/published/matmul, provenance in
PROVENANCE.md there) score exactly their published cost under the symbolic correctness rule (matmul rules@2).

Oracles: each program's cost as matmul/README.md's record tables publish it (sutro-problems a1fc22e); for the 16×16
programs also the SHA-256 and operation counts their frozen-artifact verifiers pin (matmul/submissions/best_63290.py,
best_63350.py, best_63354.py, ...), which prove the copies here are byte for byte the published files; where a
verifier pins neither, the operation counts the program's own report (matmul/submissions/NAME.md) publishes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.scoring.ir import score_ir

PUBLISHED = Path(__file__).parents[1] / "data" / "published" / "matmul"

COSTS = {
    "best_689.ir": ("matmul_4x4", 689),
    "hkkk_ilp_4x4.ir": ("matmul_4x4", 683),
    "best_681.ir": ("matmul_4x4", 681),
    "best_675.ir": ("matmul_4x4", 675),
    "best_667.ir": ("matmul_4x4", 667),
    "best_63350.ir": ("matmul_16x16", 63_350),
    "best_63290.ir": ("matmul_16x16", 63_290),
    "best_63354.ir": ("matmul_16x16", 63_354),
    "best_63639.ir": ("matmul_16x16", 63_639),
    "best_63819.ir": ("matmul_16x16", 63_819),
    "best_64074.ir": ("matmul_16x16", 64_074),
    "best_64431.ir": ("matmul_16x16", 64_431),
    "best_65084.ir": ("matmul_16x16", 65_084),
    "best_66178.ir": ("matmul_16x16", 66_178),
    "best_66199.ir": ("matmul_16x16", 66_199),
    "best_66300.ir": ("matmul_16x16", 66_300),
    "motif_bundle_66400.ir": ("matmul_16x16", 66_400),
    "cheap_capture_66524.ir": ("matmul_16x16", 66_524),
    "macro_b_staging_66633.ir": ("matmul_16x16", 66_633),
}
"""Every program held here: its board and published cost."""

PINNED: dict[str, tuple[str, int | None]] = {
    "best_63350.ir": ("3cf3b8dea456fa0a7dba2e5fab3a31af0dc971fd11d7b04332bcfd967d3259af", 2_167 + 4_096 + 3_840),
    "best_63290.ir": ("3639a6e176d84fe5dddbdafc76f435acf6ce230fa97a8ec5fbdc381a74e40e97", 2_122 + 4_096 + 3_840),
    "best_63354.ir": ("615bbea8519ead81f3074dacb0e9789e4bdb093759be92c3f497c1506cfda779", 2_168 + 4_096 + 3_840),
    "best_63639.ir": ("4f1ce0c343cc0dd3d78b56be6907fd8a9bb59e93af0e9b3293028788fa5f61d0", 1_947 + 4_096 + 3_840),
    "best_63819.ir": ("e8adc50783a64088e6864ecfccb7e18a74814e24cfd6e1f9e3045e61fb37f2df", 1_932 + 4_096 + 3_840),
    "best_64074.ir": ("b5ca6fb67c61825927e6978c13e16a6a432748c32f6c0f1f52a5dbefb3f2e7dd", 1_748 + 4_096 + 3_840),
    "best_64431.ir": ("9d94114a87fecd30168fbcf63931bbc98a50778984a11fe0c3b16940218bcf11", 1_504 + 4_096 + 3_840),
    "best_65084.ir": ("600502a7a2b10f762f145a682b21ecb9062ee81eb3723b250d9a2dbccab03c3e", 1_649 + 4_096 + 3_840),
    "best_66178.ir": ("dd5489cf946972837f38eaed2294abdaa7e56dee87ad6982081595e231518d22", None),
    "best_66199.ir": ("16ecbd1a27eb779b8334fecbd2735ed001d3255b51ed0616cac830b79296cd7b", None),
}
"""SHA-256 and instruction count (copy + mul + add) the group's verifier pins for a program; None where the verifier
pins only the hash and the score (best_66178.py, best_66199.py), so the count has no independent oracle and is not
checked. best_66300.ir, motif_bundle_66400.ir, cheap_capture_66524.ir and macro_b_staging_66633.ir are absent: their
verifiers (best_66300.py, motif_bundle_66400.py, cheap_capture_66524.py, macro_b_staging_66633.py) pin only the score,
no hash."""

REPORTED: dict[str, tuple[int, int]] = {
    "motif_bundle_66400.ir": (4_096 + 3_840 + 1_660, 17_788),
    "cheap_capture_66524.ir": (4_096 + 3_840 + 1_682, 17_810),
    "macro_b_staging_66633.ir": (4_096 + 3_840 + 1_656, 17_784),
}
"""Instruction count (mul + add + copy) and paid reads (operand reads plus the 256 output reads) that the group's
report on a program (matmul/submissions/NAME.md, its "Instruction Distribution" table) publishes, for a program whose
verifier pins no counts."""


def test_every_program_held_has_its_published_cost_here() -> None:
    assert sorted(p.name for p in PUBLISHED.glob("*.ir")) == sorted(COSTS)


@pytest.mark.parametrize("name", sorted(COSTS))
def test_a_published_record_scores_its_published_cost_under_the_symbolic_rule(name: str) -> None:
    challenge, cost = COSTS[name]
    raw = (PUBLISHED / name).read_bytes()
    result = score_ir(challenge, raw.decode("utf-8"))
    assert result.ok, result.failure
    assert result.rules == "matmul rules@2"
    assert result.metrics == {"dally@1": cost}
    if name in PINNED:
        digest, instructions = PINNED[name]
        assert hashlib.sha256(raw).hexdigest() == digest
        if instructions is not None:
            assert result.counts["instructions"] == instructions
    if name in REPORTED:
        instructions, reads = REPORTED[name]
        assert (result.counts["instructions"], result.counts["reads"]) == (instructions, reads)
