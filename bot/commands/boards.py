"""Paging and instance options of the board commands (leaderboard, records, runs, config): a page of rows, the
``page=N`` option, the hint to the next page; a board's entries are read in the core (bot/core/board_entries.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.commands.base import Paging, UsageError
from tools.board import requested_instance
from tools.errors import ToolError

PAGE_ROWS = 20
"""Rows of one board on one page: with its title, header and rule a table stays within the 25 lines of a phone
screen."""


@dataclass(frozen=True)
class Page:
    """One page of a board's rows: ``number`` of ``pages`` (1-based)."""

    rows: list[Any]
    number: int
    pages: int


def page_number(options: Mapping[str, str]) -> int:
    """The ``page=N`` option (default 1); a UsageError in one line when it is not a whole number ≥ 1."""
    text = options.get("page", "1").strip()
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"page={text} is not a page number", hint="pages are 1, 2, 3 …; e.g. page=2")
    return int(text)


def page_of(rows: Sequence[Any], number: int, size: int = PAGE_ROWS) -> Page:
    """Page ``number`` of ``rows`` (the last page when ``number`` is past it)."""
    pages = max(1, -(-len(rows) // size))
    number = min(number, pages)
    return Page(list(rows[(number - 1) * size : number * size]), number, pages)


def paging_of(command: str, args: Sequence[str], options: Mapping[str, str], page: int, pages: int) -> Paging | None:
    """Page ``page`` of ``pages`` of the request ``command args options`` (None for a single page); options other
    than ``page`` are kept, ``metric`` as ``--metric M``."""
    if pages <= 1:
        return None
    kept = [f"{k}={v}" for k, v in options.items() if k not in ("page", "metric")]
    metric = ["--metric", options["metric"]] if "metric" in options else []
    return Paging(command, (*args, *kept, *metric), page, pages)


def next_page_hint(paging: Paging | None) -> str:
    """``page 1 of 3 — more: leaderboard sparse_parity n=30 k=4 page=2`` ("" for a single page); the last page
    names the first."""
    if paging is None:
        return ""
    more = paging.number < paging.pages
    target = paging.number + 1 if more else 1
    return f"page {paging.number} of {paging.pages} — {'more' if more else 'first page'}: {paging.request(target)}"


def instance_options(args: list[str], options: Mapping[str, str]) -> dict[str, str]:
    """The instance options (``n=30 k=4``) of a leaderboard/records call; they need a named challenge."""
    named = {k: v for k, v in options.items() if k not in ("metric", "page")}
    if named and not args:
        raise ToolError("name the challenge the instance belongs to", hint="e.g. leaderboard sparse_parity n=30 k=4")
    return named


def check_instance(challenge: str, options: Mapping[str, str]) -> None:
    """Refuse a bad or unknown instance in one line even when the challenge has no results yet."""
    requested_instance(challenge, {k: v for k, v in options.items() if k != "page"}, ())
