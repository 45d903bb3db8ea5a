"""Benchmark: how fast an /explore loop proposes and judges candidates on the 16×16 matmul board, beside the
group's own scorer on the same candidates and beside judging each candidate in a new ``sutro score`` process.

For each published start program (tiled 16×16, the 66,707 record; ``tests/data/ir``): every built-in operator's
candidate is made once (its time is the proposal cost), then the candidates are judged in rounds, interleaved:
ours in process (:func:`engine.explore.judge_candidate`: parse, price, test instance, symbolic identity check),
the group's ``score_16x16`` (loaded from the fetched mirror, skipped when absent), and — fewer rounds, it is slow —
a new ``sutro score FILE --challenge matmul_16x16`` process per candidate, which is what a loop would pay without a
long-lived judge. Reported: medians per candidate, candidates per second, the machine and its load.

Run: ``PYTHONPATH=$PWD python bench/bench_explore.py [--runs 5] [--cli-runs 2]`` (about a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import reference_code  # noqa: E402
from measure import interleaved_medians, load_line, machine_line  # noqa: E402

from engine.explore import IRSearch, judge_candidate  # noqa: E402
from engine.ir.instruction_set import MATMUL_V0  # noqa: E402

STARTS = ("matmul__tiled_16x16.ir", "matmul__weighted_lifetime_copyelim_66707.ir")


def candidates() -> tuple[list[str], list[float]]:
    """Every operator's candidate from each start (texts) and the seconds each took to propose."""
    texts, times = [], []
    for name in STARTS:
        search = IRSearch((ROOT / "tests/data/ir" / name).read_text(), MATMUL_V0)
        while True:
            start = time.perf_counter()
            proposal = search.propose()
            if proposal is None:
                break
            times.append(time.perf_counter() - start)
            texts.append(proposal.text)
    return texts, times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cli-runs", type=int, default=2)
    args = parser.parse_args()
    print(machine_line())
    print(load_line())
    texts, proposing = candidates()
    print(
        f"{len(texts)} candidates from {len(STARTS)} published starts; proposing one: median "
        f"{statistics.median(proposing) * 1e3:.0f} ms (max {max(proposing) * 1e3:.0f} ms)"
    )
    contenders = {"ours, in process": lambda: [judge_candidate("matmul_16x16", {}, t) for t in texts]}
    reference = reference_code.sutro_scorer("matmul", "matmul")
    if reference is not None:
        contenders["group's score_16x16"] = lambda: [reference.score_16x16(t) for t in texts]
    medians = interleaved_medians(contenders, args.runs, clock=time.process_time)  # CPU: steady under load
    for name, seconds in medians.items():
        per = seconds / len(texts)
        print(f"{name:28s} {per * 1e3:7.2f} ms CPU a candidate  {1 / per:8.0f} candidates/s on one core")
    with tempfile.TemporaryDirectory() as scratch:
        paths = []
        for i, text in enumerate(texts[:3]):
            path = Path(scratch) / f"candidate{i}.ir"
            path.write_text(text)
            paths.append(path)
        env = {"SUTRO_DATA_DIR": str(Path(scratch) / "data"), "PATH": str(Path(sys.executable).parent)}
        runs = []
        for _ in range(args.cli_runs):
            for path in paths:
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "bot", "score", str(path), "--challenge", "matmul_16x16", "--force"],
                    capture_output=True,
                    env=env,
                    check=False,
                )
                runs.append(time.perf_counter() - start)
        per = statistics.median(runs)
        print(f"{'a new `sutro score` process':28s} {per * 1e3:7.0f} ms wall a candidate  {1 / per:8.1f} candidates/s")


if __name__ == "__main__":
    main()
