"""Test-only commands (fixtures, not product code): report which secrets a job's process can see — in its
environment and in the settings it was handed. Module-level so a Dask worker's job process can import them."""

from __future__ import annotations

import os

from bot.commands.base import Command, Invocation, Reply
from bot.context import AppContext

WATCHED = (
    "SUTRO_TELEGRAM_BOT_TOKEN",
    "SUTRO_TELEGRAM_WEBHOOK_SECRET",
    "SUTRO_ANTHROPIC_API_KEY",
    "ANTHROPIC_API_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "SUTRO_DATABASE_URL",
)


def _report(ctx: AppContext, inv: Invocation) -> Reply:
    s = ctx.settings
    return Reply(
        text="reported",
        data={
            "pid": os.getpid(),
            "env": sorted(name for name in WATCHED if name in os.environ),
            "token": s.telegram_bot_token is not None,
            "webhook_secret": s.telegram_webhook_secret is not None,
            "anthropic_key": s.anthropic_api_key is not None,
            "google_key_file": s.google_service_account_file is not None,
        },
    )


ENV_REPORT = Command(name="envreport", summary="Test fixture: which secrets the job sees", usage="", handler=_report)
ASSISTANT_ENV_REPORT = Command(
    name="envreport_assistant",
    summary="Test fixture: which secrets an assistant job sees",
    usage="",
    handler=_report,
    needs_assistant=True,
)


BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _report_blas(ctx: AppContext, inv: Invocation) -> Reply:
    return Reply(text="reported", data={name: os.environ.get(name) for name in BLAS_VARIABLES})


BLAS_REPORT = Command(
    name="blasreport", summary="Test fixture: the BLAS thread settings a job sees", usage="", handler=_report_blas
)
