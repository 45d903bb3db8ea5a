"""``sweep``: one table over the grid, each point stored as the run ``/run`` would store, refusals in one line.

Oracles: km_min solves any n (accuracy 1.0 at every point, so the largest n solved is the largest n swept); a point
of a sweep is the same stored request as ``run`` with those parameters (same run id, reused); sgd's cap n ≤ 64;
a limit set with ``config set`` is the one that refuses.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bot.cli import main


def _json(*args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.output)


def _one_line(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    return " ".join(line.strip() for line in result.output.splitlines() if line.strip())


@pytest.mark.slow
def test_a_sweep_over_n_and_k_is_one_table_and_the_largest_n_solved():
    code, data = _json("sweep", "km_min", "n=20,50,100", "k=3,5")
    assert code == 0 and data["axes"] == {"n": ["20", "50", "100"], "k": ["3", "5"]}
    rows = data["rows"]
    assert [(r["n"], r["k"]) for r in rows] == [(20, 3), (20, 5), (50, 3), (50, 5), (100, 3), (100, 5)]
    assert all(r["ok"] and r["accuracy"] == 1.0 and r["dmc@1"] > 0 and r["run_id"] for r in rows)
    assert data["largest_solved"] == {"3": 100, "5": 100}
    assert len({r["run_id"] for r in rows}) == 6 and not any(r["reused"] for r in rows)
    code, again = _json("sweep", "km_min", "n=20,50,100", "k=3,5")
    assert [r["run_id"] for r in again["rows"]] == [r["run_id"] for r in rows] and all(
        r["reused"] for r in again["rows"]
    )


@pytest.mark.slow
def test_each_point_is_the_run_that_run_stores():
    params = ["n=8", "k=3", "m=60", "hidden=20", "epochs=2"]
    code, single = _json("run", "sgd", *params, "lr=0.1")
    assert code in (0, 1) and single["run_id"]
    code, data = _json("sweep", "sgd", *params, "lr=0.03,0.1")
    assert [r["lr"] for r in data["rows"]] == ["0.03", "0.1"] and data["fixed"]["hidden"] == "20"
    first, second = data["rows"]
    assert second["run_id"] == single["run_id"] and second["reused"] is True
    assert second["accuracy"] == single["accuracy"] and second["dmc@1"] == single["metrics"]["dmc@1"]
    assert first["reused"] is False and first["run_id"] != single["run_id"]
    code, shown = _json("show", str(first["run_id"]))
    assert code == 0 and shown["run"]["params"]["lr"] == 0.03


def test_points_outside_the_range_are_rows_that_say_why():
    code, data = _json("sweep", "sgd", "n=100", "k=3,5", "epochs=5")  # its own parameter: past the defaults' reach
    assert code == 0 and all(r["run_id"] is None and r["accuracy"] is None for r in data["rows"])
    assert "n=100 is above sgd's limit of n ≤ 64" in data["rows"][0]["note"]
    assert data["largest_solved"] == {}  # n is fixed here, not swept
    code, data = _json("sweep", "sgd", "n=50,100")  # at the defaults: the reach rule says what passes
    assert code == 0 and all(r["run_id"] is None for r in data["rows"])
    assert all("sgd's defaults do not solve" in r["note"] and "set n=20" in r["note"] for r in data["rows"])
    assert data["largest_solved"] == {"3": None}  # n swept, none solved


def test_bad_sweeps_are_refused_in_one_line():
    assert "did you mean 'km' or 'km_min'" in _one_line("sweep", "kmm", "n=20,30")
    assert "unknown parameter 'nn' — did you mean 'n'?" in _one_line("sweep", "km_min", "nn=20,30")
    assert "n=20,,30 has an empty value" in _one_line("sweep", "km_min", "n=20,,30")
    assert "which method?" in _one_line("sweep")
    many = [f"n={','.join(str(n) for n in range(20, 26))}", "k=1,2,3,4,5,6"]
    assert "the sweep grid has 36 points, over the limit of 30" in _one_line("sweep", "km_min", *many)
    assert CliRunner().invoke(main, ["config", "set", "limits.sweep_points", "4"]).exit_code == 0
    line = _one_line("sweep", "km_min", "n=20,30,40", "k=3,5")
    assert "the sweep grid has 6 points, over the limit of 4" in line and "limits.sweep_points" in line


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (bytes 16–24)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


@pytest.mark.slow
def test_points_run_in_parallel_each_stored_with_progress_and_a_chart_sent_as_a_photo() -> None:
    from bot.app import load_settings
    from bot.commands.sweep import sweep_card
    from bot.context import AppContext
    from bot.core.sweep import SweepRequest, run_sweep
    from bot.telegram_app.render import render

    ctx = AppContext(settings=load_settings())
    said: list[tuple[str, float | None]] = []
    request = SweepRequest.parse("km_min", {"n": "12,16", "k": "3,4", "seeds": "0,1"})
    outcome = run_sweep(ctx, request, member="alice", progress=lambda text, share: said.append((text, share)))
    # 4 (n, k) points × 2 seeds = 8 points, each its own stored run (seed is an axis here)
    assert len(outcome.points) == 8 and len({p.run_id for p in outcome.points}) == 8
    assert all(p.row.ok and p.value is not None and p.value > 0 for p in outcome.points)
    assert outcome.metric == "dmc@1" and outcome.largest_solved == {3: 16, 4: 16}
    # the 8 seed runs went to the job's 2 workers at once: one "running … at a time" line, then one line per run
    assert said[1][0] == "running 8 seed runs on 2 worker processes"
    finished = [text for text, _ in said if " done (" in text]
    assert len(finished) == 8 and any(text.startswith("km_min n=16 k=4, seed 1 done") for text in finished)
    assert [share for text, share in said if " done (" in text] == [i / 8 for i in range(1, 9)]
    reply = sweep_card(outcome)
    assert [f.mime for f in reply.files] == ["image/png"] and _png_size(reply.files[0].content) == (1000, 450)
    assert render(reply).photos == reply.files
    headline, *lines = reply.text.splitlines()
    assert headline.endswith("8 of 8 passed; largest n solved: k=3 n=16, k=4 n=16")
    # five points, each with its run id, then how to see the other three (a card has six lines)
    assert [line.rsplit("#", 1)[1] for line in lines[:5]] == [str(p.run_id) for p in outcome.points[:5]]
    assert lines[5] == "3 more: add --table for all" and not reply.tables
    assert [len(t.rows) for t in sweep_card(outcome, table=True).tables] == [8]
    ctx.close()


def test_a_sweep_without_an_n_axis_has_no_chart() -> None:
    from bot.commands.sweep import sweep_card
    from bot.core.sweep import SweepOutcome, SweepRequest

    request = SweepRequest.parse("km_min", {"n": "20", "seeds": "0,1"})
    assert sweep_card(SweepOutcome(request=request, points=())).files == []
