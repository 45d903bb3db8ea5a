"""A result judged under one version of a challenge's correctness rules is never served for a request under another:
the rules version is part of a stored request's key where the challenge has one; where it has none the key is the
one stored rows were made under before rules had versions.

Oracles: the key fields as documented (docs/verdicts.md, tools/run_request.py), hashed by hand here; the
``reused`` flag of ``sutro score --json`` (docs/json.md).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from engine.challenges import rules_version
from tests.reference_data import REFERENCE
from tools import run_request
from tools.run_request import NormalisedRequest


def test_a_challenge_without_a_rules_version_keeps_its_old_key() -> None:
    request = NormalisedRequest(challenge="symmetry_six", kind="ir", subject="x", code="", metric_versions=("dally@1",))
    assert rules_version("symmetry_six") == ""
    fields = {
        "challenge": "symmetry_six",
        "kind": "ir",
        "params": {},
        "code": request.code_hash,
        "metrics": ["dally@1"],
    }
    by_hand = hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()
    assert request.key == by_hand


@pytest.mark.slow  # 0.6 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_result_under_older_rules_is_judged_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "baseline_4x4.ir"
    program.write_bytes((REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_bytes())
    runner = CliRunner()

    def score() -> dict:  # type: ignore[type-arg]
        out = runner.invoke(main, ["score", str(program), "--json"]).output
        return json.loads(out)  # type: ignore[no-any-return]

    first = score()
    assert first["ok"] and rules_version("matmul_4x4") == "matmul rules@2"
    assert score()["reused"]  # same code, same rules: the stored result
    # the next release's rules (what the key sees of them; the rest of the judging is unchanged)
    monkeypatch.setattr(run_request, "rules_version", lambda c: "matmul rules@3" if c == "matmul_4x4" else "")
    again = score()
    assert not again["reused"] and again["run_id"] != first["run_id"]  # new rules: judged again
