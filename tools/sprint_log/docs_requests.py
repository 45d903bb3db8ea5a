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
  stay valid, then header cells are made bold at positions shifted by the text already inserted before them;
- the entry's marker is a named range over its first line (``createNamedRange``): invisible to readers, returned by
  ``documents.get`` under ``namedRanges``, and it cannot be forged by typing text;
- a chart is an ``insertInlineImage`` of a public HTTPS URL that Google fetches when the request runs (PNG, under
  50 MB and 25 megapixels); a chart without one is a text line saying so, and the entry lands all the same.
"""

from __future__ import annotations

from typing import Any

from tools.sprint_log.docs_text import docs_text
from tools.sprint_log.entry import (
    TLDR_LABEL,
    LogEntry,
    author_suffix,
    clock,
    day_line,
    extra_lines,
    first_line,
    marker,
    neutral,
    section_heading,
    tldr_line,
    utf16_len,
)
from tools.user_text import one_line

Request = dict[str, Any]
IMAGE_WIDTH_PT = 450.0
"""Inline charts are this wide (points; a Letter page with 1-inch margins holds 468) and keep their 16:9 shape."""
IMAGE_HEIGHT_PT = 253.0


def _paragraph_text(paragraph: dict[str, Any]) -> str:
    return "".join(el.get("textRun", {}).get("content", "") for el in paragraph.get("elements", []))


def _is_empty(paragraph: dict[str, Any]) -> bool:
    """Only a newline: no text, no image (an inline image is an element without a textRun)."""
    elements = paragraph.get("elements", [])
    return all("textRun" in el for el in elements) and _paragraph_text(paragraph) == "\n"


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
    """Whether the entry with ``uid`` is already written in ``document``: a named range called by its marker, or
    (entries written before markers were named ranges) the marker in the text."""
    return marker(uid) in document.get("namedRanges", {}) or marker(uid) in document_text(document)


def last_headings(document: dict[str, Any]) -> tuple[str | None, str | None]:
    """The text of the last top-level HEADING_1 (a section: a sprint or a week) and of the last HEADING_3 after it
    (a day), each None when there is none."""
    section = day = None
    for element in document["body"]["content"]:
        paragraph = element.get("paragraph")
        if not paragraph:
            continue
        named = paragraph.get("paragraphStyle", {}).get("namedStyleType")
        if named == "HEADING_1":
            section, day = _paragraph_text(paragraph).rstrip("\n"), None
        elif named == "HEADING_3":
            day = _paragraph_text(paragraph).rstrip("\n")
    return section, day


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
    """The entry's table as rows of cell texts, header row first ([] when it has none)."""
    table = entry.table
    if table is None:
        return []
    return [[_one_line(neutral(one_line(cell))) for cell in row] for row in (table.headers, *table.rows)]


def cell_paragraph_index(table_start: int, columns: int, row: int, column: int) -> int:
    """Where the paragraph of cell (row, column) starts in a freshly inserted, still empty table at ``table_start``."""
    return table_start + 3 + row * (1 + 2 * columns) + 2 * column


def entry_requests(
    document: dict[str, Any],
    entry: LogEntry,
    *,
    images: dict[str, str] | None = None,
    image_problem: str = "",
) -> list[Request]:
    """The requests that append ``entry`` at the end of ``document`` (as returned by ``documents.get``).

    images: chart name -> a public URL Google can fetch it from (``insertInlineImage``); a chart without one gets a
    text line instead, saying why (``image_problem``), and the entry still lands.
    """
    images = images or {}
    content = document["body"]["content"]
    end = content[-1]["endIndex"]
    insert_at = end - 1
    last = content[-1].get("paragraph")
    prefix = "" if last is not None and _is_empty(last) else "\n"

    section, day = _one_line(section_heading(entry)), _one_line(day_line(entry))
    last_section, last_day = last_headings(document)
    paragraphs: list[tuple[str, str]] = []
    tldr_at = -1
    if last_section != section:
        paragraphs.append((section, "HEADING_1"))
        if entry.detail.tldr:
            tldr_at = len(paragraphs)
            paragraphs.append((_one_line(tldr_line(entry.detail.tldr)), "NORMAL_TEXT"))
    if last_section != section or last_day != day:
        paragraphs.append((day, "HEADING_3"))
    head = f"{clock(entry)} "
    lead = _one_line(first_line(entry))
    first_at = len(paragraphs)
    paragraphs.append((head + lead + _one_line(author_suffix(entry)), "NORMAL_TEXT"))
    paragraphs += [(_one_line(line), "NORMAL_TEXT") for line in extra_lines(entry)]
    links_at = len(paragraphs) if entry.detail.links else -1
    if entry.detail.links:
        paragraphs.append((" · ".join(_one_line(link.text) for link in entry.detail.links), "NORMAL_TEXT"))
    missing = [chart for chart in entry.charts if chart.name not in images]
    why = f": {image_problem}" if image_problem else ""
    paragraphs += [(_one_line(f"chart “{c.caption}” not embedded{why}"), "NORMAL_TEXT") for c in missing]
    text = prefix + "".join(p + "\n" for p, _ in paragraphs)

    requests: list[Request] = [{"insertText": {"location": {"index": insert_at}, "text": text}}]
    position = insert_at + utf16_len(prefix)
    ours_start = position
    starts = []
    for paragraph, named in paragraphs:
        starts.append(position)
        length = utf16_len(paragraph) + 1
        requests.append(_style(position, position + length, named))
        position += length
    # the document's final paragraph (where the table goes, and where the next entry starts) may carry a
    # person's heading style: make it plain so nothing inherits it
    requests.append(_style(position, position + 1, "NORMAL_TEXT"))
    requests.append(_text_style(ours_start, position, {"bold": False, "italic": False}))
    first_start = starts[first_at]
    first_end = first_start + utf16_len(paragraphs[first_at][0])
    if entry.kind != "note" and lead:
        lead_start = first_start + utf16_len(head)
        requests.append(_text_style(lead_start, lead_start + utf16_len(lead), {"bold": True}))
    requests.append({"createNamedRange": {"name": marker(entry.uid), "range": _range(first_start, first_end)}})
    if tldr_at >= 0:
        requests.append(_text_style(starts[tldr_at], starts[tldr_at] + utf16_len(TLDR_LABEL), {"bold": True}))
    if links_at >= 0:
        offset = starts[links_at]
        for i, link in enumerate(entry.detail.links):
            length = utf16_len(_one_line(link.text))
            if link.url and length:
                requests.append(_text_style(offset, offset + length, {"link": {"url": link.url}}))
            offset += length + (utf16_len(" · ") if i < len(entry.detail.links) - 1 else 0)

    cells = table_cells(entry)
    image_at = position
    if cells:
        table_requests, image_at = _table_requests(cells, table_at=position)
        requests += table_requests
    placed = [chart for chart in entry.charts if chart.name in images]
    for chart in reversed(placed):  # each at the same index: last first keeps their order
        requests.append(
            {
                "insertInlineImage": {
                    "uri": images[chart.name],
                    "location": {"index": image_at},
                    "objectSize": {
                        "width": {"magnitude": IMAGE_WIDTH_PT, "unit": "PT"},
                        "height": {"magnitude": IMAGE_HEIGHT_PT, "unit": "PT"},
                    },
                }
            }
        )
    return requests


def _range(start: int, end: int) -> dict[str, int]:
    return {"startIndex": start, "endIndex": end}


def tldr_requests(document: dict[str, Any], entry: LogEntry) -> list[Request] | None:
    """The requests that replace the TLDR line of the entry's section (the first paragraph after its HEADING_1
    that starts with ``TLDR:``) with the entry's body; None when the document has no such line."""
    section = _one_line(section_heading(entry))
    inside = False
    for element in document["body"]["content"]:
        paragraph = element.get("paragraph")
        if paragraph is None:
            continue
        text = _paragraph_text(paragraph)
        if paragraph.get("paragraphStyle", {}).get("namedStyleType") == "HEADING_1":
            inside = text.rstrip("\n") == section
        elif inside and text.startswith(TLDR_LABEL):
            start, end = element["startIndex"], element["endIndex"] - 1  # keep the paragraph's newline
            new = _one_line(tldr_line(entry.body))
            return [
                {"deleteContentRange": {"range": _range(start, end)}},
                {"insertText": {"location": {"index": start}, "text": new}},
                _text_style(start, start + utf16_len(new), {"bold": False, "italic": False}),
                _text_style(start, start + utf16_len(TLDR_LABEL), {"bold": True}),
            ]
    return None


def _table_requests(cells: list[list[str]], *, table_at: int) -> tuple[list[Request], int]:
    """The table's requests, and where the document's final paragraph starts after it."""
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
    return requests, table_end
