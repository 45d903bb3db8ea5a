"""Check a user-given challenge or metric name against the known ones, with a "did you mean" hint (pure)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

from tools.errors import ToolError


def choose(kind: str, name: str, known: Iterable[str], *, retired: Callable[[str], bool] | None = None) -> str:
    """``name`` if it is known, else a ToolError naming the closest matches (or listing what is known).

    ``retired``: names the group has retired — still accepted by their exact name, but suggested only after the
    current ones and marked "(retired)", so a hint never offers an old tier as if it were current."""
    options = sorted(set(known))
    if name in options:
        return name
    close = difflib.get_close_matches(name, options, n=3, cutoff=0.5)
    old = retired or (lambda _: False)
    close = sorted(close, key=old)  # current first, each group in closeness order
    shown = [f"'{c}' (retired)" if old(c) else f"'{c}'" for c in close]
    if close:
        hint = "did you mean " + " or ".join(shown) + "?"
    elif options:
        hint = f"known {kind}s: " + ", ".join(o for o in options if not old(o))
    else:
        hint = f"no {kind}s have stored runs yet"
    raise ToolError(f"unknown {kind} '{name}'", hint=hint)
