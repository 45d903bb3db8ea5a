"""What following the group costs (issue 27): the symbolic matmul check (rules@2) beside scoring without it, on the
group's published 16×16 and 4×4 programs we hold, and one whole ``records sync`` of a local checkout (re-scoring
every linked program). Prints medians, alternating the two scorings so that load on a shared machine hits both
alike, and the machine. Run: ``PYTHONPATH=. python bench/bench_records_sync.py [CHECKOUT]`` (CHECKOUT: a local git
checkout of the challenge repository; without it only the scoring is measured); ``--quick``: fewer repeats.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from measure import machine_line

from engine.challenges.matmul import matmul_challenge
from engine.scoring.ir import score_on
from tools.published.follow import sync_published

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
PROGRAMS = [
    (16, DATA / "ir" / "matmul__weighted_lifetime_copyelim_66707.ir"),
    (16, DATA / "ir" / "matmul__baseline_16x16.ir"),
    (4, DATA / "published" / "matmul" / "best_667.ir"),
]


def main() -> None:
    quick = "--quick" in sys.argv
    repeats = 3 if quick else 9
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(machine_line())
    for n, path in PROGRAMS:
        text = path.read_text()
        with_rule = matmul_challenge(n)
        without = replace(with_rule, identity_check=None)
        times: dict[str, list[float]] = {"rules@2": [], "instance only": []}
        for _ in range(repeats):
            for label, spec in (("rules@2", with_rule), ("instance only", without)):
                start = time.perf_counter()
                result = score_on(spec, text)
                times[label].append(time.perf_counter() - start)
                assert result.ok, result.failure
        a, b = statistics.median(times["rules@2"]), statistics.median(times["instance only"])
        lines = result.counts["instructions"]
        print(f"{path.name} ({lines:,} instructions): rules@2 {a * 1000:.1f} ms, instance only {b * 1000:.1f} ms")
    if args:
        walls = []
        for _ in range(3 if quick else 5):
            start = time.perf_counter()
            outcome = sync_published(None, args[0])
            walls.append(time.perf_counter() - start)
        counts = getattr(outcome, "status_counts", dict)()
        print(f"records sync {args[0]}: median {statistics.median(walls):.2f} s over {len(walls)} ({counts})")


if __name__ == "__main__":
    main()
