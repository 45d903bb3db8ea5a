"""``status`` for operators: one row per part, each marked broken exactly when that part is — a database and sink
that work, a Google Doc sink without a document, a Docs outage with entries waiting (the row carries the failure's
reason), a parked entry, and a Dask scheduler address where nothing listens. (A scheduler that answers, with its
workers and load: tests/executors/test_status_cluster.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.dispatch import execute
from bot.settings import Settings
from storage.migrate import shipped_head
from storage.outbox import backlog_size
from tests.bot.test_sprint_log_outbox import DOC_ID, docs_settings
from tests.fakes.docs_server import FakeDocsServer
from tests.refusing_port import refusing_port

ADMIN = Caller(name="ada", user_id=1, is_admin=True)


@pytest.fixture
def docs() -> Iterator[FakeDocsServer]:
    with FakeDocsServer() as server:
        server.create(DOC_ID)
        yield server


def parts(ctx: AppContext) -> dict[str, tuple[str, bool]]:
    reply = run(ctx, "status")
    assert reply.data is not None
    found = {p["part"]: (p["value"], p["broken"]) for p in reply.data["parts"]}
    rows = {row[0]: row[1] for row in reply.tables[0].rows}
    for name, (value, broken) in found.items():  # the row and the JSON say the same, once
        assert rows[name] == (f"BROKEN — {value}" if broken else value)
    assert reply.data["broken"] == [name for name, (_v, broken) in found.items() if broken]
    return found


def run(ctx: AppContext, name: str, *args: str) -> Reply:
    command = command_named(name)
    assert command is not None
    reply, _status = execute(ctx, command, Invocation(command=name, args=list(args), caller=ADMIN))
    return reply


def context(**settings: Any) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, **settings))  # type: ignore[call-arg]


def test_a_working_local_deployment_has_nothing_broken(tmp_path: Path) -> None:
    ctx = context(data_dir=tmp_path)
    try:
        found = parts(ctx)
    finally:
        ctx.close()
    assert list(found) == [
        "database",
        "sprint-log sink",
        "sprint-log backlog",
        "executor",
        "sandbox tier",
        "last records sync",
        "next digest",
    ]
    assert found["database"] == (f"sqlite at {tmp_path / 'sutro.db'}, migration {shipped_head()}", False)
    assert found["sprint-log sink"] == (f"markdown, in {tmp_path}", False)
    assert found["sprint-log backlog"] == ("0 waiting, 0 parked", False)
    assert found["executor"] == ("local, 2 worker processes", False)
    assert found["last records sync"] == ("never", False)
    assert not found["next digest"][1]


def test_a_google_doc_sink_without_a_document_is_broken(tmp_path: Path) -> None:
    ctx = context(data_dir=tmp_path, sprint_log_sink="gdocs")
    try:
        value, broken = parts(ctx)["sprint-log sink"]
    finally:
        ctx.close()
    assert broken and "no document id" in value


@pytest.mark.slow  # 0.7 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_an_outage_shows_the_backlog_with_its_reason_and_a_parked_entry_shows(
    tmp_path: Path, docs: FakeDocsServer
) -> None:
    ctx = context(**docs_settings(tmp_path, docs))
    try:
        docs.scripted_errors.extend([403] * 10)  # the document's sharing was changed: every call refused
        run(ctx, "log", "a note during the outage")
        sink, backlog = parts(ctx)["sprint-log sink"], parts(ctx)["sprint-log backlog"]
        assert sink == (f"gdocs, Google Doc {DOC_ID}", False)
        with ctx.sessions()() as session:
            waiting = backlog_size(session)
        assert waiting >= 1  # the note (and any entry saved with it) waits
        assert backlog[1] and backlog[0].startswith(f"{waiting} waiting; oldest failed: Google Docs answered 403")
    finally:
        ctx.close()
    docs.scripted_errors.clear()
    docs.reject_text = "POISON"
    ctx = context(**docs_settings(tmp_path, docs))  # the bot restarted after the outage: waiting entries go at once
    try:
        run(ctx, "log", "POISON note")  # the earlier entries land, this one is refused for good
        value, broken = parts(ctx)["sprint-log backlog"]
    finally:
        ctx.close()
    assert broken and value.startswith("0 waiting, 1 parked")


def test_a_scheduler_address_where_nothing_listens_is_broken(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    with refusing_port() as port:
        ctx = context(data_dir=tmp_path, dask_scheduler=f"tcp://127.0.0.1:{port}")
        try:
            value, broken = parts(ctx)["executor"]
        finally:
            ctx.close()
    assert broken and value.startswith(f"Dask scheduler tcp://127.0.0.1:{port} unreachable")
