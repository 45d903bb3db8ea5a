"""Sandbox speed (issue 5): start-up overhead per submission and a remote-arrays solve() of ~3,000 numpy ops.

Targets: start-up ≤ 150 ms median (Python + numpy start included); ~3,000 remote ops ≤ 0.5 s.
Baselines in the same process: a bare ``python -c 'import numpy'`` child, and the same solve() on local numpy.
Run: PYTHONPATH=$PWD python bench/bench_sandbox.py [--repeat N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types

import numpy as np
from measure import machine_line, median_s

from engine.sandbox import judge_solve, probe_tier, run_generate

GENERATE = "def generate():\n    return '1,2;mul 3,1,2;3'\n"
GENERATE_NUMPY = "import numpy as np\n" + GENERATE  # numpy is preloaded only for code that imports it
OPS_SOLVE = """import numpy as np
def solve(x, y, n_bits, k_sparse):
    best = []
    for i in range(1000):
        col = x[:, i % n_bits]
        score = (col * y).sum()
    return best
"""  # 3 remote requests per iteration: index, multiply, sum -> 3,000 ops


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    tier = probe_tier()
    print(machine_line())
    print(tier.description)

    bare = median_s(lambda: subprocess.run([sys.executable, "-I", "-c", "import numpy"], check=True), repeat)
    with_numpy = median_s(lambda: run_generate(GENERATE_NUMPY), repeat)
    start = median_s(lambda: run_generate(GENERATE), repeat)
    print(f"baseline: bare child `python -I -c 'import numpy'`: median {bare * 1000:.1f} ms")
    print(
        f"sandboxed generate() that imports numpy, end to end: median {with_numpy * 1000:.1f} ms "
        f"(target <= 150 ms; {with_numpy / bare:.2f}x the bare child; sandbox overhead "
        f"{(with_numpy - bare) * 1000:+.1f} ms)"
    )
    print(f"sandboxed generate() without numpy: median {start * 1000:.1f} ms ({start / bare:.2f}x the bare child)")

    result = judge_solve(OPS_SOLVE, instances=1)
    ops = result.counts["numpy_ops"]
    remote = median_s(lambda: judge_solve(OPS_SOLVE, instances=1), max(3, repeat // 3))
    module = types.ModuleType("local_solve")
    exec(compile(OPS_SOLVE, "local_solve", "exec"), module.__dict__)
    x = np.random.default_rng(0).choice(np.array([-1, 1]), size=(200, 20))
    y = np.prod(x[:, [1, 2, 3]], axis=1)
    local = median_s(lambda: module.solve(x, y, 20, 3), repeat)
    print(
        f"remote-arrays solve(), {ops:,} numpy ops incl. sandbox start: median {remote:.3f} s "
        f"(target <= 0.5 s; {(remote - start) / ops * 1e6:.0f} us per op after start-up)"
    )
    print(f"same solve() on local numpy in-process: median {local * 1000:.1f} ms ({remote / local:.0f}x)")


if __name__ == "__main__":
    main()
