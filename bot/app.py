"""The composition root: build every service from :class:`Settings`, in one place, at start-up.

It also hands the layers below what they may not import: the job a worker process runs (``run_in_worker``: the
executors do not know the dispatcher), and the Telegram edge's digest poster and bot runner (commands never talk to
Telegram). Those import the Telegram edge only when called.
"""

from __future__ import annotations

import functools

from bot.command import Command
from bot.context import AppContext
from bot.core.rescoring import ir_rescorer
from bot.dispatch import execute
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings
from engine.scoring.ir import METRIC as IR_METRIC


def build_context(settings: Settings | None = None) -> AppContext:
    """Create the application's services from settings (environment and ``.env`` when ``settings`` is None).

    rescorers: the IR scorer's current metric (``dally@1``) re-scores stored IR and generate() runs from
    their stored code (``sutro rescore dally@0 dally@1``).
    """
    settings = settings or Settings()
    rescorers = {IR_METRIC: ir_rescorer(dev_override=settings.dev_allow_unsandboxed)}
    return AppContext(
        settings=settings,
        rescorers=rescorers,
        worker_job=run_in_worker,
        post_digest=functools.partial(_post_digest, settings),
        serve_telegram=_serve_telegram,
    )


def run_in_worker(settings: Settings, command: Command, inv: Invocation) -> tuple[Reply, int]:
    """What a worker process does with a job: its own context from ``settings``, then the command."""
    return execute(build_context(settings), command, inv)


def _post_digest(settings: Settings, reply: Reply, chat_id: int, topic_id: int | None) -> bool:
    from bot.telegram_app.digest_post import post_digest_now

    return post_digest_now(settings, reply, chat_id, topic_id)


def _serve_telegram(ctx: AppContext) -> None:
    from bot.telegram_app.application import serve

    serve(ctx)
