"""AppContext: the services a command may use, built once by the composition root (``bot.app``).

The database and the sprint log are opened on first use, so commands that need neither (``challenges``) work
without them, and a bad database URL or missing Docs credentials is reported by the command that needed them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot.core.rescoring import Rescorer
from bot.executors.base import WorkerJob
from bot.reply import Reply
from bot.settings import Settings
from storage.database import SessionFactory
from tools.config.events import ConfigEvents
from tools.config.policy import RunPolicy, run_policy
from tools.config.store import ToolConfig
from tools.sprint_log.log import SprintLog

_OPENING = threading.Lock()
"""Held while a context opens its database (migrations must not run in two threads of one process at once)."""

if TYPE_CHECKING:
    from bot.jobs.board import JobBoard


@dataclass
class AppContext:
    """Handed to every command. Tests build one directly with the services they need.

    rescorers: new metric (``dally@2``) -> function re-scoring a stored run for it (wired by the composition root).
    jobs: the bot's job queue; None where commands run directly (the CLI, inside a worker process).
    config_events: "tool setting changed" notices (shared by copies of the context: the digest reschedules).
    digest_next: when the bot's scheduled digest job fires next (set by the Telegram app; None elsewhere).
    worker_job: what a worker process does with a queued command (the composition root's; executors need it).
    post_digest: posts a digest reply to (chat id, topic id) now; True once delivered (the Telegram edge's,
        handed in by the composition root: commands never talk to Telegram).
    serve_telegram: runs the Telegram bot for this context until stopped (``sutro serve``).
    deliver_sprint_log: False in a job process on a Dask worker: sprint-log entries are only saved in the outbox,
        and the bot process delivers them (it alone has the data directory and the Google key).
    reads_group_messages: whether the Telegram bot receives every group message (getMe's
        ``can_read_all_group_messages``: False while BotFather's privacy mode is on); set by the Telegram app, None
        elsewhere (and before the bot has asked Telegram).
    """

    settings: Settings
    jobs: JobBoard | None = None
    rescorers: dict[str, Rescorer] = field(default_factory=dict)
    config_events: ConfigEvents = field(default_factory=ConfigEvents)
    digest_next: Callable[[], datetime | None] | None = None
    worker_job: WorkerJob | None = None
    post_digest: Callable[[Reply, int, int | None], bool] | None = None
    serve_telegram: Callable[[AppContext], None] | None = None
    deliver_sprint_log: bool = True
    reads_group_messages: Callable[[], bool | None] | None = None
    _sessions: SessionFactory | None = None
    _sprint_log: SprintLog | None = None
    _sprint_log_target: tuple[str, str] | None = None

    def sessions(self) -> SessionFactory:
        """The database session factory, opened and migrated on first use by one thread at a time (commands
        and the digest job call this from worker threads; Alembic's context is process-global)."""
        with _OPENING:
            if self._sessions is None:
                from bot.core.baselines import keep_program_baselines_in
                from bot.services import open_database

                self._sessions = open_database(self.settings)
                keep_program_baselines_in(self.settings.cache_dir or self.settings.data_dir / "cache")
        return self._sessions

    def tool_config(self) -> ToolConfig:
        """The admin-editable tool settings (defaults seeded from settings; changes go to config_events)."""
        from bot.services import config_seeds

        return ToolConfig(self.sessions(), seeds=config_seeds(self.settings), on_change=self.config_events.publish)

    def run_policy(self) -> RunPolicy:
        """What members may run and within which limits, as the admins set it now (``/config``)."""
        return run_policy(self.tool_config())

    def sprint_log(self) -> SprintLog:
        """The sprint log writing where the tool settings say now (``sprint_log.sink``/``document_id``).

        Built on first use and rebuilt when an admin changed those settings (no restart); entries waiting in
        the outbox are delivered by the new sink.
        """
        from bot.services import open_sprint_log

        config = self.tool_config()
        target = (config.get("sprint_log.sink"), config.get("sprint_log.document_id"))
        if self._sprint_log is None or target != self._sprint_log_target:
            old = self._sprint_log
            if self.deliver_sprint_log:
                self._sprint_log = open_sprint_log(
                    self.settings, self.sessions(), sink=target[0], document_id=target[1]
                )
            else:
                self._sprint_log = SprintLog.queue_only(self.sessions(), sink_name=str(target[0]))
            self._sprint_log_target = target
            if old is not None:
                old.close()
        return self._sprint_log

    def close(self) -> None:
        """Stop the sprint log's worker thread."""
        if self._sprint_log is not None:
            self._sprint_log.close()
