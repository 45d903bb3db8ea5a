"""Start-up cost of the ``sutro`` command: whole-process CPU seconds (user + system) of a few command lines,
beside a bare Python start and a numpy import measured in the same run.

Usage: ``python bench/bench_startup.py [--runs N]`` (default 7; about 20 s on a quiet 2-core machine).

Each case is one fresh process; its CPU time is the growth of ``resource.getrusage(RUSAGE_CHILDREN)`` across
the wait (CPU, not wall time, so a shared machine's load changes the figures less). Cases are interleaved — one
run of every case per round — so a burst of load hits all cases alike; the table shows medians over the rounds.

Targets (issue "fast start"): ``sutro --version`` at most 5x ``python -c pass``; ``sutro score`` of the 16x16
matmul record at most 0.5 s CPU. ``score`` runs with ``--force`` (it is judged every time, not read back from the
database) against a data directory created by one untimed warm-up run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import machine_line

ROOT = Path(__file__).resolve().parents[1]
RECORD_16X16 = ROOT / "tests" / "data" / "ir" / "matmul__weighted_lifetime_copyelim_66707.ir"
TARGET_VERSION_RATIO = 5.0
TARGET_SCORE_CPU_S = 0.5


def sutro() -> list[str]:
    """The installed ``sutro`` script next to this Python, else ``python -m bot`` (the same entry point)."""
    script = Path(sys.executable).with_name("sutro")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot"]


def cases() -> dict[str, list[str]]:
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        'python -c "import numpy"': [sys.executable, "-c", "import numpy"],
        "sutro --version": [*sutro(), "--version"],
        "sutro challenges": [*sutro(), "challenges"],
        "sutro score <16x16 record> --force": [*sutro(), "score", str(RECORD_16X16), "--force"],
    }


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """CPU seconds (user + system) of one run of ``argv``, which must succeed."""
    before = children_cpu_s()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    spent = children_cpu_s() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds (each runs every case once); at least 5")
    runs = max(5, parser.parse_args().runs)

    scratch = Path(tempfile.mkdtemp(prefix="sutro-bench-startup-"))
    try:
        # no stray settings, no .env from the current folder, a throwaway database
        env = {k: v for k, v in os.environ.items() if not k.startswith("SUTRO_")}
        env["SUTRO_DATA_DIR"] = str(scratch / "data")
        # An installed package has its bytecode compiled (pip does it at install, the Docker image too); with
        # PYTHONDONTWRITEBYTECODE set in the shell, a checkout would instead compile every project module again in
        # every timed run (0.1-0.15 s of a score), so the warm-up is allowed to write the .pyc files.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        table = cases()
        for argv in table.values():  # warm-up: page cache, .pyc files, the database's migrations
            cpu_of(argv, env, scratch)
        samples: dict[str, list[float]] = {name: [] for name in table}
        for _ in range(runs):
            for name, argv in table.items():
                samples[name].append(cpu_of(argv, env, scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    medians = {name: statistics.median(values) for name, values in samples.items()}
    bare = medians["python -c pass"]
    print(machine_line())
    print(f"whole-process CPU (user + system), median of {runs} interleaved runs")
    for name, median in medians.items():
        print(f"  {name:<40} {median * 1000:8.1f} ms   {median / bare:6.1f}x bare python")
    ratio = medians["sutro --version"] / bare
    score = medians["sutro score <16x16 record> --force"]
    met = _verdict(ratio <= TARGET_VERSION_RATIO)
    print(f"target sutro --version <= {TARGET_VERSION_RATIO:g}x bare python: {ratio:.1f}x {met}")
    met = _verdict(score <= TARGET_SCORE_CPU_S)
    print(f"target sutro score 16x16 record <= {TARGET_SCORE_CPU_S:g} s CPU: {score:.3f} s {met}")


def _verdict(met: bool) -> str:
    return "(met)" if met else "(NOT met)"


if __name__ == "__main__":
    main()
