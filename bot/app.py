"""The composition root: build every service from :class:`Settings`, in one place, at start-up.

It also hands the layers below what they may not import: the job a worker process runs (``run_in_worker``: the
executors do not know the dispatcher), and the Telegram edge's digest poster and bot runner (commands never talk to
Telegram). Those import the Telegram edge only when called.
"""

from __future__ import annotations

import functools

from pydantic import ValidationError

from bot.command import Command
from bot.context import AppContext
from bot.core.rescoring import ir_rescorer, method_rescorer
from bot.credentials import CredentialUnreadable
from bot.dispatch import execute
from bot.invocation import Invocation, UsageError
from bot.reply import Reply
from bot.settings import Settings
from engine.metrics import metrics_for
from engine.scoring import METRIC as IR_METRIC


def build_context(settings: Settings | None = None, *, deliver_sprint_log: bool = True) -> AppContext:
    """Create the application's services from settings (environment and ``.env`` when ``settings`` is None).

    rescorers: the IR scorer's current metric (``dally@1``) re-scores stored IR and generate() runs from
    their stored code (``sutro rescore dally@0 dally@1``); each metric a traced method run computes now
    (``ard@1`` …) re-scores stored method runs by tracing them again, attribution and histograms included.
    deliver_sprint_log: False for a job process on a Dask worker (see :attr:`AppContext.deliver_sprint_log`).
    """
    settings = settings or load_settings()
    rescorers = {m: method_rescorer(m) for m in metrics_for("numpy", "method")}
    rescorers[IR_METRIC] = ir_rescorer(dev_override=settings.dev_allow_unsandboxed)
    return AppContext(
        settings=settings,
        rescorers=rescorers,
        deliver_sprint_log=deliver_sprint_log,
        worker_job=run_in_worker,
        post_digest=functools.partial(_post_digest, settings),
        serve_telegram=_serve_telegram,
    )


def load_settings() -> Settings:
    """Settings from the environment, ``.env`` and systemd credential files; a bad value is one line naming its
    variable or credential (no traceback)."""
    try:
        return Settings()
    except CredentialUnreadable as err:
        raise UsageError(err.message, hint=err.hint) from None
    except ValidationError as err:
        first = err.errors()[0]
        variable = "SUTRO_" + str(first["loc"][0]).upper() if first.get("loc") else "a SUTRO_ setting"
        message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
        raise UsageError(
            f"{variable}: {message}", hint="fix it in the environment or .env (.env.example lists every setting)"
        ) from None


def run_in_worker(
    settings: Settings, command: Command, inv: Invocation, *, deliver_sprint_log: bool = True
) -> tuple[Reply, int]:
    """What a worker process does with a job: its own context from ``settings``, then the command.

    ``deliver_sprint_log=False`` (jobs on Dask workers): sprint-log entries are only saved in the outbox; the bot
    process delivers them (it alone has the data directory and the Google key, see docs/integrations.md#dask).
    """
    return execute(build_context(settings, deliver_sprint_log=deliver_sprint_log), command, inv)


def _post_digest(settings: Settings, reply: Reply, chat_id: int, topic_id: int | None) -> bool:
    from bot.telegram_app.digest_post import post_digest_now

    return post_digest_now(settings, reply, chat_id, topic_id)


def _serve_telegram(ctx: AppContext) -> None:
    from bot.telegram_app.application import serve

    serve(ctx)
