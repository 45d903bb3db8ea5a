"""A Docs write conflict (another editor moved the document on between the read and the write) is recognised by
what the API says, not by how it words it: the entry is written once, later in the same round, and never parked.

The fake Docs server answers the stale ``requiredRevisionId`` in three ways: Google's wording with status
FAILED_PRECONDITION, other words with the same status, and other words with status INVALID_ARGUMENT (where only the
document's revision having moved on tells a conflict from a refused entry). Oracle: the document read back holds
the entry exactly once, the outbox has nothing pending or parked, and exactly two batchUpdates were sent (the
refused one and the one that landed).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from google.oauth2.credentials import Credentials

from storage.database import SessionFactory
from storage.outbox import entries
from tests.fakes.docs_server import FakeDocsServer
from tools.sprint_log.delivery import Backoff, OutboxDelivery
from tools.sprint_log.docs_requests import document_text
from tools.sprint_log.docs_sink import GoogleDocsSink
from tools.sprint_log.log import SprintLog

DOC_ID = "1ConflictTestDocumentId_abcdefghijklmnopq"


@pytest.fixture
def docs() -> Iterator[FakeDocsServer]:
    with FakeDocsServer() as server:
        server.create(DOC_ID)
        yield server


def docs_log(sessions: SessionFactory, docs: FakeDocsServer) -> SprintLog:
    sink = GoogleDocsSink(document_id=DOC_ID, credentials=Credentials("t"), api_endpoint=docs.endpoint)
    return SprintLog(sessions, OutboxDelivery(sessions, sink, backoff=Backoff(base_s=0.0), sleep=lambda _s: None))


@pytest.mark.parametrize(
    ("message", "status"),
    [
        ("The required revision ID does not match the latest revision.", "FAILED_PRECONDITION"),
        ("Precondition check failed.", "FAILED_PRECONDITION"),
        ("Request contains an invalid argument.", "INVALID_ARGUMENT"),
    ],
)
def test_a_conflict_in_any_wording_is_retried_not_parked(
    db_sessions: SessionFactory, docs: FakeDocsServer, message: str, status: str
) -> None:
    docs.conflict_message, docs.conflict_status = message, status
    docs.edit_before_next_write = True
    log = docs_log(db_sessions, docs)
    try:
        appended = log.append_entry(author="al", kind="note", title="conflicted entry")
    finally:
        log.close()
    assert appended.state == "delivered", appended.problem
    assert document_text(docs.documents[DOC_ID].to_json()).count("conflicted entry") == 1
    assert docs.batch_updates() == 2
    with db_sessions() as s:
        assert [e.state for e in entries(s)] == ["delivered"]


def test_a_refused_entry_whose_document_did_not_move_is_still_parked(
    db_sessions: SessionFactory, docs: FakeDocsServer
) -> None:
    """The revision check does not excuse a genuine refusal: poison text on an unchanged document is parked."""
    docs.reject_text = "poison"
    log = docs_log(db_sessions, docs)
    try:
        appended = log.append_entry(author="al", kind="note", title="poison entry")
    finally:
        log.close()
    assert appended.state != "delivered"
    with db_sessions() as s:
        assert [e.state for e in entries(s)] == ["parked"]
