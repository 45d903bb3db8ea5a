"""Check a user-given challenge or metric name against the known ones, with a "did you mean" hint (pure)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from tools.errors import ToolError


def choose(kind: str, name: str, known: Iterable[str]) -> str:
    """``name`` if it is known, else a ToolError naming the closest matches (or listing what is known)."""
    options = sorted(set(known))
    if name in options:
        return name
    close = difflib.get_close_matches(name, options, n=3, cutoff=0.5)
    if close:
        hint = "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    elif options:
        hint = f"known {kind}s: " + ", ".join(options)
    else:
        hint = f"no {kind}s have stored runs yet"
    raise ToolError(f"unknown {kind} '{name}'", hint=hint)
