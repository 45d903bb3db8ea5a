"""Open the database and the sprint log from settings (called lazily by :class:`bot.context.AppContext`)."""

from __future__ import annotations

from typing import Any

from bot.settings import Settings
from storage.database import SessionFactory, database_url_for, make_engine, session_factory
from storage.migrate import upgrade_to_head
from tools.sprint_log.delivery import OutboxDelivery
from tools.sprint_log.log import SprintLog
from tools.sprint_log.sinks import deferred_sink


def open_database(settings: Settings) -> SessionFactory:
    """The engine for ``settings.database_url`` (SQLite in the data directory by default), migrated to head."""
    engine = make_engine(database_url_for(settings.database_url, settings.data_dir))
    upgrade_to_head(engine)
    return session_factory(engine)


def open_sprint_log(
    settings: Settings, sessions: SessionFactory, *, sink: str | None = None, document_id: str | None = None
) -> SprintLog:
    """The sprint log writing to ``sink``/``document_id`` (default: the settings') through the outbox. The sink is
    opened at the first delivery: wrong settings hold the outbox with the fix, they never refuse an entry."""
    chosen = deferred_sink(
        sink if sink is not None else settings.sprint_log_sink,
        data_dir=settings.data_dir,
        document_id=document_id if document_id is not None else settings.google_docs_document_id,
        service_account_file=settings.google_service_account_file,
        api_endpoint=settings.google_docs_endpoint or None,
        timeout_s=settings.google_docs_timeout_s,
        image_base_url=settings.sprint_log_image_base_url,
    )
    return SprintLog(sessions, OutboxDelivery(sessions, chosen), reply_budget_s=settings.google_docs_timeout_s)


SEED_FIELDS: dict[str, str] = {
    "sprint_log.document_id": "google_docs_document_id",
    "sprint_log.sink": "sprint_log_sink",
    "limits.queue_per_member": "job_queue_per_member",
    "chats.allowed": "allowed_chats",
    "assistant.model": "anthropic_model",
    "assistant.monthly_budget_usd": "anthropic_monthly_budget_usd",
}
"""Tool setting -> the deployment setting (bot/settings.py field) its default comes from."""


def config_seeds(settings: Settings) -> dict[str, Any]:
    """Tool-setting defaults taken from the deployment's settings (an admin's /config override still wins)."""
    return {key: getattr(settings, field) for key, field in SEED_FIELDS.items()}
