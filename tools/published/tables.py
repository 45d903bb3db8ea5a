"""Read the record tables of one page of the group's challenge repository (a problem's README.md or legacy.md) — pure.

A record table is a Markdown table under a ``##``/``###`` heading whose header names a date column (``Date``) and a
cost column (``Cost`` or ``Energy (reads)``); its other columns are optional and found by name: the submission
links (``Submission`` / ``IR``), the contributors and the description (``Description`` / ``method``). Rows are kept
in the page's order — the group's own order, which is the order records were accepted in; the date column is when
the work was done and is not always monotone (66,707 dated 2026-05-08 was merged after rows dated 05-13/14).

Parsing is defensive: a row this reader does not understand becomes a :class:`BadRow` (page, line, one-line reason)
and the rows around it are read as usual; a table without the two required columns is not a record table and is
skipped. Nothing here raises on page content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

_HEADING = re.compile(r"^(#{2,4})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")
_HANDLE = re.compile(r"@[A-Za-z0-9][A-Za-z0-9_-]*")
_COST = re.compile(r"^\d{1,3}(,\d{3})+$|^\d+$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_BEST_MARK = re.compile(r"\s*★\s*\w*\s*$")

DATE_COLUMNS = ("date",)
COST_COLUMNS = ("cost", "energy (reads)", "energy")
LINK_COLUMNS = ("submission", "ir")
AUTHOR_COLUMNS = ("contributors", "contributor", "author", "authors")
DESCRIPTION_COLUMNS = ("description", "method")


@dataclass(frozen=True)
class TableRow:
    """One understood row: its position in the table (0-based), date, published cost (Dally reads), authors
    (GitHub handles, ``@`` included, in the row's order), the description as written (Markdown links reduced to
    their text, the ``★ best`` marker dropped), and the program the row links (path relative to the page's folder,
    None when the row links none)."""

    position: int
    line: int
    date: date
    cost: int
    authors: tuple[str, ...]
    description: str
    program: str | None


@dataclass(frozen=True)
class BadRow:
    """A table row that was not understood: where it is and why, in one line."""

    page: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.page} line {self.line}: {self.reason}"


@dataclass(frozen=True)
class RecordTable:
    """A record table of a page: the heading it sits under (text as written) and its understood rows in order."""

    page: str
    heading: str
    rows: tuple[TableRow, ...]


@dataclass(frozen=True)
class PageTables:
    tables: tuple[RecordTable, ...]
    bad_rows: tuple[BadRow, ...]


def _cells(line: str) -> list[str]:
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    return [c.strip() for c in inner.split("|")]


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(re.fullmatch(r":?-+:?", c.replace(" ", "")) for c in cells)


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    lowered = [h.strip("*` ").lower() for h in header]
    for name in names:
        if name in lowered:
            return lowered.index(name)
    return None


def _plain(text: str) -> str:
    """Markdown reduced to text: links to their label, backticks and the ``★ best`` marker dropped."""
    text = _LINK.sub(lambda m: m.group(1), text).replace("`", "")
    return _BEST_MARK.sub("", text).strip()


def _program_link(cell: str) -> str | None:
    """The first link whose label or target names an IR program (``[ir](submissions/x.ir)``)."""
    for label, target in _LINK.findall(cell):
        if target.endswith(".ir") or label.strip("` ").lower() == "ir":
            return target.removeprefix("./") or None
    return None


def _table_at(lines: list[str], start: int) -> int:
    """Index one past the last line of the table starting at ``start``."""
    end = start
    while end < len(lines) and lines[end].strip().startswith("|"):
        end += 1
    return end


def read_tables(page: str, text: str) -> PageTables:
    """Every record table of ``text`` (the page at path ``page``, named in bad-row lines), rows in page order."""
    lines = text.splitlines()
    tables: list[RecordTable] = []
    bad: list[BadRow] = []
    heading = ""
    i = 0
    while i < len(lines):
        match = _HEADING.match(lines[i])
        if match:
            heading = match.group(2).strip()
            i += 1
            continue
        if not lines[i].strip().startswith("|"):
            i += 1
            continue
        end = _table_at(lines, i)
        header = _cells(lines[i])
        date_col, cost_col = _column(header, DATE_COLUMNS), _column(header, COST_COLUMNS)
        if date_col is None or cost_col is None or not heading:
            i = end
            continue
        columns = _Columns(
            date=date_col,
            cost=cost_col,
            link=_column(header, LINK_COLUMNS),
            author=_column(header, AUTHOR_COLUMNS),
            description=_column(header, DESCRIPTION_COLUMNS),
            width=len(header),
        )
        rows: list[TableRow] = []
        for n in range(i + 1, end):
            cells = _cells(lines[n])
            if _is_separator(cells):
                continue
            row = _row(cells, columns, position=len(rows), line=n + 1)
            if isinstance(row, str):
                bad.append(BadRow(page, n + 1, f"{row} (table '{heading}')"))
            else:
                rows.append(row)
        tables.append(RecordTable(page=page, heading=heading, rows=tuple(rows)))
        i = end
    return PageTables(tables=tuple(tables), bad_rows=tuple(bad))


@dataclass(frozen=True)
class _Columns:
    date: int
    cost: int
    link: int | None
    author: int | None
    description: int | None
    width: int


def _row(cells: list[str], columns: _Columns, *, position: int, line: int) -> TableRow | str:
    """The row, or a one-line reason why it was not understood."""
    if len(cells) != columns.width:
        return f"{len(cells)} cells where the header has {columns.width}"
    raw_date = _plain(cells[columns.date])
    if not _DATE.match(raw_date):
        return f"date '{raw_date}' is not YYYY-MM-DD"
    try:
        when = date.fromisoformat(raw_date)
    except ValueError:
        return f"date '{raw_date}' is not a calendar date"
    raw_cost = _plain(cells[columns.cost]).replace(" ", "")
    if not _COST.match(raw_cost):
        return f"cost '{raw_cost}' is not a whole number"
    authors: tuple[str, ...] = ()
    if columns.author is not None:
        authors = tuple(dict.fromkeys(_HANDLE.findall(_plain(cells[columns.author]))))
    description = _plain(cells[columns.description]) if columns.description is not None else ""
    program = _program_link(cells[columns.link]) if columns.link is not None else None
    if columns.link is None:
        program = next((p for p in (_program_link(c) for c in cells) if p), None)
    return TableRow(
        position=position,
        line=line,
        date=when,
        cost=int(raw_cost.replace(",", "")),
        authors=authors,
        description=description,
        program=program,
    )
