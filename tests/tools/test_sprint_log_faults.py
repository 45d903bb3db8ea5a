"""Fault tests of the sprint-log outbox against the fake Docs server, through the real googleapiclient: 429, 500,
503, 403, 404, a late answer (timeout after the write landed), a hung endpoint, poison text and a misconfigured key.

Oracle for every case: the document read back holds every entry exactly once, in the order saved, except the parked
ones, which the outbox reports with the service's reason.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.oauth2.credentials import Credentials

from storage.database import SessionFactory
from storage.outbox import backlog_size, entries, parked_entries
from tests.fakes.docs_server import FakeDocsServer
from tools.errors import ToolError
from tools.sprint_log.delivery import Backoff, OutboxDelivery
from tools.sprint_log.docs_requests import document_text
from tools.sprint_log.docs_sink import GoogleDocsSink
from tools.sprint_log.log import NOTE_LIMIT, SprintLog
from tools.sprint_log.sinks import deferred_sink

DOC_ID = "1FaultTestDocumentId_abcdefghijklmnopqrstu"


@pytest.fixture
def docs() -> Iterator[FakeDocsServer]:
    with FakeDocsServer() as server:
        server.create(DOC_ID)
        yield server


def docs_log(sessions: SessionFactory, docs: FakeDocsServer, *, timeout_s: float = 15.0) -> SprintLog:
    sink = GoogleDocsSink(
        document_id=DOC_ID, credentials=Credentials("t"), api_endpoint=docs.endpoint, timeout_s=timeout_s
    )
    delivery = OutboxDelivery(sessions, sink, backoff=Backoff(base_s=0.0), sleep=lambda _s: None)
    return SprintLog(sessions, delivery, reply_budget_s=timeout_s)


def landed(docs: FakeDocsServer, titles: list[str]) -> list[str]:
    """The titles found in the document, in document order (a note's line is ``H:MM <title> — <author>``); each
    must appear at most once."""
    text = document_text(docs.documents[DOC_ID].to_json())
    found = [re.sub(r"^\d{1,2}:\d\d | — [^—]*$", "", line) for line in text.split("\n")]
    for title in titles:
        assert found.count(title) <= 1, f"{title} written twice"
    return sorted((t for t in titles if t in found), key=found.index)


@pytest.mark.parametrize(
    ("faults", "needs_fix"),
    [
        ([429, 429], False),
        ([500], False),
        ([503, 503, 503], False),  # more failures than tries in one round: the next round delivers
        ([403], True),  # e.g. the document's sharing was changed: the queue waits, with the fix
        ([404], True),
        (["ok", 403], True),  # a refused write (read-only sharing): not the entry's fault, nothing is parked
    ],
)
def test_faults_every_entry_once_in_order(
    db_sessions: SessionFactory, docs: FakeDocsServer, faults: list[int | str], needs_fix: bool
) -> None:
    log = docs_log(db_sessions, docs)
    titles = [f"entry {i}" for i in range(1, 5)]
    try:
        docs.scripted_errors.extend(faults)
        first = log.append_entry(author="al", kind="note", title=titles[0])
        for title in titles[1:]:
            log.append_entry(author="al", kind="note", title=title)
        report = log.deliver_pending()
    finally:
        log.close()
    if needs_fix:
        assert first.state == "pending" and first.report.needs_fix
        assert first.problem is not None and ("share the document" in first.problem or "DOCUMENT_ID" in first.problem)
    assert (report.pending, report.parked) == (0, 0)
    assert landed(docs, titles) == titles
    with db_sessions() as s:
        assert all(e.state == "delivered" for e in entries(s))


@pytest.mark.slow
def test_late_answer_after_the_write_landed_is_not_written_twice(
    db_sessions: SessionFactory, docs: FakeDocsServer
) -> None:
    """The batchUpdate is carried out but answered after the client's timeout: the retry finds the marker."""
    docs.slow_s = 1.5
    log = docs_log(db_sessions, docs, timeout_s=0.5)
    try:
        docs.scripted_errors.extend(["ok", "slow"])  # the get answers, the write lands and is answered late
        first = log.append_entry(author="al", kind="note", title="entry 1")
        assert first.state == "pending" and first.problem is not None and "did not answer" in first.problem
        time.sleep(1.2)  # the late answer is sent (to a closed connection)
        log.append_entry(author="al", kind="note", title="entry 2")
        report = log.deliver_pending()
    finally:
        log.close()
    assert report.pending == 0
    assert landed(docs, ["entry 1", "entry 2"]) == ["entry 1", "entry 2"]


@pytest.mark.slow
def test_hung_endpoint_costs_one_timeout_and_keeps_the_entry(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    """An endpoint that accepts connections and never answers: the call returns within the timeout, entry saved."""
    log = docs_log(db_sessions, docs, timeout_s=0.5)
    try:
        log.delivery.sink.read()  # type: ignore[attr-defined]  # imports and service built (seconds of CPU, cold)
        docs.hung.set()
        started = time.monotonic()
        appended = log.append_entry(author="al", kind="note", title="while hung")
        elapsed = time.monotonic() - started
        assert appended.state == "pending" and "did not answer within 0.5 s" in (appended.problem or "")
        assert 0.5 <= elapsed < 0.5 + 1.5  # one request timeout, no retry past the budget (was 3 tries x 15 s)
        with db_sessions() as s:
            assert backlog_size(s) == 1
        docs.hung.clear()
        report = log.deliver_pending()
    finally:
        log.close()
    assert report.delivered == 1 and landed(docs, ["while hung"]) == ["while hung"]


def test_poison_entry_is_parked_the_rest_go_on_then_retry_and_drop(
    db_sessions: SessionFactory, docs: FakeDocsServer
) -> None:
    docs.reject_text = "POISON"
    log = docs_log(db_sessions, docs)
    try:
        log.append_entry(author="al", kind="note", title="before")
        poisoned = log.append_entry(author="al", kind="note", title="POISON one")
        after = log.append_entry(author="al", kind="note", title="after")
        other = log.append_entry(author="al", kind="note", title="POISON two")
        assert poisoned.state == "parked" and "400" in (poisoned.problem or "")
        assert after.state == "delivered" and after.report.parked == 1
        with db_sessions() as s:
            parked = parked_entries(s)
            assert [(e.title, e.state) for e in parked] == [("POISON one", "parked"), ("POISON two", "parked")]
            assert all("not accepted" in (e.last_error or "") for e in parked)
        assert landed(docs, ["before", "POISON one", "after"]) == ["before", "after"]
        docs.reject_text = None  # e.g. the cause was fixed on the service side
        assert poisoned.entry.id is not None and other.entry.id is not None
        retried = log.retry(poisoned.entry.id)
        assert retried.state == "delivered"
        log.drop(other.entry.id)
        with pytest.raises(ToolError, match="is delivered, not parked"):
            log.retry(poisoned.entry.id)
        with pytest.raises(ToolError, match="no sprint-log entry 99"):
            log.drop(99)
        report = log.deliver_pending()
    finally:
        log.close()
    assert (report.pending, report.parked) == (0, 0)
    assert landed(docs, ["before", "after", "POISON one", "POISON two"]) == ["before", "after", "POISON one"]
    with db_sessions() as s:
        assert {e.title: e.state for e in entries(s)}["POISON two"] == "dropped"


def test_poison_text_from_a_terminal_lands_normalised(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    """What used to overrun the batch (ANSI escapes, \\r, U+F8FF, an unpaired surrogate) now lands, in order."""
    log = docs_log(db_sessions, docs)
    try:
        first = log.append_entry(author="al", kind="note", title="\x1b[31mred\x1b[0m \uf8ff\udc80 ok", body="a\r\nb\rc")
        second = log.append_entry(author="al", kind="note", title="next")
    finally:
        log.close()
    assert (first.state, second.state) == ("delivered", "delivered")
    text = document_text(docs.documents[DOC_ID].to_json())
    assert "red \ufffd ok — al\n" in text and "\na\nb\nc\n" in text and "next — al\n" in text


def write_key(path: Path, token_uri: str) -> None:
    from tests.tools.test_sprint_log_service_account import write_key_file

    write_key_file(path, token_uri)


@pytest.mark.parametrize("key", ["missing", "garbage"])
def test_misconfigured_key_keeps_entries_until_it_is_fixed(
    db_sessions: SessionFactory, docs: FakeDocsServer, tmp_path: Path, key: str
) -> None:
    key_file = tmp_path / "sa.json"
    if key == "garbage":
        key_file.write_text("{not json")
    sink = deferred_sink(
        "gdocs", data_dir=tmp_path, document_id=DOC_ID, service_account_file=key_file, api_endpoint=docs.endpoint
    )
    log = SprintLog(db_sessions, OutboxDelivery(db_sessions, sink, backoff=Backoff(base_s=0.0)))
    try:
        first = log.append_entry(author="al", kind="note", title="entry 1")
        second = log.append_entry(author="al", kind="note", title="entry 2")
        assert first.state == "pending" and first.report.needs_fix
        assert "SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE" in (second.problem or "")
        write_key(key_file, f"{docs.endpoint}token")  # an admin puts the right key in place; no restart
        report = log.deliver_pending()
    finally:
        log.close()
    assert report.delivered == 2 and report.pending == 0
    assert landed(docs, ["entry 1", "entry 2"]) == ["entry 1", "entry 2"]


def test_a_key_google_refuses_holds_the_queue_with_the_fix(
    db_sessions: SessionFactory, docs: FakeDocsServer, tmp_path: Path
) -> None:
    key_file = tmp_path / "sa.json"
    write_key(key_file, f"{docs.endpoint}token")
    docs.refuse_tokens = True
    sink = deferred_sink(
        "gdocs", data_dir=tmp_path, document_id=DOC_ID, service_account_file=key_file, api_endpoint=docs.endpoint
    )
    log = SprintLog(db_sessions, OutboxDelivery(db_sessions, sink, backoff=Backoff(base_s=0.0)))
    try:
        first = log.append_entry(author="al", kind="note", title="entry 1")
        assert first.state == "pending" and first.report.needs_fix
        assert "refused the service-account credentials" in (first.problem or "")
        assert "SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE" in (first.problem or "")
        assert "invalid_grant" in (first.problem or "") and "('" not in (first.problem or "")  # not a Python tuple
        docs.refuse_tokens = False  # a new key is issued
        log.append_entry(author="al", kind="note", title="entry 2")
        report = log.deliver_pending()
    finally:
        log.close()
    assert report.pending == 0
    assert landed(docs, ["entry 1", "entry 2"]) == ["entry 1", "entry 2"]


def test_a_note_over_the_limit_is_refused_with_the_limit(db_sessions: SessionFactory, tmp_path: Path) -> None:
    log = SprintLog(db_sessions, OutboxDelivery(db_sessions, deferred_sink("markdown", data_dir=tmp_path)))
    with pytest.raises(ToolError) as err:
        log.append_entry(author="al", kind="note", title="long", body="x" * 10_000)
    assert err.value.one_line() == (
        f"the note has 10,004 characters; a note holds at most {NOTE_LIMIT:,} — split it into several notes"
    )
    with db_sessions() as s:
        assert entries(s) == []
