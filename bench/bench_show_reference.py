"""What ``show`` costs on a solver run now that its reference is kept with its verdict (issue 28), beside the same
``show`` when the reference has to be chosen again — what a new process paid before: ranking every built-in
solver on the run's seeds (about 2 s at n=20) on the render path. Prints medians, the ratio and the machine.

The run is ``run gf2`` at n=20 on the default seeds (its reference, the best other built-in solver, is ranked and
stored first, then gf2 with its judgement), made once in a temporary data directory. The timing loop then renders
``show`` in process: "kept" as the product does; "chosen again" with the run's kept choice hidden from the
comparison and the per-process ranking cache emptied before each call (a new process starts with it empty).

Run: ``PYTHONPATH=$PWD python bench/bench_show_reference.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import interleaved_medians, load_line, machine_line  # noqa: E402

import bot.core.comparison as comparison  # noqa: E402
from bot.app import build_context  # noqa: E402
from bot.commands import command_named  # noqa: E402
from bot.core import baselines  # noqa: E402
from bot.dispatch import execute  # noqa: E402
from bot.invocation import Caller, Invocation  # noqa: E402
from bot.settings import Settings  # noqa: E402

MEMBER = Caller(name="bench")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        ctx = build_context(Settings(data_dir=Path(data_dir), _env_file=None))  # type: ignore[call-arg]
        run, show = command_named("run"), command_named("show")
        assert run is not None and show is not None
        reply, status = execute(ctx, run, Invocation(command="run", args=["gf2"], options={"n": "20"}, caller=MEMBER))
        assert status in (0, 1) and reply.data is not None, reply.text
        verdict = reply.data["verdict"]
        assert verdict is not None and verdict.get("baseline_run") is not None, verdict
        ask = Invocation(command="show", args=[str(reply.data["run_id"])], caller=MEMBER)
        kept_choice = comparison.baseline_choice

        def show_kept() -> None:
            answer, code = execute(ctx, show, ask)
            assert code == 0, answer.text

        def show_chosen_again() -> None:
            baselines._best_reference.cache_clear()
            comparison.baseline_choice = lambda data: None  # type: ignore[assignment]
            try:
                answer, code = execute(ctx, show, ask)
            finally:
                comparison.baseline_choice = kept_choice
            assert code == 0, answer.text

        load_before = load_line()
        medians = interleaved_medians({"kept": show_kept, "again": show_chosen_again}, args.repeat)
    print(machine_line())
    print(f"{load_before} (before); {load_line()} (after)")
    shown = f"show #{reply.data['run_id']} (gf2, n=20, seeds 42,123,456; reference {verdict['baseline']})"
    print(f"{shown}, medians of {args.repeat}:")
    print(f"  reference kept with the verdict (now)          {1e3 * medians['kept']:9.1f} ms")
    print(f"  reference chosen again (a new process before)  {1e3 * medians['again']:9.1f} ms")
    print(f"  chosen again / kept                            {medians['again'] / medians['kept']:9.1f}x")


if __name__ == "__main__":
    main()
