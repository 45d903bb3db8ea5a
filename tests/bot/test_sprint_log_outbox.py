"""The sprint-log outbox from the bot's side: ``/status`` shows parked entries with their reason, admins ``/log retry``
or ``/log drop`` them, and the bot's JobQueue job delivers waiting entries without anyone writing a new one.

Real parts: the command layer, the database, googleapiclient with a service-account key against the fake Docs
server, and the PTB Application against the fake Bot API (the job is force-run with ``job.run(app)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import build_context
from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.dispatch import execute
from bot.settings import Settings
from bot.telegram_app.application import build_bot
from bot.telegram_app.outbox_job import JOB_NAME
from tests.bot.telegram_harness import TEST_COMMANDS, settings_for
from tests.fakes.bot_api import FakeBotApi
from tests.fakes.docs_server import FakeDocsServer
from tests.tools.test_sprint_log_service_account import write_key_file
from tools.sprint_log.docs_requests import document_text

DOC_ID = "1OutboxCommandsDocumentId_0123456789abc"
ADMIN = Caller(name="ada", user_id=1, is_admin=True)
MEMBER = Caller(name="bob", user_id=2)


@pytest.fixture
def docs() -> Iterator[FakeDocsServer]:
    with FakeDocsServer() as server:
        server.create(DOC_ID)
        yield server


def docs_settings(tmp_path: Path, docs: FakeDocsServer, **extra: Any) -> dict[str, Any]:
    key_file = tmp_path / "sa.json"
    write_key_file(key_file, f"{docs.endpoint}token")
    return {
        "data_dir": tmp_path,
        "sprint_log_sink": "gdocs",
        "google_docs_document_id": DOC_ID,
        "google_service_account_file": key_file,
        "google_docs_endpoint": docs.endpoint,
        **extra,
    }


def call(ctx: AppContext, name: str, *args: str, caller: Caller = MEMBER) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), caller=caller))


def status_rows(reply: Reply) -> dict[str, str]:
    return {row[0]: row[1] for row in reply.tables[0].rows}


def doc_text(docs: FakeDocsServer) -> str:
    return document_text(docs.documents[DOC_ID].to_json())


@pytest.mark.slow
def test_parked_entry_in_status_then_retried_or_dropped_by_admins(tmp_path: Path, docs: FakeDocsServer) -> None:
    ctx = AppContext(settings=Settings(_env_file=None, **docs_settings(tmp_path, docs)))  # type: ignore[call-arg]
    docs.reject_text = "POISON"
    try:
        reply, status = call(ctx, "log", "POISON note")
        assert status == 1 and reply.text.startswith("saved as entry 1; parked, the gdocs sprint log refused it: ")
        assert "400" in reply.text
        reply, status = call(ctx, "log", "a later note")
        assert status == 0 and reply.text == "note 2 written to the gdocs sprint log"
        reply, _ = call(ctx, "status")
        rows = status_rows(reply)
        assert rows["sprint-log entries parked"].startswith("1 (admins: /log retry ID")
        assert rows["parked #1"].startswith("POISON note: Google Docs answered 400")
        assert reply.data is not None and reply.data["outbox_parked"][0]["entry"] == 1

        reply, status = call(ctx, "log", "retry", "1")
        assert status == 2 and "only admins" in reply.text
        docs.reject_text = None
        reply, status = call(ctx, "log", "retry", "1", caller=ADMIN)
        assert status == 0 and reply.text == "entry 1 written to the gdocs sprint log"
        reply, status = call(ctx, "log", "drop", "1", caller=ADMIN)
        assert status == 2 and reply.text == "entry 1 is delivered, not parked — /status lists the parked entries"

        docs.reject_text = "POISON"
        call(ctx, "log", "POISON again")
        reply, status = call(ctx, "log", "drop", "#3", caller=ADMIN)
        assert status == 0 and reply.text.startswith("entry 3 dropped")
        reply, _ = call(ctx, "status")
        assert status_rows(reply)["sprint-log entries parked"] == "0"
        reply, status = call(ctx, "log", "retry", "tomorrow")  # not an entry number: an ordinary note
        assert status == 0 and "note 4 written" in reply.text
    finally:
        ctx.close()
    text = doc_text(docs)
    # a note is one line "H:MM text — author" (the CLI caller is "local")
    assert text.index("a later note — ") < text.index("POISON note — ") < text.index("retry tomorrow — ")
    assert "POISON again" not in text


@pytest.mark.e2e
@pytest.mark.timeout(60)
async def test_the_bot_drains_the_outbox_on_its_job_queue(
    fake: FakeBotApi, docs: FakeDocsServer, tmp_path: Path
) -> None:
    settings = settings_for(fake, job_workers=1, **docs_settings(tmp_path, docs))
    saver = build_context(settings)
    for title in ("first waiting", "second waiting"):
        saver.sprint_log().append_entry(author="al", kind="note", title=title, deliver=False)
    saver.close()
    bot = build_bot(build_context(settings), commands=TEST_COMMANDS)
    await bot.start(poll_timeout_s=1)
    try:
        assert bot.app.job_queue is not None
        [job] = bot.app.job_queue.get_jobs_by_name(JOB_NAME)
        assert "first waiting" not in doc_text(docs)  # nothing delivered them yet
        await job.run(bot.app)
    finally:
        await bot.stop()
    text = doc_text(docs)
    assert text.index("first waiting — al\n") < text.index("second waiting — al\n")
    assert text.count("first waiting — al\n") == 1 and text.count("second waiting — al\n") == 1


def test_a_ten_thousand_character_note_is_refused_with_the_limit(
    tmp_path: Path, migrated_data_dir: Callable[[Path], Path]
) -> None:
    ctx = AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path)))  # type: ignore[call-arg]
    try:
        reply, status = call(ctx, "log", "x" * 10_000)  # one line: it used to be cut to a 200-character title
        assert status == 2
        assert reply.text == "the note has 10,000 characters; a note holds at most 4,000 — split it into several notes"
        reply, status = call(ctx, "log", "fine")
        assert status == 0 and reply.text == "note 1 written to the markdown sprint log"  # nothing was saved before
    finally:
        ctx.close()
