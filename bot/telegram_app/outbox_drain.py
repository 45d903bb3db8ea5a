"""The bot process delivers the sprint-log outbox when jobs run on Dask workers.

A job on a worker only saves its entries (it has neither the bot's data directory nor the Google key); every
:data:`DRAIN_EVERY_S` seconds the bot delivers what is due, in order, through the sink the tool settings name — so
the Markdown log lands in the bot's data directory and one process writes the Doc. A round that fails leaves the
entries pending with their back-off (tools/sprint_log/delivery.py); the next round tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.context import AppContext
from bot.incidents import report_incident
from tools.errors import ToolError

DRAIN_EVERY_S = 3.0
"""Seconds between two delivery rounds: the most an entry written by a job waits before the bot writes it."""

log = logging.getLogger(__name__)


class OutboxDrain:
    """A task on the bot's event loop that delivers the outbox every ``every_s`` seconds, off the loop."""

    def __init__(self, ctx: AppContext, every_s: float = DRAIN_EVERY_S) -> None:
        self._ctx = ctx
        self._every_s = every_s
        self._task: asyncio.Task[None] | None = None
        self._last_problem = ""

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="sprint-log-outbox")

    async def stop(self) -> None:
        """Stop the rounds, then run one last one (entries of the jobs that just ended)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            await asyncio.to_thread(self._round)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            await asyncio.to_thread(self._round)

    def _round(self) -> None:
        try:
            report = self._ctx.sprint_log().deliver_pending()
        except ToolError as err:  # e.g. the Docs sink lacks its key: say so once, not every round
            if err.one_line() != self._last_problem:
                self._last_problem = err.one_line()
                log.warning("sprint log not delivered: %s", err.one_line())
            return
        except Exception as exc:  # noqa: BLE001 - a bad sink setting must not stop the bot; the next round retries
            report_incident(exc, where="delivering the sprint-log outbox")
            return
        if report.delivered or report.error:
            log.info(
                "sprint log: %d delivered, %d pending%s",
                report.delivered,
                report.pending,
                f" ({report.error})" if report.error else "",
            )
