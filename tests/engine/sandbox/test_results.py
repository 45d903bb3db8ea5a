"""Strict result parsing: NaN/Infinity literals, oversize messages, non-objects, bad answers are rejected."""

from __future__ import annotations

import pytest

from engine.sandbox.results import BadResult, check_answer, check_text, parse_strict


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_literals_are_rejected(literal: str) -> None:
    with pytest.raises(BadResult, match="not a number"):
        parse_strict(f'{{"type": "result", "value": {literal}}}'.encode(), 1000)


def test_size_cap_and_shape() -> None:
    with pytest.raises(BadResult, match="limit"):
        parse_strict(b'{"a": "' + b"x" * 100 + b'"}', 50)
    with pytest.raises(BadResult, match="not a JSON object"):
        parse_strict(b"[1, 2]", 50)
    with pytest.raises(BadResult, match="not valid JSON"):
        parse_strict(b"\x80\x81", 50)
    assert parse_strict(b'{"type": "result", "text": "1;2"}', 50) == {"type": "result", "text": "1;2"}


def test_answers_must_be_distinct_indices_in_range() -> None:
    assert check_answer({"answer": [5, 1, 3]}, 20) == [1, 3, 5]
    for bad in ([1, 1], [20], [-1], [True, 2], "012", [1.0]):
        with pytest.raises(BadResult):
            check_answer({"answer": bad}, 20)


def test_text_must_be_a_string() -> None:
    assert check_text({"text": "1;3"}) == "1;3"
    with pytest.raises(BadResult):
        check_text({"text": 12})
