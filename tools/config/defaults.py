"""Built-in defaults of the tool settings that a deployment may also set from its environment — each written once.

``tools/config/schema.py`` (the admins' ``/config`` keys) and ``bot/settings.py`` (the ``SUTRO_*`` environment that
seeds them) both read these, and ``.env.example`` and docs/settings.md are generated from those two; so
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

EXPLORE_MAX_STEPS: Final = 200
"""Most candidates one ``/explore`` loop may judge (``explore.max_steps``)."""
EXPLORE_MAX_SECONDS: Final = 300.0
"""Most CPU seconds one ``/explore`` loop may spend proposing and judging (``explore.max_seconds``); below the job
time limit, so a loop in the chat ends by its budget, not by being stopped."""
EXPLORE_MAX_SPEND_USD: Final = 0.5
"""Most one ``/explore`` loop may spend on Claude's proposals (``explore.max_spend_usd``), inside the assistant's
monthly budget."""
EXPLORE_STALE_STEPS: Final = 12
"""The circuit breaker: a loop ends after this many candidates in a row that were not kept."""
EXPLORE_INVALID_IN_A_ROW: Final = 4
"""The circuit breaker: a loop ends after this many candidates in a row that the board's rules refused."""
