"""Strict parsing of what a child sends back (docs/sandbox.md#l6-strict-results): JSON only, size-capped, NaN/Infinity
literals rejected (Python's json accepts them by default), objects only, schema-checked by the caller.
Nothing from a child is ever unpickled or evaluated.
"""

from __future__ import annotations

import json
from typing import Any


class BadResult(ValueError):
    """A message from the child that is not valid strict JSON of the expected shape."""


def _reject_constant(name: str) -> Any:
    raise BadResult(f"the result contains {name}, which is not a number")


def one_line(text: str, limit: int = 400) -> str:
    """``text`` as one printable line of at most ``limit`` characters (control characters become spaces)."""
    flat = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(flat.split())[:limit]


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)  # one for every message (json.loads builds one per call)


def parse_strict(data: bytes, cap: int) -> dict[str, Any]:
    """One JSON object from ``data`` (at most ``cap`` bytes); BadResult otherwise."""
    if len(data) > cap:
        raise BadResult(f"the result is {len(data):,} bytes; the limit is {cap:,}")
    try:
        value = _DECODER.decode(data.decode("utf-8"))
    except BadResult:
        raise
    except RecursionError:
        raise BadResult("the result is nested too deeply") from None
    except ValueError as exc:  # bad UTF-8, bad JSON, or an integer over Python's 4,300-digit limit
        raise BadResult(f"the result is not valid JSON ({exc.__class__.__name__})") from None
    if not isinstance(value, dict):
        raise BadResult("the result is not a JSON object")
    return value


def check_answer(message: dict[str, Any], n_bits: int) -> list[int]:
    """The secret indices a solve() returned: a list of distinct ints in [0, n_bits)."""
    answer = message.get("answer")
    if not isinstance(answer, list) or len(answer) > n_bits:
        raise BadResult("solve() must return a list of bit indices")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n_bits for v in answer):
        raise BadResult(f"solve() must return bit indices between 0 and {n_bits - 1}")
    if len(set(answer)) != len(answer):
        raise BadResult("solve() returned the same index twice")
    return sorted(answer)


def check_text(message: dict[str, Any]) -> str:
    """The IR text a generate() produced."""
    text = message.get("text")
    if not isinstance(text, str):
        raise BadResult("generate() must return IR text")
    return text
