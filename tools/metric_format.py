"""How metric values and changes are written for people — the one place numbers are formatted.

Chat replies (cards, boards, records, /show, /compare, the digest) write every value with :func:`format_value`
(grouped figures, ``1,316``; scientific only from 1e9) and changes signed with a relative percentage
(``−66 (−5.1%)``) or as ``−12.50%``; beyond ±100 % a change is a ratio (``665× costlier``,
:func:`format_relative_change`). The sprint log keeps its own compact style (:func:`format_compact`,
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
        ratio = ratio_words(new, old)
        pct = abs(delta) / abs(old) * 100
        text += f" ({ratio})" if ratio else f" ({sign}{pct:.1f}%)" if round(pct, 1) > 0 else f" ({sign}{pct:.2g}%)"
    return text


def format_relative(new: float, old: float) -> str:
    """The relative change ``(new − old) / old`` as a signed percentage (``−12.50%``), as a ratio beyond ±100 %
    (``665× costlier``, :func:`ratio_words`); ``n/a`` when ``old`` is 0."""
    if not old:
        return "n/a"
    return ratio_words(new, old) or f"{(new - old) / old:+.2%}"


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


RATIO_FROM = 2.0
"""From this factor up (one side at least twice the other) a change is written as a ratio (``665× costlier``,
``2.1×10⁵× cheaper``) rather than a percentage: ``+66,442 %`` and ``−100.0 %`` say little, and a cut can never read
beyond −100 %."""
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def format_factor(factor: float) -> str:
    """A factor ≥ 1 as a person reads it: ``2.3×``, ``18×``, ``665×``, ``1,234×``, ``2.1×10⁵×``."""
    if not math.isfinite(factor):
        return "∞×"
    if factor < 10:
        return f"{factor:.1f}×"
    if factor < 1e4:
        return f"{factor:,.0f}×"
    mantissa, exponent = f"{factor:.1e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}×"


def ratio_words(new: float, old: float) -> str | None:
    """``665× costlier`` / ``230× cheaper`` when both values are positive and one is at least :data:`RATIO_FROM`
    times the other; None otherwise (a percentage says it better)."""
    if not (new > 0 and old > 0):
        return None
    if new / old >= RATIO_FROM:
        return f"{format_factor(new / old)} costlier"
    if old / new >= RATIO_FROM:
        return f"{format_factor(old / new)} cheaper"
    return None


def percent_needed(fraction: float) -> str:
    """A relative change with the precision it needs: one decimal (``−4.9 %``), or two significant digits when one
    decimal would round a real change to zero (``−0.019 %`` for a 13-unit record on 66,720); ``±0 %`` only for
    none."""
    if fraction == 0:
        return "±0 %"
    sign = "−" if fraction < 0 else "+"
    pct = abs(fraction) * 100
    shown = f"{pct:.1f}" if round(pct, 1) > 0 else f"{pct:.2g}"
    return f"{sign}{shown} %"


def format_relative_change(new: float, old: float | None) -> str:
    """The one way a relative change is written everywhere (cards, log, digest, /show, /compare): a ratio beyond
    ±100 % (:func:`ratio_words`), else a percentage with the precision it needs; "" when there is nothing to
    compare with (None or 0)."""
    if not old:
        return ""
    return ratio_words(new, old) or percent_needed((new - old) / abs(old))
