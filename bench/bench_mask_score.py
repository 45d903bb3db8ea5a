"""Benchmark: scoring a 2,000,000-line mask sparse-parity program on the 1,024-instance dev suite — time and peak
memory — beside the group's own evaluator on the same program, measured in the same run.

The program: the built-in full Gray walk (``scan_program()``, 1,772,810 lines, 43,325,468 reads, 100 % recovery)
padded to exactly 2,000,000 lines — the cap, every line counted — with ``copy`` lines into a scratch cell that
nothing reads, so cost grows and recovery stays 100 %. It is written once to a temporary file.

Each contender runs in its own child process per round (so peak RSS is that contender's alone), rounds interleaved
(ours, theirs, ours, …): the child builds its dev suite first (untimed), then times reading the file and scoring
it: parse, check, price, run every instance, count exact answers. Reported: median wall and CPU seconds of the
scoring and the peak resident memory of the child (``ru_maxrss``, suite and interpreter included).

The group's evaluator is not part of this repository: pass a local copy of their ``mask_sparse_parity.py`` (its
``evaluate_mask`` is called, ``engine="vector"``, their default) with ``--group PATH``; without it only ours runs.

Run: ``PYTHONPATH=$PWD python bench/bench_mask_score.py [--runs 3] [--group /tmp/copy/mask_sparse_parity.py]``
(about 2 minutes a round on 2 loaded cores).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import load_line, machine_line  # noqa: E402

from engine.challenges.mask_scan_generator import scan_program  # noqa: E402
from engine.challenges.mask_sparse_parity import MAX_LINES  # noqa: E402

SCRATCH = 10_000
"""A cell above every address the walk uses: the padding copies land there and are never read."""


def padded_program() -> str:
    """The full walk padded with dead copies to exactly MAX_LINES lines."""
    lines = scan_program().split("\n")
    pad = MAX_LINES - len(lines)
    body = [f"copy {SCRATCH},1"] * pad
    return "\n".join([*lines[:-1], *body, lines[-1]])


def _child(which: str, path: str, group: str | None) -> None:
    """Score the program at ``path`` with one contender; print one JSON line."""
    text_path = Path(path)
    if which == "ours":
        from engine.challenges.mask_parity_suite import dev_suite
        from engine.scoring.ir import score_ir

        dev_suite()
        wall, cpu = time.perf_counter(), time.process_time()
        result = score_ir("mask_sparse_parity", text_path.read_text())
        cost, recovery = result.metrics["dally@1"], result.accuracy
    else:
        assert group is not None
        spec = importlib.util.spec_from_file_location("group_mask_sparse_parity", group)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.mask_suite()
        wall, cpu = time.perf_counter(), time.process_time()
        outcome = module.evaluate_mask(text_path.read_text())
        cost, recovery = outcome.cost, outcome.recovery
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"wall": wall, "cpu": cpu, "peak": peak, "cost": cost, "recovery": recovery}))


def _round(which: str, path: str, group: str | None) -> dict[str, float]:
    args = [sys.executable, __file__, "--child", which, "--program", path]
    if group:
        args += ["--group", group]
    done = subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--group", help="a local copy of the group's mask_sparse_parity.py (outside this repository)")
    parser.add_argument("--child", choices=("ours", "group"), help=argparse.SUPPRESS)
    parser.add_argument("--program", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.program, args.group)
        return
    print(machine_line())
    print(load_line())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scan_full_padded.ir"
        text = padded_program()
        path.write_text(text)
        n_lines = text.count("\n") + 1
        print(f"program: {n_lines:,} lines, {len(text.encode()) / 2**20:.1f} MiB")
        contenders = ["ours"] + (["group"] if args.group else [])
        rounds: dict[str, list[dict[str, float]]] = {name: [] for name in contenders}
        for _ in range(args.runs):
            for name in contenders:
                rounds[name].append(_round(name, str(path), args.group))
    for name, runs in rounds.items():
        wall = statistics.median(r["wall"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        peak = max(r["peak"] for r in runs)
        first = runs[0]
        print(
            f"{name:>5}: scoring median {wall:.1f} s wall, {cpu:.1f} s CPU ({len(runs)} runs); "
            f"peak RSS {peak / 2**20:,.0f} MiB; cost {int(first['cost']):,}, dev recovery {first['recovery']:.1%}"
        )
    print(load_line())


if __name__ == "__main__":
    main()
