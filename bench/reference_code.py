"""Load the group's reference implementations from a fetched mirror, to run them beside ours as oracle and baseline.

The mirrors are bare git repositories (``/work/.mirror/<owner>+<name>/repo``, or ``$SUTRO_MIRRORS/...``); a module
is read from the stored commit with ``git show`` and executed in memory, so no reference code is copied into this
repository. Every loader returns None when the mirror (or git) is absent, and callers skip that comparison.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

MIRRORS = Path(os.environ.get("SUTRO_MIRRORS", "/work/.mirror"))


def mirror(repo: str) -> Path | None:
    """The bare git directory of ``owner/name``, or None when it was never fetched."""
    path = MIRRORS / repo.replace("/", "+") / "repo"
    return path if (path / "HEAD").exists() or (path / ".git").exists() else None


def commit(repo: str) -> str | None:
    """The commit the mirror's HEAD points at (for provenance lines), or None."""
    path = mirror(repo)
    if path is None:
        return None
    done = subprocess.run(["git", "--git-dir", str(path), "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def load(repo: str, file: str, name: str) -> types.ModuleType | None:
    """Module ``name`` built from ``file`` at the mirror's HEAD, or None when the mirror or file is missing."""
    path = mirror(repo)
    if path is None:
        return None
    done = subprocess.run(["git", "--git-dir", str(path), "show", f"HEAD:{file}"], capture_output=True, text=True)
    if done.returncode != 0:
        return None
    module = types.ModuleType(name)
    module.__file__ = f"{repo}:{file}"
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    exec(compile(done.stdout, module.__file__, "exec"), module.__dict__)  # noqa: S102 - the group's public code
    return module


def sutro_scorer(challenge_folder: str, module: str) -> types.ModuleType | None:
    """A scorer of cybertronai/sutro-problems, e.g. ``sutro_scorer("sparse-parity", "sparse_parity")``."""
    return load("cybertronai/sutro-problems", f"{challenge_folder}/{module}.py", f"ref_{module}")


def bytedmd_tracer() -> types.ModuleType | None:
    """cybertronai/ByteDMD ``bytedmd.py``."""
    return load("cybertronai/ByteDMD", "bytedmd.py", "ref_bytedmd")


def mem_tracker() -> types.ModuleType | None:
    """cybertronai/sparse-parity-challenge ``src/sparse_parity/tracker.py`` (MemTracker: ard, dmc)."""
    return load("cybertronai/sparse-parity-challenge", "src/sparse_parity/tracker.py", "ref_tracker")
