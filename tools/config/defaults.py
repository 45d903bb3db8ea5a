"""Built-in defaults of the tool settings that a deployment may also set from its environment — each written once.

``tools/config/schema.py`` (the admins' ``/config`` keys) and ``bot/settings.py`` (the ``SUTRO_*`` environment that
seeds them) both read these, and ``.env.example`` and the README are generated from those two; so
``sutro config get assistant.model`` and the documentation can no longer disagree. The job queue's fairness
defaults are here too: the schema and the job board (used before any ``/config`` was read) share them.
"""

from __future__ import annotations

from typing import Final

SPRINT_LOG_SINK: Final = "markdown"
"""Where sprint-log entries go: ``markdown`` (a file in the data directory) or ``gdocs``."""
SPRINT_LOG_DOCUMENT_ID: Final = ""
"""The sprint log's Google Doc id; empty until someone sets it."""
QUEUE_PER_MEMBER: Final = 3
"""Most jobs one member may have queued or running."""
RUNNING_PER_MEMBER: Final = 0
"""Most jobs one member may have running while another member's job waits; 0 = every worker but one."""
LIMIT_FAILURES_PER_HOUR: Final = 2
"""Jobs a member may have end on a resource limit within an hour before their queued jobs go after everyone else's."""
SWEEP_POINTS: Final = 30
"""Most points (runs) one ``/sweep`` grid may have; each point is a fully traced run of a few seconds."""
ASSISTANT_MODEL: Final = "claude-sonnet-5-5"
"""The Claude model ``/idea`` uses."""
ASSISTANT_MONTHLY_BUDGET_USD: Final = 20.0
"""Most the assistant may spend per calendar month (USD)."""

CODE_KIB: Final = 8192
"""Largest submission stored, in KiB (``limits.code_kib``): IR text or Python source, checked before anything is
judged or stored. 8 MiB is the IR a chat document or a ``generate()`` may already carry
(``engine.sandbox.generate.MAX_IR_BYTES``) and holds a 600,000-instruction program (5.2 MiB); the published
16x16 matmul programs are 96-122 KiB. Before this cap one ``sutro submit`` of IR text grew the database by 39 MiB
(issue 29)."""
