"""Where each built-in method's defaults reach (issue 28): every method at n ∈ {20, 50, 100}, k ∈ {3, 5} on the default
seeds 42, 123, 456 with its defaults (scaled to the instance where a rule says so), as the table in
engine/methods/reach.py records it. An instance at least as large as one already failed is not run (the rule refuses
it), and neither is one the method refuses by its own limits; each line says which. Writes one JSON line per run to
``--out`` (default: defaults_reach.jsonl) and prints the matrix. Run: ``PYTHONPATH=. python bench/defaults_reach.py
[METHOD ...]``; the training methods take 10–90 s a run on a loaded 2-core machine, the whole matrix about an hour.

Runs go through :func:`engine.methods.runner.defaults_at` (the defaults, scaled) and
:func:`engine.methods.runner.run_traced`, not :func:`engine.methods.run_method`, so the refusals of the reach table
itself do not hide what it records.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from engine.errors import EngineError
from engine.methods import METHODS
from engine.methods.params import check_n_limit
from engine.methods.runner import defaults_at, run_traced

INSTANCES = ((20, 3), (20, 5), (50, 3), (50, 5), (100, 3), (100, 5))
SEEDS = (42, 123, 456)
PASS = 0.95


def run_one(name: str, n: int, k: int, seed: int) -> dict[str, object]:
    """One run with the defaults: ``ok``/``accuracy``, or ``refused`` (the method's own limits)."""
    method = METHODS.get(name)
    start = time.perf_counter()
    try:
        task, values = defaults_at(METHODS, name, {"n": n, "k": k, "seed": seed})
        check_n_limit(values, method.n_limit, name)
        _, _, _, accuracy, _ = run_traced(method, values, task)
        row: dict[str, object] = {"ok": accuracy >= PASS, "accuracy": round(accuracy, 3)}
    except EngineError as err:
        row = {"refused": err.one_line()}
    return {"method": name, "n": n, "k": k, "seed": seed, **row, "s": round(time.perf_counter() - start, 2)}


def main(names: list[str], out: Path) -> None:
    rows: list[dict[str, object]] = []
    with out.open("a", encoding="utf-8") as sink:
        for name in names:
            failed: list[tuple[int, int]] = []
            for n, k in INSTANCES:
                if any(n >= a and k >= b for a, b in failed):
                    rows.append({"method": name, "n": n, "k": k, "skipped": "at least as large as a failure"})
                    continue
                for seed in SEEDS:
                    row = run_one(name, n, k, seed)
                    rows.append(row)
                    sink.write(json.dumps(row) + "\n")
                    sink.flush()
                    if row.get("ok") is False:
                        failed.append((n, k))
                        break
                    if "refused" in row:
                        break
    for name in names:
        cells = []
        for n, k in INSTANCES:
            mine = [r for r in rows if r["method"] == name and (r["n"], r["k"]) == (n, k)]
            if any(r.get("ok") is False for r in mine):
                cell = "FAIL " + ",".join(f"{r['seed']}:{r['accuracy']}" for r in mine if r.get("ok") is False)
            elif any("refused" in r for r in mine):
                cell = "limit"
            elif any("skipped" in r for r in mine):
                cell = "(larger than a failure)"
            else:
                cell = "pass"
            cells.append(f"n={n} k={k}: {cell}")
        print(f"{name:16} " + " | ".join(cells))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--out=")]
    target = next((Path(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--out=")), None)
    main(args or METHODS.names(), target or Path("defaults_reach.jsonl"))
