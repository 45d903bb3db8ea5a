"""How metric values and changes are written for people — the one place numbers are formatted.

Tables of stored results (sprint log, comparison rows): integers without decimals, 4 significant digits else,
changes signed with a relative percentage (``−66 (−5.1%)``). Result cards: grouped figures (``1,316``) and
relative changes (``−12.50%``).
"""

from __future__ import annotations

import math


def format_value(value: float | None) -> str:
    """``1234`` for integral values, ``3.142`` otherwise, ``—`` for missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if float(value).is_integer():
        return f"{int(value):d}"
    return f"{value:.4g}"


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


def format_figure(value: float) -> str:
    """A figure on a result card: thousands grouped, integers and values ≥ 1e5 without decimals, else two
    (``1,316``, ``0.53``, ``12,345.68``)."""
    if float(value).is_integer() or abs(value) >= 1e5:
        return f"{value:,.0f}"
    return f"{value:,.2f}"


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
