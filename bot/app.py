"""The composition root: build every service from :class:`Settings`, in one place, at start-up."""

from __future__ import annotations

from bot.context import AppContext
from bot.rescoring import ir_rescorer
from bot.settings import Settings
from engine.ir.scoring import METRIC as IR_METRIC


def build_context(settings: Settings | None = None, *, deliver_sprint_log: bool = True) -> AppContext:
    """Create the application's services from settings (environment and ``.env`` when ``settings`` is None).

    rescorers: the IR scorer's current metric (``dally@1``) re-scores stored IR and generate() runs from
    their stored code (``sutro rescore dally@0 dally@1``).
    deliver_sprint_log: False for a job process on a Dask worker (see :attr:`AppContext.deliver_sprint_log`).
    """
    settings = settings or Settings()
    rescorers = {IR_METRIC: ir_rescorer(dev_override=settings.dev_allow_unsandboxed)}
    return AppContext(settings=settings, rescorers=rescorers, deliver_sprint_log=deliver_sprint_log)
