"""How metric values and changes are written for people — the one place numbers are formatted.

Chat replies (cards, boards, records, /show, /compare, the digest) write every value with :func:`format_value`
(grouped figures, ``1,316``; scientific only from 1e9) and changes signed with a relative percentage
(``−66 (−5.1%)``) or as ``−12.50%``. The sprint log keeps its own compact style (:func:`format_compact`,
:func:`format_percent`), the one the group's logs use.
"""

from __future__ import annotations

import math


def format_value(value: float | None) -> str:
    """A metric value as every chat reply and table writes it — the one format of cards, boards, records, /show and
    the digest: ``—`` for missing; from 1e9 up, four significant digits in scientific notation (``5.866e+10``);
    integers and values from 1e5 up grouped without decimals (``1,316``, ``340,704``); from 1 up grouped with two
    decimals (``8,174.38``); below 1, three significant digits (``0.53``, ``0.000123``)."""
    if value is None or math.isnan(value):
        return "—"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    magnitude = abs(value)
    if magnitude >= 1e9:
        return f"{value:.4g}"
    if float(value).is_integer() or magnitude >= 1e5:
        return f"{value:,.0f}"
    if magnitude >= 1:
        return f"{value:,.2f}"
    return f"{value:.3g}"


def format_change(new: float, old: float | None) -> str:
    """Signed difference ``new - old`` and its percentage of ``old`` (empty when there is nothing to compare)."""
    if old is None:
        return ""
    delta = new - old
    if delta == 0:
        return "±0"
    sign = "+" if delta > 0 else "−"
    text = f"{sign}{format_value(abs(delta))}"
    if old:
        text += f" ({sign}{abs(delta) / abs(old) * 100:.1f}%)"
    return text


def format_relative(new: float, old: float) -> str:
    """The relative change ``(new − old) / old`` as a signed percentage (``−12.50%``); ``n/a`` when ``old`` is 0."""
    return f"{(new - old) / old:+.2%}" if old else "n/a"


def format_compact(value: float | None) -> str:
    """The sprint log's one number format: whole numbers grouped from 1,000 up (``58,659,867,413``, ``13,253``),
    four significant digits below (``4.612``, ``93.47``, ``0.9``), ``—`` for missing."""
    if value is None or math.isnan(value):
        return "—"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def format_percent(fraction: float) -> str:
    """A relative change as the sprint log writes it: ``−4.9 %``, ``+0.5 %``, ``±0.0 %`` (one decimal, a real minus)."""
    shown = round(fraction * 100, 1)
    sign = "−" if shown < 0 else "+" if shown > 0 else "±"
    return f"{sign}{abs(shown):.1f} %"
