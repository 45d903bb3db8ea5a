"""Freeze the group's reference outputs on the differential cases into ``tests/data/reference_outputs.json``.

Runs every case of ``tests/engine/differential_cases.py`` through the reference implementations, loaded from the
fetched mirrors by :mod:`reference_code` (nothing is copied): cybertronai/ByteDMD ``bytedmd.py`` (per-read depths),
cybertronai/sparse-parity-challenge ``tracker.py`` (MemTracker: ard, dmc) and cybertronai/sutro-problems
``sparse-parity/sparse_parity.py`` (``_compile_ir``: accept/reject and dally cost). The file records each mirror's
commit. Run once, when a case is added: ``PYTHONPATH=$PWD python bench/make_reference_outputs.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import reference_code  # noqa: E402

from tests.engine.differential_cases import BYTEDMD_CASES, CLOCK_CASES, IR_CASES  # noqa: E402

OUT = ROOT / "tests" / "data" / "reference_outputs.json"


def bytedmd_outputs() -> dict[str, list[int]]:
    ref = reference_code.bytedmd_tracer()
    assert ref is not None, "fetch cybertronai/ByteDMD first"
    out = {}
    for name, (func, make_args) in BYTEDMD_CASES.items():
        trace, _ = ref.traced_eval(func, make_args())
        out[name] = [int(d) for d in trace]
    return out


def clock_outputs() -> dict[str, dict[str, float]]:
    ref = reference_code.mem_tracker()
    assert ref is not None, "fetch cybertronai/sparse-parity-challenge first"
    out = {}
    for name, events in CLOCK_CASES.items():
        tracker = ref.MemTracker()
        distances = []
        for is_write, buffer, size in events:
            if is_write:
                tracker.write(buffer, size)
            else:
                d = tracker.read(buffer, size)
                if d >= 0:
                    distances.append(d)
        summary = tracker.summary()
        out[name] = {
            "ard": float(summary["weighted_ard"]),
            "dmc": float(summary.get("dmc", 0.0)),
            "ard_per_read": sum(distances) / len(distances) if distances else 0.0,
        }
    return out


def ir_outputs() -> dict[str, int | str]:
    ref = reference_code.sutro_scorer("sparse-parity", "sparse_parity")
    assert ref is not None, "fetch cybertronai/sutro-problems first"
    out: dict[str, int | str] = {}
    for name, make_text in IR_CASES.items():
        try:
            _, cost, _ = ref._compile_ir(make_text())
        except ValueError:
            out[name] = "reject"
        else:
            out[name] = int(cost)
    return out


def main() -> None:
    frozen = {
        "made_by": "bench/make_reference_outputs.py",
        "commits": {
            repo: reference_code.commit(repo)
            for repo in ("cybertronai/ByteDMD", "cybertronai/sparse-parity-challenge", "cybertronai/sutro-problems")
        },
        "bytedmd_depths": bytedmd_outputs(),
        "clock": clock_outputs(),
        "ir_sparse_parity": ir_outputs(),
    }
    OUT.write_text(json.dumps(frozen, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
