"""The operator's rows of ``status``: one per part of the deployment — database, sprint-log sink and its backlog,
executor, sandbox, records sync — each saying what it is and whether it is broken.

A part is broken when it cannot do its job now: the database does not answer or is behind the shipped migrations;
the sink has no document or waits on a failure (the oldest waiting entry's reason is shown) or holds parked
entries; the Dask scheduler does not answer or has no worker; the sandbox isolates nothing. Each is a typed
:class:`PartStatus`, rendered once as a table row and once in ``--json`` (``parts``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import make_url

from bot.context import AppContext
from bot.core.store import StorageError, redact
from bot.core.store_health import migrations, outbox_state
from bot.executors.cluster_probe import probe_cluster
from engine.sandbox import TierReport


@dataclass(frozen=True)
class PartStatus:
    """One part: its ``name`` (the row's label), what it is and how it is (``value``), and ``broken``."""

    name: str
    value: str
    broken: bool

    def row(self) -> list[str]:
        return [self.name, f"BROKEN — {self.value}" if self.broken else self.value]

    def as_json(self) -> dict[str, object]:
        return {"part": self.name, "value": self.value, "broken": self.broken}


@dataclass(frozen=True)
class RecordsSync:
    """When the group's published records were last synced: ``at`` (None: never), from ``source``, and the error of
    the last attempt ("" when it worked)."""

    at: datetime | None
    source: str = ""
    error: str = ""


def last_records_sync(ctx: AppContext) -> RecordsSync:
    """The last records sync. A hook: this version of the bot has no records sync, so it is always "never"; the
    branch that adds the sync returns its stored state here."""
    return RecordsSync(at=None)


def database_part(ctx: AppContext) -> PartStatus:
    """Kind (sqlite / postgresql), where (host and database, or the file), and the migration version."""
    url = ctx.settings.database_url or f"sqlite:///{ctx.settings.data_dir / 'sutro.db'}"
    try:
        parsed = make_url(url)
        kind = parsed.get_backend_name()
        where = parsed.database or "" if kind == "sqlite" else f"{parsed.host or 'localhost'}/{parsed.database or ''}"
    except Exception:  # noqa: BLE001 - an unparseable URL is shown redacted and is itself the problem
        kind, where = "unknown", redact(url)
    try:
        state = migrations(ctx.sessions())
    except StorageError as exc:
        return PartStatus("database", f"{kind} at {where}: {exc.one_line()}", True)
    except Exception as exc:  # noqa: BLE001 - whatever the driver raises, the row says it
        return PartStatus("database", f"{kind} at {where}: unreachable ({type(exc).__name__})", True)
    version = f"migration {state.current or 'none'}" + (f" (shipped: {state.shipped})" if state.behind else "")
    return PartStatus("database", f"{kind} at {where}, {version}", state.behind)


def sink_parts(ctx: AppContext) -> list[PartStatus]:
    """The sprint-log sink (kind and document) and its backlog (with the oldest failure's reason, and parked)."""
    config = ctx.tool_config()
    sink = str(config.get("sprint_log.sink"))
    document = str(config.get("sprint_log.document_id") or "")
    if sink == "gdocs":
        missing = []
        if not document:
            missing.append("no document id (sprint_log.document_id)")
        if not ctx.settings.google_service_account_file:
            missing.append("no service-account key (SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE)")
        where = f"Google Doc {document}" if document else "Google Docs"
        target = PartStatus(
            "sprint-log sink", f"gdocs, {where}" + (": " + "; ".join(missing) if missing else ""), bool(missing)
        )
    else:
        target = PartStatus("sprint-log sink", f"{sink}, in {ctx.settings.data_dir}", False)
    outbox = outbox_state(ctx.sessions(), show_parked=0)
    reason, parked = outbox.oldest_failure, outbox.parked
    text = f"{outbox.waiting} waiting" + (f"; oldest failed: {reason[:200]}" if reason else "")
    text += f", {parked} parked" + (" (admins: /log retry ID or /log drop ID)" if parked else "")
    return [target, PartStatus("sprint-log backlog", text, bool(reason) or parked > 0)]


def executor_part(ctx: AppContext) -> PartStatus:
    """Local worker processes, or the Dask scheduler: reachable or not, its workers and their load."""
    address = ctx.settings.dask_scheduler
    if not address:
        return PartStatus("executor", f"local, {ctx.settings.job_workers} worker processes", False)
    state = probe_cluster(address)
    if not state.reachable:
        return PartStatus("executor", f"Dask scheduler {address} unreachable: {state.error}", True)
    load = f"{state.tasks} tasks on {state.threads} threads ({state.load:.0%} busy)"
    return PartStatus("executor", f"Dask scheduler {address}, {state.workers} workers, {load}", state.workers == 0)


def sandbox_part(tier: TierReport) -> PartStatus:
    """The sandbox tier; broken when it isolates nothing (members' code would run unconfined)."""
    return PartStatus("sandbox tier", tier.description, not tier.isolated)


def records_sync_part(ctx: AppContext) -> PartStatus:
    sync = last_records_sync(ctx)
    if sync.at is None:
        return PartStatus(
            "last records sync", "never" + (f" (last attempt: {sync.error})" if sync.error else ""), bool(sync.error)
        )
    when = f"{sync.at:%Y-%m-%d %H:%M %Z}" + (f" from {sync.source}" if sync.source else "")
    return PartStatus(
        "last records sync", when + (f"; last attempt failed: {sync.error}" if sync.error else ""), bool(sync.error)
    )
