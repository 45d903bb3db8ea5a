"""The ``--json`` answers have the keys docs/json.md documents, per kind of result — and ``score`` and ``submit``
answer the same IR program with the same object (one judging path)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.reference_data import REFERENCE

JSON_PAGE = Path(__file__).resolve().parents[2] / "docs" / "json.md"
BASELINE_4X4 = REFERENCE / "ir" / "matmul__baseline_4x4.ir"


def documented(kind: str) -> list[str]:
    """The keys listed in docs/json.md between ``<!-- json:KIND -->`` and ``<!-- /json -->``."""
    block = re.search(rf"<!-- json:{kind} -->(.*?)<!-- /json -->", JSON_PAGE.read_text(), re.S)
    assert block is not None, f"docs/json.md documents no {kind} JSON"
    return re.findall(r"`(\w+)`", block.group(1))


def answer(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    payload: dict[str, object] = json.loads(result.output)
    return payload


def test_score_and_submit_give_the_same_documented_object() -> None:
    scored = answer("score", str(BASELINE_4X4))
    submitted = answer("submit", str(BASELINE_4X4))
    assert list(scored) == documented("submission")
    # the same program: the stored answer, the same object, a submission record of its own
    assert submitted == {**scored, "reused": True, "submission_id": scored["submission_id"] + 1}
    # the published 4x4 baseline (docs/challenges.md#published-figures)
    assert scored["cost"] == 1316 and scored["judged_by"] == "ir"


def test_a_file_that_is_not_text_gets_the_same_object() -> None:
    result = CliRunner().invoke(main, ["score", "-", "--json"], input=b"\x00\x01binary")
    payload = json.loads(result.output)
    assert result.exit_code == 1 and list(payload) == documented("submission")
    assert payload["ok"] is False and payload["failure_kind"] == "rejected" and "NUL bytes" in str(payload["error"])


@pytest.mark.slow
def test_method_and_generator_runs_have_their_documented_keys() -> None:
    assert list(answer("run", "gf2", "n=20", "k=3", "seed=7")) == documented("method")
    generated = answer("run", "matmul_4x4")
    assert list(generated) == documented("generator")
    assert generated["cost"] == 1316  # the built-in baseline generator prices like the published baseline
