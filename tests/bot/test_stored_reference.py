"""A solver's baseline is chosen once, when its run is judged, and stored with its verdict (issue 28).

With ``baseline.reference = best`` choosing a solver's reference ranks every built-in solver on the run's seeds
(about 2 s at n=20). The choice is kept in the run's stored judgement (``baseline_name``, ``baseline_run``), so
every later rendering — ``/show`` (text and JSON), the stored answer's card, the digest, the leaderboard — reads it
and never ranks again: here the ranking is made to fail after the run, and every rendering still states the one
stored verdict against the same baseline run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import bot.core.baselines as baselines
import engine.methods
from bot.cli import main
from bot.core.judgement import baseline_choice


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.output


def _json(*args: str) -> dict[str, Any]:
    lines = [line for line in _cli(*args, "--json").splitlines() if line.strip()]
    return json.loads(lines[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
def test_rendering_a_solver_run_reads_its_stored_reference(
    _isolated_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _json("run", "gf2", "seeds=42,123")  # a solver: its reference is ranked now, once
    stored = answer["verdict"]
    choice = baseline_choice(stored)
    assert choice is not None and choice.run_id is not None and choice.run_id == answer["baseline"]["run_id"]
    assert stored["baseline"] == f"{choice.name} (#{choice.run_id})"

    def no_ranking(*args: object, **kwargs: object) -> None:
        raise AssertionError("a rendering ranked the built-in solvers again")

    monkeypatch.setattr(baselines, "_best_reference", no_ranking)
    monkeypatch.setattr(engine.methods, "best_reference_solver", no_ranking)
    run_id = str(answer["run_id"])
    shown = _json("show", run_id)
    assert shown["verdict"] == stored
    for text in (_cli("show", run_id), _cli("run", "gf2", "seeds=42,123")):  # /show and the stored answer's card
        assert f"vs {choice.name}" in _flat(text), text  # the stored reference, named as it was judged
    assert _json("run", "gf2", "seeds=42,123")["verdict"] == stored
    _cli("digest")
    _cli("leaderboard", "sparse_parity")


def test_a_judgement_stored_before_the_choice_was_kept_chooses_as_before() -> None:
    # no "baseline_run" key: stored before the choice was kept; the caller then chooses the baseline again
    assert baseline_choice(None) is None
    assert baseline_choice({"baseline": "sgd (#1)"}) is None
    # a kept choice, with or without a baseline
    kept = baseline_choice({"baseline_name": "gf2", "baseline_run": 7})
    assert kept is not None and (kept.name, kept.run_id) == ("gf2", 7)
    none = baseline_choice({"baseline_name": None, "baseline_run": None})
    assert none is not None and none.name is None
