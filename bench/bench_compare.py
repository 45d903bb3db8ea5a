"""What ``compare A B`` costs in process on two stored runs (issue 15: target ≤ 50 ms), beside reading the same two
runs from the database alone (the floor every compare pays). Prints medians, the ratio and the machine.

The runs are the issue's pair: ``run local_update n=20`` at the defaults, which stores its sgd baseline on the same
seeds first (#1, the system's) and then itself (#2), each with its per-buffer attribution. They are made once in a
temporary data directory (about 10 s on 2 cores); the timing loop then only reads and compares.

Run: ``PYTHONPATH=$PWD python bench/bench_compare.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import interleaved_medians, machine_line  # noqa: E402

from bot.app import build_context  # noqa: E402
from bot.commands import command_named  # noqa: E402
from bot.dispatch import execute  # noqa: E402
from bot.invocation import Caller, Invocation  # noqa: E402
from bot.settings import Settings  # noqa: E402
from storage.runs import get_run  # noqa: E402

TARGET_S = 0.050
MEMBER = Caller(name="bench")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        ctx = build_context(Settings(data_dir=Path(data_dir), _env_file=None))  # type: ignore[call-arg]
        run, compare = command_named("run"), command_named("compare")
        assert run is not None and compare is not None
        reply, status = execute(
            ctx, run, Invocation(command="run", args=["local_update"], options={"n": "20"}, caller=MEMBER)
        )
        assert status in (0, 1) and reply.data is not None, reply.text
        ids = ("1", str(reply.data["run_id"]))
        with ctx.sessions()() as session:
            subjects = [get_run(session, run_id=int(i)).subject for i in ids]
        assert subjects == ["sgd", "local_update"], subjects  # the baseline is stored first
        ask = Invocation(command="compare", args=list(ids), caller=MEMBER)

        def compare_them() -> None:
            answer, code = execute(ctx, compare, ask)
            assert code == 0, answer.text

        def read_them() -> None:
            with ctx.sessions()() as session:
                for run_id in ids:
                    get_run(session, run_id=int(run_id))

        medians = interleaved_medians({"compare": compare_them, "read": read_them}, args.repeat)
    print(machine_line())
    print(f"compare #{ids[0]} #{ids[1]} (sgd vs local_update, n=20, 3 seeds), medians of {args.repeat}:")
    print(f"  compare command, in process     {1e3 * medians['compare']:8.1f} ms")
    print(f"  reading the two runs only       {1e3 * medians['read']:8.1f} ms")
    print(f"  compare / read                  {medians['compare'] / medians['read']:8.1f}x")
    met = "met" if medians["compare"] <= TARGET_S else "NOT met"
    print(f"target compare <= {1e3 * TARGET_S:.0f} ms: {1e3 * medians['compare']:.1f} ms ({met})")


if __name__ == "__main__":
    main()
