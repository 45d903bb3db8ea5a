"""The batchUpdate builder: UTF-16 indices, cell positions, and the style-inheritance pitfalls of
docs/integrations.md#google-docs-sprint-log, checked by applying the requests to the fake's document model and reading
the result back."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.fakes.docs_model import Document
from tools.sprint_log.docs_requests import cell_paragraph_index, entry_requests
from tools.sprint_log.entry import LogEntry, utf16_len

WHEN = datetime(2026, 11, 22, 18, 30, tzinfo=UTC)


def paragraphs(document: Document) -> list[tuple[str, str]]:
    out = []
    for element in document.to_json()["body"]["content"]:
        if "paragraph" in element:
            p = element["paragraph"]
            out.append(
                (
                    p["paragraphStyle"]["namedStyleType"],
                    "".join(e["textRun"]["content"] for e in p["elements"]),
                )
            )
    return out


def test_utf16_length_counts_emoji_twice() -> None:
    assert utf16_len("a😀é行") == 5


def test_cell_paragraph_positions_match_an_inserted_table() -> None:
    doc = Document("d")
    doc.apply([{"insertTable": {"rows": 2, "columns": 3, "location": {"index": 1}}}])
    table = next(e for e in doc.to_json()["body"]["content"] if "table" in e)
    start = table["startIndex"]
    assert start == 2  # insertTable at 1 inserts a newline first: S = i + 1
    for r, row in enumerate(table["table"]["tableRows"]):
        for c, cell in enumerate(row["tableCells"]):
            assert cell["content"][0]["startIndex"] == cell_paragraph_index(start, 3, r, c)
    assert table["endIndex"] == start + 2 + 2 * (1 + 2 * 3)


def test_text_typed_by_a_person_in_a_heading_is_not_glued_or_restyled() -> None:
    doc = Document("d")
    doc.apply(
        [
            {"insertText": {"location": {"index": 1}, "text": "Notes by hand 🙂"}},
            {
                "updateParagraphStyle": {
                    "range": {"startIndex": 1, "endIndex": 2},
                    "paragraphStyle": {"namedStyleType": "HEADING_1"},
                    "fields": "namedStyleType",
                }
            },
            {
                "updateTextStyle": {
                    "range": {"startIndex": 1, "endIndex": 5},
                    "textStyle": {"bold": True},
                    "fields": "bold",
                }
            },
        ]
    )
    entry = LogEntry(
        uid="u1",
        created_at=WHEN,
        author="al",
        kind="note",
        title="Привет 🚀",
        body="plain body",
        results=[("dally@1", "5", "", "")],
    )
    doc.apply(entry_requests(doc.to_json(), entry))
    got = paragraphs(doc)
    assert got[0] == ("HEADING_1", "Notes by hand 🙂\n")
    assert got[1] == ("HEADING_1", "Week 2026-W47\n")
    assert got[2] == ("HEADING_3", "Sun 22 Nov 2026\n")
    assert got[3] == ("NORMAL_TEXT", "18:30 Привет 🚀 — al\n")  # a note is one line: H:MM text — author
    assert got[4] == ("NORMAL_TEXT", "plain body\n")
    assert list(doc.named_ranges) == ["sutro#u1"]  # the marker is a named range, not text
    # nothing we wrote inherited the person's bold text
    content = doc.to_json()["body"]["content"]
    for element in content[2:]:
        for run in element.get("paragraph", {}).get("elements", []):
            assert not run["textRun"]["textStyle"].get("bold")


def test_second_entry_same_week_adds_no_week_heading_and_new_week_does() -> None:
    doc = Document("d")
    for i, when in enumerate([WHEN, WHEN.replace(day=22, hour=20), WHEN.replace(day=23)]):
        entry = LogEntry(uid=f"u{i}", created_at=when, author="al", kind="note", title=f"t{i}")
        doc.apply(entry_requests(doc.to_json(), entry))
    weeks = [text for style, text in paragraphs(doc) if style == "HEADING_1"]
    assert weeks == ["Week 2026-W47\n", "Week 2026-W48\n"]  # 2026-11-23 is a Monday


def test_an_empty_heading_left_at_the_end_does_not_leak_into_the_entry() -> None:
    doc = Document("d")
    doc.apply(
        [
            {
                "updateParagraphStyle": {
                    "range": {"startIndex": 1, "endIndex": 2},
                    "paragraphStyle": {"namedStyleType": "HEADING_3"},
                    "fields": "namedStyleType",
                }
            }
        ]
    )
    entry = LogEntry(uid="u", created_at=WHEN, author="al", kind="run", title="t", results=[("dally@1", "5", "", "")])
    doc.apply(entry_requests(doc.to_json(), entry))
    styles = [style for style, text in paragraphs(doc)]
    assert styles[:3] == ["HEADING_1", "HEADING_3", "NORMAL_TEXT"]
    assert set(styles[3:]) == {"NORMAL_TEXT"}  # the blank line before the table and the final paragraph
    for element in doc.to_json()["body"]["content"]:
        for row in element.get("table", {}).get("tableRows", []):
            for cell in row["tableCells"]:
                assert cell["content"][0]["paragraph"]["paragraphStyle"]["namedStyleType"] == "NORMAL_TEXT"
