"""How many of the project's own files one ``sutro run local_update n=20`` passes through: the modules of ``bot``,
``tools``, ``storage`` and ``engine`` loaded in the CLI process and in each seed child (bot/core/seed_child.py).

Usage: ``python bench/run_footprint.py`` (about 10 s; the figures are counts, not times, so the machine's load does
not change them). ``tests/docs/test_run_footprint.py`` recomputes them and compares with docs/architecture.md.

Method: the command runs once against a fresh data directory, with a ``sitecustomize`` on ``PYTHONPATH`` that every
Python process of the run (the CLI and its children, which inherit the environment) loads at start; at exit it
writes the files of the loaded modules that lie under the four packages, one list per process. A module counts once
per process whether it is a ``.py`` or a compiled extension.

Seed workers are forks of the CLI process where its BLAS is pinned to one thread (engine/forked_child.py), as it is
for ``sutro``: such a child starts with the CLI's modules already loaded and ends with ``os._exit``, which runs no
exit handler. The hook therefore notes the files a child holds when it is forked and writes, from ``os._exit``, the
ones it loaded after that: the files the child itself passed through.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "tools", "storage", "engine")
COMMAND = ("run", "local_update", "n=20")

HOOK = """
import atexit, json, os, sys

_at_fork = []

def _files():
    root = os.environ["SUTRO_FOOTPRINT_ROOT"]
    roots = tuple(os.path.join(root, p) + os.sep for p in ("bot", "tools", "storage", "engine"))
    files = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path and os.path.realpath(path).startswith(roots):
            files.add(os.path.relpath(os.path.realpath(path), root))
    return files

def _write_footprint():
    forked = bool(_at_fork)
    files = _files() - (_at_fork[0] if forked else set())
    out = os.path.join(os.environ["SUTRO_FOOTPRINT_OUT"], f"{os.getpid()}.json")
    with open(out, "w") as fh:
        json.dump({"argv": sys.argv, "files": sorted(files), "forked": forked}, fh)

def _forked():
    _at_fork[:] = [_files()]
    real_exit = os._exit
    def _exit(code):
        _write_footprint()
        real_exit(code)
    os._exit = _exit

os.register_at_fork(after_in_child=_forked)
atexit.register(_write_footprint)
"""


@dataclass(frozen=True)
class Footprint:
    """Project files loaded by the CLI process, by each seed child (one set per child: what a forked child loaded
    after its fork), and by the run as a whole."""

    cli: frozenset[str]
    children: tuple[frozenset[str], ...]

    @property
    def per_child(self) -> int:
        """Files in a seed child (the largest child, should they differ)."""
        return max((len(c) for c in self.children), default=0)

    @property
    def total(self) -> int:
        """Distinct files over all processes of the run."""
        return len(self.cli.union(*self.children))


def _sutro() -> list[str]:
    script = Path(sys.executable).with_name("sutro")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot"]


def measure(workers: int = 2) -> Footprint:
    """Run the command once (``workers`` seed children) and collect what each process loaded."""
    with tempfile.TemporaryDirectory(prefix="sutro-footprint-") as tmp:
        hook, out, data = Path(tmp, "hook"), Path(tmp, "out"), Path(tmp, "data")
        for folder in (hook, out, data):
            folder.mkdir()
        (hook / "sitecustomize.py").write_text(HOOK)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
            "SUTRO_FOOTPRINT_ROOT": str(ROOT),
            "SUTRO_FOOTPRINT_OUT": str(out),
            "SUTRO_DATA_DIR": str(data),
            "SUTRO_DATABASE_URL": "",
            "SUTRO_JOB_WORKERS": str(workers),
        }
        done = subprocess.run([*_sutro(), *COMMAND], env=env, cwd=data, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"sutro {' '.join(COMMAND)} failed ({done.returncode}): {done.stderr[-2000:]}")
        records = [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]
    cli = [r for r in records if Path(r["argv"][0]).name in ("sutro", "__main__.py") and not r["forked"]]
    children = [r for r in records if r["forked"] or r["argv"][0].endswith(os.path.join("core", "seed_child.py"))]
    if len(cli) != 1 or not children:
        raise RuntimeError(f"expected one CLI process and seed children, found: {[r['argv'][:2] for r in records]}")
    return Footprint(cli=frozenset(cli[0]["files"]), children=tuple(frozenset(c["files"]) for c in children))


def main() -> None:
    footprint = measure()
    print(f"sutro {' '.join(COMMAND)}: {footprint.total} project files in all")
    print(f"  CLI process: {len(footprint.cli)}")
    print(f"  seed children: {len(footprint.children)}, {footprint.per_child} files of their own each (at most)")
    if "-v" in sys.argv:
        for name in sorted(footprint.cli):
            print(f"    cli   {name}")
        for name in sorted(footprint.children[0]):
            print(f"    child {name}")


if __name__ == "__main__":
    main()
