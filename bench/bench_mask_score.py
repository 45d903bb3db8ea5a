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

``--records``: instead, the group's published band records (tests/data/mask32) judged in one long-lived process,
the way a search loop judges candidates: :class:`engine.scoring.ProgramJudge` (the dev suite built once; parse,
check, price, run, count), its suite run alone (the compiled lane runner on the parsed program), and ``score_ir``
(the per-call scorer), interleaved in this process; with ``--group``, the group's ``evaluate_mask`` too. Each row
gives dev-suite instances per CPU second of one core (1,024 / median seconds), against the issue's target of 60,000
(the group's Rust evaluator per thread); ``PYTHONPATH=$PWD python bench/bench_mask_score.py --records [--runs 9]``.
Before a record is timed, the group's cost and count of exact answers must equal the judge's, or the run stops.
``--extra IR [IR ...]`` adds programs kept outside the repository to the table (an older record the group's figures
were measured on, say); each must reach a band, as the records do.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import load_line, machine_line  # noqa: E402

from engine.challenges.mask_scan_generator import scan_program  # noqa: E402
from engine.challenges.mask_sparse_parity import MAX_LINES  # noqa: E402

RECORDS = ROOT / "tests" / "data" / "mask32"
RATE_TARGET = 60_000
"""Dev-suite instances per second on one core the judge must reach on a band record (issue 30, point 4)."""

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
        module: Any = _group_module(group)
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


def _group_module(group: str) -> object:
    """Load the group's ``mask_sparse_parity.py`` from ``group``, a path outside this repository.

    Its folder goes first on ``sys.path``: earlier versions of the file import their siblings
    (``sparse_parity``, ``approx_sparse_parity``, ``scaled_sparse_parity``) by bare name.
    """
    path = Path(group).resolve()
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("group_mask_sparse_parity", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def group_line(group: str) -> str:
    """Which copy of the group's evaluator ran: its path and the SHA-256 of its bytes."""
    digest = hashlib.sha256(Path(group).read_bytes()).hexdigest()
    return f"group evaluator: {Path(group).resolve()} (sha256 {digest[:16]}…)"


def _program_text(path: Path) -> str:
    """An IR program's text from ``path``: gzip-compressed (``.gz``, the test data) or plain."""
    import gzip

    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode()


def records(runs: int, group: str | None, extra: list[Path]) -> None:
    """Instances per CPU second on each published band record (and each ``extra`` program): judge, suite run alone,
    score_ir, the group's."""

    from measure import interleaved_medians

    from engine.challenges.mask_parity_suite import dev_suite
    from engine.challenges.mask_sparse_parity import MASK_SPARSE_PARITY
    from engine.ir.lanes import COMPILED, run_lanes
    from engine.ir.parser import parse
    from engine.ir.static_check import Expect, check
    from engine.scoring.ir import score_ir
    from engine.scoring.program_judge import ProgramJudge

    suite = dev_suite()
    judge = ProgramJudge("mask_sparse_parity")
    theirs: Any = _group_module(group) if group else None
    if theirs is not None:
        theirs.mask_suite()
    print(f"compiled lane runner: {'yes' if COMPILED else 'no (plain-Python fallback)'}")
    print(
        f"{'record':30s} {'ops':>7s} {'dally@1':>9s} {'judge/s':>9s} {'run/s':>9s} {'score_ir/s':>10s} "
        f"{'group/s':>9s} {'target':>7s}"
    )
    spec = MASK_SPARSE_PARITY
    for path in [*sorted(RECORDS.glob("*.ir.gz")), *extra]:
        text = _program_text(path)
        verdict = judge.judge(text)
        if not verdict.correct:
            raise SystemExit(f"{path}: not timed, the judge refuses it: {verdict.reason}")
        program = parse(text, spec.dialect)
        slots = check(program, spec.dialect, Expect(spec.n_inputs, spec.n_outputs))
        fns: dict[str, Callable[[], object]] = {
            "judge": partial(judge.judge, text),
            "run": partial(run_lanes, program, slots, spec.dialect, suite.inputs),
            "score_ir": partial(score_ir, "mask_sparse_parity", text),
        }
        if theirs is not None:
            outcome = theirs.evaluate_mask(text)
            exact = round(outcome.recovery * outcome.n_instances)
            if (outcome.cost, exact) != (verdict.cost, verdict.successes):
                raise SystemExit(
                    f"{path.name}: the group's evaluator gives cost {outcome.cost:,} and {exact} exact answers, "
                    f"the judge {verdict.cost:,} and {verdict.successes}: not the same judgement, not timed"
                )
            fns["group"] = partial(theirs.evaluate_mask, text)
        t = interleaved_medians(fns, runs, clock=time.process_time)
        rate = {name: suite.size / seconds for name, seconds in t.items()}
        group_rate = f"{rate['group']:9,.0f}" if "group" in rate else f"{'-':>9s}"
        flag = "ok" if rate["judge"] >= RATE_TARGET else "UNDER"
        name = path.name.removesuffix(".gz").removesuffix(".ir")
        print(
            f"{name:30s} {verdict.instructions or 0:7,d} {verdict.cost or 0:9,d} "
            f"{rate['judge']:9,.0f} {rate['run']:9,.0f} {rate['score_ir']:10,.0f} {group_rate} {RATE_TARGET:7,d} {flag}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--group", help="a local copy of the group's mask_sparse_parity.py (outside this repository)")
    parser.add_argument("--records", action="store_true", help="the band records judged in one long-lived process")
    parser.add_argument(
        "--extra",
        nargs="+",
        type=Path,
        default=[],
        metavar="IR",
        help="with --records: more mask32 programs in the table (plain or .gz IR files, e.g. older records)",
    )
    parser.add_argument("--child", choices=("ours", "group"), help=argparse.SUPPRESS)
    parser.add_argument("--program", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.program, args.group)
        return
    print(machine_line())
    print(load_line())
    if args.group:
        if not Path(args.group).is_file():
            raise SystemExit(f"--group: no file {args.group} (give a local copy of the group's mask_sparse_parity.py)")
        print(group_line(args.group))
    if args.records:
        missing = [str(path) for path in args.extra if not path.is_file()]
        if missing:
            raise SystemExit(f"--extra: no file {', '.join(missing)} (give IR program files)")
        records(args.runs if args.runs != 3 else 9, args.group, args.extra)
        print(load_line())
        return
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
