"""Build the one ``documents.batchUpdate`` that appends a sprint-log entry to a Google Doc (pure, no I/O).

Facts this follows (docs/integrations.md#google-docs-sprint-log, Docs API reference):
- text is first reduced to what Docs keeps (:func:`~tools.sprint_log.docs_text.docs_text`: Google strips some
  control and private-use characters from inserted text, which would shift every later index);
- indices are UTF-16 code units (:func:`~tools.sprint_log.entry.utf16_len`), never ``len()``;
- text is inserted before the body's final newline; if a person left text in the last paragraph we start with
  ``"\\n"`` so our heading is not glued to it;
- inserted text inherits the paragraph and text style at the insertion point, so every paragraph we add gets an
  explicit ``namedStyleType`` and bold/italic are reset;
- ``insertTable`` at index ``t`` inserts a newline first, the table starts at ``S = t + 1``, and for empty cells
  the paragraph of cell (r, c) is at ``S + 3 + r(1 + 2C) + 2c``; cells are filled last-first so earlier indices
  stay valid, then header cells are made bold at positions shifted by the text already inserted before them.
"""

from __future__ import annotations

from typing import Any

from tools.sprint_log.docs_text import docs_text
from tools.sprint_log.entry import (
    RESULT_HEADERS,
    LogEntry,
    body_text,
    entry_heading,
    marker,
    meta_line,
    neutral,
    utf16_len,
    week_heading,
)
from tools.user_text import one_line

Request = dict[str, Any]


def _paragraph_text(paragraph: dict[str, Any]) -> str:
    return "".join(el.get("textRun", {}).get("content", "") for el in paragraph.get("elements", []))


def _walk_paragraphs(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for element in content:
        if "paragraph" in element:
            found.append(element["paragraph"])
        elif "table" in element:
            for row in element["table"].get("tableRows", []):
                for cell in row.get("tableCells", []):
                    found += _walk_paragraphs(cell.get("content", []))
    return found


def document_text(document: dict[str, Any]) -> str:
    """All text of the document body, tables included (for marker checks and tests)."""
    return "".join(_paragraph_text(p) for p in _walk_paragraphs(document["body"]["content"]))


def contains_entry(document: dict[str, Any], uid: str) -> bool:
    """Whether the entry with ``uid`` is already written in ``document``."""
    return marker(uid) in document_text(document)


def last_week_heading(document: dict[str, Any]) -> str | None:
    """The text of the last top-level HEADING_1 paragraph starting with ``Week ``, if any."""
    last = None
    for element in document["body"]["content"]:
        paragraph = element.get("paragraph")
        if paragraph and paragraph.get("paragraphStyle", {}).get("namedStyleType") == "HEADING_1":
            text = _paragraph_text(paragraph).rstrip("\n")
            if text.startswith("Week "):
                last = text
    return last


def _one_line(text: str) -> str:
    """``text`` as Docs keeps it, on one line (a new line inside a heading would split it into two paragraphs)."""
    return " ".join(docs_text(text).split("\n"))


def _style(start: int, end: int, named: str) -> Request:
    return {
        "updateParagraphStyle": {
            "range": {"startIndex": start, "endIndex": end},
            "paragraphStyle": {"namedStyleType": named},
            "fields": "namedStyleType",
        }
    }


def _text_style(start: int, end: int, style: dict[str, Any]) -> Request:
    return {
        "updateTextStyle": {
            "range": {"startIndex": start, "endIndex": end},
            "textStyle": style,
            "fields": ",".join(style),
        }
    }


def table_cells(entry: LogEntry) -> list[list[str]]:
    """The results table as rows of cell texts, header row first."""
    return [list(RESULT_HEADERS), *[[_one_line(neutral(one_line(cell))) for cell in row] for row in entry.results]]


def cell_paragraph_index(table_start: int, columns: int, row: int, column: int) -> int:
    """Where the paragraph of cell (row, column) starts in a freshly inserted, still empty table at ``table_start``."""
    return table_start + 3 + row * (1 + 2 * columns) + 2 * column


def entry_requests(document: dict[str, Any], entry: LogEntry) -> list[Request]:
    """The requests that append ``entry`` at the end of ``document`` (as returned by ``documents.get``)."""
    content = document["body"]["content"]
    end = content[-1]["endIndex"]
    insert_at = end - 1
    last = content[-1].get("paragraph")
    prefix = "" if last is not None and _paragraph_text(last) == "\n" else "\n"

    paragraphs: list[tuple[str, str]] = []
    week = week_heading(entry.created_at)
    if last_week_heading(document) != week:
        paragraphs.append((week, "HEADING_1"))
    paragraphs.append((_one_line(entry_heading(entry)), "HEADING_2"))
    meta_at = len(paragraphs)
    paragraphs.append((_one_line(meta_line(entry)), "NORMAL_TEXT"))
    paragraphs += [(line, "NORMAL_TEXT") for line in docs_text(body_text(entry)).split("\n") if line.strip()]
    text = prefix + "".join(p + "\n" for p, _ in paragraphs)

    requests: list[Request] = [{"insertText": {"location": {"index": insert_at}, "text": text}}]
    position = insert_at + utf16_len(prefix)
    ours_start = position
    meta_range = (0, 0)
    for i, (paragraph, named) in enumerate(paragraphs):
        length = utf16_len(paragraph) + 1
        requests.append(_style(position, position + length, named))
        if i == meta_at:
            meta_range = (position, position + length - 1)
        position += length
    # the document's final paragraph (where the table goes, and where the next entry starts) may carry a
    # person's heading style: make it plain so nothing inherits it
    requests.append(_style(position, position + 1, "NORMAL_TEXT"))
    requests.append(_text_style(ours_start, position, {"bold": False, "italic": False}))
    requests.append(_text_style(*meta_range, {"italic": True}))

    if entry.results:
        requests += _table_requests(table_cells(entry), table_at=position)
    return requests


def _table_requests(cells: list[list[str]], *, table_at: int) -> list[Request]:
    rows, columns = len(cells), len(cells[0])
    start = table_at + 1
    requests: list[Request] = [{"insertTable": {"rows": rows, "columns": columns, "location": {"index": table_at}}}]
    for r in reversed(range(rows)):
        for c in reversed(range(columns)):
            if cells[r][c]:
                index = cell_paragraph_index(start, columns, r, c)
                requests.append({"insertText": {"location": {"index": index}, "text": cells[r][c]}})
    shift = 0
    for c in range(columns):
        begin = cell_paragraph_index(start, columns, 0, c) + shift
        length = utf16_len(cells[0][c])
        if length:
            requests.append(_text_style(begin, begin + length, {"bold": True}))
        shift += length
    filled = sum(utf16_len(cell) for row in cells for cell in row)
    table_end = start + 2 + rows * (1 + 2 * columns) + filled
    requests.append(_style(start, table_end, "NORMAL_TEXT"))
    return requests
