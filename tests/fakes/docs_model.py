"""A small Google Docs document model with the API's UTF-16 index arithmetic (for the fake Docs server).

Body = section break [0, 1) then paragraphs and tables. A paragraph is a list of (character, text style) ending in
"\\n" plus a named style. A table occupies 1 (start) + per row 1 + per cell 1 + the cell's paragraphs + 1 (end),
which gives the official empty-table layout: table [S, S+2+R(1+2C)), cell paragraph (r, c) at S+3+r(1+2C)+2c.

Strict where Google is: inserted text loses the characters the API reference says are stripped (control characters
U+0000–U+0008 and U+000C–U+001F, the BMP private-use area U+E000–U+F8FF; ``InsertTextRequest.text``), so a client
that counts them computes indices past the text; a range or location outside the body is a 400; text that is not
valid UTF-16 (an unpaired surrogate) is a 400.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any


class BadRequest(Exception):
    """The request is invalid; the server answers 400 with this message."""


STRIPPED = re.compile("[\x00-\x08\x0c-\x1f\ue000-\uf8ff]")
IMAGE = "\ufffc"
"""How the model holds an inline image inside a paragraph: one index unit, as in Docs (style: ``{"uri": …}``)."""
"""What the Docs API documents as stripped out of inserted text."""


def as_stored(text: str) -> str:
    """``text`` as the document keeps it after an insertText (documented stripping); invalid UTF-16 is refused."""
    try:
        text.encode("utf-16-le")
    except UnicodeEncodeError as exc:
        raise BadRequest("Invalid value at 'requests.insert_text.text': invalid UTF-16 (unpaired surrogate)") from exc
    return STRIPPED.sub("", text)


def u16(ch: str) -> int:
    return len(ch.encode("utf-16-le")) // 2


@dataclass
class Paragraph:
    chars: list[tuple[str, dict[str, Any]]] = field(default_factory=lambda: [("\n", {})])
    style: str = "NORMAL_TEXT"

    def size(self) -> int:
        return sum(u16(c) for c, _ in self.chars)

    def text(self) -> str:
        return "".join(c for c, _ in self.chars)


@dataclass
class Table:
    rows: list[list[list[Paragraph]]]

    def size(self) -> int:
        return 2 + sum(1 + sum(1 + sum(p.size() for p in cell) for cell in row) for row in self.rows)


class Document:
    """One document: ``body`` elements after the section break, a revision counter."""

    def __init__(self, document_id: str, title: str = "Sprint log") -> None:
        self.document_id = document_id
        self.title = title
        self.body: list[Paragraph | Table] = [Paragraph()]
        self.revision = 1
        self.named_ranges: dict[str, list[tuple[int, int]]] = {}
        """name -> ranges as created (the model does not move them with later edits: tests only ask for names)."""

    # --- locating -----------------------------------------------------------------------------------------
    def _paragraph_slots(self) -> list[tuple[int, Paragraph]]:
        """(start index, paragraph) for every paragraph, table cells included, in document order."""
        slots: list[tuple[int, Paragraph]] = []
        pos = 1
        for element in self.body:
            if isinstance(element, Paragraph):
                slots.append((pos, element))
                pos += element.size()
            else:
                inner = pos + 1
                for row in element.rows:
                    inner += 1
                    for cell in row:
                        inner += 1
                        for paragraph in cell:
                            slots.append((inner, paragraph))
                            inner += paragraph.size()
                pos += element.size()
        return slots

    def end_index(self) -> int:
        return 1 + sum(e.size() for e in self.body)

    def _locate(self, index: int) -> tuple[Paragraph, int]:
        """The paragraph containing ``index`` and the character offset of ``index`` inside it."""
        for start, paragraph in self._paragraph_slots():
            if start <= index < start + paragraph.size():
                offset, units = 0, start
                while units < index:
                    units += u16(paragraph.chars[offset][0])
                    offset += 1
                if units != index:
                    raise BadRequest("The insertion index cannot be inside a surrogate pair.")
                return paragraph, offset
        raise BadRequest("The insertion index must be inside the bounds of an existing paragraph.")

    def _container_of(self, paragraph: Paragraph) -> list[Any]:
        for element in self.body:
            if element is paragraph:
                return self.body
            if isinstance(element, Table):
                for row in element.rows:
                    for cell in row:
                        if any(p is paragraph for p in cell):
                            return cell
        raise AssertionError("paragraph not in document")

    # --- requests -----------------------------------------------------------------------------------------
    def insert_text(self, index: int, text: str) -> None:
        if not text:
            raise BadRequest("Invalid requests: insertText.text must not be empty.")
        text = as_stored(text)
        paragraph, offset = self._locate(index)
        inherit = dict(paragraph.chars[offset - 1][1] if offset > 0 else paragraph.chars[offset][1])
        chars = paragraph.chars[:offset] + [(c, dict(inherit)) for c in text] + paragraph.chars[offset:]
        pieces: list[Paragraph] = []
        current: list[tuple[str, dict[str, Any]]] = []
        for ch in chars:
            current.append(ch)
            if ch[0] == "\n":
                pieces.append(Paragraph(chars=current, style=paragraph.style))
                current = []
        container = self._container_of(paragraph)
        at = next(i for i, p in enumerate(container) if p is paragraph)
        container[at : at + 1] = pieces

    def insert_table(self, index: int, rows: int, columns: int) -> None:
        self.insert_text(index, "\n")
        paragraph, offset = self._locate(index + 1)
        if offset != 0 or paragraph not in self.body:
            raise BadRequest("Tables can only be inserted at the start of a body paragraph.")
        at = next(i for i, p in enumerate(self.body) if p is paragraph)
        table = Table(rows=[[[Paragraph()] for _ in range(columns)] for _ in range(rows)])
        self.body.insert(at, table)

    def _check_range(self, start: int, end: int) -> None:
        if start < 1:
            raise BadRequest(f"The start index {start} must be at least 1.")
        if end > self.end_index():
            raise BadRequest(f"The range end {end} is past the end of the body ({self.end_index()}).")
        if start >= end:
            raise BadRequest("The range should not be empty.")

    def delete_range(self, start: int, end: int) -> None:
        """Delete text inside one paragraph (the fake does not merge paragraphs: a range over a newline is refused)."""
        self._check_range(start, end)
        paragraph, offset = self._locate(start)
        units, stop = start, offset
        while units < end:
            if stop >= len(paragraph.chars) - 1:
                raise BadRequest("fake: a deleted range may not include a paragraph's final newline")
            units += u16(paragraph.chars[stop][0])
            stop += 1
        del paragraph.chars[offset:stop]

    def update_paragraph_style(self, start: int, end: int, named: str) -> None:
        self._check_range(start, end)
        for pos, paragraph in self._paragraph_slots():
            if pos < end and pos + paragraph.size() > start:
                paragraph.style = named

    def update_text_style(self, start: int, end: int, style: dict[str, Any], fields: list[str]) -> None:
        self._check_range(start, end)
        for pos, paragraph in self._paragraph_slots():
            units = pos
            for i, (ch, current) in enumerate(paragraph.chars):
                if start <= units < end:
                    updated = dict(current)
                    for name in fields:
                        if style.get(name) is None:
                            updated.pop(name, None)
                        else:
                            updated[name] = style[name]
                    paragraph.chars[i] = (ch, updated)
                units += u16(ch)

    def apply(self, requests: list[dict[str, Any]]) -> None:
        """Apply all requests or none (batchUpdate is atomic)."""
        saved = copy.deepcopy(self.body)
        try:
            for i, request in enumerate(requests):
                try:
                    self._apply_one(request)
                except BadRequest as exc:
                    raise BadRequest(f"Invalid requests[{i}]: {exc}") from exc
        except BadRequest:
            self.body = saved
            raise
        self.revision += 1

    def _apply_one(self, request: dict[str, Any]) -> None:
        ((kind, args),) = request.items()
        if kind == "insertText":
            self.insert_text(self._index(args), args["text"])
        elif kind == "insertTable":
            self.insert_table(self._index(args), args["rows"], args["columns"])
        elif kind == "updateParagraphStyle":
            self._require_fields(args)
            rng = args["range"]
            self.update_paragraph_style(rng["startIndex"], rng["endIndex"], args["paragraphStyle"]["namedStyleType"])
        elif kind == "updateTextStyle":
            self._require_fields(args)
            rng = args["range"]
            fields = args["fields"].split(",")
            self.update_text_style(rng["startIndex"], rng["endIndex"], args["textStyle"], fields)
        elif kind == "deleteContentRange":
            rng = args["range"]
            self.delete_range(rng["startIndex"], rng["endIndex"])
        elif kind == "createNamedRange":
            name, rng = args["name"], args["range"]
            if not 1 <= u16(name) <= 256:
                raise BadRequest("The name must be between 1 and 256 UTF-16 code units long.")
            self._check_range(rng["startIndex"], rng["endIndex"])
            self.named_ranges.setdefault(name, []).append((rng["startIndex"], rng["endIndex"]))
        elif kind == "insertInlineImage":
            uri = args["uri"]
            if not uri.startswith(("https://", "http://")) or len(uri) > 2048:
                raise BadRequest("The URI must be a public http(s) URL of at most 2 kB.")
            paragraph, offset = self._locate(self._index(args))
            paragraph.chars.insert(offset, (IMAGE, {"uri": uri}))
        else:
            raise BadRequest(f"unsupported request {kind} in the fake")

    @staticmethod
    def _require_fields(args: dict[str, Any]) -> None:
        if not args.get("fields"):
            raise BadRequest("fields is required")

    def _index(self, args: dict[str, Any]) -> int:
        if "endOfSegmentLocation" in args:
            return self.end_index() - 1
        return int(args["location"]["index"])

    # --- JSON ---------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"endIndex": 1, "sectionBreak": {}}]
        pos = 1
        for element in self.body:
            if isinstance(element, Paragraph):
                content.append(_paragraph_json(element, pos))
            else:
                content.append(_table_json(element, pos))
            pos += element.size()
        named = {
            name: {
                "name": name,
                "namedRanges": [
                    {
                        "namedRangeId": f"kix.{name}.{i}",
                        "name": name,
                        "ranges": [{"startIndex": start, "endIndex": end}],
                    }
                    for i, (start, end) in enumerate(ranges)
                ],
            }
            for name, ranges in self.named_ranges.items()
        }
        images = {
            f"kix.image.{i}": {"inlineObjectProperties": {"embeddedObject": {"imageProperties": {"contentUri": uri}}}}
            for i, uri in enumerate(self.image_uris())
        }
        return {
            "documentId": self.document_id,
            "title": self.title,
            "revisionId": f"rev-{self.revision}",
            "body": {"content": content},
            "namedRanges": named,
            "inlineObjects": images,
        }

    def image_uris(self) -> list[str]:
        """The URI of every inline image, in document order."""
        return [style["uri"] for _, p in self._paragraph_slots() for ch, style in p.chars if ch == IMAGE]


def _paragraph_json(paragraph: Paragraph, start: int) -> dict[str, Any]:
    elements: list[dict[str, Any]] = []
    pos = start
    for ch, style in paragraph.chars:
        if ch == IMAGE:
            elements.append({"startIndex": pos, "endIndex": pos + 1, "inlineObjectElement": {"inlineObjectId": "kix"}})
        elif elements and "textRun" in elements[-1] and elements[-1]["textRun"]["textStyle"] == style:
            elements[-1]["textRun"]["content"] += ch
            elements[-1]["endIndex"] += u16(ch)
        else:
            elements.append(
                {"startIndex": pos, "endIndex": pos + u16(ch), "textRun": {"content": ch, "textStyle": style}}
            )
        pos += u16(ch)
    return {
        "startIndex": start,
        "endIndex": start + paragraph.size(),
        "paragraph": {"elements": elements, "paragraphStyle": {"namedStyleType": paragraph.style}},
    }


def _table_json(table: Table, start: int) -> dict[str, Any]:
    rows_json = []
    pos = start + 1
    for row in table.rows:
        row_start = pos
        pos += 1
        cells = []
        for cell in row:
            cell_start = pos
            pos += 1
            content = []
            for paragraph in cell:
                content.append(_paragraph_json(paragraph, pos))
                pos += paragraph.size()
            cells.append({"startIndex": cell_start, "endIndex": pos, "content": content})
        rows_json.append({"startIndex": row_start, "endIndex": pos, "tableCells": cells})
    return {
        "startIndex": start,
        "endIndex": start + table.size(),
        "table": {"rows": len(table.rows), "columns": len(table.rows[0]), "tableRows": rows_json},
    }
