"""The engine's version: stored with every result so that numbers can be traced to the code that made them."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__version__ = "0.1.0"


@functools.cache
def code_digest() -> str:
    """A SHA-256 digest of the engine's source (every ``.py`` and ``.pyx`` file under ``engine/``, by path and
    content): two processes with the same digest compute the same figures, whatever ``__version__`` says. Used to
    key figures computed once and kept on disk (bot/core/baselines.py). About 10 ms; computed once per process."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".pyx") and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()
