"""The storage names a command may hold without querying anything: the error every storage failure is (to show it
in one line), the stored rows the core hands back (a run, a scored run on a board), and a URL with its password
hidden. Queries live in the core's use cases; ``bot.commands`` imports nothing from ``storage`` (import contract
"Commands reach storage only through the core", pyproject.toml)."""

from __future__ import annotations

from storage.database import redact
from storage.errors import StorageError
from storage.scores import ScoredRun
from storage.tables import Run

__all__ = ["Run", "ScoredRun", "StorageError", "redact"]
