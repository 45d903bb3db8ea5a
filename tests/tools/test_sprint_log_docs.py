"""The Google Docs sprint log against a fake Docs server, through the real googleapiclient (static discovery,
endpoint override): order, tables, UTF-16 text, 429 retry, an outage, and a crash between write and outbox update."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.oauth2.credentials import Credentials

from storage.database import SessionFactory
from storage.outbox import backlog_size, entries
from tests.fakes.docs_server import FakeDocsServer
from tools.errors import ToolError
from tools.sprint_log.delivery import Backoff, OutboxDelivery
from tools.sprint_log.docs_requests import document_text
from tools.sprint_log.docs_sink import GoogleDocsSink
from tools.sprint_log.entry import EntryChart
from tools.sprint_log.images import PublicFolder
from tools.sprint_log.log import SprintLog
from tools.sprint_log.sinks import make_sink

ROOT = Path(__file__).resolve().parents[2]
DOC_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-"
RESULTS = [("dally@1", "1 234", "−66 (−5.1%)", "+10"), ("ard@1", "3.5 ⚡", "", "")]


@pytest.fixture
def docs() -> Iterator[FakeDocsServer]:
    with FakeDocsServer() as server:
        server.create(DOC_ID)
        yield server


def make_log(sessions: SessionFactory, docs: FakeDocsServer, sleeps: list[float] | None = None) -> SprintLog:
    sink = GoogleDocsSink(document_id=DOC_ID, credentials=Credentials("test-token"), api_endpoint=docs.endpoint)
    delivery = OutboxDelivery(
        sessions, sink, backoff=Backoff(base_s=0.0), sleep=(sleeps if sleeps is not None else []).append
    )
    return SprintLog(sessions, delivery)


def body_paragraphs(document: dict[str, Any]) -> list[tuple[str, str]]:
    """(named style, text) of the top-level paragraphs."""
    out = []
    for element in document["body"]["content"]:
        if "paragraph" in element:
            p = element["paragraph"]
            text = "".join(e["textRun"]["content"] for e in p["elements"])
            out.append((p["paragraphStyle"]["namedStyleType"], text.rstrip("\n")))
    return out


def tables(document: dict[str, Any]) -> list[list[list[str]]]:
    found = []
    for element in document["body"]["content"]:
        if "table" in element:
            found.append(
                [
                    [
                        "".join(
                            e["textRun"]["content"] for p in cell["content"] for e in p["paragraph"]["elements"]
                        ).rstrip("\n")
                        for cell in row["tableCells"]
                    ]
                    for row in element["table"]["tableRows"]
                ]
            )
    return found


def test_entries_with_tables_land_in_order_and_read_back(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    log = make_log(db_sessions, docs)
    try:
        log.append_entry(
            author="Алиса",
            kind="run",
            title="local_update n=20 🚀",
            body="first try\nsecond line",
            results=RESULTS,
        )
        log.append_entry(author="bob", kind="note", title="Заметка 📝 about 行列")
        log.append_entry(author="bob", kind="score", title="tiled 😀😀", results=RESULTS[:1])
        document = log.delivery.sink.read()  # type: ignore[attr-defined]
    finally:
        log.close()
    paragraphs = [p for p in body_paragraphs(document) if p[1]]
    styles = [style for style, _ in paragraphs]
    texts = [text for _, text in paragraphs]
    assert styles[0] == "HEADING_1" and texts[0].startswith("Week ")
    firsts = [t for s, t in paragraphs if s == "NORMAL_TEXT" and re.match(r"\d{1,2}:\d\d ", t)]
    assert [t.split(" ", 1)[1] for t in firsts] == [  # H:MM, the title or headline, the author
        "local_update n=20 🚀 — Алиса",
        "Заметка 📝 about 行列 — bob",
        "tiled 😀😀 — bob",
    ]
    assert styles.count("HEADING_1") == 1  # one week heading for the three entries of this week
    assert ("NORMAL_TEXT", "first try") in paragraphs and ("NORMAL_TEXT", "second line") in paragraphs
    assert len(document["namedRanges"]) == 3 and all(n.startswith("sutro#") for n in document["namedRanges"])
    header = ["metric", "value", "vs baseline", "vs record"]
    assert tables(document) == [[header, *map(list, RESULTS)], [header, list(RESULTS[0])]]
    assert docs.batch_updates() == 3
    # the header row is bold, body cells are not
    first_table = next(e for e in document["body"]["content"] if "table" in e)["table"]
    header_runs = [
        cell["content"][0]["paragraph"]["elements"][0]["textRun"] for cell in first_table["tableRows"][0]["tableCells"]
    ]
    assert all(run["textStyle"].get("bold") for run in header_runs)
    body_run = first_table["tableRows"][1]["tableCells"][0]["content"][0]["paragraph"]["elements"][0]["textRun"]
    assert not body_run["textStyle"].get("bold")


def test_429_then_success_retries_after_backoff(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    sleeps: list[float] = []
    log = make_log(db_sessions, docs, sleeps)
    log.delivery.backoff = Backoff(base_s=0.5)
    docs.scripted_errors.extend([429])
    try:
        appended = log.append_entry(author="al", kind="note", title="after a 429")
    finally:
        log.close()
    assert appended.report.delivered == 1 and appended.report.pending == 0
    assert sleeps == [0.5]
    assert document_text(docs.documents[DOC_ID].to_json()).count("after a 429") == 1


def test_docs_down_then_back_every_entry_once_in_order(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    log = make_log(db_sessions, docs)
    try:
        log.append_entry(author="al", kind="note", title="entry 1")
        docs.stop()
        reports = [log.append_entry(author="al", kind="note", title=f"entry {i}").report for i in (2, 3, 4)]
        assert [r.pending for r in reports] == [1, 2, 3]
        assert all(r.error and "unreachable" in r.error for r in reports)
        docs.start()  # same port
        docs.scripted_errors.extend([503])  # still flaky for one call
        report = log.append_entry(author="al", kind="note", title="entry 5").report
    finally:
        log.close()
    assert report.pending == 0 and report.delivered == 4
    text = document_text(docs.documents[DOC_ID].to_json())
    positions = [text.index(f"entry {i} — al\n") for i in range(1, 6)]
    assert positions == sorted(positions)
    assert all(text.count(f"entry {i} — al\n") == 1 for i in range(1, 6))
    with db_sessions() as s:
        assert backlog_size(s) == 0 and all(e.state == "delivered" for e in entries(s))


def test_write_lands_but_answer_is_lost_no_duplicate(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    log = make_log(db_sessions, docs)
    docs.drop_after_next_write = True
    try:
        report = log.append_entry(author="al", kind="note", title="only once").report
    finally:
        log.close()
    assert report.pending == 0
    # httplib2 itself re-sends the POST once on a dropped connection: requiredRevisionId makes that stale copy
    # fail, and our retry re-reads the document, finds the marker and does not write again
    assert docs.batch_updates() >= 1
    assert document_text(docs.documents[DOC_ID].to_json()).count("only once") == 1


CRASHING_DELIVERER = """
import os, sys
from datetime import timedelta
from google.oauth2.credentials import Credentials
from storage.database import make_engine, session_factory
from tools.sprint_log import delivery
from tools.sprint_log.delivery import OutboxDelivery
from tools.sprint_log.docs_sink import GoogleDocsSink

# the dead process's lease on the sink expires after its TTL, and only then does the next round deliver: 1 s here
# instead of the 30 s a real deliverer takes, so the test does not sit out the wait
delivery.LEASE_TTL = timedelta(seconds=1)

class DiesAfterWriting(GoogleDocsSink):
    def deliver(self, entry):
        written = super().deliver(entry)
        os._exit(17)  # the process dies after Docs accepted the write, before the outbox row is updated

url, endpoint, doc_id = sys.argv[1:4]
sink = DiesAfterWriting(document_id=doc_id, credentials=Credentials("t"), api_endpoint=endpoint)
OutboxDelivery(session_factory(make_engine(url)), sink).deliver_pending()
"""


@pytest.mark.slow
def test_crash_between_docs_write_and_outbox_update_no_duplicate(
    db_sessions: SessionFactory, docs: FakeDocsServer, tmp_path: Path
) -> None:
    from storage.outbox import save_entry

    with db_sessions() as s:
        save_entry(s, author="al", kind="note", title="survives a crash")
        save_entry(s, author="al", kind="note", title="the one after")
    url = f"sqlite:///{tmp_path / 'test.db'}"
    child = subprocess.run(
        [sys.executable, "-c", CRASHING_DELIVERER, url, docs.endpoint, DOC_ID],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 17, child.stderr
    with db_sessions() as s:
        assert backlog_size(s) == 2  # the crashed process never marked it delivered
    log = make_log(db_sessions, docs)
    try:
        report = log.delivery.deliver_pending()
    finally:
        log.close()
    assert (report.delivered, report.already_present, report.pending) == (1, 1, 0)
    text = document_text(docs.documents[DOC_ID].to_json())
    assert text.count("survives a crash") == 1 and text.count("the one after") == 1
    assert text.index("survives a crash") < text.index("the one after")


def test_malformed_document_id_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ToolError) as err:
        make_sink("gdocs", data_dir=tmp_path, document_id="not a doc id!", credentials=Credentials("t"))
    assert "malformed Google Docs document id" in err.value.one_line()
    assert "SUTRO_GOOGLE_DOCS_DOCUMENT_ID" in err.value.one_line()


def test_document_url_is_accepted_as_id(tmp_path: Path) -> None:
    sink = make_sink(
        "gdocs",
        data_dir=tmp_path,
        document_id=f"https://docs.google.com/document/d/{DOC_ID}/edit",
        credentials=Credentials("t"),
    )
    try:
        assert sink.document_id == DOC_ID  # type: ignore[attr-defined]
    finally:
        sink.close()


@pytest.mark.parametrize("path", [None, "/nonexistent/key.json"])
def test_missing_credentials_is_one_line_with_fix(tmp_path: Path, path: str | None) -> None:
    with pytest.raises(ToolError) as err:
        make_sink("gdocs", data_dir=tmp_path, document_id=DOC_ID, service_account_file=path)
    line = err.value.one_line()
    assert "\n" not in line and "SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE" in line


def test_unknown_sink_name(tmp_path: Path) -> None:
    with pytest.raises(ToolError) as err:
        make_sink("slack", data_dir=tmp_path)
    assert "markdown or gdocs" in err.value.one_line()


@pytest.mark.slow
def test_entries_from_several_threads_each_land_once(db_sessions: SessionFactory, docs: FakeDocsServer) -> None:
    """Commands run on several threads; the sink funnels every Docs call through its one worker thread."""
    import threading

    log = make_log(db_sessions, docs)
    try:
        threads = [
            threading.Thread(
                target=log.append_entry, kwargs={"author": f"t{i}", "kind": "note", "title": f"thread {i}"}
            )
            for i in range(6)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert log.deliver_pending().pending == 0
    finally:
        log.close()
    text = document_text(docs.documents[DOC_ID].to_json())
    assert all(text.count(f"thread {i} — t{i}\n") == 1 for i in range(6))
    with db_sessions() as s:
        saved = [(e.title, e.author) for e in sorted(entries(s), key=lambda e: e.id or 0)]
    # the document order is the outbox (save) order
    assert saved == sorted(saved, key=lambda t: text.index(f"{t[0]} — {t[1]}\n"))


def test_unshared_or_missing_document_keeps_entries_and_says_how_to_fix(
    db_sessions: SessionFactory, docs: FakeDocsServer
) -> None:
    del docs.documents[DOC_ID]  # 404, as for a document not shared with the service account
    log = make_log(db_sessions, docs)
    try:
        report = log.append_entry(author="al", kind="note", title="kept").report
        queued = log.append_entry(author="al", kind="note", title="queued only", deliver=False).report
    finally:
        log.close()
    assert report.pending == 1 and report.error is not None
    assert "404" in report.error and "SUTRO_GOOGLE_DOCS_DOCUMENT_ID" in report.error
    assert queued.pending == 2 and queued.delivered == 0


def test_a_chart_is_published_and_placed_inline_and_an_entry_after_it_starts_a_new_paragraph(
    db_sessions: SessionFactory, docs: FakeDocsServer, tmp_path: Path
) -> None:
    """Through the real client: the chart's PNG lands in the public folder, the Doc gets an inline image of its
    URL after the table (the request passes the discovery check in the fake), and the next entry is not glued to
    the image's paragraph."""
    host = PublicFolder(tmp_path / "public", "https://charts.example.org/s")
    sink = GoogleDocsSink(
        document_id=DOC_ID, credentials=Credentials("test-token"), api_endpoint=docs.endpoint, image_host=host
    )
    log = SprintLog(db_sessions, OutboxDelivery(db_sessions, sink, backoff=Backoff(base_s=0.0), sleep=[].append))
    png = b"\x89PNG\r\n\x1a\nchart"
    try:
        first = log.append_entry(
            author="al",
            kind="run",
            title="t",
            results=RESULTS,
            charts=[EntryChart("reuse", "reuse distances", png)],
        )
        log.append_entry(author="al", kind="note", title="after the chart")
    finally:
        log.close()
    [published] = list((tmp_path / "public").iterdir())
    assert published.read_bytes() == png and published.name == f"{first.entry.uid}-reuse.png"
    document = docs.documents[DOC_ID]
    assert document.image_uris() == [f"https://charts.example.org/s/{published.name}"]
    assert re.search(r"\n\d{1,2}:\d\d after the chart — al\n", document_text(document.to_json()))
