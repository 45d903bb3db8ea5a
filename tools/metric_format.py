"""How metric values and changes are written for people: integers without decimals, 4 significant digits else,
changes signed with a relative percentage (``−66 (−5.1%)``)."""

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
