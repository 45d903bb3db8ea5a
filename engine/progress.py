"""Progress: the one type every layer reports progress through, and the sink that ignores it.

A progress sink is called with a short status line ("computing metrics") and the fraction done in [0, 1], or
None when unknown. Cheap to call often: the Telegram edge rate-limits its message edits, the CLI redraws a bar.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, "float | None"], None]


def no_progress(message: str, fraction: float | None = None) -> None:
    """The sink that ignores every report (the default where nobody is watching)."""
