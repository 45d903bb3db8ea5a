"""Benchmark: scoring IR programs end to end (parse + price + simulate every test instance) with ``score_ir``.

Cases: the 16×16 matmul record ``matmul__weighted_lifetime_copyelim_66707.ir`` (target ≤ 3 ms median) and the
sparse-parity medium record ``sparse-parity__predpack_tuned_medium.ir`` on 8 fresh hidden instances (target ≤ 5 ms,
instance drawing included). Baseline, run in the same process: a plain per-instance interpreter
(``tests/engine/ir_oracle.py``: dict memory, one instruction at a time). With ``--reference DIR`` (a checkout of
cybertronai/sutro-problems, kept outside this repository) the group's own scorers are timed too.

Run: ``PYTHONPATH=$PWD python bench/bench_score_ir.py [--runs 200] [--reference /tmp/sutro-problems]``
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import machine_line, median_s  # noqa: E402

from engine.challenges import CHALLENGES  # noqa: E402
from engine.scoring.ir import score_ir  # noqa: E402
from tests.engine.ir_oracle import interpret  # noqa: E402

REFERENCE_IR = Path(os.environ.get("SUTRO_REFERENCE_IR", "/work/shared/reference/ir"))
if not REFERENCE_IR.exists():
    REFERENCE_IR = ROOT / "tests" / "data" / "ir"  # the two programs benchmarked, copied with provenance


def median_ms(fn: Callable[[], object], runs: int) -> float:
    """Median milliseconds of ``runs`` calls after one warm-up call."""
    return median_s(fn, runs, warm_up=True) * 1e3


def plain_baseline(challenge: str, text: str) -> Callable[[], object]:
    spec = CHALLENGES.get(challenge)

    def run() -> None:
        tests = spec.test_set(None)  # type: ignore[attr-defined]
        for row, want in zip(tests.inputs.tolist(), tests.expected.tolist(), strict=True):
            got, _ = interpret(text, row, wrap=spec.dialect.wrap8)  # type: ignore[attr-defined]
            assert got == want

    return run


def load_reference(directory: Path, folder: str, module: str) -> object:
    spec = importlib.util.spec_from_file_location(f"ref_{module}", directory / folder / f"{module}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--reference", type=Path, default=None, help="checkout of cybertronai/sutro-problems")
    args = parser.parse_args()

    print(machine_line())
    cases = [
        (
            "matmul 16x16 record",
            "matmul_16x16",
            "matmul__weighted_lifetime_copyelim_66707.ir",
            3.0,
            ("matmul", "matmul", "score_16x16"),
        ),
        (
            "sparse-parity medium, 8 hidden",
            "sparse_parity_medium",
            "sparse-parity__predpack_tuned_medium.ir",
            5.0,
            ("sparse-parity", "sparse_parity", "score_medium"),
        ),
    ]
    for label, challenge, filename, target, (folder, module, fn_name) in cases:
        text = (REFERENCE_IR / filename).read_text()
        result = score_ir(challenge, text)
        assert result.ok, result.failure
        ours = median_ms(lambda: score_ir(challenge, text), args.runs)  # noqa: B023
        plain = median_ms(plain_baseline(challenge, text), max(5, args.runs // 10))
        line = (
            f"{label:32s} dally@1 {int(result.metrics['dally@1']):>7,}  score_ir median {ours:7.3f} ms "
            f"(target ≤ {target:.0f} ms)  plain interpreter {plain:7.2f} ms  ratio {plain / ours:5.1f}x"
        )
        if args.reference:
            ref_fn = getattr(load_reference(args.reference, folder, module), fn_name)
            ref = median_ms(lambda: ref_fn(text), max(5, args.runs // 10))  # noqa: B023
            line += f"  reference scorer {ref:7.2f} ms  ratio {ref / ours:5.1f}x"
        print(line)


if __name__ == "__main__":
    main()
