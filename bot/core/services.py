"""What the core needs from the application: the database, the admins' settings and policy, the sprint log.

A structural type: ``bot.context.AppContext`` (built by the composition root) provides it, and so can a test's
own small object. The core never builds a service itself.
"""

from __future__ import annotations

from typing import Protocol

from bot.settings import Settings
from storage.database import SessionFactory
from tools.config.policy import RunPolicy
from tools.config.store import ToolConfig
from tools.sprint_log.log import SprintLog


class Services(Protocol):
    """The services a use case may call (each opened on first use by the provider)."""

    @property
    def settings(self) -> Settings: ...

    def sessions(self) -> SessionFactory: ...

    def tool_config(self) -> ToolConfig: ...

    def run_policy(self) -> RunPolicy: ...

    def sprint_log(self) -> SprintLog: ...
